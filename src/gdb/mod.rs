//! A GDB remote-protocol stub: `irix-emu run --gdb PORT` (and `prof
//! --gdb`) waits for GDB before the first instruction and lets it debug
//! the first process, through the `gdbstub` crate.
//!
//! - `conn`: where GDB connects (TCP on localhost, ADDR:PORT, unix:PATH).
//! - `arch`: big-endian MIPS with GDB's o32 register layout and target
//!   description.
//! - `target`: registers, memory, resume and step, breakpoints and
//!   watchpoints of the traced process.
//! - `stop`: deciding, before each instruction, whether to stop.
//! - `history`: snapshots and re-execution for reverse execution.
//! - `libraries`: the shared objects rld mapped, for GDB.
//! - `signal`: IRIX signal numbers in GDB's numbering.
//! - `monitor`: `monitor follow-fork child|parent` and `monitor pid`.
//!
//! Stopping costs no virtual time: the kernel's clock advances only with
//! the instructions the guest retires, so a debugged run's profile is the
//! undebugged run's. A connection that breaks or closes ends the run with
//! one line and status 125.

mod arch;
mod conn;
mod history;
mod libraries;
mod monitor;
mod signal;
mod stop;
mod target;

use std::marker::PhantomData;

use cpu_mips::Observer;
use gdbstub::common::Signal;
use gdbstub::conn::ConnectionExt;
use gdbstub::stub::run_blocking::{BlockingEventLoop, Event, WaitForStopReasonError};
use gdbstub::stub::{DisconnectReason, GdbStub, SingleThreadStopReason};
use irix_kernel::process::{ExitStatus, Pid};
use irix_kernel::{signals, Kernel, Outcome, RunEnd};

pub use conn::Listen;

use crate::cli::{say, Failure};
use crate::exit;
use conn::Conn;
use gdbstub::target::ext::base::reverse_exec::ReplayLogPosition;
use history::Ran;
use stop::{DebugState, Mode, Stop};
use target::Debuggee;

/// Runs the kernel to the end: under GDB when `gdb` names where to wait
/// for it, else straight through.
pub fn run_kernel<O: Observer>(
    kernel: &mut Kernel,
    pid: Pid,
    obs: &mut O,
    gdb: Option<&Listen>,
) -> Result<Outcome, Failure> {
    let Some(listen) = gdb else {
        return Ok(kernel.run_observed(obs));
    };
    let conn = conn::accept(listen)
        .map_err(|e| Failure::new(exit::EMULATOR_FAILURE, format!("--gdb: {e}")))?;
    let mut state = DebugState::new(pid);
    let history = history::start(kernel, &mut state);
    let mut target = Debuggee {
        kernel,
        obs,
        state,
        history,
        finished: None,
    };
    let ended = GdbStub::new(conn).run_blocking::<EventLoop<'_, O>>(&mut target);
    let finished = target.finished.take();
    match ended {
        Ok(DisconnectReason::Kill) => Ok(Outcome::Killed {
            signal: signals::SIGKILL,
            fault: None,
        }),
        Ok(reason) => {
            if reason == DisconnectReason::Disconnect {
                say(format_args!("GDB detached; the program runs on"));
            }
            Ok(finished.unwrap_or_else(|| target.kernel.run_observed(target.obs)))
        }
        Err(e) => Err(Failure::new(
            exit::EMULATOR_FAILURE,
            format!("GDB connection lost: {e}"),
        )),
    }
}

/// gdbstub's blocking loop over our target.
struct EventLoop<'k, O>(PhantomData<&'k mut O>);

type StopReason = SingleThreadStopReason<u32>;

impl<'k, O: Observer> BlockingEventLoop for EventLoop<'k, O> {
    type Target = Debuggee<'k, O>;
    type Connection = Conn;
    type StopReason = StopReason;

    fn wait_for_stop_reason(
        target: &mut Debuggee<'k, O>,
        conn: &mut Conn,
    ) -> Result<Event<StopReason>, WaitForStopReasonError<target::Fatal, std::io::Error>> {
        let (end, stop) = match target.state.mode {
            Mode::ReverseStep | Mode::ReverseContinue => {
                let stop = if target.state.mode == Mode::ReverseStep {
                    target.reverse_step(conn)
                } else {
                    target.reverse_continue(conn)
                };
                target.state.mode = Mode::Continue;
                let reason = match stop {
                    Some(Stop::Breakpoint) => StopReason::SwBreak(()),
                    Some(Stop::Watch { kind, addr }) => StopReason::Watch {
                        tid: (),
                        kind,
                        addr,
                    },
                    Some(_) => StopReason::DoneStep,
                    None => StopReason::ReplayLog {
                        tid: None,
                        pos: ReplayLogPosition::Begin,
                    },
                };
                return Ok(Event::TargetStopped(reason));
            }
            _ => match target.run_until_stop(conn) {
                Ran::Incoming => {
                    let byte = conn.read().map_err(WaitForStopReasonError::Connection)?;
                    return Ok(Event::IncomingData(byte));
                }
                Ran::Stopped(end, stop) => (end, stop),
            },
        };
        let reason = match end {
            RunEnd::DebugStop => match stop {
                Some(Stop::DoneStep) => StopReason::DoneStep,
                Some(Stop::Breakpoint) => StopReason::SwBreak(()),
                Some(Stop::Library) => StopReason::Library(()),
                Some(Stop::Watch { kind, addr }) => StopReason::Watch {
                    tid: (),
                    kind,
                    addr,
                },
                _ => StopReason::Signal(Signal::SIGTRAP),
            },
            RunEnd::TracedExited(ExitStatus::Exited(code)) => StopReason::Exited(code),
            RunEnd::TracedExited(ExitStatus::Killed { signal, .. }) => {
                StopReason::Terminated(signal::to_gdb(signal))
            }
            RunEnd::Finished(outcome) => {
                let reason = match outcome {
                    Outcome::Exited(code) => StopReason::Exited(code),
                    Outcome::Killed { signal, .. } => {
                        StopReason::Terminated(signal::to_gdb(signal))
                    }
                    // The limit or a deadlock ended the run: to GDB the
                    // program was killed (irix-emu says why).
                    Outcome::CycleLimit | Outcome::TimeLimit | Outcome::Deadlock => {
                        StopReason::Terminated(Signal::SIGKILL)
                    }
                };
                target.finished = Some(outcome);
                reason
            }
        };
        Ok(Event::TargetStopped(reason))
    }

    fn on_interrupt(_target: &mut Debuggee<'k, O>) -> Result<Option<StopReason>, target::Fatal> {
        Ok(Some(StopReason::Signal(Signal::SIGINT)))
    }
}
