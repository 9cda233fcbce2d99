//! What the loader hands to the kernel and to the reports.
//!
//! Contents:
//! - [`Executable`]: entry point, segments, interpreter, symbols, gp.
//! - [`Segment`], [`Perms`]: one PT_LOAD segment, its bytes and permissions.
//! - [`Symbol`], [`SymbolKind`]: one symbol table entry kept for reports.
//! - `Executable::text_ranges`, `symbol_at`, `is_n32`.

use crate::error::LoadWarning;
use crate::mips::Abi;

/// A validated IRIX MIPS executable, ready to be mapped. `Default` (o32,
/// nothing mapped) is for tests that build one by hand.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Executable {
    /// ET_DYN: a shared object loaded as a program interpreter.
    pub shared: bool,
    /// o32 or n32, from e_flags.
    pub abi: Abi,
    /// 1, 2 or 3 (MIPS I..III), from EF_MIPS_ARCH.
    pub isa_level: u8,
    /// e_entry: inside an executable segment, word-aligned.
    pub entry: u32,
    /// The PT_LOAD segments that occupy memory, in program header order.
    /// They lie below 0x80000000 and do not overlap.
    pub segments: Vec<Segment>,
    /// The PT_INTERP path (without its NUL), when the options allowed one.
    pub interp: Option<String>,
    /// Functions, objects and text labels, sorted by address (then
    /// functions before labels before objects, then by name).
    pub symbols: Vec<Symbol>,
    /// ri_gp_value of PT_MIPS_REGINFO / `.reginfo`, the ODK_REGINFO option
    /// of `.MIPS.options`, or else the value of the `_gp` symbol.
    pub gp_value: Option<u32>,
    /// Where the program headers are in memory (PT_PHDR, or the PT_LOAD
    /// whose file bytes hold them), for AT_PHDR.
    pub phdr_vaddr: Option<u32>,
    /// e_phentsize (always 32), for AT_PHENT.
    pub phent: u16,
    /// e_phnum, for AT_PHNUM.
    pub phnum: u16,
    /// The raw e_flags word.
    pub e_flags: u32,
    /// Problems that do not prevent running (symbols unreadable...).
    pub warnings: Vec<LoadWarning>,
}

/// Access rights of a segment, from p_flags (PF_R 4, PF_W 2, PF_X 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Perms {
    pub read: bool,
    pub write: bool,
    pub exec: bool,
}

impl Perms {
    /// Decodes ELF p_flags (gABI, "Segment Flag Bits").
    pub fn from_p_flags(p_flags: u32) -> Perms {
        Perms {
            read: p_flags & 4 != 0,
            write: p_flags & 2 != 0,
            exec: p_flags & 1 != 0,
        }
    }
}

/// One PT_LOAD segment. Memory `vaddr .. vaddr + mem_size` holds `data`
/// followed by zeroes (the bss part).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    pub vaddr: u32,
    /// p_memsz; at least `file_size`.
    pub mem_size: u32,
    /// p_offset: where the segment's bytes start in the file.
    pub file_offset: u32,
    /// p_filesz: how many bytes the file supplies (the rest is zero).
    pub file_size: u32,
    /// The p_filesz bytes from the file, as [`crate::load`] read them;
    /// empty from [`crate::load_headers`] (map them from the file).
    pub data: Vec<u8>,
    pub perms: Perms,
}

impl Segment {
    /// One past the last byte, as u64 so that it never wraps.
    pub fn end(&self) -> u64 {
        u64::from(self.vaddr) + u64::from(self.mem_size)
    }

    /// Whether `addr` lies in this segment's memory.
    pub fn contains(&self, addr: u32) -> bool {
        addr >= self.vaddr && u64::from(addr) < self.end()
    }
}

/// What a kept symbol names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SymbolKind {
    /// STT_FUNC.
    Func,
    /// STT_NOTYPE in an executable section: an assembly label or routine.
    Other,
    /// STT_OBJECT.
    Object,
}

impl SymbolKind {
    /// Functions and text labels: what a PC can be inside.
    pub fn is_text(self) -> bool {
        matches!(self, SymbolKind::Func | SymbolKind::Other)
    }
}

/// A symbol kept for reports.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Symbol {
    pub name: String,
    pub addr: u32,
    /// st_size; 0 when the assembler was not told (labels, `.size`-less
    /// assembly routines).
    pub size: u32,
    pub kind: SymbolKind,
}

