//! profil(2) under each personality.
//!
//! Contents: [`request`] (what a profil call installs: a histogram, nothing,
//! or an error), [`probe_buffer`] (Darwin's EFAULT check), [`read_aix_array`]
//! (AIX's `bufsiz == -1` form).
//!
//! - IRIX, HP-UX: "A call to profil(2) has the same effect as calling sprofil
//!   with just one member in the profp array with the fields profcnt, tvp and
//!   flags taking on the values of 1, NULL and PROF_USHORT respectively"
//!   (irix sprofil(2)). Taken literally, `profil(buf, size, 0, 2)` is a lone
//!   overflow bin: every tick counts in `buf[0]`. Never fails.
//! - Solaris: "Profiling is turned off by giving a scale value of 0 or 1";
//!   the 32767 stop is the counter rule. Never fails (profil is void there).
//! - Darwin: "A scale value of 0 disables profiling." "If the scale value is
//!   nonzero and the buffer samples contains an illegal address, profil()
//!   returns -1, profiling is terminated and errno is set appropriately":
//!   every page of the buffer's whole counters is checked readable and
//!   writable at the call (EFAULT, and the old profiling ends).
//! - AIX: a scale whose low 16 bits are 0 "Turns profiling off"; `bufsiz` -1
//!   selects the array of `struct prof` (see [`read_aix_array`]).

use super::histogram::{Histogram, ProfEntry};
use super::mapping::{CounterWidth, Region};
use super::memory::{probe16, ProfMemory};
use super::personality::Personality;
use super::sprofil::build;
use super::{Tunables, AIX_PROF_STRUCT_SIZE};
use crate::Errno;

/// Guest page size (docs/abi.md): the granularity of Darwin's buffer check.
const PAGE_SIZE: u64 = 4096;

/// AIX: "If the second parameter (bufsize) has the value -1, then the
/// parameters to profil are interpreted as shown in the second syntax definition."
pub const AIX_ARRAY_FORM: u32 = u32::MAX;

/// What a profil call does to the process's profiling.
#[derive(Debug)]
pub enum ProfilRequest {
    /// Profiling off (scale 0, ...): the earlier profil/sprofil state ends.
    Off,
    /// Install this histogram in place of the earlier one.
    Install(Histogram),
}

/// A profil call's effect, or its error. On `Err`, `terminates` says whether
/// the earlier profiling ends anyway (Darwin EFAULT, AIX fault on profbuff).
#[derive(Debug)]
pub struct ProfilError {
    pub errno: Errno,
    pub terminates: bool,
}

/// The effect of `profil(buf, bufsiz, offset, scale)` under `p`.
pub fn request(
    mem: &mut impl ProfMemory,
    p: Personality,
    t: &Tunables,
    buf: u32,
    bufsiz: u32,
    offset: u32,
    scale: u32,
) -> Result<ProfilRequest, ProfilError> {
    let single = |rule_scale_off: bool| {
        if rule_scale_off {
            return ProfilRequest::Off;
        }
        let entry = ProfEntry {
            base: buf,
            region: Region::new(offset, bufsiz, scale, CounterWidth::U16),
        };
        ProfilRequest::Install(Histogram::new(p, &[entry], None, CounterWidth::U16, false))
    };
    match p {
        Personality::Irix | Personality::Hpux => {
            // The one-member sprofil: scale 0 or 1 enables nothing ("scale 0
            // turns profiling off"); (0, 2) is the overflow bin.
            if scale < 2 {
                return Ok(ProfilRequest::Off);
            }
            Ok(ProfilRequest::Install(build(
                p,
                &[[buf, bufsiz, offset, scale]],
                CounterWidth::U16,
                false,
            )))
        }
        Personality::Solaris => Ok(single(scale <= 1)),
        Personality::Darwin => {
            if scale == 0 {
                return Ok(ProfilRequest::Off);
            }
            probe_buffer(mem, buf, bufsiz).map_err(|()| ProfilError {
                errno: Errno::EFAULT,
                terminates: true,
            })?;
            Ok(single(false))
        }
        Personality::Aix => {
            if bufsiz == AIX_ARRAY_FORM {
                let entries = read_aix_array(mem, t, buf)?;
                return Ok(ProfilRequest::Install(Histogram::new(
                    p,
                    &entries,
                    None,
                    CounterWidth::U16,
                    false,
                )));
            }
            Ok(single(scale & 0xffff == 0))
        }
    }
}

