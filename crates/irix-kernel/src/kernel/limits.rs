//! RLIMIT_CPU on the virtual clock: getrlimit(2) says "SIGXCPU is sent to a
//! process which exceeds this limit". The process's CPU time is its user
//! cycles plus its charged system cycles; the soft limit (in seconds) sends
//! SIGXCPU when that time reaches it, and again at each further second (as
//! the BSD kernels do), and the hard limit sends SIGKILL. Both fall at exact
//! cycle counts: the run loop stops the CPU there (`cpu_limit_deadline`),
//! so a run signals at the same instruction every time.

use super::Kernel;
use crate::process::Process;
use crate::rlimits::{Resource, INFINITY};
use crate::signals::{self, SIGKILL, SIGXCPU};

impl Kernel {
    /// The user-cycle count at which `p` next reaches an RLIMIT_CPU mark
    /// (`u64::MAX`: none).
    pub(super) fn cpu_limit_deadline(&self, p: &Process) -> u64 {
        let l = p.limits.get(Resource::Cpu);
        if l.soft == INFINITY && l.hard == INFINITY {
            return u64::MAX;
        }
        let next = p.xcpu_sent.map_or(l.soft, |s| s + 1).min(l.hard);
        next.saturating_mul(self.config.cpu_hz)
            .saturating_sub(p.acct.sys_cycles)
    }

    /// Sends what RLIMIT_CPU calls for now: SIGKILL at the hard limit,
    /// SIGXCPU at the soft one and each second past it.
    pub(super) fn check_cpu_limit(&mut self, p: &mut Process) {
        let l = p.limits.get(Resource::Cpu);
        if l.soft == INFINITY && l.hard == INFINITY {
            return;
        }
        let secs = p.cpu_cycles() / self.config.cpu_hz.max(1);
        if secs >= l.hard {
            p.signals.pending |= signals::bit(SIGKILL);
        } else if secs >= l.soft && p.xcpu_sent.is_none_or(|s| secs > s) {
            p.signals.pending |= signals::bit(SIGXCPU);
            p.xcpu_sent = Some(secs);
        }
    }
}
