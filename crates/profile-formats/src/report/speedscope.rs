//! Speedscope's file format (<https://www.speedscope.app/file-format-schema.json>):
//! one "sampled" profile, a sample per distinct real stack, weighted in
//! nanoseconds (samples x 10^9 / rate).
//!
//! Contents: [`render_speedscope`].

use std::collections::BTreeMap;
use std::io::{self, Write};

use crate::report::json::json_string;
use crate::report::stacks::{Func, Functions};

/// `stacks` are function stacks, root first, with sample counts.
pub fn render_speedscope(
    stacks: &BTreeMap<Vec<Func>, u64>,
    functions: &Functions<'_>,
    program: &str,
    rate_hz: u32,
    out: &mut impl Write,
) -> io::Result<()> {
    let period = 1_000_000_000u64 / u64::from(rate_hz.max(1));
    let mut frame_index: BTreeMap<Func, usize> = BTreeMap::new();
    let mut frames: Vec<Func> = Vec::new();
    let mut samples = Vec::new();
    let mut weights = Vec::new();
    for (stack, &n) in stacks {
        let ids: Vec<String> = stack
            .iter()
            .map(|f| {
                let i = *frame_index.entry(*f).or_insert_with(|| {
                    frames.push(*f);
                    frames.len() - 1
                });
                i.to_string()
            })
            .collect();
        samples.push(format!("[{}]", ids.join(",")));
        weights.push((n * period).to_string());
    }
    let total: u64 = stacks.values().map(|n| n * period).sum();
    let frames: Vec<String> = frames
        .iter()
        .map(|f| format!("{{\"name\":{}}}", json_string(&functions.name(*f))))
        .collect();
    let name = json_string(program);
    writeln!(out, "{{")?;
    writeln!(
        out,
        "  \"$schema\": \"https://www.speedscope.app/file-format-schema.json\","
    )?;
    writeln!(out, "  \"exporter\": \"irix-emu\",")?;
    writeln!(out, "  \"name\": {name},")?;
    writeln!(out, "  \"activeProfileIndex\": 0,")?;
    writeln!(out, "  \"shared\": {{\"frames\": [{}]}},", frames.join(","))?;
    writeln!(out, "  \"profiles\": [{{")?;
    writeln!(
        out,
        "    \"type\": \"sampled\", \"name\": {name}, \"unit\": \"nanoseconds\","
    )?;
    writeln!(out, "    \"startValue\": 0, \"endValue\": {total},")?;
    writeln!(out, "    \"samples\": [{}],", samples.join(","))?;
    writeln!(out, "    \"weights\": [{}]", weights.join(","))?;
    writeln!(out, "  }}]")?;
    writeln!(out, "}}")
}
