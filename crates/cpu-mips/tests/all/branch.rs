//! Branches, jumps, delay slots and precise exceptions around them.
//!
//! Programs start at CODE = 0x400000. A branch at CODE with offset n
//! targets CODE + 4 + 4n.

use crate::testmem;

use cpu_mips::{cp0::cause, disassemble, ExcCode, Exception};
use test_support::mips as asm;
use testmem::{machine, r::*, steps, sx, CODE};

const NOP: u32 = asm::nop();
const LI_V0_1: u32 = asm::addiu(asm::V0, asm::ZERO, 1);
const LI_V1_1: u32 = asm::addiu(asm::V1, asm::ZERO, 1);
const LI_A2_7: u32 = asm::addiu(asm::A2, asm::ZERO, 7);
const SYSCALL: u32 = asm::syscall();

/// Every conditional branch, taken and not: (word, assembly, $a0, $a1, taken).
/// Each targets CODE + 16 (offset 3). A taken branch runs the slot
/// ($v0 = 1) and lands on `addiu $a2, $zero, 7`; a not-taken one runs the
/// slot and then the fall-through `addiu $v1, $zero, 1`; a not-taken likely
/// branch skips the slot.
#[test]
fn every_conditional_branch_taken_and_not_taken() {
    let m1 = u64::MAX;
    let rows: &[(u32, &str, u64, u64, bool)] = &[
        (0x1085_0003, "beq $a0, $a1, 0x400010", 5, 5, true),
        (0x1085_0003, "beq $a0, $a1, 0x400010", 5, 6, false),
        (0x1485_0003, "bne $a0, $a1, 0x400010", 5, 6, true),
        (0x1485_0003, "bne $a0, $a1, 0x400010", 5, 5, false),
        (0x1880_0003, "blez $a0, 0x400010", 0, 0, true),
        (0x1880_0003, "blez $a0, 0x400010", 1, 0, false),
        (0x1c80_0003, "bgtz $a0, 0x400010", 1, 0, true),
        (0x1c80_0003, "bgtz $a0, 0x400010", 0, 0, false),
        (0x0480_0003, "bltz $a0, 0x400010", m1, 0, true),
        (0x0480_0003, "bltz $a0, 0x400010", 0, 0, false),
        (0x0481_0003, "bgez $a0, 0x400010", 0, 0, true),
        (0x0481_0003, "bgez $a0, 0x400010", m1, 0, false),
        (0x5085_0003, "beql $a0, $a1, 0x400010", 5, 5, true),
        (0x5085_0003, "beql $a0, $a1, 0x400010", 5, 6, false),
        (0x5485_0003, "bnel $a0, $a1, 0x400010", 5, 6, true),
        (0x5485_0003, "bnel $a0, $a1, 0x400010", 5, 5, false),
        (0x5880_0003, "blezl $a0, 0x400010", m1, 0, true),
        (0x5880_0003, "blezl $a0, 0x400010", 1, 0, false),
        (0x5c80_0003, "bgtzl $a0, 0x400010", 1, 0, true),
        (0x5c80_0003, "bgtzl $a0, 0x400010", m1, 0, false),
        (0x0482_0003, "bltzl $a0, 0x400010", m1, 0, true),
        (0x0482_0003, "bltzl $a0, 0x400010", 1, 0, false),
        (0x0483_0003, "bgezl $a0, 0x400010", 1, 0, true),
        (0x0483_0003, "bgezl $a0, 0x400010", m1, 0, false),
        (0x0490_0003, "bltzal $a0, 0x400010", m1, 0, true),
        (0x0490_0003, "bltzal $a0, 0x400010", 1, 0, false),
        (0x0491_0003, "bgezal $a0, 0x400010", 1, 0, true),
        (0x0491_0003, "bgezal $a0, 0x400010", m1, 0, false),
        (0x0492_0003, "bltzall $a0, 0x400010", m1, 0, true),
        (0x0492_0003, "bltzall $a0, 0x400010", 1, 0, false),
        (0x0493_0003, "bgezall $a0, 0x400010", 1, 0, true),
        (0x0493_0003, "bgezall $a0, 0x400010", m1, 0, false),
    ];
    for &(word, asm, a0, a1, taken) in rows {
        assert_eq!(disassemble(word, CODE), asm);
        let likely = asm
            .split(' ')
            .next()
            .is_some_and(|m| m.ends_with('l') && m != "bltzal" && m != "bgezal");
        let links = asm.contains("al ") || asm.contains("all ");
        let (mut cpu, mut mem) = machine(false, &[word, LI_V0_1, LI_V1_1, NOP, LI_A2_7]);
        cpu.gpr[A0] = a0;
        cpu.gpr[A1] = a1;
        // Two steps: the branch (with a nullified slot, if any) and the next one.
        assert_eq!(steps(&mut cpu, &mut mem, 2), None, "{asm}");
        let slot_ran = cpu.gpr[V0] == 1;
        assert_eq!(
            slot_ran,
            taken || !likely,
            "{asm} a0={a0:#x}: delay slot executed?"
        );
        if taken {
            assert_eq!(cpu.pc(), CODE + 16, "{asm}: at the target after the slot");
            assert_eq!(steps(&mut cpu, &mut mem, 1), None);
            assert_eq!(cpu.gpr[A2], 7, "{asm}: target executed");
            assert_eq!(cpu.gpr[V1], 0, "{asm}: fall-through skipped");
        } else if likely {
            // Nullified slot: the second step ran the fall-through at +8.
            assert_eq!((cpu.gpr[V1], cpu.pc()), (1, CODE + 12), "{asm}");
        } else {
            assert_eq!(cpu.pc(), CODE + 8, "{asm}: falls through after the slot");
        }
        // And-link forms link whether or not they branch.
        assert_eq!(
            cpu.gpr[RA],
            if links { CODE as u64 + 8 } else { 0 },
            "{asm}: $ra"
        );
    }
}

