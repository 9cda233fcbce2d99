//! A tiny big-endian ELF32 writer for the loader's tests.
//!
//! Contents:
//! - [`ElfSpec`]: header fields, segments and symbols to write.
//! - [`SegmentSpec`], [`SymbolSpec`].
//! - [`ElfSpec::build`]: header at 0, program headers at 52, segment bytes
//!   from 0x100, then one section per segment (index = segment index + 1),
//!   `.symtab` and `.strtab`, then the section header table.
//! - [`patch_u32`], [`patch_u16`], [`phdr_field`]: byte surgery for the
//!   rejection tests.

#![allow(dead_code)]

pub const PT_LOAD: u32 = 1;
pub const PT_INTERP: u32 = 3;
pub const PT_PHDR: u32 = 6;
pub const PT_MIPS_REGINFO: u32 = 0x7000_0000;
pub const PT_MIPS_ABIFLAGS: u32 = 0x7000_0003;
pub const PF_X: u32 = 1;
pub const PF_W: u32 = 2;
pub const PF_R: u32 = 4;
pub const STT_NOTYPE: u8 = 0;
pub const STT_OBJECT: u8 = 1;
pub const STT_FUNC: u8 = 2;
pub const STT_SECTION: u8 = 3;
pub const STB_LOCAL: u8 = 0;
pub const STB_GLOBAL: u8 = 1;
pub const SHN_ABS: u16 = 0xfff1;

/// Offsets of Elf32_Phdr fields.
pub const P_TYPE: usize = 0;
pub const P_OFFSET: usize = 4;
pub const P_VADDR: usize = 8;
pub const P_FILESZ: usize = 16;
pub const P_MEMSZ: usize = 20;
pub const P_FLAGS: usize = 24;

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

const SEGMENT_DATA_START: usize = 0x100;

#[derive(Debug, Clone)]
pub struct SegmentSpec {
    pub p_type: u32,
    pub vaddr: u32,
    pub data: Vec<u8>,
    pub mem_size: u32,
    pub flags: u32,
}

impl SegmentSpec {
    pub fn load(vaddr: u32, data: Vec<u8>, mem_size: u32, flags: u32) -> SegmentSpec {
        SegmentSpec {
            p_type: PT_LOAD,
            vaddr,
            data,
            mem_size,
            flags,
        }
    }

    pub fn other(p_type: u32, data: Vec<u8>) -> SegmentSpec {
        let mem_size = data.len() as u32;
        SegmentSpec {
            p_type,
            vaddr: 0,
            data,
            mem_size,
            flags: PF_R,
        }
    }
}

#[derive(Debug, Clone)]
pub struct SymbolSpec {
    pub name: &'static str,
    pub value: u32,
    pub size: u32,
    pub st_type: u8,
    pub bind: u8,
    /// Section index: segment i is section i + 1.
    pub shndx: u16,
}

impl SymbolSpec {
    pub fn new(name: &'static str, value: u32, size: u32, st_type: u8, shndx: u16) -> SymbolSpec {
        SymbolSpec {
            name,
            value,
            size,
            st_type,
            bind: STB_GLOBAL,
            shndx,
        }
    }
}

#[derive(Debug, Clone)]
pub struct ElfSpec {
    pub class: u8,
    pub data: u8,
    pub ident_version: u8,
    pub osabi: u8,
    pub e_type: u16,
    pub e_machine: u16,
    pub e_version: u32,
    pub e_entry: u32,
    pub e_flags: u32,
    pub segments: Vec<SegmentSpec>,
    pub symbols: Vec<SymbolSpec>,
}

/// `lui a0, 0x1000 ; ori a0, a0, 0 ; jr ra ; nop` -- any code will do.
pub fn text_bytes() -> Vec<u8> {
    [0x3c04_1000u32, 0x3484_0000, 0x03e0_0008, 0x0000_0000]
        .iter()
        .flat_map(|w| w.to_be_bytes())
        .collect()
}

impl ElfSpec {
    /// A static IRIX o32 MIPS II executable: text at 0x400000 (R X, 16
    /// bytes), data at 0x10000000 (R W, 8 bytes in the file, 0x100 in
    /// memory), entry 0x400000, no symbols.
    pub fn irix_o32() -> ElfSpec {
        ElfSpec {
            class: 1,
            data: 2,
            ident_version: 1,
            osabi: 0,
            e_type: 2,
            e_machine: 8,
            e_version: 1,
            e_entry: 0x0040_0000,
            e_flags: 0x1000_0000,
            segments: vec![
                SegmentSpec::load(0x0040_0000, text_bytes(), 16, PF_R | PF_X),
                SegmentSpec::load(
                    0x1000_0000,
                    vec![1, 2, 3, 4, 5, 6, 7, 8],
                    0x100,
                    PF_R | PF_W,
                ),
            ],
            symbols: Vec::new(),
        }
    }

