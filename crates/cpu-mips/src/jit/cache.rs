//! The format of one compiled block kept on disk (see `store` for the
//! directory that holds them).
//!
//! Contents: [`Key`] (what decides a block's code, and the 128-bit id a
//! pack's index finds it by), [`encode`] and [`decode`] (an entry's bytes,
//! checked before any of its code is used), [`entry_id`] (an entry checked
//! on its own, for copying it into another pack) and the hash they use.
//! Entries are kept many to a file: see `pack` for that file's format.
//!
//! An entry, all numbers little-endian:
//!
//! | bytes | what |
//! |-------|------|
//! | 8 | [`MAGIC`] |
//! | 4 | [`FORMAT`] |
//! | 4 | length of the key, `k` |
//! | 4 | length of the code, `c` |
//! | `k` | the key (see [`Key::new`]) |
//! | `c` | the machine code, position-independent |
//! | 8 | checksum of everything before it |
//!
//! An entry is used only if every one of these holds: the magic, the
//! format, the lengths adding up to the entry's length exactly, the key
//! equal byte for byte to the one looked up (an entry found under the right
//! id holding another key is someone else's) and the checksum. Anything else
//! (truncated, corrupt, another version of irix-emu, another host) is
//! [`Bad`]: the caller compiles the block and replaces the entry.
//!
//! The checksum finds accidents (a torn write, a bad disk), not attacks:
//! the directory is the user's own and refused when others may write it.

/// The first bytes of every entry.
pub(crate) const MAGIC: [u8; 8] = *b"IRXEMUJC";

/// The entry format's version (2: the checksum is `hash` over words, not
/// FNV-1a).
pub(crate) const FORMAT: u32 = 2;

/// The header before the key: magic, format, two lengths.
const HEADER: usize = 8 + 4 + 4 + 4;

/// The most code one entry may hold (as `super::MAX_BLOCK_CODE`).
pub(crate) const MAX_CODE: usize = super::MAX_BLOCK_CODE;

/// A 64-bit hash of `bytes`, from `seed`: each little-endian 8-byte word
/// in turn goes through [`fold`], then the last bytes (padded with zeroes)
/// and the length. It finds accidents (a torn write, a bad disk) and names
/// keys; it is no defence against attacks. A word at a time, it is several
/// times faster than FNV-1a's byte at a time, which was the hash until
/// format 2 of entries and packs: a warm run checks megabytes of entries.
pub(crate) fn hash(seed: u64, bytes: &[u8]) -> u64 {
    let mut words = bytes.chunks_exact(8);
    let mut h = seed;
    for w in &mut words {
        h = fold(h, u64::from_le_bytes(w.try_into().expect("8 bytes")));
    }
    let rest = words.remainder();
    let mut last = [0u8; 8];
    last[..rest.len()].copy_from_slice(rest);
    fold(fold(h, u64::from_le_bytes(last)), bytes.len() as u64)
}

/// One step of [`hash`]: `word` xored in, a multiply by an odd constant
/// (the 64-bit golden ratio), which carries each bit into every higher
/// one, and the high half folded onto the low one, so that the word's high
/// bits reach the low ones too.
pub(crate) fn fold(h: u64, word: u64) -> u64 {
    let h = (h ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    h ^ (h >> 32)
}

/// The seed of the standard [`hash`] (FNV-1a's offset basis, from when
/// the hash was FNV-1a).
pub(crate) const SEED: u64 = 0xcbf2_9ce4_8422_2325;

/// What decides a compiled block's code: the build of irix-emu and the
/// host it compiles for (`fingerprint`, see `Jit::fingerprint`), the
/// block's address and instruction words, the CPU configuration the code
/// depends on (64-bit mode, which decodes the words, and the CP0 Status
/// bits the compiler looks at), and whether its accesses go through the
/// view of guest memory (`view`: a code page whose functions the view
/// refused too often is compiled for the soft TLB alone, see
/// `view::Refusals`, and its code is kept apart from the view's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Key {
    bytes: Vec<u8>,
}

