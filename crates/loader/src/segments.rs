//! Program headers: PT_LOAD segments, PT_INTERP, PT_PHDR, MIPS extras.
//!
//! Contents:
//! - [`ProgramLayout`]: what the program headers say.
//! - [`read_layout`]: parses the table (bounds checked here first, then
//!   decoded by goblin) and validates every segment.
//!
//! Rules (each an error naming the segment by its program header index):
//! the table and every PT_LOAD/PT_INTERP lie inside the file; p_filesz <=
//! p_memsz; a segment neither wraps past 2^32 nor reaches 0x80000000 (kuseg
//! ends there, R4000 User's Manual, ch. 4 "User Mode Operations"); PT_LOAD
//! memory ranges do not overlap (byte ranges: two segments may share a page,
//! the kernel maps them in order); the entry point is word-aligned and lies in
//! an executable segment; no segment covers the stack or the PRDA page
//! (`layout`). PT_LOAD segments with p_memsz 0 map nothing and are
//! dropped. p_align is not checked: the kernel copies bytes, it does not mmap
//! the file. Other types (PT_NOTE, PT_MIPS_ABIFLAGS, PT_MIPS_RTPROC,
//! PT_GNU_STACK...) are skipped, except that PT_MIPS_REGINFO and
//! PT_MIPS_OPTIONS are read for the gp value when they lie in the file.

use goblin::container::{Container, Ctx, Endian};
use goblin::elf::program_header::{ProgramHeader, PT_INTERP, PT_LOAD, PT_PHDR};

use crate::error::ProgramHeaderError;
use crate::executable::{Perms, Segment};
use crate::gp::{gp_from_options, gp_from_reginfo};
use crate::header::ElfHeader;
use crate::mips::{PT_MIPS_OPTIONS, PT_MIPS_REGINFO};

/// Size of an Elf32_Phdr.
pub const PHDR32_SIZE: u16 = 32;
/// First address of kernel space (kseg0): user segments end at or before it.
const KSEG0: u64 = 0x8000_0000;

/// What the program headers describe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgramLayout {
    pub segments: Vec<Segment>,
    pub interp: Option<String>,
    pub phdr_vaddr: Option<u32>,
    /// From PT_MIPS_REGINFO, else PT_MIPS_OPTIONS.
    pub gp_value: Option<u32>,
}

/// A PT_LOAD segment that passed its own checks, with its index.
struct Loadable {
    index: u16,
    segment: Segment,
}

/// The file bytes `[offset, offset + size)`, if the file holds them.
fn file_range(bytes: &[u8], offset: u64, size: u64) -> Option<&[u8]> {
    let end = offset.checked_add(size)?;
    let start = usize::try_from(offset).ok()?;
    let end = usize::try_from(end).ok()?;
    bytes.get(start..end)
}

