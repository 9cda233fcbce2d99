//! Text reports: the gprof -p style flat profile and the `--exact` comparison.
//!
//! Contents
//! - [`render_text`]: "Flat profile:" with % time, cumulative and self seconds,
//!   samples and name, in the columns of gprof's flat profile (gprof manual,
//!   "The Flat Profile"; calls columns replaced by samples: no call counts here).
//! - [`render_exact_comparison`]: per function, sampled share, exact share,
//!   their difference, and the total sampling error.
//! - [`seconds_per_sample`], [`percent`]: small helpers the other formats share.

use std::io::{self, Write};

use crate::report::flat::total_samples;
use crate::report::FlatEntry;

/// The two header lines of the flat profile.
pub const FLAT_HEADER: &str =
    "  %   cumulative   self              \n time   seconds   seconds    samples  name\n";

/// `1 / rate_hz` printed as C's "%g" would (gprof: "Each sample counts as %g
/// seconds"): six significant digits, trailing zeros dropped.
pub fn seconds_per_sample(rate_hz: u32) -> String {
    if rate_hz == 0 {
        return "0".to_string();
    }
    let x = 1.0 / f64::from(rate_hz);
    let digits_before = x.log10().floor() as i32 + 1;
    let decimals = (6 - digits_before).max(0) as usize;
    let s = format!("{x:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// `part` as a percentage of `whole` (0 when there is no whole).
pub fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}

/// Samples converted to seconds at `rate_hz`.
pub fn seconds(samples: u64, rate_hz: u32) -> f64 {
    if rate_hz == 0 {
        0.0
    } else {
        samples as f64 / f64::from(rate_hz)
    }
}

/// Print the flat profile of `entries` (already sorted, see
/// [`crate::report::flat_profile`]):
///
/// ```text
/// Flat profile:
///
/// Each sample counts as 0.01 seconds.
///   %   cumulative   self
///  time   seconds   seconds    samples  name
///  60.00      0.06     0.06          6  f1
/// ```
pub fn render_text(entries: &[FlatEntry], rate_hz: u32, out: &mut impl Write) -> io::Result<()> {
    let total = total_samples(entries);
    writeln!(out, "Flat profile:\n")?;
    writeln!(
        out,
        "Each sample counts as {} seconds.",
        seconds_per_sample(rate_hz)
    )?;
    out.write_all(FLAT_HEADER.as_bytes())?;
    let mut cumulative = 0u64;
    for e in entries {
        cumulative = cumulative.saturating_add(e.samples);
        writeln!(
            out,
            "{:6.2} {:9.2} {:8.2} {:10}  {}",
            percent(e.samples, total),
            seconds(cumulative, rate_hz),
            seconds(e.samples, rate_hz),
            e.samples,
            e.name
        )?;
    }
    if total == 0 {
        writeln!(out, "\nNo time accumulated (no samples in the profile).")?;
    }
    Ok(())
}

/// The `--exact` report: for each function its share of the sampled ticks,
/// its share of the retired cycles, and the difference in percentage points
/// (sampled minus exact), sorted by exact cycles, most first. Ends with the
/// total sampling error: half the sum of the absolute differences, i.e. the
/// share of the samples that landed on the wrong function.
pub fn render_exact_comparison(entries: &[FlatEntry], out: &mut impl Write) -> io::Result<()> {
    let total_samples = total_samples(entries);
    let total_cycles = entries
        .iter()
        .fold(0u64, |a, e| a.saturating_add(e.exact_cycles.unwrap_or(0)));
    let mut sorted: Vec<&FlatEntry> = entries.iter().collect();
    sorted.sort_by(|a, b| {
        b.exact_cycles
            .cmp(&a.exact_cycles)
            .then(b.samples.cmp(&a.samples))
            .then(a.start.cmp(&b.start))
            .then(a.name.cmp(&b.name))
    });
    writeln!(
        out,
        "Sampled and exact profiles (exact: every retired cycle charged to its PC)\n"
    )?;
    writeln!(
        out,
        " sampled %   exact %  difference     samples          cycles  name"
    )?;
    let mut error = 0.0;
    for e in sorted {
        let cycles = e.exact_cycles.unwrap_or(0);
        let sampled = percent(e.samples, total_samples);
        let exact = percent(cycles, total_cycles);
        error += (sampled - exact).abs();
        writeln!(
            out,
            "{:10.2} {:9.2} {:+11.2} {:11} {:15}  {}",
            sampled,
            exact,
            sampled - exact,
            e.samples,
            cycles,
            e.name
        )?;
    }
    writeln!(
        out,
        "\nSampling error: {:.2}% of the samples fell on other functions than the cycles \
         (half the sum of |difference|); {} samples, {} cycles.",
        error / 2.0,
        total_samples,
        total_cycles
    )
}
