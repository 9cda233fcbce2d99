//! System calls: the table is data (`TABLE`: number, name, argument kinds,
//! handler), and `dispatch` is the one place that reads arguments and writes
//! results back (v0, v1, a3), charges system time and prints --strace lines.
//!
//! o32 convention (ABI.md): v0 = 1000 + n; arguments in a0..a3, then at
//! sp+16, sp+20, ... (n32: in $a4..$a7); 1000 is the indirect call (number in
//! a0, arguments shifted by one). Success: a3 = 0, v0 = result (v1 = second
//! result). Failure: a3 = 1, v0 = the positive SVR4 errno.
//!
//! Handlers by concern:
//! - `fs`: open, read, write, close, creat, link, unlink, chdir, access,
//!   lseek, lseek64, dup, fcntl, pipe, umask, ioctl, xstat/lxstat/fxstat
//! - `mem`: brk, mmap, munmap, mprotect, getpagesize
//! - `time`: time, times, gettimeofday, nanosleep, sginap
//! - `info`: getpid, getuid, getgid, utssys (uname), ulimit, syssgi
//! - `prof`: profil, sprofil (through syssgi), pcsample
//! - `proc`: exit, fork, sproc, sprocsp, execve, waitsys, kill, sigaction,
//!   sigprocmask, sigreturn

/// `?` for handlers: an `Err(errno)` becomes the call's error result.
macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return $crate::syscalls::SysResult::Err(e),
        }
    };
}

mod dirs;
mod elfmap;
mod fs;
mod info;
mod mem;
mod proc;
mod prof;
mod sgi;
mod strace;
pub mod syssgi;
mod time;

use crate::kernel::Kernel;
use crate::process::{ExitStatus, Process};
use crate::Errno;

/// The number of the indirect system call.
const SYS_SYSCALL: u32 = 1000;

/// What a handler did.
#[derive(Debug)]
pub enum SysResult {
    /// Success with v0.
    Ok(u32),
    /// Success with v0 and v1 (pipe, fork, getpid, lseek64...).
    Ok2(u32, u32),
    Err(Errno),
    /// The call cannot finish yet (pipe I/O, waitsys): the process blocks
    /// and the call is re-executed when it next runs. Nothing was done.
    Block,
    /// The process is gone (exit); nothing to write back.
    Exit(ExitStatus),
    /// The handler set the registers and PC itself (execve, sigreturn).
    Jumped,
}

impl From<Result<u32, Errno>> for SysResult {
    fn from(r: Result<u32, Errno>) -> Self {
        match r {
            Ok(v) => SysResult::Ok(v),
            Err(e) => SysResult::Err(e),
        }
    }
}

/// How completely a call or request is implemented (the README lists the
/// partial ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Support {
    Full,
    /// Implemented for the cases the note names; the others fail visibly.
    Partial(&'static str),
}

/// How to show an argument in --strace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    Int,
    Hex,
    Ptr,
    /// A NUL-terminated guest string.
    Str,
    /// A buffer whose length is the next argument (shown for writes).
    Buf,
    Fd,
    Oct,
}

/// A handler: the kernel, the calling process, and the arguments as the
/// guest passed them (up to 8 words).
pub type Handler = fn(&mut Kernel, &mut Process, &[u32; 8]) -> SysResult;

pub struct Syscall {
    pub nr: u32,
    pub name: &'static str,
    pub args: &'static [Arg],
    pub handler: Handler,
}

use Arg::*;

