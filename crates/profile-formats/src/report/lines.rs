//! Source lines from the program's DWARF line table (`--lines`).
//!
//! Contents
//! - [`SourceLine`], [`LineEntry`]: a file:line, and one with its samples.
//! - [`source_lines`]: file:line for each of a list of addresses.
//! - [`source_frames`]: the same with the functions inlined there
//!   ([`InlineFrame`]), innermost first.
//! - [`line_profile`]: the histograms charged to source lines.
//! - [`render_lines_text`]: the per-line table printed after the flat profile.
//!
//! The ELF's sections are found with goblin and handed to gimli; addr2line
//! (gimli's own line-table lookup) answers the address queries. A program
//! without a .debug_line section, or whose DWARF does not parse, has no line
//! information: the functions return None rather than an error, since
//! `--lines` on a stripped binary is a request we can only decline.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, Write};

use addr2line::gimli::{self, EndianSlice, RunTimeEndian, SectionId};
use addr2line::Context;
use goblin::elf::{section_header::SHT_NOBITS, Elf};

use crate::gmon::HistRecord;
use crate::report::charge::{charge, AddrRange};
use crate::report::text::{percent, seconds};

/// A place in the source.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct SourceLine {
    /// The file as the compiler recorded it (joined to its directory).
    pub file: String,
    pub line: u32,
}

/// Samples charged to one source line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineEntry {
    pub file: String,
    pub line: u32,
    pub samples: u64,
}

type Reader<'a> = EndianSlice<'a, RunTimeEndian>;

/// The DWARF sections of `elf_bytes` as an addr2line context, or None.
fn context(elf_bytes: &[u8]) -> Option<Context<Reader<'_>>> {
    let elf = Elf::parse(elf_bytes).ok()?;
    let endian = if elf.little_endian {
        RunTimeEndian::Little
    } else {
        RunTimeEndian::Big
    };
    let section = |name: &str| -> &[u8] {
        elf.section_headers
            .iter()
            .find(|sh| elf.shdr_strtab.get_at(sh.sh_name) == Some(name) && sh.sh_type != SHT_NOBITS)
            .and_then(|sh| {
                let start = usize::try_from(sh.sh_offset).ok()?;
                let end = start.checked_add(usize::try_from(sh.sh_size).ok()?)?;
                elf_bytes.get(start..end)
            })
            .unwrap_or(&[])
    };
    if section(".debug_line").is_empty() {
        return None;
    }
    let load = |id: SectionId| -> Result<Reader<'_>, gimli::Error> {
        Ok(EndianSlice::new(section(id.name()), endian))
    };
    let dwarf = gimli::Dwarf::load(load).ok()?;
    Context::from_dwarf(dwarf).ok()
}

fn to_line(file: Option<&str>, line: Option<u32>) -> Option<SourceLine> {
    Some(SourceLine {
        file: Cow::from(file?).into_owned(),
        line: line?,
    })
}

/// The source line of each address (None for an address without one), or
/// None when the program has no DWARF line information.
pub fn source_lines(elf_bytes: &[u8], addrs: &[u32]) -> Option<Vec<Option<SourceLine>>> {
    let ctx = context(elf_bytes)?;
    Some(
        addrs
            .iter()
            .map(|&a| {
                ctx.find_location(u64::from(a))
                    .ok()
                    .flatten()
                    .and_then(|l| to_line(l.file, l.line))
            })
            .collect(),
    )
}

/// One frame at an address: a function inlined there, or (last) the
/// function whose code it is, with the source line it stands at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InlineFrame {
    /// The function's name in DWARF (None when it has none).
    pub function: Option<String>,
    pub line: Option<SourceLine>,
}

/// The frames at each address, the innermost inlined function first and
/// the function that holds the code last (a single frame where nothing is
/// inlined; none for an address DWARF does not cover), or None when the
/// program has no DWARF line information.
pub fn source_frames(elf_bytes: &[u8], addrs: &[u32]) -> Option<Vec<Vec<InlineFrame>>> {
    let ctx = context(elf_bytes)?;
    Some(
        addrs
            .iter()
            .map(|&a| {
                let mut frames = Vec::new();
                let Ok(mut iter) = ctx.find_frames(u64::from(a)).skip_all_loads() else {
                    return frames;
                };
                while let Ok(Some(f)) = iter.next() {
                    frames.push(InlineFrame {
                        function: f
                            .function
                            .and_then(|n| n.raw_name().ok().map(Cow::into_owned)),
                        line: f.location.and_then(|l| to_line(l.file, l.line)),
                    });
                }
                frames
            })
            .collect(),
    )
}

/// The samples of `hists` per source line, most first (then by file and
/// line), lines without samples left out; None without line information.
/// A bin is split over the line-table ranges it covers, as over functions.
pub fn line_profile(elf_bytes: &[u8], hists: &[HistRecord]) -> Option<Vec<LineEntry>> {
    let ctx = context(elf_bytes)?;
    let mut ranges: Vec<(AddrRange, SourceLine)> = Vec::new();
    for h in hists {
        let Ok(iter) = ctx.find_location_range(u64::from(h.low_pc), u64::from(h.high_pc)) else {
            continue;
        };
        for (addr, len, loc) in iter {
            if let Some(line) = to_line(loc.file, loc.line) {
                ranges.push((
                    AddrRange {
                        start: addr,
                        end: addr.saturating_add(len),
                    },
                    line,
                ));
            }
        }
    }
    ranges.sort();
    ranges.dedup_by(|b, a| b.0 == a.0);
    // Keep the regions non-overlapping: a later range starts where the
    // previous one ended.
    let mut regions: Vec<AddrRange> = Vec::with_capacity(ranges.len());
    let mut lines: Vec<SourceLine> = Vec::with_capacity(ranges.len());
    for (mut r, line) in ranges {
        if let Some(prev) = regions.last() {
            r.start = r.start.max(prev.end);
        }
        if r.end > r.start {
            regions.push(r);
            lines.push(line);
        }
    }
    let charges = charge(hists, &regions);
    let mut per_line: BTreeMap<SourceLine, u64> = BTreeMap::new();
    for (line, n) in lines.into_iter().zip(charges.regions) {
        *per_line.entry(line).or_insert(0) += n;
    }
    let mut entries: Vec<LineEntry> = per_line
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|(l, samples)| LineEntry {
            file: l.file,
            line: l.line,
            samples,
        })
        .collect();
    entries.sort_by(|a, b| {
        b.samples
            .cmp(&a.samples)
            .then(a.file.cmp(&b.file))
            .then(a.line.cmp(&b.line))
    });
    Some(entries)
}

/// Print the per-line table; percentages are of `total_samples` (the whole
/// profile, so lines and functions compare).
pub fn render_lines_text(
    lines: &[LineEntry],
    total_samples: u64,
    rate_hz: u32,
    out: &mut impl Write,
) -> io::Result<()> {
    writeln!(out, "\nSource lines:\n")?;
    writeln!(out, "  %       self              ")?;
    writeln!(out, " time   seconds    samples  line")?;
    for l in lines {
        writeln!(
            out,
            "{:6.2} {:9.2} {:10}  {}:{}",
            percent(l.samples, total_samples),
            seconds(l.samples, rate_hz),
            l.samples,
            l.file,
            l.line
        )?;
    }
    Ok(())
}
