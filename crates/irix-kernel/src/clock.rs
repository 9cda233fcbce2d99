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

use cpu_mips::{Cpu, Memory};

use crate::memory::AddressSpace;
use crate::process::Process;
use crate::profiling::{ProfMemory, ProfState};

/// Cycles between ticks at `hz` on a `cpu_hz` pipeline clock.
pub fn tick_interval(cpu_hz: u64, hz: u32) -> u64 {
    (cpu_hz / hz.max(1) as u64).max(1)
}

/// The first grid point strictly after `now`.
pub fn next_grid_point(now: u64, interval: u64) -> u64 {
    (now / interval + 1) * interval
}

/// Guest memory as the profiler writes it: counters are stored like any
/// store, and a store into a page holding decoded code invalidates it.
pub struct GuestCounters<'a> {
    mem: &'a mut AddressSpace,
    cpu: &'a mut Cpu,
}

impl<'a> GuestCounters<'a> {
    /// Splits a process into its profiling state and the memory it writes.
    pub fn split(p: &'a mut Process) -> (&'a mut ProfState, GuestCounters<'a>) {
        (
            &mut p.prof,
            GuestCounters {
                mem: &mut p.mem,
                cpu: &mut p.cpu,
            },
        )
    }
}

impl ProfMemory for GuestCounters<'_> {
    fn load16(&mut self, addr: u32) -> Result<u16, ()> {
        aligned(addr, 2)?;
        self.mem.load16(addr).map_err(drop)
    }
    fn load32(&mut self, addr: u32) -> Result<u32, ()> {
        aligned(addr, 4)?;
        self.mem.load32(addr).map_err(drop)
    }
    fn load64(&mut self, addr: u32) -> Result<u64, ()> {
        aligned(addr, 8)?;
        self.mem.load64(addr).map_err(drop)
    }
    fn store16(&mut self, addr: u32, v: u16) -> Result<(), ()> {
        aligned(addr, 2)?;
        self.mem.store16(addr, v).map_err(drop)?;
        self.cpu.invalidate_code(addr, 2);
        Ok(())
    }
    fn store32(&mut self, addr: u32, v: u32) -> Result<(), ()> {
        aligned(addr, 4)?;
        self.mem.store32(addr, v).map_err(drop)?;
        self.cpu.invalidate_code(addr, 4);
        Ok(())
    }
    fn store64(&mut self, addr: u32, v: u64) -> Result<(), ()> {
        aligned(addr, 8)?;
        self.mem.store64(addr, v).map_err(drop)?;
        self.cpu.invalidate_code(addr, 8);
        Ok(())
    }
}

/// A misaligned counter is a fault, as it would be for the kernel's own
/// store on the R4000 (and it must not straddle pages in our memory).
fn aligned(addr: u32, size: u32) -> Result<(), ()> {
    if addr.is_multiple_of(size) {
        Ok(())
    } else {
        Err(())
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
