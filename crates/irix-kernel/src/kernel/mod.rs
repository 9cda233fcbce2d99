//! The kernel: the process table, the scheduler and the run loop, by
//! concern:
//! - `config`: what a run is configured with;
//! - `proctable`: spawning, fork, sproc and share groups, looking
//!   processes up, reaping;
//! - `sched`: the run loop and one process's time slice;
//! - `ticks`: the profiling clock's ticks, the guest's and the outside
//!   profiler's;
//! - `signals`: delivering pending signals and faults;
//! - `timers`: the interval timers' expiries, and moving virtual time on
//!   to the next timeout when every process waits;
//! - `limits`: RLIMIT_CPU's signals on virtual time;
//! - `exit`: a process's end, zombies and orphans;
//! - `hostwait`: waiting in the host's poll(2) for the run's host sockets
//!   (`--net`) when no process can run;
//! - `debug`: the debugger's hook into the run loop, and its access to
//!   registers and memory.
//!
//! The time API (`now`, `wall_time`, ticks and cycles) is in `crate::clock`
//! and the outside profiler in `crate::profiling::outside`.
//!
//! All guest processes share one virtual clock and are scheduled
//! round-robin in pid order with a fixed quantum of user cycles, so a run
//! with several processes is as reproducible as one without. The process
//! being run is taken out of the table for its time slice, so handlers get
//! `(&mut Kernel, &mut Process)` without aliasing.

mod config;
mod debug;
mod exit;
mod hostwait;
mod limits;
mod proctable;
mod sched;
mod signals;
mod ticks;
mod timers;

use std::collections::{BTreeMap, VecDeque};
use std::io::Write;
use std::rc::Rc;

pub use config::{
    KernelConfig, StopRequest, DEFAULT_EPOCH, DEFAULT_MAX_MEMORY, DEFAULT_QUANTUM_CYCLES,
    DEFAULT_SYSCALL_CYCLES,
};
pub use debug::{DebugHook, RunEnd, Snapshot};
pub use proctable::SpawnError;

use crate::locks::RecordLocks;
use crate::memory::{AddressSpace, Budget, SharedFiles, SharedObject};
use crate::process::{Pid, Process, Zombie};
use crate::profiling::OutsideProfile;
use crate::signals::FaultSignal;
use crate::vfs::Vfs;

/// How a run ended: the fate of the first process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Exited(u8),
    /// Killed by a signal; `fault` says where, for synchronous faults.
    Killed {
        signal: u32,
        fault: Option<FaultSignal>,
    },
    /// `max_cycles` of virtual time passed.
    CycleLimit,
    /// The host's clock passed `host_deadline`.
    TimeLimit,
    /// The host asked the run to stop ([`StopRequest`]), because irix-emu
    /// received host signal `signal`.
    Interrupted {
        signal: i32,
    },
    /// Every remaining process is blocked and none can wake the others.
    Deadlock,
    /// The first process is a Linux MIPS (o32) program, not an IRIX one:
    /// its first system call, `nr`, is numbered in Linux's 4000 range.
    LinuxProgram {
        nr: u32,
    },
}

/// Counters of a whole run, for --stats.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunStats {
    pub instructions: u64,
    /// Of `instructions`, those the block tier ran as whole blocks.
    pub instructions_in_blocks: u64,
    /// Of `instructions_in_blocks`, those run by compiled blocks.
    pub instructions_compiled: u64,
    /// Calls from the run loop into compiled code.
    pub compiled_entries: u64,
    /// Of those, calls that ended at a page compiled code's view of guest
    /// memory did not hold yet (see `CpuConfig::guest_view`).
    pub view_faults: u64,
    pub user_cycles: u64,
    pub sys_cycles: u64,
}

pub struct Kernel {
    pub config: KernelConfig,
    pub(crate) vfs: Vfs,
    pub(crate) procs: BTreeMap<Pid, Process>,
    /// Exited processes whose parents have not collected them yet.
    pub(crate) zombies: BTreeMap<Pid, Zombie>,
    /// Round-robin order of runnable and blocked processes.
    pub(crate) run_queue: VecDeque<Pid>,
    pub(crate) next_pid: Pid,
    /// Virtual time since boot, in cycles: everything run, charged or slept.
    pub(crate) now: u64,
    pub(crate) first: Option<Pid>,
    pub(crate) outcome: Option<Outcome>,
    pub(crate) outside: Option<OutsideProfile>,
    /// Each process's system calls and their system time, when asked for
    /// (`prof --syscalls`).
    pub(crate) syscall_tally: Option<crate::profiling::SyscallTally>,
    /// The address space of each sproc share group (keyed by the group
    /// leader's pid) while none of its members runs, and which member ran
    /// last (another member's decode cache may be stale).
    pub(crate) share_groups: BTreeMap<Pid, (AddressSpace, Pid)>,
    /// fcntl's record locks, of every process.
    pub(crate) locks: RecordLocks,
    /// The page caches of the files mapped MAP_SHARED, by file.
    pub(crate) shared_files: SharedFiles,
    /// The semaphore devices /dev/usemaclone made.
    pub(crate) usemas: crate::usema::Usemas,
    /// System V message queues, semaphore sets and shared memory.
    pub(crate) ipc: crate::ipc::Ipc,
    /// The names of bound sockets.
    pub(crate) names: crate::net::Names,
    /// The sockets with a host side (`--net`), for the host wait.
    pub(crate) host_sockets: Vec<std::rc::Weak<std::cell::RefCell<crate::net::Socket>>>,
    /// Slices in a row that ended waiting with no progress, while some
    /// waited on the host (when every queued process has: the host wait).
    pub(crate) host_rounds: usize,
    /// The terminal's settings as the guest set them (termio(7)).
    pub(crate) tty: crate::tty::Terminal,
    pub(crate) stats: RunStats,
    /// A time slice a debugger stopped, resumed by the next run.
    pub(crate) paused: Option<debug::Paused>,
    /// Queued processes that got no further in a row (deadlock detection).
    pub(crate) idle_rounds: usize,
    /// System calls handled so far (a debugger's timeline).
    pub(crate) syscalls: u64,
    /// The run's one memory budget (`max_memory`).
    pub(crate) budget: Rc<Budget>,
    pub(crate) log: Box<dyn Write>,
}

