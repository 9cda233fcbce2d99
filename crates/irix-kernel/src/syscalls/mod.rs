//! System calls: the table is data (`TABLE`: number, name, argument kinds,
//! handler, how far irix-emu supports the call), and `dispatch` is the one
//! place that reads arguments and writes results back (v0, v1, a3),
//! charges system time and prints --strace lines.
//!
//! o32 convention (docs/abi.md): v0 = 1000 + n; arguments in a0..a3, then
//! at sp+16, sp+20, ... (n32: in $a4..$a7); 1000 is the indirect call
//! (number in a0, arguments shifted by one). Success: a3 = 0, v0 = result
//! (v1 = second result). Failure: a3 = 1, v0 = the positive SVR4 errno.
//! syssgi's requests are a second table (`syssgi::TABLE`) of the same rows.
//!
//! Handlers by concern:
//! - `fs`: open, read, write, close, creat, unlink, chdir, access,
//!   lseek, lseek64, dup, fcntl, pipe, umask, ioctl, chmod, fchmod;
//!   `dirs`: getdents, ngetdents64; `stat`: xstat, lxstat, fxstat
//! - `paths`: mkdir, rmdir, rename, link, symlink, readlink, xmknod,
//!   fchdir, chroot; `attrs`: truncate, ftruncate (and their 64-bit
//!   forms), utime, chown, lchown, fchown, fsync, sync (`owner`: who owns
//!   a file, chown's rules); `fsinfo`: statvfs, fstatvfs, statfs, fstatfs, sysfs
//! - `conf`: syssgi's SGI_SYSCONF and SGI_PATHCONF
//! - `filelocks`: fcntl's record locks, F_ALLOCSP and F_FREESP
//! - `ioctl`: the terminal and descriptor requests of ioctl
//! - `usema`: opening /dev/usemaclone and /dev/usema, their ioctls
//! - `sgi`: sysmp, prctl, sysinfo; `elfmap`: syssgi(SGI_ELFMAP)
//! - `mem`: brk, mmap, munmap, msync, mprotect, getpagesize; `cache`:
//!   cacheflush, cachectl, madvise
//! - `time`: time, times, gettimeofday, nanosleep, sginap
//! - `timers`: alarm, getitimer, setitimer
//! - `sigwait`: pause, sigsuspend, sigpending, sigstack, sigaltstack, sigsendset
//! - `vio`: readv, writev, pread, pwrite; `poll`: poll, select
//! - `ipc`: msgsys, semsys, shmsys (System V IPC, objects in `crate::ipc`)
//! - `socket`: socket, socketpair, bind, listen, accept, connect, send,
//!   sendto, sendmsg, recv, recvfrom, recvmsg, shutdown, getsockname, getpeername,
//!   getsockopt, setsockopt (sockets in `crate::net`)
//! - `info`: getpid, utssys and uname, ulimit
//! - `ids`: getuid, getgid, the setuid family, groups, pgrpsys and the
//!   process-group calls, nice, schedctl's priorities
//! - `rlimit`: getrlimit, setrlimit and their 64-bit forms, and the limit
//!   checks other calls make
//! - `unsupported`: the rows of the calls refused on purpose or missing
//! - `syssgi`: the syssgi requests' table and SGI_SYSID, SGI_SYSCONF
//! - `prof`: profil, sprofil (through syssgi), pcsample
//! - `proc`: exit, fork, sproc, sprocsp, execv, execve, waitsys, kill, sigaction,
//!   sigprocmask, sigreturn; `script`: execve's interpreter files (`#!`)

mod args;
mod attrs;
mod cache;
mod conf;
mod dirs;
mod elfmap;
mod filelocks;
mod fs;
mod fsinfo;
mod ids;
mod info;
mod ioctl;
mod ipc;
mod mem;
mod owner;
mod paths;
mod poll;
mod proc;
mod prof;
mod rlimit;
mod script;
mod sgi;
mod sigwait;
mod socket;
mod stat;
mod strace;
pub mod syssgi;
mod time;
mod timers;
mod unsupported;
mod usema;
mod vio;

pub use args::Args;

use crate::abi::flags::sigmask::SA_RESTART;
use crate::abi::sys;
use crate::kernel::Kernel;
use crate::process::{ExitStatus, Process};
use crate::timers::{OnSignal, Wait};
use crate::Errno;
use cpu_mips::Reg;
use strace::format_result;

/// What a handler did, when it did not fail.
#[derive(Debug)]
pub enum Ret {
    /// Success with v0.
    Val(u32),
    /// Success with v0 and v1 (pipe, fork, getpid, lseek64...).
    Pair(u32, u32),
    /// The call cannot finish yet (pipe I/O, waitsys): the process blocks
    /// and the call is re-executed when it next runs. Nothing was done.
    Block,
    /// As `Block`, for a host FIFO or device with nothing yet: the caller
    /// waits a clock tick of virtual time and retries (never a deadlock:
    /// only a party outside the run can end the wait).
    WaitHost,
    /// The process is gone (exit); nothing to write back.
    Exit(ExitStatus),
    /// The handler set the registers and PC itself (execve, sigreturn).
    Jumped,
}

/// A handler's result: `Err(errno)` is the call's error return, so
/// handlers propagate failures with `?`.
pub type SysResult = Result<Ret, Errno>;

