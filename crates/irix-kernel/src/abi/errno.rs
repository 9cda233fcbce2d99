//! SVR4 errno values as IRIX numbers them (docs/abi.md), not Linux's.

/// An error a system call returns to the guest (v0 = the number, a3 = 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum Errno {
    EPERM = 1,
    ENOENT = 2,
    ESRCH = 3,
    EINTR = 4,
    EIO = 5,
    ENXIO = 6,
    E2BIG = 7,
    ENOEXEC = 8,
    EBADF = 9,
    ECHILD = 10,
    EAGAIN = 11,
    ENOMEM = 12,
    EACCES = 13,
    EFAULT = 14,
    EEXIST = 17,
    ENODEV = 19,
    ENOTDIR = 20,
    EISDIR = 21,
    EINVAL = 22,
    EMFILE = 24,
    ENOTTY = 25,
    EFBIG = 27,
    ESPIPE = 29,
    EPIPE = 32,
    ERANGE = 34,
    EDEADLK = 45,
    ENAMETOOLONG = 78,
    EOVERFLOW = 79,
    ENOSYS = 89,
    ELOOP = 90,
    ENOTEMPTY = 93,
    ETIMEDOUT = 145,
}

impl Errno {
    /// The number the guest sees in v0.
    pub fn number(self) -> u32 {
        self as u32
    }

    /// The symbolic name, for --strace.
    pub fn name(self) -> &'static str {
        match self {
            Errno::EPERM => "EPERM",
            Errno::ENOENT => "ENOENT",
            Errno::ESRCH => "ESRCH",
            Errno::EINTR => "EINTR",
            Errno::EIO => "EIO",
            Errno::ENXIO => "ENXIO",
            Errno::E2BIG => "E2BIG",
            Errno::ENOEXEC => "ENOEXEC",
            Errno::EBADF => "EBADF",
            Errno::ECHILD => "ECHILD",
            Errno::EAGAIN => "EAGAIN",
            Errno::ENOMEM => "ENOMEM",
            Errno::EACCES => "EACCES",
            Errno::EFAULT => "EFAULT",
            Errno::EEXIST => "EEXIST",
            Errno::ENODEV => "ENODEV",
            Errno::ENOTDIR => "ENOTDIR",
            Errno::EISDIR => "EISDIR",
            Errno::EINVAL => "EINVAL",
            Errno::EMFILE => "EMFILE",
            Errno::ENOTTY => "ENOTTY",
            Errno::EFBIG => "EFBIG",
            Errno::ESPIPE => "ESPIPE",
            Errno::EPIPE => "EPIPE",
            Errno::ERANGE => "ERANGE",
            Errno::EDEADLK => "EDEADLK",
            Errno::ENAMETOOLONG => "ENAMETOOLONG",
            Errno::EOVERFLOW => "EOVERFLOW",
            Errno::ENOSYS => "ENOSYS",
            Errno::ELOOP => "ELOOP",
            Errno::ENOTEMPTY => "ENOTEMPTY",
            Errno::ETIMEDOUT => "ETIMEDOUT",
        }
    }
}