/// Every system call irix-emu implements, sorted by number.
#[rustfmt::skip]
pub static TABLE: &[Syscall] = &[
    Syscall { nr: 1001, name: "exit",                    args: &[Int], handler: proc::exit },
    Syscall { nr: 1002, name: "fork",                    args: &[], handler: proc::fork },
    Syscall { nr: 1003, name: "read",                    args: &[Fd, Ptr, Int], handler: fs::read },
    Syscall { nr: 1004, name: "write",                   args: &[Fd, Buf, Int], handler: fs::write },
    Syscall { nr: 1005, name: "open",                    args: &[Str, Hex, Oct], handler: fs::open },
    Syscall { nr: 1006, name: "close",                   args: &[Fd], handler: fs::close },
    Syscall { nr: 1007, name: "wait",                    args: &[], handler: proc::wait },
    Syscall { nr: 1008, name: "creat",                   args: &[Str, Oct], handler: fs::creat },
    Syscall { nr: 1009, name: "link",                    args: &[Str, Str], handler: fs::link },
    Syscall { nr: 1010, name: "unlink",                  args: &[Str], handler: fs::unlink },
    Syscall { nr: 1012, name: "chdir",                   args: &[Str], handler: fs::chdir },
    Syscall { nr: 1013, name: "time",                    args: &[], handler: time::time },
    Syscall { nr: 1015, name: "chmod",                   args: &[Str, Oct], handler: fs::chmod },
    Syscall { nr: 1017, name: "brk",                     args: &[Hex], handler: mem::brk },
    Syscall { nr: 1019, name: "lseek",                   args: &[Fd, Int, Int], handler: fs::lseek },
    Syscall { nr: 1020, name: "getpid",                  args: &[], handler: info::getpid },
    Syscall { nr: 1024, name: "getuid",                  args: &[], handler: info::getuid },
    Syscall { nr: 1033, name: "access",                  args: &[Str, Oct], handler: fs::access },
    Syscall { nr: 1037, name: "kill",                    args: &[Int, Int], handler: proc::kill },
    Syscall { nr: 1040, name: "syssgi",                  args: &[Int, Hex, Hex, Hex, Hex], handler: syssgi::syssgi },
    Syscall { nr: 1041, name: "dup",                     args: &[Fd], handler: fs::dup },
    Syscall { nr: 1042, name: "pipe",                    args: &[], handler: fs::pipe },
    Syscall { nr: 1043, name: "times",                   args: &[Ptr], handler: time::times },
    Syscall { nr: 1044, name: "profil",                  args: &[Ptr, Int, Hex, Hex], handler: prof::profil },
    Syscall { nr: 1047, name: "getgid",                  args: &[], handler: info::getgid },
    Syscall { nr: 1054, name: "ioctl",                   args: &[Fd, Hex, Hex], handler: fs::ioctl },
    Syscall { nr: 1056, name: "sysmp",                   args: &[Int, Hex, Hex, Hex], handler: sgi::sys_sysmp },
    Syscall { nr: 1057, name: "utssys",                  args: &[Ptr, Int, Int], handler: info::utssys },
    Syscall { nr: 1059, name: "execve",                  args: &[Str, Ptr, Ptr], handler: proc::execve },
    Syscall { nr: 1060, name: "umask",                   args: &[Oct], handler: fs::umask },
    Syscall { nr: 1062, name: "fcntl",                   args: &[Fd, Int, Hex], handler: fs::fcntl },
    Syscall { nr: 1063, name: "ulimit",                  args: &[Int, Int], handler: info::ulimit },
    Syscall { nr: 1078, name: "lseek64",                 args: &[Fd, Int, Int, Int, Int], handler: fs::lseek64 },
    Syscall { nr: 1081, name: "getdents",                args: &[Fd, Ptr, Int], handler: dirs::sys_getdents },
    Syscall { nr: 1082, name: "sginap",                  args: &[Int], handler: time::sginap },
    Syscall { nr: 1088, name: "sigreturn",               args: &[Ptr, Ptr, Int], handler: proc::sigreturn },
    Syscall { nr: 1128, name: "gettimeofday",            args: &[Ptr], handler: time::gettimeofday },
    Syscall { nr: 1129, name: "sproc",                   args: &[Hex, Hex, Hex], handler: proc::sproc },
    Syscall { nr: 1130, name: "prctl",                   args: &[Int, Hex, Hex], handler: sgi::sys_prctl },
    Syscall { nr: 1132, name: "sprocsp",                 args: &[Hex, Hex, Hex, Hex, Int], handler: proc::sprocsp },
    Syscall { nr: 1134, name: "mmap",                    args: &[Hex, Int, Hex, Hex, Fd, Int], handler: mem::mmap },
    Syscall { nr: 1135, name: "munmap",                  args: &[Hex, Int], handler: mem::munmap },
    Syscall { nr: 1136, name: "mprotect",                args: &[Hex, Int, Hex], handler: mem::mprotect },
    Syscall { nr: 1140, name: "getpagesize",             args: &[], handler: mem::getpagesize },
    Syscall { nr: 1153, name: "fchmod",                  args: &[Fd, Oct], handler: fs::fchmod },
    Syscall { nr: 1156, name: "sysinfosgi",              args: &[Int, Ptr, Int], handler: sgi::sys_sysinfo },
    Syscall { nr: 1158, name: "xstat",                   args: &[Int, Str, Ptr], handler: fs::xstat },
    Syscall { nr: 1159, name: "lxstat",                  args: &[Int, Str, Ptr], handler: fs::lxstat },
    Syscall { nr: 1160, name: "fxstat",                  args: &[Int, Fd, Ptr], handler: fs::fxstat },
    Syscall { nr: 1162, name: "sigaction",               args: &[Int, Ptr, Ptr, Hex], handler: proc::sigaction },
    Syscall { nr: 1164, name: "sigprocmask",             args: &[Int, Ptr, Ptr], handler: proc::sigprocmask },
    Syscall { nr: 1170, name: "waitsys",                 args: &[Int, Int, Ptr, Hex, Ptr], handler: proc::waitsys },
    Syscall { nr: 1208, name: "ngetdents64",             args: &[Fd, Ptr, Int, Ptr], handler: dirs::sys_ngetdents64 },
    Syscall { nr: prof::PCSAMPLE_NR, name: "pcsample",   args: &[Ptr, Int], handler: prof::pcsample },
    Syscall { nr: time::NANOSLEEP_NR, name: "nanosleep", args: &[Ptr, Ptr], handler: time::nanosleep },
];

