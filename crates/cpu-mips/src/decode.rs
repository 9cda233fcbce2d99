//! The one decode: a 32-bit word becomes an [`Op`], shared by execution
//! (`exec/`), disassembly (`disasm`), the timing model (`timing`) and the
//! R4000-encoding check used on guest binaries.
//!
//! Contents: [`Op`] (every R4000 user-mode encoding plus `Reserved`),
//! [`decode`], [`Op::is_64bit`], [`is_r4000_encoding`].
//!
//! Source: R4000 User's Manual (2nd ed.), appendix A, "CPU Instruction
//! Opcode Bit Encoding" tables (opcode, SPECIAL function, REGIMM rt, COPz rs
//! and rt). Every entry those tables mark `*` (reserved), including the
//! slots later MIPS revisions filled (MIPS IV MOVN/MOVZ/MOVCI/PREF/COP1X,
//! MIPS32 SPECIAL2/SPECIAL3), decodes to [`Op::Reserved`].
//!
//! Must-be-zero fields are not checked (the R4000 decodes only the opcode and
//! function fields; doubt: not verified on hardware), with two exceptions the
//! project asks for so that MIPS32r2 code is caught: SRL with rs = 1 (ROTR)
//! and SRLV with sa = 1 (ROTRV) decode as `Reserved`.

use crate::fpu::{decode_cop1, FpOp};
use crate::insn::{Instruction, Reg};