impl Symbol {
    /// One past the last byte of a sized symbol (`None` when size is 0).
    fn sized_end(&self) -> Option<u64> {
        (self.size > 0).then(|| u64::from(self.addr) + u64::from(self.size))
    }
}

impl Executable {
    /// `[start, end)` of every executable segment, in segment order. `end`
    /// is at most 0x80000000 (segments are validated), so it fits a u32.
    pub fn text_ranges(&self) -> Vec<(u32, u32)> {
        self.segments
            .iter()
            .filter(|s| s.perms.exec && s.mem_size > 0)
            .map(|s| (s.vaddr, s.vaddr.saturating_add(s.mem_size)))
            .collect()
    }

    /// The function containing `addr`: the sized function (FUNC or label with
    /// st_size) whose `[addr, addr + size)` holds it; failing that, the nearest
    /// text symbol without a size at or below `addr`, provided no sized one
    /// ends between the two (an assembly routine that never said `.size`).
    /// Objects never match. Binary search, then a walk back that stops at the
    /// first sized function.
    pub fn symbol_at(&self, addr: u32) -> Option<&Symbol> {
        let upto = self.symbols.partition_point(|s| s.addr <= addr);
        let mut nearest_unsized: Option<&Symbol> = None;
        for sym in self.symbols[..upto].iter().rev() {
            if !sym.kind.is_text() {
                continue;
            }
            match sym.sized_end() {
                Some(end) if u64::from(addr) < end => return Some(sym),
                Some(end) => {
                    // A sized function ends at or before addr: the unsized
                    // candidate counts only if it starts after that end.
                    nearest_unsized = nearest_unsized.filter(|u| u64::from(u.addr) >= end);
                    break;
                }
                None => {
                    // Walking back, the first unsized symbol is the nearest;
                    // among several at one address, prefer the one sorted
                    // first (Func before label), which is met last.
                    match nearest_unsized {
                        Some(u) if u.addr != sym.addr => {}
                        _ => nearest_unsized = Some(sym),
                    }
                }
            }
        }
        // An unsized symbol reaches no further than its segment.
        nearest_unsized.filter(|u| {
            self.segments
                .iter()
                .any(|s| s.perms.exec && s.contains(u.addr) && s.contains(addr))
        })
    }

    /// Whether the executable uses the n32 ABI.
    pub fn is_n32(&self) -> bool {
        self.abi == Abi::N32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(vaddr: u32, size: u32) -> Segment {
        Segment {
            vaddr,
            mem_size: size,
            file_offset: 0,
            file_size: 0,
            data: vec![],
            perms: Perms::from_p_flags(5),
        }
    }

    fn sym(name: &str, addr: u32, size: u32, kind: SymbolKind) -> Symbol {
        Symbol {
            name: name.to_string(),
            addr,
            size,
            kind,
        }
    }

    #[test]
    fn unsized_label_stops_at_the_end_of_its_segment() {
        let exe = Executable {
            segments: vec![text(0x1000, 0x100), text(0x2000, 0x100)],
            symbols: vec![sym("first", 0x1000, 0, SymbolKind::Other)],
            ..Default::default()
        };
        assert_eq!(
            exe.symbol_at(0x10fc).map(|s| s.name.as_str()),
            Some("first")
        );
        assert_eq!(exe.symbol_at(0x1100), None, "past the segment");
        assert_eq!(exe.symbol_at(0x2000), None, "another segment");
    }

    #[test]
    fn function_is_preferred_to_a_label_at_the_same_address() {
        // Sorted as load sorts them: Func before Other at one address.
        let exe = Executable {
            segments: vec![text(0x1000, 0x100)],
            symbols: vec![
                sym("__start", 0x1000, 0, SymbolKind::Func),
                sym("_ftext", 0x1000, 0, SymbolKind::Other),
            ],
            ..Default::default()
        };
        assert_eq!(
            exe.symbol_at(0x1010).map(|s| s.name.as_str()),
            Some("__start")
        );
    }

    #[test]
    fn text_ranges_are_the_executable_segments() {
        let data = Segment {
            perms: Perms::from_p_flags(6),
            ..text(0x4000, 0x10)
        };
        let exe = Executable {
            segments: vec![text(0x1000, 0x100), data, text(0x2000, 0x20)],
            ..Default::default()
        };
        assert_eq!(exe.text_ranges(), vec![(0x1000, 0x1100), (0x2000, 0x2020)]);
        assert!(!exe.is_n32());
    }
}
