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
//! - `fs`: open, read, write, close, creat, link, unlink, chdir, access,
//!   lseek, lseek64, dup, fcntl, pipe, umask, ioctl, xstat/lxstat/fxstat,
//!   chmod, fchmod; `dirs`: getdents, ngetdents64
//! - `filelocks`: fcntl's record locks, F_ALLOCSP and F_FREESP
//! - `usema`: opening /dev/usemaclone and /dev/usema, their ioctls
//! - `sgi`: sysmp, prctl, sysinfo; `elfmap`: syssgi(SGI_ELFMAP)
//! - `mem`: brk, mmap, munmap, msync, mprotect, getpagesize
//! - `time`: time, times, gettimeofday, nanosleep, sginap
//! - `info`: getpid, utssys and uname, ulimit
//! - `ids`: getuid, getgid, the setuid family, groups, pgrpsys and the
//!   process-group calls, nice, schedctl's priorities
//! - `rlimit`: getrlimit, setrlimit and their 64-bit forms, and the limit
//!   checks other calls make
//! - `unsupported`: the rows of the calls refused on purpose or missing
//! - `syssgi`: the syssgi requests' table and SGI_SYSID, SGI_SYSCONF
//! - `prof`: profil, sprofil (through syssgi), pcsample
//! - `proc`: exit, fork, sproc, sprocsp, execv, execve, waitsys, kill, sigaction,
//!   sigprocmask, sigreturn

mod args;
mod dirs;
mod elfmap;
mod filelocks;
mod fs;
mod ids;
mod info;
mod mem;
mod proc;
mod prof;
mod rlimit;
mod sgi;
mod strace;
pub mod syssgi;
mod time;
mod unsupported;
mod usema;

pub use args::Args;

