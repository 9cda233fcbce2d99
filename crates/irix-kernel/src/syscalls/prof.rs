//! The profiling calls: glue between the guest's arguments and the
//! per-process profiling state (`crate::profiling`), which holds the rules.

use super::SysResult;
use crate::clock::GuestCounters;
use crate::kernel::Kernel;
use crate::process::Process;

/// pcsample is Solaris' (number 26 there); irix-emu offers it in every
/// personality as 2000 + 26, outside IRIX's range (documented in the README).
pub const PCSAMPLE_NR: u32 = 2026;

/// profil(buff, bufsiz, offset, scale).
pub fn profil(k: &mut Kernel, p: &mut Process, a: &[u32; 8]) -> SysResult {
    let (pers, tun) = (k.config.personality, k.config.tunables);
    let r = {
        let (prof, mut mem) = GuestCounters::split(p);
        prof.profil(&mut mem, pers, &tun, a[0], a[1], a[2], a[3])
    };
    k.reschedule_ticks(p);
    result(r)
}

/// sprofil(profp, profcnt, tvp, flags), reached through syssgi(SGI_SPROFIL).
pub fn sprofil(k: &mut Kernel, p: &mut Process, a: &[u32; 8]) -> SysResult {
    let (pers, tun) = (k.config.personality, k.config.tunables);
    let r = {
        let (prof, mut mem) = GuestCounters::split(p);
        prof.sprofil(&mut mem, pers, &tun, a[0], a[1] as i32, a[2], a[3])
    };
    k.reschedule_ticks(p);
    result(r)
}

/// pcsample(samples, nsamples).
pub fn pcsample(k: &mut Kernel, p: &mut Process, a: &[u32; 8]) -> SysResult {
    let (pers, tun) = (k.config.personality, k.config.tunables);
    let r = {
        let (prof, mut mem) = GuestCounters::split(p);
        prof.pcsample(&mut mem, pers, &tun, a[0], a[1] as i32)
    };
    k.reschedule_ticks(p);
    result(r)
}

fn result(r: Result<u32, crate::Errno>) -> SysResult {
    match r {
        Ok(v) => SysResult::Ok(v),
        Err(e) => SysResult::Err(e),
    }
}
