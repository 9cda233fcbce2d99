//! An ELF32 MIPS executable writer for tests: the loader's acceptance and
//! rejection tables, the CLI's hand-built programs and the differential
//! tests' images for qemu-mips all come from [`Elf::build`].
//!
//! Contents:
//! - [`Elf`]: header fields, [`Segment`]s and [`Symbol`]s; presets
//!   [`Elf::irix_o32`] and [`Elf::program`].
//! - [`Elf::build`]: the file layout (below).
//! - The ELF constants the tests name, the offsets of header fields, and
//!   [`patch_u16`], [`patch_u32`], [`phdr_field`] for byte surgery.
//!
//! Layout: the ELF header at 0, the program headers right after it (one per
//! segment, in order), then the segments' bytes. A segment that
//! [`maps_headers`](Segment::maps_headers) starts at file offset 0, as ld
//! lays out a small program's text, and its bytes follow the program
//! headers; every other segment's bytes start at or after
//! [`Elf::data_start`], at an offset congruent to its address modulo its
//! alignment (what PT_LOAD asks of a file that is mapped page by page).
//! With [`Elf::section_headers`], one section per segment, `.symtab` and
//! `.strtab` follow, then the section header table.
//!
//! Source: System V ABI, chapter 4 ("ELF Header", "Sections", "Symbol
//! Table") and chapter 5 ("Program Header"); the MIPS supplement for
//! EM_MIPS, the e_flags bits, PT_MIPS_REGINFO and PT_MIPS_ABIFLAGS.

pub const ELFCLASS32: u8 = 1;
pub const ELFDATA2LSB: u8 = 1;
pub const ELFDATA2MSB: u8 = 2;
pub const EV_CURRENT: u8 = 1;
pub const ET_EXEC: u16 = 2;
pub const EM_MIPS: u16 = 8;

pub const PT_LOAD: u32 = 1;
pub const PT_INTERP: u32 = 3;
pub const PT_PHDR: u32 = 6;
pub const PT_MIPS_REGINFO: u32 = 0x7000_0000;
pub const PT_MIPS_ABIFLAGS: u32 = 0x7000_0003;
pub const PF_X: u32 = 1;
pub const PF_W: u32 = 2;
pub const PF_R: u32 = 4;

/// e_flags: EF_MIPS_ARCH in bits 31..28 (1 = MIPS II, 2 = MIPS III).
pub const EF_MIPS_ARCH_2: u32 = 0x1000_0000;
pub const EF_MIPS_ARCH_3: u32 = 0x2000_0000;
/// e_flags: the o32 ABI, said outright.
pub const EF_MIPS_ABI_O32: u32 = 0x0000_1000;
/// e_flags: n32 (qemu-mipsn32 refuses an image without it).
pub const EF_MIPS_ABI2: u32 = 0x0000_0020;

pub const STT_NOTYPE: u8 = 0;
pub const STT_OBJECT: u8 = 1;
pub const STT_FUNC: u8 = 2;
pub const STT_SECTION: u8 = 3;
pub const STB_LOCAL: u8 = 0;
pub const STB_GLOBAL: u8 = 1;
pub const SHN_ABS: u16 = 0xfff1;

/// Sizes of Elf32_Ehdr and Elf32_Phdr.
pub const EHDR_SIZE: u32 = 52;
pub const PHDR_SIZE: u32 = 32;

/// Offsets of Elf32_Ehdr fields.
pub const E_TYPE: usize = 16;
pub const E_MACHINE: usize = 18;
pub const E_VERSION: usize = 20;
pub const E_ENTRY: usize = 24;
pub const E_PHOFF: usize = 28;
pub const E_SHOFF: usize = 32;
pub const E_FLAGS: usize = 36;
pub const E_PHENTSIZE: usize = 42;
pub const E_PHNUM: usize = 44;
pub const E_SHNUM: usize = 48;

/// Offsets of Elf32_Phdr fields.
pub const P_TYPE: usize = 0;
pub const P_OFFSET: usize = 4;
pub const P_VADDR: usize = 8;
pub const P_FILESZ: usize = 16;
pub const P_MEMSZ: usize = 20;
pub const P_FLAGS: usize = 24;

/// Where [`Elf::program`] loads the file's first byte (the usual IRIX and
/// Linux text address).
pub const PROGRAM_BASE: u32 = 0x0040_0000;

