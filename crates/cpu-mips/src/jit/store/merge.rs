//! Merging packs: how a store keeps the directory's packs few and under
//! their bound, and rewrites a pack in which a load met a bad entry.
//!
//! When a run's [`TranslationStore::flush`] finds (its new entries counted
//! as one more pack):
//!
//! - more than the bound's bytes: every pack is merged with the new entries
//!   into one, which keeps the most recently used entries first, up to three
//!   quarters of the bound, and the rest is dropped. An entry's last use is
//!   now when this run loaded or saved it, else its pack's modification
//!   time; among entries of one time, a pack's first entries come first (a
//!   merged pack is written in this order, so its order keeps what it
//!   knew);
//! - more than [`MAX_PACKS`] packs: the smallest are merged with the new
//!   entries, enough of them to leave half as many, and then every pack no
//!   larger than those merged so far: a pack is rewritten only once the
//!   packs merged with it are as large as it is, so each byte is copied a
//!   number of times that grows with the logarithm of the cache's size, not
//!   once every few runs;
//! - packs in which a load of this run found a bad entry: they are merged
//!   (without it) with the new entries, which hold its replacement.
//!
//! Otherwise the new entries are written as a pack of their own. Every
//! entry copied from a pack is checked first (`cache::entry_id`), and an
//! entry found twice is kept once. The merged pack is written and renamed
//! into place before the packs merged are deleted, so a run killed between
//! the two leaves entries twice, not lost; two processes merging the same
//! packs at once do the same, and a later merge drops the duplicates.
//!
//! A merge keeps the entries chosen in this order: this run's new entries
//! in the order they were saved, then the rest newest first. (The newest
//! saved are the last evicted, but the file keeps their save order.)

use std::collections::HashSet;
use std::fs;
use std::time::SystemTime;

use super::pack;
use super::{OpenPack, State, TranslationStore};
use crate::jit::cache;

/// More packs than this are merged.
pub(super) const MAX_PACKS: usize = 16;

/// Which packs a flush merges.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Plan {
    /// Their places in `State::packs`.
    merged: Vec<usize>,
    /// The most bytes the merged pack may take (when the bound is passed).
    budget: Option<u64>,
}

/// The packs to merge, for packs of `sizes` bytes (some `damaged`) and
/// `pending` bytes of new entries written as a pack (0: none), under
/// `limit` bytes in all; `None` when the new entries go in a pack of their
/// own.
pub(super) fn plan(sizes: &[u64], damaged: &[bool], pending: u64, limit: u64) -> Option<Plan> {
    let total: u64 = sizes.iter().sum::<u64>() + pending;
    if total > limit {
        return Some(Plan {
            merged: (0..sizes.len()).collect(),
            budget: Some(limit / 4 * 3),
        });
    }
    let mut merged: Vec<usize> = (0..sizes.len()).filter(|&i| damaged[i]).collect();
    if sizes.len() + usize::from(pending > 0) > MAX_PACKS {
        let mut smallest: Vec<usize> = (0..sizes.len()).collect();
        smallest.sort_by_key(|&i| sizes[i]);
        // Merged into one with the new entries: MAX_PACKS / 2 packs left.
        let least = sizes.len() + 1 - MAX_PACKS / 2;
        let mut sum = pending;
        for (n, &i) in smallest.iter().enumerate() {
            if n >= least && sizes[i] > sum {
                break;
            }
            sum += sizes[i];
            merged.push(i);
        }
        merged.sort_unstable();
        merged.dedup();
    }
    (!merged.is_empty()).then_some(Plan {
        merged,
        budget: None,
    })
}

/// An entry that may go into the merged pack.
struct Candidate<'a> {
    id: u128,
    /// When it was last used.
    used: SystemTime,
    bytes: &'a [u8],
    /// Its place in this run's new entries, in save order (checked
    /// already); `None` for an entry of a pack.
    saved: Option<usize>,
}

impl TranslationStore {
    /// The packs `flush` merges (see [`plan`]).
    pub(super) fn merge_plan(&self, state: &State) -> Option<Plan> {
        let sizes: Vec<u64> = state.packs.iter().map(OpenPack::size).collect();
        let damaged: Vec<bool> = state.packs.iter().map(|p| !p.bad.is_empty()).collect();
        let pending = if state.pending.is_empty() {
            0
        } else {
            pack::size(state.pending.len(), state.pending_bytes).unwrap_or(u64::MAX)
        };
        plan(&sizes, &damaged, pending, self.limit)
    }

