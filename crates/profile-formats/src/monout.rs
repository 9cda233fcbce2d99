//! IRIX mon.out, the pc-sampling file a `cc -p` program writes at exit and
//! IRIX `prof` reads. Two layouts exist; docs/mon-out.md describes both.
//!
//! Contents
//! - [`MonOut`], [`MonSegment`]: what a file holds (one histogram per text
//!   segment: the program's and each shared object's).
//! - [`is_mon_out`]: content detection (the first word).
//! - [`parse_mon_out`]: bytes in; every malformed file is a [`MonOutError`],
//!   never a panic.
//!
//! All fields are big-endian (the files come from a big-endian MIPS).

use thiserror::Error;

use crate::gmon::HistRecord;

/// The first word of the multi-segment layout ("PROF_MAGIC").
pub const PROF_MAGIC: u32 = 0x0f0e_0030;
/// The single-segment layout's first word is this with option bits below.
pub const OLD_MAGIC: u32 = 0x0f0e_0000;
/// Option bit of the single-segment layout: the file has pc samples.
pub const HAS_PC_SAMPLES: u32 = 1;
/// The single-segment layout's sampling period (10 ms: 100 Hz).
pub const OLD_RATE_HZ: u32 = 100;
/// The single-segment header: option word, low_pc, high_pc, pc buffer
/// bytes, count buffer bytes.
pub const OLD_HEADER_LEN: usize = 20;
/// The multi-segment file header and one segment header.
pub const HEADER_LEN: usize = 184;
pub const SEGMENT_LEN: usize = 112;
/// The ident byte naming the tool that wrote the file: 2 = the pc-sampling
/// runtime (pixie writes 1).
pub const TOOL_LIBPROF: u8 = 2;
/// Segment header buffer_type of a pc-sampling buffer. IRIX 5.3's runtime
/// leaves the field 0; later ones write 1.
pub const BUFFER_UNTYPED: u64 = 0;
pub const BUFFER_PC_SAMPLES: u64 = 1;
/// Scale 0x10000 maps text to buffer one byte to one byte.
const SCALE_ONE: u64 = 0x1_0000;

/// One text segment's samples.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MonSegment {
    /// The object's full path as the program saw it ("/usr/lib/libc.so.1";
    /// for the program, its `argv[0]`). Empty in the single-segment layout.
    pub path: String,
    /// Its short name ("libc.so.1", the program's name).
    pub name: String,
    /// The counters as a histogram over the text they cover.
    pub hist: HistRecord,
}

/// A parsed mon.out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MonOut {
    /// Samples per second (from the recorded sampling interval).
    pub rate_hz: u32,
    /// Bytes per counter in the file (2 or 4).
    pub count_size: u32,
    /// The program's name as recorded (`argv[0]`); empty if none.
    pub program: String,
    /// The pid that wrote it (0 in the single-segment layout).
    pub pid: u32,
    pub segments: Vec<MonSegment>,
}

/// What is wrong with a file that claims to be a mon.out.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MonOutError {
    #[error("truncated mon.out: {what} needs bytes {start}..{end}, the file has {len}")]
    Truncated {
        what: &'static str,
        start: u64,
        end: u64,
        len: usize,
    },
    #[error("mon.out written by tool {0}, not the pc-sampling runtime (2)")]
    NotPcSampling(u8),
    #[error("mon.out counter size {0}: only 2 and 4 exist")]
    CountSize(u64),
    #[error("mon.out sampling interval {0} us: not a whole number of ticks per second")]
    Interval(u64),
    #[error("mon.out segment {index}: {problem}")]
    Segment { index: usize, problem: String },
    #[error("mon.out without pc samples (option word {0:#010x})")]
    NoSamples(u32),
}

/// Does `bytes` start like a mon.out of either layout?
pub fn is_mon_out(bytes: &[u8]) -> bool {
    match word(bytes, 0) {
        Some(PROF_MAGIC) => true,
        Some(w) => w & !0xf == OLD_MAGIC && w & 0x7 != 0,
        None => false,
    }
}

