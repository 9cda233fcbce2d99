//! Section headers: the symbol table for reports, `.reginfo`/`.MIPS.options`.
//!
//! Contents:
//! - [`SectionInfo`]: the symbols kept, gp values found, warnings.
//! - [`read_sections`]: never fails. A running program does not need its
//!   sections (kernels ignore them), so a damaged table becomes a
//!   [`LoadWarning`] and the reports go without names.
//!
//! Kept: defined STT_FUNC and STT_OBJECT symbols,
//! and STT_NOTYPE symbols of an executable section (SHF_EXECINSTR, or
//! SHN_MIPS_TEXT) -- assembly labels. Names are read here, not with goblin's
//! Strtab, which panics on invalid UTF-8 in its unchecked accessor; invalid
//! UTF-8 becomes U+FFFD. `.symtab` is used, `.dynsym` only without one.

use goblin::container::{Container, Ctx, Endian};
use goblin::elf::section_header::{
    SectionHeader, SHF_EXECINSTR, SHT_DYNSYM, SHT_NOBITS, SHT_SYMTAB,
};
use goblin::elf::sym::{Sym, STT_FUNC, STT_NOTYPE, STT_OBJECT};

use crate::error::LoadWarning;
use crate::executable::{Symbol, SymbolKind};
use crate::gp::{gp_from_options, gp_from_reginfo};
use crate::header::ElfHeader;
use crate::mips::{SHN_MIPS_TEXT, SHT_MIPS_OPTIONS, SHT_MIPS_REGINFO};

/// Size of an Elf32_Shdr.
const SHDR32_SIZE: u16 = 40;
/// Size of an Elf32_Sym.
const SYM32_SIZE: u32 = 16;
/// SHN_UNDEF: an undefined symbol.
const SHN_UNDEF: u16 = 0;
/// The gp symbol the linkers define (IRIX ld and GNU ld both call it _gp).
const GP_SYMBOL: &str = "_gp";

/// What the section headers gave.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SectionInfo {
    /// Sorted by address, then kind (Func, Other, Object), then name.
    pub symbols: Vec<Symbol>,
    /// ri_gp_value of `.reginfo`, else of `.MIPS.options`.
    pub section_gp: Option<u32>,
    /// The value of the `_gp` symbol.
    pub symbol_gp: Option<u32>,
    pub warnings: Vec<LoadWarning>,
}

/// The file bytes of a section with contents, if the file holds them.
fn section_bytes<'a>(bytes: &'a [u8], shdr: &SectionHeader) -> Option<&'a [u8]> {
    if shdr.sh_type == SHT_NOBITS {
        return None;
    }
    let start = usize::try_from(shdr.sh_offset).ok()?;
    let end = start.checked_add(usize::try_from(shdr.sh_size).ok()?)?;
    bytes.get(start..end)
}

/// Reads symbols and gp values from the section headers of `bytes`.
pub fn read_sections(file: &str, bytes: &[u8], header: &ElfHeader) -> SectionInfo {
    let mut info = SectionInfo::default();
    if header.e_shoff == 0 || header.e_shnum == 0 {
        return info;
    }
    if header.e_shentsize != SHDR32_SIZE {
        info.warnings.push(LoadWarning::SectionEntrySize {
            file: file.to_string(),
            shentsize: header.e_shentsize,
        });
        return info;
    }
    let table_end = u64::from(header.e_shoff) + u64::from(header.e_shnum) * u64::from(SHDR32_SIZE);
    let outside = || LoadWarning::SectionTableOutsideFile {
        file: file.to_string(),
        offset: header.e_shoff,
        count: header.e_shnum,
    };
    if table_end > bytes.len() as u64 {
        info.warnings.push(outside());
        return info;
    }
    let ctx = Ctx::new(Container::Little, Endian::Big);
    // e_shnum is not 0 here, so goblin does not take the count from the
    // null section's sh_size.
    let sections = match SectionHeader::parse_from(
        bytes,
        header.e_shoff as usize,
        usize::from(header.e_shnum),
        ctx,
    ) {
        Ok(sections) => sections,
        Err(_) => {
            info.warnings.push(outside());
            return info;
        }
    };
    info.section_gp = find_section_gp(bytes, &sections);
    let symtab = sections
        .iter()
        .position(|s| s.sh_type == SHT_SYMTAB)
        .or_else(|| sections.iter().position(|s| s.sh_type == SHT_DYNSYM));
    if let Some(index) = symtab {
        match read_symtab(file, bytes, &sections, index, ctx) {
            Ok((symbols, gp)) => {
                info.symbols = symbols;
                info.symbol_gp = gp;
            }
            Err(warning) => info.warnings.push(warning),
        }
    }
    info
}