/// One program header and the bytes it describes.
#[derive(Debug, Clone)]
pub struct Segment {
    pub p_type: u32,
    /// p_vaddr: the address of the segment's first byte (for a segment that
    /// maps the headers, the address of the file's first byte).
    pub vaddr: u32,
    /// The bytes after the headers (all of them when the segment does not
    /// map the headers).
    pub data: Vec<u8>,
    /// Memory size of `data`'s part: p_memsz less the header bytes mapped.
    pub mem_size: u32,
    pub flags: u32,
    /// p_align; the file offset is congruent to the address modulo it.
    pub align: u32,
    /// The segment starts at file offset 0, so it maps the ELF header and
    /// the program headers too. At most one segment may.
    pub maps_headers: bool,
}

impl Segment {
    /// A PT_LOAD of `data` at `vaddr`, `mem_size` bytes in memory.
    pub fn load(vaddr: u32, data: Vec<u8>, mem_size: u32, flags: u32) -> Segment {
        Segment {
            p_type: PT_LOAD,
            vaddr,
            data,
            mem_size,
            flags,
            align: 16,
            maps_headers: false,
        }
    }

    /// Any other program header (PT_INTERP, PT_MIPS_ABIFLAGS...): `data`
    /// in the file, address 0, readable.
    pub fn other(p_type: u32, data: Vec<u8>) -> Segment {
        let mem_size = data.len() as u32;
        Segment {
            p_type,
            vaddr: 0,
            data,
            mem_size,
            flags: PF_R,
            align: 16,
            maps_headers: false,
        }
    }

    /// This segment with p_align `align`.
    pub fn aligned(self, align: u32) -> Segment {
        Segment { align, ..self }
    }
}

/// One `.symtab` entry.
#[derive(Debug, Clone)]
pub struct Symbol {
    pub name: &'static str,
    pub value: u32,
    pub size: u32,
    pub st_type: u8,
    pub bind: u8,
    /// Section index: segment i is section i + 1.
    pub shndx: u16,
}

impl Symbol {
    /// A global symbol.
    pub fn new(name: &'static str, value: u32, size: u32, st_type: u8, shndx: u16) -> Symbol {
        Symbol {
            name,
            value,
            size,
            st_type,
            bind: STB_GLOBAL,
            shndx,
        }
    }
}

/// An executable to write: every header field the tests vary, its
/// segments and symbols.
#[derive(Debug, Clone)]
pub struct Elf {
    /// `e_ident[EI_CLASS]`, `[EI_DATA]` (byte order of every header field),
    /// `[EI_VERSION]`, `[EI_OSABI]`.
    pub class: u8,
    pub data: u8,
    pub ident_version: u8,
    pub osabi: u8,
    pub e_type: u16,
    pub e_machine: u16,
    pub e_version: u32,
    /// None: the address of the first PT_LOAD's bytes.
    pub e_entry: Option<u32>,
    pub e_flags: u32,
    pub segments: Vec<Segment>,
    pub symbols: Vec<Symbol>,
    /// Write section headers (one per segment, `.symtab`, `.strtab`).
    pub section_headers: bool,
    /// The lowest file offset for the bytes of segments that do not map
    /// the headers (they start right after the headers when lower).
    pub data_start: u32,
}

/// Big-endian bytes of instruction words.
pub fn words(code: &[u32]) -> Vec<u8> {
    code.iter().flat_map(|w| w.to_be_bytes()).collect()
}

/// `lui a0, 0x1000 ; ori a0, a0, 0 ; jr ra ; nop`: code for a loader that
/// only looks at it.
pub fn text_bytes() -> Vec<u8> {
    use crate::mips::{jr, lui, nop, ori, A0, RA};
    words(&[lui(A0, 0x1000), ori(A0, A0, 0), jr(RA), nop()])
}

impl Elf {
    /// A static IRIX o32 MIPS II executable, as the loader's tests start
    /// from: text at 0x400000 (R X, 16 bytes), data at 0x10000000 (R W, 8
    /// bytes in the file, 0x100 in memory), entry 0x400000, section headers
    /// and no symbols; segment bytes from file offset 0x100.
    pub fn irix_o32() -> Elf {
        Elf {
            segments: vec![
                Segment::load(0x0040_0000, text_bytes(), 16, PF_R | PF_X),
                Segment::load(
                    0x1000_0000,
                    vec![1, 2, 3, 4, 5, 6, 7, 8],
                    0x100,
                    PF_R | PF_W,
                ),
            ],
            e_entry: Some(0x0040_0000),
            section_headers: true,
            data_start: 0x100,
            ..Elf::program(&[])
        }
    }

