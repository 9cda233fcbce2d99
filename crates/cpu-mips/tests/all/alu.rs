//! ALU, shift and multiply/divide instructions, one table row per behaviour:
//! the encoded word with its assembly beside it (checked against the
//! disassembler too), the registers before, and the expected result.

use crate::testmem;

use cpu_mips::{disassemble, ExcCode};
use testmem::{machine, r::*, steps, sx, CODE};

#[derive(Debug, Clone, Copy)]
enum Expect {
    /// Register holds value.
    Reg(usize, u64),
    /// (HI, LO).
    HiLo(u64, u64),
    /// The instruction raises this exception and leaves $v0 unchanged.
    Exc(ExcCode),
}
use Expect::*;

struct Case<'a> {
    name: &'static str,
    mode64: bool,
    word: u32,
    asm: &'static str,
    init: &'a [(usize, u64)],
    expect: Expect,
}

fn c32<'a>(
    name: &'static str,
    insn: (u32, &'static str),
    init: &'a [(usize, u64)],
    expect: Expect,
) -> Case<'a> {
    Case {
        name,
        mode64: false,
        word: insn.0,
        asm: insn.1,
        init,
        expect,
    }
}
fn c64<'a>(
    name: &'static str,
    insn: (u32, &'static str),
    init: &'a [(usize, u64)],
    expect: Expect,
) -> Case<'a> {
    Case {
        name,
        mode64: true,
        word: insn.0,
        asm: insn.1,
        init,
        expect,
    }
}

const SENTINEL: u64 = 0x5a5a_5a5a_5a5a_5a5a;
const MIN32: u64 = sx(0x8000_0000);
const MAX32: u64 = 0x7fff_ffff;

fn run(cases: &[Case]) {
    for c in cases {
        assert_eq!(
            disassemble(c.word, CODE),
            c.asm,
            "{}: assembly beside the word",
            c.name
        );
        let (mut cpu, mut mem) = machine(c.mode64, &[c.word]);
        cpu.gpr[V0] = SENTINEL;
        for &(reg, v) in c.init {
            cpu.gpr[reg] = v;
        }
        let exc = steps(&mut cpu, &mut mem, 1);
        match c.expect {
            Reg(reg, v) => {
                assert_eq!(exc, None, "{}", c.name);
                assert_eq!(
                    cpu.gpr[reg], v,
                    "{}: {} = {:#x}",
                    c.name, c.asm, cpu.gpr[reg]
                );
            }
            HiLo(hi, lo) => {
                assert_eq!(exc, None, "{}", c.name);
                assert_eq!((cpu.hi, cpu.lo), (hi, lo), "{}: {} (hi, lo)", c.name, c.asm);
            }
            Exc(code) => {
                let e = exc.unwrap_or_else(|| panic!("{}: expected {code:?}", c.name));
                assert_eq!(e.code, code, "{}", c.name);
                assert_eq!(e.epc, CODE, "{}: EPC names the instruction", c.name);
                assert_eq!(
                    cpu.pc(),
                    CODE,
                    "{}: pc stays on the faulting instruction",
                    c.name
                );
                assert_eq!(cpu.gpr[V0], SENTINEL, "{}: destination unchanged", c.name);
            }
        }
    }
}

const ADDU: (u32, &str) = (0x0085_1021, "addu $v0, $a0, $a1");
const ADD: (u32, &str) = (0x0085_1020, "add $v0, $a0, $a1");
const ADDI: (u32, &str) = (0x2082_0001, "addi $v0, $a0, 1");
const ADDIU_A0: (u32, &str) = (0x2484_ffff, "addiu $a0, $a0, -1");
const SUB: (u32, &str) = (0x0085_1022, "sub $v0, $a0, $a1");
const SUBU: (u32, &str) = (0x0085_1023, "subu $v0, $a0, $a1");

