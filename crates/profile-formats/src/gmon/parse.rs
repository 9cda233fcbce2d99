//! gmon.out bytes in: every malformed file is a [`GmonError`], never a panic.

use std::io;
use std::path::Path;

use super::rules::Accepted;
use super::rules::Shape;
use super::{
    BasicBlockCount, CallArc, GmonError, GmonFile, GmonFileError, HistRecord, MagicBytes,
    RecordKind, DIMENSION_LEN, GMON_MAGIC, GMON_VERSION, HEADER_LEN, MAX_GMON_BYTES, TAG_BB_COUNT,
    TAG_CG_ARC, TAG_TIME_HIST,
};
use crate::files::{read_bounded, InputError};

/// Read and parse a gmon.out file; errors name the file. Only a regular
/// file of at most [`MAX_GMON_BYTES`] is read.
pub fn read_gmon(path: &Path) -> Result<GmonFile, GmonFileError> {
    let bytes =
        read_bounded(path, "gmon.out", MAX_GMON_BYTES).map_err(|e| GmonFileError::Read {
            path: path.to_path_buf(),
            source: match e {
                InputError::Io(io) => io,
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
/// (see [`check_histograms`](super::check_histograms)); identical ranges are summed.
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
