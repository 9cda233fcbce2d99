//! Shared helpers for the profiling_*.rs tests (`mod common;` in each; a
//! directory, so cargo does not build it as a test binary of its own).
#![allow(dead_code)]

use irix_kernel::profiling::{Personality, ProfMemory, ProfState, Tunables, VecMemory};
use irix_kernel::Errno;

/// The fake guest memory: 64 KiB at 0x10000; everything else faults.
pub const MEM_BASE: u32 = 0x1_0000;
pub const MEM_LEN: u32 = 0x1_0000;
/// Where tests put the `struct prof` array.
pub const PROFP: u32 = 0x1_0000;
/// Where tests put the struct timeval.
pub const TVP: u32 = 0x1_0f00;
/// Counter buffers: BUF, BUF2, ... 4 KiB apart.
pub const BUF: u32 = 0x1_1000;
pub const BUF2: u32 = 0x1_2000;
pub const BUF3: u32 = 0x1_3000;
/// An address nothing maps.
pub const UNMAPPED: u32 = 0x4000_0000;

pub fn mem() -> VecMemory {
    VecMemory::new(MEM_BASE, MEM_LEN)
}

pub fn tunables() -> Tunables {
    Tunables::default()
}

/// One `struct prof` as (pr_base, pr_size, pr_off, pr_scale).
pub type Prof = (u32, u32, u32, u32);

/// Writes `struct prof` entries (pr_base, pr_size, pr_off, pr_scale) at `at`.
pub fn write_prof(mem: &mut VecMemory, at: u32, entries: &[(u32, u32, u32, u32)]) {
    for (i, &(base, size, off, scale)) in entries.iter().enumerate() {
        let e = at + 16 * i as u32;
        for (k, v) in [base, size, off, scale].into_iter().enumerate() {
            mem.store32(e + 4 * k as u32, v).unwrap();
        }
    }
}

/// sprofil with `entries` written at PROFP, tvp NULL, default tunables.
pub fn sprofil(
    st: &mut ProfState,
    mem: &mut VecMemory,
    p: Personality,
    entries: &[(u32, u32, u32, u32)],
    flags: u32,
) -> Result<u32, Errno> {
    write_prof(mem, PROFP, entries);
    st.sprofil(mem, p, &tunables(), PROFP, entries.len() as i32, 0, flags)
}

/// profil with default tunables.
pub fn profil(
    st: &mut ProfState,
    mem: &mut VecMemory,
    p: Personality,
    buf: u32,
    bufsiz: u32,
    offset: u32,
    scale: u32,
) -> Result<u32, Errno> {
    st.profil(mem, p, &tunables(), buf, bufsiz, offset, scale)
}

pub fn ticks(st: &mut ProfState, mem: &mut VecMemory, pcs: &[u32]) {
    for &pc in pcs {
        st.tick(mem, pc);
    }
}

pub fn u16s(mem: &mut VecMemory, base: u32, n: u32) -> Vec<u16> {
    (0..n).map(|i| mem.load16(base + 2 * i).unwrap()).collect()
}

pub fn u32s(mem: &mut VecMemory, base: u32, n: u32) -> Vec<u32> {
    (0..n).map(|i| mem.load32(base + 4 * i).unwrap()).collect()
}

pub fn u64s(mem: &mut VecMemory, base: u32, n: u32) -> Vec<u64> {
    (0..n).map(|i| mem.load64(base + 8 * i).unwrap()).collect()
}
