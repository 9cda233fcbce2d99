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

/// What GDB asked the process to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Continue,
    Step,
}

/// Why the hook stopped the machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// GDB sent something (an interrupt) while the process ran.
    Incoming,
    DoneStep,
    Breakpoint,
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
        }
    }

    /// Whether the process must come back to the hook after every instruction.
    fn single_instructions(&self) -> bool {
        self.mode == Mode::Step || !self.breakpoints.is_empty() || !self.watchpoints.is_empty()
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
        let moved = here != self.resumed_at;
        if moved && self.mode == Mode::Step {
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

    fn forked(&mut self, _parent: Pid, child: Pid) {
        if self.state.follow_child {
            self.state.pid = child;
            self.state.follow_child = false;
        }
    }
}
