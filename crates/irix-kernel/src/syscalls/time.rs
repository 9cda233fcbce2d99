//! Time on the virtual clock: every reading derives from cycle counts, so
//! runs are reproducible. Wall-clock time starts at the configured epoch
//! (`--epoch`, default 1996-01-01 00:00:00 UTC) and advances with the
//! machine's virtual time (all cycles run plus time slept).

use super::{Args, Ret, SysResult};
use crate::kernel::Kernel;
use crate::process::Process;
use crate::timers::{round_to_ticks, OnSignal, Wait};
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

/// sginap(ticks): "suspend the process for ticks clock ticks" on the
/// virtual clock (other processes run meanwhile); 0 gives up the processor
/// (returns at once: the scheduler has no priorities to yield to). A
/// caught signal ends the sleep early: "it returns the number of unexpired
/// ticks".
pub fn sginap(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    if let Some(until) = p.wait.and_then(|w| w.until) {
        return Ok(if k.now() >= until {
            Ret::Val(0)
        } else {
            Ret::Block
        });
    }
    let ticks = a.int(0);
    if ticks <= 0 {
        return Ok(Ret::Val(0));
    }
    let until = k.now().saturating_add(k.ticks_to_cycles(ticks as u64));
    p.wait = Some(Wait {
        until: Some(until),
        on_signal: OnSignal::TicksLeft,
        ..Default::default()
    });
    Ok(Ret::Block)
}

/// nanosleep(rqtp, rmtp): suspends the process for the interval at rqtp on
/// the virtual clock, "rounded to a multiple of the underlying
/// system-provided sleep resolution" (the clock tick); other processes run
/// meanwhile. A caught signal ends it with EINTR and the time left at rmtp
/// (when not NULL); a sleep that runs its course stores 0 there. EINVAL
/// for a negative time or a nanosecond count of 1000 million or more.
pub fn nanosleep(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let rmtp = a.ptr(1);
    if let Some(until) = p.wait.and_then(|w| w.until) {
        if k.now() < until {
            return Ok(Ret::Block);
        }
        store_timespec(k, p, rmtp, 0)?;
        return Ok(Ret::Val(0));
    }
    let sec = p.mem.read_u32(a.ptr(0))? as i32;
    let nsec = p.mem.read_u32(a.ptr(0).wrapping_add(4))? as i32;
    if sec < 0 || !(0..1_000_000_000).contains(&nsec) {
        return Err(Errno::EINVAL);
    }
    // Up to 2^31 s at up to 4 GHz: 128-bit intermediate, no overflow.
    let ns = sec as u128 * 1_000_000_000 + nsec as u128;
    let cycles = round_to_ticks(k.ns_to_cycles(ns), k.tick_cycles());
    if cycles == 0 {
        store_timespec(k, p, rmtp, 0)?;
        return Ok(Ret::Val(0));
    }
    p.wait = Some(Wait {
        until: Some(k.now().saturating_add(cycles)),
        on_signal: OnSignal::EintrTimeLeft(rmtp),
        ..Default::default()
    });
    Ok(Ret::Block)
}

/// Stores `cycles` at `addr` (if not 0) as a `struct timespec` { tv_sec,
/// tv_nsec } (two int32 on o32).
pub(super) fn store_timespec(
    k: &Kernel,
    p: &mut Process,
    addr: u32,
    cycles: u64,
) -> Result<(), Errno> {
    if addr == 0 {
        return Ok(());
    }
    let ns = k.cycles_to_ns(cycles);
    let sec = u32::try_from(ns / 1_000_000_000).unwrap_or(i32::MAX as u32);
    let mut b = [0u8; 8];
    b[..4].copy_from_slice(&sec.to_be_bytes());
    b[4..].copy_from_slice(&((ns % 1_000_000_000) as u32).to_be_bytes());
    p.mem.write_bytes(addr, &b)
}
