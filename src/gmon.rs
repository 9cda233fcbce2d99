//! gmon.out, the profile file GNU gprof reads: encoding, atomic writing,
//! and a parser that rejects every malformed file with a message (never a panic).
//!
//! Contents
//! - [`HistRecord`], [`CallArc`], [`BasicBlockCount`], [`GmonFile`]: the data.
//! - [`GmonError`], [`GmonFileError`]: what can be wrong with a file, and where.
//! - [`encode_gmon`], [`write_gmon`]: bytes out (counts above 65,535 become
//!   repeated records with identical ranges); [`encode_gmon_with_arcs`],
//!   [`write_gmon_with_arcs`], [`arc_records`] add call arcs;
//!   [`write_atomically`] is the temporary-file-and-rename write.
//! - [`parse_gmon`], [`read_gmon`]: bytes in (identical ranges summed back).
//! - [`GmonFile::check_against_text`]: does this profile belong to that program?
//!
//! Format (docs/abi.md, "gmon.out", which follows binutils' gmon_out.h):
//! header "gmon", int32 version 1, 12 spare bytes; then records, each opened by a
//! tag byte: 0 = time histogram, 1 = call arc, 2 = basic-block counts. All fields
//! are in the executable's byte order (big-endian for MIPS/IRIX) and addresses are
//! 4 bytes (ELF32). A histogram record: low_pc, high_pc, int32 bin count,
//! int32 rate (Hz), 15-byte dimension name NUL-padded, 1-byte abbreviation, then
//! the bins as 16-bit counts. gprof sums records with identical ranges, accepts
//! disjoint ranges sharing one bytes-per-bin, and rejects partial overlaps: the
//! parser and the writer enforce exactly those rules.

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

/// The four bytes every gmon.out starts with (binutils gmon_out.h: GMON_MAGIC).
pub const GMON_MAGIC: [u8; 4] = *b"gmon";
/// The only file version written and read (gmon_out.h: GMON_VERSION).
pub const GMON_VERSION: u32 = 1;
/// Header size: magic, version, 3 spare 32-bit words.
pub const HEADER_LEN: usize = 20;
/// Tag bytes (gmon_out.h: GMON_TAG_TIME_HIST, GMON_TAG_CG_ARC, GMON_TAG_BB_COUNT).
pub const TAG_TIME_HIST: u8 = 0;
pub const TAG_CG_ARC: u8 = 1;
pub const TAG_BB_COUNT: u8 = 2;
/// HistRecord record header after the tag: low, high, size, rate (4 bytes each),
/// dimension (15), abbreviation (1).
pub const HIST_HEADER_LEN: usize = 32;
/// Largest count one 16-bit bin carries; more needs a repeated record.
pub const MAX_BIN_COUNT: u64 = u16::MAX as u64;
/// The dimension name and abbreviation gprof prints ("Each sample counts as
/// 0.01 seconds."); glibc's gmon writes the same.
pub const DIMENSION: &str = "seconds";
pub const DIMENSION_ABBREV: u8 = b's';
const DIMENSION_LEN: usize = 15;

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

    fn shape(&self) -> Shape {
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

/// What is wrong with gmon.out contents (or with histograms about to be written).
/// Messages carry no file name: [`GmonFileError`] prefixes it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GmonError {
    #[error("not a gmon.out file (magic {found})")]
    BadMagic { found: MagicBytes },
    #[error("unsupported version {found} (irix-emu reads version {GMON_VERSION})")]
    BadVersion { found: u32 },
    #[error("truncated {kind} at byte {at}")]
    Truncated { kind: RecordKind, at: usize },
    #[error("unknown record tag {tag} at byte {at}")]
    UnknownTag { tag: u8, at: usize },
    #[error("histogram {range} has an empty address range")]
    EmptyRange { range: PcRange },
    #[error("histogram {range} has no bins")]
    NoBins { range: PcRange },
    #[error("histogram {range} has {bins} bins for {span} bytes (less than a byte per bin)")]
    SubByteBins {
        range: PcRange,
        bins: u64,
        span: u64,
    },
    #[error("histogram {range} has a sampling rate of 0 Hz")]
    ZeroRate { range: PcRange },
    #[error("histogram {range} is sampled at {rate_hz} Hz but {first} at {first_rate_hz} Hz")]
    RateMismatch {
        range: PcRange,
        rate_hz: u32,
        first: PcRange,
        first_rate_hz: u32,
    },
    #[error("histogram {range} measures {dimension:?} but {first} measures {first_dimension:?}")]
    DimensionMismatch {
        range: PcRange,
        dimension: String,
        first: PcRange,
        first_dimension: String,
    },
    #[error("histogram {range} partly overlaps {other}")]
    PartialOverlap { range: PcRange, other: PcRange },
    #[error("histogram {range} has {size} bytes per bin but {other} has {other_size}")]
    BinSizeMismatch {
        range: PcRange,
        size: BinSize,
        other: PcRange,
        other_size: BinSize,
    },
    #[error("histogram {range} does not match {program}'s text {text}")]
    TextMismatch {
        range: PcRange,
        program: String,
        text: PcRange,
    },
    #[error("no histogram records (nothing was sampled)")]
    NoHistograms,
}

