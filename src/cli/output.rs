//! The report formats `prof` and `report` share: the call graph, folded
//! stacks, callgrind, pprof, speedscope and the SVG, drawn from one
//! [`ProfileView`] (histograms, gmon.out arcs, and the call-graph sidecar's
//! stacks and exact costs when there are any).

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::args::Format;
use super::Failure;
use crate::exit;
use profile_formats::callgraph::{CallArcRecord, CallProfile};
use profile_formats::files::TempFiles;
use profile_formats::gmon::{CallArc, HistRecord, PcRange};
use profile_formats::report::callgrind::{render_callgrind, CallSite, Callgrind};
use profile_formats::report::graph::{render_call_graph, GraphInput};
use profile_formats::report::stacks::{function_costs, named_stacks, Func, Functions};
use profile_formats::report::{self, Symbol};

/// Everything a profile report is drawn from.
pub struct ProfileView<'a> {
    /// The program as named on the command line.
    pub name: &'a str,
    /// Its ELF bytes (DWARF lines for callgrind).
    pub elf: &'a [u8],
    pub symbols: &'a [Symbol],
    pub texts: &'a [PcRange],
    pub hists: &'a [HistRecord],
    pub rate_hz: u32,
    /// gmon.out's arcs (used when there is no sidecar).
    pub arcs: &'a [CallArc],
    pub call: Option<&'a CallProfile>,
    /// The processes' timed samples (`prof --format firefox`).
    pub timeline: Option<&'a report::firefox::Timeline>,
}

impl<'a> ProfileView<'a> {
    fn upper(&self) -> u64 {
        let t = self.texts.iter().map(|t| u64::from(t.high));
        let h = self.hists.iter().map(|h| u64::from(h.high_pc));
        t.chain(h).max().unwrap_or(0)
    }

