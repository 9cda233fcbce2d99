//! Two profiles of one program compared (`report --diff BASE PROGRAM FILE`),
//! like pprof's `-diff_base`: per function, the change in samples and, when
//! both sides carry them, in inclusive samples (real stacks) and in exact
//! instructions and cycles (`prof --exact`).
//!
//! Contents
//! - [`Costs`]: one profile's costs by function name (the CLI fills it).
//! - [`Change`], [`DiffRow`], [`Diff`], [`diff`]: the comparison, sorted by
//!   the size of the change, with per-object totals for a dynamic program's
//!   `function@object` names; [`DiffError`]: why two profiles cannot compare.
//! - [`render_diff_text`], [`render_diff_json`], [`render_diff_folded`].
//!
//! Functions are matched by name, so two builds of a program compare even
//! though their addresses differ. The virtual clock makes every run of the
//! same program and input identical: a difference here is the change, never
//! noise, and a profile diffed against itself is all zeros.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Write};

use thiserror::Error;

use crate::report::folded::frame_name;
use crate::report::json::json_string;

/// One profile's costs, each keyed by function name (`function@object` for
/// a shared object's).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Costs {
    /// The sampling rate of the histogram.
    pub rate_hz: u32,
    /// The CPU clock the exact costs were counted at, when known.
    pub cpu_hz: Option<u64>,
    /// Sampled ticks with the function running.
    pub samples: BTreeMap<String, u64>,
    /// Samples with the function anywhere on the real stack (`--callgraph`).
    pub inclusive: Option<BTreeMap<String, u64>>,
    /// Instructions and cycles retired in the function (`--exact`).
    pub exact: Option<BTreeMap<String, (u64, u64)>>,
    /// Samples per stack of function names, root first (one-frame stacks
    /// when there were no real stacks).
    pub stacks: BTreeMap<Vec<String>, u64>,
}

/// Why two profiles do not compare.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum DiffError {
    #[error("the profiles were sampled at different rates ({base} Hz and {new} Hz): compare profiles taken with the same --fast setting")]
    Rate { base: u32, new: u32 },
    #[error("the exact costs were counted at different CPU clocks ({base} Hz and {new} Hz): compare profiles taken with the same --cpu-mhz")]
    CpuClock { base: u64, new: u64 },
}

/// A measure in the base profile and in the new one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Change {
    pub base: u64,
    pub new: u64,
}

impl Change {
    /// new - base.
    pub fn delta(self) -> i128 {
        i128::from(self.new) - i128::from(self.base)
    }

    fn add(&mut self, other: Change) {
        self.base += other.base;
        self.new += other.new;
    }
}

/// One function's changes (or the totals').
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DiffRow {
    pub name: String,
    pub samples: Change,
    pub inclusive: Option<Change>,
    pub instructions: Option<Change>,
    pub cycles: Option<Change>,
}

impl DiffRow {
    /// The change rows are sorted by: exact cycles when measured, else
    /// samples, then inclusive samples.
    fn key(&self) -> (u128, u128, u128) {
        let abs = |c: Option<Change>| c.map_or(0, |c| c.delta().unsigned_abs());
        (
            abs(self.cycles),
            self.samples.delta().unsigned_abs(),
            abs(self.inclusive),
        )
    }

    /// Whether nothing changed.
    pub fn is_unchanged(&self) -> bool {
        self.key() == (0, 0, 0) && self.instructions.is_none_or(|c| c.delta() == 0)
    }
}

/// The comparison: one row per function either profile has, largest change
/// first, and the totals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diff {
    pub rate_hz: u32,
    pub rows: Vec<DiffRow>,
    pub total: DiffRow,
    /// Samples per stack, base and new (for the differential flame graph).
    pub stacks: BTreeMap<Vec<String>, Change>,
    /// Samples per shared object (the part of a `function@object` name
    /// after the `@`; None for the program's own functions).
    pub objects: BTreeMap<Option<String>, Change>,
}

