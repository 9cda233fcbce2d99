//! Comparing QEMU's dump with the interpreter's, and describing a
//! differing block: its disassembly, the registers (initial, QEMU, ours)
//! and the scratch bytes that differ.
//!
//! Contents: [`differing_blocks`], [`listing`], [`describe_block`].

use std::fmt::Write as _;

use cpu_mips::{disassemble, Reg};

use super::gen::SCRATCH_BYTES;
use super::program::{Program, HI_SLOT, LO_SLOT, SLOTS};

/// Indices of the blocks whose out table or scratch area differ.
pub fn differing_blocks(program: &Program, qemu: &[u8], ours: &[u8]) -> Vec<usize> {
    let table = SLOTS * program.slot_bytes();
    (0..program.blocks.len())
        .filter(|&i| {
            let out = program.out_offset(i);
            let scratch = program.scratch_offset(i);
            let span = |d: &[u8]| {
                (
                    d[out..out + table].to_vec(),
                    d[scratch..scratch + SCRATCH_BYTES as usize].to_vec(),
                )
            };
            span(qemu) != span(ours)
        })
        .collect()
}

fn slot_name(n: usize) -> String {
    match n {
        HI_SLOT => "hi".to_string(),
        LO_SLOT => "lo".to_string(),
        _ => Reg::new(n as u32).to_string(),
    }
}

/// Block `i`'s heading and body disassembly.
pub fn listing(program: &Program, i: usize) -> String {
    let block = &program.blocks[i];
    let mut text = format!(
        "block {i} ({:?}), body at {:#010x}:\n",
        program.abi, block.body_pc
    );
    for (k, &word) in block.body.iter().enumerate() {
        let pc = block.body_pc + 4 * k as u32;
        let _ = writeln!(text, "  {pc:08x}: {word:08x}  {}", disassemble(word, pc));
    }
    text
}

/// The text reported for differing block `i`.
pub fn describe_block(program: &Program, i: usize, qemu: &[u8], ours: &[u8]) -> String {
    let block = &program.blocks[i];
    let w = program.slot_bytes();
    let slot = |d: &[u8], n: usize| {
        let at = program.out_offset(i) + n * w;
        d[at..at + w]
            .iter()
            .fold(0u64, |acc, &b| acc << 8 | b as u64)
    };
    let mut text = listing(program, i);
    let _ = writeln!(text, "  state that differs (initial / qemu / ours):");
    for n in (1..SLOTS).filter(|&n| n != 28) {
        let (q, o) = (slot(qemu, n), slot(ours, n));
        if q != o {
            let init = block.init[n];
            let _ = writeln!(
                text,
                "    {:>5}: {init:#018x} / {q:#018x} / {o:#018x}",
                slot_name(n)
            );
        }
    }
    let s = program.scratch_offset(i);
    let (qs, os) = (
        &qemu[s..s + SCRATCH_BYTES as usize],
        &ours[s..s + SCRATCH_BYTES as usize],
    );
    for (k, (q, o)) in qs.iter().zip(os).enumerate().filter(|(_, (q, o))| q != o) {
        let off = k as i32 - SCRATCH_BYTES as i32 / 2;
        let _ = writeln!(text, "    byte {off}($gp): qemu {q:#04x}, ours {o:#04x}");
    }
    text
}
