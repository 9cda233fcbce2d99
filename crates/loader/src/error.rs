//! Errors and warnings of the loader.
//!
//! Contents:
//! - [`LoadError`]: why a file was refused. Each `Display` is one line that
//!   names the file, the field and its value in words, ready for the CLI.
//! - [`FlagError`]: the `e_flags` problems (architecture level, ABI, ASE...).
//! - [`ProgramHeaderError`]: the program header and segment problems.
//! - [`LoadWarning`]: problems that do not stop the program from running
//!   (a damaged symbol table only costs the reports their names).

use std::fmt;

/// Why [`crate::load`] refused a file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// Zero bytes.
    #[error("{file}: empty file, not an ELF file")]
    Empty { file: String },
    /// The first four bytes are not `7f 45 4c 46` ("\x7fELF").
    #[error("{file}: not an ELF file (bad magic {})", HexBytes(magic))]
    BadMagic { file: String, magic: Vec<u8> },
    /// The file ends before the 52-byte ELF32 header does.
    #[error("{file}: truncated ELF header")]
    TruncatedHeader { file: String },
    /// `e_ident[EI_DATA]` is neither ELFDATA2LSB (1) nor ELFDATA2MSB (2).
    #[error("{file}: not a valid ELF file (EI_DATA {ei_data}, neither little- nor big-endian)")]
    BadDataEncoding { file: String, ei_data: u8 },
    /// `e_machine` is not EM_MIPS.
    #[error("{file}: not a MIPS executable (e_machine {machine}, {})", machine_name(*machine))]
    NotMips { file: String, machine: u16 },
    /// ELFDATA2LSB MIPS (or EM_MIPS_RS3_LE): IRIX machines are big-endian.
    #[error("{file}: little-endian MIPS is not IRIX")]
    LittleEndian { file: String },
    /// ELFCLASS64: the 64-bit IRIX ABI is out of scope.
    #[error("{file}: 64-bit ELF (ELFCLASS64) is not supported")]
    Class64 { file: String },
    /// `e_ident[EI_CLASS]` is neither ELFCLASS32 (1) nor ELFCLASS64 (2).
    #[error("{file}: not a valid ELF file (EI_CLASS {ei_class}, neither 32- nor 64-bit)")]
    BadClass { file: String, ei_class: u8 },
    /// `e_ident[EI_VERSION]` or `e_version` is not EV_CURRENT (1).
    #[error("{file}: unknown ELF version ({field} {version}, expected 1)")]
    BadVersion {
        file: String,
        field: &'static str,
        version: u32,
    },
    /// `e_ident[EI_OSABI]` is not ELFOSABI_NONE (0), which IRIX and GNU/Linux
    /// MIPS executables both use (docs/abi.md, "Which files are IRIX executables").
    #[error("{file}: not an IRIX executable (EI_OSABI {osabi}, {})", osabi_name(*osabi))]
    ForeignOsAbi { file: String, osabi: u8 },
    /// `e_type` is not ET_EXEC.
    #[error("{file}: not an executable (e_type {e_type}, {})", type_name(*e_type))]
    NotExecutable { file: String, e_type: u16 },
    /// `e_flags` asks for something an R4000 running IRIX o32/n32 is not.
    #[error("{file}: {error}")]
    Flags { file: String, error: FlagError },
    /// The program headers or the segments they describe are unusable.
    #[error("{file}: {error}")]
    ProgramHeaders {
        file: String,
        error: ProgramHeaderError,
    },
    /// The program names an interpreter (PT_INTERP) and
    /// [`crate::LoadOptions::allow_interp`] was false.
    #[error("{file}: dynamically linked (interpreter {interp}): needs an IRIX root, see --root")]
    Dynamic { file: String, interp: String },
}