    pub fn functions(&self) -> Functions<'a> {
        Functions::new(self.symbols, self.upper())
    }

    /// The real stacks, or without them each histogram bin as a one-frame
    /// stack at the bin's first address.
    fn stacks(&self) -> Vec<(Vec<u32>, u64)> {
        match self.call {
            Some(c) => c.stacks.clone(),
            None => self
                .hists
                .iter()
                .flat_map(|h| {
                    h.bins
                        .iter()
                        .enumerate()
                        .filter(|(_, &n)| n > 0)
                        .map(|(i, &n)| (vec![h.bin_range(i).0 as u32], n))
                })
                .collect(),
        }
    }

    fn named(&self, f: &Functions<'_>) -> BTreeMap<Vec<Func>, u64> {
        let p = CallProfile {
            stacks: self.stacks(),
            ..Default::default()
        };
        named_stacks(&p, f)
    }

    fn named_strings(&self, f: &Functions<'_>) -> BTreeMap<Vec<String>, u64> {
        let mut m = BTreeMap::new();
        for (stack, n) in self.named(f) {
            let names: Vec<String> = stack.iter().map(|&x| f.name(x)).collect();
            *m.entry(names).or_insert(0) += n;
        }
        m
    }

    /// The report in `format`: text is the flat profile followed by the
    /// call graph when there is one; json is the flat profile.
    pub fn render(&self, format: Format, mut out: &mut dyn Write) -> io::Result<()> {
        let flat = || report::flat_profile(self.hists, self.symbols);
        match format {
            Format::Text => {
                report::render_text(&flat(), self.rate_hz, &mut out)?;
                if self.has_call_graph() {
                    writeln!(out)?;
                    self.render_call_graph(&mut out)?;
                }
                Ok(())
            }
            Format::Json => report::render_json(&flat(), self.rate_hz, None, &mut out),
            Format::Folded => self.render_folded(&mut out),
            Format::Callgrind => self.render_callgrind(&mut out),
            Format::Pprof => self.render_pprof(&mut out),
            Format::Speedscope => self.render_speedscope(&mut out),
            Format::Firefox => match self.timeline {
                Some(t) => report::firefox::render_firefox(t, &mut out),
                None => Err(io::Error::other(
                    "no timeline: it is recorded by prof --format firefox",
                )),
            },
        }
    }

    /// Whether there is a call graph to print.
    pub fn has_call_graph(&self) -> bool {
        self.call.is_some() || !self.arcs.is_empty()
    }

    /// The gprof -q style call graph.
    pub fn render_call_graph(&self, out: &mut impl Write) -> io::Result<()> {
        let f = self.functions();
        let mut arcs: BTreeMap<(Func, Func, bool), u64> = BTreeMap::new();
        match self.call {
            Some(c) => {
                for a in &c.arcs {
                    *arcs
                        .entry((f.of(a.site), f.of(a.callee), a.signal))
                        .or_insert(0) += a.calls;
                }
            }
            None => {
                for a in self.arcs {
                    *arcs
                        .entry((f.of(a.from_pc), f.of(a.self_pc), false))
                        .or_insert(0) += u64::from(a.count);
                }
            }
        }
        let (costs, self_samples, total) = match self.call {
            Some(_) => {
                let c = function_costs(&self.named(&f));
                let total = c.self_samples.values().sum();
                let s = c.self_samples.clone();
                (Some(c), s, total)
            }
            None => {
                let mut s = BTreeMap::new();
                for e in report::flat_profile(self.hists, self.symbols) {
                    *s.entry(f.of(e.start)).or_insert(0) += e.samples;
                }
                let total = s.values().sum();
                (None, s, total)
            }
        };
        let g = GraphInput {
            functions: &f,
            arcs: arcs
                .into_iter()
                .map(|((a, b, s), n)| (a, b, n, s))
                .collect(),
            self_samples,
            costs,
            total_samples: total,
            rate_hz: self.rate_hz,
        };
        render_call_graph(&g, out)
    }

    /// One line per distinct stack (or per function without stacks).
    pub fn render_folded(&self, out: &mut impl Write) -> io::Result<()> {
        match self.call {
            Some(_) => {
                report::render_folded_stacks(&self.named_strings(&self.functions()), self.name, out)
            }
            None => report::render_folded(
                &report::flat_profile(self.hists, self.symbols),
                Some(self.name),
                out,
            ),
        }
    }

    pub fn render_speedscope(&self, out: &mut impl Write) -> io::Result<()> {
        let f = self.functions();
        report::speedscope::render_speedscope(&self.named(&f), &f, self.name, self.rate_hz, out)
    }

    pub fn render_pprof(&self, out: &mut impl Write) -> io::Result<()> {
        let f = self.functions();
        let low = self.texts.iter().map(|t| t.low).min().unwrap_or(0);
        let high = self.texts.iter().map(|t| t.high).max().unwrap_or(0);
        let stacks = self.stacks();
        let mut pcs: Vec<u32> = stacks.iter().flat_map(|(s, _)| s.iter().copied()).collect();
        pcs.extend(pcs.clone().into_iter().map(|pc| f.range(f.of(pc)).0));
        pcs.sort_unstable();
        pcs.dedup();
        let frames: BTreeMap<u32, Vec<report::InlineFrame>> = report::source_frames(self.elf, &pcs)
            .map(|fs| pcs.iter().copied().zip(fs).collect())
            .unwrap_or_default();
        let frames_of = |pc: u32| frames.get(&pc).cloned().unwrap_or_default();
        let p = report::pprof::build_profile(
            &stacks,
            &f,
            self.name,
            (low, high),
            self.rate_hz,
            &frames_of,
        );
        report::pprof::render_pprof(&p, out)
    }

    /// The file and line of each of `pcs` that has one in the program's
    /// DWARF line table (none without one).
    fn source_lines(&self, mut pcs: Vec<u32>) -> BTreeMap<u32, (String, u32)> {
        pcs.sort_unstable();
        pcs.dedup();
        report::source_lines(self.elf, &pcs)
            .map(|ls| {
                pcs.iter()
                    .zip(ls)
                    .filter_map(|(&pc, l)| l.map(|l| (pc, (l.file, l.line))))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Callgrind: exact instructions and cycles when the sidecar has them,
    /// samples otherwise.
    pub fn render_callgrind(&self, out: &mut impl Write) -> io::Result<()> {
        let f = self.functions();
        let cg = match self.call {
            Some(c) if !c.exact.is_empty() => exact_callgrind(c),
            _ => self.sampled_callgrind(&f),
        };
        let mut pcs: Vec<u32> = cg.self_costs.keys().copied().collect();
        pcs.extend(cg.calls.iter().flat_map(|c| [c.site, c.callee]));
        pcs.extend(cg.self_costs.keys().map(|&pc| f.range(f.of(pc)).0));
        let lines = self.source_lines(pcs);
        render_callgrind(&cg, &f, self.name, &|pc| lines.get(&pc).cloned(), out)
    }

    fn sampled_callgrind(&self, f: &Functions<'_>) -> Callgrind {
        let stacks = self.stacks();
        let mut self_costs: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
        // Inclusive samples per (call site, callee function), once per sample.
        let mut inclusive: BTreeMap<(u32, Func), u64> = BTreeMap::new();
        for (stack, n) in &stacks {
            if let Some(&leaf) = stack.last() {
                self_costs.entry(leaf).or_insert_with(|| vec![0])[0] += n;
            }
            let mut pairs: Vec<(u32, Func)> =
                stack.windows(2).map(|w| (w[0], f.of(w[1]))).collect();
            pairs.sort();
            pairs.dedup();
            for p in pairs {
                *inclusive.entry(p).or_insert(0) += n;
            }
        }
        let calls = match self.call {
            Some(c) => c
                .arcs
                .iter()
                .map(|a| {
                    let samples = inclusive.get(&(a.site, f.of(a.callee)));
                    call_site(a, vec![samples.copied().unwrap_or(0)])
                })
                .collect(),
            None => self
                .arcs
                .iter()
                .map(|a| CallSite {
                    site: a.from_pc,
                    callee: a.self_pc,
                    calls: u64::from(a.count),
                    inclusive: vec![0],
                })
                .collect(),
        };
        Callgrind {
            events: vec!["Samples"],
            self_costs,
            calls,
        }
    }

    /// The SVG: a flame graph of the real stacks, or the histogram without them.
    pub fn render_svg(&self, out: &mut impl Write) -> io::Result<()> {
        match self.call {
            Some(_) => report::flame::render_flame_svg(
                &self.named_strings(&self.functions()),
                self.name,
                self.rate_hz,
                out,
            ),
            None => report::render_svg(self.hists, self.symbols, out),
        }
    }
}

fn exact_callgrind(c: &CallProfile) -> Callgrind {
    Callgrind {
        events: vec!["Ir", "Cycles"],
        self_costs: c
            .exact
            .iter()
            .map(|e| (e.pc, vec![e.instructions, e.cycles]))
            .collect(),
        calls: c
            .arcs
            .iter()
            .map(|a| call_site(a, vec![a.instructions, a.cycles]))
            .collect(),
    }
}

/// A sidecar arc as a callgrind call site with these inclusive costs.
fn call_site(a: &CallArcRecord, inclusive: Vec<u64>) -> CallSite {
    CallSite {
        site: a.site,
        callee: a.callee,
        calls: a.calls,
        inclusive,
    }
}

/// Renders into memory, then writes `path` atomically (a temporary file
/// beside it, noted in `temps`, renamed): never a half-written file.
pub fn write_report(
    temps: &TempFiles,
    path: &std::path::Path,
    render: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), Failure> {
    let mut buf = Vec::new();
    render(&mut buf)
        .map_err(|e| Failure::new(exit::EMULATOR_FAILURE, format!("{}: {e}", path.display())))?;
    temps
        .write_atomically(path, &buf)
        .map_err(|e| cannot_write(path, &e))
}

/// "FILE: cannot write: REASON", status 125.
pub fn cannot_write(path: &std::path::Path, e: &io::Error) -> Failure {
    Failure::new(
        exit::EMULATOR_FAILURE,
        format!(
            "{}: cannot write: {}",
            path.display(),
            super::launch::io_message(e)
        ),
    )
}