impl GmonError {
    /// Attach the file name the contents came from.
    pub fn in_file(self, path: &Path) -> GmonFileError {
        GmonFileError::Format {
            path: path.to_path_buf(),
            source: self,
        }
    }
}

/// A gmon.out problem tied to a file: "gmon.out: truncated histogram record at byte 40".
#[derive(Debug, Error)]
pub enum GmonFileError {
    #[error("{}: {source}", path.display())]
    Format { path: PathBuf, source: GmonError },
    #[error("{}: cannot read: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    #[error("{}: cannot write: {source}", path.display())]
    Write { path: PathBuf, source: io::Error },
}

/// What the consistency rules look at in one record.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Shape {
    low: u32,
    high: u32,
    bins: u64,
    rate_hz: u32,
    dimension: Vec<u8>,
}

impl Shape {
    fn range(&self) -> PcRange {
        PcRange {
            low: self.low,
            high: self.high,
        }
    }
    fn span(&self) -> u64 {
        u64::from(self.high.saturating_sub(self.low))
    }
    fn bin_size(&self) -> BinSize {
        BinSize {
            span: self.span(),
            bins: self.bins,
        }
    }
    fn dimension_text(&self) -> String {
        String::from_utf8_lossy(&self.dimension).into_owned()
    }
}

/// The records accepted so far, for checking the next one in O(log n):
/// the first record (one rate, one dimension and one bytes-per-bin per file)
/// and the distinct ranges by start address, each with its index in the
/// merged list.
#[derive(Default)]
struct Accepted {
    first: Option<Shape>,
    ranges: BTreeMap<u32, (u32, usize)>,
}

impl Accepted {
    /// Checks one record on its own, then against those already accepted
    /// (gprof's rules, docs/abi.md: identical ranges sum; disjoint ranges share
    /// bytes-per-bin; partial overlaps are rejected; one rate and one
    /// dimension per file). Returns the index of the identical range
    /// already accepted, if any; a new range is added with index `next`.
    fn accept(&mut self, shape: &Shape, next: usize) -> Result<Option<usize>, GmonError> {
        let range = shape.range();
        if shape.low >= shape.high {
            return Err(GmonError::EmptyRange { range });
        }
        if shape.bins == 0 {
            return Err(GmonError::NoBins { range });
        }
        if shape.bins > shape.span() {
            return Err(GmonError::SubByteBins {
                range,
                bins: shape.bins,
                span: shape.span(),
            });
        }
        if shape.rate_hz == 0 {
            return Err(GmonError::ZeroRate { range });
        }
        let Some(first) = &self.first else {
            self.first = Some(shape.clone());
            self.ranges.insert(shape.low, (shape.high, next));
            return Ok(None);
        };
        if shape.rate_hz != first.rate_hz {
            return Err(GmonError::RateMismatch {
                range,
                rate_hz: shape.rate_hz,
                first: first.range(),
                first_rate_hz: first.rate_hz,
            });
        }
        if shape.dimension != first.dimension {
            return Err(GmonError::DimensionMismatch {
                range,
                dimension: shape.dimension_text(),
                first: first.range(),
                first_dimension: first.dimension_text(),
            });
        }
        // span_a / bins_a == span_b / bins_b, compared without division;
        // equal to the first's means equal to every accepted record's.
        if u128::from(shape.span()) * u128::from(first.bins)
            != u128::from(first.span()) * u128::from(shape.bins)
        {
            return Err(GmonError::BinSizeMismatch {
                range,
                size: shape.bin_size(),
                other: first.range(),
                other_size: first.bin_size(),
            });
        }
        let before = self.ranges.range(..=shape.low).next_back();
        if let Some((&low, &(high, index))) = before {
            if low == shape.low && high == shape.high {
                return Ok(Some(index));
            }
            if high > shape.low {
                return Err(GmonError::PartialOverlap {
                    range,
                    other: PcRange { low, high },
                });
            }
        }
        if let Some((&low, &(high, _))) = self.ranges.range(shape.low..).next() {
            if low < shape.high {
                return Err(GmonError::PartialOverlap {
                    range,
                    other: PcRange { low, high },
                });
            }
        }
        self.ranges.insert(shape.low, (shape.high, next));
        Ok(None)
    }
}

