//! The pure mapping from (PC, region, personality) to a counter.
//!
//! Contents: [`CounterWidth`], [`Region`], [`Slot`], [`map_pc`] (the mapping),
//! [`text_range`] (the PCs a region counts, derived from [`map_pc`] itself),
//! [`InsnRatio`] and [`instructions_per_counter`] (the quantity the HP-UX scale
//! tables give, measured through [`map_pc`]).
//!
//! The formulas, one per page:
//! - IRIX, HP-UX, Solaris: byte offset = `((pc - pr_off) * pr_scale) >> 16` in
//!   64-bit arithmetic, counter = byte offset / counter size (docs/abi.md; irix
//!   sprofil(2): "You achieve a 1-1 mapping of instructions to counters for
//!   PROF_USHORT and a pr_scale of 0x8000, or PROF_UINT and a pr_scale of 0x10000").
//!   Scales 0 and 1 profile nothing (irix: "Profiling is not enabled for a
//!   given text region if the value for pr_scale is 0 or 1"; solaris: "Profiling
//!   is turned off by giving a scale value of 0 or 1"). Scales above 0xffff are
//!   used as given (the IRIX PROF_UINT 1-1 mapping needs 0x10000).
//! - IRIX, scale 0x0002: irix profil(2) says the minimum scale that profiles
//!   "maps (by convention) the entire region starting with offset to the first
//!   counter", so every PC at or above the offset counts in counter 0 (one
//!   whole counter is enough), whatever the offset; a PC below it is not
//!   counted. The formula would give 64 KiB of text per 16-bit counter instead.
//!   The other pages state no such convention and keep their formula.
//! - Darwin: bin = `[(pc - offset) / 2] * scale / 65536` for 16-bit bins; wider
//!   counters (sprofil under Darwin) take byte offset = 2 * that, counter = byte
//!   offset / counter size. Scale 0 disables; 1 is the smallest enabled scale.
//! - AIX: "The most significant 16 bits of scale are ignored"; the low 16 bits
//!   are the fraction of the IRIX formula (0xFFFF "maps approximately each pair
//!   of bytes ... to a unique short"); 0 "turns profiling off"; 0x0001 "maps all
//!   instructions to the first short ... producing a noninterrupting core
//!   clock": every tick, at any PC, counts in counter 0 (a clock ignores where
//!   the PC is, so the offset does not filter it either).
//!
//! Common to all: a PC below the offset is not counted ([`Slot::Below`]); a PC
//! equal to the offset is inside; a counter index at or beyond
//! `size / counter size` (whole counters only) is [`Slot::Beyond`].

use super::personality::Personality;

/// One past the highest 32-bit address, as the end of a half-open range.
pub const ADDRESS_SPACE_END: u64 = 1 << 32;

/// The size of one counter (`flags` of sprofil(2)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CounterWidth {
    /// PROF_USHORT: unsigned short counters (profil's only kind).
    U16,
    /// PROF_UINT: unsigned int counters.
    U32,
    /// HP-UX PROF_UINT64: 64-bit counters.
    U64,
}

impl CounterWidth {
    /// Bytes per counter.
    pub fn bytes(self) -> u32 {
        match self {
            CounterWidth::U16 => 2,
            CounterWidth::U32 => 4,
            CounterWidth::U64 => 8,
        }
    }
}

/// One text region as a `struct prof` (or profil's arguments) describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// pr_off: "effectively the start address of the region to be profiled".
    pub offset: u32,
    /// pr_size: the counter buffer's size in bytes.
    pub size: u32,
    /// pr_scale, as the guest gave it (each personality interprets it).
    pub scale: u32,
    /// The counter size from the flags.
    pub width: CounterWidth,
    /// AIX array form: p_high, the first PC past the region. `None` elsewhere.
    pub high: Option<u32>,
}

impl Region {
    /// A region with no upper PC bound (every form but AIX's array).
    pub fn new(offset: u32, size: u32, scale: u32, width: CounterWidth) -> Self {
        Region {
            offset,
            size,
            scale,
            width,
            high: None,
        }
    }

    /// Whole counters in the buffer (`pr_size / counter size`).
    pub fn counters(&self) -> u32 {
        self.size / self.width.bytes()
    }
}

/// Where a PC falls for one region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// The index of the counter to increment.
    Counter(u32),
    /// The PC is below the region's offset.
    Below,
    /// The PC maps past the last whole counter (or at/after AIX's p_high).
    Beyond,
    /// The scale profiles nothing under this personality.
    Off,
}

/// How a personality turns `pc - offset` into a byte offset, for one scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Formula {
    /// `(x * scale) >> 16` (IRIX, HP-UX, Solaris, AIX with the low 16 bits).
    Scaled(u64),
    /// Darwin: `2 * (((x / 2) * scale) >> 16)`.
    HalfwordBins(u64),
    /// AIX scale 0x0001: every PC in counter 0.
    Clock,
    /// IRIX scale 0x0002: every PC from the offset up in counter 0.
    WholeRegion,
}

impl Formula {
    /// The formula for `scale` under `p`, or `None` when the scale profiles nothing.
    fn of(p: Personality, scale: u32) -> Option<Formula> {
        match p {
            // irix profil(2): "the minimum value of scale (for which profiling
            // is performed), 0x0002 (1/32,768), maps (by convention) the entire
            // region starting with offset to the first counter in buff".
            Personality::Irix if scale == 2 => Some(Formula::WholeRegion),
            Personality::Irix | Personality::Hpux | Personality::Solaris => {
                (scale >= 2).then_some(Formula::Scaled(u64::from(scale)))
            }
            Personality::Darwin => (scale >= 1).then_some(Formula::HalfwordBins(u64::from(scale))),
            Personality::Aix => match scale & 0xffff {
                0 => None,
                1 => Some(Formula::Clock),
                s => Some(Formula::Scaled(u64::from(s))),
            },
        }
    }
}