/// How to show an argument in --strace (`strace` decodes each kind).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    Int,
    Hex,
    Ptr,
    /// A NUL-terminated guest string (a path).
    Str,
    /// A buffer whose length is the next argument (shown for writes).
    Buf,
    Fd,
    Oct,
    /// open(2)'s flags: `O_WRONLY|O_CREAT|O_TRUNC`.
    OpenFlags,
    /// access(2)'s mode: `R_OK|W_OK`, `F_OK`.
    Access,
    /// lseek(2)'s whence: `SEEK_SET`...
    Whence,
    /// A signal number: `SIGALRM`.
    Signal,
    /// sigprocmask(2)'s how: `SIG_BLOCK`...
    SigHow,
    /// fcntl(2)'s command: `F_SETFL`...
    FcntlCmd,
    /// An ioctl(2) request: `TCGETA`...
    IoctlReq,
    /// mmap(2)'s protection: `PROT_READ|PROT_WRITE`.
    Prot,
    /// mmap(2)'s flags: `MAP_PRIVATE|MAP_ANONYMOUS`.
    MapFlags,
    /// A struct stat the call fills in (xstat's version is argument 0).
    StatOut,
    /// A struct timeval the call fills in.
    TimevalOut,
    /// A struct timespec the call reads.
    TimespecIn,
    /// msgsys, semsys or shmsys's operation: `msgget`, `semop`...
    IpcOp,
    /// A socket address the call reads; its length is the next argument:
    /// `{AF_INET, 127.0.0.1:7}`, `{AF_UNIX, "/tmp/s"}`.
    SockAddr,
    /// An address family: `AF_UNIX`, `AF_INET`.
    Family,
    /// A socket type: `SOCK_STREAM`, `SOCK_DGRAM`.
    SockType,
    /// A socket option level: `SOL_SOCKET`, `IPPROTO_TCP`.
    SockLevel,
    /// send(2)/recv(2) flags: `MSG_OOB|MSG_PEEK`, `0`.
    MsgFlags,
}

