//! The callgrind profile format (valgrind's docs, "Callgrind Format
//! Specification"), read by `callgrind_annotate` and KCachegrind.
//!
//! Contents: [`Callgrind`] (costs per instruction and per call site),
//! [`render_callgrind`].
//!
//! Positions are `instr line`: every cost line gives the instruction's
//! address and its source line (0 without DWARF). Self costs sit on the
//! instruction's own line; a call's inclusive cost sits on the call
//! instruction's line after `calls=COUNT TARGET`. With `--exact` the events
//! are `Ir` (instructions retired) and `Cycles`; otherwise `Samples`.

use std::collections::BTreeMap;
use std::io::{self, Write};

use crate::report::stacks::{Func, Functions};

/// One call site's calls to one function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallSite {
    pub site: u32,
    /// The callee's entry address.
    pub callee: u32,
    pub calls: u64,
    /// Inclusive cost of those calls, one value per event.
    pub inclusive: Vec<u64>,
}

/// A whole callgrind profile before writing.
#[derive(Debug, Clone, Default)]
pub struct Callgrind {
    pub events: Vec<&'static str>,
    /// Self cost per instruction address, one value per event.
    pub self_costs: BTreeMap<u32, Vec<u64>>,
    pub calls: Vec<CallSite>,
}

/// One function's self-cost lines (address, costs) and call sites.
type FunctionLines<'a> = (Vec<(u32, &'a Vec<u64>)>, Vec<&'a CallSite>);

/// The `fn=` name of a function: unknown code is named by its address.
fn fn_name(functions: &Functions<'_>, f: Func) -> String {
    functions.name(f).replace(['\n', '\r'], " ")
}

/// Writes `cg`; `line_of` gives an address's source file and line.
pub fn render_callgrind(
    cg: &Callgrind,
    functions: &Functions<'_>,
    program: &str,
    line_of: &dyn Fn(u32) -> Option<(String, u32)>,
    out: &mut impl Write,
) -> io::Result<()> {
    let n = cg.events.len();
    let mut totals = vec![0u64; n];
    for costs in cg.self_costs.values() {
        for (t, c) in totals.iter_mut().zip(costs) {
            *t += c;
        }
    }
    writeln!(out, "# callgrind format")?;
    writeln!(out, "version: 1")?;
    writeln!(out, "creator: irix-emu")?;
    writeln!(out, "cmd: {program}")?;
    writeln!(out, "positions: instr line")?;
    writeln!(out, "events: {}", cg.events.join(" "))?;
    writeln!(out, "summary: {}", join(&totals))?;
    writeln!(out)?;
    writeln!(out, "ob={program}")?;

    // Everything grouped by the function holding the address.
    let mut by_fn: BTreeMap<Func, FunctionLines<'_>> = BTreeMap::new();
    for (&pc, costs) in &cg.self_costs {
        by_fn
            .entry(functions.of(pc))
            .or_default()
            .0
            .push((pc, costs));
    }
    for c in &cg.calls {
        by_fn.entry(functions.of(c.site)).or_default().1.push(c);
    }
    let file_of = |f: Func| {
        let (start, _) = functions.range(f);
        line_of(start).map_or_else(|| "???".to_string(), |(file, _)| file)
    };
    let line_no = |pc: u32| line_of(pc).map_or(0, |(_, l)| l);
    for (f, (costs, calls)) in &by_fn {
        writeln!(out)?;
        writeln!(out, "fl={}", file_of(*f))?;
        writeln!(out, "fn={}", fn_name(functions, *f))?;
        for (pc, c) in costs {
            writeln!(out, "{pc:#x} {} {}", line_no(*pc), join(c))?;
        }
        for c in calls.iter().filter(|c| c.calls > 0) {
            let callee = functions.of(c.callee);
            writeln!(out, "cfl={}", file_of(callee))?;
            writeln!(out, "cfn={}", fn_name(functions, callee))?;
            writeln!(
                out,
                "calls={} {:#x} {}",
                c.calls,
                c.callee,
                line_no(c.callee)
            )?;
            let inclusive: Vec<u64> = (0..n)
                .map(|i| c.inclusive.get(i).copied().unwrap_or(0))
                .collect();
            writeln!(
                out,
                "{:#x} {} {}",
                c.site,
                line_no(c.site),
                join(&inclusive)
            )?;
        }
    }
    Ok(())
}

fn join(v: &[u64]) -> String {
    v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
}
