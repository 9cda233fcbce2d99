//! Which encodings the R4000 executes, and the exceptions of the rest:
//! later-ISA encodings raise Reserved Instruction, coprocessor instructions
//! raise Coprocessor Unusable with the right CE, and the trap, SYSCALL and
//! BREAK instructions raise their exceptions.

use crate::testmem;

use cpu_mips::{cp0::status, decode, disassemble, is_r4000_encoding, ExcCode, Exception, Op};
use testmem::{machine, r::*, steps, CODE, DATA};

fn exception_of(word: u32, setup: impl FnOnce(&mut cpu_mips::Cpu)) -> Option<Exception> {
    let (mut cpu, mut mem) = machine(true, &[word]);
    cpu.gpr[A0] = DATA as u64;
    setup(&mut cpu);
    steps(&mut cpu, &mut mem, 1)
}

#[test]
fn encodings_an_r4000_lacks_raise_reserved_instruction() {
    // Assembled with mips-linux-gnu-as -mips32r2 / -mips4.
    let table: &[(u32, &str)] = &[
        (0x0085_100b, "movn $v0, $a0, $a1 (MIPS IV)"),
        (0x0085_100a, "movz $v0, $a0, $a1 (MIPS IV)"),
        (0x0080_1001, "movf $v0, $a0, $fcc0 (MIPS IV)"),
        (0xcc80_0000, "pref 0, 0($a0) (MIPS IV)"),
        (0x4ca4_0000, "lwxc1 $f0, $a0($a1) (MIPS IV COP1X)"),
        (0x4c23_1020, "madd.s $f0, $f1, $f2, $f3 (MIPS IV COP1X)"),
        (0x7085_1002, "mul $v0, $a0, $a1 (MIPS32 SPECIAL2)"),
        (0x7082_1020, "clz $v0, $a0 (MIPS32 SPECIAL2)"),
        (0x7000_003f, "sdbbp (MIPS32 SPECIAL2)"),
        (0x7c04_1420, "seb $v0, $a0 (MIPS32r2 SPECIAL3)"),
        (0x7c82_0840, "ext $v0, $a0, 1, 2 (MIPS32r2 SPECIAL3)"),
        (0x7c82_1044, "ins $v0, $a0, 1, 2 (MIPS32r2 SPECIAL3)"),
        (0x0024_1102, "rotr $v0, $a0, 4 (MIPS32r2: SRL with rs = 1)"),
        (
            0x00a4_1046,
            "rotrv $v0, $a0, $a1 (MIPS32r2: SRLV with sa = 1)",
        ),
        (0x0000_0005, "SPECIAL function 0x05 (reserved)"),
        (0xec00_0000, "opcode 0x3b (reserved, SWC3)"),
        (0x7400_0000, "opcode 0x1d (reserved, JALX)"),
        (0x0404_0000, "REGIMM rt 0x04 (reserved)"),
    ];
    for &(word, what) in table {
        assert!(decode(word).is_reserved(), "{what}");
        assert!(!is_r4000_encoding(word, true), "{what}");
        assert_eq!(
            disassemble(word, CODE),
            format!(".word 0x{word:08x}"),
            "{what}"
        );
        let e = exception_of(word, |_| {}).expect(what);
        assert_eq!((e.code, e.epc), (ExcCode::RI, CODE), "{what}");
    }
}

#[test]
fn cop1_instructions_raise_coprocessor_unusable_1_when_cu1_is_clear() {
    let table: &[(u32, &str)] = &[
        (0x4480_1000, "mtc1 $zero, $f2"),
        (0x4442_1000, "cfc1 $v0, $2"),
        (0x4422_1000, "dmfc1 $v0, $f2"),
        (0x4500_0003, "bc1f 0x400010"),
        (0xc480_0000, "lwc1 $f0, 0($a0)"),
        (0xd480_0000, "ldc1 $f0, 0($a0)"),
        (0xe480_0000, "swc1 $f0, 0($a0)"),
        (0xf482_0008, "sdc1 $f2, 8($a0)"),
        (
            0x4600_0000,
            "a COP1 .s computational word (add.s $f0, $f0, $f0)",
        ),
        (0x4680_0000, "COP1 fmt 0x14 (cvt.s.w family)"),
        (0x44e0_0000, "COP1 rs 7 (reserved)"),
    ];
    for &(word, what) in table {
        let e = exception_of(word, |cpu| cpu.cp0.status &= !status::CU1).expect(what);
        assert_eq!((e.code, e.ce), (ExcCode::CpU, 1), "{what}");
    }
    // With CU1 set the moves and memory accesses work.
    let (mut cpu, mut mem) = machine(false, &[0x4484_1000, 0x4402_1000]); // mtc1 $a0, $f2; mfc1 $v0, $f2
    assert_eq!(disassemble(0x4484_1000, CODE), "mtc1 $a0, $f2");
    cpu.gpr[A0] = 0x1234;
    assert_eq!(steps(&mut cpu, &mut mem, 2), None);
    assert_eq!(cpu.gpr[V0], 0x1234);
}

