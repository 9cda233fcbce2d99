//! Reverse execution from deterministic re-execution.
//!
//! While GDB is attached the stub records: a snapshot of the whole machine
//! (`Kernel::snapshot`: every process with copy-on-write memory, the run
//! queue, the clock, the profiles) when the debugging starts, after every
//! system call of any process, and every `SNAPSHOT_CYCLES` cycles of the
//! traced process. The snapshots are the log of what the world answered:
//! a system call is never executed twice, because re-execution stops
//! before any system call and continues from the snapshot taken after it.
//! Between two snapshots only instructions and the kernel's own
//! deterministic work (ticks, signal delivery) happen, so re-executing from
//! one lands on exactly the state the live run had: registers, memory,
//! cycle count.
//!
//! Positions are the focused process's retired-instruction counts (the
//! process of the last stop). A process's history begins at its fork (the
//! snapshots before it do not hold it) or at its last exec (the older
//! snapshots hold another program, whose count started again at 0).
//! Forks and execs are system calls: re-execution crosses them by the
//! snapshot taken after them and does not report them again.
//!
//! The recorded snapshots leave out open files (a held pipe end would
//! never close); no instruction between system calls can see them.
//!
//! Going back: the live machine is saved (the "head"), the newest snapshot
//! before the target is restored and re-executed to it. Going forward from
//! the past re-executes too, stepping over system calls by snapshot, until
//! the head, where the saved live machine takes over again (equal to the
//! re-executed one by determinism; the profile observer only ever sees
//! live execution, once per instruction).

use std::collections::{BTreeMap, VecDeque};

use cpu_mips::Observer;
use irix_kernel::process::Pid;
use irix_kernel::{Kernel, RunEnd, Snapshot};

use super::conn::Conn;
use super::session::Session;
use super::stop::{DebugState, Hook, Mode, Stop};

/// Snapshots kept; past this the oldest are dropped (history begins later).
pub const MAX_SNAPSHOTS: usize = 1024;

/// The recorded past of a debugging session.
#[derive(Default)]
pub struct History {
    snaps: VecDeque<Snapshot>,
    /// The serial number of `snaps[0]` (snapshots dropped before it).
    first: u64,
    /// Per process that exec'd, the serial of the first snapshot of its
    /// current image: the snapshots before it hold another program, so a
    /// process's history begins at its fork or its last exec.
    born: BTreeMap<Pid, u64>,
    /// The live machine while the debugger is in the past.
    head: Option<Snapshot>,
}

impl History {
    pub fn record(&mut self, s: Snapshot) {
        if self.snaps.len() == MAX_SNAPSHOTS {
            self.snaps.pop_front();
            self.first += 1;
        }
        self.snaps.push_back(s);
    }

    /// The next snapshot recorded is the first of `pid`'s new image.
    pub fn new_image(&mut self, pid: Pid) {
        self.born.insert(pid, self.first + self.snaps.len() as u64);
    }

    /// Process `pid`'s retired count in snapshot `i` (None: not alive
    /// there, or running an image it later replaced).
    fn retired(&self, i: usize, pid: Pid) -> Option<u64> {
        if self
            .born
            .get(&pid)
            .is_some_and(|&b| self.first + (i as u64) < b)
        {
            return None;
        }
        self.snaps[i].process(pid).map(|p| p.cpu.instructions())
    }
}

/// How one run of the machine ended, for the history's own runs.
pub enum Ran {
    /// A stop for GDB (or the run's end): report it.
    Stopped(RunEnd, Option<Stop>),
    /// An interrupt byte arrived.
    Incoming,
}