/// Checks every 16-bit counter page of `[buf, buf + size)` readable and
/// writable (one probe per page and the last counter), changing nothing.
pub fn probe_buffer(mem: &mut impl ProfMemory, buf: u32, size: u32) -> Result<(), ()> {
    let counters = u64::from(size / 2);
    if counters == 0 {
        return Ok(());
    }
    let (buf, last) = (u64::from(buf), u64::from(buf) + 2 * (counters - 1));
    if last + 2 > 1 << 32 {
        return Err(());
    }
    let mut addr = buf;
    while addr < last {
        probe16(mem, addr as u32)?;
        let next_page = (addr / PAGE_SIZE + 1) * PAGE_SIZE;
        addr = buf + (next_page - buf).div_ceil(2) * 2;
    }
    probe16(mem, last as u32)
}

/// Reads AIX's array of `struct prof` { daddr_t p_low; daddr_t p_high;
/// short_t *p_buff; int_t p_bufsize; int_t p_scale; } (5 x 4 bytes, big-endian)
/// at `profbuff`, up to the entry with p_high 0.
///
/// AIX: "If the p_scale member has the value -1, then a value for it is
/// computed based on p_low, p_high, and p_bufsize": the largest 16-bit
/// fraction whose counters for `[p_low, p_high)` fit in p_bufsize bytes
/// ([`computed_scale`]). Each entry counts PCs
/// in `[p_low, p_high)`. A negative p_bufsize counts nothing.
/// Errors (the page documents none; profil is void there): a fault reading
/// the array is EFAULT and ends profiling ("Profiling is turned off ... If
/// updating the buffer pointed to by the shortbuff or profbuff parameter
/// would cause a memory fault"); "The p_high members in successive structures
/// must be in ascending sequence": otherwise EINVAL, nothing changed; more
/// than PROFIL_MAX entries before the terminator: E2BIG, nothing changed.
pub fn read_aix_array(
    mem: &mut impl ProfMemory,
    t: &Tunables,
    profbuff: u32,
) -> Result<Vec<ProfEntry>, ProfilError> {
    let mut entries: Vec<ProfEntry> = Vec::new();
    let mut previous_high: Option<u32> = None;
    for i in 0u64.. {
        let at = u64::from(profbuff) + i * u64::from(AIX_PROF_STRUCT_SIZE);
        if at + u64::from(AIX_PROF_STRUCT_SIZE) > 1 << 32 {
            return Err(fault_error());
        }
        let mut w = [0u32; 5];
        for (k, word) in w.iter_mut().enumerate() {
            *word = mem
                .load32(at as u32 + 4 * k as u32)
                .map_err(|()| fault_error())?;
        }
        let [low, high, base, bufsize, scale] = w;
        if high == 0 {
            break;
        }
        if entries.len() as u64 >= u64::from(t.profil_max) {
            return Err(ProfilError {
                errno: Errno::E2BIG,
                terminates: false,
            });
        }
        if previous_high.is_some_and(|prev| high <= prev) {
            return Err(ProfilError {
                errno: Errno::EINVAL,
                terminates: false,
            });
        }
        previous_high = Some(high);
        let size = if (bufsize as i32) < 0 { 0 } else { bufsize };
        let scale = if scale as i32 == -1 {
            computed_scale(low, high, size)
        } else {
            scale
        };
        entries.push(ProfEntry {
            base,
            region: Region {
                offset: low,
                size,
                scale,
                width: CounterWidth::U16,
                high: Some(high),
            },
        });
    }
    Ok(entries)
}

/// AIX's p_scale -1: the finest 16-bit scale that fits `[low, high)` into
/// `size` bytes of counters, at least 2 (the coarsest fraction: 1 would be
/// the "noninterrupting core clock"); 0 (off) for an empty range or a buffer
/// without a whole counter.
pub fn computed_scale(low: u32, high: u32, size: u32) -> u32 {
    match high.checked_sub(low) {
        Some(span) if span > 0 && size >= 2 => {
            (u64::from(size) * 65536 / u64::from(span)).clamp(2, 0xffff) as u32
        }
        _ => 0,
    }
}

/// A fault reading AIX's profbuff: EFAULT, and profiling ends.
fn fault_error() -> ProfilError {
    ProfilError {
        errno: Errno::EFAULT,
        terminates: true,
    }
}