#[test]
fn reserved_cop1_words_raise_reserved_instruction_when_cu1_is_set() {
    assert_eq!(
        exception_of(0x44e0_0000, |_| {}).map(|e| e.code),
        Some(ExcCode::RI)
    );
}

#[test]
fn cp0_and_cp2_instructions_raise_coprocessor_unusable_in_user_mode() {
    let table: &[(u32, &str, u8)] = &[
        (0x4002_6000, "mfc0 $v0, $12", 0),
        (0x4082_6000, "mtc0 $v0, $12", 0),
        (0x4200_0018, "eret", 0),
        (0x4200_0002, "tlbwi", 0),
        (0xbc81_0000, "cache 0x1, 0($a0)", 0),
        (0x4a00_0000, ".word 0x4a000000", 2), // COP2
        (0xc881_0000, ".word 0xc8810000", 2), // LWC2
        (0xd881_0000, ".word 0xd8810000", 2), // LDC2
        (0xe881_0000, ".word 0xe8810000", 2), // SWC2
        (0xf881_0000, ".word 0xf8810000", 2), // SDC2
    ];
    for &(word, asm, ce) in table {
        assert_eq!(disassemble(word, CODE), asm);
        assert!(is_r4000_encoding(word, false), "{asm} is an R4000 encoding");
        let e = exception_of(word, |_| {}).expect(asm);
        assert_eq!((e.code, e.ce, e.epc), (ExcCode::CpU, ce, CODE), "{asm}");
    }
}

#[test]
fn trap_instructions_trap_exactly_when_their_condition_holds() {
    // (word, assembly, $a0, $a1, traps)
    let m1 = u64::MAX;
    let table: &[(u32, &str, u64, u64, bool)] = &[
        (0x0085_0030, "tge $a0, $a1", 1, m1, true),
        (0x0085_0030, "tge $a0, $a1", m1, 1, false),
        (0x0085_0031, "tgeu $a0, $a1", m1, 1, true),
        (0x0085_0031, "tgeu $a0, $a1", 1, m1, false),
        (0x0085_0032, "tlt $a0, $a1", m1, 1, true),
        (0x0085_0032, "tlt $a0, $a1", 1, m1, false),
        (0x0085_0033, "tltu $a0, $a1", 1, m1, true),
        (0x0085_0033, "tltu $a0, $a1", m1, 1, false),
        (0x0085_0034, "teq $a0, $a1", 3, 3, true),
        (0x0085_0034, "teq $a0, $a1", 3, 4, false),
        (0x0085_0036, "tne $a0, $a1", 3, 4, true),
        (0x0085_0036, "tne $a0, $a1", 3, 3, false),
        (0x0488_0005, "tgei $a0, 5", 5, 0, true),
        (0x0488_0005, "tgei $a0, 5", m1, 0, false),
        (0x0489_0005, "tgeiu $a0, 5", m1, 0, true),
        (0x0489_0005, "tgeiu $a0, 5", 4, 0, false),
        (0x048a_0005, "tlti $a0, 5", m1, 0, true),
        (0x048a_0005, "tlti $a0, 5", 5, 0, false),
        (0x048b_0005, "tltiu $a0, 5", 4, 0, true),
        (0x048b_0005, "tltiu $a0, 5", m1, 0, false),
        (0x048c_0005, "teqi $a0, 5", 5, 0, true),
        (0x048c_0005, "teqi $a0, 5", 4, 0, false),
        (0x048e_0005, "tnei $a0, 5", 4, 0, true),
        (0x048e_0005, "tnei $a0, 5", 5, 0, false),
    ];
    for &(word, asm, a0, a1, traps) in table {
        assert_eq!(disassemble(word, CODE), asm);
        let e = exception_of(word, |cpu| {
            cpu.gpr[A0] = a0;
            cpu.gpr[A1] = a1;
        });
        assert_eq!(
            e.map(|e| e.code),
            traps.then_some(ExcCode::Tr),
            "{asm} with {a0:#x}, {a1:#x}"
        );
    }
}

#[test]
fn syscall_and_break_raise_their_exceptions() {
    for (word, asm, code) in [
        (0x0000_000cu32, "syscall", ExcCode::Sys),
        (0x0007_000d, "break 0x7", ExcCode::Bp),
    ] {
        assert_eq!(disassemble(word, CODE), asm);
        let e = exception_of(word, |_| {}).expect(asm);
        assert_eq!(
            (e.code, e.epc, e.in_delay_slot),
            (code, CODE, false),
            "{asm}"
        );
    }
}

#[test]
fn sync_is_a_no_op() {
    assert_eq!(decode(0x0000_000f), Op::Sync);
    assert_eq!(exception_of(0x0000_000f, |_| {}), None);
}