impl<O: Observer> Session<'_, O> {
    fn traced_retired(&self) -> Option<u64> {
        self.kernel
            .debug_process(self.state.pid)
            .map(|p| p.cpu.instructions())
    }

    /// Runs the machine until a stop GDB must see, taking snapshots and
    /// crossing system calls of the past and the head on the way.
    pub fn run_until_stop(&mut self, conn: &mut Conn) -> Ran {
        loop {
            self.state.head = match (&self.history.head, self.state.replaying) {
                (Some(h), true) if h.syscalls() == self.kernel.syscalls() => {
                    h.process(self.state.pid).map(|p| p.cpu.instructions())
                }
                _ => None,
            };
            let mut hook = Hook {
                state: &mut self.state,
                conn,
                next_poll: 0,
                stop: None,
            };
            let end = if hook.state.replaying {
                self.kernel.run_debug(&mut (), &mut hook)
            } else {
                self.kernel.run_debug(self.obs, &mut hook)
            };
            let stop = hook.stop;
            match (&end, stop) {
                (RunEnd::DebugStop, Some(stop)) if stop.after_syscall() => {
                    if let Some(pid) = self.state.new_image.take() {
                        self.history.new_image(pid);
                        if pid == self.state.pid {
                            self.state.libraries = self.kernel.debug_objects(pid).len();
                        }
                    }
                    if let Some(p) = self.kernel.debug_process(self.state.pid) {
                        self.state.snapshot_cycles = p.cpu.cycles();
                    }
                    self.history.record(self.kernel.snapshot_without_files());
                    if stop != Stop::Snapshot {
                        return Ran::Stopped(end, Some(stop));
                    }
                    if self.new_library() {
                        return Ran::Stopped(end, Some(Stop::Library));
                    }
                }
                // A scan covers one interval between snapshots.
                (RunEnd::DebugStop, Some(Stop::SyscallInPast))
                    if matches!(self.state.mode, Mode::Scan(_)) =>
                {
                    return Ran::Stopped(end, stop)
                }
                (RunEnd::DebugStop, Some(Stop::SyscallInPast)) => {
                    let now = self.kernel.syscalls();
                    match self.history.snaps.iter().find(|s| s.syscalls() > now) {
                        Some(next) => self.kernel.restore(next),
                        None => self.back_to_head(),
                    }
                }
                (RunEnd::DebugStop, Some(Stop::Head)) => self.back_to_head(),
                (RunEnd::DebugStop, Some(Stop::Incoming)) => return Ran::Incoming,
                _ => return Ran::Stopped(end, stop),
            }
        }
    }

    /// Whether GDB must hear that the traced process mapped another
    /// object: only while it continues (a step reports its own stop; the
    /// list is read again at the next event).
    fn new_library(&mut self) -> bool {
        let mapped = self.kernel.debug_objects(self.state.pid).len();
        if self.state.mode != Mode::Continue || mapped == self.state.libraries {
            return false;
        }
        self.state.libraries = mapped;
        true
    }

    /// The saved live machine takes over again.
    fn back_to_head(&mut self) {
        if let Some(h) = self.history.head.take() {
            self.kernel.restore(&h);
        }
        self.state.replaying = false;
        self.state.head = None;
    }

    /// Saves the live machine before the first step into the past.
    fn leave_head(&mut self) {
        if !self.state.replaying {
            self.history.head = Some(self.kernel.snapshot());
            self.state.replaying = true;
        }
    }

    /// Puts the machine where the traced process had retired `target`
    /// instructions (the first time it stood there). False when that is
    /// before the recorded history.
    fn go_to(&mut self, target: u64, conn: &mut Conn) -> bool {
        let pid = self.state.pid;
        let Some(i) = (0..self.history.snaps.len())
            .rposition(|i| self.history.retired(i, pid).is_some_and(|n| n <= target))
        else {
            return false;
        };
        self.leave_head();
        let snap = self.history.snaps[i].clone();
        self.kernel.restore(&snap);
        self.run_mode(Mode::RunTo(target), conn);
        true
    }

    /// A run of the history's own (RunTo, Scan): the mode is restored after.
    fn run_mode(&mut self, mode: Mode, conn: &mut Conn) {
        let saved = std::mem::replace(&mut self.state.mode, mode);
        let _ = self.run_until_stop(conn);
        self.state.mode = saved;
    }

    /// reverse-stepi: one instruction back.
    pub fn reverse_step(&mut self, conn: &mut Conn) -> Option<Stop> {
        let now = self.traced_retired()?;
        if now == 0 || !self.go_to(now - 1, conn) {
            return None;
        }
        Some(Stop::DoneStep)
    }

    /// reverse-continue: back to the last breakpoint or watchpoint hit.
    pub fn reverse_continue(&mut self, conn: &mut Conn) -> Option<Stop> {
        let pid = self.state.pid;
        let mut until = self.traced_retired()?;
        self.leave_head();
        for i in (0..self.history.snaps.len()).rev() {
            let Some(start) = self.history.retired(i, pid) else {
                continue;
            };
            let snap = self.history.snaps[i].clone();
            if start < until {
                self.kernel.restore(&snap);
                self.state.hits.clear();
                self.run_mode(Mode::Scan(until), conn);
                if let Some(&(at, stop)) = self.state.hits.last() {
                    self.kernel.restore(&snap);
                    self.run_mode(Mode::RunTo(at), conn);
                    return Some(stop);
                }
            }
            until = until.min(start);
        }
        // No hit: the beginning of the process's history.
        if let Some(i) =
            (0..self.history.snaps.len()).find(|&i| self.history.retired(i, pid).is_some())
        {
            let first = self.history.snaps[i].clone();
            self.kernel.restore(&first);
        }
        None
    }
}

/// The state a new session starts with: the first snapshot taken.
pub fn start(kernel: &Kernel, state: &mut DebugState) -> History {
    let mut h = History::default();
    if let Some(p) = kernel.debug_process(state.pid) {
        state.snapshot_cycles = p.cpu.cycles();
    }
    state.libraries = kernel.debug_objects(state.pid).len();
    h.record(kernel.snapshot_without_files());
    h
}