/// ri_gp_value from `.reginfo`, else from `.MIPS.options`.
fn find_section_gp(bytes: &[u8], sections: &[SectionHeader]) -> Option<u32> {
    let of_type = |sh_type: u32| sections.iter().filter(move |s| s.sh_type == sh_type);
    of_type(SHT_MIPS_REGINFO)
        .find_map(|s| section_bytes(bytes, s).and_then(gp_from_reginfo))
        .or_else(|| {
            of_type(SHT_MIPS_OPTIONS)
                .find_map(|s| section_bytes(bytes, s).and_then(gp_from_options))
        })
}

/// The kept symbols of section `index`, sorted, and the `_gp` value.
fn read_symtab(
    file: &str,
    bytes: &[u8],
    sections: &[SectionHeader],
    index: usize,
    ctx: Ctx,
) -> Result<(Vec<Symbol>, Option<u32>), LoadWarning> {
    let symtab = &sections[index];
    let Some(table) = section_bytes(bytes, symtab) else {
        return Err(LoadWarning::SymtabOutsideFile {
            file: file.to_string(),
            section: index as u32,
            offset: symtab.sh_offset as u32,
            size: symtab.sh_size as u32,
        });
    };
    let strtab = sections
        .get(symtab.sh_link as usize)
        .and_then(|s| section_bytes(bytes, s))
        .ok_or_else(|| LoadWarning::StrtabUnusable {
            file: file.to_string(),
            section: symtab.sh_link,
        })?;
    let count = table.len() / SYM32_SIZE as usize;
    // The slice holds count entries, so goblin cannot run short.
    let syms = Sym::parse(table, 0, count, ctx).map_err(|_| LoadWarning::SymtabOutsideFile {
        file: file.to_string(),
        section: index as u32,
        offset: symtab.sh_offset as u32,
        size: symtab.sh_size as u32,
    })?;

    let is_text_section = |shndx: usize| {
        shndx == usize::from(SHN_MIPS_TEXT)
            || sections
                .get(shndx)
                .is_some_and(|s| s.sh_flags & u64::from(SHF_EXECINSTR) != 0)
    };
    let mut symbols = Vec::new();
    let mut gp = None;
    for sym in &syms {
        let name = symbol_name(strtab, sym.st_name);
        if name == GP_SYMBOL && gp.is_none() && sym.st_shndx != usize::from(SHN_UNDEF) {
            gp = Some(sym.st_value as u32);
        }
        if sym.st_shndx == usize::from(SHN_UNDEF) || name.is_empty() {
            continue;
        }
        let kind = match sym.st_type() {
            STT_FUNC => SymbolKind::Func,
            STT_OBJECT => SymbolKind::Object,
            STT_NOTYPE if is_text_section(sym.st_shndx) => SymbolKind::Other,
            _ => continue,
        };
        symbols.push(Symbol {
            name,
            addr: sym.st_value as u32,
            size: sym.st_size as u32,
            kind,
        });
    }
    symbols
        .sort_by(|a, b| (a.addr, a.kind, &a.name, a.size).cmp(&(b.addr, b.kind, &b.name, b.size)));
    symbols.dedup();
    Ok((symbols, gp))
}

/// The NUL-terminated name at `offset` in `strtab` ("" when out of range).
fn symbol_name(strtab: &[u8], offset: usize) -> String {
    let Some(tail) = strtab.get(offset..) else {
        return String::new();
    };
    let name = tail.split(|&b| b == 0).next().unwrap_or(&[]);
    String::from_utf8_lossy(name).into_owned()
}