/// The first process gets this pid; later ones count up (a documented,
/// deterministic choice: IRIX hands out pids from a rotating counter).
pub const FIRST_PID: Pid = 100;
/// The parent of orphans (init).
pub const INIT_PID: Pid = 1;
/// Host bytes a process is charged to the memory budget besides its
/// address space: its structure, its CPU (boxed, with the soft TLB inside),
/// and its CPU's decoded-code cache (the 64 KiB bitmap of code pages and a
/// decoded page, an estimate).
pub(crate) const PROCESS_COST: u64 =
    (std::mem::size_of::<Process>() + std::mem::size_of::<cpu_mips::Cpu>()) as u64 + (80 << 10);
/// Host bytes a zombie is charged: its table entry.
pub(crate) const ZOMBIE_COST: u64 = std::mem::size_of::<Zombie>() as u64 + 64;

impl Kernel {
    pub fn new(config: KernelConfig) -> Self {
        let vfs = Vfs::new(config.root.clone());
        Kernel::with_vfs(config, vfs)
    }

    /// A kernel whose guest sees the file system `vfs` (a root with binds).
    pub fn with_vfs(config: KernelConfig, vfs: Vfs) -> Self {
        Kernel {
            vfs,
            budget: Budget::new(config.max_memory),
            config,
            procs: BTreeMap::new(),
            zombies: BTreeMap::new(),
            run_queue: VecDeque::new(),
            next_pid: FIRST_PID,
            now: 0,
            first: None,
            outcome: None,
            outside: None,
            syscall_tally: None,
            share_groups: BTreeMap::new(),
            locks: RecordLocks::default(),
            shared_files: SharedFiles::default(),
            usemas: crate::usema::Usemas::default(),
            ipc: crate::ipc::Ipc::default(),
            names: crate::net::Names::default(),
            host_sockets: Vec::new(),
            host_rounds: 0,
            tty: crate::tty::Terminal::default(),
            stats: RunStats::default(),
            paused: None,
            idle_rounds: 0,
            syscalls: 0,
            log: Box::new(std::io::stderr()),
        }
    }

    /// `pid` closed a descriptor of `file`: its record locks on that file
    /// go (naming the file is skipped while no lock is held).
    pub(crate) fn release_locks(&mut self, pid: Pid, file: &crate::files::OpenFile) {
        if !self.locks.is_empty() {
            if let Some(id) = crate::locks::FileId::of(file) {
                self.locks.closed(id, pid);
            }
        }
    }

    /// The page cache of `file` when a mapping of it is live (so read(2),
    /// write(2) and size changes keep in step with the mappings).
    pub(crate) fn mapped_pages(
        &mut self,
        file: &crate::files::OpenFile,
    ) -> Option<Rc<SharedObject>> {
        if self.shared_files.is_empty() {
            return None;
        }
        self.shared_files.get(crate::locks::FileId::of(file)?)
    }

    /// Sends --strace lines and warnings somewhere other than stderr.
    pub fn set_log(&mut self, log: Box<dyn Write>) {
        self.log = log;
    }

    pub(crate) fn log(&mut self, line: &str) {
        let _ = writeln!(self.log, "{line}");
    }

    /// A one-line warning: "irix-emu: ...".
    pub(crate) fn warn(&mut self, msg: &str) {
        self.log(&format!("irix-emu: {msg}"));
    }

    pub fn stats(&self) -> RunStats {
        self.stats
    }

    /// Waits for every process's compiler thread, so that the translation
    /// cache holds every block the run compiled (see
    /// `Cpu::finish_compiles`; an exiting process's CPU does it itself).
    pub fn finish_compiles(&mut self) {
        for p in self.procs.values_mut() {
            p.cpu.finish_compiles();
        }
    }

    /// Starts counting every process's system calls (see
    /// [`crate::profiling::syscalls`]).
    pub fn tally_syscalls(&mut self) {
        self.syscall_tally.get_or_insert_with(Default::default);
    }

    /// The system calls counted since [`Kernel::tally_syscalls`].
    pub fn syscall_tally(&self) -> Option<&crate::profiling::SyscallTally> {
        self.syscall_tally.as_ref()
    }

    /// The most bytes of the memory budget (`max_memory`) in use at once
    /// so far.
    pub fn memory_peak(&self) -> u64 {
        self.budget.peak()
    }

    /// The guest's file system view.
    pub fn vfs(&self) -> &Vfs {
        &self.vfs
    }

    /// The host file an absolute guest path names, resolved inside the root
    /// as the guest's own calls resolve it (links followed, binds applied).
    pub fn host_path(&self, guest: &str) -> Option<std::path::PathBuf> {
        self.vfs
            .resolve("/", guest.as_bytes(), crate::vfs::Follow::Yes)
            .ok()
            .map(|(host, _)| host)
    }
}
