//! The interval timers: getitimer, setitimer and alarm, which is
//! ITIMER_REAL in whole seconds (alarm(2): "alarm calls reset the itimer
//! clock"; getitimer(2): "setitimer calls reset the alarm clock"). The
//! timers themselves, their clocks and their rounding are in
//! `crate::timers`; the run loop delivers their signals.

use super::{Args, Ret, SysResult};
use crate::kernel::Kernel;
use crate::process::Process;
use crate::timers::{Armed, Which};
use crate::Errno;

/// `struct itimerval`: { struct timeval it_interval; struct timeval
/// it_value; }, a timeval being two int32 (tv_sec, tv_usec) on o32.
const ITIMERVAL_SIZE: usize = 16;

/// A timeval as cycles: EINVAL for a negative part or tv_usec of a
/// million or more (the page's "too large to be handled").
fn timeval_cycles(k: &Kernel, sec: u32, usec: u32) -> Result<u64, Errno> {
    let (sec, usec) = (sec as i32, usec as i32);
    if sec < 0 || !(0..1_000_000).contains(&usec) {
        return Err(Errno::EINVAL);
    }
    Ok(k.ns_to_cycles(sec as u128 * 1_000_000_000 + usec as u128 * 1000))
}

/// Cycles as a timeval, rounded up to the microsecond.
fn cycles_timeval(k: &Kernel, cycles: u64) -> [u32; 2] {
    let us = k.cycles_to_ns(cycles).div_ceil(1000);
    [
        u32::try_from(us / 1_000_000).unwrap_or(i32::MAX as u32),
        (us % 1_000_000) as u32,
    ]
}

/// The itimerval of a timer as it stands at clock reading `clock`.
fn encode(k: &Kernel, timer: Option<Armed>, clock: u64) -> [u8; ITIMERVAL_SIZE] {
    let (interval, value) = timer.map_or((0, 0), |t| (t.interval, t.due.saturating_sub(clock)));
    let mut b = [0u8; ITIMERVAL_SIZE];
    let words = cycles_timeval(k, interval)
        .into_iter()
        .chain(cycles_timeval(k, value));
    for (i, w) in words.enumerate() {
        b[4 * i..4 * i + 4].copy_from_slice(&w.to_be_bytes());
    }
    b
}

fn which(a: &Args) -> Result<Which, Errno> {
    Which::from_word(a.word(0)).ok_or(Errno::EINVAL)
}

/// getitimer(which, value): the time to the timer's next expiry and its
/// interval (zeros for a disarmed timer). EINVAL for an unknown timer,
/// EFAULT for a bad value.
pub fn getitimer(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let which = which(a)?;
    let clock = k.timer_clock(p, which);
    let b = encode(k, p.timers.get(which), clock);
    p.mem.write_bytes(a.ptr(1), &b)?;
    Ok(Ret::Val(0))
}

/// setitimer(which, value, ovalue): arms the timer with it_value (0
/// disarms it) and reloads it with it_interval on each expiry, both
/// rounded up to clock ticks; the previous setting goes to ovalue when it
/// is not NULL. EINVAL for an unknown timer or a bad time, EFAULT for a
/// bad value or ovalue (nothing changes then).
pub fn setitimer(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let which = which(a)?;
    let (value, ovalue) = (a.ptr(1), a.ptr(2));
    let mut b = [0u8; ITIMERVAL_SIZE];
    p.mem.read_bytes(value, &mut b)?;
    let word = |i: usize| u32::from_be_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]);
    let interval = timeval_cycles(k, word(0), word(1))?;
    let value = timeval_cycles(k, word(2), word(3))?;
    if ovalue != 0 {
        p.mem.check_writable(ovalue, ITIMERVAL_SIZE as u32)?;
    }
    let clock = k.timer_clock(p, which);
    let old = p.timers.set(which, clock, value, interval, k.tick_cycles());
    if ovalue != 0 {
        let b = encode(k, old, clock);
        p.mem.write_bytes(ovalue, &b)?;
    }
    Ok(Ret::Val(0))
}

/// alarm(sec): SIGALRM after sec seconds of virtual time ("If sec is 0, any
/// previously made alarm request is canceled"); returns the time that was
/// left on the alarm clock, in seconds rounded to the nearest, and at
/// least 1 while an alarm was armed (so an armed alarm never reads 0).
pub fn alarm(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let cycles = k.ns_to_cycles(a.word(0) as u128 * 1_000_000_000);
    let now = k.now();
    let old = p.timers.set(Which::Real, now, cycles, 0, k.tick_cycles());
    let secs = old.map_or(0, |t| {
        let ns = k.cycles_to_ns(t.due.saturating_sub(now));
        ((ns + 500_000_000) / 1_000_000_000).max(1)
    });
    Ok(Ret::Val(u32::try_from(secs).unwrap_or(u32::MAX)))
}