fn word(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

/// Bounds-checked big-endian reads, naming what is being read on failure.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl Reader<'_> {
    fn slice(&self, what: &'static str, start: u64, len: u64) -> Result<&[u8], MonOutError> {
        let end = start.saturating_add(len);
        let err = || MonOutError::Truncated {
            what,
            start,
            end,
            len: self.bytes.len(),
        };
        let s = usize::try_from(start).map_err(|_| err())?;
        let e = usize::try_from(end).map_err(|_| err())?;
        self.bytes.get(s..e).ok_or_else(err)
    }

    fn u64(&self, what: &'static str, at: u64) -> Result<u64, MonOutError> {
        let b = self.slice(what, at, 8)?;
        Ok(u64::from_be_bytes(b.try_into().expect("8 bytes")))
    }

    /// A 64-bit field holding a 32-bit offset or address: the 32-bit member
    /// of the union comes first in big-endian memory.
    fn u32_of_u64(&self, what: &'static str, at: u64) -> Result<u32, MonOutError> {
        let b = self.slice(what, at, 4)?;
        Ok(u32::from_be_bytes(b.try_into().expect("4 bytes")))
    }

    /// The NUL-terminated string at `offset` of the string section.
    fn string(&self, strtab: u64, offset: u32) -> String {
        let start = strtab.saturating_add(u64::from(offset));
        let Some(rest) = usize::try_from(start)
            .ok()
            .and_then(|s| self.bytes.get(s..))
        else {
            return String::new();
        };
        let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
        String::from_utf8_lossy(&rest[..end]).into_owned()
    }
}

/// Parses either layout.
pub fn parse_mon_out(bytes: &[u8]) -> Result<MonOut, MonOutError> {
    match word(bytes, 0) {
        Some(PROF_MAGIC) => parse_segmented(bytes),
        Some(w) if w & !0xf == OLD_MAGIC => parse_single(bytes, w),
        _ => Err(MonOutError::Truncated {
            what: "the magic number",
            start: 0,
            end: 4,
            len: bytes.len(),
        }),
    }
}

/// Counters of `size` bytes each, big-endian.
fn counters(buf: &[u8], size: u32) -> Vec<u64> {
    buf.chunks_exact(size as usize)
        .map(|c| c.iter().fold(0u64, |a, &b| a << 8 | u64::from(b)))
        .collect()
}

/// The single-segment layout of cmplrs/prof_header.h.
fn parse_single(bytes: &[u8], options: u32) -> Result<MonOut, MonOutError> {
    if options & HAS_PC_SAMPLES == 0 {
        return Err(MonOutError::NoSamples(options));
    }
    let r = Reader { bytes };
    let h = r.slice("the header", 0, OLD_HEADER_LEN as u64)?;
    let w = |i: usize| u32::from_be_bytes([h[4 * i], h[4 * i + 1], h[4 * i + 2], h[4 * i + 3]]);
    let (low, high, pc_bytes) = (w(1), w(2), w(3));
    if high < low {
        return Err(MonOutError::Segment {
            index: 0,
            problem: format!("high_pc {high:#x} below low_pc {low:#x}"),
        });
    }
    let buf = r.slice(
        "the pc-sampling buffer",
        OLD_HEADER_LEN as u64,
        u64::from(pc_bytes),
    )?;
    let bins = counters(buf, 4);
    if bins.is_empty() && high > low {
        return Err(MonOutError::Segment {
            index: 0,
            problem: "no counters for a non-empty text range".into(),
        });
    }
    Ok(MonOut {
        rate_hz: OLD_RATE_HZ,
        count_size: 4,
        program: String::new(),
        pid: 0,
        segments: vec![MonSegment {
            path: String::new(),
            name: String::new(),
            hist: HistRecord {
                low_pc: low,
                high_pc: high,
                rate_hz: OLD_RATE_HZ,
                bins,
            },
        }],
    })
}

