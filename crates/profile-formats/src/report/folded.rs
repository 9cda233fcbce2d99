//! Folded stacks for flame-graph tools (Brendan Gregg's flamegraph.pl format:
//! one stack per line, frames joined by ';', then a space and the count).
//!
//! Contents
//! - [`render_folded`]: one line per function with samples.
//! - [`render_folded_stacks`]: one line per distinct real stack (`prof
//!   --callgraph`).
//! - [`frame_name`]: a symbol name made safe as a frame.
//!
//! A histogram alone has no call graph, so [`render_folded`] gives each
//! function alone, optionally under a root frame naming the program
//! ("prog;f3 600"); with the real stacks every line is a whole stack.

use std::io::{self, Write};

use crate::report::FlatEntry;

/// A name usable as one frame: ';' separates frames and a newline ends the
/// line, so both become ':' and ' ' (C symbol names contain neither).
pub fn frame_name(name: &str) -> String {
    name.replace(';', ":").replace(['\n', '\r'], " ")
}

/// Write "name count" (or "program;name count") for every entry with samples,
/// in the order given.
pub fn render_folded(
    entries: &[FlatEntry],
    program: Option<&str>,
    out: &mut impl Write,
) -> io::Result<()> {
    for e in entries.iter().filter(|e| e.samples > 0) {
        match program {
            Some(p) => writeln!(
                out,
                "{};{} {}",
                frame_name(p),
                frame_name(&e.name),
                e.samples
            )?,
            None => writeln!(out, "{} {}", frame_name(&e.name), e.samples)?,
        }
    }
    Ok(())
}

/// Write "program;f1;f2;...;leaf count" for every distinct stack (names
/// root first), in name order.
pub fn render_folded_stacks(
    stacks: &std::collections::BTreeMap<Vec<String>, u64>,
    program: &str,
    out: &mut impl Write,
) -> io::Result<()> {
    for (stack, n) in stacks.iter().filter(|(_, &n)| n > 0) {
        let frames: Vec<String> = std::iter::once(program)
            .chain(stack.iter().map(String::as_str))
            .map(frame_name)
            .collect();
        writeln!(out, "{} {n}", frames.join(";"))?;
    }
    Ok(())
}
