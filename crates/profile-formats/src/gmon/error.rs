//! What can be wrong with gmon.out contents, and with a gmon.out file.

use std::io;
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::{BinSize, MagicBytes, PcRange, RecordKind, GMON_VERSION};

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
