//! Small builders the report tests share: symbols, flat-profile entries
//! and histograms of 4-byte bins at 100 Hz.

#![allow(dead_code)] // each test file uses what it needs

use profile_formats::gmon::HistRecord;
use profile_formats::report::{FlatEntry, Symbol};

/// A function symbol.
pub fn sym(name: &str, addr: u32, size: u32) -> Symbol {
    Symbol {
        name: name.to_string(),
        addr,
        size,
    }
}

/// A flat-profile line without exact cycles.
pub fn entry(name: &str, start: u32, end: u32, samples: u64) -> FlatEntry {
    FlatEntry {
        name: name.to_string(),
        start,
        end,
        samples,
        exact_cycles: None,
    }
}

/// 4-byte bins from `low`, sampled at 100 Hz.
pub fn hist(low: u32, bins: Vec<u64>) -> HistRecord {
    HistRecord {
        low_pc: low,
        high_pc: low + 4 * bins.len() as u32,
        rate_hz: 100,
        bins,
    }
}