impl Key {
    pub fn new(
        fingerprint: u64,
        pc: u32,
        words: &[u32],
        mode64: bool,
        status: u32,
        view: bool,
    ) -> Key {
        let mut bytes = Vec::with_capacity(8 + 4 + 4 + 2 + 4 + 4 * words.len());
        bytes.extend_from_slice(&fingerprint.to_le_bytes());
        bytes.extend_from_slice(&pc.to_le_bytes());
        bytes.extend_from_slice(&status.to_le_bytes());
        bytes.push(mode64 as u8);
        bytes.push(view as u8);
        bytes.extend_from_slice(&(words.len() as u32).to_le_bytes());
        for w in words {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        Key { bytes }
    }

    /// The id a pack's index keeps the entry under: 128 bits of hash of
    /// the key.
    pub fn id(&self) -> u128 {
        id_of(&self.bytes)
    }
}

/// 128 bits of hash of a key's bytes (two [`hash`]es, the second seeded
/// from the first).
fn id_of(key: &[u8]) -> u128 {
    let a = hash(SEED, key);
    let b = hash(a ^ 0x9e37_79b9_7f4a_7c15, key);
    (u128::from(a) << 64) | u128::from(b)
}

/// Why an entry's bytes were not used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Bad {
    #[error("not a translation (bad magic)")]
    Magic,
    #[error("written by another version (format {0})")]
    Format(u32),
    #[error("truncated or padded")]
    Length,
    #[error("holds another block's key")]
    Key,
    #[error("checksum mismatch")]
    Checksum,
}

