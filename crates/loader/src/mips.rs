//! MIPS-specific ELF constants and the `e_flags` decoder.
//!
//! goblin has no MIPS constants, so they are defined here. Values
//! are binutils' include/elf/mips.h and the SVR4 MIPS processor supplement.
//!
//! Contents:
//! - `EF_MIPS_*`: header flag bits and fields.
//! - `PT_MIPS_*`, `SHT_MIPS_*`, `SHN_MIPS_*`, `ODK_REGINFO`.
//! - [`Abi`] and [`decode_flags`]: which ABI and ISA level `e_flags` names,
//!   or why an R4000 running IRIX cannot run it.

use crate::error::FlagError;

/// `.noreorder` was used: accepted, it only concerns the assembler.
pub const EF_MIPS_NOREORDER: u32 = 0x1;
/// Position-independent code: accepted (IRIX executables are often PIC).
pub const EF_MIPS_PIC: u32 = 0x2;
/// Calls PIC code: accepted.
pub const EF_MIPS_CPIC: u32 = 0x4;
/// Large GOT: accepted.
pub const EF_MIPS_XGOT: u32 = 0x8;
/// ucode object (binutils). docs/abi.md reads this bit as "64-bit" in IRIX's
/// 0x30 ABI mask; either way it is refused.
pub const EF_MIPS_UCODE: u32 = 0x10;
/// The n32 ABI (IRIX's name; binutils' EF_MIPS_ABI2).
pub const EF_MIPS_ABI2: u32 = 0x20;
/// .MIPS.options comes first: accepted.
pub const EF_MIPS_OPTIONS_FIRST: u32 = 0x80;
/// 64-bit ISA code run with 32-bit registers (o32 on MIPS III): accepted.
pub const EF_MIPS_32BITMODE: u32 = 0x100;
/// o32 with 64-bit FP registers (-mfp64): refused.
pub const EF_MIPS_FP64: u32 = 0x200;
/// IEEE 754-2008 NaN encoding: refused, the R4000 has the legacy encoding.
pub const EF_MIPS_NAN2008: u32 = 0x400;
/// The GNU ABI field (bits 12..15); IRIX leaves it 0.
pub const EF_MIPS_ABI: u32 = 0x0000_f000;
/// GNU's explicit o32 marker in [`EF_MIPS_ABI`].
pub const E_MIPS_ABI_O32: u32 = 0x0000_1000;
/// Vendor extensions (bits 16..23).
pub const EF_MIPS_MACH: u32 = 0x00ff_0000;
/// Application-specific extensions (bits 24..27): MDMX, MIPS16, microMIPS.
pub const EF_MIPS_ARCH_ASE: u32 = 0x0f00_0000;
/// Architecture level (bits 28..31): 0 = MIPS I, 1 = II, 2 = III, 3 = IV...
pub const EF_MIPS_ARCH: u32 = 0xf000_0000;

/// Register usage information (`.reginfo`), holds ri_gp_value.
pub const PT_MIPS_REGINFO: u32 = 0x7000_0000;
/// Runtime procedure table.
pub const PT_MIPS_RTPROC: u32 = 0x7000_0001;
/// `.MIPS.options`.
pub const PT_MIPS_OPTIONS: u32 = 0x7000_0002;
/// `.MIPS.abiflags` (binutils, newer than IRIX).
pub const PT_MIPS_ABIFLAGS: u32 = 0x7000_0003;

/// Section type of `.reginfo` (docs/abi.md).
pub const SHT_MIPS_REGINFO: u32 = 0x7000_0006;
/// Section type of `.MIPS.options` (docs/abi.md).
pub const SHT_MIPS_OPTIONS: u32 = 0x7000_000d;
/// Option kind of a register-information descriptor in `.MIPS.options`.
pub const ODK_REGINFO: u8 = 1;

/// Symbols allocated in the text section of a MIPS object (SVR4 MIPS
/// supplement, "Special section indexes").
pub const SHN_MIPS_TEXT: u16 = 0xff01;

/// Size of Elf32_RegInfo: ri_gprmask, `ri_cprmask[4]`, ri_gp_value.
pub const REGINFO_SIZE: usize = 24;
/// Offset of ri_gp_value in Elf32_RegInfo.
pub const REGINFO_GP_OFFSET: usize = 20;

/// The IRIX calling convention the executable was built for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Abi {
    /// The old 32-bit ABI: e_flags ABI bits 0 (docs/abi.md).
    #[default]
    O32,
    /// The new 32-bit ABI: EF_MIPS_ABI2 (0x20). Recognised; running it is
    /// later work.
    N32,
}