/// The counter a clock tick at `pc` increments in region `r` under `p`.
///
/// Pure and total: every input gives a [`Slot`]; 64-bit arithmetic cannot
/// overflow (`(2^32 - 1) * (2^32 - 1) < 2^64`).
pub fn map_pc(p: Personality, r: &Region, pc: u32) -> Slot {
    let Some(formula) = Formula::of(p, r.scale) else {
        return Slot::Off;
    };
    if r.high.is_some_and(|high| pc >= high) {
        return Slot::Beyond;
    }
    let index = match formula {
        Formula::Clock => 0,
        Formula::WholeRegion => {
            if pc < r.offset {
                return Slot::Below;
            }
            0
        }
        Formula::Scaled(scale) | Formula::HalfwordBins(scale) => {
            let Some(x) = pc.checked_sub(r.offset) else {
                return Slot::Below;
            };
            let x = u64::from(x);
            let byte = match formula {
                Formula::HalfwordBins(_) => 2 * (((x / 2) * scale) >> 16),
                _ => (x * scale) >> 16,
            };
            byte / u64::from(r.width.bytes())
        }
    };
    if index < u64::from(r.counters()) {
        Slot::Counter(index as u32)
    } else {
        Slot::Beyond
    }
}

/// The half-open range of PCs `[start, end)` that region `r` counts under `p`
/// (`end` up to 2^32), or `None` if it counts none.
///
/// Derived from [`map_pc`] by binary search (the index never decreases as the
/// PC grows), so the resolved lookup and the mapping can never disagree.
pub fn text_range(p: Personality, r: &Region) -> Option<(u32, u64)> {
    let start = match Formula::of(p, r.scale)? {
        Formula::Clock => 0,
        _ => r.offset,
    };
    if !matches!(map_pc(p, r, start), Slot::Counter(_)) {
        return None;
    }
    // Invariant: map_pc(lo) is a counter; hi is past the last counted PC.
    let (mut lo, mut hi) = (u64::from(start), ADDRESS_SPACE_END);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if matches!(map_pc(p, r, mid as u32), Slot::Counter(_)) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some((start, hi))
}

/// Instructions per counter, as the HP-UX tables give it: either several
/// instructions share one counter, or one instruction spans several counters
/// (the tables' 0.5 and 0.25).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InsnRatio {
    /// Instructions ...
    pub instructions: u32,
    /// ... per this many counters (one of the two is 1).
    pub counters: u32,
}

impl InsnRatio {
    /// The ratio as a number (exact for the tables' powers of two).
    pub fn as_f64(self) -> f64 {
        f64::from(self.instructions) / f64::from(self.counters)
    }
}

/// How many `insn_bytes`-byte instructions share one `width` counter at
/// `scale` under `p`, measured on [`map_pc`] at instruction-aligned PCs from
/// offset 0: if the second instruction already lands k counters on, the
/// ratio is 1/k; otherwise it is the number of instructions in counter 0.
/// `None` when the scale profiles nothing or `insn_bytes` is 0.
pub fn instructions_per_counter(
    p: Personality,
    scale: u32,
    width: CounterWidth,
    insn_bytes: u32,
) -> Option<InsnRatio> {
    if insn_bytes == 0 {
        return None;
    }
    let r = Region::new(0, u32::MAX, scale, width);
    let index = |k: u64| -> Option<u32> {
        let pc = u32::try_from(k * u64::from(insn_bytes)).ok()?;
        match map_pc(p, &r, pc) {
            Slot::Counter(i) => Some(i),
            _ => None,
        }
    };
    let first = index(0)?;
    if let Some(second) = index(1).filter(|&i| i > first) {
        return Some(InsnRatio {
            instructions: 1,
            counters: second - first,
        });
    }
    // Binary search for the first instruction past counter `first`.
    let (mut lo, mut hi) = (1u64, ADDRESS_SPACE_END / u64::from(insn_bytes));
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if index(mid) == Some(first) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let instructions = u32::try_from(hi).ok()?;
    Some(InsnRatio {
        instructions,
        counters: 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_range_of_a_one_to_one_ushort_region_is_two_bytes_per_counter() {
        let r = Region::new(0x1000, 8, 0x8000, CounterWidth::U16);
        // 4 counters of 4 bytes of text each.
        assert_eq!(text_range(Personality::Irix, &r), Some((0x1000, 0x1010)));
    }

    #[test]
    fn text_range_reaches_the_top_of_the_address_space() {
        let r = Region::new(0xffff_fff0, 1 << 20, 0x10000, CounterWidth::U32);
        assert_eq!(
            text_range(Personality::Irix, &r),
            Some((0xffff_fff0, ADDRESS_SPACE_END))
        );
    }

    #[test]
    fn text_range_of_an_empty_buffer_is_none() {
        let r = Region::new(0x1000, 1, 0x8000, CounterWidth::U16);
        assert_eq!(text_range(Personality::Irix, &r), None);
    }

    #[test]
    fn aix_clock_range_is_the_whole_address_space() {
        let r = Region::new(0x4000, 2, 1, CounterWidth::U16);
        assert_eq!(
            text_range(Personality::Aix, &r),
            Some((0, ADDRESS_SPACE_END))
        );
    }
}
