//! The kernel: the process table, the scheduler and the run loop.
//!
//! All guest processes share one virtual clock and are scheduled
//! round-robin in pid order with a fixed quantum of user cycles, so a run
//! with several processes is as reproducible as one without. The process
//! being run is taken out of the table for its time slice, so handlers get
//! `(&mut Kernel, &mut Process)` without aliasing.

use std::collections::{BTreeMap, VecDeque};
use std::io::Write;
use std::path::PathBuf;
use std::rc::Rc;

use cpu_mips::{CpuConfig, ExcCode, Observer, StopReason};
use loader::Executable;

use crate::clock::{self, GuestCounters};
use crate::files::FdTable;
use crate::image;
use crate::memory::{AddressSpace, Budget};
use crate::process::{Accounting, Brk, ExitStatus, Pid, Process, RunState};
use crate::profiling::{HostProfile, Personality, ProfState, Tunables};
use crate::sigframe;
use crate::signals::{self, DefaultAction, Fault, SignalState};
use crate::syscalls::{self, Flow};
use crate::vfs::Vfs;
use crate::Errno;

/// Everything a run is configured with.
#[derive(Clone, Debug)]
pub struct KernelConfig {
    /// The host directory that is the guest's `/`.
    pub root: PathBuf,
    /// The guest's initial working directory (an absolute guest path).
    pub cwd: String,
    pub personality: Personality,
    pub tunables: Tunables,
    /// Pipeline clock rate (R4000: 100 MHz in an Indigo or Indy).
    pub cpu_hz: u64,
    /// Wall-clock seconds since 1970 at virtual time 0.
    pub epoch: u32,
    /// Stop the run after this many cycles of virtual time.
    pub max_cycles: Option<u64>,
    /// Stop the run when the host's clock passes this instant (`--timeout`),
    /// checked between time slices.
    pub host_deadline: Option<std::time::Instant>,
    /// The memory budget of the whole run, in bytes of host memory: every
    /// process's touched pages and page tables, zombies and kernel buffers.
    pub max_memory: u64,
    /// Print one line per system call to the log (stderr).
    pub strace: bool,
    /// Cycles charged as system time for each system call.
    pub syscall_cycles: u64,
    /// User cycles a process runs before the next one gets the CPU.
    pub quantum_cycles: u64,
}

/// 1996-01-01 00:00:00 UTC: the IRIX 5.3/6.2 era, as the default epoch.
pub const DEFAULT_EPOCH: u32 = 820_454_400;
/// A system call costs 500 cycles (5 us at 100 MHz) of system time: the
/// order of a trap, register save and return on an R4000 under IRIX. Not a
/// measurement of real hardware: a documented model parameter.
pub const DEFAULT_SYSCALL_CYCLES: u64 = 500;
/// The default memory budget: 1 GiB, half of what a 32-bit IRIX process
/// could address and several times an Indy's RAM, so any program of the
/// era fits while a runaway guest stops long before it troubles the host.
pub const DEFAULT_MAX_MEMORY: u64 = 1 << 30;
/// 10 ms at 100 MHz: one clock tick, like a UNIX time slice.
pub const DEFAULT_QUANTUM_CYCLES: u64 = 1_000_000;

impl Default for KernelConfig {
    fn default() -> Self {
        KernelConfig {
            root: PathBuf::from("."),
            cwd: "/".into(),
            personality: Personality::default(),
            tunables: Tunables::default(),
            cpu_hz: 100_000_000,
            epoch: DEFAULT_EPOCH,
            max_cycles: None,
            host_deadline: None,
            max_memory: DEFAULT_MAX_MEMORY,
            strace: false,
            syscall_cycles: DEFAULT_SYSCALL_CYCLES,
            quantum_cycles: DEFAULT_QUANTUM_CYCLES,
        }
    }
}

/// How a run ended: the fate of the first process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Exited(u8),
    /// Killed by a signal; `fault` says where, for synchronous faults.
    Killed {
        signal: u32,
        fault: Option<Fault>,
    },
    /// `max_cycles` of virtual time passed.
    CycleLimit,
    /// The host's clock passed `host_deadline`.
    TimeLimit,
    /// Every remaining process is blocked and none can wake the others.
    Deadlock,
}

/// The outside profiler (`irix-emu prof`): a host-side histogram ticked on
/// one process's user-time grid, independent of the guest's own profiling.
/// Like profil, it ends when that process execs: the histogram's ranges
/// (and the report's symbols) belong to the program it was started on.
pub struct OutsideProfile {
    pub pid: Pid,
    pub hist: HostProfile,
    pub interval: u64,
    next: u64,
    /// False once the process has exec'd another program.
    pub active: bool,
}

