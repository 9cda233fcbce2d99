//! `--svg FILE`: the histogram drawn as a self-contained SVG (no scripts,
//! fonts, images or links: a browser shows it from a file).
//!
//! Contents
//! - [`render_svg`]: the drawing.
//! - [`xml_escape`]: text and attribute escaping.
//! - `Layout`: bins of all histograms laid side by side along the x axis.
//!
//! Address runs along x (histograms in address order, a dashed line where
//! one ends and a disjoint one begins), samples up y. When there are more
//! bins than pixel columns, neighbouring bins are summed into one column.
//! Every function with samples gets a shaded band; the busiest ones (as
//! many as fit without overlapping) are labelled above the plot, vertically. Each bar
//! and band carries a `<title>` tooltip with its addresses and count.

use std::io::{self, Write};

use crate::gmon::HistRecord;
use crate::report::charge::{charge, function_regions, AddrRange};

const WIDTH: f64 = 1200.0;
const HEIGHT: f64 = 560.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 30.0;
const TOP: f64 = 170.0;
const BOTTOM: f64 = 60.0;
const PLOT_W: f64 = WIDTH - LEFT - RIGHT;
const PLOT_H: f64 = HEIGHT - TOP - BOTTOM;
/// Labels closer than this (pixels) to one already placed are left out.
const LABEL_GAP: f64 = 14.0;
/// At most this many function labels.
const MAX_LABELS: usize = 60;

/// `s` escaped for XML text and attribute values.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 forbids: shown as U+FFFD.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// The histograms in address order, their bins numbered globally.
struct Layout<'a> {
    hists: Vec<&'a HistRecord>,
    /// Global index of each histogram's first bin.
    first_bin: Vec<u64>,
    total_bins: u64,
}

impl<'a> Layout<'a> {
    fn new(hists: &'a [HistRecord]) -> Self {
        let mut sorted: Vec<&HistRecord> = hists.iter().filter(|h| !h.bins.is_empty()).collect();
        sorted.sort_by_key(|h| h.low_pc);
        let mut first_bin = Vec::with_capacity(sorted.len());
        let mut total_bins = 0u64;
        for h in &sorted {
            first_bin.push(total_bins);
            total_bins += h.bins.len() as u64;
        }
        Layout {
            hists: sorted,
            first_bin,
            total_bins,
        }
    }

    /// x of the left edge of global bin position `pos` (fractional).
    fn x(&self, pos: f64) -> f64 {
        LEFT + pos * PLOT_W / self.total_bins.max(1) as f64
    }

    /// Global bin position of `addr`, if a histogram covers it (or ends at it).
    fn position(&self, addr: u64) -> Option<f64> {
        self.hists
            .iter()
            .zip(&self.first_bin)
            .find_map(|(h, &first)| {
                let (low, high) = (u64::from(h.low_pc), u64::from(h.high_pc));
                (low..=high).contains(&addr).then(|| {
                    first as f64
                        + (addr - low) as f64 * h.bins.len() as f64 / (high - low).max(1) as f64
                })
            })
    }

    /// The address range of global bin `i`.
    fn bin_range(&self, i: u64) -> (u64, u64) {
        let k = self
            .first_bin
            .partition_point(|&f| f <= i)
            .saturating_sub(1);
        let h = self.hists[k];
        h.bin_range((i - self.first_bin[k]) as usize)
    }

    fn count(&self, i: u64) -> u64 {
        let k = self
            .first_bin
            .partition_point(|&f| f <= i)
            .saturating_sub(1);
        self.hists[k]
            .bins
            .get((i - self.first_bin[k]) as usize)
            .copied()
            .unwrap_or(0)
    }
}