use crate::abi::sys;
use crate::kernel::Kernel;
use crate::process::{ExitStatus, Process};
use crate::Errno;
use cpu_mips::Reg;

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
    call(sys::OPEN,         "open",         &[Str, Hex, Oct], fs::open, Full),
    call(sys::CLOSE,        "close",        &[Fd], fs::close, Full),
    call(sys::WAIT,         "wait",         &[], proc::wait, Full),
    call(sys::CREAT,        "creat",        &[Str, Oct], fs::creat, Full),
    call(sys::LINK,         "link",         &[Str, Str], fs::link, Full),
    call(sys::UNLINK,       "unlink",       &[Str], fs::unlink, Full),
    call(sys::EXECV,        "execv",        &[Str, Ptr], proc::execv, Full),
    call(sys::CHDIR,        "chdir",        &[Str], fs::chdir, Full),
    call(sys::TIME,         "time",         &[], time::time, Full),
    call(sys::CHMOD,        "chmod",        &[Str, Oct], fs::chmod, Full),
    call(sys::BRK,          "brk",          &[Hex], mem::brk, Full),
    call(sys::LSEEK,        "lseek",        &[Fd, Int, Int], fs::lseek, Full),
    call(sys::GETPID,       "getpid",       &[], info::getpid, Full),
    call(sys::SETUID,       "setuid",       &[Int], ids::setuid, Full),
    call(sys::GETUID,       "getuid",       &[], ids::getuid, Full),
    call(sys::ACCESS,       "access",       &[Str, Oct], fs::access, Full),
    call(sys::NICE,         "nice",         &[Int], ids::nice, Full),
    call(sys::KILL,         "kill",         &[Int, Int], proc::kill, Full),
    call(sys::PGRPSYS,      "pgrpsys",      &[Int, Int, Int], ids::pgrpsys, Full),
    call(sys::SYSSGI,       "syssgi",       &[Int, Hex, Hex, Hex, Hex], syssgi::unknown_request, Partial("the requests in its own table")),
    call(sys::DUP,          "dup",          &[Fd], fs::dup, Full),
    call(sys::PIPE,         "pipe",         &[], fs::pipe, Full),
    call(sys::TIMES,        "times",        &[Ptr], time::times, Full),
    call(sys::PROFIL,       "profil",       &[Ptr, Int, Hex, Hex], prof::profil, Full),
    call(sys::SETGID,       "setgid",       &[Int], ids::setgid, Full),
    call(sys::GETGID,       "getgid",       &[], ids::getgid, Full),
    call(sys::IOCTL,        "ioctl",        &[Fd, Hex, Hex], fs::ioctl, Partial("TCGETA on a terminal, the usema(7M) requests on a semaphore device; other requests ENOTTY or EINVAL")),
    call(sys::SYSMP,        "sysmp",        &[Int, Hex, Hex, Hex], sgi::sysmp, Partial("MP_NPROCS, MP_NAPROCS, MP_PGSIZE, and MP_SCHED's nice commands (getpriority, setpriority); other commands ENOSYS")),
    call(sys::UTSSYS,       "utssys",       &[Ptr, Int, Int], info::utssys, Partial("uname only")),
    call(sys::EXECVE,       "execve",       &[Str, Ptr, Ptr], proc::execve, Partial("ELF programs, dynamic ones through their interpreter; no #! scripts")),
    call(sys::UMASK,        "umask",        &[Oct], fs::umask, Full),
    call(sys::FCNTL,        "fcntl",        &[Fd, Int, Hex], fs::fcntl, Partial("F_DUPFD, F_GETFD/SETFD, F_GETFL/SETFL, record locks (F_GETLK/SETLK/SETLKW), F_ALLOCSP/FREESP; others EINVAL")),
    call(sys::ULIMIT,       "ulimit",       &[Int, Int], info::ulimit, Full),
    call(sys::GETRLIMIT64,  "getrlimit64",  &[Int, Ptr], rlimit::getrlimit64, Full),
    call(sys::SETRLIMIT64,  "setrlimit64",  &[Int, Ptr], rlimit::setrlimit64, Full),
    call(sys::LSEEK64,      "lseek64",      &[Fd, Int, Int, Int, Int], fs::lseek64, Full),
    call(sys::GETDENTS,     "getdents",     &[Fd, Ptr, Int], dirs::getdents, Full),
    call(sys::SGINAP,       "sginap",       &[Int], time::sginap, Full),
    call(sys::SIGRETURN,    "sigreturn",    &[Ptr, Ptr, Int], proc::sigreturn, Full),
    call(sys::GETHOSTNAME,  "gethostname",  &[Ptr, Int], sgi::gethostname, Full),
    call(sys::FTRUNCATE,    "ftruncate",    &[Fd, Int], fs::ftruncate, Full),
    call(sys::SETREGID,     "setregid",     &[Int, Int], ids::setregid, Full),
    call(sys::SETREUID,     "setreuid",     &[Int, Int], ids::setreuid, Full),
    call(sys::GETTIMEOFDAY, "gettimeofday", &[Ptr], time::gettimeofday, Full),
    call(sys::SPROC,        "sproc",        &[Hex, Hex, Hex], proc::sproc, Partial("inh bits beyond the address space not modelled: descriptors, cwd and umask are copied")),
    call(sys::PRCTL,        "prctl",        &[Int, Hex, Hex], sgi::prctl, Partial("PR_MAXPROCS, PR_MAXPPROCS, PR_ISBLOCKED, PR_GETNSHARE; other options ENOSYS")),
    call(sys::SPROCSP,      "sprocsp",      &[Hex, Hex, Hex, Hex, Int], proc::sprocsp, Partial("as sproc")),
    call(sys::MMAP,         "mmap",         &[Hex, Int, Hex, Hex, Fd, Int], mem::mmap, Partial("a shared file page wholly past the end of the file reads as zeroes (IRIX: SIGBUS)")),
    call(sys::MUNMAP,       "munmap",       &[Hex, Int], mem::munmap, Full),
    call(sys::MPROTECT,     "mprotect",     &[Hex, Int, Hex], mem::mprotect, Full),
    call(sys::MSYNC,        "msync",        &[Hex, Int, Hex], mem::msync, Full),
    call(sys::GETPAGESIZE,  "getpagesize",  &[], mem::getpagesize, Full),
    call(sys::BSDGETPGRP,   "BSDgetpgrp",   &[Int], ids::getpgid, Full),
    call(sys::BSDSETPGRP,   "BSDsetpgrp",   &[Int, Int], ids::bsd_setpgrp, Full),
    call(sys::GETRLIMIT,    "getrlimit",    &[Int, Ptr], rlimit::getrlimit, Full),
    call(sys::SETRLIMIT,    "setrlimit",    &[Int, Ptr], rlimit::setrlimit, Full),
    call(sys::FCHMOD,       "fchmod",       &[Fd, Oct], fs::fchmod, Full),
    call(sys::SYSINFO,      "sysinfo",      &[Int, Ptr, Int], sgi::sysinfo, Partial("the get commands; the set commands EPERM")),
    call(sys::UNAME,        "uname",        &[Ptr], info::uname, Full),
    call(sys::XSTAT,        "xstat",        &[Int, Str, Ptr], fs::xstat, Partial("version 2 (o32 stat); version 3 (stat64) EINVAL")),
    call(sys::LXSTAT,       "lxstat",       &[Int, Str, Ptr], fs::lxstat, Partial("as xstat")),
    call(sys::FXSTAT,       "fxstat",       &[Int, Fd, Ptr], fs::fxstat, Partial("as xstat")),
    call(sys::SIGACTION,    "sigaction",    &[Int, Ptr, Ptr, Hex], proc::sigaction, Full),
    call(sys::SIGPROCMASK,  "sigprocmask",  &[Int, Ptr, Ptr], proc::sigprocmask, Full),
    call(sys::WAITSYS,      "waitsys",      &[Int, Int, Ptr, Hex, Ptr], proc::waitsys, Partial("WTRAPPED reports nothing: no guest process is traced")),
    call(sys::NGETDENTS64,  "ngetdents64",  &[Fd, Ptr, Int, Ptr], dirs::ngetdents64, Full),
    call(sys::XPG4_SETREGID, "xpg4_setregid", &[Int, Int], ids::setregid, Full),
    call(sys::PCSAMPLE,     "pcsample",     &[Ptr, Int], prof::pcsample, Full),
    call(sys::NANOSLEEP,    "nanosleep",    &[Ptr, Ptr], time::nanosleep, Full),
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
        write_back(p, Err(Errno::ENOSYS));
        return Next::Continue;
    };
    // Arguments are decoded before the call: a read(2) buffer is shown as
    // its pointer, a write(2) buffer by its contents.
    let shown = k
        .config
        .strace
        .then(|| strace::format_call(p, def, &args, family));
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
        Ok(Ret::Block) => return Next::Block,
        Ok(Ret::WaitHost) => return Next::WaitHost,
        _ => {}
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
        Ok(Ret::Exit(status)) => Next::Exit(status),
        r => {
            write_back(p, r);
            Next::Continue
        }
    }
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