    /// A static o32 program (MIPS I, as IRIX's own o32 binaries): one
    /// PT_LOAD, read and execute, mapping the whole file at
    /// [`PROGRAM_BASE`]; `code` follows the program headers and is the
    /// entry point ([`Elf::code_addr`]). No section headers.
    pub fn program(code: &[u32]) -> Elf {
        let len = 4 * code.len() as u32;
        Elf {
            class: ELFCLASS32,
            data: ELFDATA2MSB,
            ident_version: EV_CURRENT,
            osabi: 0,
            e_type: ET_EXEC,
            e_machine: EM_MIPS,
            e_version: 1,
            e_entry: None,
            e_flags: 0,
            segments: vec![Segment {
                maps_headers: true,
                ..Segment::load(PROGRAM_BASE, words(code), len, PF_R | PF_X).aligned(0x1000)
            }],
            symbols: Vec::new(),
            section_headers: false,
            data_start: 0,
        }
    }

    /// The size of the ELF header and the program headers.
    pub fn headers_size(&self) -> u32 {
        EHDR_SIZE + PHDR_SIZE * self.segments.len() as u32
    }

    /// The address of the bytes of the segment that maps the headers (the
    /// code of [`Elf::program`]).
    pub fn code_addr(&self) -> u32 {
        let seg = self
            .segments
            .iter()
            .find(|s| s.maps_headers)
            .expect("a segment that maps the headers");
        seg.vaddr + self.headers_size()
    }

    fn u16(&self, out: &mut Vec<u8>, v: u16) {
        if self.data == ELFDATA2LSB {
            out.extend_from_slice(&v.to_le_bytes())
        } else {
            out.extend_from_slice(&v.to_be_bytes())
        }
    }

    fn u32(&self, out: &mut Vec<u8>, v: u32) {
        if self.data == ELFDATA2LSB {
            out.extend_from_slice(&v.to_le_bytes())
        } else {
            out.extend_from_slice(&v.to_be_bytes())
        }
    }

    /// File offsets of each segment's bytes, and the file's length so far.
    fn place_segments(&self) -> (Vec<u32>, u32) {
        let headers = self.headers_size();
        let mut offsets = vec![0; self.segments.len()];
        let mut end = headers;
        let mapping = self.segments.iter().position(|s| s.maps_headers);
        if let Some(i) = mapping {
            assert_eq!(
                self.segments.iter().filter(|s| s.maps_headers).count(),
                1,
                "at most one segment maps the headers"
            );
            offsets[i] = headers;
            end += self.segments[i].data.len() as u32;
        }
        end = end.max(self.data_start);
        for (i, seg) in self.segments.iter().enumerate() {
            if Some(i) == mapping {
                continue;
            }
            let align = seg.align.max(4);
            let want = seg.vaddr % align;
            let at = end + (want + align - end % align) % align;
            offsets[i] = at;
            end = at + seg.data.len() as u32;
        }
        (offsets, end)
    }

    /// Writes the image.
    pub fn build(&self) -> Vec<u8> {
        let headers = self.headers_size() as usize;
        let (offsets, end) = self.place_segments();
        let mut body = vec![0u8; end as usize];
        for (seg, &off) in self.segments.iter().zip(&offsets) {
            body[off as usize..off as usize + seg.data.len()].copy_from_slice(&seg.data);
        }
        let shoff = if self.section_headers {
            self.write_sections(&mut body, &offsets)
        } else {
            0
        };
        let shnum = if self.section_headers {
            self.segments.len() as u16 + 3
        } else {
            0
        };
        let entry = self.e_entry.unwrap_or_else(|| {
            let (i, seg) = self
                .segments
                .iter()
                .enumerate()
                .find(|(_, s)| s.p_type == PT_LOAD)
                .expect("e_entry or a PT_LOAD");
            if seg.maps_headers {
                seg.vaddr + offsets[i]
            } else {
                seg.vaddr
            }
        });

        let mut head = vec![
            0x7f,
            b'E',
            b'L',
            b'F',
            self.class,
            self.data,
            self.ident_version,
            self.osabi,
        ];
        head.resize(16, 0);
        self.u16(&mut head, self.e_type);
        self.u16(&mut head, self.e_machine);
        self.u32(&mut head, self.e_version);
        self.u32(&mut head, entry);
        self.u32(&mut head, EHDR_SIZE); // e_phoff
        self.u32(&mut head, shoff);
        self.u32(&mut head, self.e_flags);
        self.u16(&mut head, EHDR_SIZE as u16);
        self.u16(&mut head, PHDR_SIZE as u16);
        self.u16(&mut head, self.segments.len() as u16);
        self.u16(&mut head, 40); // e_shentsize
        self.u16(&mut head, shnum);
        self.u16(&mut head, 0); // e_shstrndx: no section names
        for (seg, &off) in self.segments.iter().zip(&offsets) {
            let (p_offset, mapped) = if seg.maps_headers { (0, off) } else { (off, 0) };
            for v in [
                seg.p_type,
                p_offset,
                seg.vaddr,
                seg.vaddr,
                mapped + seg.data.len() as u32,
                mapped + seg.mem_size,
                seg.flags,
                seg.align,
            ] {
                self.u32(&mut head, v);
            }
        }
        assert_eq!(head.len(), headers);
        body[..headers].copy_from_slice(&head);
        body
    }