#[test]
fn jumps_and_links() {
    // (program, assembly of word 0, steps, $ra after, pc after, extra register check)
    // jal 0x400200; nop  -> pc 0x400200, ra 0x400008
    let (mut cpu, mut mem) = machine(false, &[0x0c10_0080, NOP]);
    assert_eq!(disassemble(0x0c10_0080, CODE), "jal 0x400200");
    assert_eq!(steps(&mut cpu, &mut mem, 2), None);
    assert_eq!((cpu.pc(), cpu.gpr[RA]), (0x40_0200, 0x40_0008));

    // j 0x400010; nop
    let (mut cpu, mut mem) = machine(false, &[0x0810_0004, NOP]);
    assert_eq!(disassemble(0x0810_0004, CODE), "j 0x400010");
    assert_eq!(steps(&mut cpu, &mut mem, 2), None);
    assert_eq!(cpu.pc(), CODE + 16);

    // jr $ra; nop
    let (mut cpu, mut mem) = machine(false, &[0x03e0_0008, NOP]);
    assert_eq!(disassemble(0x03e0_0008, CODE), "jr $ra");
    cpu.gpr[RA] = 0x40_0100;
    assert_eq!(steps(&mut cpu, &mut mem, 2), None);
    assert_eq!(cpu.pc(), 0x40_0100);

    // jalr $v0, $a0: links into $v0; jalr $a0 links into $ra.
    for (word, asm, link) in [
        (0x0080_1009u32, "jalr $v0, $a0", V0),
        (0x0080_f809, "jalr $a0", RA),
    ] {
        let (mut cpu, mut mem) = machine(false, &[word, NOP]);
        assert_eq!(disassemble(word, CODE), asm);
        cpu.gpr[A0] = 0x40_0100;
        assert_eq!(steps(&mut cpu, &mut mem, 2), None);
        assert_eq!(
            (cpu.pc(), cpu.gpr[link]),
            (0x40_0100, CODE as u64 + 8),
            "{asm}"
        );
    }
}

#[test]
fn jalr_reads_its_target_before_linking_into_the_same_register() {
    // jalr $a0, $a0: target = old $a0.
    let (mut cpu, mut mem) = machine(false, &[0x0080_2009, NOP]);
    assert_eq!(disassemble(0x0080_2009, CODE), "jalr $a0, $a0");
    cpu.gpr[A0] = 0x40_0100;
    assert_eq!(steps(&mut cpu, &mut mem, 2), None);
    assert_eq!((cpu.pc(), cpu.gpr[A0]), (0x40_0100, CODE as u64 + 8));
}

#[test]
fn jump_to_a_misaligned_address_faults_at_the_target_after_the_slot() {
    // jr $a0 with $a0 = 0x400102; the slot runs, then the fetch faults.
    let (mut cpu, mut mem) = machine(false, &[0x0080_0008, LI_V0_1]);
    cpu.gpr[A0] = 0x40_0102;
    let e = steps(&mut cpu, &mut mem, 3).expect("address error");
    assert_eq!(cpu.gpr[V0], 1, "delay slot ran");
    assert_eq!(
        (e.code, e.epc, e.bad_vaddr, e.in_delay_slot),
        (ExcCode::AdEL, 0x40_0102, Some(0x40_0102), false)
    );
}

fn overflow_in_delay_slot() -> (cpu_mips::Cpu, testmem::TestMem, Exception) {
    // beq $zero, $zero, 0x400010; add $v0, $a0, $a1 (overflows)
    let (mut cpu, mut mem) = machine(false, &[0x1000_0003, 0x0085_1020]);
    assert_eq!(disassemble(0x1000_0003, CODE), "beq $zero, $zero, 0x400010");
    cpu.gpr[A0] = 0x7fff_ffff;
    cpu.gpr[A1] = 1;
    let e = steps(&mut cpu, &mut mem, 2).expect("overflow");
    (cpu, mem, e)
}

