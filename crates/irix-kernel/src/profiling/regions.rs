//! The resolved region lookup: overlapping text regions turned, once, into
//! sorted non-overlapping ranges that each name their winning region, so a
//! tick costs one binary search whatever the number of regions.
//!
//! Contents: [`Claim`] (a region's text range and priority), [`RangeTable`]
//! ([`RangeTable::resolve`], [`RangeTable::lookup`]).
//!
//! The rule (irix and hpux sprofil(2)): "If overlapping text regions are
//! specified, then the pr_base associated with the largest offset less than
//! the value of the program counter(PC) gets incremented. If more than one
//! text region has the same offset, the first one is chosen." A region only
//! claims the PCs it can count (its [`text_range`](super::mapping::text_range)):
//! a PC past the end of the winning region's counters falls to the region
//! with the next lower offset that covers it, and only a PC no region covers
//! reaches the overflow bin ("Any PC value not previously matched or outside
//! the regions of text space specified is considered to match this text
//! region"). glibc's user-space sprofil resolves overlaps the same way.
//! Resolution is O(n log n): regions are taken by falling priority, and a
//! merged union of the PCs already claimed yields each one's uncovered gaps.

use std::collections::BTreeMap;

/// One region's bid for PCs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claim {
    /// Priority: the region's offset (larger wins).
    pub offset: u32,
    /// First PC the region counts.
    pub start: u32,
    /// One past the last PC it counts (up to 2^32).
    pub end: u64,
}

/// One resolved range: PCs `[start, end)` belong to region `id`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    start: u32,
    end: u64,
    id: u32,
}

/// Sorted, non-overlapping PC ranges, each pointing at its winning region.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RangeTable {
    /// Sorted by `start`; disjoint.
    pieces: Vec<Piece>,
}

impl RangeTable {
    /// Resolves `claims` (indexed by region number; `None` = the region counts
    /// nothing) under the largest-offset-wins, first-of-equals rule.
    pub fn resolve(claims: &[Option<Claim>]) -> RangeTable {
        let mut order: Vec<(u32, Claim)> = claims
            .iter()
            .enumerate()
            .filter_map(|(id, c)| c.map(|c| (id as u32, c)))
            .filter(|(_, c)| u64::from(c.start) < c.end)
            .collect();
        // Largest offset first; the stable sort keeps array order among equals.
        order.sort_by_key(|&(_, c)| std::cmp::Reverse(c.offset));

        // Union of the PCs already claimed: start -> end, merged and disjoint.
        let mut covered: BTreeMap<u64, u64> = BTreeMap::new();
        let mut pieces = Vec::new();
        for (id, c) in order {
            let (s, e) = (u64::from(c.start), c.end);
            let mut cursor = s;
            if let Some((_, &end)) = covered.range(..=s).next_back() {
                cursor = cursor.max(end);
            }
            for (&cs, &ce) in covered.range(s..e) {
                if cs > cursor {
                    pieces.push(Piece {
                        start: cursor as u32,
                        end: cs,
                        id,
                    });
                }
                cursor = cursor.max(ce);
            }
            if cursor < e {
                pieces.push(Piece {
                    start: cursor as u32,
                    end: e,
                    id,
                });
            }
            merge(&mut covered, s, e);
        }
        pieces.sort_by_key(|p| p.start);
        RangeTable { pieces }
    }

    /// The region that counts `pc`, if any.
    #[inline]
    pub fn lookup(&self, pc: u32) -> Option<u32> {
        let after = self.pieces.partition_point(|p| p.start <= pc);
        let piece = self.pieces.get(after.checked_sub(1)?)?;
        (u64::from(pc) < piece.end).then_some(piece.id)
    }

    /// Number of resolved ranges (at most 2n - 1 for n regions).
    pub fn len(&self) -> usize {
        self.pieces.len()
    }

    /// Whether no PC belongs to any region.
    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }
}

/// Adds `[s, e)` to the merged union `covered`.
fn merge(covered: &mut BTreeMap<u64, u64>, mut s: u64, mut e: u64) {
    if let Some((&ps, &pe)) = covered.range(..=s).next_back() {
        if pe >= s {
            s = ps;
            e = e.max(pe);
            covered.remove(&ps);
        }
    }
    let absorbed: Vec<(u64, u64)> = covered.range(s..=e).map(|(&a, &b)| (a, b)).collect();
    for (a, b) in absorbed {
        e = e.max(b);
        covered.remove(&a);
    }
    covered.insert(s, e);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(offset: u32, end: u64) -> Option<Claim> {
        Some(Claim {
            offset,
            start: offset,
            end,
        })
    }

    #[test]
    fn disjoint_regions_each_keep_their_range() {
        let t = RangeTable::resolve(&[claim(0x100, 0x200), claim(0x300, 0x400)]);
        let cases = [
            (0xff, None),
            (0x100, Some(0)),
            (0x1ff, Some(0)),
            (0x200, None),
            (0x300, Some(1)),
            (0x3ff, Some(1)),
            (0x400, None),
        ];
        for (pc, want) in cases {
            assert_eq!(t.lookup(pc), want, "pc {pc:#x}");
        }
    }

    #[test]
    fn nested_region_wins_inside_and_outer_resumes_after_it() {
        let t = RangeTable::resolve(&[claim(0x100, 0x1000), claim(0x200, 0x300)]);
        let cases = [
            (0x100, Some(0)),
            (0x1ff, Some(0)),
            (0x200, Some(1)),
            (0x2ff, Some(1)),
            (0x300, Some(0)),
            (0xfff, Some(0)),
            (0x1000, None),
        ];
        for (pc, want) in cases {
            assert_eq!(t.lookup(pc), want, "pc {pc:#x}");
        }
        assert_eq!(t.len(), 3);
    }

    #[test]
    fn equal_offsets_go_to_the_first_region() {
        let t = RangeTable::resolve(&[claim(0x100, 0x180), claim(0x100, 0x200)]);
        assert_eq!(t.lookup(0x100), Some(0));
        assert_eq!(t.lookup(0x17f), Some(0));
        // Past the first one's counters the second still covers the PC.
        assert_eq!(t.lookup(0x180), Some(1));
    }

    #[test]
    fn many_nested_regions_resolve_to_a_staircase() {
        let claims: Vec<_> = (0..1000u32).map(|i| claim(i * 16, 1 << 32)).collect();
        let t = RangeTable::resolve(&claims);
        assert_eq!(t.len(), 1000);
        assert_eq!(t.lookup(0), Some(0));
        assert_eq!(t.lookup(16 * 500 + 3), Some(500));
        assert_eq!(t.lookup(u32::MAX), Some(999));
    }

    #[test]
    fn none_and_empty_claims_take_nothing() {
        let t = RangeTable::resolve(&[
            None,
            Some(Claim {
                offset: 5,
                start: 5,
                end: 5,
            }),
        ]);
        assert!(t.is_empty());
        assert_eq!(t.lookup(5), None);
    }
}