    /// Merges the packs of `plan` and the new entries into one pack, then
    /// deletes the packs merged (see the module's documentation).
    pub(super) fn merge(&self, state: &mut State, plan: Plan) {
        let now = SystemTime::now();
        // The newest saved first, for choosing what to evict.
        let mut candidates: Vec<Candidate> = state
            .pending
            .iter()
            .enumerate()
            .rev()
            .map(|(at, (id, bytes))| Candidate {
                id: *id,
                used: now,
                bytes,
                saved: Some(at),
            })
            .collect();
        let mut merged: Vec<&OpenPack> = plan.merged.iter().map(|&i| &state.packs[i]).collect();
        merged.sort_by_key(|p| std::cmp::Reverse(p.modified));
        for p in merged {
            for (id, i) in p.pack.in_file_order(p.bytes()) {
                let Some(bytes) = p.pack.entry(p.bytes(), i) else {
                    continue;
                };
                if p.bad.contains(&id) {
                    continue;
                }
                let used = if state.used.contains(&id) {
                    now
                } else {
                    p.modified
                };
                candidates.push(Candidate {
                    id,
                    used,
                    bytes,
                    saved: None,
                });
            }
        }
        // Stable: entries of one time stay in the order above.
        candidates.sort_by_key(|c| std::cmp::Reverse(c.used));
        let budget = plan.budget.unwrap_or(u64::MAX);
        let (mut size, mut data) = (pack::HEADER as u64, 0u64);
        let mut kept: Vec<(Option<usize>, u128, &[u8])> = Vec::new();
        let mut seen = HashSet::new();
        for c in candidates {
            if seen.contains(&c.id) || !(c.saved.is_some() || cache::entry_id(c.bytes) == Ok(c.id))
            {
                continue;
            }
            let len = c.bytes.len() as u64;
            if size + (pack::RECORD as u64) + len > budget || data + len > pack::MAX_DATA {
                break;
            }
            size += pack::RECORD as u64 + len;
            data += len;
            seen.insert(c.id);
            kept.push((c.saved, c.id, c.bytes));
        }
        // Written with this run's new entries first, in the order they were
        // saved (the order a later run is likely to load them in), then the
        // rest in the order chosen (stable).
        kept.sort_by_key(|k| k.0.unwrap_or(usize::MAX));
        let kept: Vec<(u128, &[u8])> = kept.into_iter().map(|(_, id, b)| (id, b)).collect();
        let written = if kept.is_empty() {
            Ok(None)
        } else {
            self.write_pack(&kept)
        };
        let new = match written {
            Ok(new) => new,
            Err(e) => return self.write_failed(state, &e),
        };
        let mut gone = plan.merged;
        gone.sort_unstable_by(|a, b| b.cmp(a));
        for i in gone {
            let p = state.packs.remove(i);
            let _ = fs::remove_file(&p.path);
        }
        state.written(new);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_few_sound_packs_are_left_alone() {
        assert_eq!(plan(&[100, 50], &[false, false], 10, 1000), None);
        assert_eq!(plan(&[], &[], 10, 1000), None);
    }

    #[test]
    fn passing_the_bound_merges_every_pack_under_three_quarters_of_it() {
        assert_eq!(
            plan(&[600, 300], &[false, false], 200, 1000),
            Some(Plan {
                merged: vec![0, 1],
                budget: Some(750)
            })
        );
    }

    #[test]
    fn a_pack_with_a_bad_entry_is_merged_with_the_new_entries() {
        assert_eq!(
            plan(&[100, 50, 20], &[false, true, false], 10, 1000),
            Some(Plan {
                merged: vec![1],
                budget: None
            })
        );
    }

    #[test]
    fn too_many_packs_merge_the_small_ones_and_leave_a_large_one() {
        // One large pack and sixteen small ones, with new entries.
        let mut sizes = vec![10_000];
        sizes.extend([10; 16]);
        let damaged = vec![false; sizes.len()];
        let plan = plan(&sizes, &damaged, 10, 1 << 20).expect("a merge");
        assert_eq!(plan.merged, (1..17).collect::<Vec<_>>());
        assert_eq!(plan.budget, None);
    }

    #[test]
    fn too_many_packs_of_one_size_merge_down_to_one() {
        let sizes = vec![10; 17];
        let plan = plan(&sizes, &[false; 17], 0, 1 << 20).expect("a merge");
        assert_eq!(plan.merged.len(), 17);
    }

    #[test]
    fn too_many_packs_of_growing_sizes_leave_half_as_many() {
        // Each twice the one before: only the fewest that must go are merged.
        let sizes: Vec<u64> = (0..17).map(|i| 1 << i).collect();
        let plan = plan(&sizes, &[false; 17], 0, u64::MAX).expect("a merge");
        // 17 packs, 10 merged into one: 8 left.
        assert_eq!(plan.merged, (0..10).collect::<Vec<_>>());
    }
}
