//! The host-side histogram for the outside profiler (`irix-emu prof`).
//!
//! Contents: [`HostProfile`]. The same region resolution ([`RangeTable`]) and
//! the same mapping ([`map_pc`], IRIX formula with 4-byte counters) as the
//! guest's sprofil, but the counters live in host memory (u64, no wrap) and
//! no guest buffer is touched.

use super::mapping::{map_pc, text_range, CounterWidth, Region, Slot};
use super::personality::Personality;
use super::regions::{Claim, RangeTable};

/// The finest bin: one counter per 4-byte MIPS instruction.
pub const MIN_BYTES_PER_BIN: u32 = 4;
/// The coarsest bin the 16.16 scale can express with 4-byte counters
/// (scale = 0x40000 / bytes_per_bin must stay >= 2).
pub const MAX_BYTES_PER_BIN: u32 = 1 << 17;

/// Host-side histogram over text ranges.
#[derive(Clone, Debug)]
pub struct HostProfile {
    /// `[start, end)` of each range, as given.
    ranges: Vec<(u32, u32)>,
    /// The mapping parameters of each range.
    regions: Vec<Region>,
    /// One counter vector per range.
    bins: Vec<Vec<u64>>,
    /// The resolved lookup (overlaps: largest start wins, first of equals).
    table: RangeTable,
    /// Bytes of text per bin.
    bytes_per_bin: u32,
    /// Ticks at PCs outside every range.
    outside: u64,
    /// All ticks.
    total: u64,
}

impl HostProfile {
    /// Bins of `bytes_per_bin` bytes over each `[start, end)` range (a range
    /// with `end <= start` is empty). `bytes_per_bin` is rounded up to a power
    /// of two and clamped to [`MIN_BYTES_PER_BIN`]..=[`MAX_BYTES_PER_BIN`].
    pub fn new(ranges: &[(u32, u32)], bytes_per_bin: u32) -> Self {
        let bpb = bytes_per_bin
            .clamp(MIN_BYTES_PER_BIN, MAX_BYTES_PER_BIN)
            .next_power_of_two();
        // byte offset = (x * scale) >> 16 = x * 4 / bpb; counter = byte offset / 4.
        let scale = (MIN_BYTES_PER_BIN << 16) / bpb;
        let regions: Vec<Region> = ranges
            .iter()
            .map(|&(start, end)| {
                let bins = u64::from(end.saturating_sub(start)).div_ceil(u64::from(bpb));
                let size = (bins * u64::from(MIN_BYTES_PER_BIN)).min(u64::from(u32::MAX)) as u32;
                Region {
                    offset: start,
                    size,
                    scale,
                    width: CounterWidth::U32,
                    high: Some(end),
                }
            })
            .collect();
        let claims: Vec<Option<Claim>> = regions
            .iter()
            .map(|r| {
                text_range(Personality::Irix, r).map(|(start, end)| Claim {
                    offset: r.offset,
                    start,
                    end,
                })
            })
            .collect();
        let bins = regions
            .iter()
            .map(|r| vec![0; r.counters() as usize])
            .collect();
        HostProfile {
            ranges: ranges.to_vec(),
            regions,
            bins,
            table: RangeTable::resolve(&claims),
            bytes_per_bin: bpb,
            outside: 0,
            total: 0,
        }
    }

    /// Counts one tick at `pc`; a PC outside every range counts in `outside`
    /// (the result is then false).
    #[inline]
    pub fn tick(&mut self, pc: u32) -> bool {
        self.total += 1;
        let hit = self.table.lookup(pc).and_then(|id| {
            let id = id as usize;
            match map_pc(Personality::Irix, self.regions.get(id)?, pc) {
                Slot::Counter(i) => self.bins.get_mut(id)?.get_mut(i as usize),
                _ => None,
            }
        });
        match hit {
            Some(bin) => {
                *bin += 1;
                true
            }
            None => {
                self.outside += 1;
                false
            }
        }
    }

    /// Each range as given, with its bins.
    pub fn regions(&self) -> impl Iterator<Item = (u32, u32, &[u64])> {
        self.ranges
            .iter()
            .zip(&self.bins)
            .map(|(&(s, e), b)| (s, e, b.as_slice()))
    }

    /// Bytes of text per bin (after rounding).
    pub fn bytes_per_bin(&self) -> u32 {
        self.bytes_per_bin
    }

    /// Ticks outside every range.
    pub fn outside(&self) -> u64 {
        self.outside
    }

    /// All ticks counted.
    pub fn total(&self) -> u64 {
        self.total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_bin_per_instruction_at_four_bytes() {
        let mut h = HostProfile::new(&[(0x1000, 0x1010)], 4);
        for pc in [0x1000, 0x1004, 0x1004, 0x100c, 0x1010, 0xffc] {
            h.tick(pc);
        }
        let regions: Vec<_> = h.regions().collect();
        assert_eq!(regions, vec![(0x1000, 0x1010, &[1u64, 2, 0, 1][..])]);
        assert_eq!(h.outside(), 2);
        assert_eq!(h.total(), 6);
    }

    #[test]
    fn last_partial_bin_stops_at_the_range_end() {
        let mut h = HostProfile::new(&[(0x1000, 0x1014)], 16);
        assert_eq!(h.bytes_per_bin(), 16);
        for pc in [0x1010, 0x1013, 0x1014] {
            h.tick(pc);
        }
        let regions: Vec<_> = h.regions().collect();
        assert_eq!(regions, vec![(0x1000, 0x1014, &[0u64, 2][..])]);
        assert_eq!(h.outside(), 1);
    }

    #[test]
    fn overlapping_ranges_go_to_the_larger_start() {
        let mut h = HostProfile::new(&[(0x1000, 0x2000), (0x1800, 0x1900)], 256);
        for pc in [0x17ff, 0x1800, 0x18ff, 0x1900] {
            h.tick(pc);
        }
        let bins: Vec<Vec<u64>> = h.regions().map(|(_, _, b)| b.to_vec()).collect();
        assert_eq!(bins[0][7], 1); // 0x17ff
        assert_eq!(bins[0][9], 1); // 0x1900
        assert_eq!(bins[1], vec![2]);
        assert_eq!(h.outside(), 0);
    }

    #[test]
    fn odd_bin_sizes_round_up_to_a_power_of_two() {
        assert_eq!(HostProfile::new(&[], 5).bytes_per_bin(), 8);
        assert_eq!(HostProfile::new(&[], 0).bytes_per_bin(), 4);
        assert_eq!(
            HostProfile::new(&[], u32::MAX).bytes_per_bin(),
            MAX_BYTES_PER_BIN
        );
    }
}