/// A decoded instruction. Register operands are [`Reg`]s; immediates keep
/// their encoded width (`i16` sign-extended at use, `u16` zero-extended).
/// Branch offsets are in instructions (the word offset of the encoding).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    // --- SPECIAL: shifts by immediate (rd = rt shifted by sa) ---
    Sll {
        rd: Reg,
        rt: Reg,
        sa: u8,
    },
    Srl {
        rd: Reg,
        rt: Reg,
        sa: u8,
    },
    Sra {
        rd: Reg,
        rt: Reg,
        sa: u8,
    },
    Dsll {
        rd: Reg,
        rt: Reg,
        sa: u8,
    },
    Dsrl {
        rd: Reg,
        rt: Reg,
        sa: u8,
    },
    Dsra {
        rd: Reg,
        rt: Reg,
        sa: u8,
    },
    Dsll32 {
        rd: Reg,
        rt: Reg,
        sa: u8,
    },
    Dsrl32 {
        rd: Reg,
        rt: Reg,
        sa: u8,
    },
    Dsra32 {
        rd: Reg,
        rt: Reg,
        sa: u8,
    },
    // --- SPECIAL: shifts by register (rd = rt shifted by rs) ---
    Sllv {
        rd: Reg,
        rt: Reg,
        rs: Reg,
    },
    Srlv {
        rd: Reg,
        rt: Reg,
        rs: Reg,
    },
    Srav {
        rd: Reg,
        rt: Reg,
        rs: Reg,
    },
    Dsllv {
        rd: Reg,
        rt: Reg,
        rs: Reg,
    },
    Dsrlv {
        rd: Reg,
        rt: Reg,
        rs: Reg,
    },
    Dsrav {
        rd: Reg,
        rt: Reg,
        rs: Reg,
    },
    // --- SPECIAL: jumps and system ---
    Jr {
        rs: Reg,
    },
    Jalr {
        rd: Reg,
        rs: Reg,
    },
    Syscall {
        code: u32,
    },
    Break {
        code: u32,
    },
    Sync,
    // --- SPECIAL: HI/LO ---
    Mfhi {
        rd: Reg,
    },
    Mthi {
        rs: Reg,
    },
    Mflo {
        rd: Reg,
    },
    Mtlo {
        rs: Reg,
    },
    Mult {
        rs: Reg,
        rt: Reg,
    },
    Multu {
        rs: Reg,
        rt: Reg,
    },
    Div {
        rs: Reg,
        rt: Reg,
    },
    Divu {
        rs: Reg,
        rt: Reg,
    },
    Dmult {
        rs: Reg,
        rt: Reg,
    },
    Dmultu {
        rs: Reg,
        rt: Reg,
    },
    Ddiv {
        rs: Reg,
        rt: Reg,
    },
    Ddivu {
        rs: Reg,
        rt: Reg,
    },
    // --- SPECIAL: three-register ALU (rd = rs op rt) ---
    Add {
        rd: Reg,
        rs: Reg,
        rt: Reg,
    },
    Addu {
        rd: Reg,
        rs: Reg,
        rt: Reg,
    },
    Sub {
        rd: Reg,
        rs: Reg,
        rt: Reg,
    },
    Subu {
        rd: Reg,
        rs: Reg,
        rt: Reg,
    },
    And {
        rd: Reg,
        rs: Reg,
        rt: Reg,
    },
    Or {
        rd: Reg,
        rs: Reg,
        rt: Reg,
    },
    Xor {
        rd: Reg,
        rs: Reg,
        rt: Reg,
    },
    Nor {
        rd: Reg,
        rs: Reg,
        rt: Reg,
    },
    Slt {
        rd: Reg,
        rs: Reg,
        rt: Reg,
    },
    Sltu {
        rd: Reg,
        rs: Reg,
        rt: Reg,
    },
    Dadd {
        rd: Reg,
        rs: Reg,
        rt: Reg,
    },
    Daddu {
        rd: Reg,
        rs: Reg,
        rt: Reg,
    },
    Dsub {
        rd: Reg,
        rs: Reg,
        rt: Reg,
    },
    Dsubu {
        rd: Reg,
        rs: Reg,
        rt: Reg,
    },
    // --- SPECIAL: register traps ---
    Tge {
        rs: Reg,
        rt: Reg,
    },
    Tgeu {
        rs: Reg,
        rt: Reg,
    },
    Tlt {
        rs: Reg,
        rt: Reg,
    },
    Tltu {
        rs: Reg,
        rt: Reg,
    },
    Teq {
        rs: Reg,
        rt: Reg,
    },
    Tne {
        rs: Reg,
        rt: Reg,
    },
    // --- REGIMM ---
    Bltz {
        rs: Reg,
        off: i16,
    },
    Bgez {
        rs: Reg,
        off: i16,
    },
    Bltzl {
        rs: Reg,
        off: i16,
    },
    Bgezl {
        rs: Reg,
        off: i16,
    },
    Bltzal {
        rs: Reg,
        off: i16,
    },
    Bgezal {
        rs: Reg,
        off: i16,
    },
    Bltzall {
        rs: Reg,
        off: i16,
    },
    Bgezall {
        rs: Reg,
        off: i16,
    },
    Tgei {
        rs: Reg,
        imm: i16,
    },
    Tgeiu {
        rs: Reg,
        imm: i16,
    },
    Tlti {
        rs: Reg,
        imm: i16,
    },
    Tltiu {
        rs: Reg,
        imm: i16,
    },
    Teqi {
        rs: Reg,
        imm: i16,
    },
    Tnei {
        rs: Reg,
        imm: i16,
    },
    // --- jumps and branches ---
    /// `target` is the 26-bit instruction index.
    J {
        target: u32,
    },
    Jal {
        target: u32,
    },
    Beq {
        rs: Reg,
        rt: Reg,
        off: i16,
    },
    Bne {
        rs: Reg,
        rt: Reg,
        off: i16,
    },
    Blez {
        rs: Reg,
        off: i16,
    },
    Bgtz {
        rs: Reg,
        off: i16,
    },
    Beql {
        rs: Reg,
        rt: Reg,
        off: i16,
    },
    Bnel {
        rs: Reg,
        rt: Reg,
        off: i16,
    },
    Blezl {
        rs: Reg,
        off: i16,
    },
    Bgtzl {
        rs: Reg,
        off: i16,
    },
    // --- immediate ALU (rt = rs op imm) ---
    Addi {
        rt: Reg,
        rs: Reg,
        imm: i16,
    },
    Addiu {
        rt: Reg,
        rs: Reg,
        imm: i16,
    },
    Slti {
        rt: Reg,
        rs: Reg,
        imm: i16,
    },
    Sltiu {
        rt: Reg,
        rs: Reg,
        imm: i16,
    },
    Andi {
        rt: Reg,
        rs: Reg,
        imm: u16,
    },
    Ori {
        rt: Reg,
        rs: Reg,
        imm: u16,
    },
    Xori {
        rt: Reg,
        rs: Reg,
        imm: u16,
    },
    Lui {
        rt: Reg,
        imm: u16,
    },
    Daddi {
        rt: Reg,
        rs: Reg,
        imm: i16,
    },
    Daddiu {
        rt: Reg,
        rs: Reg,
        imm: i16,
    },
    // --- loads (rt = mem[base + off]) ---
    Lb {
        rt: Reg,
        base: Reg,
        off: i16,
    },
    Lbu {
        rt: Reg,
        base: Reg,
        off: i16,
    },
    Lh {
        rt: Reg,
        base: Reg,
        off: i16,
    },
    Lhu {
        rt: Reg,
        base: Reg,
        off: i16,
    },
    Lw {
        rt: Reg,
        base: Reg,
        off: i16,
    },
    Lwu {
        rt: Reg,
        base: Reg,
        off: i16,
    },
    Lwl {
        rt: Reg,
        base: Reg,
        off: i16,
    },
    Lwr {
        rt: Reg,
        base: Reg,
        off: i16,
    },
    Ld {
        rt: Reg,
        base: Reg,
        off: i16,
    },
    Ldl {
        rt: Reg,
        base: Reg,
        off: i16,
    },
    Ldr {
        rt: Reg,
        base: Reg,
        off: i16,
    },
    Ll {
        rt: Reg,
        base: Reg,
        off: i16,
    },
    Lld {
        rt: Reg,
        base: Reg,
        off: i16,
    },
    // --- stores (mem[base + off] = rt) ---
    Sb {
        rt: Reg,
        base: Reg,
        off: i16,
    },
    Sh {
        rt: Reg,
        base: Reg,
        off: i16,
    },
    Sw {
        rt: Reg,
        base: Reg,
        off: i16,
    },
    Swl {
        rt: Reg,
        base: Reg,
        off: i16,
    },
    Swr {
        rt: Reg,
        base: Reg,
        off: i16,
    },
    Sd {
        rt: Reg,
        base: Reg,
        off: i16,
    },
    Sdl {
        rt: Reg,
        base: Reg,
        off: i16,
    },
    Sdr {
        rt: Reg,
        base: Reg,
        off: i16,
    },
    Sc {
        rt: Reg,
        base: Reg,
        off: i16,
    },
    Scd {
        rt: Reg,
        base: Reg,
        off: i16,
    },
    // --- coprocessor 0 (privileged: CpU in user mode) ---
    /// Any COP0 word (MFC0, MTC0, TLB ops, ERET...).
    Cop0 {
        word: u32,
    },
    /// CACHE: a CP0 instruction.
    Cache {
        op: u8,
        base: Reg,
        off: i16,
    },
    // --- coprocessor 1 (the FPU; CpU when Status.CU1 is clear) ---
    Mfc1 {
        rt: Reg,
        fs: u8,
    },
    Dmfc1 {
        rt: Reg,
        fs: u8,
    },
    Cfc1 {
        rt: Reg,
        fs: u8,
    },
    Mtc1 {
        rt: Reg,
        fs: u8,
    },
    Dmtc1 {
        rt: Reg,
        fs: u8,
    },
    Ctc1 {
        rt: Reg,
        fs: u8,
    },
    Bc1f {
        off: i16,
    },
    Bc1t {
        off: i16,
    },
    Bc1fl {
        off: i16,
    },
    Bc1tl {
        off: i16,
    },
    /// A computational COP1 instruction, decoded by the FPU.
    Fp(FpOp),
    /// A COP1 word the R4000 does not have: CpU if CU1 is clear, else RI.
    Cop1Reserved {
        word: u32,
    },
    Lwc1 {
        ft: u8,
        base: Reg,
        off: i16,
    },
    Ldc1 {
        ft: u8,
        base: Reg,
        off: i16,
    },
    Swc1 {
        ft: u8,
        base: Reg,
        off: i16,
    },
    Sdc1 {
        ft: u8,
        base: Reg,
        off: i16,
    },
    /// COP2 and LWC2/LDC2/SWC2/SDC2: the R4000 has no coprocessor 2, so
    /// these raise CpU (ce = 2) while Status.CU2 is clear, RI otherwise.
    Cop2 {
        word: u32,
    },
    /// Not an R4000 encoding: Reserved Instruction exception.
    Reserved {
        word: u32,
    },
}

