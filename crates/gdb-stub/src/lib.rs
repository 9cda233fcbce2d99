//! A GDB remote-protocol stub: `irix-emu run --gdb PORT` (and `prof
//! --gdb`) waits for GDB before the first instruction ([`debug`]) and lets it debug
//! the first process and the processes it forks, speaking GDB's remote
//! protocol (the multiprocess dialect: fork and exec events, one process
//! detached or killed while the session goes on).
//!
//! - `conn`: where GDB connects (TCP on localhost, ADDR:PORT, unix:PATH)
//!   and the packet framing.
//! - `packet`: hex, thread ids, binary escaping.
//! - `session`: the packet loop; registers, memory, breakpoints, threads,
//!   detach and kill.
//! - `query`: the `q` packets (features, target description, library
//!   list, thread list, `monitor`).
//! - `resume`: resuming, waiting for the next stop, stop replies (fork,
//!   exec, exit events).
//! - `arch`: big-endian MIPS with GDB's o32 register layout and target
//!   description.
//! - `target`: one process's registers, memory access, breakpoints and
//!   watchpoints.
//! - `stop`: deciding, before each instruction, whether to stop; the
//!   kernel's hook (forks, execs, held processes).
//! - `history`: snapshots and re-execution for reverse execution.
//! - `libraries`: the shared objects rld mapped, for GDB.
//! - `signal`: IRIX signal numbers in GDB's numbering.
//! - `monitor`: `monitor pid` and `monitor cycles`.
//!
//! Stopping costs no virtual time: the kernel's clock advances only with
//! the instructions the guest retires, so a debugged run's profile is the
//! undebugged run's. A connection that breaks or closes ends the session
//! with [`GdbError::ConnectionLost`]; the stub prints nothing itself (the
//! command line says where it waits, and that GDB detached).

mod arch;
mod conn;
mod history;
mod libraries;
mod monitor;
mod packet;
mod query;
mod resume;
mod session;
mod signal;
mod stop;
mod target;

use cpu_mips::Observer;
use irix_kernel::process::Pid;
use irix_kernel::{signals, Kernel, Outcome};
use thiserror::Error;

pub use conn::{Listen, Listener};
use session::{End, Session};
use stop::DebugState;

/// Why a debugging session failed.
#[derive(Debug, Error)]
pub enum GdbError {
    /// GDB never got on: the wait for its connection failed.
    #[error("{0}")]
    Accept(std::io::Error),
    /// The connection broke or closed in the middle of the session.
    #[error("GDB connection lost: {0}")]
    ConnectionLost(std::io::Error),
}

/// How a debugging session ended.
#[derive(Debug)]
pub enum Debugged {
    /// The program ran to its end (or GDB killed it) under GDB.
    Ended(Outcome),
    /// GDB detached: the caller runs the program on (unobserved by GDB)
    /// unless it had already `finished`.
    Detached { finished: Option<Outcome> },
}

/// Waits on `listener` for GDB, then serves it until the program ends, GDB
/// kills it or GDB detaches. The kernel runs only when GDB resumes it.
pub fn debug<O: Observer>(
    kernel: &mut Kernel,
    pid: Pid,
    obs: &mut O,
    listener: Listener,
) -> Result<Debugged, GdbError> {
    let mut conn = listener.accept().map_err(GdbError::Accept)?;
    let mut state = DebugState::new(pid);
    let history = history::start(kernel, &mut state);
    let mut session = Session {
        kernel,
        obs,
        state,
        history,
        general: pid,
        finished: None,
        started: pid,
    };
    let ended = session.serve(&mut conn);
    let finished = session.finished.take();
    match ended.map_err(GdbError::ConnectionLost)? {
        End::Killed => Ok(Debugged::Ended(Outcome::Killed {
            signal: signals::SIGKILL,
            fault: None,
        })),
        End::Detached => Ok(Debugged::Detached { finished }),
        // The last debugged process ended; the run may go on.
        End::Exited => {
            Ok(Debugged::Ended(finished.unwrap_or_else(|| {
                session.kernel.run_observed(session.obs)
            })))
        }
    }
}
