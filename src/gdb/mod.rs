//! A GDB remote-protocol stub: `irix-emu run --gdb PORT` (and `prof
//! --gdb`) waits for GDB before the first instruction and lets it debug
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
//! undebugged run's. A connection that breaks or closes ends the run with
//! one line and status 125.

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

pub use conn::Listen;

use crate::cli::{say, Failure};
use crate::exit;
use session::{End, Session};
use stop::DebugState;

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
    let mut conn = conn::accept(listen)
        .map_err(|e| Failure::new(exit::EMULATOR_FAILURE, format!("--gdb: {e}")))?;
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
    match ended {
        Ok(End::Killed) => Ok(Outcome::Killed {
            signal: signals::SIGKILL,
            fault: None,
        }),
        Ok(end) => {
            if end == End::Detached {
                say(format_args!("GDB detached; the program runs on"));
            }
            Ok(finished.unwrap_or_else(|| session.kernel.run_observed(session.obs)))
        }
        Err(e) => Err(Failure::new(
            exit::EMULATOR_FAILURE,
            format!("GDB connection lost: {e}"),
        )),
    }
}
