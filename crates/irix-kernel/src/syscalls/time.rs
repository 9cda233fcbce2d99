//! Time on the virtual clock: every reading derives from cycle counts, so
//! runs are reproducible. Wall-clock time starts at the configured epoch
//! (`--epoch`, default 1996-01-01 00:00:00 UTC) and advances with the
//! machine's virtual time (all cycles run plus time slept).

use super::{Args, Ret, SysResult};
use crate::kernel::Kernel;
use crate::process::Process;
use crate::Errno;

/// time(): seconds since 1970 in v0.
pub fn time(k: &mut Kernel, _p: &mut Process, _a: &Args) -> SysResult {
    Ok(Ret::Val(k.wall_time().0))
}

/// gettimeofday(tv): { tv_sec, tv_usec }.
pub fn gettimeofday(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (sec, usec) = k.wall_time();
    let mut b = [0u8; 8];
    b[..4].copy_from_slice(&sec.to_be_bytes());
    b[4..].copy_from_slice(&usec.to_be_bytes());
    p.mem.write_bytes(a.ptr(0), &b)?;
    Ok(Ret::Val(0))
}

/// times(buf): { utime, stime, cutime, cstime } in clock ticks (HZ), and
/// the elapsed virtual time in ticks as the result. A tick is the same
/// cycle interval the profiling clock uses, so user ticks here equal the
/// profiling ticks taken over the same interval.
pub fn times(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let ticks = |cycles: u64| k.cycles_to_ticks(cycles) as u32;
    let fields = [
        ticks(p.user_cycles()),
        ticks(p.acct.sys_cycles),
        ticks(p.acct.child_user_cycles),
        ticks(p.acct.child_sys_cycles),
    ];
    let bytes: Vec<u8> = fields.iter().flat_map(|v| v.to_be_bytes()).collect();
    p.mem.write_bytes(a.ptr(0), &bytes)?;
    Ok(Ret::Val(ticks(k.now())))
}

/// sginap(ticks): sleeps that many clock ticks on the virtual clock (0 =
/// give up the processor). Returns 0.
pub fn sginap(k: &mut Kernel, _p: &mut Process, a: &Args) -> SysResult {
    let ticks = a.int(0);
    if ticks > 0 {
        k.sleep(k.ticks_to_cycles(ticks as u64));
    }
    Ok(Ret::Val(0))
}

/// nanosleep(req, rem): sleeps req on the virtual clock; rem = 0.
pub fn nanosleep(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let sec = p.mem.read_u32(a.ptr(0))? as i32;
    let nsec = p.mem.read_u32(a.ptr(0).wrapping_add(4))? as i32;
    if sec < 0 || !(0..1_000_000_000).contains(&nsec) {
        return Err(Errno::EINVAL);
    }
    // Up to 2^31 s at up to 4 GHz: 128-bit intermediate, no overflow.
    let ns = sec as u128 * 1_000_000_000 + nsec as u128;
    k.sleep(u64::try_from(ns * k.config.cpu_hz as u128 / 1_000_000_000).unwrap_or(u64::MAX));
    if a.ptr(1) != 0 {
        p.mem.write_bytes(a.ptr(1), &[0; 8])?;
    }
    Ok(Ret::Val(0))
}
