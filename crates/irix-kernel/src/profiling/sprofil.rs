//! sprofil(2): checking the arguments and reading the `struct prof` array.
//!
//! Contents: [`read_request`] (errors in the documented order, then the
//! histogram to install), [`flags_width`], [`is_overflow_bin`],
//! [`tick_timeval`], [`write_timeval`].
//!
//! Errors, checked in this order (irix sprofil(2), "sprofil can fail with"):
//! 1. E2BIG: "profcnt was less than or equal to 0, or greater than PROFIL_MAX".
//! 2. EFAULT: "Either profp or tvp points to an illegal address" (every entry
//!    is read; tvp's 8 bytes are checked readable and writable, unchanged).
//! 3. EINVAL: "The overflow bin is not last in the list of specified regions,
//!    or flags does not contain one of the values (PROF_USHORT or PROF_UINT)":
//!    flags without exactly one width (PROF_USHORT, PROF_UINT and, under
//!    HP-UX, PROF_UINT64), or with a bit other than those and PROF_FAST.
//! 4. EACCES: "The flags field specified PROF_FAST but the feature has been
//!    disabled using the restrict_fastprof tuneable system parameter or the
//!    hardware does not support fast clock ticks" (the latter: fast_hz 0).
//!
//! A failing call changes nothing: the earlier profiling goes on. The buffers
//! (pr_base) are not checked here: a faulting update turns its region off.

use super::histogram::{Histogram, ProfEntry};
use super::mapping::{CounterWidth, Region};
use super::memory::{probe32, ProfMemory};
use super::personality::Personality;
use super::{Tunables, PROF_FAST, PROF_STRUCT_SIZE, PROF_UINT, PROF_UINT64, PROF_USHORT};
use crate::Errno;

/// The overflow bin's signature: "A text region with the pr_off of 0 and
/// pr_scale of 0x0002 will act as an overflow bin."
pub fn is_overflow_bin(offset: u32, scale: u32) -> bool {
    offset == 0 && scale == 2
}

/// The counter width and PROF_FAST from `flags`, or EINVAL.
pub fn flags_width(p: Personality, flags: u32) -> Result<(CounterWidth, bool), Errno> {
    let widths = PROF_USHORT
        | PROF_UINT
        | if p == Personality::Hpux {
            PROF_UINT64
        } else {
            0
        };
    if flags & !(widths | PROF_FAST) != 0 || (flags & widths).count_ones() != 1 {
        return Err(Errno::EINVAL);
    }
    let width = match flags & widths {
        PROF_UINT64 => CounterWidth::U64,
        PROF_UINT => CounterWidth::U32,
        _ => CounterWidth::U16,
    };
    Ok((width, flags & PROF_FAST != 0))
}

/// Reads `profcnt` 16-byte `struct prof` entries at `profp` (o32/n32 layout,
/// docs/abi.md: pr_base@0, pr_size@4, pr_off@8, pr_scale@12): `(base, size, off, scale)`.
fn read_entries(
    mem: &mut impl ProfMemory,
    profp: u32,
    profcnt: u32,
) -> Result<Vec<[u32; 4]>, Errno> {
    let end = u64::from(profp) + u64::from(profcnt) * u64::from(PROF_STRUCT_SIZE);
    if end > 1 << 32 {
        return Err(Errno::EFAULT);
    }
    (0..profcnt)
        .map(|i| {
            let at = profp + i * PROF_STRUCT_SIZE;
            let mut words = [0; 4];
            for (k, w) in words.iter_mut().enumerate() {
                *w = mem.load32(at + 4 * k as u32).map_err(|()| Errno::EFAULT)?;
            }
            Ok(words)
        })
        .collect()
}

/// Checks and reads a sprofil call; returns the histogram to install and
/// leaves `tvp` for the caller to fill in ([`write_timeval`]) on success.
pub fn read_request(
    mem: &mut impl ProfMemory,
    p: Personality,
    t: &Tunables,
    profp: u32,
    profcnt: i32,
    tvp: u32,
    flags: u32,
) -> Result<Histogram, Errno> {
    // 1. E2BIG
    let count = u32::try_from(profcnt).map_err(|_| Errno::E2BIG)?;
    if count == 0 || count > t.profil_max {
        return Err(Errno::E2BIG);
    }
    // 2. EFAULT
    let raw = read_entries(mem, profp, count)?;
    if tvp != 0 {
        let ok = tvp
            .checked_add(4)
            .is_some_and(|usec| probe32(mem, tvp).and(probe32(mem, usec)).is_ok());
        if !ok {
            return Err(Errno::EFAULT);
        }
    }
    // 3. EINVAL
    let last = raw.len() - 1;
    if raw[..last]
        .iter()
        .any(|&[_, _, off, scale]| is_overflow_bin(off, scale))
    {
        return Err(Errno::EINVAL);
    }
    let (width, fast) = flags_width(p, flags)?;
    // 4. EACCES
    if fast && (t.restrict_fastprof || t.fast_hz == 0) {
        return Err(Errno::EACCES);
    }
    Ok(build(p, &raw, width, fast))
}

/// The histogram for already-checked entries; a last entry with the overflow
/// bin's signature becomes the overflow bin.
pub fn build(p: Personality, raw: &[[u32; 4]], width: CounterWidth, fast: bool) -> Histogram {
    let (regions, overflow) = match raw.split_last() {
        Some((&[base, size, off, scale], rest)) if is_overflow_bin(off, scale) => {
            (rest, Some((base, size)))
        }
        _ => (raw, None),
    };
    let entries: Vec<ProfEntry> = regions
        .iter()
        .map(|&[base, size, offset, scale]| ProfEntry {
            base,
            region: Region::new(offset, size, scale, width),
        })
        .collect();
    Histogram::new(p, &entries, overflow, width, fast)
}

/// "the time value corresponding to one clock tick": `(tv_sec, tv_usec)` at `hz`
/// (an `hz` of 0 is taken as 1).
pub fn tick_timeval(hz: u32) -> (u32, u32) {
    let usec = 1_000_000 / hz.max(1);
    (usec / 1_000_000, usec % 1_000_000)
}

/// Stores a `struct timeval` (int32 tv_sec, int32 tv_usec; docs/abi.md) at `tvp`.
pub fn write_timeval(
    mem: &mut impl ProfMemory,
    tvp: u32,
    (sec, usec): (u32, u32),
) -> Result<(), Errno> {
    let usec_at = tvp.checked_add(4).ok_or(Errno::EFAULT)?;
    mem.store32(tvp, sec)
        .and_then(|()| mem.store32(usec_at, usec))
        .map_err(|()| Errno::EFAULT)
}
