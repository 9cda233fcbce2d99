//! The gp register's intended value, from `.reginfo` or `.MIPS.options`.
//!
//! Contents:
//! - [`gp_from_reginfo`]: ri_gp_value of an Elf32_RegInfo.
//! - [`gp_from_options`]: the ODK_REGINFO descriptor of `.MIPS.options`.
//!
//! Layouts: SVR4 MIPS processor supplement ("Register Information") and
//! binutils' include/elf/mips.h (Elf_Options: kind u8, size u8, section u16,
//! info u32, then the kind's data). n32 puts an Elf32_RegInfo after the
//! descriptor header, as binutils writes it for 32-bit ABIs; that n32 layout
//! is taken from binutils, not checked against an IRIX binary.

use crate::mips::{ODK_REGINFO, REGINFO_GP_OFFSET, REGINFO_SIZE};

/// Size of the Elf_Options descriptor header.
const OPTIONS_HEADER_SIZE: usize = 8;

/// Reads a big-endian u32 at `offset`, if the slice holds it.
pub fn be_u32(bytes: &[u8], offset: usize) -> Option<u32> {
    let end = offset.checked_add(4)?;
    let word = bytes.get(offset..end)?;
    Some(u32::from_be_bytes([word[0], word[1], word[2], word[3]]))
}

/// ri_gp_value of the Elf32_RegInfo at the start of `reginfo`.
pub fn gp_from_reginfo(reginfo: &[u8]) -> Option<u32> {
    if reginfo.len() < REGINFO_SIZE {
        return None;
    }
    be_u32(reginfo, REGINFO_GP_OFFSET)
}

/// ri_gp_value of the first ODK_REGINFO descriptor in `options`.
pub fn gp_from_options(options: &[u8]) -> Option<u32> {
    let mut offset = 0usize;
    while offset + OPTIONS_HEADER_SIZE <= options.len() {
        let kind = options[offset];
        let size = usize::from(options[offset + 1]);
        if size < OPTIONS_HEADER_SIZE {
            // A size of 0 would loop forever; anything under the header is
            // malformed. Stop reading.
            return None;
        }
        let end = offset.checked_add(size)?;
        let descriptor = options.get(offset..end)?;
        if kind == ODK_REGINFO {
            return gp_from_reginfo(&descriptor[OPTIONS_HEADER_SIZE..]);
        }
        offset = end;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reginfo(gp: u32) -> Vec<u8> {
        let mut bytes = vec![0u8; 20];
        bytes.extend_from_slice(&gp.to_be_bytes());
        bytes
    }

    #[test]
    fn reginfo_gives_ri_gp_value_at_offset_20() {
        assert_eq!(gp_from_reginfo(&reginfo(0x1000_8010)), Some(0x1000_8010));
        assert_eq!(gp_from_reginfo(&reginfo(0x1000_8010)[..23]), None);
    }

    #[test]
    fn options_find_the_reginfo_descriptor_after_others() {
        let mut options = vec![7u8, 16, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8];
        options.extend_from_slice(&[ODK_REGINFO, 32, 0, 0, 0, 0, 0, 0]);
        options.extend_from_slice(&reginfo(0x1001_7ff0));
        assert_eq!(gp_from_options(&options), Some(0x1001_7ff0));
    }

    #[test]
    fn options_with_zero_size_descriptor_stop() {
        assert_eq!(gp_from_options(&[ODK_REGINFO, 0, 0, 0, 0, 0, 0, 0]), None);
        assert_eq!(gp_from_options(&[ODK_REGINFO, 64, 0, 0, 0, 0, 0, 0]), None);
    }
}
