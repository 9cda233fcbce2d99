//! The virtual clock and the profiling tick.
//!
//! Time is cycles. A process's user time is its CPU's cycle count; system
//! calls are charged `KernelConfig::syscall_cycles` each as system time.
//! The clock tick is an event on the process's own user-time grid: tick k
//! falls due when user cycles reach k x (cpu_hz / tick_hz). The run loop
//! passes the next due tick to `Cpu::run` as the deadline, so the
//! interpreter's only per-instruction test is its deadline comparison; a
//! tick is taken at the first instruction boundary at or after it is due,
//! in user mode, and samples the PC the hardware would latch (`sample_pc`).
//!
//! times() converts cycles to ticks with the same interval, so over any
//! interval the ticks a full-coverage profile counts equal the user ticks
//! times() reports.

use crate::kernel::Kernel;
use crate::process::Process;

/// Cycles between ticks at `hz` on a `cpu_hz` pipeline clock.
pub fn tick_interval(cpu_hz: u64, hz: u32) -> u64 {
    (cpu_hz / hz.max(1) as u64).max(1)
}

/// The first grid point strictly after `now`.
pub fn next_grid_point(now: u64, interval: u64) -> u64 {
    (now / interval + 1) * interval
}

impl Kernel {
    /// Virtual time since boot, in cycles.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// Virtual time as wall-clock (seconds, microseconds) since 1970.
    pub fn wall_time(&self) -> (u32, u32) {
        let us = self.now as u128 * 1_000_000 / self.config.cpu_hz as u128;
        (
            self.config.epoch.wrapping_add((us / 1_000_000) as u32),
            (us % 1_000_000) as u32,
        )
    }

    /// Cycles in one clock tick at HZ (times(), sysconf(_SC_CLK_TCK)).
    pub fn tick_cycles(&self) -> u64 {
        tick_interval(self.config.cpu_hz, self.config.tunables.hz)
    }

    pub fn cycles_to_ticks(&self, cycles: u64) -> u64 {
        cycles / self.tick_cycles()
    }

    pub fn ticks_to_cycles(&self, ticks: u64) -> u64 {
        ticks.saturating_mul(self.tick_cycles())
    }

    /// Advances virtual time without running anything (a wait on a host
    /// FIFO or device).
    pub(crate) fn sleep(&mut self, cycles: u64) {
        self.now = self.now.saturating_add(cycles);
    }

    /// Cycles in `ns` nanoseconds (rounded down; saturating).
    pub fn ns_to_cycles(&self, ns: u128) -> u64 {
        u64::try_from(ns * self.config.cpu_hz as u128 / 1_000_000_000).unwrap_or(u64::MAX)
    }

    /// Nanoseconds in `cycles`, rounded up (a time left is never shown
    /// shorter than it is).
    pub fn cycles_to_ns(&self, cycles: u64) -> u128 {
        (cycles as u128 * 1_000_000_000).div_ceil(self.config.cpu_hz as u128)
    }

    /// Charges one system call's cost to the process as system time: the
    /// fixed cost of the trap plus the memory work it did (copies, pages
    /// zeroed or read, mappings changed: `memory::cost`).
    /// Charges a finished system call's time; returns the cycles charged.
    pub(crate) fn charge_syscall(&mut self, p: &mut Process) -> u64 {
        let cycles = self.config.syscall_cycles + self.budget.take_work();
        self.charge_system(p, cycles);
        cycles
    }

    /// Charges the memory work done since the last charge (page faults
    /// taken by user-mode loads and stores) as the process's system time.
    pub(crate) fn charge_memory_work(&mut self, p: &mut Process) {
        let cycles = self.budget.take_work();
        if cycles > 0 {
            self.charge_system(p, cycles);
            if let Some(tally) = &mut self.syscall_tally {
                let faults = crate::profiling::syscalls::FAULTS;
                tally.record(p.pid, &p.name, faults, false, cycles);
            }
        }
    }

    fn charge_system(&mut self, p: &mut Process, cycles: u64) {
        p.acct.sys_cycles += cycles;
        self.now = self.now.saturating_add(cycles);
        self.stats.sys_cycles += cycles;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_fall_on_the_grid_after_now() {
        assert_eq!(tick_interval(100_000_000, 100), 1_000_000);
        assert_eq!(next_grid_point(0, 1_000_000), 1_000_000);
        assert_eq!(next_grid_point(999_999, 1_000_000), 1_000_000);
        assert_eq!(next_grid_point(1_000_000, 1_000_000), 2_000_000);
    }
}