#[test]
fn exception_in_a_delay_slot_sets_bd_and_epc_names_the_branch() {
    let (cpu, _mem, e) = overflow_in_delay_slot();
    assert_eq!(
        e,
        Exception {
            code: ExcCode::Ov,
            epc: CODE,
            in_delay_slot: true,
            bad_vaddr: None,
            ce: 0,
            code_field: None,
        }
    );
    assert_eq!(cpu.cp0.epc, CODE);
    assert_eq!(cpu.cp0.cause & cause::BD, cause::BD);
    assert_eq!(
        (cpu.cp0.cause & cause::EXC_MASK) >> cause::EXC_SHIFT,
        ExcCode::Ov as u32
    );
    assert_eq!(cpu.pc(), CODE + 4, "pc names the faulting slot instruction");
    assert_eq!(
        cpu.sample_pc(),
        CODE,
        "an interrupt now would latch the branch"
    );
    assert!(cpu.in_delay_slot());
}

/// The kernel maps `break 7` to SIGFPE from the code the CPU decoded: in a
/// delay slot EPC names the branch, so re-reading the word at EPC would
/// find the branch, not the BREAK.
#[test]
fn break_in_a_delay_slot_carries_its_decoded_code() {
    // beq $zero, $zero, 0x400010; break 7
    let (mut cpu, mut mem) = machine(false, &[0x1000_0003, 0x0007_000d]);
    assert_eq!(disassemble(0x0007_000d, CODE + 4), "break 0x7");
    let e = steps(&mut cpu, &mut mem, 2).expect("breakpoint");
    assert_eq!(
        e,
        Exception {
            code: ExcCode::Bp,
            epc: CODE,
            in_delay_slot: true,
            bad_vaddr: None,
            ce: 0,
            code_field: Some(7 << 10),
        }
    );
    assert_eq!(e.break_code(), Some(7));
}

#[test]
fn running_again_after_an_unhandled_exception_re_executes_the_instruction() {
    let (mut cpu, mut mem, first) = overflow_in_delay_slot();
    let again = steps(&mut cpu, &mut mem, 1).expect("same exception");
    assert_eq!(again, first);
    // Fix the operands: the slot completes and the branch is still honoured.
    cpu.gpr[A1] = 0;
    assert_eq!(steps(&mut cpu, &mut mem, 1), None);
    assert_eq!((cpu.gpr[V0], cpu.pc()), (0x7fff_ffff, CODE + 16));
}

#[test]
fn complete_exception_instruction_honours_the_pending_branch() {
    // (branch, taken?) with a syscall in its delay slot.
    for (branch, asm, after) in [
        (0x1000_0003u32, "beq $zero, $zero, 0x400010", CODE + 16),
        (0x1400_0003, "bne $zero, $zero, 0x400010", CODE + 8),
    ] {
        assert_eq!(disassemble(branch, CODE), asm);
        let (mut cpu, mut mem) = machine(false, &[branch, SYSCALL]);
        let e = steps(&mut cpu, &mut mem, 2).expect("syscall");
        assert_eq!(
            (e.code, e.epc, e.in_delay_slot),
            (ExcCode::Sys, CODE, true),
            "{asm}"
        );
        let retired = cpu.instructions();
        cpu.complete_exception_instruction();
        assert_eq!(cpu.pc(), after, "{asm}");
        assert!(!cpu.in_delay_slot());
        assert_eq!(
            cpu.instructions(),
            retired + 1,
            "the syscall counts as retired"
        );
    }
}

#[test]
fn complete_exception_instruction_continues_after_a_plain_syscall() {
    let (mut cpu, mut mem) = machine(false, &[NOP, SYSCALL, LI_V0_1]);
    let e = steps(&mut cpu, &mut mem, 3).expect("syscall");
    assert_eq!(
        (e.code, e.epc, e.in_delay_slot),
        (ExcCode::Sys, CODE + 4, false)
    );
    cpu.complete_exception_instruction();
    assert_eq!(cpu.pc(), CODE + 8);
    assert_eq!(steps(&mut cpu, &mut mem, 1), None);
    assert_eq!(cpu.gpr[V0], 1);
}

#[test]
fn set_pc_clears_the_delay_slot_state() {
    let (mut cpu, mut mem, _) = overflow_in_delay_slot();
    cpu.set_pc(CODE + 8);
    assert!(!cpu.in_delay_slot());
    assert_eq!(cpu.sample_pc(), CODE + 8);
    cpu.gpr[A1] = 0;
    assert_eq!(steps(&mut cpu, &mut mem, 1), None);
    assert_eq!(cpu.pc(), CODE + 12, "no branch pending any more");
}

#[test]
fn branch_in_a_delay_slot_does_not_panic() {
    // beq $zero,$zero,+3; beq $zero,$zero,+3 (architecturally undefined).
    let (mut cpu, mut mem) = machine(false, &[0x1000_0003, 0x1000_0003]);
    let _ = steps(&mut cpu, &mut mem, 10);
}

#[test]
fn link_address_is_sign_extended() {
    // A link into $ra is a 32-bit address, sign-extended like every result.
    let (mut cpu, mut mem) = machine(true, &[0x0c10_0080, NOP]);
    assert_eq!(steps(&mut cpu, &mut mem, 1), None);
    assert_eq!(cpu.gpr[RA], sx(CODE + 8));
}
