//! The profiling calls: glue between the guest's arguments and the
//! per-process profiling state (`crate::profiling`), which holds the rules.

use super::{Args, Ret, SysResult};
use crate::kernel::Kernel;
use crate::process::Process;
use crate::profiling::{GuestCounters, Personality, ProfState, Tunables};
use crate::Errno;

/// Runs one profiling call on the process's state and memory, then moves
/// its next tick to the rate its profiling now needs (or none).
fn call(
    k: &mut Kernel,
    p: &mut Process,
    f: impl FnOnce(&mut ProfState, &mut GuestCounters, Personality, &Tunables) -> Result<u32, Errno>,
) -> SysResult {
    let (pers, tun) = (k.config.personality, k.config.tunables);
    let r = {
        let (prof, mut mem) = GuestCounters::split(p);
        f(prof, &mut mem, pers, &tun)
    };
    k.reschedule_ticks(p);
    Ok(Ret::Val(r?))
}

/// profil(buff, bufsiz, offset, scale).
pub fn profil(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    call(k, p, |prof, mem, pers, tun| {
        prof.profil(mem, pers, tun, a.ptr(0), a.size(1), a.word(2), a.word(3))
    })
}

/// System time per `struct prof` entry sprofil reads: copying its 16 bytes,
/// finding the PCs its region counts (a binary search of the address
/// space) and ordering it among the others. A model parameter, chosen so
/// that the call's virtual time keeps pace with the host work it costs
/// (about 2.6 ms for PROFIL_MAX regions): `--max-cycles` then bounds a
/// guest that calls it in a loop.
pub const SPROFIL_ENTRY_CYCLES: u64 = 256;

/// sprofil(profp, profcnt, tvp, flags), reached through syssgi(SGI_SPROFIL).
pub fn sprofil(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let entries = u64::try_from(a.int(1))
        .unwrap_or(0)
        .min(u64::from(k.config.tunables.profil_max));
    k.budget.add_work(entries * SPROFIL_ENTRY_CYCLES);
    call(k, p, |prof, mem, pers, tun| {
        prof.sprofil(mem, pers, tun, a.ptr(0), a.int(1), a.ptr(2), a.word(3))
    })
}

/// pcsample(samples, nsamples).
pub fn pcsample(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    call(k, p, |prof, mem, pers, tun| {
        prof.pcsample(mem, pers, tun, a.ptr(0), a.int(1))
    })
}
