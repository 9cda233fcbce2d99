//! The ELF writer: a static ELF32 big-endian MIPS executable with two
//! PT_LOAD segments (text R+X at `TEXT_BASE`, data R+W at `DATA_BASE`).
//!
//! Contents: [`write_elf`] (with the `e_flags` choice per ABI),
//! `load_segment`.
//!
//! Source: System V ABI, "ELF Header" and "Program Header"; MIPS
//! supplement for EM_MIPS and the e_flags bits (EF_MIPS_ARCH in bits 31..28,
//! EF_MIPS_ABI2 = 0x20 marks n32, EF_MIPS_ABI_O32 = 0x1000). qemu-mipsn32
//! refuses an image without EF_MIPS_ABI2.

use super::gen::Abi;
use super::program::{Program, DATA_BASE, TEXT_BASE};

const EHDR_SIZE: u16 = 52;
const PHDR_SIZE: u16 = 32;
const PAGE: u32 = 0x1000;
const ET_EXEC: u16 = 2;
const EM_MIPS: u16 = 8;
const PT_LOAD: u32 = 1;
const PF_X: u32 = 1;
const PF_W: u32 = 2;
const PF_R: u32 = 4;
const EF_MIPS_ARCH_2: u32 = 0x1000_0000;
const EF_MIPS_ARCH_3: u32 = 0x2000_0000;
const EF_MIPS_ABI_O32: u32 = 0x0000_1000;
const EF_MIPS_ABI2: u32 = 0x0000_0020;

/// The file image of `program`: headers, the text at file offset 0x1000,
/// the data at the next page boundary (offsets congruent to the load
/// addresses modulo the page size, as PT_LOAD requires).
pub fn write_elf(program: &Program) -> Vec<u8> {
    let flags = match program.abi {
        Abi::O32 => EF_MIPS_ARCH_2 | EF_MIPS_ABI_O32,
        Abi::N32 => EF_MIPS_ARCH_3 | EF_MIPS_ABI2,
    };
    let text_off = PAGE;
    let text_len = 4 * program.text.len() as u32;
    let data_off = (text_off + text_len).div_ceil(PAGE) * PAGE;
    let data_len = program.data.len() as u32;

    let mut elf = Vec::with_capacity((data_off + data_len) as usize);
    let half = |v: &mut Vec<u8>, x: u16| v.extend_from_slice(&x.to_be_bytes());
    let word = |v: &mut Vec<u8>, x: u32| v.extend_from_slice(&x.to_be_bytes());
    // e_ident: ELFCLASS32, ELFDATA2MSB, EV_CURRENT, ELFOSABI_SYSV.
    elf.extend_from_slice(&[0x7f, b'E', b'L', b'F', 1, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    half(&mut elf, ET_EXEC);
    half(&mut elf, EM_MIPS);
    word(&mut elf, 1); // e_version
    word(&mut elf, TEXT_BASE); // e_entry
    word(&mut elf, EHDR_SIZE as u32); // e_phoff
    word(&mut elf, 0); // e_shoff
    word(&mut elf, flags);
    half(&mut elf, EHDR_SIZE);
    half(&mut elf, PHDR_SIZE);
    half(&mut elf, 2); // e_phnum
    half(&mut elf, 40); // e_shentsize
    half(&mut elf, 0); // e_shnum
    half(&mut elf, 0); // e_shstrndx
    load_segment(&mut elf, text_off, TEXT_BASE, text_len, PF_R | PF_X);
    load_segment(&mut elf, data_off, DATA_BASE, data_len, PF_R | PF_W);
    elf.resize(text_off as usize, 0);
    for &insn in &program.text {
        word(&mut elf, insn);
    }
    elf.resize(data_off as usize, 0);
    elf.extend_from_slice(&program.data);
    elf
}

/// A PT_LOAD program header: file bytes `[offset, offset + size)` at
/// `vaddr`, nothing zero-filled.
fn load_segment(elf: &mut Vec<u8>, offset: u32, vaddr: u32, size: u32, flags: u32) {
    // p_type, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_flags, p_align
    for x in [PT_LOAD, offset, vaddr, vaddr, size, size, flags, PAGE] {
        elf.extend_from_slice(&x.to_be_bytes());
    }
}