/// Draw `hists` with the functions of `symbols` marked and labelled.
pub fn render_svg(
    hists: &[HistRecord],
    symbols: &[crate::report::Symbol],
    out: &mut impl Write,
) -> io::Result<()> {
    let layout = Layout::new(hists);
    let n = layout.total_bins;
    let per_col = n.div_ceil(PLOT_W as u64).max(1);
    let columns = n.div_ceil(per_col);
    let sums: Vec<u64> = (0..columns)
        .map(|c| {
            (c * per_col..((c + 1) * per_col).min(n))
                .fold(0u64, |a, i| a.saturating_add(layout.count(i)))
        })
        .collect();
    let max = sums.iter().copied().max().unwrap_or(0).max(1);
    let total = hists.iter().fold(0u64, |a, h| a.saturating_add(h.total()));
    let rate = hists.first().map_or(0, |h| h.rate_hz);

    writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"11\">"
    )?;
    writeln!(
        out,
        "<rect x=\"0\" y=\"0\" width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"white\"/>"
    )?;
    writeln!(
        out,
        "<text x=\"{LEFT}\" y=\"20\" font-size=\"14\">Profile: {total} samples at {rate} Hz, \
         {per_col} bin(s) per column</text>"
    )?;

    // Function bands and labels.
    let upper = hists
        .iter()
        .map(|h| u64::from(h.high_pc))
        .max()
        .unwrap_or(0);
    let (regions, kept) = function_regions(symbols, upper);
    let charged = charge(hists, &regions).regions;
    let mut busy: Vec<(usize, u64)> = charged
        .iter()
        .copied()
        .enumerate()
        .filter(|&(_, c)| c > 0)
        .collect();
    busy.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut placed: Vec<f64> = Vec::new();
    for (rank, &(i, samples)) in busy.iter().enumerate() {
        let AddrRange { start, end } = regions[i];
        let (Some(p0), Some(p1)) = (
            layout.position(start.max(lowest(&layout))),
            layout.position(end.min(upper)),
        ) else {
            continue;
        };
        let (x0, x1) = (layout.x(p0), layout.x(p1));
        let name = xml_escape(&kept[i].name);
        let label = xml_escape(&short_label(&kept[i].name));
        let shade = if rank % 2 == 0 { "#e8eef7" } else { "#f4f0e6" };
        writeln!(
            out,
            "<rect x=\"{x0:.2}\" y=\"{TOP}\" width=\"{:.2}\" height=\"{PLOT_H}\" fill=\"{shade}\">\
             <title>{name} {start:#010x}-{end:#010x}: {samples} samples</title></rect>",
            (x1 - x0).max(0.5)
        )?;
        let mid = (x0 + x1) / 2.0;
        if placed.len() < MAX_LABELS && placed.iter().all(|&p| (p - mid).abs() >= LABEL_GAP) {
            placed.push(mid);
            writeln!(
                out,
                "<line x1=\"{mid:.2}\" y1=\"{:.2}\" x2=\"{mid:.2}\" y2=\"{TOP}\" stroke=\"#999\"/>\
                 <text x=\"{:.2}\" y=\"{:.2}\" transform=\"rotate(-90 {:.2} {:.2})\">{label}</text>",
                TOP - 6.0,
                mid + 4.0,
                TOP - 8.0,
                mid + 4.0,
                TOP - 8.0
            )?;
        }
    }

    // Bars.
    for (c, &sum) in sums.iter().enumerate().filter(|(_, &s)| s > 0) {
        let first = c as u64 * per_col;
        let last = ((c as u64 + 1) * per_col).min(n);
        let (x0, x1) = (layout.x(first as f64), layout.x(last as f64));
        let h = sum as f64 * PLOT_H / max as f64;
        let (lo, _) = layout.bin_range(first);
        let (_, hi) = layout.bin_range(last - 1);
        writeln!(
            out,
            "<rect x=\"{x0:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{h:.2}\" fill=\"#3465a4\">\
             <title>{lo:#010x}-{hi:#010x}: {sum} samples</title></rect>",
            TOP + PLOT_H - h,
            (x1 - x0).max(0.5)
        )?;
    }

    // Axes, address ticks at each histogram's ends, joins between histograms.
    let base = TOP + PLOT_H;
    writeln!(
        out,
        "<path d=\"M{LEFT} {TOP} V{base} H{:.2}\" fill=\"none\" stroke=\"black\"/>",
        LEFT + PLOT_W
    )?;
    for (k, h) in layout.hists.iter().enumerate() {
        let x0 = layout.x(layout.first_bin[k] as f64);
        let x1 = layout.x((layout.first_bin[k] + h.bins.len() as u64) as f64);
        if k > 0 {
            writeln!(
                out,
                "<line x1=\"{x0:.2}\" y1=\"{TOP}\" x2=\"{x0:.2}\" y2=\"{base}\" stroke=\"#c00\" stroke-dasharray=\"4 3\"/>"
            )?;
        }
        for (x, addr, anchor) in [(x0, h.low_pc, "start"), (x1, h.high_pc, "end")] {
            writeln!(
                out,
                "<line x1=\"{x:.2}\" y1=\"{base}\" x2=\"{x:.2}\" y2=\"{:.2}\" stroke=\"black\"/>\
                 <text x=\"{x:.2}\" y=\"{:.2}\" text-anchor=\"{anchor}\">{addr:#010x}</text>",
                base + 5.0,
                base + 18.0
            )?;
        }
    }
    for (frac, label) in [(0.0, 0), (0.5, max / 2), (1.0, max)] {
        let y = base - frac * PLOT_H;
        writeln!(
            out,
            "<line x1=\"{:.2}\" y1=\"{y:.2}\" x2=\"{LEFT}\" y2=\"{y:.2}\" stroke=\"black\"/>\
             <text x=\"{:.2}\" y=\"{:.2}\" text-anchor=\"end\">{label}</text>",
            LEFT - 5.0,
            LEFT - 8.0,
            y + 4.0
        )?;
    }
    writeln!(
        out,
        "<text x=\"{:.2}\" y=\"{:.2}\" text-anchor=\"middle\">address</text>\
         <text x=\"20\" y=\"{:.2}\" transform=\"rotate(-90 20 {:.2})\" text-anchor=\"middle\">samples per column</text>",
        LEFT + PLOT_W / 2.0,
        HEIGHT - 15.0,
        TOP + PLOT_H / 2.0,
        TOP + PLOT_H / 2.0
    )?;
    if total == 0 {
        writeln!(
            out,
            "<text x=\"{:.2}\" y=\"{:.2}\" text-anchor=\"middle\">no samples</text>",
            LEFT + PLOT_W / 2.0,
            TOP + PLOT_H / 2.0
        )?;
    }
    writeln!(out, "</svg>")
}

/// A label short enough for the space above the plot (vertical text at
/// 11 px, TOP - 8 px tall): at most 26 characters, else cut with '…'.
/// The band's tooltip keeps the full name.
fn short_label(name: &str) -> String {
    const MAX: usize = 26;
    if name.chars().count() <= MAX {
        name.to_string()
    } else {
        let mut s: String = name.chars().take(MAX - 1).collect();
        s.push('…');
        s
    }
}

/// The lowest address drawn (0 when nothing is).
fn lowest(layout: &Layout<'_>) -> u64 {
    layout.hists.first().map_or(0, |h| u64::from(h.low_pc))
}