/// Reads and validates the program headers of a checked ELF header.
/// `bytes` holds the file, or (`file_size` larger) its first bytes: then
/// the header structures must lie in them, segments are checked against
/// `file_size`, and their data is left for the caller to map from the file.
pub fn read_layout(
    bytes: &[u8],
    file_size: u64,
    header: &ElfHeader,
) -> Result<ProgramLayout, ProgramHeaderError> {
    if header.e_phnum == 0 {
        return Err(ProgramHeaderError::NoProgramHeaders);
    }
    if header.e_phentsize != PHDR32_SIZE {
        return Err(ProgramHeaderError::EntrySize {
            phentsize: header.e_phentsize,
        });
    }
    let table_size = u64::from(header.e_phnum) * u64::from(PHDR32_SIZE);
    let outside = || ProgramHeaderError::TableOutsideFile {
        offset: header.e_phoff,
        count: header.e_phnum,
        file_size: bytes.len(),
    };
    if file_range(bytes, u64::from(header.e_phoff), table_size).is_none() {
        return Err(outside());
    }
    // Container::Little is goblin's name for the 32-bit layout.
    let ctx = Ctx::new(Container::Little, Endian::Big);
    let phdrs = ProgramHeader::parse(
        bytes,
        header.e_phoff as usize,
        usize::from(header.e_phnum),
        ctx,
    )
    .map_err(|_| outside())?;

    let mut loadables: Vec<Loadable> = Vec::new();
    let mut interp: Option<(u16, String)> = None;
    let mut pt_phdr: Option<u32> = None;
    let mut reginfo_gp: Option<u32> = None;
    let mut options_gp: Option<u32> = None;
    for (index, phdr) in phdrs.iter().enumerate() {
        // e_phnum is a u16, so the index fits.
        let index = index as u16;
        match phdr.p_type {
            PT_LOAD => {
                if let Some(segment) = check_load(bytes, file_size, index, phdr)? {
                    loadables.push(Loadable { index, segment });
                }
            }
            PT_INTERP => {
                let path = read_interp(bytes, index, phdr)?;
                if let Some((first, _)) = interp {
                    return Err(ProgramHeaderError::TwoInterps {
                        first,
                        second: index,
                    });
                }
                interp = Some((index, path));
            }
            PT_PHDR => pt_phdr = pt_phdr.or(Some(phdr.p_vaddr as u32)),
            PT_MIPS_REGINFO => {
                reginfo_gp = reginfo_gp.or_else(|| {
                    file_range(bytes, phdr.p_offset, phdr.p_filesz).and_then(gp_from_reginfo)
                })
            }
            PT_MIPS_OPTIONS => {
                options_gp = options_gp.or_else(|| {
                    file_range(bytes, phdr.p_offset, phdr.p_filesz).and_then(gp_from_options)
                })
            }
            _ => {}
        }
    }
    if loadables.is_empty() {
        return Err(ProgramHeaderError::NoLoadableSegment);
    }
    check_overlaps(&loadables)?;
    // A shared object may be moved where there is room; an executable
    // goes where it was linked.
    if !header.shared {
        check_reserved(&loadables)?;
    }
    check_entry(header.e_entry, &loadables)?;
    let phdr_vaddr = pt_phdr.or_else(|| phdrs_in_memory(header, &phdrs));
    Ok(ProgramLayout {
        segments: loadables.into_iter().map(|l| l.segment).collect(),
        interp: interp.map(|(_, path)| path),
        phdr_vaddr,
        gp_value: reginfo_gp.or(options_gp),
    })
}

/// Validates one PT_LOAD; `None` when it maps nothing (p_memsz 0).
fn check_load(
    bytes: &[u8],
    file_size: u64,
    index: u16,
    phdr: &ProgramHeader,
) -> Result<Option<Segment>, ProgramHeaderError> {
    // goblin widened 32-bit fields to u64: the casts are lossless.
    let offset = phdr.p_offset as u32;
    let filesz = phdr.p_filesz as u32;
    let memsz = phdr.p_memsz as u32;
    let vaddr = phdr.p_vaddr as u32;
    if filesz > memsz {
        return Err(ProgramHeaderError::FileSizeAboveMemSize {
            index,
            filesz,
            memsz,
        });
    }
    if phdr.p_offset + phdr.p_filesz > file_size {
        return Err(ProgramHeaderError::SegmentOutsideFile {
            index,
            offset,
            size: filesz,
            file_size: file_size as usize,
        });
    }
    // Only a whole file supplies the data (a head alone: mapped later).
    let data = if file_size == bytes.len() as u64 {
        file_range(bytes, phdr.p_offset, phdr.p_filesz).unwrap_or(&[])
    } else {
        &[]
    };
    if memsz == 0 {
        return Ok(None);
    }
    let end = u64::from(vaddr) + u64::from(memsz);
    if end > 1 << 32 {
        return Err(ProgramHeaderError::Wraps {
            index,
            vaddr,
            memsz,
        });
    }
    if end > KSEG0 {
        return Err(ProgramHeaderError::KernelSpace {
            index,
            vaddr,
            memsz,
        });
    }
    Ok(Some(Segment {
        vaddr,
        mem_size: memsz,
        file_offset: offset,
        file_size: filesz,
        data: data.to_vec(),
        perms: Perms::from_p_flags(phdr.p_flags),
    }))
}