    /// Appends one section per segment, `.symtab` and `.strtab`, then the
    /// section header table; returns the table's offset.
    fn write_sections(&self, body: &mut Vec<u8>, offsets: &[u32]) -> u32 {
        // .strtab holds the symbol names (the sections have none).
        let mut strtab = vec![0u8];
        let mut name_offsets = Vec::new();
        for sym in &self.symbols {
            name_offsets.push(strtab.len() as u32);
            strtab.extend_from_slice(sym.name.as_bytes());
            strtab.push(0);
        }
        // .symtab: the null symbol, then ours.
        let mut symtab = vec![0u8; 16];
        for (sym, name) in self.symbols.iter().zip(&name_offsets) {
            self.u32(&mut symtab, *name);
            self.u32(&mut symtab, sym.value);
            self.u32(&mut symtab, sym.size);
            symtab.push((sym.bind << 4) | sym.st_type);
            symtab.push(0);
            self.u16(&mut symtab, sym.shndx);
        }
        body.resize(body.len().next_multiple_of(4), 0);
        let symtab_offset = body.len() as u32;
        body.extend_from_slice(&symtab);
        let strtab_offset = body.len() as u32;
        body.extend_from_slice(&strtab);
        body.resize(body.len().next_multiple_of(4), 0);
        let shoff = body.len() as u32;
        let symtab_index = self.segments.len() as u32 + 1;
        let shdr = |out: &mut Vec<u8>, fields: [u32; 10]| {
            for f in fields {
                self.u32(out, f);
            }
        };
        let mut shdrs = Vec::new();
        shdr(&mut shdrs, [0; 10]);
        for (seg, off) in self.segments.iter().zip(offsets) {
            let sh_type = match seg.p_type {
                PT_MIPS_REGINFO => 0x7000_0006, // SHT_MIPS_REGINFO
                _ => 1,                         // SHT_PROGBITS
            };
            let mut sh_flags = 2; // SHF_ALLOC
            if seg.flags & PF_X != 0 {
                sh_flags |= 4; // SHF_EXECINSTR
            }
            if seg.flags & PF_W != 0 {
                sh_flags |= 1; // SHF_WRITE
            }
            let addr = if seg.maps_headers {
                seg.vaddr + off
            } else {
                seg.vaddr
            };
            let size = seg.data.len() as u32;
            shdr(
                &mut shdrs,
                [0, sh_type, sh_flags, addr, *off, size, 0, 0, 4, 0],
            );
        }
        // .symtab (SHT_SYMTAB): sh_link = .strtab, sh_info = 1, entsize 16.
        let symtab_len = symtab.len() as u32;
        shdr(
            &mut shdrs,
            [
                0,
                2,
                0,
                0,
                symtab_offset,
                symtab_len,
                symtab_index + 1,
                1,
                4,
                16,
            ],
        );
        // .strtab (SHT_STRTAB).
        let strtab_len = strtab.len() as u32;
        shdr(
            &mut shdrs,
            [0, 3, 0, 0, strtab_offset, strtab_len, 0, 0, 1, 0],
        );
        body.extend_from_slice(&shdrs);
        shoff
    }
}

/// Overwrites the big-endian word at `offset`.
pub fn patch_u32(bytes: &mut [u8], offset: usize, value: u32) {
    bytes[offset..offset + 4].copy_from_slice(&value.to_be_bytes());
}

/// Overwrites the big-endian half-word at `offset`.
pub fn patch_u16(bytes: &mut [u8], offset: usize, value: u16) {
    bytes[offset..offset + 2].copy_from_slice(&value.to_be_bytes());
}

/// File offset of field `field` of program header `index` (headers at 52).
pub fn phdr_field(index: usize, field: usize) -> usize {
    EHDR_SIZE as usize + PHDR_SIZE as usize * index + field
}
