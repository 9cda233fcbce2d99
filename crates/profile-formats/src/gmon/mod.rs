//! gmon.out, the profile file GNU gprof reads: encoding, atomic writing,
//! and a parser that rejects every malformed file with a message (never a panic).
//!
//! Contents
//! - [`HistRecord`], [`CallArc`], [`BasicBlockCount`], [`GmonFile`]: the data.
//! - [`GmonError`], [`GmonFileError`]: what can be wrong with a file, and where.
//! - [`encode_gmon`], [`write_gmon`]: bytes out (counts above 65,535 become
//!   repeated records with identical ranges); [`encode_gmon_with_arcs`],
//!   [`write_gmon_with_arcs`], [`arc_records`] add call arcs;
//!   [`TempFiles::write_atomically`](crate::files::TempFiles::write_atomically) is the temporary-file-and-rename write.
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

mod encode;
mod error;
mod parse;
mod rules;
mod types;
mod write;

pub use encode::{arc_records, encode_gmon, encode_gmon_with_arcs};
pub use error::{GmonError, GmonFileError};
pub use parse::{parse_gmon, read_gmon};
pub use rules::check_histograms;
pub use types::{
    BasicBlockCount, BinSize, CallArc, GmonFile, HistRecord, MagicBytes, PcRange, RecordKind,
};
pub use write::{write_gmon, write_gmon_with_arcs, GmonOutput};

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
pub(crate) const DIMENSION_LEN: usize = 15;
/// The largest gmon.out read: 256 MiB, 2 bytes per bin at one bin per
/// 4-byte instruction, i.e. a histogram of 512 MiB of text.
pub const MAX_GMON_BYTES: u64 = 256 << 20;
