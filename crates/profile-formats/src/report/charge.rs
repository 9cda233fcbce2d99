//! Charging histogram bins to named address ranges.
//!
//! Contents
//! - [`AddrRange`]: a half-open address range counts are charged to.
//! - [`charge`]: split every bin over the regions (and the gaps between them).
//! - [`function_regions`]: symbols turned into sorted, non-overlapping regions.
//!
//! gprof's hist_assign_samples (binutils gprof/hist.c, described in the gprof
//! manual, "Statistical Sampling Error") credits a bin that overlaps several
//! symbols to each in proportion to the overlap. We do the same in whole
//! counts: the running total of bytes covered decides the running total of
//! counts handed out, so the shares of one bin always sum to the bin.

use std::collections::BTreeMap;

use crate::gmon::HistRecord;
use crate::report::Symbol;

/// Addresses `start..end` (u64 so that a range may end at 2^32).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct AddrRange {
    pub start: u64,
    pub end: u64,
}

/// Where the counts went: one total per region (same order as given), and
/// totals for the unnamed stretches between regions, keyed by their range
/// (a stretch is clipped to the histogram it was sampled in).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Charges {
    pub regions: Vec<u64>,
    pub gaps: BTreeMap<AddrRange, u64>,
}

/// Split every bin of `hists` over `regions`, which must be sorted by start
/// and non-overlapping (unsorted input gives wrong totals, never a panic).
pub fn charge(hists: &[HistRecord], regions: &[AddrRange]) -> Charges {
    let mut charges = Charges {
        regions: vec![0; regions.len()],
        gaps: BTreeMap::new(),
    };
    for h in hists {
        let hist = AddrRange {
            start: u64::from(h.low_pc),
            end: u64::from(h.high_pc),
        };
        for (i, &count) in h.bins.iter().enumerate() {
            if count == 0 {
                continue;
            }
            let (b0, b1) = h.bin_range(i);
            charge_bin(
                &mut charges,
                regions,
                hist,
                AddrRange { start: b0, end: b1 },
                count,
            );
        }
    }
    charges
}

/// Hand `count` out over the pieces of `bin`, cumulatively rounded.
fn charge_bin(
    charges: &mut Charges,
    regions: &[AddrRange],
    hist: AddrRange,
    bin: AddrRange,
    count: u64,
) {
    let width = u128::from(bin.end.saturating_sub(bin.start));
    if width == 0 {
        return;
    }
    let mut p = bin.start;
    let mut given = 0u64;
    while p < bin.end {
        let idx = regions.partition_point(|r| r.start <= p);
        let inside = idx > 0 && regions[idx - 1].end > p;
        let piece_end;
        let target = if inside {
            piece_end = regions[idx - 1].end.min(bin.end);
            Target::AddrRange(idx - 1)
        } else {
            let prev_end = if idx > 0 { regions[idx - 1].end } else { 0 };
            let next_start = regions.get(idx).map_or(u64::MAX, |r| r.start);
            let gap = AddrRange {
                start: prev_end.max(hist.start),
                end: next_start.min(hist.end),
            };
            piece_end = gap.end.min(bin.end);
            Target::Gap(gap)
        };
        if piece_end <= p {
            // Only reachable with unsorted regions: stop rather than loop.
            break;
        }
        let upto = (u128::from(count) * u128::from(piece_end - bin.start) / width) as u64;
        let share = upto - given;
        given = upto;
        if share > 0 {
            match target {
                Target::AddrRange(r) => charges.regions[r] += share,
                Target::Gap(g) => *charges.gaps.entry(g).or_insert(0) += share,
            }
        }
        p = piece_end;
    }
}

enum Target {
    AddrRange(usize),
    Gap(AddrRange),
}

/// Functions as sorted, non-overlapping regions, each with its symbol.
///
/// Two symbols at one address: the sized one wins, then the first by name.
/// A symbol of size 0 (an assembly label, a linker symbol such as `_ftext`)
/// that lies inside a sized function is dropped: it is a label within that
/// function, not a function of its own. Any other symbol of size 0 runs to
/// the next symbol (gprof does the same for symbols without a size), or to
/// `upper` if it is the last. A symbol running past the next one is cut at
/// the next one's address.
pub fn function_regions(symbols: &[Symbol], upper: u64) -> (Vec<AddrRange>, Vec<&Symbol>) {
    let mut sorted: Vec<&Symbol> = symbols.iter().collect();
    sorted.sort_by(|a, b| (a.addr, a.size == 0, &a.name).cmp(&(b.addr, b.size == 0, &b.name)));
    sorted.dedup_by_key(|s| s.addr);
    let mut sized_end = 0u64;
    sorted.retain(|s| {
        let start = u64::from(s.addr);
        if s.size == 0 {
            return start >= sized_end;
        }
        sized_end = sized_end.max(start + u64::from(s.size));
        true
    });
    let mut regions = Vec::with_capacity(sorted.len());
    let mut kept = Vec::with_capacity(sorted.len());
    for (i, s) in sorted.iter().enumerate() {
        let start = u64::from(s.addr);
        let next = sorted.get(i + 1).map_or(u64::MAX, |n| u64::from(n.addr));
        let end = if s.size == 0 {
            next.min(upper.max(start))
        } else {
            (start + u64::from(s.size)).min(next)
        };
        if end > start {
            regions.push(AddrRange { start, end });
            kept.push(*s);
        }
    }
    (regions, kept)
}
