//! The decoded-code cache stays coherent: the CPU's own stores into decoded
//! code take effect (self-modifying code), the embedder's writes take effect
//! after `invalidate_code`/`flush_code_cache`, and a cloned CPU runs the same.

use crate::testmem;

use cpu_mips::{Cpu, CpuConfig, ExcCode, StopReason};
use test_support::mips as asm;
use testmem::{r::*, TestMem};

/// A writable and executable page.
const RWX: u32 = 0x0050_0000;
const LI_V0_1: u32 = asm::addiu(asm::V0, asm::ZERO, 1);
const LI_V0_42: u32 = asm::addiu(asm::V0, asm::ZERO, 42);
const BREAK: u32 = asm::break_(0);

fn rwx_machine(program: &[u32]) -> (Cpu, TestMem) {
    let mut mem = TestMem::new();
    mem.map(RWX, 4096, true, true);
    mem.poke_words(RWX, program);
    let cpu = Cpu::new(CpuConfig::default());
    (cpu, mem)
}

/// Runs from RWX to the BREAK and returns $v0.
fn run_to_break(cpu: &mut Cpu, mem: &mut TestMem) -> u64 {
    cpu.set_pc(RWX);
    match cpu.run(mem, &mut (), u64::MAX) {
        StopReason::Exception(e) => assert_eq!(e.code, ExcCode::Bp),
        StopReason::Deadline => panic!("no deadline"),
    }
    cpu.gpr[V0]
}

#[test]
fn a_store_into_decoded_code_is_seen_by_the_next_fetch() {
    // sw $a1, 8($a2); nop; <patched>; break
    let (mut cpu, mut mem) = rwx_machine(&[0xacc5_0008, 0, LI_V0_1, BREAK]);
    assert_eq!(cpu_mips::disassemble(0xacc5_0008, RWX), "sw $a1, 8($a2)");
    cpu.gpr[A2] = RWX as u64;
    cpu.gpr[A1] = LI_V0_1 as u64;
    assert_eq!(
        run_to_break(&mut cpu, &mut mem),
        1,
        "first pass decodes the page"
    );
    cpu.gpr[A1] = LI_V0_42 as u64;
    assert_eq!(
        run_to_break(&mut cpu, &mut mem),
        42,
        "the store rewrote decoded code"
    );
}

#[test]
fn a_store_into_the_next_instruction_takes_effect_immediately() {
    // sw $a1, 4($a2) rewrites the very next word, already decoded once.
    let (mut cpu, mut mem) = rwx_machine(&[0xacc5_0004, LI_V0_1, BREAK]);
    cpu.gpr[A2] = RWX as u64;
    cpu.gpr[A1] = LI_V0_1 as u64;
    assert_eq!(run_to_break(&mut cpu, &mut mem), 1);
    cpu.gpr[A1] = LI_V0_42 as u64;
    assert_eq!(run_to_break(&mut cpu, &mut mem), 42);
}

#[test]
fn embedder_writes_take_effect_after_invalidate_code() {
    let (mut cpu, mut mem) = rwx_machine(&[LI_V0_1, BREAK]);
    assert_eq!(run_to_break(&mut cpu, &mut mem), 1);
    mem.poke32(RWX, LI_V0_42); // like read(2) into the buffer
    cpu.invalidate_code(RWX, 4);
    assert_eq!(run_to_break(&mut cpu, &mut mem), 42);
    mem.poke32(RWX, LI_V0_1);
    cpu.flush_code_cache();
    assert_eq!(run_to_break(&mut cpu, &mut mem), 1);
}

#[test]
fn a_cloned_cpu_runs_the_same_program() {
    let (mut cpu, mut mem) = rwx_machine(&[LI_V0_42, BREAK]);
    assert_eq!(run_to_break(&mut cpu, &mut mem), 42);
    let mut child = cpu.clone(); // fork(2)
    child.gpr[V0] = 0;
    assert_eq!(run_to_break(&mut child, &mut mem), 42);
    assert_eq!(child.cycles(), 2 * cpu.cycles());
}