/// Decodes one instruction word. Total: every word gives an `Op`.
pub fn decode(word: u32) -> Op {
    let i = Instruction(word);
    let (rs, rt) = (i.rs(), i.rt());
    let (imm, off) = (i.simm(), i.simm());
    let base = rs;
    match i.opcode() {
        0x00 => decode_special(i),
        0x01 => decode_regimm(i),
        0x02 => Op::J { target: i.target() },
        0x03 => Op::Jal { target: i.target() },
        0x04 => Op::Beq { rs, rt, off },
        0x05 => Op::Bne { rs, rt, off },
        0x06 => Op::Blez { rs, off },
        0x07 => Op::Bgtz { rs, off },
        0x08 => Op::Addi { rt, rs, imm },
        0x09 => Op::Addiu { rt, rs, imm },
        0x0a => Op::Slti { rt, rs, imm },
        0x0b => Op::Sltiu { rt, rs, imm },
        0x0c => Op::Andi {
            rt,
            rs,
            imm: i.uimm(),
        },
        0x0d => Op::Ori {
            rt,
            rs,
            imm: i.uimm(),
        },
        0x0e => Op::Xori {
            rt,
            rs,
            imm: i.uimm(),
        },
        0x0f => Op::Lui { rt, imm: i.uimm() },
        0x10 => Op::Cop0 { word },
        0x11 => decode_cop1_word(i),
        0x12 => Op::Cop2 { word },
        0x14 => Op::Beql { rs, rt, off },
        0x15 => Op::Bnel { rs, rt, off },
        0x16 => Op::Blezl { rs, off },
        0x17 => Op::Bgtzl { rs, off },
        0x18 => Op::Daddi { rt, rs, imm },
        0x19 => Op::Daddiu { rt, rs, imm },
        0x1a => Op::Ldl { rt, base, off },
        0x1b => Op::Ldr { rt, base, off },
        0x20 => Op::Lb { rt, base, off },
        0x21 => Op::Lh { rt, base, off },
        0x22 => Op::Lwl { rt, base, off },
        0x23 => Op::Lw { rt, base, off },
        0x24 => Op::Lbu { rt, base, off },
        0x25 => Op::Lhu { rt, base, off },
        0x26 => Op::Lwr { rt, base, off },
        0x27 => Op::Lwu { rt, base, off },
        0x28 => Op::Sb { rt, base, off },
        0x29 => Op::Sh { rt, base, off },
        0x2a => Op::Swl { rt, base, off },
        0x2b => Op::Sw { rt, base, off },
        0x2c => Op::Sdl { rt, base, off },
        0x2d => Op::Sdr { rt, base, off },
        0x2e => Op::Swr { rt, base, off },
        0x2f => Op::Cache {
            op: i.rt_num(),
            base,
            off,
        },
        0x30 => Op::Ll { rt, base, off },
        0x31 => Op::Lwc1 {
            ft: i.rt_num(),
            base,
            off,
        },
        0x32 | 0x36 | 0x3a | 0x3e => Op::Cop2 { word },
        0x34 => Op::Lld { rt, base, off },
        0x35 => Op::Ldc1 {
            ft: i.rt_num(),
            base,
            off,
        },
        0x37 => Op::Ld { rt, base, off },
        0x38 => Op::Sc { rt, base, off },
        0x39 => Op::Swc1 {
            ft: i.rt_num(),
            base,
            off,
        },
        0x3c => Op::Scd { rt, base, off },
        0x3d => Op::Sdc1 {
            ft: i.rt_num(),
            base,
            off,
        },
        0x3f => Op::Sd { rt, base, off },
        // 0x13 (COP3 in MIPS I/II, COP1X in MIPS IV), 0x1c..0x1f (MIPS32
        // SPECIAL2, JALX, SPECIAL3...), 0x33 (LWC3 / PREF), 0x3b (SWC3).
        _ => Op::Reserved { word },
    }
}