/// What `e_flags` says, once accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodedFlags {
    pub abi: Abi,
    /// 1, 2 or 3: MIPS I, II or III.
    pub isa_level: u8,
}

/// Decodes `e_flags`, refusing whatever an R4000 running o32/n32 cannot run.
///
/// Accepted without effect: NOREORDER, PIC, CPIC, XGOT, OPTIONS_FIRST,
/// 32BITMODE and the explicit GNU o32 marker. Unknown low bits (0x40, 0x800)
/// are accepted too: binutils assigns them no meaning that would change how
/// the code runs.
pub fn decode_flags(e_flags: u32) -> Result<DecodedFlags, FlagError> {
    let arch = (e_flags >> 28) as u8;
    if arch > 2 {
        return Err(FlagError::Arch { arch });
    }
    let ase = e_flags & EF_MIPS_ARCH_ASE;
    if ase != 0 {
        return Err(FlagError::Ase { bits: ase });
    }
    let mach = ((e_flags & EF_MIPS_MACH) >> 16) as u8;
    if mach != 0 {
        return Err(FlagError::Mach { mach });
    }
    let abi_field = e_flags & EF_MIPS_ABI;
    if abi_field != 0 && abi_field != E_MIPS_ABI_O32 {
        return Err(FlagError::ForeignAbi { field: abi_field });
    }
    if e_flags & EF_MIPS_UCODE != 0 {
        return Err(FlagError::Ucode);
    }
    if e_flags & EF_MIPS_NAN2008 != 0 {
        return Err(FlagError::Nan2008);
    }
    let abi = if e_flags & EF_MIPS_ABI2 != 0 {
        if abi_field == E_MIPS_ABI_O32 {
            return Err(FlagError::ConflictingAbi { e_flags });
        }
        if arch < 2 {
            return Err(FlagError::N32BelowMips3 { arch });
        }
        Abi::N32
    } else {
        if e_flags & EF_MIPS_FP64 != 0 {
            return Err(FlagError::Fp64);
        }
        Abi::O32
    };
    Ok(DecodedFlags {
        abi,
        isa_level: arch + 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_flags_table() {
        let cases: &[(&str, u32, Result<DecodedFlags, FlagError>)] = &[
            (
                "irix o32 mips1",
                0x0000_0000,
                Ok(DecodedFlags {
                    abi: Abi::O32,
                    isa_level: 1,
                }),
            ),
            (
                "irix o32 mips2 pic cpic",
                0x1000_0006,
                Ok(DecodedFlags {
                    abi: Abi::O32,
                    isa_level: 2,
                }),
            ),
            (
                "gnu o32 mips3 32bitmode noreorder",
                0x2000_1101,
                Ok(DecodedFlags {
                    abi: Abi::O32,
                    isa_level: 3,
                }),
            ),
            (
                "irix n32 mips3",
                0x2000_0020,
                Ok(DecodedFlags {
                    abi: Abi::N32,
                    isa_level: 3,
                }),
            ),
            (
                "n32 may use fp64 registers",
                0x2000_0220,
                Ok(DecodedFlags {
                    abi: Abi::N32,
                    isa_level: 3,
                }),
            ),
            ("mips iv", 0x3000_0000, Err(FlagError::Arch { arch: 3 })),
            (
                "mips32r2 (gcc's debian default)",
                0x7000_1007,
                Err(FlagError::Arch { arch: 7 }),
            ),
            (
                "mips16",
                0x0400_0000,
                Err(FlagError::Ase { bits: 0x0400_0000 }),
            ),
            ("vr5400", 0x2091_0000, Err(FlagError::Mach { mach: 0x91 })),
            (
                "eabi32",
                0x0000_3000,
                Err(FlagError::ForeignAbi { field: 0x3000 }),
            ),
            (
                "o64",
                0x2000_2000,
                Err(FlagError::ForeignAbi { field: 0x2000 }),
            ),
            ("ucode", 0x0000_0010, Err(FlagError::Ucode)),
            ("nan2008", 0x0000_1400, Err(FlagError::Nan2008)),
            ("fp64 with o32", 0x1000_1200, Err(FlagError::Fp64)),
            (
                "n32 and o32 at once",
                0x2000_1020,
                Err(FlagError::ConflictingAbi {
                    e_flags: 0x2000_1020,
                }),
            ),
            (
                "n32 on mips2",
                0x1000_0020,
                Err(FlagError::N32BelowMips3 { arch: 1 }),
            ),
        ];
        for (name, flags, expected) in cases {
            assert_eq!(&decode_flags(*flags), expected, "{name}");
        }
    }
}