fn change_of<T: Copy>(
    base: &BTreeMap<String, T>,
    new: &BTreeMap<String, T>,
    name: &str,
    pick: impl Fn(T) -> u64,
) -> Change {
    Change {
        base: base.get(name).copied().map_or(0, &pick),
        new: new.get(name).copied().map_or(0, &pick),
    }
}

/// Compares `new` with `base`. Inclusive and exact columns appear only
/// when both profiles have them.
pub fn diff(base: &Costs, new: &Costs) -> Result<Diff, DiffError> {
    if base.rate_hz != new.rate_hz {
        return Err(DiffError::Rate {
            base: base.rate_hz,
            new: new.rate_hz,
        });
    }
    let exact = match (&base.exact, &new.exact) {
        (Some(b), Some(n)) => {
            if let (Some(bh), Some(nh)) = (base.cpu_hz, new.cpu_hz) {
                if bh != nh {
                    return Err(DiffError::CpuClock { base: bh, new: nh });
                }
            }
            Some((b, n))
        }
        _ => None,
    };
    let inclusive = match (&base.inclusive, &new.inclusive) {
        (Some(b), Some(n)) => Some((b, n)),
        _ => None,
    };
    let mut names: BTreeSet<&String> = base.samples.keys().chain(new.samples.keys()).collect();
    if let Some((b, n)) = exact {
        names.extend(b.keys().chain(n.keys()));
    }
    if let Some((b, n)) = inclusive {
        names.extend(b.keys().chain(n.keys()));
    }
    let mut total = DiffRow {
        name: "<total>".to_string(),
        inclusive: None,
        instructions: exact.map(|_| Change::default()),
        cycles: exact.map(|_| Change::default()),
        ..DiffRow::default()
    };
    let mut rows: Vec<DiffRow> = names
        .into_iter()
        .map(|name| {
            let row = DiffRow {
                name: name.clone(),
                samples: change_of(&base.samples, &new.samples, name, |n| n),
                inclusive: inclusive.map(|(b, n)| change_of(b, n, name, |x| x)),
                instructions: exact.map(|(b, n)| change_of(b, n, name, |(i, _)| i)),
                cycles: exact.map(|(b, n)| change_of(b, n, name, |(_, c)| c)),
            };
            total.samples.add(row.samples);
            if let (Some(t), Some(c)) = (&mut total.instructions, row.instructions) {
                t.add(c);
            }
            if let (Some(t), Some(c)) = (&mut total.cycles, row.cycles) {
                t.add(c);
            }
            row
        })
        .collect();
    rows.sort_by(|a, b| b.key().cmp(&a.key()).then(a.name.cmp(&b.name)));
    let mut objects: BTreeMap<Option<String>, Change> = BTreeMap::new();
    for r in &rows {
        let object = r.name.rsplit_once('@').map(|(_, o)| o.to_string());
        objects.entry(object).or_default().add(r.samples);
    }
    let mut stacks: BTreeMap<Vec<String>, Change> = BTreeMap::new();
    for (s, &n) in &base.stacks {
        stacks.entry(s.clone()).or_default().base += n;
    }
    for (s, &n) in &new.stacks {
        stacks.entry(s.clone()).or_default().new += n;
    }
    Ok(Diff {
        rate_hz: base.rate_hz,
        rows,
        total,
        stacks,
        objects,
    })
}

fn signed(d: i128) -> String {
    if d > 0 {
        format!("+{d}")
    } else {
        d.to_string()
    }
}

