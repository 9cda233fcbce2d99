//! The format of a pack: one file holding many translation-cache entries
//! (each exactly as `cache::encode` makes it) and an index of them (see
//! `store` for the directory of packs).
//!
//! Contents: [`parse`] (a pack's header and index, checked), [`Pack`]'s
//! look-up of an entry by its key's id, and [`write`](fn@write) (a pack's bytes from
//! its entries). All numbers little-endian:
//!
//! | bytes | what |
//! |-------|------|
//! | 8 | [`MAGIC`] |
//! | 4 | [`FORMAT`] |
//! | 4 | number of entries, `n` |
//! | 8 | length of the entries together, `d` |
//! | 8 | checksum of the 24 bytes before it and of the index |
//! | 24 `n` | the index: per entry its key's id (16), its offset from the first entry (4) and its length (4), ordered by id |
//! | `d` | the entries |
//!
//! A pack is used only when its magic, format and checksum hold and its
//! length is exactly the header's, index's and entries' together; anything
//! else is [`BadPack`] and the whole pack is set aside. The index is
//! searched in place (binary search by id), so opening a pack costs no work
//! per entry but the checksum; each entry found is then checked in full by
//! `cache::decode` (its own magic, lengths, checksum, and its key byte for
//! byte), so an index that points wrong gives a bad entry, never wrong code.

use std::io::Write;

use crate::jit::cache::{self, format_of, u32_at, BadStart};

/// The first bytes of every pack.
pub(crate) const MAGIC: [u8; 8] = *b"IRXEMUJP";

/// The pack format's version (2: the index's ids are those of
/// `cache::hash` over words, not FNV-1a's).
pub(crate) const FORMAT: u32 = 2;

/// The header: magic, format, two counts, the index's checksum.
pub(crate) const HEADER: usize = 8 + 4 + 4 + 8 + 8;

/// One record of the index: id, offset, length.
pub(crate) const RECORD: usize = 16 + 4 + 4;

/// The most bytes of entries one pack holds (offsets are 32 bits).
pub(crate) const MAX_DATA: u64 = u32::MAX as u64;

/// Why a pack was set aside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum BadPack {
    #[error("not a pack (bad magic)")]
    Magic,
    #[error("written by another version (pack format {0})")]
    Format(u32),
    #[error("truncated or padded")]
    Length,
    #[error("index checksum mismatch")]
    Checksum,
}

/// The size on disk of a pack of `entries` entries of `data` bytes
/// (`None` past `u64`; counted in `u64`, so a 32-bit host's `usize` does
/// not wrap).
pub(crate) fn size(entries: usize, data: u64) -> Option<u64> {
    (RECORD as u64)
        .checked_mul(entries as u64)?
        .checked_add(HEADER as u64)?
        .checked_add(data)
}

/// The checksum of the header's first 24 bytes and the index: their
/// words through `cache::fold` (both are a whole number of words), fast
/// enough to run at every start on an index of tens of thousands of
/// records. It finds accidents, like `cache::hash`.
fn index_sum(head: &[u8], index: &[u8]) -> u64 {
    let mut h: u64 = 0x6a09_e667_f3bc_c908;
    for w in head.chunks_exact(8).chain(index.chunks_exact(8)) {
        h = cache::fold(h, u64::from_le_bytes(w.try_into().expect("8 bytes")));
    }
    h
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

/// A checked pack's shape: how many entries, and where they start; and
/// where to look for an id in its index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pack {
    /// Entries (records in the index).
    pub entries: usize,
    /// Where the first entry starts in the file.
    data_at: usize,
    /// The records whose ids start with the bits `b` are
    /// `buckets[b]..buckets[b + 1]` (the index is sorted by id): a power of
    /// two of buckets, at least as many as records, so that a bucket holds
    /// about one, and one more start for the end.
    buckets: Box<[u32]>,
}

/// The shape of the pack `file`, once its header, length and index checksum
/// hold.
pub(crate) fn parse(file: &[u8]) -> Result<Pack, BadPack> {
    let format = format_of(file, &MAGIC, HEADER).map_err(|e| match e {
        BadStart::Length => BadPack::Length,
        BadStart::Magic => BadPack::Magic,
    })?;
    if format != FORMAT {
        return Err(BadPack::Format(format));
    }
    let entries = u32_at(file, 12) as usize;
    let data = u64_at(file, 16);
    if data > MAX_DATA || size(entries, data) != Some(file.len() as u64) {
        return Err(BadPack::Length);
    }
    // Within the file's length, so within `usize`.
    let data_at = HEADER + RECORD * entries;
    if index_sum(&file[..24], &file[HEADER..data_at]) != u64_at(file, 24) {
        return Err(BadPack::Checksum);
    }
    let mut pack = Pack {
        entries,
        data_at,
        buckets: Box::new([]),
    };
    pack.buckets = pack.bucket_starts(file, entries.next_power_of_two().trailing_zeros());
    Ok(pack)
}

