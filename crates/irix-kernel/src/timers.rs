//! A process's three interval timers (getitimer(2)) and the state of a
//! system call that waits (`Wait`).
//!
//! Each timer runs on its own clock, in cycles:
//! - ITIMER_REAL on the machine's virtual time (`Kernel::now`), SIGALRM;
//! - ITIMER_VIRTUAL on the process's user time, SIGVTALRM;
//! - ITIMER_PROF on its user plus system time, SIGPROF.
//!
//! Timers count clock ticks, as a kernel's clock interrupt decrements them:
//! getitimer(2) "Time values that are not a multiple of 1/HZ will be rounded
//! up a multiple". A timer set to n ticks expires at the n-th tick of its
//! clock's grid after now (multiples of the tick interval: for
//! ITIMER_VIRTUAL the very ticks the profiling clock takes), as a clock
//! interrupt that decrements it n times would; an interval timer then
//! expires every interval after that, on the same grid. The run loop stops
//! the CPU at the first instruction boundary at or after an expiry (its
//! event deadline, as for the profiling tick), so delivery is exact and the
//! same on every run.

use crate::clock::next_grid_point;

/// getitimer(2)'s `which`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    Real = 0,
    Virtual = 1,
    Prof = 2,
}

impl Which {
    pub fn from_word(w: u32) -> Option<Which> {
        match w {
            0 => Some(Which::Real),
            1 => Some(Which::Virtual),
            2 => Some(Which::Prof),
            _ => None,
        }
    }

    /// The signal the timer sends when it expires.
    pub fn signal(self) -> u32 {
        use crate::abi::signal::*;
        match self {
            Which::Real => SIGALRM,
            Which::Virtual => SIGVTALRM,
            Which::Prof => SIGPROF,
        }
    }
}

/// One armed timer: when it next expires, on its own clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Armed {
    /// The clock reading (cycles) of the next expiry.
    pub due: u64,
    /// Cycles between expiries, a whole number of ticks (0: one-shot).
    pub interval: u64,
}

/// The three timers of a process (`None`: disarmed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timers {
    pub armed: [Option<Armed>; 3],
}

/// A timer value rounded up to whole ticks (0 stays 0).
pub fn round_to_ticks(cycles: u64, tick: u64) -> u64 {
    cycles.div_ceil(tick).saturating_mul(tick)
}

impl Timers {
    pub fn get(&self, which: Which) -> Option<Armed> {
        self.armed[which as usize]
    }

    /// Arms (`value` > 0) or disarms (`value` = 0) a timer at clock reading
    /// `now`; `value` and `interval` in cycles, rounded up to ticks.
    /// Returns the timer as it was.
    pub fn set(
        &mut self,
        which: Which,
        now: u64,
        value: u64,
        interval: u64,
        tick: u64,
    ) -> Option<Armed> {
        let ticks = round_to_ticks(value, tick);
        let new = (value > 0).then(|| Armed {
            due: next_grid_point(now.saturating_add(ticks - tick), tick),
            interval: round_to_ticks(interval, tick),
        });
        std::mem::replace(&mut self.armed[which as usize], new)
    }

    /// At clock reading `now`: if the timer has expired, re-arms it (or
    /// disarms a one-shot) and returns true. Expiries that passed while
    /// the signal could not be sent collapse into one, as a pending signal
    /// does.
    pub fn expire(&mut self, which: Which, now: u64) -> bool {
        let slot = &mut self.armed[which as usize];
        match *slot {
            Some(t) if now >= t.due => {
                *slot = (t.interval > 0).then(|| {
                    let missed = (now - t.due) / t.interval + 1;
                    Armed {
                        due: t.due + missed * t.interval,
                        interval: t.interval,
                    }
                });
                true
            }
            _ => false,
        }
    }

    /// fork(2): "fork sets the alarm clock of a new process to 0" (alarm(2));
    /// the child starts with every timer disarmed.
    pub fn fork(&mut self) {
        *self = Timers::default();
    }
}

/// What a signal caught during a waiting call does to it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnSignal {
    /// The call fails with EINTR, or, when the handler was installed with
    /// SA_RESTART, is made again after the handler (read, write, waitsys).
    #[default]
    Restart,
    /// EINTR whatever SA_RESTART says (pause, sigsuspend, poll, select).
    Eintr,
    /// nanosleep(2): EINTR, and the time left is stored at this address
    /// when it is not 0.
    EintrTimeLeft(u32),
    /// sginap(2): "it returns the number of unexpired ticks".
    TicksLeft,
}

/// A system call that is waiting (it returned `Ret::Block` or
/// `Ret::WaitHost` and is made again each time the process runs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wait {
    /// The call's name, for --strace.
    pub call: &'static str,
    /// The virtual time (`Kernel::now`) at which the wait ends by itself:
    /// a timeout, or the end of a sleep.
    pub until: Option<u64>,
    pub on_signal: OnSignal,
}

#[cfg(test)]
mod tests {
    use super::*;

    const TICK: u64 = 1000;

    #[test]
    fn values_round_up_to_ticks_and_expire_on_the_grid() {
        // "Time values that are not a multiple of 1/HZ will be rounded up
        // a multiple": 1 cycle is a whole tick, and a timer of n ticks
        // expires at the n-th grid tick after now.
        let mut t = Timers::default();
        t.set(Which::Virtual, 250, 1, 1, TICK);
        assert_eq!(
            t.get(Which::Virtual),
            Some(Armed {
                due: 1000,
                interval: 1000
            })
        );
        t.set(Which::Virtual, 1000, 1000, 0, TICK);
        assert_eq!(t.get(Which::Virtual).map(|a| a.due), Some(2000));
        t.set(Which::Virtual, 1001, 2500, 0, TICK);
        assert_eq!(t.get(Which::Virtual).map(|a| a.due), Some(4000));
    }

    #[test]
    fn setting_it_value_to_0_disables_a_timer() {
        let mut t = Timers::default();
        t.set(Which::Real, 0, 5000, 0, TICK);
        let old = t.set(Which::Real, 10, 0, 1000, TICK);
        assert_eq!(old.map(|a| a.due), Some(5000));
        assert_eq!(t.get(Which::Real), None);
    }

    #[test]
    fn an_interval_reloads_the_timer_and_a_zero_interval_disarms_it() {
        let mut t = Timers::default();
        t.set(Which::Prof, 0, 1000, 1000, TICK);
        assert!(!t.expire(Which::Prof, 999));
        assert!(t.expire(Which::Prof, 1000));
        assert_eq!(t.get(Which::Prof).map(|a| a.due), Some(2000));
        // Three expiries passed at once: one signal, the next on the grid.
        assert!(t.expire(Which::Prof, 4500));
        assert_eq!(t.get(Which::Prof).map(|a| a.due), Some(5000));
        t.set(Which::Real, 0, 1000, 0, TICK);
        assert!(t.expire(Which::Real, 1000));
        assert_eq!(t.get(Which::Real), None);
    }
}