/// Check histograms before writing them: every rule the parser applies.
pub fn check_histograms(hists: &[HistRecord]) -> Result<(), GmonError> {
    let mut accepted = Accepted::default();
    for (i, h) in hists.iter().enumerate() {
        accepted.accept(&h.shape(), i)?;
    }
    Ok(())
}

/// Encode histograms as gmon.out bytes. A histogram whose largest bin exceeds
/// 65,535 becomes several records with the same range, record `k` carrying
/// `min(65535, count - 65535*k)` per bin, which gprof sums back. Same input,
/// same bytes. Does not validate: [`write_gmon`] does (see [`check_histograms`]).
pub fn encode_gmon(hists: &[HistRecord]) -> Vec<u8> {
    encode_gmon_with_arcs(hists, &[])
}

/// [`encode_gmon`] followed by one tag-1 record per arc (binutils
/// gmon_out.h: from_pc, self_pc, count, 4 bytes each). gprof adds up the
/// counts of records naming the same arc, so callers may split counts
/// above `u32::MAX` over several records ([`arc_records`] does).
pub fn encode_gmon_with_arcs(hists: &[HistRecord], arcs: &[CallArc]) -> Vec<u8> {
    let mut out = Vec::with_capacity(
        HEADER_LEN
            + hists
                .iter()
                .map(|h| 1 + HIST_HEADER_LEN + 2 * h.bins.len())
                .sum::<usize>(),
    );
    out.extend_from_slice(&GMON_MAGIC);
    out.extend_from_slice(&GMON_VERSION.to_be_bytes());
    out.extend_from_slice(&[0u8; 12]);
    for h in hists {
        let max = h.bins.iter().copied().max().unwrap_or(0);
        let records = max.div_ceil(MAX_BIN_COUNT).max(1);
        for k in 0..records {
            out.push(TAG_TIME_HIST);
            out.extend_from_slice(&h.low_pc.to_be_bytes());
            out.extend_from_slice(&h.high_pc.to_be_bytes());
            out.extend_from_slice(&(h.bins.len() as u32).to_be_bytes());
            out.extend_from_slice(&h.rate_hz.to_be_bytes());
            let mut dim = [0u8; DIMENSION_LEN];
            dim[..DIMENSION.len()].copy_from_slice(DIMENSION.as_bytes());
            out.extend_from_slice(&dim);
            out.push(DIMENSION_ABBREV);
            let already = k * MAX_BIN_COUNT;
            for &count in &h.bins {
                let part = count.saturating_sub(already).min(MAX_BIN_COUNT) as u16;
                out.extend_from_slice(&part.to_be_bytes());
            }
        }
    }
    for a in arcs {
        out.push(TAG_CG_ARC);
        out.extend_from_slice(&a.from_pc.to_be_bytes());
        out.extend_from_slice(&a.self_pc.to_be_bytes());
        out.extend_from_slice(&a.count.to_be_bytes());
    }
    out
}

/// Arc records for `count` calls from `from_pc` to `self_pc`: one record,
/// or several when the count does not fit 32 bits.
pub fn arc_records(from_pc: u32, self_pc: u32, mut count: u64) -> Vec<CallArc> {
    let mut v = Vec::new();
    while count > 0 {
        let part = count.min(u64::from(u32::MAX));
        v.push(CallArc {
            from_pc,
            self_pc,
            count: part as u32,
        });
        count -= part;
    }
    v
}

/// Validate, encode and write `hists` to `path` atomically: the bytes go to a
/// new temporary file in the same directory, which is synced and renamed over
/// `path`. On any failure the temporary file is removed and `path` is untouched.
pub fn write_gmon(path: &Path, hists: &[HistRecord]) -> Result<(), GmonFileError> {
    GmonOutput::create(path)?.commit(hists)
}