/// The table entry for `nr`, if irix-emu implements it.
pub fn lookup(nr: u32) -> Option<&'static Syscall> {
    TABLE
        .binary_search_by_key(&nr, |s| s.nr)
        .ok()
        .map(|i| &TABLE[i])
}

/// What the run loop does after a system call.
pub enum Flow {
    Continue,
    Block,
    Exit(ExitStatus),
}

/// Handles the SYSCALL exception the process just raised.
pub fn dispatch(k: &mut Kernel, p: &mut Process) -> Flow {
    let pc = p.cpu.pc();
    let (nr, args) = match read_args(p) {
        Ok(v) => v,
        Err(e) => {
            write_back(p, SysResult::Err(e));
            return Flow::Continue;
        }
    };
    let Some(def) = lookup(nr) else {
        k.warn(&format!(
            "{}: unimplemented system call {nr} at pc 0x{pc:08x}: ENOSYS",
            p.name
        ));
        write_back(p, SysResult::Err(Errno::ENOSYS));
        return Flow::Continue;
    };
    // Arguments are decoded before the call: a read(2) buffer is shown as
    // its pointer, a write(2) buffer by its contents.
    let shown = k.config.strace.then(|| strace::format_call(p, def, &args));
    let result = (def.handler)(k, p, &args);
    if matches!(result, SysResult::Block) {
        return Flow::Block;
    }
    k.charge_syscall(p);
    if let Some(call) = shown {
        k.log(&format!(
            "[{}] {call} = {}",
            p.pid,
            strace::format_result(&result)
        ));
    }
    match result {
        SysResult::Exit(status) => Flow::Exit(status),
        r => {
            write_back(p, r);
            Flow::Continue
        }
    }
}

/// Reads the call number and up to eight arguments.
fn read_args(p: &Process) -> Result<(u32, [u32; 8]), Errno> {
    let mut raw = [0u32; 9];
    for (i, r) in (4..8).enumerate() {
        raw[i] = p.reg(r);
    }
    if p.n32 {
        for (i, r) in (8..12).enumerate() {
            raw[4 + i] = p.reg(r);
        }
    } else {
        let sp = p.reg(29);
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
    let mut nr = p.reg(2);
    let mut args = [0u32; 8];
    if nr == SYS_SYSCALL {
        nr = raw[0];
        args.copy_from_slice(&raw[1..9]);
    } else {
        args.copy_from_slice(&raw[..8]);
    }
    Ok((nr, args))
}

/// The one write-back point: v0/v1/a3 and the PC past the SYSCALL.
fn write_back(p: &mut Process, r: SysResult) {
    const V0: usize = 2;
    const V1: usize = 3;
    const A3: usize = 7;
    match r {
        SysResult::Ok(v) => {
            p.set_reg(V0, v);
            p.set_reg(A3, 0);
        }
        SysResult::Ok2(v0, v1) => {
            p.set_reg(V0, v0);
            p.set_reg(V1, v1);
            p.set_reg(A3, 0);
        }
        SysResult::Err(e) => {
            p.set_reg(V0, e.number());
            p.set_reg(A3, 1);
        }
        // The handler set the registers itself (execve, sigreturn), or
        // there is nothing to write back to (dispatch returns before it
        // gets here for a blocked call or an exit).
        SysResult::Jumped | SysResult::Block | SysResult::Exit(_) => return,
    }
    p.cpu.complete_exception_instruction();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_and_unique_so_lookup_finds_every_entry() {
        for w in TABLE.windows(2) {
            assert!(w[0].nr < w[1].nr, "{} before {}", w[0].name, w[1].name);
        }
        for s in TABLE {
            assert_eq!(lookup(s.nr).map(|d| d.name), Some(s.name));
        }
    }

    #[test]
    fn unknown_numbers_are_not_in_the_table() {
        assert!(lookup(1999).is_none());
    }
}