/// An `e_flags` value this emulator cannot run. Bit names and values are
/// binutils' include/elf/mips.h; the IRIX meaning of the ABI bits is in docs/abi.md.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FlagError {
    /// EF_MIPS_ARCH (bits 28..31) beyond MIPS III.
    #[error("{} code (e_flags arch {arch}) {}: irix-emu emulates an R4000", arch_name(*arch), arch_needs(*arch))]
    Arch { arch: u8 },
    /// EF_MIPS_ABI (bits 12..15) names O64 or an EABI.
    #[error("{} code (e_flags ABI field {field:#x}) is not an IRIX ABI (o32 or n32)", abi_field_name(*field))]
    ForeignAbi { field: u32 },
    /// EF_MIPS_ABI2 together with EF_MIPS_ABI_O32.
    #[error("e_flags {e_flags:#x} names both n32 (EF_MIPS_ABI2) and o32 (EF_MIPS_ABI_O32)")]
    ConflictingAbi { e_flags: u32 },
    /// n32 needs 64-bit registers: MIPS III or later.
    #[error("n32 code for MIPS {} (e_flags arch {arch}): n32 needs MIPS III", roman(*arch))]
    N32BelowMips3 { arch: u8 },
    /// EF_MIPS_ARCH_ASE (bits 24..27): MDMX, MIPS16 or microMIPS.
    #[error("{} code (e_flags ASE {bits:#x}) is not R4000 code", ase_name(*bits))]
    Ase { bits: u32 },
    /// EF_MIPS_MACH (bits 16..23): a vendor's extended instruction set.
    #[error("code for a processor-specific extension (e_flags mach {mach:#x}, {}) is not R4000 code", mach_name(*mach))]
    Mach { mach: u8 },
    /// EF_MIPS_FP64 (0x200): o32 with 64-bit FP registers (binutils -mfp64).
    #[error("64-bit FP registers (EF_MIPS_FP64, e_flags bit 0x200) are not the IRIX o32 ABI")]
    Fp64,
    /// EF_MIPS_NAN2008 (0x400): IEEE 754-2008 NaN encoding.
    #[error("IEEE 754-2008 NaNs (EF_MIPS_NAN2008, e_flags bit 0x400) are not the R4000's")]
    Nan2008,
    /// EF_MIPS_UCODE (0x10). docs/abi.md reads bit 0x10 of the ABI mask as "64-bit";
    /// binutils names it EF_MIPS_UCODE. Either way it is neither o32 nor n32.
    #[error("e_flags bit 0x10 (EF_MIPS_UCODE) is neither o32 nor n32")]
    Ucode,
}

/// A program header table or segment that cannot be loaded. Segments are
/// numbered by their index in the program header table, from 0, as
/// `readelf -l` numbers them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProgramHeaderError {
    #[error("program header size {phentsize} (e_phentsize), expected 32")]
    EntrySize { phentsize: u16 },
    #[error("no program headers (e_phnum 0)")]
    NoProgramHeaders,
    #[error("program header table lies outside the file (offset {offset:#x}, {count} entries of 32 bytes, file size {file_size:#x})")]
    TableOutsideFile {
        offset: u32,
        count: u16,
        file_size: usize,
    },
    #[error("no loadable segment (no PT_LOAD program header with a memory size)")]
    NoLoadableSegment,
    #[error("segment {index} lies outside the file (offset {offset:#x}, size {size:#x}, file size {file_size:#x})")]
    SegmentOutsideFile {
        index: u16,
        offset: u32,
        size: u32,
        file_size: usize,
    },
    #[error("segment {index} has a file size {filesz:#x} larger than its memory size {memsz:#x}")]
    FileSizeAboveMemSize { index: u16, filesz: u32, memsz: u32 },
    #[error(
        "segment {index} (vaddr {vaddr:#x}, memory size {memsz:#x}) wraps around the address space"
    )]
    Wraps { index: u16, vaddr: u32, memsz: u32 },
    #[error("segment {index} (vaddr {vaddr:#x}, memory size {memsz:#x}) reaches kernel space at 0x80000000")]
    KernelSpace { index: u16, vaddr: u32, memsz: u32 },
    #[error("segments {first} and {second} overlap ({first_start:#x}..{first_end:#x} and {second_start:#x}..{second_end:#x})")]
    Overlap {
        first: u16,
        second: u16,
        first_start: u32,
        first_end: u64,
        second_start: u32,
        second_end: u64,
    },
    #[error("segment {index} (vaddr {vaddr:#x}, memory size {memsz:#x}) overlaps the {what} ({start:#x}..{end:#x}), which the kernel maps there")]
    Reserved {
        index: u16,
        vaddr: u32,
        memsz: u32,
        what: &'static str,
        start: u64,
        end: u64,
    },
    #[error("entry point {entry:#x} is outside any executable segment")]
    EntryOutside { entry: u32 },
    #[error("entry point {entry:#x} is not word-aligned")]
    EntryMisaligned { entry: u32 },
    #[error("interpreter path (segment {index}) lies outside the file (offset {offset:#x}, size {size:#x}, file size {file_size:#x})")]
    InterpOutsideFile {
        index: u16,
        offset: u32,
        size: u32,
        file_size: usize,
    },
    #[error("interpreter path (segment {index}) is empty")]
    InterpEmpty { index: u16 },
    #[error("more than one interpreter (PT_INTERP segments {first} and {second})")]
    TwoInterps { first: u16, second: u16 },
}

/// A problem that does not stop the program from loading: it runs, but the
/// reports lose symbol names or the gp value. Display is one line, like
/// [`LoadError`]'s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadWarning {
    #[error("{file}: section header size {shentsize} (e_shentsize), expected 40: symbols ignored")]
    SectionEntrySize { file: String, shentsize: u16 },
    #[error("{file}: section header table lies outside the file (offset {offset:#x}, {count} entries of 40 bytes): symbols ignored")]
    SectionTableOutsideFile {
        file: String,
        offset: u32,
        count: u16,
    },
    #[error("{file}: symbol table (section {section}) lies outside the file (offset {offset:#x}, size {size:#x}): symbols ignored")]
    SymtabOutsideFile {
        file: String,
        section: u32,
        offset: u32,
        size: u32,
    },
    #[error("{file}: string table (section {section}) of the symbol table is missing or lies outside the file: symbols ignored")]
    StrtabUnusable { file: String, section: u32 },
}

