//! The profiling calls: glue between the guest's arguments and the
//! per-process profiling state (`crate::profiling`), which holds the rules.

use super::{Args, Ret, SysResult};
use crate::kernel::Kernel;
use crate::process::Process;
use crate::profiling::GuestCounters;

/// profil(buff, bufsiz, offset, scale).
pub fn profil(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (pers, tun) = (k.config.personality, k.config.tunables);
    let r = {
        let (prof, mut mem) = GuestCounters::split(p);
        prof.profil(
            &mut mem,
            pers,
            &tun,
            a.ptr(0),
            a.size(1),
            a.word(2),
            a.word(3),
        )
    };
    k.reschedule_ticks(p);
    Ok(Ret::Val(r?))
}

/// sprofil(profp, profcnt, tvp, flags), reached through syssgi(SGI_SPROFIL).
pub fn sprofil(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (pers, tun) = (k.config.personality, k.config.tunables);
    let r = {
        let (prof, mut mem) = GuestCounters::split(p);
        prof.sprofil(
            &mut mem,
            pers,
            &tun,
            a.ptr(0),
            a.int(1),
            a.ptr(2),
            a.word(3),
        )
    };
    k.reschedule_ticks(p);
    Ok(Ret::Val(r?))
}

/// pcsample(samples, nsamples).
pub fn pcsample(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (pers, tun) = (k.config.personality, k.config.tunables);
    let r = {
        let (prof, mut mem) = GuestCounters::split(p);
        prof.pcsample(&mut mem, pers, &tun, a.ptr(0), a.int(1))
    };
    k.reschedule_ticks(p);
    Ok(Ret::Val(r?))
}
