//! The ELF header: identification, machine, class, version, type, flags.
//!
//! Contents:
//! - [`ElfHeader`]: the header fields the loader uses, as u32/u16.
//! - [`check_header`]: the checks in the order that gives the most useful
//!   message: magic, byte order, machine (an x86-64 file is "not MIPS"
//!   before it is "64-bit"), class, version, OS/ABI, type, e_flags.
//!
//! Field offsets are the gABI's ("ELF Header", "ELF Identification").

use crate::error::LoadError;
use crate::mips::{decode_flags, DecodedFlags};

const ELF_MAGIC: [u8; 4] = [0x7f, b'E', b'L', b'F'];
const EI_CLASS: usize = 4;
const EI_DATA: usize = 5;
const EI_VERSION: usize = 6;
const EI_OSABI: usize = 7;
const ELFCLASS32: u8 = 1;
const ELFCLASS64: u8 = 2;
const ELFDATA2LSB: u8 = 1;
const ELFDATA2MSB: u8 = 2;
const EV_CURRENT: u32 = 1;
/// ELFOSABI_NONE: what IRIX and GNU/Linux MIPS executables carry.
const ELFOSABI_NONE: u8 = 0;
/// ELFOSABI_IRIX: in the gABI table though IRIX itself wrote 0; accepted.
const ELFOSABI_IRIX: u8 = 8;
const ET_EXEC: u16 = 2;
/// ET_DYN: a shared object (IRIX's libc.so.1, the interpreter of dynamic
/// programs, is one).
const ET_DYN: u16 = 3;
const EM_MIPS: u16 = 8;
/// EM_MIPS_RS3_LE: little-endian MIPS R3000.
const EM_MIPS_RS3_LE: u16 = 10;
/// e_machine sits at the same offset in ELF32 and ELF64 headers.
const E_MACHINE_OFFSET: usize = 18;
/// Size of an Elf32_Ehdr.
pub const EHDR32_SIZE: usize = 52;

/// The header fields the loader uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ElfHeader {
    /// ET_DYN (accepted only when the options allow shared objects).
    pub shared: bool,
    pub e_entry: u32,
    pub e_phoff: u32,
    pub e_shoff: u32,
    pub e_flags: u32,
    pub e_phentsize: u16,
    pub e_phnum: u16,
    pub e_shentsize: u16,
    pub e_shnum: u16,
    pub decoded: DecodedFlags,
}

/// Checks the ELF header of `bytes`; `file` names the file in errors.
pub fn check_header(file: &str, bytes: &[u8], allow_shared: bool) -> Result<ElfHeader, LoadError> {
    let file = file.to_string();
    if bytes.is_empty() {
        return Err(LoadError::Empty { file });
    }
    let magic = &bytes[..bytes.len().min(4)];
    if magic != &ELF_MAGIC[..magic.len()] {
        return Err(LoadError::BadMagic {
            file,
            magic: magic.to_vec(),
        });
    }
    if bytes.len() < E_MACHINE_OFFSET + 2 {
        return Err(LoadError::TruncatedHeader { file });
    }
    let big_endian = match bytes[EI_DATA] {
        ELFDATA2MSB => true,
        ELFDATA2LSB => false,
        ei_data => return Err(LoadError::BadDataEncoding { file, ei_data }),
    };
    let machine_bytes = [bytes[E_MACHINE_OFFSET], bytes[E_MACHINE_OFFSET + 1]];
    let machine = if big_endian {
        u16::from_be_bytes(machine_bytes)
    } else {
        u16::from_le_bytes(machine_bytes)
    };
    if machine == EM_MIPS_RS3_LE || (machine == EM_MIPS && !big_endian) {
        return Err(LoadError::LittleEndian { file });
    }
    if machine != EM_MIPS {
        return Err(LoadError::NotMips { file, machine });
    }
    match bytes[EI_CLASS] {
        ELFCLASS32 => {}
        ELFCLASS64 => return Err(LoadError::Class64 { file }),
        ei_class => return Err(LoadError::BadClass { file, ei_class }),
    }
    if bytes.len() < EHDR32_SIZE {
        return Err(LoadError::TruncatedHeader { file });
    }
    if u32::from(bytes[EI_VERSION]) != EV_CURRENT {
        return Err(LoadError::BadVersion {
            file,
            field: "EI_VERSION",
            version: u32::from(bytes[EI_VERSION]),
        });
    }
    // Length, class and byte order are checked: goblin decodes the fields.
    let header = match goblin::elf32::header::Header::parse(bytes) {
        Ok(header) => header,
        Err(_) => return Err(LoadError::TruncatedHeader { file }),
    };
    if header.e_version != EV_CURRENT {
        return Err(LoadError::BadVersion {
            file,
            field: "e_version",
            version: header.e_version,
        });
    }
    let osabi = bytes[EI_OSABI];
    if osabi != ELFOSABI_NONE && osabi != ELFOSABI_IRIX {
        return Err(LoadError::ForeignOsAbi { file, osabi });
    }
    let shared = header.e_type == ET_DYN && allow_shared;
    if header.e_type != ET_EXEC && !shared {
        return Err(LoadError::NotExecutable {
            file,
            e_type: header.e_type,
        });
    }
    let decoded = decode_flags(header.e_flags).map_err(|error| LoadError::Flags {
        file: file.clone(),
        error,
    })?;
    Ok(ElfHeader {
        shared,
        e_entry: header.e_entry,
        e_phoff: header.e_phoff,
        e_shoff: header.e_shoff,
        e_flags: header.e_flags,
        e_phentsize: header.e_phentsize,
        e_phnum: header.e_phnum,
        e_shentsize: header.e_shentsize,
        e_shnum: header.e_shnum,
        decoded,
    })
}