/// Formats bytes as `7f 45 4c 47`.
struct HexBytes<'a>(&'a [u8]);

impl fmt::Display for HexBytes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, byte) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{byte:02x}")?;
        }
        Ok(())
    }
}

/// Names for the e_machine values one is likely to meet (System V gABI,
/// "Machine Information"). goblin's `machine_to_str` spells them as C
/// constants ("X86_64"); users read "x86-64".
fn machine_name(machine: u16) -> &'static str {
    match machine {
        0 => "no machine",
        2 => "SPARC",
        3 => "Intel 386",
        4 => "Motorola 68000",
        8 => "MIPS",
        10 => "little-endian MIPS R3000",
        15 => "HP PA-RISC",
        18 => "SPARC32PLUS",
        20 => "PowerPC",
        21 => "64-bit PowerPC",
        22 => "IBM S/390",
        40 => "ARM",
        42 => "SuperH",
        43 => "SPARC V9",
        50 => "Intel Itanium",
        62 => "x86-64",
        183 => "AArch64",
        243 => "RISC-V",
        258 => "LoongArch",
        _ => "unknown machine",
    }
}

/// ELF OS/ABI identifications (gABI, "ELF Identification").
fn osabi_name(osabi: u8) -> &'static str {
    match osabi {
        0 => "System V",
        1 => "HP-UX",
        2 => "NetBSD",
        3 => "GNU/Linux",
        6 => "Solaris",
        7 => "AIX",
        8 => "IRIX",
        9 => "FreeBSD",
        12 => "OpenBSD",
        97 => "ARM",
        255 => "standalone",
        _ => "unknown OS/ABI",
    }
}

/// e_type names (gABI, "ELF Header").
fn type_name(e_type: u16) -> &'static str {
    match e_type {
        0 => "no file type",
        1 => "relocatable",
        2 => "executable",
        3 => "shared object",
        4 => "core file",
        _ => "unknown file type",
    }
}

/// EF_MIPS_ARCH values (binutils include/elf/mips.h, E_MIPS_ARCH_*).
fn arch_name(arch: u8) -> &'static str {
    match arch {
        0 => "MIPS I",
        1 => "MIPS II",
        2 => "MIPS III",
        3 => "MIPS IV",
        4 => "MIPS V",
        5 => "MIPS32",
        6 => "MIPS64",
        7 => "MIPS32 release 2",
        8 => "MIPS64 release 2",
        9 => "MIPS32 release 6",
        10 => "MIPS64 release 6",
        _ => "unknown MIPS architecture",
    }
}

/// Which processor the architecture level asks for.
fn arch_needs(arch: u8) -> &'static str {
    match arch {
        3 => "needs an R5000/R10000",
        4 => "needs a MIPS V processor",
        5 | 7 | 9 => "needs a MIPS32 processor",
        6 | 8 | 10 => "needs a MIPS64 processor",
        _ => "needs a processor irix-emu does not know",
    }
}

fn roman(arch: u8) -> &'static str {
    match arch {
        0 => "I",
        1 => "II",
        _ => "III",
    }
}

/// EF_MIPS_ABI field values (binutils include/elf/mips.h, E_MIPS_ABI_*).
fn abi_field_name(field: u32) -> &'static str {
    match field {
        0x2000 => "O64",
        0x3000 => "EABI32",
        0x4000 => "EABI64",
        _ => "unknown-ABI",
    }
}

/// EF_MIPS_ARCH_ASE bits (binutils include/elf/mips.h).
fn ase_name(bits: u32) -> &'static str {
    if bits & 0x0200_0000 != 0 {
        "microMIPS"
    } else if bits & 0x0400_0000 != 0 {
        "MIPS16"
    } else if bits & 0x0800_0000 != 0 {
        "MDMX"
    } else {
        "unknown ASE"
    }
}

/// EF_MIPS_MACH values (binutils include/elf/mips.h, E_MIPS_MACH_*), the
/// common ones only.
fn mach_name(mach: u8) -> &'static str {
    match mach {
        0x81 => "Toshiba TX39",
        0x82 => "NEC VR4010",
        0x83 => "NEC VR4100",
        0x85 => "IDT R4650",
        0x87 => "NEC VR4120",
        0x88 => "NEC VR4111",
        0x8a => "Broadcom SB-1",
        0x8b => "Cavium Octeon",
        0x8c => "RMI XLR",
        0x91 => "NEC VR5400",
        0x92 => "Toshiba R5900",
        0x98 => "NEC VR5500",
        0x99 => "RM9000",
        0xa0 => "Loongson 2E",
        0xa1 => "Loongson 2F",
        0xa2 => "Loongson 3A",
        _ => "unknown processor",
    }
}
