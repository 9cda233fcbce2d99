//! The profiling clock's ticks: each process's own, on its user-time grid,
//! and the outside profiler's.

use super::Kernel;
use crate::clock;
use crate::process::Process;
use crate::profiling::GuestCounters;

impl Kernel {
    /// After a profiling call: the process's next tick, on its grid at the
    /// rate its profiling now needs (none when profiling is off).
    pub(crate) fn reschedule_ticks(&self, p: &mut Process) {
        p.next_tick = if p.prof.is_active() {
            let hz = p
                .prof
                .tick_hz(self.config.personality, &self.config.tunables);
            clock::next_grid_point(
                p.user_cycles(),
                clock::tick_interval(self.config.cpu_hz, hz),
            )
        } else {
            u64::MAX
        };
    }

    /// Takes every tick that has fallen due for `p` (normally one).
    pub(super) fn deliver_ticks(&mut self, p: &mut Process) {
        let now = p.user_cycles();
        if now >= p.next_tick {
            let hz = p
                .prof
                .tick_hz(self.config.personality, &self.config.tunables);
            let interval = clock::tick_interval(self.config.cpu_hz, hz);
            let pc = p.cpu.sample_pc();
            while now >= p.next_tick && p.prof.is_active() {
                let (prof, mut mem) = GuestCounters::split(p);
                prof.tick(&mut mem, pc);
                p.next_tick += interval;
            }
            if !p.prof.is_active() {
                p.next_tick = u64::MAX;
            }
        }
        self.outside_ticks(p);
    }
}