/// Counters of a whole run, for --stats.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunStats {
    pub instructions: u64,
    pub user_cycles: u64,
    pub sys_cycles: u64,
}

pub struct Kernel {
    pub config: KernelConfig,
    pub(crate) vfs: Vfs,
    procs: BTreeMap<Pid, Process>,
    /// Round-robin order of runnable and blocked processes.
    run_queue: VecDeque<Pid>,
    next_pid: Pid,
    /// Virtual time since boot, in cycles: everything run, charged or slept.
    now: u64,
    first: Option<Pid>,
    outcome: Option<Outcome>,
    outside: Option<OutsideProfile>,
    /// The address space of each sproc share group (keyed by the group
    /// leader's pid) while none of its members runs, and which member ran
    /// last (another member's decode cache may be stale).
    share_groups: BTreeMap<Pid, (AddressSpace, Pid)>,
    stats: RunStats,
    /// The run's one memory budget (`max_memory`).
    pub(crate) budget: Rc<Budget>,
    log: Box<dyn Write>,
}

/// The first process gets this pid; later ones count up (a documented,
/// deterministic choice: IRIX hands out pids from a rotating counter).
pub const FIRST_PID: Pid = 100;
/// The parent of orphans (init).
pub const INIT_PID: Pid = 1;

/// What one time slice ended with.
enum SliceEnd {
    Preempted,
    Blocked,
    /// A stop signal's default action: off the CPU until SIGCONT.
    Stopped,
    Exited(ExitStatus),
    CycleLimit,
}