/// A gmon.out about to be written: its temporary file already exists beside
/// `path`, so a profile that cannot be written is known before the guest
/// runs. Dropped without [`GmonOutput::commit`], it removes the temporary
/// file and leaves `path` untouched.
pub struct GmonOutput {
    path: PathBuf,
    tmp_path: PathBuf,
    file: Option<fs::File>,
}

impl GmonOutput {
    /// Creates the temporary file that will become `path`.
    pub fn create(path: &Path) -> Result<GmonOutput, GmonFileError> {
        let (tmp_path, file) = create_temp_beside(path).map_err(|source| GmonFileError::Write {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(GmonOutput {
            path: path.to_path_buf(),
            tmp_path,
            file: Some(file),
        })
    }

    /// The file the profile will be written to.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Validates and encodes `hists`, writes and syncs the temporary file
    /// and renames it over `path`.
    pub fn commit(self, hists: &[HistRecord]) -> Result<(), GmonFileError> {
        self.commit_with_arcs(hists, &[])
    }

    /// [`GmonOutput::commit`] with call-arc records after the histograms.
    pub fn commit_with_arcs(
        mut self,
        hists: &[HistRecord],
        arcs: &[CallArc],
    ) -> Result<(), GmonFileError> {
        check_histograms(hists).map_err(|e| e.in_file(&self.path))?;
        let bytes = encode_gmon_with_arcs(hists, arcs);
        let Some(mut file) = self.file.take() else {
            return Err(GmonFileError::Write {
                path: self.path.clone(),
                source: io::Error::other("already written"),
            });
        };
        let written = file
            .write_all(&bytes)
            .and_then(|()| file.sync_all())
            .and_then(|()| {
                drop(file);
                fs::rename(&self.tmp_path, &self.path)
            });
        match written {
            Ok(()) => {
                // Renamed: nothing left for Drop to remove.
                self.tmp_path = PathBuf::new();
                Ok(())
            }
            Err(source) => Err(GmonFileError::Write {
                path: self.path.clone(),
                source,
            }),
        }
    }
}

impl Drop for GmonOutput {
    fn drop(&mut self) {
        if !self.tmp_path.as_os_str().is_empty() {
            // Best effort: the profile was not written; leave no trace.
            let _ = fs::remove_file(&self.tmp_path);
        }
    }
}

/// [`write_gmon`] with call-arc records after the histograms.
pub fn write_gmon_with_arcs(
    path: &Path,
    hists: &[HistRecord],
    arcs: &[CallArc],
) -> Result<(), GmonFileError> {
    GmonOutput::create(path)?.commit_with_arcs(hists, arcs)
}

/// Writes `bytes` to `path` atomically: a new temporary file in the same
/// directory, synced and renamed over `path`; on failure it is removed and
/// `path` is untouched.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let (tmp_path, mut file) = create_temp_beside(path)?;
    let written = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .and_then(|()| {
            drop(file);
            fs::rename(&tmp_path, path)
        });
    if let Err(e) = written {
        // Best effort: the write already failed, and that is the error to report.
        let _ = fs::remove_file(&tmp_path);
        return Err(e);
    }
    Ok(())
}

/// Create `.NAME.PID.N.tmp` next to `path`, never reusing an existing file.
fn create_temp_beside(path: &Path) -> io::Result<(PathBuf, fs::File)> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?
        .to_string_lossy()
        .into_owned();
    let pid = std::process::id();
    let mut last_err = None;
    for n in 0..100u32 {
        let tmp = path.with_file_name(format!(".{name}.{pid}.{n}.tmp"));
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(file) => return Ok((tmp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last_err = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last_err.unwrap_or_else(|| io::Error::other("no free temporary name")))
}

/// Read and parse a gmon.out file; errors name the file. Only a regular
/// file of at most [`crate::input::MAX_GMON_BYTES`] is read.
pub fn read_gmon(path: &Path) -> Result<GmonFile, GmonFileError> {
    let bytes = crate::input::read_bounded(path, "gmon.out", crate::input::MAX_GMON_BYTES)
        .map_err(|e| GmonFileError::Read {
            path: path.to_path_buf(),
            source: match e {
                crate::input::InputError::Io(io) => io,
                other => io::Error::other(other.to_string()),
            },
        })?;
    parse_gmon(&bytes).map_err(|e| e.in_file(path))
}

/// A cursor over the file that turns running out of bytes into `Truncated`.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, kind: RecordKind) -> Result<&'a [u8], GmonError> {
        if self.bytes.len() - self.pos < n {
            return Err(GmonError::Truncated {
                kind,
                at: self.bytes.len(),
            });
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn u32(&mut self, kind: RecordKind) -> Result<u32, GmonError> {
        let s = self.take(4, kind)?;
        Ok(u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
    }

    /// Fail early if `n` items of `size` bytes cannot be there, so a forged
    /// count never makes us allocate.
    fn need(&self, n: u64, size: u64, kind: RecordKind) -> Result<(), GmonError> {
        let remaining = (self.bytes.len() - self.pos) as u64;
        if n.saturating_mul(size) > remaining {
            return Err(GmonError::Truncated {
                kind,
                at: self.bytes.len(),
            });
        }
        Ok(())
    }
}

/// Parse gmon.out bytes. Rejects a foreign file (bad magic), another version,
/// truncation anywhere, unknown tags, and histograms gprof would refuse
/// (see [`check_histograms`]); identical ranges are summed.
pub fn parse_gmon(bytes: &[u8]) -> Result<GmonFile, GmonError> {
    let magic_len = bytes.len().min(4);
    if bytes[..magic_len] != GMON_MAGIC[..magic_len] {
        return Err(GmonError::BadMagic {
            found: MagicBytes(bytes[..magic_len].to_vec()),
        });
    }
    let mut r = Reader { bytes, pos: 0 };
    let header = r.take(HEADER_LEN, RecordKind::Header)?;
    let version = u32::from_be_bytes([header[4], header[5], header[6], header[7]]);
    if version != GMON_VERSION {
        return Err(GmonError::BadVersion { found: version });
    }
    let mut file = GmonFile::default();
    let mut accepted = Accepted::default();
    while r.pos < bytes.len() {
        let at = r.pos;
        let tag = bytes[at];
        r.pos += 1;
        match tag {
            TAG_TIME_HIST => {
                let (shape, counts) = read_histogram(&mut r)?;
                match accepted.accept(&shape, file.histograms.len())? {
                    Some(same) => {
                        for (sum, c) in file.histograms[same].bins.iter_mut().zip(counts) {
                            *sum = sum.saturating_add(c);
                        }
                    }
                    None => file.histograms.push(HistRecord {
                        low_pc: shape.low,
                        high_pc: shape.high,
                        rate_hz: shape.rate_hz,
                        bins: counts,
                    }),
                }
            }
            TAG_CG_ARC => {
                let kind = RecordKind::CallArc;
                let (from_pc, self_pc, count) = (r.u32(kind)?, r.u32(kind)?, r.u32(kind)?);
                file.arcs.push(CallArc {
                    from_pc,
                    self_pc,
                    count,
                });
            }
            TAG_BB_COUNT => {
                let kind = RecordKind::BasicBlock;
                let n = r.u32(kind)?;
                r.need(u64::from(n), 8, kind)?;
                for _ in 0..n {
                    let (addr, count) = (r.u32(kind)?, r.u32(kind)?);
                    file.basic_blocks.push(BasicBlockCount { addr, count });
                }
            }
            tag => return Err(GmonError::UnknownTag { tag, at }),
        }
    }
    file.histograms.sort_by_key(|h| h.low_pc);
    Ok(file)
}

/// Read one histogram record after its tag byte.
fn read_histogram(r: &mut Reader<'_>) -> Result<(Shape, Vec<u64>), GmonError> {
    let kind = RecordKind::HistRecord;
    let low = r.u32(kind)?;
    let high = r.u32(kind)?;
    let bins = r.u32(kind)?;
    let rate_hz = r.u32(kind)?;
    let dim = r.take(DIMENSION_LEN, kind)?;
    let dim_end = dim.iter().position(|&b| b == 0).unwrap_or(DIMENSION_LEN);
    let _abbrev = r.take(1, kind)?;
    r.need(u64::from(bins), 2, kind)?;
    let raw = r.take(bins as usize * 2, kind)?;
    let counts = raw
        .chunks_exact(2)
        .map(|c| u64::from(u16::from_be_bytes([c[0], c[1]])))
        .collect();
    let shape = Shape {
        low,
        high,
        bins: u64::from(bins),
        rate_hz,
        dimension: dim[..dim_end].to_vec(),
    };
    Ok((shape, counts))
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
