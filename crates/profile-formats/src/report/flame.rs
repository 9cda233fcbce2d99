//! A flame graph of real stacks as a self-contained SVG (no scripts, fonts,
//! images or links), laid out as Brendan Gregg's flamegraph.pl does: the
//! root at the bottom, each frame as wide as its samples, children above
//! their caller in name order.
//!
//! Contents: [`render_flame_svg`].

use std::collections::BTreeMap;
use std::io::{self, Write};

use crate::report::svg::xml_escape;

const WIDTH: f64 = 1200.0;
const PAD: f64 = 10.0;
const FRAME_H: f64 = 16.0;
const TITLE_H: f64 = 30.0;
/// Frames narrower than this (pixels) are left out, as flamegraph.pl does.
const MIN_WIDTH: f64 = 0.1;

#[derive(Default)]
struct Node {
    samples: u64,
    children: BTreeMap<String, Node>,
}

impl Node {
    fn depth(&self) -> usize {
        1 + self.children.values().map(Node::depth).max().unwrap_or(0)
    }
}

/// A warm colour from the name (same name, same colour).
fn colour(name: &str) -> String {
    let h = name.bytes().fold(2166136261u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(16777619)
    });
    let r = 205 + (h % 50);
    let g = 80 + ((h >> 8) % 150);
    let b = (h >> 16) % 55;
    format!("rgb({r},{g},{b})")
}

/// Draws `stacks` (frame names root first, with sample counts) under a root
/// frame named `root`.
pub fn render_flame_svg(
    stacks: &BTreeMap<Vec<String>, u64>,
    root: &str,
    rate_hz: u32,
    out: &mut impl Write,
) -> io::Result<()> {
    let mut tree = Node::default();
    for (stack, &n) in stacks {
        tree.samples += n;
        let mut node = &mut tree;
        for name in stack {
            node = node.children.entry(name.clone()).or_default();
            node.samples += n;
        }
    }
    let depth = tree.depth();
    let height = TITLE_H + depth as f64 * FRAME_H + 2.0 * PAD;
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="Verdana, sans-serif" font-size="12">"#
    )?;
    writeln!(
        out,
        r#"<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="rgb(250,250,235)"/>"#
    )?;
    writeln!(
        out,
        r#"<text x="{}" y="20" text-anchor="middle" font-size="16">Flame graph: {} ({} samples)</text>"#,
        WIDTH / 2.0,
        xml_escape(root),
        tree.samples
    )?;
    let per_sample = if tree.samples == 0 {
        0.0
    } else {
        (WIDTH - 2.0 * PAD) / tree.samples as f64
    };
    let ctx = Ctx {
        per_sample,
        total: tree.samples,
        rate_hz,
        bottom: height - PAD,
    };
    draw(&ctx, root, &tree, PAD, 0, out)?;
    writeln!(out, "</svg>")
}

struct Ctx {
    per_sample: f64,
    total: u64,
    rate_hz: u32,
    /// y of the bottom edge of the root frame.
    bottom: f64,
}

fn draw(
    ctx: &Ctx,
    name: &str,
    node: &Node,
    x: f64,
    level: usize,
    out: &mut impl Write,
) -> io::Result<()> {
    let w = node.samples as f64 * ctx.per_sample;
    if w < MIN_WIDTH {
        return Ok(());
    }
    let y = ctx.bottom - (level as f64 + 1.0) * FRAME_H;
    let pct = if ctx.total == 0 {
        0.0
    } else {
        100.0 * node.samples as f64 / ctx.total as f64
    };
    let secs = node.samples as f64 / f64::from(ctx.rate_hz.max(1));
    let name_x = xml_escape(name);
    writeln!(
        out,
        r#"<g><title>{name_x} ({} samples, {secs:.3} s, {pct:.2}%)</title><rect x="{x:.2}" y="{y:.2}" width="{w:.2}" height="{}" fill="{}" rx="2"/>"#,
        node.samples,
        FRAME_H - 1.0,
        colour(name)
    )?;
    // About 7 pixels per character at 12 px.
    let fits = ((w - 6.0) / 7.0).floor().max(0.0) as usize;
    if fits >= 3 {
        let chars: Vec<char> = name.chars().collect();
        let label: String = if chars.len() <= fits {
            name.to_string()
        } else {
            chars[..fits - 2].iter().collect::<String>() + ".."
        };
        writeln!(
            out,
            r#"<text x="{:.2}" y="{:.2}">{}</text>"#,
            x + 3.0,
            y + FRAME_H - 4.0,
            xml_escape(&label)
        )?;
    }
    writeln!(out, "</g>")?;
    let mut cx = x;
    for (child_name, child) in &node.children {
        draw(ctx, child_name, child, cx, level + 1, out)?;
        cx += child.samples as f64 * ctx.per_sample;
    }
    Ok(())
}
