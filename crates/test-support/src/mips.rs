//! A MIPS instruction encoder for tests: the formats, the opcode and
//! function numbers as named constants, and one function per instruction
//! the tests write by hand, named after its mnemonic and taking its
//! operands in assembler order (`addiu(V0, ZERO, 1001)` is
//! `addiu $v0, $zero, 1001`).
//!
//! Contents: [`Gpr`] and the register names ([`ZERO`] ... [`RA`]); the
//! formats [`special`], [`itype`], [`regimm`], [`jtype`], [`cop1_move`];
//! the tables [`funct`], [`opcode`], [`regimm_code`]; the instructions;
//! [`li32`].
//!
//! Source: R4000 User's Manual (2nd ed.), appendix A, "CPU Instruction
//! Formats" and "CPU Instruction Opcode Bit Encoding"; appendix B for the
//! COP1 moves. Register names: SVR4 MIPS ABI, "Register usage".

/// A general-purpose register number (0..=31), so that a register can not
/// be passed where an immediate goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Gpr(u8);

impl Gpr {
    /// Register `n & 31`.
    pub const fn new(n: u32) -> Gpr {
        Gpr((n & 31) as u8)
    }
    /// The register's number, as the instruction fields hold it.
    pub const fn number(self) -> u32 {
        self.0 as u32
    }
    /// Index into a 32-entry register file.
    pub const fn idx(self) -> usize {
        self.0 as usize
    }
}

pub const ZERO: Gpr = Gpr(0);
pub const AT: Gpr = Gpr(1);
pub const V0: Gpr = Gpr(2);
pub const V1: Gpr = Gpr(3);
pub const A0: Gpr = Gpr(4);
pub const A1: Gpr = Gpr(5);
pub const A2: Gpr = Gpr(6);
pub const A3: Gpr = Gpr(7);
pub const T0: Gpr = Gpr(8);
pub const T1: Gpr = Gpr(9);
pub const T2: Gpr = Gpr(10);
pub const T3: Gpr = Gpr(11);
pub const S0: Gpr = Gpr(16);
pub const S1: Gpr = Gpr(17);
pub const T9: Gpr = Gpr(25);
pub const GP: Gpr = Gpr(28);
pub const SP: Gpr = Gpr(29);
pub const FP: Gpr = Gpr(30);
pub const RA: Gpr = Gpr(31);

/// R-type under SPECIAL (opcode 0): `rs` bits 25..21, `rt` 20..16, `rd`
/// 15..11, `sa` 10..6, the function in bits 5..0.
pub const fn special(funct: u32, rs: Gpr, rt: Gpr, rd: Gpr, sa: u32) -> u32 {
    rs.number() << 21 | rt.number() << 16 | rd.number() << 11 | (sa & 31) << 6 | (funct & 0x3f)
}

/// I-type: opcode bits 31..26, `rs` (or base) 25..21, `rt` 20..16, the
/// 16-bit immediate or offset in 15..0.
pub const fn itype(opcode: u32, rs: Gpr, rt: Gpr, imm: u16) -> u32 {
    opcode << 26 | rs.number() << 21 | rt.number() << 16 | imm as u32
}

/// REGIMM (opcode 1): the sub-opcode sits in the rt field.
pub const fn regimm(code: u32, rs: Gpr, imm: u16) -> u32 {
    1 << 26 | rs.number() << 21 | (code & 31) << 16 | imm as u32
}

/// J-type: the 26-bit instruction index of an absolute target (the upper
/// four address bits come from the delay slot's address).
pub const fn jtype(opcode: u32, target: u32) -> u32 {
    opcode << 26 | ((target >> 2) & 0x03ff_ffff)
}

/// A COP1 move (opcode 0x11): the sub-opcode `sub` in bits 25..21 (MF 0,
/// CF 2, MT 4, CT 6), the GPR in 20..16, the FPU register in 15..11.
pub const fn cop1_move(sub: u32, rt: Gpr, fs: u32) -> u32 {
    0x11 << 26 | (sub & 31) << 21 | rt.number() << 16 | (fs & 31) << 11
}

