//! The program's ELF image: a static ELF32 big-endian MIPS executable with
//! two PT_LOAD segments (text R+X at `TEXT_BASE`, data R+W at
//! `DATA_BASE`), page-aligned so qemu-user can map them, and the e_flags
//! each ABI needs (qemu-mipsn32 refuses an image without EF_MIPS_ABI2).

use test_support::elf::{
    words, Elf, Segment, EF_MIPS_ABI2, EF_MIPS_ABI_O32, EF_MIPS_ARCH_2, EF_MIPS_ARCH_3, PF_R, PF_W,
    PF_X,
};

use super::gen::Abi;
use super::program::{Program, DATA_BASE, TEXT_BASE};

const PAGE: u32 = 0x1000;

/// The file image of `program`, entry at the text's first word.
pub fn write_elf(program: &Program) -> Vec<u8> {
    let e_flags = match program.abi {
        Abi::O32 => EF_MIPS_ARCH_2 | EF_MIPS_ABI_O32,
        Abi::N32 => EF_MIPS_ARCH_3 | EF_MIPS_ABI2,
    };
    let text = words(&program.text);
    let (text_len, data_len) = (text.len() as u32, program.data.len() as u32);
    Elf {
        e_flags,
        segments: vec![
            Segment::load(TEXT_BASE, text, text_len, PF_R | PF_X).aligned(PAGE),
            Segment::load(DATA_BASE, program.data.clone(), data_len, PF_R | PF_W).aligned(PAGE),
        ],
        ..Elf::program(&[])
    }
    .build()
}