impl Pack {
    /// Record `i` of `file`'s index: (id, offset, length).
    fn record(&self, file: &[u8], i: usize) -> (u128, usize, usize) {
        let at = HEADER + RECORD * i;
        let id = u128::from_le_bytes(file[at..at + 16].try_into().expect("16 bytes"));
        (
            id,
            u32_at(file, at + 16) as usize,
            u32_at(file, at + 20) as usize,
        )
    }

    /// The bytes the index gives for entry `i`, or `None` when they lie
    /// outside the file (a bad entry).
    pub(crate) fn entry<'a>(&self, file: &'a [u8], i: usize) -> Option<&'a [u8]> {
        let (_, offset, len) = self.record(file, i);
        let start = self.data_at.checked_add(offset)?;
        file.get(start..start.checked_add(len)?)
    }

    /// The bucket of `id` among `2^bits`: its first `bits` bits.
    fn bucket(id: u128, bits: u32) -> usize {
        id.checked_shr(128 - bits).unwrap_or(0) as usize
    }

    /// Where each bucket's records start in `file`'s index, and where the
    /// last one ends: one pass over the index, which the checksum has just
    /// read. (Records out of order, which no writer makes, are only not
    /// found.)
    fn bucket_starts(&self, file: &[u8], bits: u32) -> Box<[u32]> {
        let count = 1usize << bits;
        let mut starts = Vec::with_capacity(count + 1);
        for i in 0..self.entries {
            let b = Self::bucket(self.record(file, i).0, bits);
            while starts.len() <= b {
                starts.push(i as u32);
            }
        }
        starts.resize(count + 1, self.entries as u32);
        starts.into_boxed_slice()
    }

    /// The index of the record for `id`, if the index has one.
    ///
    /// Ids are hashes, spread evenly, so `id`'s bucket holds about one
    /// record, and for most ids the pack does not hold, none: `find` reads
    /// the index once or not at all, where halving the whole index read it
    /// log2(entries) times, each likely a cache miss (2.6% of a warm sm64
    /// compile, whose blocks are looked up in every pack).
    pub(crate) fn find(&self, file: &[u8], id: u128) -> Option<usize> {
        let bits = (self.buckets.len() - 1).trailing_zeros();
        let b = Self::bucket(id, bits);
        let (mut lo, mut hi) = (self.buckets[b] as usize, self.buckets[b + 1] as usize);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let (at, _, _) = self.record(file, mid);
            match at.cmp(&id) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    /// Every record of `file`'s index in the order of their entries in
    /// the file: (id, record number).
    pub(crate) fn in_file_order(&self, file: &[u8]) -> Vec<(u128, usize)> {
        let mut all: Vec<(usize, u128, usize)> = (0..self.entries)
            .map(|i| {
                let (id, offset, _) = self.record(file, i);
                (offset, id, i)
            })
            .collect();
        all.sort_unstable();
        all.into_iter().map(|(_, id, i)| (id, i)).collect()
    }
}

