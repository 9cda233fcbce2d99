//! Addresses of a call profile turned into functions: the symboliser the
//! call-graph reports share, and the real stacks by function name.
//!
//! Contents
//! - [`Functions`]: PC -> function (the flat profile's regions, so a PC is
//!   charged to the same function everywhere).
//! - [`named_stacks`]: sampled stacks as function names, root first.
//! - [`FunctionCosts`], [`function_costs`]: self and inclusive samples per
//!   function, and per caller -> callee pair, from the real stacks.

use std::collections::BTreeMap;

use crate::callgraph::CallProfile;
use crate::report::charge::{function_regions, AddrRange};
use crate::report::flat::gap_name;
use crate::report::Symbol;

/// The program's functions, for looking up PCs.
pub struct Functions<'a> {
    regions: Vec<AddrRange>,
    symbols: Vec<&'a Symbol>,
}

/// A function found for a PC: its index in [`Functions`], or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Func {
    Known(usize),
    /// A PC outside every symbol: named by its address.
    Unknown(u32),
}

impl<'a> Functions<'a> {
    /// `upper` ends the last symbol when its size is unknown (the end of the text).
    pub fn new(symbols: &'a [Symbol], upper: u64) -> Self {
        let (regions, symbols) = function_regions(symbols, upper);
        Functions { regions, symbols }
    }

    pub fn of(&self, pc: u32) -> Func {
        let p = u64::from(pc);
        let i = self.regions.partition_point(|r| r.start <= p);
        if i > 0 && self.regions[i - 1].end > p {
            Func::Known(i - 1)
        } else {
            Func::Unknown(pc)
        }
    }

    pub fn name(&self, f: Func) -> String {
        match f {
            Func::Known(i) => self.symbols[i].name.clone(),
            Func::Unknown(pc) => gap_name(u64::from(pc), u64::from(pc) + 4),
        }
    }

    /// First address and one past the last.
    pub fn range(&self, f: Func) -> (u32, u32) {
        match f {
            Func::Known(i) => (
                self.regions[i].start as u32,
                self.regions[i].end.min(u64::from(u32::MAX)) as u32,
            ),
            Func::Unknown(pc) => (pc, pc.saturating_add(4)),
        }
    }
}

/// Each sampled stack as functions, root first, with its count; stacks
/// that name the same functions are merged.
pub fn named_stacks(p: &CallProfile, f: &Functions<'_>) -> BTreeMap<Vec<Func>, u64> {
    let mut out: BTreeMap<Vec<Func>, u64> = BTreeMap::new();
    for (stack, n) in &p.stacks {
        let funcs: Vec<Func> = stack.iter().map(|&pc| f.of(pc)).collect();
        *out.entry(funcs).or_insert(0) += n;
    }
    out
}

/// Samples per function and per caller -> callee pair, from real stacks.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FunctionCosts {
    /// Samples with the function at the top of the stack.
    pub self_samples: BTreeMap<Func, u64>,
    /// Samples with the function anywhere on the stack (once per sample).
    pub inclusive: BTreeMap<Func, u64>,
    /// Samples with `caller` directly below `callee` on the stack (once per
    /// sample), and those of them with `callee` at the top.
    pub pair_inclusive: BTreeMap<(Func, Func), u64>,
    pub pair_self: BTreeMap<(Func, Func), u64>,
}

pub fn function_costs(stacks: &BTreeMap<Vec<Func>, u64>) -> FunctionCosts {
    let mut c = FunctionCosts::default();
    for (stack, &n) in stacks {
        let Some(&leaf) = stack.last() else { continue };
        *c.self_samples.entry(leaf).or_insert(0) += n;
        let mut seen: Vec<Func> = stack.clone();
        seen.sort();
        seen.dedup();
        for f in seen {
            *c.inclusive.entry(f).or_insert(0) += n;
        }
        let mut pairs: Vec<(Func, Func)> = stack.windows(2).map(|w| (w[0], w[1])).collect();
        if let [.., a, b] = stack.as_slice() {
            *c.pair_self.entry((*a, *b)).or_insert(0) += n;
        }
        pairs.sort();
        pairs.dedup();
        for p in pairs {
            *c.pair_inclusive.entry(p).or_insert(0) += n;
        }
    }
    c
}
