//! The disassembler: a table of words with the text expected at 0x400100
//! (every word is placed at that address, so branch targets are relative to it).
//! The words and their operands were cross-checked against GNU objdump
//! (`mips-linux-gnu-objdump -D -b binary -m mips:4000 -EB`), whose register
//! names and pseudo-instructions (beqz, move...) differ by design.

use cpu_mips::disassemble;

const PC: u32 = 0x0040_0100;

#[test]
fn disassembles_in_mips_assembler_syntax() {
    let table: &[(u32, &str)] = &[
        (0x0022_1823, "subu $v1, $at, $v0"),
        (0x27bd_ffe0, "addiu $sp, $sp, -32"),
        (0x8fbf_001c, "lw $ra, 28($sp)"),
        (0x1080_003f, "beq $a0, $zero, 0x400200"),
        (0x0c10_0080, "jal 0x400200"),
        (0x0000_0000, "nop"),
        (0x3c1c_0fc0, "lui $gp, 0xfc0"),
        (0x0320_f809, "jalr $t9"),
        (0x0000_000d, "break"),
        (0x0007_000d, "break 0x7"),
        (0x0000_0c0c, "syscall 0x30"),
        (0x4480_1000, "mtc1 $zero, $f2"),
        (0x4442_1000, "cfc1 $v0, $2"),
        (0x44c2_f800, "ctc1 $v0, $31"),
        (0x4500_0003, "bc1f 0x400110"),
        (0x4501_0003, "bc1t 0x400110"),
        (0xc7a4_0010, "lwc1 $f4, 16($sp)"),
        (0xf7a2_0018, "sdc1 $f2, 24($sp)"),
        (0x4002_6000, "mfc0 $v0, $12"),
        (0x4082_6000, "mtc0 $v0, $12"),
        (0x4200_0018, "eret"),
        (0xbc81_0000, "cache 0x1, 0($a0)"),
        (0x0085_0034, "teq $a0, $a1"),
        (0x0481_fff0, "bgez $a0, 0x4000c4"),
        (0x0488_0005, "tgei $a0, 5"),
        (0x048c_fffb, "teqi $a0, -5"),
        (0x0005_2a80, "sll $a1, $a1, 10"),
        (0x000a_f402, "srl $fp, $t2, 16"),
        (0x0000_000f, "sync"),
        (0x3482_8001, "ori $v0, $a0, 0x8001"),
        (0xafbf_fffc, "sw $ra, -4($sp)"),
        (0x0080_1009, "jalr $v0, $a0"),
        // Not R4000 instructions: shown as data.
        (0x0085_100b, ".word 0x0085100b"), // MIPS IV movn
        (0x7085_1002, ".word 0x70851002"), // MIPS32 mul
        (0x0024_1102, ".word 0x00241102"), // MIPS32r2 rotr
        (0x4a00_0000, ".word 0x4a000000"), // COP2
    ];
    for &(word, text) in table {
        assert_eq!(disassemble(word, PC), text, "word {word:#010x}");
    }
}

#[test]
fn branch_targets_wrap_backwards() {
    // beq $zero, $zero, -1: a branch to itself.
    assert_eq!(disassemble(0x1000_ffff, PC), "beq $zero, $zero, 0x400100");
}