/// The diff as a table: per function base, new and change of each measure,
/// largest change first, then the totals, and with shared objects the
/// samples per object (`program` names the program's own).
pub fn render_diff_text(diff: &Diff, program: &str, out: &mut impl Write) -> io::Result<()> {
    let first = diff.rows.first().or(Some(&diff.total));
    let has_incl = first.is_some_and(|r| r.inclusive.is_some());
    let has_exact = first.is_some_and(|r| r.cycles.is_some());
    writeln!(
        out,
        "Profile difference (new - base), each sample {} s:\n",
        crate::report::text::seconds_per_sample(diff.rate_hz)
    )?;
    let mut head = format!("{:>10} {:>10} {:>10}", "base", "new", "change");
    let mut sub = format!("{:>32}", "samples");
    if has_incl {
        head.push_str(&format!(" {:>10}", "change"));
        sub.push_str(&format!(" {:>10}", "inclusive"));
    }
    if has_exact {
        head.push_str(&format!(" {:>14} {:>14}", "change", "change"));
        sub.push_str(&format!(" {:>14} {:>14}", "instructions", "cycles"));
    }
    writeln!(out, "{sub}")?;
    writeln!(out, "{head}  function")?;
    let line = |r: &DiffRow, out: &mut dyn Write| -> io::Result<()> {
        write!(
            out,
            "{:>10} {:>10} {:>10}",
            r.samples.base,
            r.samples.new,
            signed(r.samples.delta())
        )?;
        if has_incl {
            let d = r.inclusive.map_or(String::new(), |c| signed(c.delta()));
            write!(out, " {d:>10}")?;
        }
        if has_exact {
            let i = r.instructions.map_or(String::new(), |c| signed(c.delta()));
            let c = r.cycles.map_or(String::new(), |c| signed(c.delta()));
            write!(out, " {i:>14} {c:>14}")?;
        }
        writeln!(out, "  {}", r.name)
    };
    for r in &diff.rows {
        line(r, out)?;
    }
    line(&diff.total, out)?;
    if diff.objects.len() > 1 {
        writeln!(out, "\nSamples per object:\n")?;
        writeln!(out, "{:>10} {:>10} {:>10}  object", "base", "new", "change")?;
        for (object, c) in &diff.objects {
            let name = object.as_deref().unwrap_or(program);
            writeln!(
                out,
                "{:>10} {:>10} {:>10}  {name}",
                c.base,
                c.new,
                signed(c.delta())
            )?;
        }
    }
    Ok(())
}

fn json_change(c: Change) -> String {
    format!(
        "{{\"base\": {}, \"new\": {}, \"change\": {}}}",
        c.base,
        c.new,
        c.delta()
    )
}

fn json_row(r: &DiffRow) -> String {
    let mut s = format!(
        "{{\"name\": {}, \"samples\": {}",
        json_string(&r.name),
        json_change(r.samples)
    );
    for (key, c) in [
        ("inclusive_samples", r.inclusive),
        ("instructions", r.instructions),
        ("cycles", r.cycles),
    ] {
        if let Some(c) = c {
            s.push_str(&format!(", \"{key}\": {}", json_change(c)));
        }
    }
    s.push('}');
    s
}

/// The diff as JSON: `{"rate_hz", "functions": [...], "objects": [...],
/// "total"}`, each measure as `{"base", "new", "change"}`.
pub fn render_diff_json(diff: &Diff, program: &str, out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "{{")?;
    writeln!(out, "  \"rate_hz\": {},", diff.rate_hz)?;
    writeln!(out, "  \"functions\": [")?;
    let rows = &diff.rows;
    for (i, r) in rows.iter().enumerate() {
        let comma = if i + 1 < rows.len() { "," } else { "" };
        writeln!(out, "    {}{comma}", json_row(r))?;
    }
    writeln!(out, "  ],")?;
    writeln!(out, "  \"objects\": [")?;
    for (i, (object, c)) in diff.objects.iter().enumerate() {
        let comma = if i + 1 < diff.objects.len() { "," } else { "" };
        let name = object.as_deref().unwrap_or(program);
        writeln!(
            out,
            "    {{\"name\": {}, \"samples\": {}}}{comma}",
            json_string(name),
            json_change(*c)
        )?;
    }
    writeln!(out, "  ],")?;
    writeln!(out, "  \"total\": {}", json_row(&diff.total))?;
    writeln!(out, "}}")
}

