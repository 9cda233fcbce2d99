//! Flag and command values of the system calls (SVR4 values, as IRIX's
//! headers number them).

/// Open-file status flags (<fcntl.h>).
pub mod oflag {
    pub const O_RDONLY: u32 = 0;
    pub const O_WRONLY: u32 = 1;
    pub const O_RDWR: u32 = 2;
    pub const O_ACCMODE: u32 = 3;
    pub const O_NDELAY: u32 = 0x04;
    pub const O_APPEND: u32 = 0x08;
    pub const O_SYNC: u32 = 0x10;
    pub const O_NONBLOCK: u32 = 0x80;
    pub const O_CREAT: u32 = 0x100;
    pub const O_TRUNC: u32 = 0x200;
    pub const O_EXCL: u32 = 0x400;
    pub const O_NOCTTY: u32 = 0x800;
}

/// fcntl commands.
pub mod fcntl {
    pub const F_DUPFD: u32 = 0;
    pub const F_GETFD: u32 = 1;
    pub const F_SETFD: u32 = 2;
    pub const F_GETFL: u32 = 3;
    pub const F_SETFL: u32 = 4;
    pub const F_SETLK: u32 = 6;
    pub const F_SETLKW: u32 = 7;
    pub const F_ALLOCSP: u32 = 10;
    pub const F_FREESP: u32 = 11;
    pub const F_GETLK: u32 = 14;
    /// struct flock's l_type.
    pub const F_RDLCK: i16 = 1;
    pub const F_WRLCK: i16 = 2;
    pub const F_UNLCK: i16 = 3;
    /// The o32 `struct flock`: l_type (short) @0, l_whence (short) @2,
    /// l_start @4, l_len @8, l_sysid @12, l_pid @16, `l_pad[4]` @20 (the
    /// SVR4 MIPS ABI layout; the same numbers as SVR4's commands).
    pub const FLOCK_SIZE: usize = 36;
}

/// lseek's whence.
pub mod seek {
    pub const SEEK_SET: u32 = 0;
    pub const SEEK_CUR: u32 = 1;
    pub const SEEK_END: u32 = 2;
}

/// ioctl requests. The terminal ones are ('T' << 8 | n), as IRIX 5.3's
/// libc issues them (isatty TCGETA, tcsetattr TCSETS/TCSETSW/TCSETSF,
/// tcgetattr TCGETS, tcdrain TCSBRK, tcflow TCXONC, tcflush TCFLSH); the
/// window size and FIO ones are BSD-encoded (IOC_OUT 0x4000_0000, IOC_IN
/// 0x8000_0000, size << 16, group << 8, number), as libcurses' setupterm
/// (TIOCGWINSZ) and tgetch (FIONREAD) issue them.
pub mod ioctl {
    pub const TCGETA: u32 = 0x5401;
    pub const TCSETA: u32 = 0x5402;
    pub const TCSETAW: u32 = 0x5403;
    pub const TCSETAF: u32 = 0x5404;
    pub const TCSBRK: u32 = 0x5405;
    pub const TCXONC: u32 = 0x5406;
    pub const TCFLSH: u32 = 0x5407;
    pub const TCGETS: u32 = 0x540d;
    pub const TCSETS: u32 = 0x540e;
    pub const TCSETSW: u32 = 0x540f;
    pub const TCSETSF: u32 = 0x5410;
    /// _IOR('t', 104, struct winsize) and _IOW('t', 103, struct winsize).
    pub const TIOCGWINSZ: u32 = 0x4008_7468;
    pub const TIOCSWINSZ: u32 = 0x8008_7467;
    /// _IOR('f', 127, int): bytes waiting to be read.
    pub const FIONREAD: u32 = 0x4004_667f;
    /// _IOW('f', 126, int): non-blocking I/O on (non-zero) or off.
    pub const FIONBIO: u32 = 0x8004_667e;
    /// _IOR('s', 7, int): is a socket's read position at the out-of-band
    /// mark?
    pub const SIOCATMARK: u32 = 0x4004_7307;
}