/// The PT_INTERP path without its terminating NUL.
fn read_interp(
    bytes: &[u8],
    index: u16,
    phdr: &ProgramHeader,
) -> Result<String, ProgramHeaderError> {
    let Some(raw) = file_range(bytes, phdr.p_offset, phdr.p_filesz) else {
        return Err(ProgramHeaderError::InterpOutsideFile {
            index,
            offset: phdr.p_offset as u32,
            size: phdr.p_filesz as u32,
            file_size: bytes.len(),
        });
    };
    let path = raw.split(|&b| b == 0).next().unwrap_or(&[]);
    if path.is_empty() {
        return Err(ProgramHeaderError::InterpEmpty { index });
    }
    Ok(String::from_utf8_lossy(path).into_owned())
}

/// Rejects two PT_LOAD segments sharing a byte of memory.
fn check_overlaps(loadables: &[Loadable]) -> Result<(), ProgramHeaderError> {
    let mut by_address: Vec<&Loadable> = loadables.iter().collect();
    by_address.sort_by_key(|l| l.segment.vaddr);
    for pair in by_address.windows(2) {
        let (low, high) = (&pair[0], &pair[1]);
        if low.segment.end() > u64::from(high.segment.vaddr) {
            return Err(ProgramHeaderError::Overlap {
                first: low.index,
                second: high.index,
                first_start: low.segment.vaddr,
                first_end: low.segment.end(),
                second_start: high.segment.vaddr,
                second_end: high.segment.end(),
            });
        }
    }
    Ok(())
}

/// Rejects a segment covering what the IRIX kernel maps itself: the stack
/// (with its growth area) and the PRDA page. The kernel would replace that
/// part of the segment, and the program would fail in a confusing way.
fn check_reserved(loadables: &[Loadable]) -> Result<(), ProgramHeaderError> {
    for l in loadables {
        for area in crate::layout::RESERVED {
            let (start, end) = (u64::from(l.segment.vaddr), l.segment.end());
            if start < area.end && area.start < end {
                return Err(ProgramHeaderError::Reserved {
                    index: l.index,
                    vaddr: l.segment.vaddr,
                    memsz: l.segment.mem_size,
                    what: area.name,
                    start: area.start,
                    end: area.end,
                });
            }
        }
    }
    Ok(())
}

/// The entry point must be an instruction address the program can fetch.
fn check_entry(entry: u32, loadables: &[Loadable]) -> Result<(), ProgramHeaderError> {
    if !loadables
        .iter()
        .any(|l| l.segment.perms.exec && l.segment.contains(entry))
    {
        return Err(ProgramHeaderError::EntryOutside { entry });
    }
    if !entry.is_multiple_of(4) {
        return Err(ProgramHeaderError::EntryMisaligned { entry });
    }
    Ok(())
}

/// Without PT_PHDR, the program headers are in memory when a PT_LOAD's file
/// bytes include the whole table (how Linux computes AT_PHDR).
fn phdrs_in_memory(header: &ElfHeader, phdrs: &[ProgramHeader]) -> Option<u32> {
    let start = u64::from(header.e_phoff);
    let end = start + u64::from(header.e_phnum) * u64::from(PHDR32_SIZE);
    phdrs
        .iter()
        .filter(|p| p.p_type == PT_LOAD && p.p_memsz > 0)
        .find(|p| p.p_offset <= start && end <= p.p_offset + p.p_filesz)
        .map(|p| (p.p_vaddr + (start - p.p_offset)) as u32)
}
