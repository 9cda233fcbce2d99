//! gprof's rules for the histograms of one file, applied by the parser and
//! before every write.

use std::collections::BTreeMap;

use super::{BinSize, GmonError, HistRecord, PcRange};

/// What the consistency rules look at in one record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Shape {
    pub low: u32,
    pub high: u32,
    pub bins: u64,
    pub rate_hz: u32,
    pub dimension: Vec<u8>,
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
pub(super) struct Accepted {
    first: Option<Shape>,
    ranges: BTreeMap<u32, (u32, usize)>,
}

impl Accepted {
    /// Checks one record on its own, then against those already accepted
    /// (gprof's rules, docs/abi.md: identical ranges sum; disjoint ranges share
    /// bytes-per-bin; partial overlaps are rejected; one rate and one
    /// dimension per file). Returns the index of the identical range
    /// already accepted, if any; a new range is added with index `next`.
    pub(super) fn accept(
        &mut self,
        shape: &Shape,
        next: usize,
    ) -> Result<Option<usize>, GmonError> {
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