fn decode_special(i: Instruction) -> Op {
    let (rs, rt, rd, sa) = (i.rs(), i.rt(), i.rd(), i.sa());
    let word = i.0;
    match i.funct() {
        0x00 => Op::Sll { rd, rt, sa },
        // MIPS32r2 ROTR is SRL with rs = 1.
        0x02 if rs == Reg::ZERO => Op::Srl { rd, rt, sa },
        0x03 => Op::Sra { rd, rt, sa },
        0x04 => Op::Sllv { rd, rt, rs },
        // MIPS32r2 ROTRV is SRLV with sa = 1.
        0x06 if sa == 0 => Op::Srlv { rd, rt, rs },
        0x07 => Op::Srav { rd, rt, rs },
        0x08 => Op::Jr { rs },
        0x09 => Op::Jalr { rd, rs },
        0x0c => Op::Syscall { code: i.code() },
        0x0d => Op::Break { code: i.code() },
        0x0f => Op::Sync,
        0x10 => Op::Mfhi { rd },
        0x11 => Op::Mthi { rs },
        0x12 => Op::Mflo { rd },
        0x13 => Op::Mtlo { rs },
        0x14 => Op::Dsllv { rd, rt, rs },
        0x16 => Op::Dsrlv { rd, rt, rs },
        0x17 => Op::Dsrav { rd, rt, rs },
        0x18 => Op::Mult { rs, rt },
        0x19 => Op::Multu { rs, rt },
        0x1a => Op::Div { rs, rt },
        0x1b => Op::Divu { rs, rt },
        0x1c => Op::Dmult { rs, rt },
        0x1d => Op::Dmultu { rs, rt },
        0x1e => Op::Ddiv { rs, rt },
        0x1f => Op::Ddivu { rs, rt },
        0x20 => Op::Add { rd, rs, rt },
        0x21 => Op::Addu { rd, rs, rt },
        0x22 => Op::Sub { rd, rs, rt },
        0x23 => Op::Subu { rd, rs, rt },
        0x24 => Op::And { rd, rs, rt },
        0x25 => Op::Or { rd, rs, rt },
        0x26 => Op::Xor { rd, rs, rt },
        0x27 => Op::Nor { rd, rs, rt },
        0x2a => Op::Slt { rd, rs, rt },
        0x2b => Op::Sltu { rd, rs, rt },
        0x2c => Op::Dadd { rd, rs, rt },
        0x2d => Op::Daddu { rd, rs, rt },
        0x2e => Op::Dsub { rd, rs, rt },
        0x2f => Op::Dsubu { rd, rs, rt },
        0x30 => Op::Tge { rs, rt },
        0x31 => Op::Tgeu { rs, rt },
        0x32 => Op::Tlt { rs, rt },
        0x33 => Op::Tltu { rs, rt },
        0x34 => Op::Teq { rs, rt },
        0x36 => Op::Tne { rs, rt },
        0x38 => Op::Dsll { rd, rt, sa },
        0x3a => Op::Dsrl { rd, rt, sa },
        0x3b => Op::Dsra { rd, rt, sa },
        0x3c => Op::Dsll32 { rd, rt, sa },
        0x3e => Op::Dsrl32 { rd, rt, sa },
        0x3f => Op::Dsra32 { rd, rt, sa },
        // 0x01 MOVCI, 0x0a MOVZ, 0x0b MOVN (MIPS IV); 0x05, 0x0e, 0x15,
        // 0x28, 0x29, 0x35, 0x37, 0x39, 0x3d: reserved on the R4000.
        _ => Op::Reserved { word },
    }
}

