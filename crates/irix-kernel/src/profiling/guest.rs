//! The profiler's view of a real process's memory: the clock-tick handler
//! and the profiling calls store counters through it like any store, and a
//! store into a page holding decoded code invalidates that code.

use cpu_mips::{Cpu, Memory};

use super::{ProfMemory, ProfState};
use crate::memory::AddressSpace;
use crate::process::Process;

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
