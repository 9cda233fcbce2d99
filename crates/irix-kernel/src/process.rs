//! One guest process: its CPU, address space, descriptors, profiling state
//! and accounting. Everything a process owns is here, so `fork` is a
//! `clone` plus the few fields that differ.

use cpu_mips::{Cpu, Reg};

use crate::files::FdTable;
use crate::identity::Identity;
use crate::memory::AddressSpace;
use crate::profiling::ProfState;
use crate::rlimits::Limits;
use crate::signals::SignalState;

pub type Pid = u32;

/// Where the scheduler stands with a process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunState {
    Runnable,
    /// Waiting in a system call that will be retried (pipe I/O, waitsys).
    Blocked,
    /// Stopped by a signal (SIGSTOP and friends) until SIGCONT.
    Stopped,
}

/// What is left of a process that has exited, until its parent collects
/// it: its exit status and its times, nothing else (no memory, no CPU).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Zombie {
    pub ppid: Pid,
    /// Its process group (waitpid(0) and waitpid(-pgid) select by it).
    pub pgid: Pid,
    pub status: ExitStatus,
    /// Its user and system cycles, its own collected children's included
    /// (what the parent's cutime and cstime gain).
    pub user_cycles: u64,
    pub sys_cycles: u64,
}

// A zombie is a few words, not a process (which held ~105 KB with its
// CPU's caches): checked when the crate compiles.
const _: () = assert!(std::mem::size_of::<Zombie>() <= 48);

impl Zombie {
    pub fn of(p: &Process, status: ExitStatus) -> Zombie {
        Zombie {
            ppid: p.ppid,
            pgid: p.ids.pgid,
            status,
            user_cycles: p.user_cycles() + p.acct.child_user_cycles,
            sys_cycles: p.acct.sys_cycles + p.acct.child_sys_cycles,
        }
    }
}

/// How a process ended, in the terms a parent's wait sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitStatus {
    Exited(u8),
    Killed { signal: u32, core: bool },
}

impl ExitStatus {
    /// The wait(2) status word: exit code << 8, or the signal (| 0x80 core).
    pub fn wait_status(self) -> u32 {
        match self {
            ExitStatus::Exited(code) => (code as u32) << 8,
            ExitStatus::Killed { signal, core } => signal | if core { 0x80 } else { 0 },
        }
    }
}

/// A change of a child's state its parent's waitsys(2) may report before
/// it exits: stopped by a signal (WSTOPPED), continued by SIGCONT
/// (WCONTINUED). Reported once; a later change replaces an unreported one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaitEvent {
    Stopped(u32),
    Continued,
}

/// CPU time a process has used, in pipeline cycles.
#[derive(Clone, Copy, Debug, Default)]
pub struct Accounting {
    /// Cycles charged to system calls (system time).
    pub sys_cycles: u64,
    /// User and system cycles of waited-for children (times() cutime/cstime).
    pub child_user_cycles: u64,
    pub child_sys_cycles: u64,
}

/// The program break (brk/sbrk heap).
#[derive(Clone, Copy, Debug, Default)]
pub struct Brk {
    /// Where the heap starts: the end of the data segment.
    pub start: u32,
    /// The current break.
    pub current: u32,
}

#[derive(Clone)]
pub struct Process {
    pub pid: Pid,
    pub ppid: Pid,
    /// The program name for messages ("irix-emu: prog: killed by ...").
    pub name: String,
    /// Boxed: a `Cpu` holds its soft TLB (32 KiB), and the scheduler
    /// takes a process out of its table and puts it back every slice.
    pub cpu: Box<Cpu>,
    pub mem: AddressSpace,
    pub fds: FdTable,
    /// The current directory, an absolute guest path.
    pub cwd: String,
    pub umask: u32,
    pub brk: Brk,
    /// The lowest address the stack may grow down to.
    pub stack_limit: u32,
    pub prof: ProfState,
    pub acct: Accounting,
    pub signals: SignalState,
    pub state: RunState,
    /// The user-cycle count at which this process's next profiling tick is
    /// due (`u64::MAX`: none). Ticks happen on the process's own virtual
    /// time grid: multiples of the tick interval.
    pub next_tick: u64,
    /// True for an n32 process (64-bit registers, arguments 5-8 in $a4-$a7).
    pub n32: bool,
    /// The sproc share group this process belongs to (its address space is
    /// the group's, parked in the kernel while the process is not running).
    pub share_group: Option<Pid>,
    /// A share-group member's own PRDA page while another member runs:
    /// the PRDA is private to each process even when the rest of the
    /// address space is shared (IRIX sproc(2)).
    pub prda: Option<crate::memory::PrivatePage>,
    /// The images execve has loaded into this process: how many, and the
    /// guest path of the program it runs (set by each exec, and at spawn
    /// when the program lies in the guest's view; for a debugger's exec
    /// events and SGI_RDNAME).
    pub execs: u32,
    pub exec_path: Option<String>,
    /// The interval timers (getitimer(2)); alarm(2) is ITIMER_REAL.
    pub timers: crate::timers::Timers,
    /// The system call the process is waiting in, between its first
    /// `Ret::Block` and its completion (None: not waiting).
    pub wait: Option<crate::timers::Wait>,
    /// Its user and group IDs, process group, session and nice value.
    pub ids: Identity,
    /// Its resource limits (getrlimit(2)).
    pub limits: Limits,
    /// A stop or continue its parent has not been told of yet.
    pub wait_event: Option<WaitEvent>,
    /// The CPU second (user + system) at which RLIMIT_CPU last sent
    /// SIGXCPU: the next goes a second later.
    pub xcpu_sent: Option<u64>,
    /// System calls made since the image was loaded (the first one tells
    /// a Linux program from an IRIX one).
    pub syscalls_made: u64,
}

impl Process {
    /// User time so far, in cycles (the CPU counts only user mode).
    pub fn user_cycles(&self) -> u64 {
        self.cpu.cycles()
    }

    /// User plus system time so far, in cycles (ITIMER_PROF's clock, and
    /// what RLIMIT_CPU limits).
    pub fn cpu_cycles(&self) -> u64 {
        self.user_cycles() + self.acct.sys_cycles
    }

    /// Register `r` as the 32-bit value an o32 system call sees.
    pub fn reg(&self, r: Reg) -> u32 {
        self.cpu.gpr[r.idx()] as u32
    }

    /// Sets register `r` to a 32-bit result, sign-extended as the R4000 holds it.
    pub fn set_reg(&mut self, r: Reg, v: u32) {
        if r != Reg::ZERO {
            self.cpu.gpr[r.idx()] = v as i32 as i64 as u64;
        }
    }
}
