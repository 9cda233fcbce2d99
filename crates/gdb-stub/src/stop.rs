//! When the traced process stops: the debugger's breakpoints, watchpoints
//! and resume mode, and the hook the kernel's run loop consults before
//! each instruction of the traced process.
//!
//! Breakpoints are kept here, per process, not written into guest text:
//! the hook compares the PC before an instruction runs. Watchpoints decode the next
//! instruction's load or store (`Op::data_access`) and stop before it
//! runs, as MIPS watch hardware does (GDB then steps over it with the
//! watchpoint removed and compares the value). While any breakpoint or
//! watchpoint is set, or GDB single-steps, a traced process runs one
//! instruction per CPU call; otherwise in pieces of `POLL_CYCLES`, between
//! which the connection is checked for GDB's interrupt (Ctrl-C).

use std::collections::{BTreeMap, BTreeSet};

use cpu_mips::decode;
use irix_kernel::process::{Pid, Process};
use irix_kernel::DebugHook;

use super::conn::Conn;

/// Cycles a traced process runs between two looks at the connection.
pub const POLL_CYCLES: u64 = 1 << 20;
/// Cycles of the focused process between two snapshots when it makes no
/// system call (each system call takes one): the most a reverse step
/// re-executes.
pub const SNAPSHOT_CYCLES: u64 = 1 << 22;

/// What GDB asked the focused process to do, or what the history is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Continue,
    Step,
    ReverseStep,
    ReverseContinue,
    /// Re-executing: stop when the focused process has retired this many.
    RunTo(u64),
    /// Re-executing to list every breakpoint or watchpoint hit before the
    /// focused process has retired this many.
    Scan(u64),
}

/// The accesses a watchpoint watches (`Z2`, `Z3`, `Z4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatchKind {
    Write,
    Read,
    ReadWrite,
}

/// Why the hook stopped the machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// GDB sent something (an interrupt) while the process ran.
    Incoming,
    /// Recording: a system call was handled (or the periodic interval
    /// passed); the history takes a snapshot.
    Snapshot,
    /// Re-executing the past reached a system call: the history puts the
    /// machine at the snapshot taken after it.
    SyscallInPast,
    /// Re-executing the past reached the live run's position.
    Head,
    /// `RunTo` or `Scan` reached its end.
    Reached,
    DoneStep,
    Breakpoint,
    /// The focused process mapped another shared object.
    Library,
    /// The focused process forked this child (held until GDB decides).
    Forked(Pid),
    /// The focused process exec'd.
    Execed,
    Watch {
        kind: WatchKind,
        addr: u32,
    },
}

impl Stop {
    /// A stop the history takes a snapshot at (right after a system call).
    pub fn after_syscall(self) -> bool {
        matches!(self, Stop::Snapshot | Stop::Forked(_) | Stop::Execed)
    }
}

/// One watched range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watch {
    pub addr: u32,
    pub len: u32,
    pub kind: WatchKind,
}

/// Where a process was when GDB last resumed it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Position {
    pub instructions: u64,
    pub pc: u32,
}

impl Position {
    pub fn of(p: &Process) -> Position {
        Position {
            instructions: p.cpu.instructions(),
            pc: p.cpu.pc(),
        }
    }
}

/// One process GDB debugs (an inferior): its breakpoints and watchpoints
/// (kept here, per address space, never written into guest text) and
/// whether GDB let it run.
#[derive(Clone, Debug, Default)]
pub struct Traced {
    pub breakpoints: BTreeSet<u32>,
    pub watchpoints: Vec<Watch>,
    /// GDB did not resume it: it stays off the CPU.
    pub held: bool,
    pub resumed_at: Position,
    /// A watchpoint stop here is not repeated (GDB steps over it).
    pub watch_stop_at: Option<Position>,
}

impl Traced {
    /// The breakpoint or watchpoint `p` is about to hit, if any.
    fn hit(&self, p: &Process) -> Option<Stop> {
        if self.breakpoints.contains(&p.cpu.pc()) {
            return Some(Stop::Breakpoint);
        }
        if self.watchpoints.is_empty() {
            return None;
        }
        self.watch_hit(p)
    }