#[test]
fn add_and_sub_forms_wrap_or_trap_on_signed_overflow() {
    run(&[
        c32("addu adds", ADDU, &[(A0, 1), (A1, 2)], Reg(V0, 3)),
        c32(
            "addu wraps and sign-extends",
            ADDU,
            &[(A0, MAX32), (A1, 1)],
            Reg(V0, MIN32),
        ),
        c32(
            "add adds negatives",
            ADD,
            &[(A0, sx(0xffff_ffff)), (A1, sx(0xffff_ffff))],
            Reg(V0, sx(0xffff_fffe)),
        ),
        c32(
            "add traps on positive overflow",
            ADD,
            &[(A0, MAX32), (A1, 1)],
            Exc(ExcCode::Ov),
        ),
        c32(
            "add traps on negative overflow",
            ADD,
            &[(A0, MIN32), (A1, MIN32)],
            Exc(ExcCode::Ov),
        ),
        c32(
            "addi traps on overflow",
            ADDI,
            &[(A0, MAX32)],
            Exc(ExcCode::Ov),
        ),
        c32("addi adds the immediate", ADDI, &[(A0, 41)], Reg(V0, 42)),
        c32(
            "addiu sign-extends its immediate",
            ADDIU_A0,
            &[(A0, 0)],
            Reg(A0, u64::MAX),
        ),
        c32(
            "addiu never traps",
            ADDIU_A0,
            &[(A0, MIN32)],
            Reg(A0, MAX32),
        ),
        c32(
            "sub subtracts",
            SUB,
            &[(A0, 5), (A1, 7)],
            Reg(V0, sx(0xffff_fffe)),
        ),
        c32(
            "sub traps on overflow",
            SUB,
            &[(A0, MIN32), (A1, 1)],
            Exc(ExcCode::Ov),
        ),
        c32("subu wraps", SUBU, &[(A0, MIN32), (A1, 1)], Reg(V0, MAX32)),
        c32(
            "writes to $zero are discarded",
            (0x0085_0021, "addu $zero, $a0, $a1"),
            &[(A0, 1), (A1, 2)],
            Reg(ZERO, 0),
        ),
    ]);
}

#[test]
fn thirty_two_bit_results_are_sign_extended_in_64_bit_registers() {
    run(&[
        // Only the low words take part; the result is sign-extended.
        c64(
            "addu ignores the high words",
            ADDU,
            &[(A0, 0x1234_5678_7fff_ffff), (A1, 1)],
            Reg(V0, MIN32),
        ),
        c64(
            "subu ignores the high words",
            SUBU,
            &[(A0, 0xffff_0000_0000_0000), (A1, 1)],
            Reg(V0, u64::MAX),
        ),
        c64(
            "add overflow looks at 32 bits",
            ADD,
            &[(A0, MAX32), (A1, 1)],
            Exc(ExcCode::Ov),
        ),
        c64(
            "lui sign-extends",
            (0x3c02_8000, "lui $v0, 0x8000"),
            &[],
            Reg(V0, 0xffff_ffff_8000_0000),
        ),
        c64(
            "sll sign-extends bit 31",
            (0x0004_1100, "sll $v0, $a0, 4"),
            &[(A0, 0x0800_0001)],
            Reg(V0, sx(0x8000_0010)),
        ),
    ]);
}

#[test]
fn logical_and_set_on_less_than() {
    let (a, b) = (0x0000_0000_f0f0_ff00u64, 0x0000_0000_0ff0_f0f0u64);
    run(&[
        c64(
            "and",
            (0x0085_1024, "and $v0, $a0, $a1"),
            &[(A0, a), (A1, b)],
            Reg(V0, 0x00f0_f000),
        ),
        c64(
            "or",
            (0x0085_1025, "or $v0, $a0, $a1"),
            &[(A0, a), (A1, b)],
            Reg(V0, 0xfff0_fff0),
        ),
        c64(
            "xor",
            (0x0085_1026, "xor $v0, $a0, $a1"),
            &[(A0, a), (A1, b)],
            Reg(V0, 0xff00_0ff0),
        ),
        c64(
            "nor",
            (0x0085_1027, "nor $v0, $a0, $a1"),
            &[(A0, a), (A1, b)],
            Reg(V0, 0xffff_ffff_000f_000f),
        ),
        c32(
            "slt is signed",
            (0x0085_102a, "slt $v0, $a0, $a1"),
            &[(A0, u64::MAX), (A1, 1)],
            Reg(V0, 1),
        ),
        c32(
            "sltu is unsigned",
            (0x0085_102b, "sltu $v0, $a0, $a1"),
            &[(A0, u64::MAX), (A1, 1)],
            Reg(V0, 0),
        ),
        c32(
            "slti compares with the signed immediate",
            (0x2882_ffff, "slti $v0, $a0, -1"),
            &[(A0, sx(0xffff_fffe))],
            Reg(V0, 1),
        ),
        // SLTIU: the immediate is sign-extended, then compared unsigned.
        c32(
            "sltiu sign-extends then compares unsigned",
            (0x2c82_ffff, "sltiu $v0, $a0, -1"),
            &[(A0, 5)],
            Reg(V0, 1),
        ),
        c32(
            "andi zero-extends",
            (0x3082_ffff, "andi $v0, $a0, 0xffff"),
            &[(A0, u64::MAX)],
            Reg(V0, 0xffff),
        ),
        c32(
            "ori zero-extends",
            (0x3482_8001, "ori $v0, $a0, 0x8001"),
            &[(A0, 0x10)],
            Reg(V0, 0x8011),
        ),
        c32(
            "xori zero-extends",
            (0x3882_00ff, "xori $v0, $a0, 0xff"),
            &[(A0, 0x0f)],
            Reg(V0, 0xf0),
        ),
    ]);
}

