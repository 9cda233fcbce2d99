//! The call graph as text, laid out like `gprof -q`: one block per
//! function, its callers above it and its callees below.
//!
//! Contents: [`GraphInput`], [`render_call_graph`].
//!
//! Call counts are exact (every call the CPU made). Unlike gprof, which
//! shares a callee's time among its callers in proportion to the calls, the
//! times here come from the real stack at each sample: a function's
//! "children" time is the samples with it on the stack but not on top, and
//! a caller line's times are the samples where that caller called it.
//! Without stacks (a gmon.out with no sidecar) only self times and counts
//! are known: the children column shows "-".

use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Write};

use crate::report::stacks::{Func, FunctionCosts, Functions};
use crate::report::text::seconds;

/// What the graph is drawn from.
pub struct GraphInput<'a> {
    pub functions: &'a Functions<'a>,
    /// (caller function, callee function, calls, by signal).
    pub arcs: Vec<(Func, Func, u64, bool)>,
    /// Self samples per function (the flat profile's, when no stacks).
    pub self_samples: BTreeMap<Func, u64>,
    /// From real stacks, when known.
    pub costs: Option<FunctionCosts>,
    pub total_samples: u64,
    pub rate_hz: u32,
}

pub fn render_call_graph<W: Write>(g: &GraphInput<'_>, out: &mut W) -> io::Result<()> {
    let mut funcs: BTreeSet<Func> = g.self_samples.keys().copied().collect();
    for &(a, b, _, _) in &g.arcs {
        funcs.insert(a);
        funcs.insert(b);
    }
    if let Some(c) = &g.costs {
        funcs.extend(c.inclusive.keys().copied());
    }
    let self_of = |f: Func| g.self_samples.get(&f).copied().unwrap_or(0);
    let incl_of = |f: Func| {
        g.costs
            .as_ref()
            .and_then(|c| c.inclusive.get(&f).copied())
            .unwrap_or_else(|| self_of(f))
    };
    let mut order: Vec<Func> = funcs.into_iter().collect();
    order.sort_by_key(|&f| (std::cmp::Reverse(incl_of(f)), g.functions.name(f)));
    let index: BTreeMap<Func, usize> = order.iter().enumerate().map(|(i, &f)| (f, i + 1)).collect();
    // Calls from other functions (recursive calls are shown apart, "19+44101").
    let called: BTreeMap<Func, u64> =
        g.arcs
            .iter()
            .filter(|a| !a.3 && a.0 != a.1)
            .fold(BTreeMap::new(), |mut m, a| {
                *m.entry(a.1).or_insert(0) += a.2;
                m
            });
    let recursive = |f: Func| {
        g.arcs
            .iter()
            .filter(|a| a.0 == f && a.1 == f && !a.3)
            .map(|a| a.2)
            .sum::<u64>()
    };
    let secs = |n: u64| format!("{:>7.2}", seconds(n, g.rate_hz));
    let pair = |a: Func, b: Func| -> (String, String) {
        match &g.costs {
            Some(c) => {
                let s = c.pair_self.get(&(a, b)).copied().unwrap_or(0);
                let i = c.pair_inclusive.get(&(a, b)).copied().unwrap_or(0);
                (secs(s), secs(i - s.min(i)))
            }
            None => (format!("{:>7}", "-"), format!("{:>7}", "-")),
        }
    };
    let named = |f: Func| format!("{} [{}]", g.functions.name(f), index[&f]);

    writeln!(
        out,
        "Call graph (exact call counts; times from the real stack at each sample)"
    )?;
    writeln!(out)?;
    writeln!(out, "index  % time    self  children    called     name")?;
    for &f in &order {
        let callers: Vec<&(Func, Func, u64, bool)> = g.arcs.iter().filter(|a| a.1 == f).collect();
        if callers.is_empty() {
            writeln!(out, "{:>46}<spontaneous>", "")?;
        }
        let total_calls = called.get(&f).copied().unwrap_or(0);
        // One caller or callee line: times of the pair, "calls/total".
        let arc_line =
            |out: &mut W, caller: Func, callee: Func, n: u64, signal: bool, other: Func| {
                let (s, c) = pair(caller, callee);
                let calls = if signal {
                    format!("{n} signal")
                } else if caller == callee {
                    n.to_string()
                } else {
                    format!("{n}/{}", called.get(&callee).copied().unwrap_or(0))
                };
                writeln!(
                    out,
                    "{:>12}{s} {c}  {calls:>13}         {}",
                    "",
                    named(other)
                )
            };
        for &&(caller, _, n, signal) in &callers {
            arc_line(out, caller, f, n, signal, caller)?;
        }
        let children = match &g.costs {
            Some(_) => secs(incl_of(f).saturating_sub(self_of(f))),
            None => format!("{:>7}", "-"),
        };
        let pct = if g.total_samples == 0 {
            0.0
        } else {
            100.0 * incl_of(f) as f64 / g.total_samples as f64
        };
        let called_col = match (total_calls, recursive(f)) {
            (0, 0) => String::new(),
            (n, 0) => n.to_string(),
            (n, r) => format!("{n}+{r}"),
        };
        let idx = format!("[{}]", index[&f]);
        writeln!(
            out,
            "{idx:<6} {pct:>6.1} {} {children}  {called_col:>9}     {}",
            secs(self_of(f)),
            named(f)
        )?;
        for &(_, callee, n, signal) in g.arcs.iter().filter(|a| a.0 == f) {
            arc_line(out, f, callee, n, signal, callee)?;
        }
        writeln!(out, "-----------------------------------------------")?;
    }
    Ok(())
}