    fn u16(&self, out: &mut Vec<u8>, v: u16) {
        if self.data == 1 {
            out.extend_from_slice(&v.to_le_bytes())
        } else {
            out.extend_from_slice(&v.to_be_bytes())
        }
    }

    fn u32(&self, out: &mut Vec<u8>, v: u32) {
        if self.data == 1 {
            out.extend_from_slice(&v.to_le_bytes())
        } else {
            out.extend_from_slice(&v.to_be_bytes())
        }
    }

    /// Writes the image.
    pub fn build(&self) -> Vec<u8> {
        // Segment contents first, to know their offsets.
        let mut body = vec![0u8; SEGMENT_DATA_START];
        let mut offsets = Vec::new();
        for seg in &self.segments {
            while !body.len().is_multiple_of(16) {
                body.push(0);
            }
            offsets.push(body.len() as u32);
            body.extend_from_slice(&seg.data);
        }
        // .strtab (section names and symbol names together).
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
        while !body.len().is_multiple_of(4) {
            body.push(0);
        }
        let symtab_offset = body.len() as u32;
        body.extend_from_slice(&symtab);
        let strtab_offset = body.len() as u32;
        body.extend_from_slice(&strtab);
        while !body.len().is_multiple_of(4) {
            body.push(0);
        }
        let shoff = body.len() as u32;
        let nsegs = self.segments.len();
        let symtab_index = nsegs as u32 + 1;
        let mut shdrs = Vec::new();
        let shdr = |out: &mut Vec<u8>, fields: [u32; 10]| {
            for f in fields {
                self.u32(out, f);
            }
        };
        shdr(&mut shdrs, [0; 10]);
        for (seg, off) in self.segments.iter().zip(&offsets) {
            let (sh_type, mut sh_flags) = match seg.p_type {
                PT_LOAD => (1, 2), // SHT_PROGBITS, SHF_ALLOC
                PT_MIPS_REGINFO => (0x7000_0006, 2),
                _ => (1, 2),
            };
            if seg.flags & PF_X != 0 {
                sh_flags |= 4; // SHF_EXECINSTR
            }
            if seg.flags & PF_W != 0 {
                sh_flags |= 1; // SHF_WRITE
            }
            shdr(
                &mut shdrs,
                [
                    0,
                    sh_type,
                    sh_flags,
                    seg.vaddr,
                    *off,
                    seg.data.len() as u32,
                    0,
                    0,
                    4,
                    0,
                ],
            );
        }
        // .symtab (SHT_SYMTAB 2), sh_link = .strtab, sh_info = 1, entsize 16.
        shdr(
            &mut shdrs,
            [
                0,
                2,
                0,
                0,
                symtab_offset,
                symtab.len() as u32,
                symtab_index + 1,
                1,
                4,
                16,
            ],
        );
        // .strtab (SHT_STRTAB 3).
        shdr(
            &mut shdrs,
            [0, 3, 0, 0, strtab_offset, strtab.len() as u32, 0, 0, 1, 0],
        );
        let shnum = (nsegs + 3) as u16;
        body.extend_from_slice(&shdrs);

        // Header and program headers over the reserved start.
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
        self.u32(&mut head, self.e_entry);
        self.u32(&mut head, 52); // e_phoff
        self.u32(&mut head, shoff);
        self.u32(&mut head, self.e_flags);
        self.u16(&mut head, 52); // e_ehsize
        self.u16(&mut head, 32); // e_phentsize
        self.u16(&mut head, nsegs as u16);
        self.u16(&mut head, 40); // e_shentsize
        self.u16(&mut head, shnum);
        self.u16(&mut head, 0); // e_shstrndx: no section names
        for (seg, off) in self.segments.iter().zip(&offsets) {
            self.u32(&mut head, seg.p_type);
            self.u32(&mut head, *off);
            self.u32(&mut head, seg.vaddr);
            self.u32(&mut head, seg.vaddr);
            self.u32(&mut head, seg.data.len() as u32);
            self.u32(&mut head, seg.mem_size);
            self.u32(&mut head, seg.flags);
            self.u32(&mut head, 16);
        }
        assert!(
            head.len() <= SEGMENT_DATA_START,
            "too many segments for the test writer"
        );
        body[..head.len()].copy_from_slice(&head);
        body
    }
}

pub fn patch_u32(bytes: &mut [u8], offset: usize, value: u32) {
    bytes[offset..offset + 4].copy_from_slice(&value.to_be_bytes());
}

pub fn patch_u16(bytes: &mut [u8], offset: usize, value: u16) {
    bytes[offset..offset + 2].copy_from_slice(&value.to_be_bytes());
}

/// File offset of field `field` of program header `index`.
pub fn phdr_field(index: usize, field: usize) -> usize {
    52 + 32 * index + field
}
