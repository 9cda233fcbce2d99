//! Delivering signals: pending asynchronous ones before the process runs
//! on, and faults (CPU exceptions) mapped to the signals IRIX sends.

use cpu_mips::{ExcCode, Exception};

use super::sched::SliceEnd;
use super::{Kernel, Outcome};
use crate::image;
use crate::process::{ExitStatus, Process};
use crate::sigframe;
use crate::signals::{self, DefaultAction, FaultSignal};

impl Kernel {
    /// A synchronous fault with no handler: the default action, which for
    /// every fault signal is to terminate with a core image.
    pub(super) fn fault_default_action(
        &mut self,
        p: &mut Process,
        fault: FaultSignal,
    ) -> ExitStatus {
        if Some(p.pid) == self.first {
            self.outcome = Some(Outcome::Killed {
                signal: fault.signal,
                fault: Some(fault),
            });
        }
        ExitStatus::Killed {
            signal: fault.signal,
            core: true,
        }
    }

    /// Acts on the lowest deliverable pending signal, if any: runs its
    /// handler, ignores it, or takes the default action.
    pub(super) fn deliver_pending_signal(&mut self, p: &mut Process) -> Option<SliceEnd> {
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

    /// A CPU exception other than SYSCALL: a store or load just below the
    /// stack grows it; anything else is a fault signal, run by its handler
    /// when one is caught and unblocked, else its default action (an
    /// ignored or blocked fault cannot be ignored: the instruction would
    /// fault again). `Some` when the process's slice ends.
    pub(super) fn handle_fault(&mut self, p: &mut Process, e: &Exception) -> Option<SliceEnd> {
        let grows = matches!(e.code, ExcCode::TlbL | ExcCode::TlbS)
            && e.bad_vaddr
                .is_some_and(|a| image::grow_stack(&mut p.mem, p.stack_limit, a));
        if grows {
            return None;
        }
        let break_code = (e.code == ExcCode::Bp)
            .then(|| p.mem.read_u32(e.epc).ok().map(|w| (w >> 16) & 0x3ff))
            .flatten();
        let fault = signals::fault_signal(e, break_code);
        let catchable = sigframe::is_caught(&p.signals, fault.signal)
            && p.signals.blocked & signals::bit(fault.signal) == 0;
        let cause = sigframe::Cause {
            exc_code: e.code as u32,
            bad_vaddr: e.bad_vaddr.unwrap_or(0),
        };
        if catchable && sigframe::enter_handler(p, fault.signal, cause).is_ok() {
            return None;
        }
        Some(SliceEnd::Exited(self.fault_default_action(p, fault)))
    }
}