fn decode_regimm(i: Instruction) -> Op {
    let (rs, off) = (i.rs(), i.simm());
    let imm = off;
    match i.rt_num() {
        0x00 => Op::Bltz { rs, off },
        0x01 => Op::Bgez { rs, off },
        0x02 => Op::Bltzl { rs, off },
        0x03 => Op::Bgezl { rs, off },
        0x08 => Op::Tgei { rs, imm },
        0x09 => Op::Tgeiu { rs, imm },
        0x0a => Op::Tlti { rs, imm },
        0x0b => Op::Tltiu { rs, imm },
        0x0c => Op::Teqi { rs, imm },
        0x0e => Op::Tnei { rs, imm },
        0x10 => Op::Bltzal { rs, off },
        0x11 => Op::Bgezal { rs, off },
        0x12 => Op::Bltzall { rs, off },
        0x13 => Op::Bgezall { rs, off },
        _ => Op::Reserved { word: i.0 },
    }
}

/// COP1: the core's own moves and branches; computational words go to the
/// FPU's decoder (`fpu::decode_cop1`).
fn decode_cop1_word(i: Instruction) -> Op {
    let (rt, fs, word) = (i.rt(), i.rd_num(), i.0);
    match i.rs().idx() {
        0x00 => Op::Mfc1 { rt, fs },
        0x01 => Op::Dmfc1 { rt, fs },
        0x02 => Op::Cfc1 { rt, fs },
        0x04 => Op::Mtc1 { rt, fs },
        0x05 => Op::Dmtc1 { rt, fs },
        0x06 => Op::Ctc1 { rt, fs },
        0x08 => match i.rt_num() {
            0 => Op::Bc1f { off: i.simm() },
            1 => Op::Bc1t { off: i.simm() },
            2 => Op::Bc1fl { off: i.simm() },
            3 => Op::Bc1tl { off: i.simm() },
            _ => Op::Cop1Reserved { word },
        },
        0x10 | 0x11 | 0x14 | 0x15 => match decode_cop1(word) {
            Some(fp) => Op::Fp(fp),
            None => Op::Cop1Reserved { word },
        },
        _ => Op::Cop1Reserved { word },
    }
}

