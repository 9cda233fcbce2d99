//! The flat profile as JSON, for scripts.
//!
//! Contents
//! - [`render_json`]: the document below.
//! - [`json_string`]: RFC 8259 string escaping.
//!
//! ```json
//! {
//!   "rate_hz": 100,
//!   "seconds_per_sample": 0.01,
//!   "total_samples": 1000,
//!   "functions": [
//!     {"name": "f3", "start": 4194560, "end": 4194816, "samples": 600,
//!      "seconds": 6, "percent": 60}
//!   ],
//!   "lines": [{"file": "prog.c", "line": 3, "samples": 600, "seconds": 6, "percent": 60}]
//! }
//! ```
//! With `--exact` each function also has "exact_cycles", "exact_percent" and
//! "difference" (sampled minus exact percent), and the document "total_cycles".
//! "objects" (per-object totals, see [`render_json_with_objects`]) is
//! present only for profiles that reach beyond the program.
//! "lines" is present only when line information was asked for and found;
//! their "percent" is of all samples (those without a line are not listed).

use std::fmt::Write as _;
use std::io::{self, Write};

use crate::report::flat::total_samples;
use crate::report::text::{percent, seconds};
use crate::report::{FlatEntry, LineEntry, ObjectTotal};

/// `s` as a JSON string literal.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A finite f64 as a JSON number (JSON has no NaN or infinity: those become 0).
fn number(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        "0".to_string()
    }
}

/// Write the profile of `entries` (and `lines`, if given) as one JSON document.
pub fn render_json(
    entries: &[FlatEntry],
    rate_hz: u32,
    lines: Option<&[LineEntry]>,
    out: &mut impl Write,
) -> io::Result<()> {
    render_json_with_objects(entries, rate_hz, lines, &[], out)
}

/// [`render_json`] plus, when `objects` is not empty, an "objects" array:
/// `{"name": "libc.so.1", "path": "/usr/lib/libc.so.1", "samples": 100,
/// "percent": 10}` per object, the program first. Functions of objects
/// other than the program are named `function@object` in "functions".
pub fn render_json_with_objects(
    entries: &[FlatEntry],
    rate_hz: u32,
    lines: Option<&[LineEntry]>,
    objects: &[ObjectTotal],
    out: &mut impl Write,
) -> io::Result<()> {
    let total = total_samples(entries);
    let exact = entries.iter().any(|e| e.exact_cycles.is_some());
    let total_cycles = entries
        .iter()
        .fold(0u64, |a, e| a.saturating_add(e.exact_cycles.unwrap_or(0)));
    writeln!(out, "{{")?;
    writeln!(out, "  \"rate_hz\": {rate_hz},")?;
    writeln!(
        out,
        "  \"seconds_per_sample\": {},",
        number(seconds(1, rate_hz))
    )?;
    writeln!(out, "  \"total_samples\": {total},")?;
    if exact {
        writeln!(out, "  \"total_cycles\": {total_cycles},")?;
    }
    write!(out, "  \"functions\": [")?;
    for (i, e) in entries.iter().enumerate() {
        let sep = if i == 0 { "\n" } else { ",\n" };
        let sampled = percent(e.samples, total);
        write!(
            out,
            "{sep}    {{\"name\": {}, \"start\": {}, \"end\": {}, \"samples\": {}, \"seconds\": {}, \"percent\": {}",
            json_string(&e.name),
            e.start,
            e.end,
            e.samples,
            number(seconds(e.samples, rate_hz)),
            number(sampled)
        )?;
        if let Some(cycles) = e.exact_cycles {
            let exact = percent(cycles, total_cycles);
            write!(
                out,
                ", \"exact_cycles\": {cycles}, \"exact_percent\": {}, \"difference\": {}",
                number(exact),
                number(sampled - exact)
            )?;
        }
        write!(out, "}}")?;
    }
    write!(out, "{}]", if entries.is_empty() { "" } else { "\n  " })?;
    if !objects.is_empty() {
        let all = objects
            .iter()
            .fold(0u64, |a, o| a.saturating_add(o.samples));
        write!(out, ",\n  \"objects\": [")?;
        for (i, o) in objects.iter().enumerate() {
            let sep = if i == 0 { "\n" } else { ",\n" };
            write!(
                out,
                "{sep}    {{\"name\": {}, \"path\": {}, \"samples\": {}, \"percent\": {}}}",
                json_string(&o.name),
                json_string(&o.path),
                o.samples,
                number(percent(o.samples, all))
            )?;
        }
        write!(out, "\n  ]")?;
    }
    if let Some(lines) = lines {
        write!(out, ",\n  \"lines\": [")?;
        for (i, l) in lines.iter().enumerate() {
            let sep = if i == 0 { "\n" } else { ",\n" };
            write!(
                out,
                "{sep}    {{\"file\": {}, \"line\": {}, \"samples\": {}, \"seconds\": {}, \"percent\": {}}}",
                json_string(&l.file),
                l.line,
                l.samples,
                number(seconds(l.samples, rate_hz)),
                number(percent(l.samples, total))
            )?;
        }
        write!(out, "{}]", if lines.is_empty() { "" } else { "\n  " })?;
    }
    writeln!(out, "\n}}")
}