#[test]
fn shifts_by_immediate_and_by_register() {
    run(&[
        c32(
            "srl is logical on the low word",
            (0x0004_1102, "srl $v0, $a0, 4"),
            &[(A0, MIN32)],
            Reg(V0, 0x0800_0000),
        ),
        c32(
            "sra is arithmetic",
            (0x0004_1103, "sra $v0, $a0, 4"),
            &[(A0, MIN32)],
            Reg(V0, sx(0xf800_0000)),
        ),
        // The variable shifts use the low five bits of rs: 36 & 31 = 4.
        c32(
            "sllv masks the amount to 5 bits",
            (0x00a4_1004, "sllv $v0, $a0, $a1"),
            &[(A0, 1), (A1, 36)],
            Reg(V0, 16),
        ),
        c32(
            "srlv",
            (0x00a4_1006, "srlv $v0, $a0, $a1"),
            &[(A0, MIN32), (A1, 31)],
            Reg(V0, 1),
        ),
        c32(
            "srav",
            (0x00a4_1007, "srav $v0, $a0, $a1"),
            &[(A0, MIN32), (A1, 31)],
            Reg(V0, u64::MAX),
        ),
        c64(
            "dsll",
            (0x0004_1138, "dsll $v0, $a0, 4"),
            &[(A0, 0x1000_0000_0000_0001)],
            Reg(V0, 0x10),
        ),
        c64(
            "dsrl",
            (0x0004_113a, "dsrl $v0, $a0, 4"),
            &[(A0, 0x8000_0000_0000_0000)],
            Reg(V0, 0x0800_0000_0000_0000),
        ),
        c64(
            "dsra",
            (0x0004_113b, "dsra $v0, $a0, 4"),
            &[(A0, 0x8000_0000_0000_0000)],
            Reg(V0, 0xf800_0000_0000_0000),
        ),
        c64(
            "dsll32 shifts by sa + 32",
            (0x0004_113c, "dsll32 $v0, $a0, 4"),
            &[(A0, 1)],
            Reg(V0, 1 << 36),
        ),
        c64(
            "dsrl32",
            (0x0004_113e, "dsrl32 $v0, $a0, 4"),
            &[(A0, 1 << 63)],
            Reg(V0, 1 << 27),
        ),
        c64(
            "dsra32",
            (0x0004_113f, "dsra32 $v0, $a0, 4"),
            &[(A0, 1 << 63)],
            Reg(V0, 0xffff_ffff_f800_0000),
        ),
        // The 64-bit variable shifts use six bits: 68 & 63 = 4.
        c64(
            "dsllv masks the amount to 6 bits",
            (0x00a4_1014, "dsllv $v0, $a0, $a1"),
            &[(A0, 1), (A1, 68)],
            Reg(V0, 16),
        ),
        c64(
            "dsrlv",
            (0x00a4_1016, "dsrlv $v0, $a0, $a1"),
            &[(A0, 1 << 63), (A1, 63)],
            Reg(V0, 1),
        ),
        c64(
            "dsrav",
            (0x00a4_1017, "dsrav $v0, $a0, $a1"),
            &[(A0, 1 << 63), (A1, 63)],
            Reg(V0, u64::MAX),
        ),
    ]);
}

