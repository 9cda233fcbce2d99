//! Delivering signals: pending asynchronous ones before the process runs
//! on, and faults (CPU exceptions) mapped to the signals IRIX sends.

use cpu_mips::{Exception, Reg};

use super::sched::SliceEnd;
use super::{Kernel, Outcome};
use crate::abi::flags::sigmask::SA_NOCLDSTOP;
use crate::process::{ExitStatus, Process, WaitEvent};
use crate::sigframe;
use crate::signals::{self, DefaultAction, FaultSignal};
use crate::Errno;

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
            core: signals::default_action(fault.signal) == DefaultAction::Core,
        }
    }

    /// Enters the handler of `sig` (see `sigframe::enter_handler`); the call
    /// graph, if any, gets a signal frame.
    fn enter_handler(
        &mut self,
        p: &mut Process,
        sig: u32,
        cause: sigframe::Cause,
    ) -> Result<(), Errno> {
        let (pc, sp) = (p.cpu.sample_pc(), p.reg(Reg::SP));
        sigframe::enter_handler(p, sig, cause)?;
        self.timeline_signal(p.pid, sig);
        if let Some(cg) = self.call_graph(p.pid) {
            cg.with_tracker(p.pid, |t| t.signal(pc, sp, p.cpu.pc()));
        }
        Ok(())
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
            if sigframe::is_caught(&p.signals, sig) {
                // A call the process waits in ends first (EINTR, or made
                // again after the handler).
                crate::syscalls::interrupt(self, p, sig);
                if self.enter_handler(p, sig, Default::default()).is_ok() {
                    return None;
                }
            }
        }
        match signals::default_action(sig) {
            DefaultAction::Ignore | DefaultAction::Continue => None,
            DefaultAction::Stop => {
                // A stop discards a pending continue, as POSIX has it.
                p.signals.pending &= !signals::bit(signals::SIGCONT);
                self.timeline_stopped(p.pid, sig);
                self.child_changed(p, WaitEvent::Stopped(sig));
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

    /// `p` stopped or continued: its parent's waitsys can report it, and
    /// the parent gets SIGCHLD unless its SIGCHLD action has SA_NOCLDSTOP
    /// (sigaction(2)).
    pub(super) fn child_changed(&mut self, p: &mut Process, event: WaitEvent) {
        p.wait_event = Some(event);
        if let Some(parent) = self.procs.get_mut(&p.ppid) {
            let flags = parent.signals.handler_flags[signals::SIGCHLD as usize];
            if flags & SA_NOCLDSTOP == 0 {
                parent.signals.pending |= signals::bit(signals::SIGCHLD);
            }
        }
    }

    /// A CPU exception other than SYSCALL: a fault signal, run by its
    /// handler when one is caught and unblocked, else its default action
    /// (an ignored or blocked fault cannot be ignored: the instruction
    /// would fault again). A fault the memory budget caused (the access
    /// needed a page the run cannot afford) is SIGKILL, with a message.
    /// `Some` when the process's slice ends.
    pub(super) fn handle_fault(&mut self, p: &mut Process, e: &Exception) -> Option<SliceEnd> {
        let mut fault = signals::fault_signal(e);
        if self.budget.take_exhausted() {
            self.warn(&format!(
                "{}: out of memory: the run's --max-memory budget of {} bytes is used up",
                p.name,
                self.budget.limit()
            ));
            fault.signal = signals::SIGKILL;
        }
        let catchable = sigframe::is_caught(&p.signals, fault.signal)
            && p.signals.blocked & signals::bit(fault.signal) == 0;
        let cause = sigframe::Cause {
            exc_code: e.code as u32,
            bad_vaddr: e.bad_vaddr.unwrap_or(0),
        };
        if catchable && self.enter_handler(p, fault.signal, cause).is_ok() {
            return None;
        }
        Some(SliceEnd::Exited(self.fault_default_action(p, fault)))
    }
}