/// mmap protections and flags.
pub mod mmap {
    pub const PROT_MASK: u32 = 7;
    pub const PROT_WRITE: u32 = 2;
    pub const MAP_SHARED: u32 = 1;
    pub const MAP_PRIVATE: u32 = 2;
    pub const MAP_FIXED: u32 = 0x10;
    pub const MAP_ANONYMOUS: u32 = 0x100;
    /// msync(2) flags, SVR4's values (IRIX's <sys/mman.h> is not at
    /// hand: MS_ASYNC 1 and MS_INVALIDATE 2 are shared by every SVR4
    /// descendant; MS_SYNC is 0 in SVR4.0 and 4 in later ones, and both
    /// are accepted).
    pub const MS_ASYNC: u32 = 1;
    pub const MS_INVALIDATE: u32 = 2;
    pub const MS_SYNC: u32 = 4;
    /// madvise(2)'s one advice on IRIX 5.3 (the BSD and SVR4 value).
    pub const MADV_DONTNEED: u32 = 4;
}

/// cacheflush(2) and cachectl(2) arguments (<sys/cachectl.h>, the MIPS
/// values Linux's asm/cachectl.h keeps too).
pub mod cachectl {
    pub const ICACHE: u32 = 1;
    pub const DCACHE: u32 = 2;
    pub const BCACHE: u32 = ICACHE | DCACHE;
    pub const CACHEABLE: u32 = 0;
    pub const UNCACHEABLE: u32 = 1;
}

/// waitsys id types and options (<sys/wait.h>), and SIGCHLD's si_code.
pub mod wait {
    pub const P_PID: u32 = 0;
    pub const P_PGID: u32 = 2;
    pub const P_ALL: u32 = 7;
    pub const WEXITED: u32 = 0x01;
    pub const WTRAPPED: u32 = 0x02;
    pub const WSTOPPED: u32 = 0x04;
    pub const WCONTINUED: u32 = 0x08;
    pub const WNOHANG: u32 = 0x40;
    pub const WNOWAIT: u32 = 0x80;
    pub const CLD_EXITED: u32 = 1;
    pub const CLD_KILLED: u32 = 2;
    pub const CLD_DUMPED: u32 = 3;
    pub const CLD_STOPPED: u32 = 5;
    pub const CLD_CONTINUED: u32 = 6;
}

/// sigsend(2)'s id types beyond waitsys' (SVR4 <sys/procset.h>, the
/// order the page lists them in), P_MYID, and sigsendset's set operations.
pub mod procset {
    pub const P_PPID: u32 = 1;
    pub const P_SID: u32 = 3;
    pub const P_CID: u32 = 4;
    pub const P_UID: u32 = 5;
    pub const P_GID: u32 = 6;
    /// "If id is P_MYID, the value of id is taken from the calling process."
    pub const P_MYID: u32 = u32::MAX;
    pub const POP_DIFF: u32 = 0;
    pub const POP_AND: u32 = 1;
    pub const POP_OR: u32 = 2;
    pub const POP_XOR: u32 = 3;
}

/// sigprocmask's `how`, and sigaction's sa_flags.
pub mod sigmask {
    pub const SIG_BLOCK: u32 = 1;
    pub const SIG_UNBLOCK: u32 = 2;
    pub const SIG_SETMASK: u32 = 3;
    pub const SA_ONSTACK: u32 = 1;
    pub const SA_RESETHAND: u32 = 2;
    pub const SA_RESTART: u32 = 4;
    pub const SA_NODEFER: u32 = 0x10;
    /// No SIGCHLD when a child stops or continues (sigaction(2)).
    pub const SA_NOCLDSTOP: u32 = 0x0002_0000;
}

/// ulimit commands.
pub mod ulimit {
    pub const UL_GETFSIZE: u32 = 1;
    pub const UL_SETFSIZE: u32 = 2;
    pub const UL_GMEMLIM: u32 = 3;
    pub const UL_GDESLIM: u32 = 4;
}

/// The xstat version of the SVR4 o32 struct stat (IRIX _STAT_VER).
pub const STAT_VER_O32: u32 = 2;
/// The xstat version of `struct stat64` (IRIX _STAT64_VER).
pub const STAT64_VER: u32 = 3;
/// utssys's command for uname.
pub const UTS_UNAME: u32 = 0;
