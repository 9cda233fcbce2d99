//! gmon.out bytes out.

use super::{
    CallArc, HistRecord, DIMENSION, DIMENSION_ABBREV, DIMENSION_LEN, GMON_MAGIC, GMON_VERSION,
    HEADER_LEN, HIST_HEADER_LEN, MAX_BIN_COUNT, TAG_CG_ARC, TAG_TIME_HIST,
};

/// Encode histograms as gmon.out bytes. A histogram whose largest bin exceeds
/// 65,535 becomes several records with the same range, record `k` carrying
/// `min(65535, count - 65535*k)` per bin, which gprof sums back. Same input,
/// same bytes. Does not validate: [`write_gmon`](super::write_gmon) does (see [`check_histograms`](super::check_histograms)).
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