/// The bytes of the entry holding `code` under `key`.
pub(crate) fn encode(key: &Key, code: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER + key.bytes.len() + code.len() + 8);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT.to_le_bytes());
    out.extend_from_slice(&(key.bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(&(code.len() as u32).to_le_bytes());
    out.extend_from_slice(&key.bytes);
    out.extend_from_slice(code);
    let sum = hash(SEED, &out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// The little-endian `u32` at `at` in `bytes` (in bounds).
pub(crate) fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

/// What is wrong with a file's first bytes (see [`format_of`]).
pub(crate) enum BadStart {
    /// Shorter than its header, or cut inside the magic.
    Length,
    /// Not this kind of file.
    Magic,
}

/// The format word of `file`, which must start with `magic` and the word
/// and be at least `min` bytes long (the same first bytes for an entry and
/// for a pack of entries).
pub(crate) fn format_of(file: &[u8], magic: &[u8; 8], min: usize) -> Result<u32, BadStart> {
    if file.len() < min.max(12) {
        return Err(if file.starts_with(magic) || magic.starts_with(file) {
            BadStart::Length
        } else {
            BadStart::Magic
        });
    }
    if file[..8] != magic[..] {
        return Err(BadStart::Magic);
    }
    Ok(u32_at(file, 8))
}

/// The code of entry `file`, once every check holds for `key`.
pub(crate) fn decode<'a>(key: &Key, file: &'a [u8]) -> Result<&'a [u8], Bad> {
    let (k, code) = check(file)?;
    if k != &key.bytes[..] {
        return Err(Bad::Key);
    }
    Ok(code)
}

/// The id of the key entry `file` holds, once every check but the key's
/// holds (for copying an entry from one pack to another without its key).
pub(crate) fn entry_id(file: &[u8]) -> Result<u128, Bad> {
    check(file).map(|(key, _)| id_of(key))
}

/// The key and code of entry `file`, once its magic, format, lengths and
/// checksum hold.
fn check(file: &[u8]) -> Result<(&[u8], &[u8]), Bad> {
    let format = format_of(file, &MAGIC, HEADER + 8).map_err(|e| match e {
        BadStart::Length => Bad::Length,
        BadStart::Magic => Bad::Magic,
    })?;
    if format != FORMAT {
        return Err(Bad::Format(format));
    }
    let (k, c) = (u32_at(file, 12) as usize, u32_at(file, 16) as usize);
    if c > MAX_CODE || k > file.len() || HEADER + k + c + 8 != file.len() {
        return Err(Bad::Length);
    }
    let body = file.len() - 8;
    let sum = u64::from_le_bytes(file[body..].try_into().expect("8 bytes"));
    if hash(SEED, &file[..body]) != sum {
        return Err(Bad::Checksum);
    }
    Ok((&file[HEADER..HEADER + k], &file[HEADER + k..body]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> Key {
        Key::new(
            7,
            0x0040_0100,
            &[0x2484_0001, 0x03e0_0008, 0],
            false,
            0,
            true,
        )
    }

    #[test]
    fn an_entry_gives_back_its_code_for_its_key() {
        let code = [0x55u8, 0x48, 0x89, 0xe5, 0xc3];
        assert_eq!(decode(&key(), &encode(&key(), &code)), Ok(&code[..]));
    }

    #[test]
    fn every_truncation_of_an_entry_is_refused() {
        let entry = encode(&key(), &[0xc3; 40]);
        for n in 0..entry.len() {
            assert!(decode(&key(), &entry[..n]).is_err(), "{n} bytes accepted");
        }
    }

    #[test]
    fn every_flipped_bit_is_refused() {
        let entry = encode(&key(), &[0x90, 0xc3]);
        for bit in 0..entry.len() * 8 {
            let mut bad = entry.clone();
            bad[bit / 8] ^= 1 << (bit % 8);
            assert!(decode(&key(), &bad).is_err(), "bit {bit} flipped accepted");
        }
    }

    #[test]
    fn the_hash_tells_trailing_zeroes_from_none() {
        // The last word is padded with zeroes: the length tells them apart.
        assert_ne!(hash(SEED, b"ab"), hash(SEED, b"ab\0"));
        assert_ne!(hash(SEED, &[0; 8]), hash(SEED, &[0; 16]));
        assert_ne!(hash(SEED, b""), hash(SEED, &[0]));
    }

    #[test]
    fn another_format_another_key_and_garbage_are_refused() {
        let entry = encode(&key(), &[0xc3]);
        let mut old = entry.clone();
        old[8] = 0;
        assert_eq!(decode(&key(), &old), Err(Bad::Format(0)));
        let other = Key::new(
            8,
            0x0040_0100,
            &[0x2484_0001, 0x03e0_0008, 0],
            false,
            0,
            true,
        );
        assert_eq!(decode(&other, &entry), Err(Bad::Key));
        assert_eq!(decode(&key(), &[0u8; 64]), Err(Bad::Magic));
        assert_eq!(decode(&key(), b""), Err(Bad::Length));
    }

    #[test]
    fn the_key_follows_every_input() {
        let base = key().id();
        let words = [0x2484_0001, 0x03e0_0008, 0];
        for other in [
            Key::new(8, 0x0040_0100, &words, false, 0, true),
            Key::new(7, 0x0040_0104, &words, false, 0, true),
            Key::new(7, 0x0040_0100, &words[..2], false, 0, true),
            Key::new(
                7,
                0x0040_0100,
                &[0x2484_0002, 0x03e0_0008, 0],
                false,
                0,
                true,
            ),
            Key::new(7, 0x0040_0100, &words, true, 0, true),
            Key::new(7, 0x0040_0100, &words, false, 1 << 29, true),
            Key::new(7, 0x0040_0100, &words, false, 0, false),
        ] {
            assert_ne!(other.id(), base);
        }
        assert_eq!(key().id(), base);
    }

    #[test]
    fn an_entry_checked_on_its_own_names_the_id_of_its_key() {
        let entry = encode(&key(), &[0xc3; 8]);
        assert_eq!(entry_id(&entry), Ok(key().id()));
        let mut bad = entry.clone();
        bad[30] ^= 1;
        assert_eq!(entry_id(&bad), Err(Bad::Checksum));
        assert_eq!(entry_id(&entry[..entry.len() - 1]), Err(Bad::Length));
    }
}
