//! The flat profile: samples (and optionally exact cycles) per function.
//!
//! Contents
//! - [`flat_profile`]: sampled ticks per function, sorted like gprof -p.
//! - [`flat_profile_with_exact`]: the same with `--exact` cycles beside them.
//! - [`total_samples`], [`gap_name`].

use std::collections::BTreeMap;

use crate::gmon::HistRecord;
use crate::report::charge::{charge, function_regions, AddrRange};
use crate::report::{FlatEntry, Symbol};

/// The name of an unsymbolised stretch: "0x00400a00-0x00400a40".
pub fn gap_name(start: u64, end: u64) -> String {
    format!("{start:#010x}-{end:#010x}")
}

/// Sampled ticks per function and per unsymbolised stretch; only entries with
/// samples (gprof -p leaves out functions without time unless asked with -z).
/// Sorted by samples, most first, then by address.
pub fn flat_profile(hists: &[HistRecord], symbols: &[Symbol]) -> Vec<FlatEntry> {
    let mut entries = charged_entries(hists, symbols, highest_pc(hists));
    entries.retain(|e| e.samples > 0);
    sort_entries(&mut entries);
    entries
}

/// Sampled ticks and exact cycles (`exact` holds cycles, not ticks, per bin)
/// per function; entries with either are kept, `exact_cycles` is always Some.
/// Sorted like [`flat_profile`].
pub fn flat_profile_with_exact(
    sampled: &[HistRecord],
    exact: &[HistRecord],
    symbols: &[Symbol],
) -> Vec<FlatEntry> {
    let upper = highest_pc(sampled).max(highest_pc(exact));
    let mut merged: BTreeMap<(u32, u32, String), FlatEntry> = BTreeMap::new();
    for e in charged_entries(sampled, symbols, upper) {
        merged.insert(
            (e.start, e.end, e.name.clone()),
            FlatEntry {
                exact_cycles: Some(0),
                ..e
            },
        );
    }
    for e in charged_entries(exact, symbols, upper) {
        let slot = merged
            .entry((e.start, e.end, e.name.clone()))
            .or_insert(FlatEntry {
                samples: 0,
                exact_cycles: Some(0),
                ..e.clone()
            });
        slot.exact_cycles = Some(e.samples);
    }
    let mut entries: Vec<FlatEntry> = merged
        .into_values()
        .filter(|e| e.samples > 0 || e.exact_cycles.unwrap_or(0) > 0)
        .collect();
    sort_entries(&mut entries);
    entries
}

/// Sum of the samples of `entries`.
pub fn total_samples(entries: &[FlatEntry]) -> u64 {
    entries
        .iter()
        .fold(0u64, |a, e| a.saturating_add(e.samples))
}

fn highest_pc(hists: &[HistRecord]) -> u64 {
    hists
        .iter()
        .map(|h| u64::from(h.high_pc))
        .max()
        .unwrap_or(0)
}

/// One entry per function (even with 0 samples) and per charged stretch.
fn charged_entries(hists: &[HistRecord], symbols: &[Symbol], upper: u64) -> Vec<FlatEntry> {
    let (regions, kept) = function_regions(symbols, upper);
    let charges = charge(hists, &regions);
    let functions = kept
        .iter()
        .zip(&regions)
        .zip(&charges.regions)
        .map(|((s, r), &n)| FlatEntry {
            name: s.name.clone(),
            start: clamp(r.start),
            end: clamp(r.end),
            samples: n,
            exact_cycles: None,
        });
    let gaps = charges
        .gaps
        .iter()
        .map(|(&AddrRange { start, end }, &n)| FlatEntry {
            name: gap_name(start, end),
            start: clamp(start),
            end: clamp(end),
            samples: n,
            exact_cycles: None,
        });
    functions.chain(gaps).collect()
}

fn clamp(a: u64) -> u32 {
    u32::try_from(a).unwrap_or(u32::MAX)
}

/// Sorts like gprof -p: samples (then exact cycles) most first, then by address.
pub fn sort_entries(entries: &mut [FlatEntry]) {
    entries.sort_by(|a, b| {
        b.samples
            .cmp(&a.samples)
            .then(b.exact_cycles.cmp(&a.exact_cycles))
            .then(a.start.cmp(&b.start))
            .then(a.name.cmp(&b.name))
    });
}