/// A differential flame graph's input, as flamegraph.pl's difffolded.pl
/// writes it: `prog;frame;frame BASE NEW` per stack (flamegraph.pl colours
/// a frame red where it grew and blue where it shrank).
pub fn render_diff_folded(diff: &Diff, program: &str, out: &mut impl Write) -> io::Result<()> {
    for (stack, c) in &diff.stacks {
        let frames: Vec<String> = std::iter::once(program)
            .chain(stack.iter().map(String::as_str))
            .map(frame_name)
            .collect();
        writeln!(out, "{} {} {}", frames.join(";"), c.base, c.new)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn costs(samples: &[(&str, u64)]) -> Costs {
        Costs {
            rate_hz: 100,
            samples: samples.iter().map(|&(n, s)| (n.to_string(), s)).collect(),
            stacks: samples
                .iter()
                .map(|&(n, s)| (vec![n.to_string()], s))
                .collect(),
            ..Costs::default()
        }
    }

    #[test]
    fn a_profile_diffed_against_itself_is_all_zeros() {
        let a = costs(&[("main", 3), ("sieve", 40)]);
        let d = diff(&a, &a).expect("same rate");
        assert!(d.rows.iter().all(DiffRow::is_unchanged), "{d:?}");
        assert_eq!(d.total.samples, Change { base: 43, new: 43 });
    }

    #[test]
    fn rows_are_sorted_by_the_size_of_the_change_and_total_it() {
        let base = costs(&[("main", 3), ("sieve", 40), ("gone", 5)]);
        let new = costs(&[("main", 4), ("sieve", 20), ("added", 9)]);
        let d = diff(&base, &new).expect("same rate");
        let got: Vec<(&str, i128)> = d
            .rows
            .iter()
            .map(|r| (r.name.as_str(), r.samples.delta()))
            .collect();
        assert_eq!(
            got,
            [("sieve", -20), ("added", 9), ("gone", -5), ("main", 1)]
        );
        assert_eq!(d.total.samples.delta(), -15);
        let mut text = Vec::new();
        render_diff_folded(&d, "p", &mut text).expect("render");
        assert_eq!(
            String::from_utf8(text).expect("utf8"),
            "p;added 0 9\np;gone 5 0\np;main 3 4\np;sieve 40 20\n"
        );
    }

    #[test]
    fn shared_objects_get_totals_of_their_own() {
        let base = costs(&[
            ("main", 3),
            ("strlen@libc.so.1", 4),
            ("memcpy@libc.so.1", 1),
        ]);
        let new = costs(&[("main", 3), ("strlen@libc.so.1", 9)]);
        let d = diff(&base, &new).expect("same rate");
        let objects: Vec<(Option<&str>, i128)> = d
            .objects
            .iter()
            .map(|(o, c)| (o.as_deref(), c.delta()))
            .collect();
        assert_eq!(objects, [(None, 0), (Some("libc.so.1"), 4)]);
        let mut text = Vec::new();
        render_diff_text(&d, "prog", &mut text).expect("render");
        let text = String::from_utf8(text).expect("utf8");
        assert!(text.ends_with("         3          3          0  prog\n         5          9         +4  libc.so.1\n"), "{text}");
    }

    #[test]
    fn exact_costs_lead_the_order_and_different_clocks_are_refused() {
        let mut base = costs(&[("a", 10), ("b", 10)]);
        let mut new = base.clone();
        base.exact = Some([("a".into(), (100, 150)), ("b".into(), (100, 150))].into());
        new.exact = Some([("a".into(), (100, 150)), ("b".into(), (110, 170))].into());
        let d = diff(&base, &new).expect("same clocks");
        assert_eq!(d.rows[0].name, "b");
        assert_eq!(d.rows[0].instructions.map(Change::delta), Some(10));
        assert_eq!(d.total.cycles.map(Change::delta), Some(20));
        base.cpu_hz = Some(100_000_000);
        new.cpu_hz = Some(50_000_000);
        assert_eq!(
            diff(&base, &new),
            Err(DiffError::CpuClock {
                base: 100_000_000,
                new: 50_000_000
            })
        );
        new.rate_hz = 1000;
        assert_eq!(
            diff(&base, &new),
            Err(DiffError::Rate {
                base: 100,
                new: 1000
            })
        );
    }
}