/// Writes the pack of `entries` (ids distinct, entries in the order they
/// go in the file, together at most [`MAX_DATA`] bytes) to `out`; returns
/// its size.
pub(crate) fn write(out: &mut impl Write, entries: &[(u128, &[u8])]) -> std::io::Result<u64> {
    let data: u64 = entries.iter().map(|e| e.1.len() as u64).sum();
    assert!(data <= MAX_DATA, "a pack of {data} bytes");
    let mut records: Vec<(u128, u32, u32)> = Vec::with_capacity(entries.len());
    let mut offset = 0u32;
    for (id, bytes) in entries {
        records.push((*id, offset, bytes.len() as u32));
        offset += bytes.len() as u32;
    }
    records.sort_unstable();
    let mut head = Vec::with_capacity(HEADER + RECORD * records.len());
    head.extend_from_slice(&MAGIC);
    head.extend_from_slice(&FORMAT.to_le_bytes());
    head.extend_from_slice(&(records.len() as u32).to_le_bytes());
    head.extend_from_slice(&data.to_le_bytes());
    head.extend_from_slice(&[0; 8]);
    for (id, offset, len) in &records {
        head.extend_from_slice(&id.to_le_bytes());
        head.extend_from_slice(&offset.to_le_bytes());
        head.extend_from_slice(&len.to_le_bytes());
    }
    let sum = index_sum(&head[..24], &head[HEADER..]);
    head[24..32].copy_from_slice(&sum.to_le_bytes());
    out.write_all(&head)?;
    for (_, bytes) in entries {
        out.write_all(bytes)?;
    }
    Ok(size(entries.len(), data).expect("at most MAX_DATA bytes of entries"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pack_of(entries: &[(u128, &[u8])]) -> Vec<u8> {
        let mut out = Vec::new();
        let n = write(&mut out, entries).expect("to memory");
        assert_eq!(n, out.len() as u64);
        out
    }

    #[test]
    fn every_entry_of_a_pack_is_found_by_its_id_and_no_other() {
        let (a, b, c) = (b"first".as_slice(), b"second".as_slice(), b"3".as_slice());
        let file = pack_of(&[(30, a), (10, b), (20, c)]);
        let pack = parse(&file).expect("a good pack");
        assert_eq!(pack.entries, 3);
        for (id, bytes) in [(30, a), (10, b), (20, c)] {
            let i = pack.find(&file, id).expect("found");
            assert_eq!(pack.entry(&file, i), Some(bytes));
        }
        assert_eq!(pack.find(&file, 15), None);
        assert_eq!(pack.find(&file, 40), None);
        // The file keeps the entries in the order given.
        let order: Vec<u128> = pack.in_file_order(&file).iter().map(|e| e.0).collect();
        assert_eq!(order, [30, 10, 20]);
    }

    #[test]
    fn find_answers_as_a_scan_of_the_index_does() {
        // Evenly spread ids (as hashes are), and lopsided ones: runs of
        // neighbours, the extremes, one far from the rest.
        let spread: Vec<u128> = (1..=300u128)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835))
            .collect();
        let lopsided: Vec<u128> = (0..100u128)
            .chain(1 << 70..(1 << 70) + 50)
            .chain([u128::MAX - 1, u128::MAX, 1 << 127])
            .collect();
        for ids in [spread, lopsided] {
            let entries: Vec<(u128, &[u8])> = ids.iter().map(|&id| (id, b"x".as_slice())).collect();
            let file = pack_of(&entries);
            let pack = parse(&file).expect("a good pack");
            let mut sorted = ids.clone();
            sorted.sort_unstable();
            for (i, &id) in sorted.iter().enumerate() {
                assert_eq!(pack.find(&file, id), Some(i), "id {id:#x}");
                for near in [id.wrapping_sub(1), id.wrapping_add(1)] {
                    assert_eq!(
                        pack.find(&file, near),
                        sorted.binary_search(&near).ok(),
                        "id {near:#x}"
                    );
                }
            }
        }
    }

    #[test]
    fn an_empty_pack_is_a_pack() {
        let file = pack_of(&[]);
        assert_eq!(file.len(), HEADER);
        let pack = parse(&file).expect("a good pack");
        assert_eq!(pack.find(&file, 1), None);
    }

    #[test]
    fn every_truncation_and_padding_of_a_pack_is_refused() {
        let file = pack_of(&[(1, b"abc"), (2, b"defg")]);
        for n in 0..file.len() {
            assert!(parse(&file[..n]).is_err(), "{n} bytes accepted");
        }
        let mut padded = file.clone();
        padded.push(0);
        assert_eq!(parse(&padded), Err(BadPack::Length));
    }

    #[test]
    fn every_flipped_bit_of_the_header_and_index_is_refused() {
        let file = pack_of(&[(1, b"abc"), (2, b"defg"), (3, b"h")]);
        let index_end = HEADER + 3 * RECORD;
        for bit in 0..index_end * 8 {
            let mut bad = file.clone();
            bad[bit / 8] ^= 1 << (bit % 8);
            assert!(parse(&bad).is_err(), "bit {bit} flipped accepted");
        }
    }

    #[test]
    fn another_format_and_garbage_are_refused() {
        let mut file = pack_of(&[(1, b"abc")]);
        assert_eq!(
            parse(b"not a pack at all, just some text"),
            Err(BadPack::Magic)
        );
        file[8] = 9;
        assert_eq!(parse(&file), Err(BadPack::Format(9)));
    }

    #[test]
    fn an_index_pointing_past_the_entries_gives_no_bytes() {
        let file = pack_of(&[(1, b"abc")]);
        let pack = parse(&file).unwrap();
        // The same index over fewer entry bytes (as if the checksum had
        // missed a damaged length): the entry is out of the file.
        assert_eq!(pack.entry(&file[..file.len() - 1], 0), None);
    }
}