/// SPECIAL function field values.
pub mod funct {
    pub const SLL: u32 = 0x00;
    pub const SRL: u32 = 0x02;
    pub const SRA: u32 = 0x03;
    pub const SLLV: u32 = 0x04;
    pub const SRLV: u32 = 0x06;
    pub const SRAV: u32 = 0x07;
    pub const JR: u32 = 0x08;
    pub const JALR: u32 = 0x09;
    pub const SYSCALL: u32 = 0x0c;
    pub const BREAK: u32 = 0x0d;
    pub const SYNC: u32 = 0x0f;
    pub const MFHI: u32 = 0x10;
    pub const MTHI: u32 = 0x11;
    pub const MFLO: u32 = 0x12;
    pub const MTLO: u32 = 0x13;
    pub const DSLLV: u32 = 0x14;
    pub const DSRLV: u32 = 0x16;
    pub const DSRAV: u32 = 0x17;
    pub const MULT: u32 = 0x18;
    pub const MULTU: u32 = 0x19;
    pub const DIV: u32 = 0x1a;
    pub const DIVU: u32 = 0x1b;
    pub const DMULT: u32 = 0x1c;
    pub const DMULTU: u32 = 0x1d;
    pub const DDIV: u32 = 0x1e;
    pub const DDIVU: u32 = 0x1f;
    pub const ADD: u32 = 0x20;
    pub const ADDU: u32 = 0x21;
    pub const SUB: u32 = 0x22;
    pub const SUBU: u32 = 0x23;
    pub const AND: u32 = 0x24;
    pub const OR: u32 = 0x25;
    pub const XOR: u32 = 0x26;
    pub const NOR: u32 = 0x27;
    pub const SLT: u32 = 0x2a;
    pub const SLTU: u32 = 0x2b;
    pub const DADD: u32 = 0x2c;
    pub const DADDU: u32 = 0x2d;
    pub const DSUB: u32 = 0x2e;
    pub const DSUBU: u32 = 0x2f;
    pub const TLT: u32 = 0x32;
    pub const TLTU: u32 = 0x33;
    pub const TNE: u32 = 0x36;
    pub const DSLL: u32 = 0x38;
    pub const DSRL: u32 = 0x3a;
    pub const DSRA: u32 = 0x3b;
    pub const DSLL32: u32 = 0x3c;
    pub const DSRL32: u32 = 0x3e;
    pub const DSRA32: u32 = 0x3f;
}

/// Primary opcode values.
pub mod opcode {
    pub const J: u32 = 0x02;
    pub const JAL: u32 = 0x03;
    pub const BEQ: u32 = 0x04;
    pub const BNE: u32 = 0x05;
    pub const BLEZ: u32 = 0x06;
    pub const BGTZ: u32 = 0x07;
    pub const ADDI: u32 = 0x08;
    pub const ADDIU: u32 = 0x09;
    pub const SLTI: u32 = 0x0a;
    pub const SLTIU: u32 = 0x0b;
    pub const ANDI: u32 = 0x0c;
    pub const ORI: u32 = 0x0d;
    pub const XORI: u32 = 0x0e;
    pub const LUI: u32 = 0x0f;
    pub const BEQL: u32 = 0x14;
    pub const BNEL: u32 = 0x15;
    pub const BLEZL: u32 = 0x16;
    pub const BGTZL: u32 = 0x17;
    pub const DADDI: u32 = 0x18;
    pub const DADDIU: u32 = 0x19;
    pub const LDL: u32 = 0x1a;
    pub const LDR: u32 = 0x1b;
    pub const LB: u32 = 0x20;
    pub const LH: u32 = 0x21;
    pub const LWL: u32 = 0x22;
    pub const LW: u32 = 0x23;
    pub const LBU: u32 = 0x24;
    pub const LHU: u32 = 0x25;
    pub const LWR: u32 = 0x26;
    pub const LWU: u32 = 0x27;
    pub const SB: u32 = 0x28;
    pub const SH: u32 = 0x29;
    pub const SWL: u32 = 0x2a;
    pub const SW: u32 = 0x2b;
    pub const SDL: u32 = 0x2c;
    pub const SDR: u32 = 0x2d;
    pub const SWR: u32 = 0x2e;
    pub const LL: u32 = 0x30;
    pub const LLD: u32 = 0x34;
    pub const LD: u32 = 0x37;
    pub const SC: u32 = 0x38;
    pub const SCD: u32 = 0x3c;
    pub const SD: u32 = 0x3f;
}

/// REGIMM rt-field values.
pub mod regimm_code {
    pub const BLTZ: u32 = 0x00;
    pub const BGEZ: u32 = 0x01;
    pub const BLTZL: u32 = 0x02;
    pub const BGEZL: u32 = 0x03;
    pub const TGEI: u32 = 0x08;
    pub const TGEIU: u32 = 0x09;
    pub const TLTI: u32 = 0x0a;
    pub const TLTIU: u32 = 0x0b;
    pub const TEQI: u32 = 0x0c;
    pub const TNEI: u32 = 0x0e;
    pub const BLTZAL: u32 = 0x10;
    pub const BGEZAL: u32 = 0x11;
    pub const BLTZALL: u32 = 0x12;
    pub const BGEZALL: u32 = 0x13;
}

/// `nop` (`sll $zero, $zero, 0`).
pub const fn nop() -> u32 {
    0
}

/// `syscall` with a zero code field.
pub const fn syscall() -> u32 {
    funct::SYSCALL
}