#[test]
fn doubleword_add_and_sub_trap_on_64_bit_overflow() {
    let max = i64::MAX as u64;
    let min = i64::MIN as u64;
    run(&[
        c64(
            "dadd adds 64 bits",
            (0x0085_102c, "dadd $v0, $a0, $a1"),
            &[(A0, 0xffff_ffff), (A1, 1)],
            Reg(V0, 1 << 32),
        ),
        c64(
            "dadd traps",
            (0x0085_102c, "dadd $v0, $a0, $a1"),
            &[(A0, max), (A1, 1)],
            Exc(ExcCode::Ov),
        ),
        c64(
            "daddu wraps",
            (0x0085_102d, "daddu $v0, $a0, $a1"),
            &[(A0, max), (A1, 1)],
            Reg(V0, min),
        ),
        c64(
            "daddi traps",
            (0x6082_ffff, "daddi $v0, $a0, -1"),
            &[(A0, min)],
            Exc(ExcCode::Ov),
        ),
        c64(
            "daddiu wraps",
            (0x6482_ffff, "daddiu $v0, $a0, -1"),
            &[(A0, min)],
            Reg(V0, max),
        ),
        c64(
            "dsub traps",
            (0x0085_102e, "dsub $v0, $a0, $a1"),
            &[(A0, min), (A1, 1)],
            Exc(ExcCode::Ov),
        ),
        c64(
            "dsubu wraps",
            (0x0085_102f, "dsubu $v0, $a0, $a1"),
            &[(A0, min), (A1, 1)],
            Reg(V0, max),
        ),
    ]);
}

#[test]
fn multiply_and_divide_fill_hi_and_lo() {
    const M1: u64 = u64::MAX;
    run(&[
        // -2 * 3 = -6: HI = -1, LO = -6, both sign-extended words.
        c32(
            "mult is signed",
            (0x0085_0018, "mult $a0, $a1"),
            &[(A0, sx(0xffff_fffe)), (A1, 3)],
            HiLo(M1, sx(0xffff_fffa)),
        ),
        // 0xffffffff * 2 = 0x1_ffff_fffe: HI = 1, LO = sx(0xfffffffe).
        c32(
            "multu is unsigned",
            (0x0085_0019, "multu $a0, $a1"),
            &[(A0, M1), (A1, 2)],
            HiLo(1, sx(0xffff_fffe)),
        ),
        c32(
            "div truncates toward zero",
            (0x0085_001a, "div $a0, $a1"),
            &[(A0, sx(0xffff_fff9)), (A1, 2)],
            HiLo(M1, sx(0xffff_fffd)),
        ),
        c32(
            "divu",
            (0x0085_001b, "divu $a0, $a1"),
            &[(A0, M1), (A1, 16)],
            HiLo(15, 0x0fff_ffff),
        ),
        c64(
            "dmult gives the 128-bit product",
            (0x0085_001c, "dmult $a0, $a1"),
            &[(A0, M1), (A1, M1)],
            HiLo(0, 1),
        ),
        c64(
            "dmultu",
            (0x0085_001d, "dmultu $a0, $a1"),
            &[(A0, M1), (A1, 2)],
            HiLo(1, M1 - 1),
        ),
        c64(
            "ddiv",
            (0x0085_001e, "ddiv $a0, $a1"),
            &[(A0, (-7i64) as u64), (A1, 2)],
            HiLo(M1, (-3i64) as u64),
        ),
        c64(
            "ddivu",
            (0x0085_001f, "ddivu $a0, $a1"),
            &[(A0, M1), (A1, 16)],
            HiLo(15, M1 >> 4),
        ),
    ]);
}

#[test]
fn division_by_zero_and_int_min_by_minus_one_give_the_hardware_values() {
    // See exec/muldiv.rs: divide by zero leaves the dividend in HI and
    // -1 (dividend >= 0) or +1 (dividend < 0) in LO; DIVU: LO all ones.
    const M1: u64 = u64::MAX;
    run(&[
        c32(
            "div by zero, positive dividend",
            (0x0085_001a, "div $a0, $a1"),
            &[(A0, 7), (A1, 0)],
            HiLo(7, M1),
        ),
        c32(
            "div by zero, negative dividend",
            (0x0085_001a, "div $a0, $a1"),
            &[(A0, sx(0xffff_fff9)), (A1, 0)],
            HiLo(sx(0xffff_fff9), 1),
        ),
        c32(
            "divu by zero",
            (0x0085_001b, "divu $a0, $a1"),
            &[(A0, 7), (A1, 0)],
            HiLo(7, M1),
        ),
        c32(
            "div INT_MIN / -1 wraps with remainder 0",
            (0x0085_001a, "div $a0, $a1"),
            &[(A0, MIN32), (A1, M1)],
            HiLo(0, MIN32),
        ),
        c64(
            "ddiv by zero",
            (0x0085_001e, "ddiv $a0, $a1"),
            &[(A0, 1 << 40), (A1, 0)],
            HiLo(1 << 40, M1),
        ),
        c64(
            "ddivu by zero",
            (0x0085_001f, "ddivu $a0, $a1"),
            &[(A0, 1 << 40), (A1, 0)],
            HiLo(1 << 40, M1),
        ),
        c64(
            "ddiv INT64_MIN / -1",
            (0x0085_001e, "ddiv $a0, $a1"),
            &[(A0, 1 << 63), (A1, M1)],
            HiLo(0, 1 << 63),
        ),
    ]);
}