    /// The watchpoint the instruction at the PC is about to trigger.
    fn watch_hit(&self, p: &Process) -> Option<Stop> {
        let word = p.mem.read_u32(p.cpu.pc()).ok()?;
        let access = decode(word).data_access()?;
        let start = access.address(p.cpu.gpr[access.base.idx()]);
        let end = start as u64 + access.bytes as u64;
        self.watchpoints.iter().find_map(|w| {
            let fires = match w.kind {
                WatchKind::Write => access.store,
                WatchKind::Read => !access.store,
                WatchKind::ReadWrite => true,
            };
            let overlaps = (start as u64) < w.addr as u64 + w.len as u64 && end > w.addr as u64;
            (fires && overlaps).then(|| Stop::Watch {
                kind: if access.store {
                    WatchKind::Write
                } else {
                    WatchKind::Read
                },
                addr: start.max(w.addr),
            })
        })
    }

    /// A breakpoint or watchpoint stop of a running process (not one at
    /// the place it was resumed from).
    fn forward_hit(&mut self, p: &Process) -> Option<Stop> {
        let here = Position::of(p);
        if here != self.resumed_at && self.breakpoints.contains(&here.pc) {
            return Some(Stop::Breakpoint);
        }
        if !self.watchpoints.is_empty() && self.watch_stop_at != Some(here) {
            if let Some(stop) = self.watch_hit(p) {
                self.watch_stop_at = Some(here);
                return Some(stop);
            }
        }
        None
    }
}

/// Which events GDB asked to hear of (its qSupported features).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Events {
    pub fork: bool,
    pub exec: bool,
}

/// The debugger's state between stops.
#[derive(Debug)]
pub struct DebugState {
    /// The focused process: the one of the last stop (or GDB's `vCont`
    /// step), whose history reverse execution follows.
    pub pid: Pid,
    /// Every process GDB debugs.
    pub procs: BTreeMap<Pid, Traced>,
    pub mode: Mode,
    pub events: Events,
    /// The machine is in the past (a snapshot re-executed): system calls
    /// must not run again.
    pub replaying: bool,
    /// Replaying: the focused process's retired count at the live run's
    /// position, when that lies in the current interval.
    pub head: Option<u64>,
    /// Recording: the focused process's cycle count at the last snapshot.
    pub snapshot_cycles: u64,
    /// `Scan`: the hits found, by retired count.
    pub hits: Vec<(u64, Stop)>,
    /// The focused process's mapped objects GDB has been told of.
    pub libraries: usize,
    /// A traced process exec'd since the last snapshot.
    pub new_image: Option<Pid>,
}

impl DebugState {
    pub fn new(pid: Pid) -> Self {
        DebugState {
            pid,
            procs: BTreeMap::from([(pid, Traced::default())]),
            mode: Mode::Continue,
            events: Events::default(),
            replaying: false,
            head: None,
            snapshot_cycles: 0,
            hits: Vec::new(),
            libraries: 0,
            new_image: None,
        }
    }

    /// The focused process's debugging state.
    pub fn focus(&mut self) -> &mut Traced {
        self.procs.entry(self.pid).or_default()
    }

    /// Whether `p` must come back to the hook after every instruction.
    fn single_instructions(&self, p: &Process) -> bool {
        let Some(t) = self.procs.get(&p.pid) else {
            return false;
        };
        let focus = p.pid == self.pid;
        (focus && (self.mode != Mode::Continue || self.head.is_some()))
            || !t.breakpoints.is_empty()
            || !t.watchpoints.is_empty()
    }

    /// Decides whether the focused process stops before its next
    /// instruction.
    fn check_focus(&mut self, p: &Process) -> Option<Stop> {
        let here = Position::of(p);
        match self.mode {
            Mode::RunTo(n) if here.instructions >= n => return Some(Stop::Reached),
            Mode::Scan(n) if here.instructions >= n => return Some(Stop::Reached),
            Mode::Scan(_) => {
                if let Some(hit) = self.procs.get(&p.pid).and_then(|t| t.hit(p)) {
                    self.hits.push((here.instructions, hit));
                }
                return None;
            }
            Mode::RunTo(_) => return None,
            _ => {}
        }
        if self.head == Some(here.instructions) {
            return Some(Stop::Head);
        }
        if !self.replaying && p.cpu.cycles() >= self.snapshot_cycles + SNAPSHOT_CYCLES {
            return Some(Stop::Snapshot);
        }
        let step = self.mode == Mode::Step;
        let t = self.focus();
        // A step runs a branch together with its delay slot.
        if step && here != t.resumed_at && !p.cpu.in_delay_slot() {
            return Some(Stop::DoneStep);
        }
        t.forward_hit(p)
    }