/// `break code`, as the assembler writes it: the code in bits 25..16, the
/// upper half of the 20-bit code field (the compilers use 6 for overflow
/// and 7 for divide by zero).
pub const fn break_(code: u32) -> u32 {
    (code & 0x3ff) << 16 | funct::BREAK
}

/// `addiu rt, rs, imm`.
pub const fn addiu(rt: Gpr, rs: Gpr, imm: i16) -> u32 {
    itype(opcode::ADDIU, rs, rt, imm as u16)
}

/// `ori rt, rs, imm`.
pub const fn ori(rt: Gpr, rs: Gpr, imm: u16) -> u32 {
    itype(opcode::ORI, rs, rt, imm)
}

/// `lui rt, imm`.
pub const fn lui(rt: Gpr, imm: u16) -> u32 {
    itype(opcode::LUI, ZERO, rt, imm)
}

/// `lw rt, offset(base)`.
pub const fn lw(rt: Gpr, offset: i16, base: Gpr) -> u32 {
    itype(opcode::LW, base, rt, offset as u16)
}

/// `sw rt, offset(base)`.
pub const fn sw(rt: Gpr, offset: i16, base: Gpr) -> u32 {
    itype(opcode::SW, base, rt, offset as u16)
}

/// `addu rd, rs, rt`.
pub const fn addu(rd: Gpr, rs: Gpr, rt: Gpr) -> u32 {
    special(funct::ADDU, rs, rt, rd, 0)
}

/// `or rd, rs, rt`.
pub const fn or(rd: Gpr, rs: Gpr, rt: Gpr) -> u32 {
    special(funct::OR, rs, rt, rd, 0)
}

/// `move rd, rs`: what the assembler writes for it, `or rd, rs, $zero`.
pub const fn move_(rd: Gpr, rs: Gpr) -> u32 {
    or(rd, rs, ZERO)
}

/// `sll rd, rt, sa`.
pub const fn sll(rd: Gpr, rt: Gpr, sa: u32) -> u32 {
    special(funct::SLL, ZERO, rt, rd, sa)
}

/// `jr rs`.
pub const fn jr(rs: Gpr) -> u32 {
    special(funct::JR, rs, ZERO, ZERO, 0)
}

/// `mfc1 rt, $f<fs>`.
pub const fn mfc1(rt: Gpr, fs: u32) -> u32 {
    cop1_move(0, rt, fs)
}

/// `cfc1 rt, $<fs>` (FCSR is control register 31).
pub const fn cfc1(rt: Gpr, fs: u32) -> u32 {
    cop1_move(2, rt, fs)
}

/// `mtc1 rt, $f<fs>`.
pub const fn mtc1(rt: Gpr, fs: u32) -> u32 {
    cop1_move(4, rt, fs)
}

/// `ctc1 rt, $<fs>`.
pub const fn ctc1(rt: Gpr, fs: u32) -> u32 {
    cop1_move(6, rt, fs)
}

/// `lui rt, value >> 16; ori rt, rt, value & 0xffff`: a 32-bit constant
/// in two words whatever its value (sign-extended to 64 bits by LUI on a
/// 64-bit CPU).
pub const fn li32(rt: Gpr, value: u32) -> [u32; 2] {
    [lui(rt, (value >> 16) as u16), ori(rt, rt, value as u16)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_match_the_assembler() {
        // (ours, what mips-linux-gnu-as writes for the same line)
        let table = [
            (addiu(V0, ZERO, 1001), 0x2402_03e9, "addiu $v0, $zero, 1001"),
            (move_(A0, V0), 0x0040_2025, "move $a0, $v0"),
            (syscall(), 0x0000_000c, "syscall"),
            (break_(0), 0x0000_000d, "break"),
            (break_(7), 0x0007_000d, "break 7"),
            (lui(A0, 0x1000), 0x3c04_1000, "lui $a0, 0x1000"),
            (ori(A0, A0, 0), 0x3484_0000, "ori $a0, $a0, 0"),
            (jr(RA), 0x03e0_0008, "jr $ra"),
            (sll(T0, A3, 6), 0x0007_4180, "sll $t0, $a3, 6"),
            (addu(A0, V0, T0), 0x0048_2021, "addu $a0, $v0, $t0"),
            (sw(T0, 4, S0), 0xae08_0004, "sw $t0, 4($s0)"),
            (lw(T0, -4, SP), 0x8fa8_fffc, "lw $t0, -4($sp)"),
            (mtc1(T0, 2), 0x4488_1000, "mtc1 $t0, $f2"),
            (mfc1(T0, 1), 0x4408_0800, "mfc1 $t0, $f1"),
            (ctc1(T0, 31), 0x44c8_f800, "ctc1 $t0, $31"),
            (cfc1(T0, 31), 0x4448_f800, "cfc1 $t0, $31"),
        ];
        for (ours, want, asm) in table {
            assert_eq!(ours, want, "{asm}: {ours:#010x} != {want:#010x}");
        }
    }
}