impl Kernel {
    pub fn new(config: KernelConfig) -> Self {
        Kernel {
            vfs: Vfs::new(config.root.clone()),
            budget: Budget::new(config.max_memory),
            config,
            procs: BTreeMap::new(),
            run_queue: VecDeque::new(),
            next_pid: FIRST_PID,
            now: 0,
            first: None,
            outcome: None,
            outside: None,
            share_groups: BTreeMap::new(),
            stats: RunStats::default(),
            log: Box::new(std::io::stderr()),
        }
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

    fn cpu_config(&self, exe: &Executable) -> CpuConfig {
        CpuConfig {
            mode64: exe.is_n32(),
            clock_hz: self.config.cpu_hz,
        }
    }

    /// Creates the first process (or another top-level one) from `exe`.
    pub fn spawn(
        &mut self,
        exe: &Executable,
        name: &str,
        argv: &[Vec<u8>],
        envp: &[Vec<u8>],
    ) -> Result<Pid, Errno> {
        let pid = self.alloc_pid();
        let img = image::build(
            exe,
            None,
            argv,
            envp,
            pid,
            self.cpu_config(exe),
            &self.budget,
        )?;
        let p = Process {
            pid,
            ppid: INIT_PID,
            name: name.to_string(),
            cpu: img.cpu,
            mem: img.mem,
            fds: FdTable::with_host_stdio(),
            cwd: self.config.cwd.clone(),
            umask: 0o022,
            brk: Brk {
                start: img.brk,
                current: img.brk,
            },
            stack_limit: img.stack_limit,
            prof: ProfState::default(),
            acct: Accounting::default(),
            signals: SignalState::default(),
            state: RunState::Runnable,
            next_tick: u64::MAX,
            n32: exe.is_n32(),
            share_group: None,
        };
        self.procs.insert(pid, p);
        self.run_queue.push_back(pid);
        self.first.get_or_insert(pid);
        Ok(pid)
    }

    fn alloc_pid(&mut self) -> Pid {
        let pid = self.next_pid;
        self.next_pid += 1;
        pid
    }

    /// Replaces descriptor `fd` of process `pid` with a host file (an
    /// embedder redirecting the guest's standard streams).
    pub fn set_host_fd(
        &mut self,
        pid: Pid,
        fd: u32,
        file: std::fs::File,
        flags: u32,
    ) -> Result<(), Errno> {
        let p = self.procs.get_mut(&pid).ok_or(Errno::ESRCH)?;
        let _ = p.fds.close(fd);
        match p.fds.install(crate::files::OpenFile::host(file, flags))? {
            got if got == fd => Ok(()),
            got => {
                let _ = p.fds.close(got);
                Err(Errno::EBADF)
            }
        }
    }

    /// Profiles process `pid` from outside at `hz` into `hist`.
    pub fn set_outside_profile(&mut self, pid: Pid, hist: HostProfile, hz: u32) {
        let interval = clock::tick_interval(self.config.cpu_hz, hz);
        let now = self.procs.get(&pid).map_or(0, |p| p.user_cycles());
        self.outside = Some(OutsideProfile {
            pid,
            hist,
            interval,
            next: clock::next_grid_point(now, interval),
            active: true,
        });
    }

    /// The process profiled from outside, while its profile is active.
    fn outside_pid(&self) -> Option<Pid> {
        self.outside.as_ref().filter(|o| o.active).map(|o| o.pid)
    }

    /// exec: the outside profile of this process ends.
    pub(crate) fn end_outside_profile(&mut self, pid: Pid) {
        if let Some(o) = self.outside.as_mut().filter(|o| o.pid == pid) {
            o.active = false;
        }
    }

    pub fn outside_profile(&self) -> Option<&OutsideProfile> {
        self.outside.as_ref()
    }

    pub fn stats(&self) -> RunStats {
        self.stats
    }

    /// Virtual time since boot, in cycles.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// Virtual time as wall-clock (seconds, microseconds) since 1970.
    pub fn wall_time(&self) -> (u32, u32) {
        let us = self.now as u128 * 1_000_000 / self.config.cpu_hz as u128;
        (
            self.config.epoch.wrapping_add((us / 1_000_000) as u32),
            (us % 1_000_000) as u32,
        )
    }

    /// Cycles in one clock tick at HZ (times(), sysconf(_SC_CLK_TCK)).
    pub fn tick_cycles(&self) -> u64 {
        clock::tick_interval(self.config.cpu_hz, self.config.tunables.hz)
    }

    pub fn cycles_to_ticks(&self, cycles: u64) -> u64 {
        cycles / self.tick_cycles()
    }

    pub fn ticks_to_cycles(&self, ticks: u64) -> u64 {
        ticks.saturating_mul(self.tick_cycles())
    }

    /// Advances virtual time without running anything (sginap, nanosleep).
    pub(crate) fn sleep(&mut self, cycles: u64) {
        self.now = self.now.saturating_add(cycles);
    }

    /// Charges one system call's cost to the process as system time.
    pub(crate) fn charge_syscall(&mut self, p: &mut Process) {
        p.acct.sys_cycles += self.config.syscall_cycles;
        self.now += self.config.syscall_cycles;
        self.stats.sys_cycles += self.config.syscall_cycles;
    }

    /// After a profiling call: the process's next tick, on its grid at the
    /// rate its profiling now needs (none when profiling is off).
    pub(crate) fn reschedule_ticks(&self, p: &mut Process) {
        p.next_tick = if p.prof.is_active() {
            let hz = p
                .prof
                .tick_hz(self.config.personality, &self.config.tunables);
            clock::next_grid_point(
                p.user_cycles(),
                clock::tick_interval(self.config.cpu_hz, hz),
            )
        } else {
            u64::MAX
        };
    }

    /// Runs until the first process has exited and every other process
    /// has finished too (or the cycle limit, or a deadlock).
    pub fn run(&mut self) -> Outcome {
        self.run_observed(&mut ())
    }

    /// As `run`, with `obs` seeing every instruction the outside-profiled
    /// process retires while its profile is active (until it execs).
    pub fn run_observed<O: Observer>(&mut self, obs: &mut O) -> Outcome {
        let mut idle_rounds = 0usize;
        while let Some(pid) = self.run_queue.pop_front() {
            if self
                .config
                .host_deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
            {
                self.run_queue.push_front(pid);
                self.outcome = Some(Outcome::TimeLimit);
                break;
            }
            let Some(mut p) = self.procs.remove(&pid) else {
                continue;
            };
            if p.state == RunState::Stopped {
                // Stopped processes take no CPU; SIGCONT (or SIGKILL)
                // makes one runnable again.
                let wake = signals::bit(signals::SIGCONT) | signals::bit(signals::SIGKILL);
                if p.signals.pending & wake == 0 {
                    self.procs.insert(pid, p);
                    self.run_queue.push_back(pid);
                    idle_rounds += 1;
                    if idle_rounds > self.run_queue.len() {
                        self.outcome.get_or_insert(Outcome::Deadlock);
                        break;
                    }
                    continue;
                }
                p.state = RunState::Runnable;
            }
            let was_blocked = p.state == RunState::Blocked;
            self.load_shared_memory(&mut p);
            let end = if Some(pid) == self.outside_pid() {
                self.run_slice(&mut p, obs)
            } else {
                self.run_slice(&mut p, &mut ())
            };
            self.park_shared_memory(&mut p);
            match end {
                SliceEnd::Preempted => {
                    p.state = RunState::Runnable;
                    idle_rounds = 0;
                }
                SliceEnd::Blocked => {
                    p.state = RunState::Blocked;
                    idle_rounds = if was_blocked { idle_rounds + 1 } else { 0 };
                }
                SliceEnd::Stopped => {
                    p.state = RunState::Stopped;
                    idle_rounds = 0;
                }
                SliceEnd::Exited(status) => {
                    idle_rounds = 0;
                    self.exit_process(&mut p, status);
                }
                SliceEnd::CycleLimit => {
                    self.procs.insert(pid, p);
                    self.outcome = Some(Outcome::CycleLimit);
                    break;
                }
            }
            if !matches!(p.state, RunState::Zombie(_)) || self.procs.contains_key(&p.ppid) {
                let keep_queued = !matches!(p.state, RunState::Zombie(_));
                self.procs.insert(pid, p);
                if keep_queued {
                    self.run_queue.push_back(pid);
                }
            }
            if idle_rounds > self.run_queue.len() {
                // Every queued process retried its blocking call in a row
                // and none could proceed: nothing can ever wake them.
                self.outcome.get_or_insert(Outcome::Deadlock);
                break;
            }
        }
        self.outcome.clone().unwrap_or(Outcome::Deadlock)
    }

    /// Runs `p` for one quantum, handling its exceptions and ticks.
    fn run_slice<O: Observer>(&mut self, p: &mut Process, obs: &mut O) -> SliceEnd {
        let slice_end = p.user_cycles() + self.config.quantum_cycles;
        // An exec ends the outside profile: the observer must not see the
        // new image, so the slice ends there (the next one is unobserved).
        let observed = self.outside_pid() == Some(p.pid);
        loop {
            if let Some(end) = self.deliver_pending_signal(p) {
                return end;
            }
            let start = p.user_cycles();
            let limit = self
                .config
                .max_cycles
                .map_or(u64::MAX, |max| start + max.saturating_sub(self.now));
            if self.config.max_cycles.is_some_and(|max| self.now >= max) {
                return SliceEnd::CycleLimit;
            }
            let outside_next = self
                .outside
                .as_ref()
                .filter(|o| o.active && o.pid == p.pid)
                .map_or(u64::MAX, |o| o.next);
            let deadline = slice_end.min(p.next_tick).min(outside_next).min(limit);
            let instret = p.cpu.instructions();
            let stop = p.cpu.run(&mut p.mem, obs, deadline);
            let ran = p.user_cycles() - start;
            self.now += ran;
            self.stats.user_cycles += ran;
            self.stats.instructions += p.cpu.instructions() - instret;
            self.deliver_ticks(p);
            match stop {
                StopReason::Deadline => {
                    if self.config.max_cycles.is_some_and(|max| self.now >= max) {
                        return SliceEnd::CycleLimit;
                    }
                    if p.user_cycles() >= slice_end {
                        return SliceEnd::Preempted;
                    }
                }
                StopReason::Exception(e) if e.code == ExcCode::Sys => {
                    match syscalls::dispatch(self, p) {
                        Flow::Continue if observed && self.outside_pid() != Some(p.pid) => {
                            return SliceEnd::Preempted;
                        }
                        Flow::Continue => {}
                        Flow::Block => return SliceEnd::Blocked,
                        Flow::Exit(status) => return SliceEnd::Exited(status),
                    }
                }
                StopReason::Exception(e) => {
                    let fault = if self.budget.take_exhausted() {
                        // The access needed a page the budget cannot give.
                        self.warn(&format!(
                            "{}: out of memory: the run's --max-memory budget of {} bytes is used up",
                            p.name,
                            self.budget.limit()
                        ));
                        Fault {
                            signal: signals::SIGKILL,
                            ..signals::fault_signal(&e)
                        }
                    } else {
                        signals::fault_signal(&e)
                    };
                    // A caught, unblocked fault runs its handler; an
                    // ignored or blocked one cannot be ignored (the
                    // instruction would fault again): default action.
                    let catchable = sigframe::is_caught(&p.signals, fault.signal)
                        && p.signals.blocked & signals::bit(fault.signal) == 0;
                    let cause = sigframe::Cause {
                        exc_code: e.code as u32,
                        bad_vaddr: e.bad_vaddr.unwrap_or(0),
                    };
                    if !catchable || sigframe::enter_handler(p, fault.signal, cause).is_err() {
                        return SliceEnd::Exited(self.fault_default_action(p, fault));
                    }
                }
            }
        }
    }

    /// Takes every tick that has fallen due for `p` (normally one).
    fn deliver_ticks(&mut self, p: &mut Process) {
        let now = p.user_cycles();
        if now >= p.next_tick {
            let hz = p
                .prof
                .tick_hz(self.config.personality, &self.config.tunables);
            let interval = clock::tick_interval(self.config.cpu_hz, hz);
            let pc = p.cpu.sample_pc();
            while now >= p.next_tick && p.prof.is_active() {
                let (prof, mut mem) = GuestCounters::split(p);
                prof.tick(&mut mem, pc);
                p.next_tick += interval;
            }
            if !p.prof.is_active() {
                p.next_tick = u64::MAX;
            }
        }
        if let Some(o) = self.outside.as_mut().filter(|o| o.active && o.pid == p.pid) {
            while now >= o.next {
                o.hist.tick(p.cpu.sample_pc());
                o.next += o.interval;
            }
        }
    }

    /// A synchronous fault with no handler: the default action, which for
    /// every fault signal is to terminate with a core image.
    fn fault_default_action(&mut self, p: &mut Process, fault: Fault) -> ExitStatus {
        if Some(p.pid) == self.first {
            self.outcome = Some(Outcome::Killed {
                signal: fault.signal,
                fault: Some(fault),
            });
        }
        ExitStatus::Killed {
            signal: fault.signal,
            core: signals::default_action(fault.signal) == DefaultAction::Core,
        }
    }

    /// Acts on the lowest deliverable pending signal, if any: runs its
    /// handler, ignores it, or takes the default action.
    fn deliver_pending_signal(&mut self, p: &mut Process) -> Option<SliceEnd> {
        let sig = p.signals.next_deliverable()?;
        p.signals.pending &= !signals::bit(sig);
        if sig != signals::SIGKILL && sig != signals::SIGSTOP {
            if p.signals.handlers[sig as usize] == signals::SIG_IGN {
                return None;
            }
            if sigframe::is_caught(&p.signals, sig)
                && sigframe::enter_handler(p, sig, Default::default()).is_ok()
            {
                return None;
            }
        }
        match signals::default_action(sig) {
            DefaultAction::Ignore | DefaultAction::Continue => None,
            DefaultAction::Stop => {
                // A stop discards a pending continue, as POSIX has it.
                p.signals.pending &= !signals::bit(signals::SIGCONT);
                Some(SliceEnd::Stopped)
            }
            action => {
                let core = action == DefaultAction::Core;
                if Some(p.pid) == self.first {
                    self.outcome = Some(Outcome::Killed {
                        signal: sig,
                        fault: None,
                    });
                }
                Some(SliceEnd::Exited(ExitStatus::Killed { signal: sig, core }))
            }
        }
    }

    /// A process has ended: it becomes a zombie for its parent, its
    /// children go to init, and the parent gets SIGCHLD.
    fn exit_process(&mut self, p: &mut Process, status: ExitStatus) {
        p.state = RunState::Zombie(status);
        p.fds = FdTable::default(); // closes pipe ends so readers see EOF
        if Some(p.pid) == self.first && self.outcome.is_none() {
            self.outcome = Some(match status {
                ExitStatus::Exited(code) => Outcome::Exited(code),
                ExitStatus::Killed { signal, .. } => Outcome::Killed {
                    signal,
                    fault: None,
                },
            });
        }
        if let Some(g) = p.share_group {
            let members_left = self
                .procs
                .values()
                .any(|c| c.share_group == Some(g) && !matches!(c.state, RunState::Zombie(_)));
            if !members_left {
                self.share_groups.remove(&g);
            }
        }
        for child in self.procs.values_mut().filter(|c| c.ppid == p.pid) {
            child.ppid = INIT_PID;
        }
        // Zombies of an exiting process are reaped by init at once.
        self.procs
            .retain(|_, c| !(c.ppid == INIT_PID && matches!(c.state, RunState::Zombie(_))));
        if let Some(parent) = self.procs.get_mut(&p.ppid) {
            parent.signals.pending |= signals::bit(signals::SIGCHLD);
        }
    }

    /// A share-group member about to run takes the group's address space.
    /// If another member ran since, its stores may have changed code this
    /// CPU has decoded, and its LL/SC reservation is void.
    fn load_shared_memory(&mut self, p: &mut Process) {
        let Some((mem, last)) = p.share_group.and_then(|g| self.share_groups.get_mut(&g)) else {
            return;
        };
        std::mem::swap(&mut p.mem, mem);
        if *last != p.pid {
            p.cpu.flush_code_cache();
            p.cpu.clear_ll_bit();
            *last = p.pid;
        }
    }

    /// After its slice, a member gives the address space back to its group.
    fn park_shared_memory(&mut self, p: &mut Process) {
        if let Some((mem, _)) = p.share_group.and_then(|g| self.share_groups.get_mut(&g)) {
            std::mem::swap(&mut p.mem, mem);
        }
    }

    /// execve by a share-group member: the group keeps the address space,
    /// the process leaves with the image it is about to build.
    pub(crate) fn leave_share_group(&mut self, p: &mut Process) {
        if let Some(g) = p.share_group.take() {
            if let Some((mem, _)) = self.share_groups.get_mut(&g) {
                *mem = std::mem::take(&mut p.mem);
            }
        }
    }

    /// sproc: a new process sharing `parent`'s address space (forming a
    /// share group if it has none), with its own registers, starting at
    /// `entry(arg)` on the stack whose top is `sp`, returning into `ret`.
    pub(crate) fn sproc(
        &mut self,
        parent: &mut Process,
        entry: u32,
        arg: u32,
        sp: u32,
        ret: u32,
    ) -> Pid {
        let pid = self.alloc_pid();
        let mut child = parent.clone();
        let group = *parent.share_group.get_or_insert(parent.pid);
        child.share_group = Some(group);
        child.mem = AddressSpace::default(); // the group's, loaded when it runs
        self.share_groups
            .entry(group)
            .or_insert_with(|| (AddressSpace::default(), parent.pid));
        child.pid = pid;
        child.ppid = parent.pid;
        child.acct = Accounting::default();
        child.signals.pending = 0;
        child.cpu.set_pc(entry);
        for (r, v) in [(4, arg), (25, entry), (29, sp), (31, ret)] {
            child.set_reg(r, v);
        }
        self.procs.insert(pid, child);
        self.run_queue.push_back(pid);
        pid
    }

    /// fork: a copy of `parent` with a new pid; returns the child's pid.
    pub(crate) fn fork(&mut self, parent: &Process) -> Pid {
        let pid = self.alloc_pid();
        let mut child = parent.clone();
        child.pid = pid;
        child.ppid = parent.pid;
        child.share_group = None; // a fork copies the address space
        child.acct = Accounting::default();
        child.signals.pending = 0;
        // The child's PRDA holds its own pid.
        for addr in image::PRDA_PID {
            let _ = child.mem.poke_bytes(addr, &pid.to_be_bytes());
        }
        // Child: v0 = parent's pid (libc zeroes it), v1 = 1, a3 = 0, past
        // the SYSCALL; the parent's registers are written by dispatch.
        child.set_reg(2, parent.pid);
        child.set_reg(3, 1);
        child.set_reg(7, 0);
        child.cpu.complete_exception_instruction();
        self.procs.insert(pid, child);
        self.run_queue.push_back(pid);
        pid
    }

    pub(crate) fn process(&self, pid: Pid) -> Option<&Process> {
        self.procs.get(&pid)
    }

    pub(crate) fn process_mut(&mut self, pid: Pid) -> Option<&mut Process> {
        self.procs.get_mut(&pid)
    }

    /// The run's one process group: the first process's pid.
    pub(crate) fn process_group(&self) -> Pid {
        self.first.unwrap_or(FIRST_PID)
    }

    /// Every process in the table that has not exited (the running one is
    /// not in the table during its slice).
    pub(crate) fn live_pids(&self) -> Vec<Pid> {
        self.procs
            .values()
            .filter(|c| !matches!(c.state, RunState::Zombie(_)))
            .map(|c| c.pid)
            .collect()
    }

    /// Children of `pid`, in pid order.
    pub(crate) fn children_of(&self, pid: Pid) -> Vec<Pid> {
        self.procs
            .values()
            .filter(|c| c.ppid == pid)
            .map(|c| c.pid)
            .collect()
    }

    /// Removes a zombie after its parent collected it.
    pub(crate) fn reap(&mut self, pid: Pid) -> Option<Process> {
        self.run_queue.retain(|&q| q != pid);
        self.procs.remove(&pid)
    }
}
