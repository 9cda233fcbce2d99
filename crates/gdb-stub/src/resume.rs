//! Running the machine for GDB: the resume packets (`vCont`, `c`, `s`,
//! their signal forms, `bc`, `bs`), the wait for the next stop, and the
//! stop reply that answers them ("Stop Reply Packets" in GDB's manual).
//!
//! In all-stop mode the whole machine stops when one debugged process
//! does. A debugged process that a `vCont` does not resume stays held (as
//! GDB expects of the other inferiors while it resumes one, `set
//! schedule-multiple off`). A signal GDB passes back (`C`, `S`) is not
//! delivered: the stub reports no signal stops it could pass back.

use std::io;

use cpu_mips::Observer;
use irix_kernel::process::{ExitStatus, Pid};
use irix_kernel::{Outcome, RunEnd};

use super::conn::{Conn, Incoming};
use super::history::Ran;
use super::packet::{hex_u64, thread_id, to_hex, ThreadId};
use super::session::{End, Session, Then};
use super::signal::{self, SIGINT, SIGKILL, SIGTRAP};
use super::stop::{Mode, Position, Stop, WatchKind};

/// A stop reply and, when it ends the session, how.
pub type Waited = (Vec<u8>, Option<End>);

impl<O: Observer> Session<'_, O> {
    /// The `c`, `C`, `s`, `S`, `b` and `v` packets.
    pub fn resume_packet(&mut self, packet: &[u8]) -> Then {
        match packet {
            [b'c' | b'C', ..] => {
                self.release_all();
                self.start(None, Mode::Continue)
            }
            [b's' | b'S', ..] => {
                self.release_all();
                self.start(Some(self.state.pid), Mode::Step)
            }
            b"bc" => self.start(None, Mode::ReverseContinue),
            b"bs" => self.start(None, Mode::ReverseStep),
            b"vCont?" => Then::Reply(b"vCont;c;C;s;S".to_vec()),
            [b'v', b'C', b'o', b'n', b't', b';', actions @ ..] => self.vcont(actions),
            [b'v', b'K', b'i', b'l', b'l', b';', pid @ ..] => {
                match hex_u64(pid).and_then(|p| u32::try_from(p).ok()) {
                    Some(pid) => self.kill(pid),
                    None => Then::Reply(b"E01".to_vec()),
                }
            }
            _ => Then::Reply(Vec::new()),
        }
    }

    /// `vCont;action[:thread-id]...`: each debugged process takes the
    /// leftmost action naming it; one no action names stays held.
    fn vcont(&mut self, actions: &[u8]) -> Then {
        let mut parsed = Vec::new();
        for action in actions.split(|&b| b == b';') {
            let (act, id) = match action.iter().position(|&b| b == b':') {
                Some(i) => (&action[..i], ThreadId::parse(&action[i + 1..])),
                None => (action, Some(ThreadId::All)),
            };
            let step = match act.first() {
                Some(b'c' | b'C') => false,
                Some(b's' | b'S') => true,
                _ => return Then::Reply(b"E01".to_vec()),
            };
            let Some(id) = id else {
                return Then::Reply(b"E01".to_vec());
            };
            parsed.push((step, id));
        }
        let mut stepped = None;
        for (&pid, t) in self.state.procs.iter_mut() {
            let action = parsed.iter().find(|(_, id)| id.names(pid));
            t.held = action.is_none();
            if let Some((true, _)) = action {
                stepped.get_or_insert(pid);
            }
        }
        match stepped {
            Some(pid) => self.start(Some(pid), Mode::Step),
            None => self.start(None, Mode::Continue),
        }
    }

    /// The legacy resume packets run every debugged process.
    fn release_all(&mut self) {
        for t in self.state.procs.values_mut() {
            t.held = false;
        }
    }

    /// Resumes in `mode` (`focus`: the process a step is of); every
    /// process that runs remembers where it was resumed from.
    fn start(&mut self, focus: Option<Pid>, mode: Mode) -> Then {
        if let Some(pid) = focus {
            self.state.pid = pid;
        }
        self.state.mode = mode;
        for (&pid, t) in self.state.procs.iter_mut() {
            if let Some(p) = self.kernel.debug_process(pid) {
                t.resumed_at = Position::of(p);
            }
        }
        Then::Resume
    }

    /// Runs until a stop GDB must hear of; returns its stop reply.
    pub fn wait(&mut self, conn: &mut Conn) -> io::Result<Waited> {
        if self.finished.is_some() {
            return Ok(self.end_of_run());
        }
        if matches!(self.state.mode, Mode::ReverseStep | Mode::ReverseContinue) {
            let stop = if self.state.mode == Mode::ReverseStep {
                self.reverse_step(conn)
            } else {
                self.reverse_continue(conn)
            };
            self.state.mode = Mode::Continue;
            let reason = match stop {
                Some(stop) => self.reason(stop),
                None => "replaylog:begin;".into(),
            };
            return Ok((self.stop_reply(SIGTRAP, &reason), None));
        }
        let (end, stop) = loop {
            match self.run_until_stop(conn) {
                Ran::Incoming => match conn.poll()? {
                    Some(Incoming::Interrupt) => return Ok((self.stop_reply(SIGINT, ""), None)),
                    // All-stop GDB sends nothing else while the program
                    // runs; acks and noise are dropped.
                    Some(Incoming::Packet(_)) | None => continue,
                },
                Ran::Stopped(end, stop) => break (end, stop),
            }
        };
        Ok(match end {
            RunEnd::DebugStop => {
                let reason = stop.map(|s| self.reason(s)).unwrap_or_default();
                (self.stop_reply(SIGTRAP, &reason), None)
            }
            RunEnd::TracedExited(pid, status) => self.exited(pid, status),
            // The resumed processes wait for held ones: as on IRIX under
            // a debugger, until GDB interrupts.
            RunEnd::Held => loop {
                if conn.read()? == Incoming::Interrupt {
                    break (self.stop_reply(SIGINT, ""), None);
                }
            },
            RunEnd::Finished(outcome) => {
                self.finished = Some(outcome);
                self.end_of_run()
            }
        })
    }

    /// The `T` reply's stop reason for `stop` (empty for a plain trap).
    fn reason(&self, stop: Stop) -> String {
        match stop {
            Stop::Breakpoint => "swbreak:;".into(),
            Stop::Library => "library:;".into(),
            Stop::Watch { kind, addr } => {
                let name = match kind {
                    WatchKind::Write => "watch",
                    WatchKind::Read => "rwatch",
                    WatchKind::ReadWrite => "awatch",
                };
                format!("{name}:{addr:x};")
            }
            Stop::Forked(child) => format!("fork:{};", thread_id(child)),
            Stop::Execed => {
                let path = self
                    .kernel
                    .debug_process(self.state.pid)
                    .and_then(|p| p.exec_path.clone())
                    .unwrap_or_default();
                format!("exec:{};", to_hex(path.as_bytes()))
            }
            _ => String::new(),
        }
    }

    /// `T` with the focused process's thread: GDB reads its registers next.
    fn stop_reply(&mut self, signal: u8, reason: &str) -> Vec<u8> {
        self.general = self.state.pid;
        format!("T{signal:02x}{reason}thread:{};", thread_id(self.state.pid)).into_bytes()
    }

    /// A debugged process ended: `W` or `X` naming it. The session ends
    /// with the last one.
    fn exited(&mut self, pid: Pid, status: ExitStatus) -> Waited {
        self.state.procs.remove(&pid);
        self.refocus();
        let reply = match status {
            ExitStatus::Exited(code) => format!("W{code:02x};process:{pid:x}"),
            ExitStatus::Killed { signal, .. } => {
                format!("X{:02x};process:{pid:x}", signal::to_gdb(signal))
            }
        };
        let end = self.state.procs.is_empty().then_some(End::Exited);
        (reply.into_bytes(), end)
    }

    /// The run is over: each process GDB still debugs is reported ended,
    /// one per resume.
    fn end_of_run(&mut self) -> Waited {
        let pid = self.state.pid;
        let status = match &self.finished {
            Some(Outcome::Exited(code)) => ExitStatus::Exited(*code),
            Some(Outcome::Killed { signal, .. }) => ExitStatus::Killed {
                signal: *signal,
                core: false,
            },
            // The limit or a deadlock ended the run: to GDB the program
            // was killed (irix-emu says why).
            _ => ExitStatus::Killed {
                signal: irix_kernel::signals::SIGKILL,
                core: false,
            },
        };
        self.exited(pid, status)
    }

    /// The `?` reply: the focused process is stopped.
    pub fn halt_reason(&mut self) -> Vec<u8> {
        if self.finished.is_some() || self.state.procs.is_empty() {
            return format!("X{SIGKILL:02x}").into_bytes();
        }
        self.stop_reply(SIGTRAP, "")
    }
}
