//! Instruction encoders for the generator: one function per format, the
//! opcode and function numbers as named constants.
//!
//! Contents: the three formats ([`special`], [`itype`], [`regimm`],
//! [`jtype`]), the opcode/function/REGIMM tables, and the few fixed words.
//!
//! Source: R4000 User's Manual (2nd ed.), appendix A, "CPU Instruction
//! Formats" and "CPU Instruction Opcode Bit Encoding".

use cpu_mips::Reg;

fn n(r: Reg) -> u32 {
    r.idx() as u32
}

/// R-type under SPECIAL (opcode 0): `rs` bits 25..21, `rt` 20..16, `rd`
/// 15..11, `sa` 10..6, the function in bits 5..0.
pub fn special(funct: u32, rs: Reg, rt: Reg, rd: Reg, sa: u32) -> u32 {
    n(rs) << 21 | n(rt) << 16 | n(rd) << 11 | (sa & 31) << 6 | (funct & 0x3f)
}

/// I-type: opcode bits 31..26, `rs` (or base) 25..21, `rt` 20..16, the
/// 16-bit immediate or offset in 15..0.
pub fn itype(opcode: u32, rs: Reg, rt: Reg, imm: u16) -> u32 {
    opcode << 26 | n(rs) << 21 | n(rt) << 16 | imm as u32
}

/// REGIMM (opcode 1): the sub-opcode sits in the rt field.
pub fn regimm(code: u32, rs: Reg, imm: u16) -> u32 {
    1 << 26 | n(rs) << 21 | (code & 31) << 16 | imm as u32
}

/// J-type: the 26-bit instruction index of an absolute target (the upper
/// four address bits come from the delay slot's address).
pub fn jtype(opcode: u32, target: u32) -> u32 {
    opcode << 26 | ((target >> 2) & 0x03ff_ffff)
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

/// `syscall` with a zero code field.
pub const SYSCALL: u32 = funct::SYSCALL;

/// `lui rt, value >> 16; ori rt, rt, value & 0xffff`: a 32-bit constant
/// (sign-extended to 64 bits by LUI on a 64-bit CPU).
pub fn li32(rt: Reg, value: u32) -> [u32; 2] {
    [
        itype(opcode::LUI, Reg::ZERO, rt, (value >> 16) as u16),
        itype(opcode::ORI, rt, rt, value as u16),
    ]
}
