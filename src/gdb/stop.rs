//! When the traced process stops: the debugger's breakpoints, watchpoints
//! and resume mode, and the hook the kernel's run loop consults before
//! each instruction of the traced process.
//!
//! Breakpoints are kept here, not written into guest text: the hook
//! compares the PC before an instruction runs. Watchpoints decode the next
//! instruction's load or store (`Op::data_access`) and stop before it
//! runs, as MIPS watch hardware does (GDB then steps over it with the
//! watchpoint removed and compares the value). While any breakpoint or
//! watchpoint is set, or GDB single-steps, the traced process runs one
//! instruction per CPU call; otherwise in pieces of `POLL_CYCLES`, between
//! which the connection is checked for GDB's interrupt (Ctrl-C).

use std::collections::BTreeSet;

use cpu_mips::decode;
use gdbstub::conn::ConnectionExt;
use gdbstub::target::ext::breakpoints::WatchKind;
use irix_kernel::process::{Pid, Process};
use irix_kernel::DebugHook;

/// Cycles the traced process runs between two looks at the connection.
pub const POLL_CYCLES: u64 = 1 << 20;
/// Cycles of the traced process between two snapshots when it makes no
/// system call (each system call takes one): the most a reverse step
/// re-executes.
pub const SNAPSHOT_CYCLES: u64 = 1 << 22;

/// What GDB asked the process to do, or what the history is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Continue,
    Step,
    ReverseStep,
    ReverseContinue,
    /// Re-executing: stop when the traced process has retired this many.
    RunTo(u64),
    /// Re-executing to list every breakpoint or watchpoint hit before the
    /// traced process has retired this many.
    Scan(u64),
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
    /// The traced process mapped another shared object.
    Library,
    Watch {
        kind: WatchKind,
        addr: u32,
    },
}

/// One watched range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watch {
    pub addr: u32,
    pub len: u32,
    pub kind: WatchKind,
}

/// Where the traced process was when GDB last resumed it.
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

/// The debugger's state between stops.
#[derive(Debug)]
pub struct DebugState {
    pub pid: Pid,
    pub breakpoints: BTreeSet<u32>,
    pub watchpoints: Vec<Watch>,
    pub mode: Mode,
    pub resumed_at: Position,
    /// A watchpoint stop here is not repeated (GDB steps over it).
    pub watch_stop_at: Option<Position>,
    /// At a fork, trace the child instead (`monitor follow-fork child`).
    pub follow_child: bool,
    /// The machine is in the past (a snapshot re-executed): system calls
    /// must not run again.
    pub replaying: bool,
    /// Replaying: the traced process's retired count at the live run's
    /// position, when that lies in the current interval.
    pub head: Option<u64>,
    /// Recording: the traced process's cycle count at the last snapshot.
    pub snapshot_cycles: u64,
    /// `Scan`: the hits found, by retired count.
    pub hits: Vec<(u64, Stop)>,
    /// The traced process's mapped objects GDB has been told of.
    pub libraries: usize,
}

impl DebugState {
    pub fn new(pid: Pid) -> Self {
        DebugState {
            pid,
            breakpoints: BTreeSet::new(),
            watchpoints: Vec::new(),
            mode: Mode::Continue,
            resumed_at: Position::default(),
            watch_stop_at: None,
            follow_child: false,
            replaying: false,
            head: None,
            snapshot_cycles: 0,
            hits: Vec::new(),
            libraries: 0,
        }
    }

    /// Whether the process must come back to the hook after every instruction.
    fn single_instructions(&self) -> bool {
        self.mode != Mode::Continue
            || self.head.is_some()
            || !self.breakpoints.is_empty()
            || !self.watchpoints.is_empty()
    }

    /// The breakpoint or watchpoint the process is about to hit, if any.
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

    /// Decides whether the traced process stops before its next instruction.
    pub fn check(&mut self, p: &Process) -> Option<Stop> {
        let here = Position::of(p);
        match self.mode {
            Mode::RunTo(n) if here.instructions >= n => return Some(Stop::Reached),
            Mode::Scan(n) if here.instructions >= n => return Some(Stop::Reached),
            Mode::Scan(_) => {
                if let Some(hit) = self.hit(p) {
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
        let moved = here != self.resumed_at;
        // A step runs a branch together with its delay slot.
        if moved && self.mode == Mode::Step && !p.cpu.in_delay_slot() {
            return Some(Stop::DoneStep);
        }
        if moved && self.breakpoints.contains(&here.pc) {
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

/// The kernel's hook for one run: the debugger's state and the connection.
pub struct Hook<'a, C: ConnectionExt> {
    pub state: &'a mut DebugState,
    pub conn: &'a mut C,
    pub next_poll: u64,
    pub stop: Option<Stop>,
}

impl<C: ConnectionExt> DebugHook for Hook<'_, C> {
    fn traced(&self) -> Option<Pid> {
        Some(self.state.pid)
    }

    fn stop_here(&mut self, p: &Process) -> bool {
        // The parent of a followed child finishes its slice undebugged.
        if p.pid != self.state.pid {
            return false;
        }
        if self.stop.is_some() {
            return true;
        }
        self.stop = self.state.check(p);
        if self.stop.is_none() && p.cpu.cycles() >= self.next_poll {
            self.next_poll = p.cpu.cycles() + POLL_CYCLES;
            // An error (a closed connection) also counts as data: reading
            // it then reports the failure.
            if !matches!(self.conn.peek(), Ok(None)) {
                self.stop = Some(Stop::Incoming);
            }
        }
        self.stop.is_some()
    }

    fn deadline(&self, p: &Process) -> u64 {
        if p.pid != self.state.pid {
            u64::MAX
        } else if self.state.single_instructions() {
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

    fn forked(&mut self, _parent: Pid, child: Pid) {
        if self.state.follow_child {
            self.state.pid = child;
            self.state.follow_child = false;
        }
    }
}