/// The multi-segment layout (one segment per shared object).
fn parse_segmented(bytes: &[u8]) -> Result<MonOut, MonOutError> {
    let r = Reader { bytes };
    r.slice("the header", 0, HEADER_LEN as u64)?;
    let tool = bytes[4];
    if tool != TOOL_LIBPROF {
        return Err(MonOutError::NotPcSampling(tool));
    }
    let count_size = r.u64("countsize", 24)?;
    if count_size != 2 && count_size != 4 {
        return Err(MonOutError::CountSize(count_size));
    }
    let segments_at = u64::from(r.u32_of_u64("the segment table", 32)?);
    let n_segments = r.u64("the segment count", 40)?;
    let strtab = u64::from(r.u32_of_u64("the string table", 48)?);
    let interval_us = r.u64("the sampling interval", 56)?;
    if interval_us == 0 || !1_000_000u64.is_multiple_of(interval_us) {
        return Err(MonOutError::Interval(interval_us));
    }
    let rate_hz = (1_000_000 / interval_us) as u32;
    let program = r.string(strtab, r.u32_of_u64("prog_name", 104)?);
    let pid = r.u64("this_pid", 112)? as u32;
    r.slice(
        "the segment table",
        segments_at,
        n_segments.saturating_mul(SEGMENT_LEN as u64),
    )?;
    let segments = (0..n_segments as usize)
        .map(|index| {
            let at = segments_at + (index * SEGMENT_LEN) as u64;
            segment(&r, at, index, strtab, count_size as u32, rate_hz)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(MonOut {
        rate_hz,
        count_size: count_size as u32,
        program,
        pid,
        segments,
    })
}

fn segment(
    r: &Reader,
    at: u64,
    index: usize,
    strtab: u64,
    count_size: u32,
    rate_hz: u32,
) -> Result<MonSegment, MonOutError> {
    let bad = |problem: String| MonOutError::Segment { index, problem };
    let path = r.string(strtab, r.u32_of_u64("path_name", at)?);
    let name = r.string(strtab, r.u32_of_u64("dso_name", at + 8)?);
    let text = r.u64("text", at + 16)?;
    let size = r.u64("size", at + 24)?;
    let buf_at = r.u32_of_u64("buf", at + 32)?;
    let buf_size = r.u64("bufsize", at + 40)?;
    let buffer_type = r.u64("buffer_type", at + 48)?;
    let scale = r.u64("scale", at + 56)?;
    if buffer_type != BUFFER_UNTYPED && buffer_type != BUFFER_PC_SAMPLES {
        return Err(bad(format!(
            "buffer type {buffer_type}, not pc samples (0 or 1)"
        )));
    }
    if scale == 0 || scale > SCALE_ONE {
        return Err(bad(format!("scale {scale:#x} outside 1..=0x10000")));
    }
    if text + size > 1 << 32 {
        return Err(bad(format!("text {text:#x} + {size:#x} passes 4 GiB")));
    }
    if !buf_size.is_multiple_of(u64::from(count_size)) {
        return Err(bad(format!(
            "buffer of {buf_size} bytes is not whole {count_size}-byte counters"
        )));
    }
    let buf = r.slice("a segment's buffer", u64::from(buf_at), buf_size)?;
    let bins = counters(buf, count_size);
    // Counter i holds the PCs whose byte offset (pc - text) * scale / 0x10000
    // falls in [i * count_size, (i + 1) * count_size): each covers
    // count_size * 0x10000 / scale bytes of text when that divides evenly.
    let span = u64::from(count_size) * SCALE_ONE;
    let high = if span.is_multiple_of(scale) {
        text + bins.len() as u64 * (span / scale)
    } else {
        text + size
    };
    Ok(MonSegment {
        path,
        name,
        hist: HistRecord {
            low_pc: text as u32,
            high_pc: high.min(u64::from(u32::MAX)) as u32,
            rate_hz,
            bins,
        },
    })
}
