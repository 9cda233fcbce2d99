//! The data of a gmon.out: histograms, call arcs, basic-block counts, and
//! the small types the error messages print.

use std::fmt;

use super::rules::Shape;
use super::{GmonError, DIMENSION};

/// One contiguous histogram: `bins.len()` bins spread evenly over
/// `low_pc..high_pc`. Bin `i` covers `bin_range(i)`; when the span is a
/// multiple of the bin count every bin has `(high_pc - low_pc) / bins.len()` bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistRecord {
    /// First address covered.
    pub low_pc: u32,
    /// One past the last address covered.
    pub high_pc: u32,
    /// Sampling rate, ticks per second: a sample is worth `1 / rate_hz` seconds.
    pub rate_hz: u32,
    /// Samples per bin (any size: the writer splits them into 16-bit records).
    pub bins: Vec<u64>,
}

impl HistRecord {
    /// Bytes covered: `high_pc - low_pc` (0 for an inverted range).
    pub fn span(&self) -> u64 {
        u64::from(self.high_pc.saturating_sub(self.low_pc))
    }

    /// The address range of bin `i`: `low + i*span/n .. low + (i+1)*span/n`,
    /// gprof's `lowpc + i * hist_scale` in exact integer arithmetic.
    pub fn bin_range(&self, i: usize) -> (u64, u64) {
        let n = self.bins.len().max(1) as u64;
        let low = u64::from(self.low_pc);
        let span = self.span();
        (low + i as u64 * span / n, low + (i as u64 + 1) * span / n)
    }

    /// Sum of all bins.
    pub fn total(&self) -> u64 {
        self.bins.iter().fold(0u64, |a, &b| a.saturating_add(b))
    }

    pub(super) fn shape(&self) -> Shape {
        Shape {
            low: self.low_pc,
            high: self.high_pc,
            bins: self.bins.len() as u64,
            rate_hz: self.rate_hz,
            dimension: DIMENSION.as_bytes().to_vec(),
        }
    }
}

/// A tag-1 record: `count` calls from `from_pc` to the function at `self_pc`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallArc {
    pub from_pc: u32,
    pub self_pc: u32,
    pub count: u32,
}

/// One entry of a tag-2 record: basic block at `addr` executed `count` times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BasicBlockCount {
    pub addr: u32,
    pub count: u32,
}

/// A parsed gmon.out: histograms with identical ranges summed, sorted by address;
/// call arcs and basic-block counts kept in file order (irix-emu writes arcs
/// with `prof --callgraph`, never basic-block counts).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GmonFile {
    pub histograms: Vec<HistRecord>,
    pub arcs: Vec<CallArc>,
    pub basic_blocks: Vec<BasicBlockCount>,
}

/// The parts of a gmon.out record being read, for "truncated ..." messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordKind {
    Header,
    HistRecord,
    CallArc,
    BasicBlock,
}

impl fmt::Display for RecordKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RecordKind::Header => "header",
            RecordKind::HistRecord => "histogram record",
            RecordKind::CallArc => "call-arc record",
            RecordKind::BasicBlock => "basic-block record",
        })
    }
}

/// An address range printed as `0x400000-0x401000`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PcRange {
    pub low: u32,
    pub high: u32,
}

impl fmt::Display for PcRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#x}-{:#x}", self.low, self.high)
    }
}

/// Bytes per bin as a fraction `span / bins`, printed as an integer when exact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BinSize {
    pub span: u64,
    pub bins: u64,
}

impl fmt::Display for BinSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.bins != 0 && self.span.is_multiple_of(self.bins) {
            write!(f, "{}", self.span / self.bins)
        } else {
            write!(f, "{}/{}", self.span, self.bins)
        }
    }
}

/// Four magic bytes printed as `7f 45 4c 46`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MagicBytes(pub Vec<u8>);

impl fmt::Display for MagicBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, b) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl GmonFile {
    /// The sampling rate shared by all histograms (None when there are none).
    pub fn rate_hz(&self) -> Option<u32> {
        self.histograms.first().map(|h| h.rate_hz)
    }

    /// Check that every histogram lies in the program's text `text`: its first
    /// byte inside the text, and its last bin starting inside it (a final bin
    /// may overhang the end of the text when the text is not a whole number of
    /// bins; profil(2) buffers are sized that way). An empty profile is an error.
    pub fn check_against_text(&self, program: &str, text: PcRange) -> Result<(), GmonError> {
        self.check_against_texts(program, &[text])
    }

    /// [`GmonFile::check_against_text`] for a program with several executable
    /// segments: each histogram must lie in one of `texts`. The error names the
    /// text range holding the histogram's first byte, or else the first range.
    pub fn check_against_texts(&self, program: &str, texts: &[PcRange]) -> Result<(), GmonError> {
        if self.histograms.is_empty() {
            return Err(GmonError::NoHistograms);
        }
        for h in &self.histograms {
            let last_bin_start = h.bin_range(h.bins.len().saturating_sub(1)).0;
            let inside = |t: &PcRange| {
                h.low_pc >= t.low && h.low_pc < t.high && last_bin_start < u64::from(t.high)
            };
            if !texts.iter().any(inside) {
                let holding = texts
                    .iter()
                    .find(|t| h.low_pc >= t.low && h.low_pc < t.high);
                return Err(GmonError::TextMismatch {
                    range: PcRange {
                        low: h.low_pc,
                        high: h.high_pc,
                    },
                    program: program.to_string(),
                    text: holding
                        .or(texts.first())
                        .copied()
                        .unwrap_or(PcRange { low: 0, high: 0 }),
                });
            }
        }
        Ok(())
    }
}