/// How far irix-emu implements a call, as the README lists it (gVisor's
/// support levels: every row says what a guest gets, and why).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Support {
    /// Every documented behaviour of the call.
    Full,
    /// Implemented with the limits the note names.
    Partial(&'static str),
    /// Refused on purpose: the guest gets the errno an unprivileged IRIX
    /// process (uid 100) gets from the call, as its page names it; the note
    /// says why irix-emu stops there.
    Refused(Errno, &'static str),
    /// Not implemented yet: ENOSYS, with a one-line warning naming the call.
    Missing(&'static str),
}

/// A handler: the kernel, the calling process, and its arguments.
pub type Handler = fn(&mut Kernel, &mut Process, &Args) -> SysResult;

/// One row of a call table.
pub struct Syscall {
    pub nr: u32,
    pub name: &'static str,
    pub args: &'static [Arg],
    /// The code that runs the call; none for a refused or missing call,
    /// whose answer is its support level's errno.
    pub handler: Option<Handler>,
    pub support: Support,
}

/// A table row (a `const fn`, so the tables stay one line per call).
pub const fn call(
    nr: u32,
    name: &'static str,
    args: &'static [Arg],
    handler: Handler,
    support: Support,
) -> Syscall {
    Syscall {
        nr,
        name,
        args,
        handler: Some(handler),
        support,
    }
}

/// A row for a call refused on purpose with `errno` (see `Support::Refused`).
pub const fn refused(
    nr: u32,
    name: &'static str,
    args: &'static [Arg],
    errno: Errno,
    note: &'static str,
) -> Syscall {
    Syscall {
        nr,
        name,
        args,
        handler: None,
        support: Support::Refused(errno, note),
    }
}

/// A row for a call not implemented yet (ENOSYS, see `Support::Missing`).
pub const fn missing(
    nr: u32,
    name: &'static str,
    args: &'static [Arg],
    note: &'static str,
) -> Syscall {
    Syscall {
        nr,
        name,
        args,
        handler: None,
        support: Support::Missing(note),
    }
}

use Arg::*;
use Support::{Full, Partial};

/// Every system call irix-emu implements, sorted by number.
#[rustfmt::skip]
pub static TABLE: &[Syscall] = &[
    call(sys::EXIT,         "exit",         &[Int], proc::exit, Full),
    call(sys::FORK,         "fork",         &[], proc::fork, Full),
    call(sys::READ,         "read",         &[Fd, Ptr, Int], fs::read, Full),
    call(sys::WRITE,        "write",        &[Fd, Buf, Int], fs::write, Full),
    call(sys::OPEN,         "open",         &[Str, OpenFlags, Oct], fs::open, Full),
    call(sys::CLOSE,        "close",        &[Fd], fs::close, Full),
    call(sys::WAIT,         "wait",         &[], proc::wait, Full),
    call(sys::CREAT,        "creat",        &[Str, Oct], fs::creat, Full),
    call(sys::LINK,         "link",         &[Str, Str], paths::link, Full),
    call(sys::UNLINK,       "unlink",       &[Str], fs::unlink, Full),
    call(sys::EXECV,        "execv",        &[Str, Ptr], proc::execv, Full),
    call(sys::CHDIR,        "chdir",        &[Str], fs::chdir, Full),
    call(sys::TIME,         "time",         &[], time::time, Full),
    call(sys::CHMOD,        "chmod",        &[Str, Oct], fs::chmod, Full),
    call(sys::CHOWN,        "chown",        &[Str, Int, Int], attrs::chown, Full),
    call(sys::BRK,          "brk",          &[Hex], mem::brk, Full),
    call(sys::LSEEK,        "lseek",        &[Fd, Int, Whence], fs::lseek, Full),
    call(sys::GETPID,       "getpid",       &[], info::getpid, Full),
    call(sys::SETUID,       "setuid",       &[Int], ids::setuid, Full),
    call(sys::GETUID,       "getuid",       &[], ids::getuid, Full),
    call(sys::ALARM,        "alarm",        &[Int], timers::alarm, Full),
    call(sys::PAUSE,        "pause",        &[], sigwait::pause, Full),
    call(sys::UTIME,        "utime",        &[Str, Ptr], attrs::utime, Full),
    call(sys::ACCESS,       "access",       &[Str, Access], fs::access, Full),
    call(sys::NICE,         "nice",         &[Int], ids::nice, Full),
    call(sys::STATFS,       "statfs",       &[Str, Ptr, Int, Int], fsinfo::statfs, Full),
    call(sys::SYNC,         "sync",         &[], attrs::sync, Full),
    call(sys::KILL,         "kill",         &[Int, Signal], proc::kill, Full),
    call(sys::FSTATFS,      "fstatfs",      &[Fd, Ptr, Int, Int], fsinfo::fstatfs, Full),
    call(sys::PGRPSYS,      "pgrpsys",      &[Int, Int, Int], ids::pgrpsys, Full),
    call(sys::SYSSGI,       "syssgi",       &[Int, Hex, Hex, Hex, Hex], syssgi::unknown_request, Partial("the requests in its own table")),
    call(sys::DUP,          "dup",          &[Fd], fs::dup, Full),
    call(sys::PIPE,         "pipe",         &[], fs::pipe, Full),
    call(sys::TIMES,        "times",        &[Ptr], time::times, Full),
    call(sys::PROFIL,       "profil",       &[Ptr, Int, Hex, Hex], prof::profil, Full),
    call(sys::SETGID,       "setgid",       &[Int], ids::setgid, Full),
    call(sys::GETGID,       "getgid",       &[], ids::getgid, Full),
    call(sys::MSGSYS,       "msgsys",       &[IpcOp, Int, Hex, Hex, Hex, Hex], ipc::msgsys, Partial("msgget, msgctl, msgrcv, msgsnd as msgget(2), msgctl(2) and msgop(2) say, with irix-emu's fixed limits (docs/ipc.md); IPC_SET can lower msg_qbytes, never raise it (no super-user)")),
    call(sys::SHMSYS,       "shmsys",       &[IpcOp, Int, Hex, Hex], ipc::shmsys, Partial("shmat, shmctl, shmdt, shmget as shmop(2), shmctl(2) and shmget(2) say; shm_nattch counts attachments, an sproc share group's once (docs/ipc.md); SHMSEG 100 attachments (EMFILE); SHM_LOCK and SHM_UNLOCK EPERM (no super-user)")),
    call(sys::SEMSYS,       "semsys",       &[IpcOp, Int, Hex, Hex, Hex], ipc::semsys, Full),
    call(sys::IOCTL,        "ioctl",        &[Fd, IoctlReq, Hex], fs::ioctl, Partial("FIONREAD, FIONBIO; on a terminal TCGETA, TCSETA/TCSETAW/TCSETAF, TCGETS, TCSETS/TCSETSW/TCSETSF (kept by irix-emu, not applied to the host terminal), TIOCGWINSZ, TIOCSWINSZ, TCSBRK, TCXONC, TCFLSH; the usema(7M) requests on a semaphore device; other requests ENOTTY, or EINVAL on a terminal")),
    call(sys::SYSMP,        "sysmp",        &[Int, Hex, Hex, Hex], sgi::sysmp, Partial("MP_NPROCS, MP_NAPROCS, MP_PGSIZE, and MP_SCHED's nice commands (getpriority, setpriority); other commands ENOSYS")),
    call(sys::UTSSYS,       "utssys",       &[Ptr, Int, Int], info::utssys, Partial("uname only")),
    call(sys::EXECVE,       "execve",       &[Str, Ptr, Ptr], proc::execve, Full),
    call(sys::UMASK,        "umask",        &[Oct], fs::umask, Full),
    call(sys::CHROOT,       "chroot",       &[Str], paths::chroot, Full),
    call(sys::FCNTL,        "fcntl",        &[Fd, FcntlCmd, Hex], fs::fcntl, Partial("F_DUPFD, F_GETFD/SETFD, F_GETFL/SETFL, record locks (F_GETLK/SETLK/SETLKW), F_ALLOCSP/FREESP; others EINVAL")),
    call(sys::ULIMIT,       "ulimit",       &[Int, Int], info::ulimit, Full),
    call(sys::GETRLIMIT64,  "getrlimit64",  &[Int, Ptr], rlimit::getrlimit64, Full),
    call(sys::SETRLIMIT64,  "setrlimit64",  &[Int, Ptr], rlimit::setrlimit64, Full),
    call(sys::NANOSLEEP,    "nanosleep",    &[TimespecIn, Ptr], time::nanosleep, Full),
    call(sys::LSEEK64,      "lseek64",      &[Fd, Int, Int, Int, Int], fs::lseek64, Full),
    call(sys::RMDIR,        "rmdir",        &[Str], paths::rmdir, Full),
    call(sys::MKDIR,        "mkdir",        &[Str, Oct], paths::mkdir, Full),
    call(sys::GETDENTS,     "getdents",     &[Fd, Ptr, Int], dirs::getdents, Full),
    call(sys::SGINAP,       "sginap",       &[Int], time::sginap, Full),
    call(sys::SYSFS,        "sysfs",        &[Int, Hex, Hex], fsinfo::sysfs, Full),
    call(sys::POLL,         "poll",         &[Ptr, Int, Int], poll::poll, Full),
    call(sys::SIGRETURN,    "sigreturn",    &[Ptr, Ptr, Int], proc::sigreturn, Full),
    call(sys::ACCEPT,        "accept",        &[Fd, Ptr, Ptr], socket::accept, Full),
    call(sys::BIND,          "bind",          &[Fd, SockAddr, Int], socket::bind, Partial("AF_UNIX paths; AF_INET on the run's own addresses (127.0.0.0/8, INADDR_ANY), and with --net a host socket bound to the same address and port too")),
    call(sys::CONNECT,       "connect",       &[Fd, SockAddr, Int], socket::connect, Partial("to sockets of the same run; an AF_INET address outside 127.0.0.0/8 is ENETUNREACH unless --net, which reaches any address no socket of the run holds through a host socket")),
    call(sys::GETHOSTID,    "gethostid",    &[], sgi::gethostid, Full),
    call(sys::GETPEERNAME,   "getpeername",   &[Fd, Ptr, Ptr], socket::getpeername, Full),
    call(sys::GETSOCKNAME,   "getsockname",   &[Fd, Ptr, Ptr], socket::getsockname, Full),
    call(sys::GETSOCKOPT,    "getsockopt",    &[Fd, SockLevel, Int, Ptr, Ptr], socket::getsockopt, Partial("SO_TYPE, SO_ERROR, SO_ACCEPTCONN, SO_SNDBUF, SO_RCVBUF, SO_LINGER, the on/off SOL_SOCKET options, TCP_NODELAY; others ENOPROTOOPT")),
    call(sys::LISTEN,        "listen",        &[Fd, Int], socket::listen, Full),
    call(sys::RECV,          "recv",          &[Fd, Ptr, Int, MsgFlags], socket::recv, Partial("MSG_PEEK; MSG_OOB takes the urgent byte of a stream of the run (EINVAL when none; EOPNOTSUPP on a --net host connection)")),
    call(sys::RECVFROM,      "recvfrom",      &[Fd, Ptr, Int, MsgFlags, Ptr, Ptr], socket::recvfrom, Partial("as recv")),
    call(sys::RECVMSG,      "recvmsg",      &[Fd, Ptr, MsgFlags], socket::recvmsg, Partial("4.3BSD's msghdr; access rights on AF_UNIX become new descriptors (EMFILE leaves the message queued); MSG_OOB EOPNOTSUPP (recv takes it)")),
    call(sys::SELECT,       "select",       &[Int, Ptr, Ptr, Ptr, Ptr], poll::select, Full),
    call(sys::SEND,          "send",          &[Fd, Buf, Int, MsgFlags], socket::send, Partial("MSG_OOB on a stream of the run (its last byte urgent, with a mark); EOPNOTSUPP on datagrams and --net host connections; no SIGURG (no socket owners)")),
    call(sys::SENDMSG,      "sendmsg",      &[Fd, Ptr, MsgFlags], socket::sendmsg, Partial("4.3BSD's msghdr; access rights (descriptors, ints) on AF_UNIX, EOPNOTSUPP on AF_INET; EINVAL for a socket that holds rights or is sent to itself or its peer, so rights never form a cycle (docs/ipc.md); MSG_OOB as send")),
    call(sys::SENDTO,        "sendto",        &[Fd, Buf, Int, MsgFlags, SockAddr, Int], socket::sendto, Partial("as send; a datagram to an AF_INET port no socket of the run holds is lost, as UDP loses it (with --net: sent from a host socket)")),
    call(sys::SETSOCKOPT,    "setsockopt",    &[Fd, SockLevel, Int, Ptr, Int], socket::setsockopt, Partial("the options getsockopt reports are kept; they change nothing in the kernel's own sockets (docs/ipc.md); TCP_NODELAY and SO_KEEPALIVE also go to a --net host connection")),
    call(sys::SHUTDOWN,      "shutdown",      &[Fd, Int], socket::shutdown, Full),
    call(sys::SOCKET,        "socket",        &[Family, SockType, Int], socket::socket, Partial("AF_UNIX and AF_INET, SOCK_STREAM and SOCK_DGRAM; SOCK_RAW EACCES (the super-user's); ENOBUFS when --max-memory cannot hold its buffer")),
    call(sys::GETHOSTNAME,  "gethostname",  &[Ptr, Int], sgi::gethostname, Full),
    call(sys::GETDOMAINNAME, "getdomainname", &[Ptr, Int], sgi::getdomainname, Full),
    call(sys::TRUNCATE,     "truncate",     &[Str, Int], attrs::truncate, Full),
    call(sys::FTRUNCATE,    "ftruncate",    &[Fd, Int], attrs::ftruncate, Full),
    call(sys::RENAME,       "rename",       &[Str, Str], paths::rename, Full),
    call(sys::SYMLINK,      "symlink",      &[Str, Str], paths::symlink, Full),
    call(sys::READLINK,     "readlink",     &[Str, Ptr, Int], paths::readlink, Full),
    call(sys::SETREGID,     "setregid",     &[Int, Int], ids::setregid, Full),
    call(sys::SETREUID,     "setreuid",     &[Int, Int], ids::setreuid, Full),
    call(sys::GETITIMER,    "getitimer",    &[Int, Ptr], timers::getitimer, Full),
    call(sys::SETITIMER,    "setitimer",    &[Int, Ptr, Ptr], timers::setitimer, Full),
    call(sys::GETTIMEOFDAY, "gettimeofday", &[TimevalOut], time::gettimeofday, Full),
    call(sys::SPROC,        "sproc",        &[Hex, Hex, Hex], proc::sproc, Partial("inh bits beyond the address space not modelled: descriptors, cwd and umask are copied")),
    call(sys::PRCTL,        "prctl",        &[Int, Hex, Hex], sgi::prctl, Partial("PR_MAXPROCS, PR_MAXPPROCS, PR_ISBLOCKED, PR_GETNSHARE; other options ENOSYS")),
    call(sys::SPROCSP,      "sprocsp",      &[Hex, Hex, Hex, Hex, Int], proc::sprocsp, Partial("as sproc")),
    call(sys::MMAP,         "mmap",         &[Hex, Int, Prot, MapFlags, Fd, Int], mem::mmap, Partial("a shared file page wholly past the end of the file reads as zeroes (IRIX: SIGBUS)")),
    call(sys::MUNMAP,       "munmap",       &[Hex, Int], mem::munmap, Full),
    call(sys::MPROTECT,     "mprotect",     &[Hex, Int, Prot], mem::mprotect, Full),
    call(sys::MSYNC,        "msync",        &[Hex, Int, Hex], mem::msync, Full),
    call(sys::MADVISE,      "madvise",      &[Hex, Int, Int], cache::madvise, Full),
    call(sys::GETPAGESIZE,  "getpagesize",  &[], mem::getpagesize, Full),
    call(sys::BSDGETPGRP,   "BSDgetpgrp",   &[Int], ids::getpgid, Full),
    call(sys::BSDSETPGRP,   "BSDsetpgrp",   &[Int, Int], ids::bsd_setpgrp, Full),
    call(sys::FSYNC,        "fsync",        &[Fd], attrs::fsync, Full),
    call(sys::FCHDIR,       "fchdir",       &[Fd], paths::fchdir, Partial("a directory renamed or removed since it was opened: ENOENT")),
    call(sys::GETRLIMIT,    "getrlimit",    &[Int, Ptr], rlimit::getrlimit, Full),
    call(sys::SETRLIMIT,    "setrlimit",    &[Int, Ptr], rlimit::setrlimit, Full),
    call(sys::CACHEFLUSH,   "cacheflush",   &[Hex, Int, Int], cache::cacheflush, Full),
    call(sys::CACHECTL,     "cachectl",     &[Hex, Int, Int], cache::cachectl, Partial("the timing model has no caches: an uncacheable page costs what a cacheable one does")),
    call(sys::FCHOWN,       "fchown",       &[Fd, Int, Int], attrs::fchown, Full),
    call(sys::FCHMOD,       "fchmod",       &[Fd, Oct], fs::fchmod, Full),
    call(sys::SOCKETPAIR,    "socketpair",    &[Family, SockType, Int, Ptr], socket::socketpair, Full),
    call(sys::SYSINFO,      "sysinfo",      &[Int, Ptr, Int], sgi::sysinfo, Partial("the get commands; the set commands EPERM")),
    call(sys::UNAME,        "uname",        &[Ptr], info::uname, Full),
    call(sys::XSTAT,        "xstat",        &[Int, Str, StatOut], stat::xstat, Full),
    call(sys::LXSTAT,       "lxstat",       &[Int, Str, StatOut], stat::lxstat, Full),
    call(sys::FXSTAT,       "fxstat",       &[Int, Fd, StatOut], stat::fxstat, Full),
    call(sys::XMKNOD,       "xmknod",       &[Int, Str, Oct, Hex], paths::xmknod, Full),
    call(sys::SIGACTION,    "sigaction",    &[Signal, Ptr, Ptr, Hex], proc::sigaction, Full),
    call(sys::SIGPENDING,   "sigpending",   &[Ptr], sigwait::sigpending, Full),
    call(sys::SIGPROCMASK,  "sigprocmask",  &[SigHow, Ptr, Ptr], proc::sigprocmask, Full),
    call(sys::SIGSUSPEND,   "sigsuspend",   &[Ptr], sigwait::sigsuspend, Full),
    call(sys::WAITSYS,      "waitsys",      &[Int, Int, Ptr, Hex, Ptr], proc::waitsys, Partial("WTRAPPED reports nothing: no guest process is traced")),
    call(sys::SIGSTACK,     "sigstack",     &[Ptr, Ptr], sigwait::sigstack, Full),
    call(sys::SIGALTSTACK,  "sigaltstack",  &[Ptr, Ptr], sigwait::sigaltstack, Full),
    call(sys::SIGSENDSET,   "sigsendset",   &[Ptr, Int], sigwait::sigsendset, Partial("the run is one process group and session, every process has the guest's user and group id and one scheduling class")),
    call(sys::STATVFS,      "statvfs",      &[Str, Ptr], fsinfo::statvfs, Full),
    call(sys::FSTATVFS,     "fstatvfs",     &[Fd, Ptr], fsinfo::fstatvfs, Full),
    call(sys::LCHOWN,       "lchown",       &[Str, Int, Int], attrs::lchown, Full),
    call(sys::READV,        "readv",        &[Fd, Ptr, Int], vio::readv, Full),
    call(sys::WRITEV,       "writev",       &[Fd, Ptr, Int], vio::writev, Full),
    call(sys::TRUNCATE64,   "truncate64",   &[Str, Int, Hex, Hex], attrs::truncate64, Full),
    call(sys::FTRUNCATE64,  "ftruncate64",  &[Fd, Int, Hex, Hex], attrs::ftruncate64, Full),
    call(sys::PREAD,        "pread",        &[Fd, Ptr, Int, Int], vio::pread, Full),
    call(sys::PWRITE,       "pwrite",       &[Fd, Buf, Int, Int], vio::pwrite, Full),
    call(sys::NGETDENTS64,  "ngetdents64",  &[Fd, Ptr, Int, Ptr], dirs::ngetdents64, Full),
    call(sys::XPG4_SETREGID, "xpg4_setregid", &[Int, Int], ids::setregid, Full),
    call(sys::PCSAMPLE,     "pcsample",     &[Ptr, Int], prof::pcsample, Full),
];

/// The row for `nr` in a table sorted by number.
pub fn find(table: &'static [Syscall], nr: u32) -> Option<&'static Syscall> {
    table
        .binary_search_by_key(&nr, |s| s.nr)
        .ok()
        .map(|i| &table[i])
}

/// The row for system call `nr`: implemented (`TABLE`), or refused or
/// missing on purpose (`unsupported::TABLE`).
pub fn lookup(nr: u32) -> Option<&'static Syscall> {
    find(TABLE, nr).or_else(|| find(unsupported::TABLE, nr))
}

/// The README's summary of the tables: how many calls and requests are
/// implemented, one line per partly supported, refused or missing one with
/// its note, and IRIX's names that have no row yet. A test keeps the
/// README's copy identical to this.
pub fn support_summary() -> String {
    let implemented = |t: &[Syscall]| t.iter().filter(|r| r.handler.is_some()).count();
    let mut out = format!(
        "irix-emu implements {} system calls and {} syssgi requests. Every \
         other number returns ENOSYS, and `--strace` shows it.\n",
        implemented(TABLE),
        implemented(syssgi::TABLE)
    );
    let rows: Vec<(String, &Syscall)> = TABLE
        .iter()
        .chain(unsupported::TABLE)
        .map(|r| (r.name.to_string(), r))
        .chain(
            syssgi::TABLE
                .iter()
                .map(|r| (format!("syssgi({})", r.name), r)),
        )
        .collect();
    let mut section = |title: &str, pick: &dyn Fn(&Support) -> Option<String>| {
        let mut lines: Vec<(u32, String)> = rows
            .iter()
            .filter_map(|(name, r)| {
                Some((
                    r.nr,
                    format!("- `{name}` ({}): {}\n", r.nr, pick(&r.support)?),
                ))
            })
            .collect();
        // The system calls by number, then the syssgi requests (below 1000).
        lines.sort_by_key(|(nr, _)| (*nr < 1000, *nr));
        if !lines.is_empty() {
            out += &format!("\n{title}\n\n");
            lines.iter().for_each(|(_, l)| out += l);
        }
    };
    section("Partly implemented:", &|s| match s {
        Support::Partial(note) => Some(note.to_string()),
        _ => None,
    });
    section(
        "Refused on purpose, as IRIX refuses an unprivileged process:",
        &|s| match s {
            Support::Refused(e, note) => Some(format!("{}, {note}", e.name())),
            _ => None,
        },
    );
    section("Not implemented yet (ENOSYS):", &|s| match s {
        Support::Missing(note) => Some(note.to_string()),
        _ => None,
    });
    let unlisted: Vec<String> = crate::abi::names::CALLS
        .iter()
        .filter(|(nr, _)| lookup(*nr).is_none())
        .map(|(nr, name)| format!("`{name}` ({nr})"))
        .collect();
    if !unlisted.is_empty() {
        out += &format!(
            "\nIRIX calls without a row yet (ENOSYS): {}.\n",
            unlisted.join(", ")
        );
    }
    out
}

/// What the run loop does after a system call.
pub enum Next {
    Continue,
    Block,
    WaitHost,
    Exit(ExitStatus),
}

/// Handles the SYSCALL exception the process just raised.
pub fn dispatch(k: &mut Kernel, p: &mut Process) -> Next {
    let (nr, args) = read_args(p);
    // syssgi's requests are rows of their own table, run with the request
    // number dropped from the arguments.
    let (def, args, family) = match lookup(nr) {
        Some(d) if d.nr == sys::SYSSGI => match syssgi::lookup(args.word(0)) {
            Some(req) => (Some(req), args.shifted(), Some("syssgi")),
            None => (Some(d), args, None),
        },
        d => (d, args, None),
    };
    if def.is_none() && LINUX_O32.contains(&nr) && p.syscalls_made == 0 {
        return linux_program(k, p, nr);
    }
    p.syscalls_made += 1;
    let Some(def) = def else {
        let pc = p.cpu.pc();
        // IRIX's name for it, when it has one: the call exists, irix-emu
        // lacks it.
        let named = crate::abi::names::call_name(nr);
        let shown = named.map_or_else(String::new, |n| format!(" ({n})"));
        k.warn(&format!(
            "{}: unimplemented system call {nr}{shown} at pc 0x{pc:08x}: ENOSYS",
            p.name
        ));
        if k.config.strace {
            let call = named.unwrap_or("syscall");
            k.log(&format!("[{}] {call}(#{nr}) = -1 ENOSYS", p.pid));
        }
        if let Some(tally) = &mut k.syscall_tally {
            let call = named.map_or_else(|| format!("syscall(#{nr})"), str::to_string);
            tally.record(p.pid, &p.name, &call, true, 0);
        }
        if k.timeline_records(p.pid) {
            let call = named.map_or_else(|| format!("syscall(#{nr})"), str::to_string);
            k.timeline_call_made(p.pid, false);
            k.timeline_call_done(p.pid, call, Vec::new(), format_result(&Err(Errno::ENOSYS)));
        }
        write_back(p, Err(Errno::ENOSYS));
        return Next::Continue;
    };
    // Arguments are decoded before the call: a read(2) buffer is shown as
    // its pointer, a write(2) buffer by its contents.
    // A recorded timeline keeps each call as --strace shows it.
    let recorded = k.timeline_records(p.pid);
    let shown = (k.config.strace || recorded).then(|| strace::format_call(p, def, &args, family));
    // A wait belongs to the call that started it: any other call (after a
    // debugger moved the PC, say) starts afresh.
    if p.wait.is_some_and(|w| w.call != def.name) {
        p.wait = None;
    }
    if recorded {
        k.timeline_call_made(p.pid, p.wait.is_some());
    }
    let result = match (def.handler, def.support) {
        (Some(handler), _) => handler(k, p, &args),
        (None, Support::Refused(errno, _)) => Err(errno),
        (None, _) => {
            k.warn(&format!(
                "{}: unimplemented system call {} ({}) at pc 0x{:08x}: ENOSYS",
                p.name,
                def.nr,
                def.name,
                p.cpu.pc()
            ));
            Err(Errno::ENOSYS)
        }
    };
    // A kernel copy the budget refused is the call's ENOMEM, not a user
    // access's fault: forget it, so the next fault is judged on its own.
    k.budget.take_exhausted();
    match result {
        Ok(Ret::Block | Ret::WaitHost) => {
            // The call waits (its handler may have set a timeout): it is
            // made again each time the process runs, until it completes
            // or a signal interrupts it (`interrupt`).
            p.wait.get_or_insert_with(Wait::default).call = def.name;
            return if matches!(result, Ok(Ret::Block)) {
                Next::Block
            } else {
                Next::WaitHost
            };
        }
        _ => p.wait = None,
    }
    let cycles = k.charge_syscall(p);
    if let Some(tally) = &mut k.syscall_tally {
        let call = match family {
            Some(f) => format!("{f}({})", def.name),
            None => def.name.to_string(),
        };
        tally.record(p.pid, &p.name, &call, result.is_err(), cycles);
    }
    if let Some(call) = shown {
        let call = strace::finish(p, def, &args, call, &result);
        if k.config.strace {
            k.log(&format!("[{}] {}", p.pid, call.line(&result)));
        }
        if recorded {
            let (name, shown_args) = call.into_parts();
            k.timeline_call_done(p.pid, name, shown_args, format_result(&result));
        }
    }
    match result {
        Ok(Ret::Exit(status)) => Next::Exit(status),
        r => {
            write_back(p, r);
            Next::Continue
        }
    }
}

/// A caught signal `sig` is about to be delivered to `p`: the call it waits
/// in (if any) ends first, as its page says an interrupted call ends
/// (`OnSignal`). A call that is to be restarted (SA_RESTART) keeps its PC
/// on the SYSCALL, so the handler returns into it.
pub(crate) fn interrupt(k: &mut Kernel, p: &mut Process, sig: u32) {
    let Some(wait) = p.wait.take() else {
        return;
    };
    let restart = p.signals.handler_flags[sig as usize] & SA_RESTART != 0;
    let result = match wait.on_signal {
        OnSignal::Restart if restart => {
            // The wait so far is a marker of its own; the call made again
            // after the handler is another.
            let by = crate::signals::name(sig);
            let result = format!("? (restarted after {by})");
            k.timeline_call_done(p.pid, wait.call.to_string(), Vec::new(), result);
            return;
        }
        OnSignal::Restart | OnSignal::Eintr => Err(Errno::EINTR),
        OnSignal::EintrTimeLeft(rmtp) => {
            let left = wait.until.map_or(0, |t| t.saturating_sub(k.now()));
            match time::store_timespec(k, p, rmtp, left) {
                Ok(()) => Err(Errno::EINTR),
                Err(e) => Err(e),
            }
        }
        OnSignal::TicksLeft => {
            let left = wait.until.map_or(0, |t| t.saturating_sub(k.now()));
            Ok(Ret::Val(left.div_ceil(k.tick_cycles()) as u32))
        }
    };
    k.charge_syscall(p);
    let shown = format_result(&result);
    let by = crate::signals::name(sig);
    if k.config.strace {
        k.log(&format!(
            "[{}] {}(...) interrupted by {by} = {shown}",
            p.pid, wait.call,
        ));
    }
    k.timeline_call_done(
        p.pid,
        wait.call.to_string(),
        Vec::new(),
        format!("{shown} (interrupted by {by})"),
    );
    write_back(p, result);
}

/// Linux's o32 system call numbers (4000 + n): no IRIX program makes one.
const LINUX_O32: std::ops::Range<u32> = 4000..5000;

/// A process whose first system call is numbered in Linux's range is a
/// Linux MIPS program that the loader could not tell from an IRIX one
/// (both are big-endian ELF32 MIPS with OSABI 0): it ends at once, killed
/// by SIGSYS, with one line saying what it is and what runs it. Were it
/// to go on, ENOSYS on every call could leave it spinning forever.
fn linux_program(k: &mut Kernel, p: &mut Process, nr: u32) -> Next {
    if Some(p.pid) == k.first && p.execs == 0 {
        k.outcome = Some(crate::kernel::Outcome::LinuxProgram { nr });
    } else {
        k.warn(&format!(
            "{}: a Linux MIPS (o32) program (its first system call is Linux's {nr}), \
             not an IRIX one: run it with qemu-mips",
            p.name
        ));
    }
    Next::Exit(ExitStatus::Killed {
        signal: crate::signals::SIGSYS,
        core: false,
    })
}

/// Reads the call number and up to eight arguments.
fn read_args(p: &Process) -> (u32, Args) {
    let mut raw = [0u32; 9];
    for (slot, r) in raw.iter_mut().zip([Reg::A0, Reg::A1, Reg::A2, Reg::A3]) {
        *slot = p.reg(r);
    }
    if p.n32 {
        for (slot, r) in raw[4..]
            .iter_mut()
            .zip([Reg::A4, Reg::A5, Reg::A6, Reg::A7])
        {
            *slot = p.reg(r);
        }
    } else {
        let sp = p.reg(Reg::SP);
        for (i, slot) in raw[4..9].iter_mut().enumerate() {
            // A short stack is not an error until an argument is needed:
            // unreadable words read as 0 and a handler that needs them
            // validates what it gets.
            *slot = p
                .mem
                .read_u32(sp.wrapping_add(16 + 4 * i as u32))
                .unwrap_or(0);
        }
    }
    let nr = p.reg(Reg::V0);
    if nr == sys::SYSCALL {
        (
            raw[0],
            Args::new(raw[1..9].try_into().expect("eight words")),
        )
    } else {
        (nr, Args::new(raw[..8].try_into().expect("eight words")))
    }
}

/// The one write-back point: v0/v1/a3 and the PC past the SYSCALL.
fn write_back(p: &mut Process, r: SysResult) {
    match r {
        Ok(Ret::Val(v)) => {
            p.set_reg(Reg::V0, v);
            p.set_reg(Reg::A3, 0);
        }
        Ok(Ret::Pair(v0, v1)) => {
            p.set_reg(Reg::V0, v0);
            p.set_reg(Reg::V1, v1);
            p.set_reg(Reg::A3, 0);
        }
        Err(e) => {
            p.set_reg(Reg::V0, e.number());
            p.set_reg(Reg::A3, 1);
        }
        // The handler set the registers itself (execve, sigreturn), or
        // there is nothing to write back to (dispatch returns before it
        // gets here for a blocked call or an exit).
        Ok(Ret::Jumped | Ret::Block | Ret::WaitHost | Ret::Exit(_)) => return,
    }
    p.cpu.complete_exception_instruction();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted_and_unique_so_lookup_finds_every_entry() {
        for table in [TABLE, syssgi::TABLE] {
            for w in table.windows(2) {
                assert!(w[0].nr < w[1].nr, "{} before {}", w[0].name, w[1].name);
            }
            for s in table {
                assert_eq!(find(table, s.nr).map(|d| d.name), Some(s.name));
            }
        }
    }

    #[test]
    fn only_refused_and_missing_rows_lack_a_handler() {
        for s in TABLE.iter().chain(unsupported::TABLE).chain(syssgi::TABLE) {
            let answered = matches!(s.support, Support::Refused(..) | Support::Missing(_));
            assert_eq!(s.handler.is_none(), answered, "{}", s.name);
        }
    }

    #[test]
    fn unsupported_rows_are_sorted_and_none_is_also_implemented() {
        for w in unsupported::TABLE.windows(2) {
            assert!(w[0].nr < w[1].nr, "{} before {}", w[0].name, w[1].name);
        }
        for s in unsupported::TABLE {
            assert!(find(TABLE, s.nr).is_none(), "{} is in both tables", s.name);
        }
    }

    #[test]
    fn unknown_numbers_are_not_in_the_table() {
        assert!(lookup(1999).is_none());
        assert!(syssgi::lookup(9999).is_none());
    }
}