    /// Decides whether process `p` stops before its next instruction.
    pub fn check(&mut self, p: &Process) -> Option<Stop> {
        if p.pid == self.pid {
            return self.check_focus(p);
        }
        // Other inferiors stop at their breakpoints and watchpoints while
        // the machine runs forward; the history re-executes for the
        // focused process alone.
        if matches!(self.mode, Mode::RunTo(_) | Mode::Scan(_)) {
            return None;
        }
        let stop = self.procs.get_mut(&p.pid)?.forward_hit(p);
        if stop.is_some() {
            self.pid = p.pid;
        }
        stop
    }
}

/// The kernel's hook for one run: the debugger's state and the connection.
pub struct Hook<'a> {
    pub state: &'a mut DebugState,
    pub conn: &'a mut Conn,
    pub next_poll: u64,
    pub stop: Option<Stop>,
}

impl DebugHook for Hook<'_> {
    fn traces(&self, pid: Pid) -> bool {
        self.state.procs.contains_key(&pid)
    }

    fn holds(&self, pid: Pid) -> bool {
        self.state.procs.get(&pid).is_some_and(|t| t.held)
    }

    fn stop_here(&mut self, p: &Process) -> bool {
        // Processes GDB does not debug run on.
        if !self.state.procs.contains_key(&p.pid) {
            return false;
        }
        if self.stop.is_some() {
            return true;
        }
        self.stop = self.state.check(p);
        if self.stop.is_none() && p.cpu.cycles() >= self.next_poll {
            self.next_poll = p.cpu.cycles() + POLL_CYCLES;
            if self.conn.pending() {
                self.stop = Some(Stop::Incoming);
            }
        }
        self.stop.is_some()
    }

    fn deadline(&self, p: &Process) -> u64 {
        if !self.state.procs.contains_key(&p.pid) {
            u64::MAX
        } else if self.state.single_instructions(p) {
            p.cpu.cycles() + 1
        } else {
            p.cpu.cycles().saturating_add(POLL_CYCLES)
        }
    }

    fn before_syscall(&mut self, _p: &Process) -> bool {
        if self.state.replaying && self.stop.is_none() {
            self.stop = Some(Stop::SyscallInPast);
        }
        self.state.replaying
    }

    fn after_syscall(&mut self) -> bool {
        if self.state.replaying {
            return false;
        }
        if self.stop.is_none() {
            self.stop = Some(Stop::Snapshot);
        }
        true
    }

    /// With fork events on, the child becomes an inferior, held (with
    /// copies of the parent's breakpoints and watchpoints, as a fork copies
    /// memory and debug registers) until GDB detaches or resumes it, and
    /// the machine stops for GDB; else the child runs undebugged.
    fn forked(&mut self, parent: Pid, child: Pid) {
        if !self.state.events.fork || self.state.replaying {
            return;
        }
        let mut t = self.state.procs.get(&parent).cloned().unwrap_or_default();
        t.held = true;
        t.watch_stop_at = None;
        self.state.procs.insert(child, t);
        self.state.pid = parent;
        self.stop = Some(Stop::Forked(child));
    }

    /// The process has a new address space: its breakpoints and
    /// watchpoints are gone (GDB inserts them again after the exec event).
    fn execed(&mut self, p: &Process) {
        if self.state.replaying {
            return;
        }
        self.state.new_image = Some(p.pid);
        if let Some(t) = self.state.procs.get_mut(&p.pid) {
            t.breakpoints.clear();
            t.watchpoints.clear();
        }
        if self.state.events.exec {
            self.state.pid = p.pid;
            self.stop = Some(Stop::Execed);
        }
    }
}
