//! Heat: how many times blocks ran that were never compiled, kept from one
//! run to the next in the file `heat` beside the packs.
//!
//! A block is compiled on the run that makes it `CpuConfig::compile_after`
//! (1000). Code that one process runs a few hundred times is therefore
//! never compiled, however many processes run it: a project's build runs
//! the same compiler passes again in every process, and a second compile of
//! the same file runs them as often as the first. A run records the blocks
//! ran without compiling them, with their count (noted each time it passes
//! a multiple of [`step`]); a later process, of the same run or a later
//! one, starts such a block's count where the record left it, so its runs
//! add up across processes until it is compiled (and from then on found in
//! a pack).
//!
//! The file: the magic `IRXHEAT2`, the record count (u32, little-endian),
//! the records sorted by id (a block's key id, u128, then its runs, u32),
//! and a `cache::hash` of everything before it (u64). At most [`MAX`]
//! records, those that ran most. It is a hint: a file that is damaged or
//! of another format counts as empty (and is replaced at the run's end), a
//! race between two runs that write it at once keeps one of them, and a
//! record never decides what the code is (the block's key does).

use std::collections::HashMap;

use crate::jit::cache;

/// The file's name in the directory.
pub(super) const FILE: &str = "heat";

const MAGIC: &[u8; 8] = b"IRXHEAT2";

/// The most records kept.
pub(super) const MAX: usize = 1 << 16;

const RECORD: usize = 20;

/// How often a block's count is noted, for a CPU that compiles on run
/// `compile_after`: each time it passes a multiple of this power of two,
/// about a sixteenth of `compile_after` (16 of 250), so that a run
/// records only what could be compiled within sixteen runs, and a block
/// is noted at most sixteen times a run.
pub(crate) fn step(compile_after: u32) -> u32 {
    (compile_after / 16).max(1).next_power_of_two()
}

/// The records of `file`, or `None` if it is not a whole heat file.
pub(super) fn parse(file: &[u8]) -> Option<HashMap<u128, u32>> {
    if file.len() < MAGIC.len() + 4 + 8 || &file[..MAGIC.len()] != MAGIC {
        return None;
    }
    let n = cache::u32_at(file, MAGIC.len()) as usize;
    let body = MAGIC.len() + 4;
    if n > MAX || file.len() != body + n * RECORD + 8 {
        return None;
    }
    let end = body + n * RECORD;
    let sum = u64::from_le_bytes(file[end..].try_into().ok()?);
    if sum != cache::hash(cache::SEED, &file[..end]) {
        return None;
    }
    let records = file[body..end].chunks_exact(RECORD).map(|r| {
        let id = u128::from_le_bytes(r[..16].try_into().expect("16 bytes"));
        (id, cache::u32_at(r, 16))
    });
    Some(records.collect())
}

/// The file of `records`: the [`MAX`] that ran most, sorted by id.
pub(super) fn encode(records: &HashMap<u128, u32>) -> Vec<u8> {
    let mut kept: Vec<(u128, u32)> = records.iter().map(|(&id, &runs)| (id, runs)).collect();
    if kept.len() > MAX {
        kept.sort_unstable_by_key(|&(id, runs)| (std::cmp::Reverse(runs), id));
        kept.truncate(MAX);
    }
    kept.sort_unstable();
    let mut file = Vec::with_capacity(MAGIC.len() + 4 + kept.len() * RECORD + 8);
    file.extend_from_slice(MAGIC);
    file.extend_from_slice(&(kept.len() as u32).to_le_bytes());
    for (id, runs) in kept {
        file.extend_from_slice(&id.to_le_bytes());
        file.extend_from_slice(&runs.to_le_bytes());
    }
    let sum = cache::hash(cache::SEED, &file);
    file.extend_from_slice(&sum.to_le_bytes());
    file
}

/// Adds `new` to `into`, keeping the larger count of a block in both.
pub(super) fn merge(into: &mut HashMap<u128, u32>, new: &HashMap<u128, u32>) {
    for (&id, &runs) in new {
        let r = into.entry(id).or_insert(0);
        *r = (*r).max(runs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_survive_the_file_and_a_damaged_file_counts_as_empty() {
        let records: HashMap<u128, u32> = [(3, 70), (1 << 100, 900), (7, 64)].into();
        let file = encode(&records);
        assert_eq!(parse(&file), Some(records));
        for cut in [0, 8, 12, file.len() - 1] {
            assert_eq!(parse(&file[..cut]), None, "cut at {cut}");
        }
        let mut flipped = file.clone();
        flipped[14] ^= 1;
        assert_eq!(parse(&flipped), None, "a changed record");
        let mut foreign = file;
        foreign[7] = b'1';
        assert_eq!(parse(&foreign), None, "another format");
    }

    #[test]
    fn the_file_keeps_the_blocks_that_ran_most() {
        let records: HashMap<u128, u32> = (0..MAX as u128 + 10).map(|id| (id, id as u32)).collect();
        let kept = parse(&encode(&records)).expect("a whole file");
        assert_eq!(kept.len(), MAX);
        assert!(!kept.contains_key(&9) && kept.contains_key(&10));
    }

    #[test]
    fn merging_keeps_the_larger_count() {
        let mut into: HashMap<u128, u32> = [(1, 100), (2, 500)].into();
        merge(&mut into, &[(1, 300), (2, 200), (3, 64)].into());
        assert_eq!(into, [(1, 300), (2, 500), (3, 64)].into());
    }
}
