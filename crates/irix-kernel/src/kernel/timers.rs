//! The interval timers in the run loop: expiries become signals at exact
//! instruction boundaries (the slice's event deadline), and a run whose
//! processes all wait moves virtual time on to the next expiry or timeout
//! instead of ending as a deadlock.

use super::Kernel;
use crate::process::{Process, RunState};
use crate::signals::{self, SIG_IGN};
use crate::timers::Which;

const ALL: [Which; 3] = [Which::Real, Which::Virtual, Which::Prof];

impl Kernel {
    /// Each timer's clock for `p` now: virtual time, user time, user plus
    /// system time.
    pub(crate) fn timer_clock(&self, p: &Process, which: Which) -> u64 {
        match which {
            Which::Real => self.now,
            Which::Virtual => p.user_cycles(),
            Which::Prof => p.cpu_cycles(),
        }
    }

    /// Makes the signals of `p`'s expired timers pending (and re-arms
    /// interval timers).
    pub(super) fn fire_timers(&mut self, p: &mut Process) {
        for which in ALL {
            let clock = self.timer_clock(p, which);
            if p.timers.expire(which, clock) {
                p.signals.pending |= signals::bit(which.signal());
            }
        }
    }

    /// The user-cycle count of `p` at which its next timer expires if it
    /// runs on without a system call (`u64::MAX`: none armed). Each clock
    /// advances with user time while the process runs.
    pub(super) fn timer_deadline(&self, p: &Process) -> u64 {
        let user = p.user_cycles();
        ALL.iter()
            .filter_map(|&which| {
                let t = p.timers.get(which)?;
                Some(user.saturating_add(t.due.saturating_sub(self.timer_clock(p, which))))
            })
            .min()
            .unwrap_or(u64::MAX)
    }

    /// The earliest virtual time at which something can wake a queued
    /// process without any process running: a waiting call's timeout, or
    /// an ITIMER_REAL expiry whose SIGALRM can be delivered (not blocked,
    /// not ignored; a stopped process wakes only for SIGCONT).
    fn next_wakeup(&self) -> Option<u64> {
        self.procs
            .values()
            .filter(|p| p.state != RunState::Stopped)
            .flat_map(|p| {
                let alarm = p.timers.get(Which::Real).filter(|_| {
                    let sig = Which::Real.signal();
                    p.signals.blocked & signals::bit(sig) == 0
                        && p.signals.handlers[sig as usize] != SIG_IGN
                });
                [p.wait.and_then(|w| w.until), alarm.map(|t| t.due)]
            })
            .flatten()
            .filter(|&t| t > self.now)
            .min()
    }

    /// Every queued process waits: if a timeout or an alarm lies ahead,
    /// virtual time jumps to it (nothing runs meanwhile) and the run goes
    /// on; false when nothing can ever wake them.
    pub(super) fn skip_to_next_wakeup(&mut self) -> bool {
        match self.next_wakeup() {
            Some(t) => {
                self.now = t;
                self.idle_rounds = 0;
                true
            }
            None => false,
        }
    }
}