impl Op {
    /// True for the MIPS III 64-bit operations, which raise Reserved
    /// Instruction unless the embedder enabled 64-bit mode (R4000 User's
    /// Manual, ch. 4: 64-bit operations are enabled in User mode by UX).
    pub fn is_64bit(&self) -> bool {
        use Op::*;
        matches!(
            self,
            Dsll { .. }
                | Dsrl { .. }
                | Dsra { .. }
                | Dsll32 { .. }
                | Dsrl32 { .. }
                | Dsra32 { .. }
                | Dsllv { .. }
                | Dsrlv { .. }
                | Dsrav { .. }
                | Dmult { .. }
                | Dmultu { .. }
                | Ddiv { .. }
                | Ddivu { .. }
                | Dadd { .. }
                | Daddu { .. }
                | Dsub { .. }
                | Dsubu { .. }
                | Daddi { .. }
                | Daddiu { .. }
                | Ld { .. }
                | Ldl { .. }
                | Ldr { .. }
                | Lwu { .. }
                | Lld { .. }
                | Sd { .. }
                | Sdl { .. }
                | Sdr { .. }
                | Scd { .. }
                | Dmfc1 { .. }
                | Dmtc1 { .. }
        )
    }

    /// True for the loads and stores (the FP ones too): the instructions
    /// that reach data memory.
    pub fn accesses_memory(&self) -> bool {
        use Op::*;
        matches!(
            self,
            Lb { .. }
                | Lbu { .. }
                | Lh { .. }
                | Lhu { .. }
                | Lw { .. }
                | Lwu { .. }
                | Lwl { .. }
                | Lwr { .. }
                | Ld { .. }
                | Ldl { .. }
                | Ldr { .. }
                | Ll { .. }
                | Lld { .. }
                | Sb { .. }
                | Sh { .. }
                | Sw { .. }
                | Swl { .. }
                | Swr { .. }
                | Sd { .. }
                | Sdl { .. }
                | Sdr { .. }
                | Sc { .. }
                | Scd { .. }
                | Lwc1 { .. }
                | Ldc1 { .. }
                | Swc1 { .. }
                | Sdc1 { .. }
        )
    }

    /// True for the branches and jumps: each has one architectural delay
    /// slot, and its outcome decides where execution goes after that slot.
    pub fn has_delay_slot(&self) -> bool {
        use Op::*;
        matches!(
            self,
            Jr { .. }
                | Jalr { .. }
                | J { .. }
                | Jal { .. }
                | Bltz { .. }
                | Bgez { .. }
                | Bltzl { .. }
                | Bgezl { .. }
                | Bltzal { .. }
                | Bgezal { .. }
                | Bltzall { .. }
                | Bgezall { .. }
                | Beq { .. }
                | Bne { .. }
                | Blez { .. }
                | Bgtz { .. }
                | Beql { .. }
                | Bnel { .. }
                | Blezl { .. }
                | Bgtzl { .. }
                | Bc1f { .. }
                | Bc1t { .. }
                | Bc1fl { .. }
                | Bc1tl { .. }
        )
    }

    /// True when `decode` found no R4000 instruction here.
    pub fn is_reserved(&self) -> bool {
        matches!(self, Op::Reserved { .. } | Op::Cop1Reserved { .. })
    }
}

/// The decode as the CPU executes it in the given mode: 64-bit operations
/// become `Reserved` in 32-bit mode.
pub(crate) fn decode_for_mode(word: u32, mode64: bool) -> Op {
    let op = decode(word);
    if !mode64 && op.is_64bit() {
        Op::Reserved { word }
    } else {
        op
    }
}

/// Whether `word` is an instruction an R4000 executes in user mode with the
/// given register width (false: it raises Reserved Instruction). COP0,
/// CACHE and COP2 words are R4000 encodings (they raise Coprocessor
/// Unusable, not RI) and count as true.
pub fn is_r4000_encoding(word: u32, mode64: bool) -> bool {
    !decode_for_mode(word, mode64).is_reserved()
}