#[test]
fn hi_lo_moves() {
    let (mut cpu, mut mem) = machine(false, &[0x0080_0011, 0x00a0_0013, 0x0000_1010, 0x0000_1812]);
    // mthi $a0; mtlo $a1; mfhi $v0; mflo $v1
    cpu.gpr[A0] = 11;
    cpu.gpr[A1] = 22;
    assert_eq!(steps(&mut cpu, &mut mem, 4), None);
    assert_eq!((cpu.hi, cpu.lo, cpu.gpr[V0], cpu.gpr[V1]), (11, 22, 11, 22));
    assert_eq!(disassemble(0x0080_0011, 0), "mthi $a0");
    assert_eq!(disassemble(0x0000_1812, 0), "mflo $v1");
}

#[test]
fn sixty_four_bit_operations_raise_reserved_instruction_in_32_bit_mode() {
    let words: &[(u32, &str)] = &[
        (0x0085_102c, "dadd $v0, $a0, $a1"),
        (0x0085_102d, "daddu $v0, $a0, $a1"),
        (0x6082_ffff, "daddi $v0, $a0, -1"),
        (0x6482_ffff, "daddiu $v0, $a0, -1"),
        (0x0085_102e, "dsub $v0, $a0, $a1"),
        (0x0085_102f, "dsubu $v0, $a0, $a1"),
        (0x0004_1138, "dsll $v0, $a0, 4"),
        (0x0004_113a, "dsrl $v0, $a0, 4"),
        (0x0004_113b, "dsra $v0, $a0, 4"),
        (0x0004_113c, "dsll32 $v0, $a0, 4"),
        (0x0004_113e, "dsrl32 $v0, $a0, 4"),
        (0x0004_113f, "dsra32 $v0, $a0, 4"),
        (0x00a4_1014, "dsllv $v0, $a0, $a1"),
        (0x00a4_1016, "dsrlv $v0, $a0, $a1"),
        (0x00a4_1017, "dsrav $v0, $a0, $a1"),
        (0x0085_001c, "dmult $a0, $a1"),
        (0x0085_001d, "dmultu $a0, $a1"),
        (0x0085_001e, "ddiv $a0, $a1"),
        (0x0085_001f, "ddivu $a0, $a1"),
        (0xdc82_0000, "ld $v0, 0($a0)"),
        (0xfc85_0000, "sd $a1, 0($a0)"),
        (0x9c82_0000, "lwu $v0, 0($a0)"),
        (0xd082_0000, "lld $v0, 0($a0)"),
        (0xf085_0000, "scd $a1, 0($a0)"),
        (0x6882_0000, "ldl $v0, 0($a0)"),
        (0x6c82_0000, "ldr $v0, 0($a0)"),
        (0xb085_0000, "sdl $a1, 0($a0)"),
        (0xb485_0000, "sdr $a1, 0($a0)"),
        (0x4422_1000, "dmfc1 $v0, $f2"),
        (0x44a4_1000, "dmtc1 $a0, $f2"),
    ];
    for &(word, asm) in words {
        assert_eq!(disassemble(word, CODE), asm);
        assert!(
            !cpu_mips::is_r4000_encoding(word, false),
            "{asm}: not available in 32-bit mode"
        );
        assert!(
            cpu_mips::is_r4000_encoding(word, true),
            "{asm}: available in 64-bit mode"
        );
        let (mut cpu, mut mem) = machine(false, &[word]);
        cpu.gpr[A0] = testmem::DATA as u64;
        let e = steps(&mut cpu, &mut mem, 1).expect("RI");
        assert_eq!(e.code, ExcCode::RI, "{asm}");
    }
}
