//! Disassembly: `Display` for a decoded [`Op`] at an address, in the usual
//! MIPS assembler syntax (`addiu $sp, $sp, -32`, `lw $ra, 28($sp)`,
//! `beq $a0, $zero, 0x400120`, `jal 0x400200`).
//!
//! Contents: [`Disasm`], [`Op::at`], [`disassemble`].
//! Conventions (those of GNU objdump, minus its pseudo-instructions except
//! `nop`): signed decimal for arithmetic immediates and offsets, hex for
//! logical immediates, LUI and branch/jump targets, which are absolute.

use std::fmt;

use crate::decode::{decode, Op};
use crate::insn::Reg;
use crate::insn::{branch_target, jump_target};

/// An [`Op`] together with its address, which branch and jump targets need.
#[derive(Clone, Copy, Debug)]
pub struct Disasm {
    pub op: Op,
    pub pc: u32,
}

impl Op {
    /// Pairs the op with its address for display.
    pub fn at(self, pc: u32) -> Disasm {
        Disasm { op: self, pc }
    }
}

/// The assembler text of `word` located at `pc`.
pub fn disassemble(word: u32, pc: u32) -> String {
    decode(word).at(pc).to_string()
}

/// `name $rs, $rt, target`-style helpers.
struct Mem(i16, Reg);
impl fmt::Display for Mem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({})", self.0, self.1)
    }
}

fn cop0_text(word: u32) -> String {
    let rs = (word >> 21) & 31;
    let rt = Reg::new(word >> 16);
    let rd = (word >> 11) & 31;
    match rs {
        0 => format!("mfc0 {rt}, ${rd}"),
        1 => format!("dmfc0 {rt}, ${rd}"),
        4 => format!("mtc0 {rt}, ${rd}"),
        5 => format!("dmtc0 {rt}, ${rd}"),
        16..=31 => match word & 0x3f {
            0x01 => "tlbr".into(),
            0x02 => "tlbwi".into(),
            0x06 => "tlbwr".into(),
            0x08 => "tlbp".into(),
            0x18 => "eret".into(),
            _ => format!("c0 0x{:x}", word & 0x01ff_ffff),
        },
        _ => format!(".word 0x{word:08x}"),
    }
}

impl fmt::Display for Disasm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Op::*;
        let pc = self.pc;
        let b = |off: i16| branch_target(pc, off);
        match self.op {
            Sll {
                rd: Reg::ZERO,
                rt: Reg::ZERO,
                sa: 0,
            } => write!(f, "nop"),
            Sll { rd, rt, sa } => write!(f, "sll {rd}, {rt}, {sa}"),
            Srl { rd, rt, sa } => write!(f, "srl {rd}, {rt}, {sa}"),
            Sra { rd, rt, sa } => write!(f, "sra {rd}, {rt}, {sa}"),
            Dsll { rd, rt, sa } => write!(f, "dsll {rd}, {rt}, {sa}"),
            Dsrl { rd, rt, sa } => write!(f, "dsrl {rd}, {rt}, {sa}"),
            Dsra { rd, rt, sa } => write!(f, "dsra {rd}, {rt}, {sa}"),
            Dsll32 { rd, rt, sa } => write!(f, "dsll32 {rd}, {rt}, {sa}"),
            Dsrl32 { rd, rt, sa } => write!(f, "dsrl32 {rd}, {rt}, {sa}"),
            Dsra32 { rd, rt, sa } => write!(f, "dsra32 {rd}, {rt}, {sa}"),
            Sllv { rd, rt, rs } => write!(f, "sllv {rd}, {rt}, {rs}"),
            Srlv { rd, rt, rs } => write!(f, "srlv {rd}, {rt}, {rs}"),
            Srav { rd, rt, rs } => write!(f, "srav {rd}, {rt}, {rs}"),
            Dsllv { rd, rt, rs } => write!(f, "dsllv {rd}, {rt}, {rs}"),
            Dsrlv { rd, rt, rs } => write!(f, "dsrlv {rd}, {rt}, {rs}"),
            Dsrav { rd, rt, rs } => write!(f, "dsrav {rd}, {rt}, {rs}"),
            Jr { rs } => write!(f, "jr {rs}"),
            Jalr { rd: Reg::RA, rs } => write!(f, "jalr {rs}"),
            Jalr { rd, rs } => write!(f, "jalr {rd}, {rs}"),
            Syscall { code: 0 } => write!(f, "syscall"),
            Syscall { code } => write!(f, "syscall 0x{code:x}"),
            // BREAK's code field is read as two: bits 25..16 and 15..6 (as
            // GNU objdump shows it).
            Break { code: 0 } => write!(f, "break"),
            Break { code } if code & 0x3ff == 0 => write!(f, "break 0x{:x}", code >> 10),
            Break { code } => write!(f, "break 0x{:x}, 0x{:x}", code >> 10, code & 0x3ff),
            Sync => write!(f, "sync"),
            Mfhi { rd } => write!(f, "mfhi {rd}"),
            Mthi { rs } => write!(f, "mthi {rs}"),
            Mflo { rd } => write!(f, "mflo {rd}"),
            Mtlo { rs } => write!(f, "mtlo {rs}"),
            Mult { rs, rt } => write!(f, "mult {rs}, {rt}"),
            Multu { rs, rt } => write!(f, "multu {rs}, {rt}"),
            Div { rs, rt } => write!(f, "div {rs}, {rt}"),
            Divu { rs, rt } => write!(f, "divu {rs}, {rt}"),
            Dmult { rs, rt } => write!(f, "dmult {rs}, {rt}"),
            Dmultu { rs, rt } => write!(f, "dmultu {rs}, {rt}"),
            Ddiv { rs, rt } => write!(f, "ddiv {rs}, {rt}"),
            Ddivu { rs, rt } => write!(f, "ddivu {rs}, {rt}"),
            Add { rd, rs, rt } => write!(f, "add {rd}, {rs}, {rt}"),
            Addu { rd, rs, rt } => write!(f, "addu {rd}, {rs}, {rt}"),
            Sub { rd, rs, rt } => write!(f, "sub {rd}, {rs}, {rt}"),
            Subu { rd, rs, rt } => write!(f, "subu {rd}, {rs}, {rt}"),
            And { rd, rs, rt } => write!(f, "and {rd}, {rs}, {rt}"),
            Or { rd, rs, rt } => write!(f, "or {rd}, {rs}, {rt}"),
            Xor { rd, rs, rt } => write!(f, "xor {rd}, {rs}, {rt}"),
            Nor { rd, rs, rt } => write!(f, "nor {rd}, {rs}, {rt}"),
            Slt { rd, rs, rt } => write!(f, "slt {rd}, {rs}, {rt}"),
            Sltu { rd, rs, rt } => write!(f, "sltu {rd}, {rs}, {rt}"),
            Dadd { rd, rs, rt } => write!(f, "dadd {rd}, {rs}, {rt}"),
            Daddu { rd, rs, rt } => write!(f, "daddu {rd}, {rs}, {rt}"),
            Dsub { rd, rs, rt } => write!(f, "dsub {rd}, {rs}, {rt}"),
            Dsubu { rd, rs, rt } => write!(f, "dsubu {rd}, {rs}, {rt}"),
            Tge { rs, rt } => write!(f, "tge {rs}, {rt}"),
            Tgeu { rs, rt } => write!(f, "tgeu {rs}, {rt}"),
            Tlt { rs, rt } => write!(f, "tlt {rs}, {rt}"),
            Tltu { rs, rt } => write!(f, "tltu {rs}, {rt}"),
            Teq { rs, rt } => write!(f, "teq {rs}, {rt}"),
            Tne { rs, rt } => write!(f, "tne {rs}, {rt}"),
            Bltz { rs, off } => write!(f, "bltz {rs}, 0x{:x}", b(off)),
            Bgez { rs, off } => write!(f, "bgez {rs}, 0x{:x}", b(off)),
            Bltzl { rs, off } => write!(f, "bltzl {rs}, 0x{:x}", b(off)),
            Bgezl { rs, off } => write!(f, "bgezl {rs}, 0x{:x}", b(off)),
            Bltzal { rs, off } => write!(f, "bltzal {rs}, 0x{:x}", b(off)),
            Bgezal { rs, off } => write!(f, "bgezal {rs}, 0x{:x}", b(off)),
            Bltzall { rs, off } => write!(f, "bltzall {rs}, 0x{:x}", b(off)),
            Bgezall { rs, off } => write!(f, "bgezall {rs}, 0x{:x}", b(off)),
            Tgei { rs, imm } => write!(f, "tgei {rs}, {imm}"),
            Tgeiu { rs, imm } => write!(f, "tgeiu {rs}, {imm}"),
            Tlti { rs, imm } => write!(f, "tlti {rs}, {imm}"),
            Tltiu { rs, imm } => write!(f, "tltiu {rs}, {imm}"),
            Teqi { rs, imm } => write!(f, "teqi {rs}, {imm}"),
            Tnei { rs, imm } => write!(f, "tnei {rs}, {imm}"),
            J { target } => write!(f, "j 0x{:x}", jump_target(pc, target)),
            Jal { target } => write!(f, "jal 0x{:x}", jump_target(pc, target)),
            Beq { rs, rt, off } => write!(f, "beq {rs}, {rt}, 0x{:x}", b(off)),
            Bne { rs, rt, off } => write!(f, "bne {rs}, {rt}, 0x{:x}", b(off)),
            Blez { rs, off } => write!(f, "blez {rs}, 0x{:x}", b(off)),
            Bgtz { rs, off } => write!(f, "bgtz {rs}, 0x{:x}", b(off)),
            Beql { rs, rt, off } => write!(f, "beql {rs}, {rt}, 0x{:x}", b(off)),
            Bnel { rs, rt, off } => write!(f, "bnel {rs}, {rt}, 0x{:x}", b(off)),
            Blezl { rs, off } => write!(f, "blezl {rs}, 0x{:x}", b(off)),
            Bgtzl { rs, off } => write!(f, "bgtzl {rs}, 0x{:x}", b(off)),
            Addi { rt, rs, imm } => write!(f, "addi {rt}, {rs}, {imm}"),
            Addiu { rt, rs, imm } => write!(f, "addiu {rt}, {rs}, {imm}"),
            Slti { rt, rs, imm } => write!(f, "slti {rt}, {rs}, {imm}"),
            Sltiu { rt, rs, imm } => write!(f, "sltiu {rt}, {rs}, {imm}"),
            Andi { rt, rs, imm } => write!(f, "andi {rt}, {rs}, 0x{imm:x}"),
            Ori { rt, rs, imm } => write!(f, "ori {rt}, {rs}, 0x{imm:x}"),
            Xori { rt, rs, imm } => write!(f, "xori {rt}, {rs}, 0x{imm:x}"),
            Lui { rt, imm } => write!(f, "lui {rt}, 0x{imm:x}"),
            Daddi { rt, rs, imm } => write!(f, "daddi {rt}, {rs}, {imm}"),
            Daddiu { rt, rs, imm } => write!(f, "daddiu {rt}, {rs}, {imm}"),
            Lb { rt, base, off } => write!(f, "lb {rt}, {}", Mem(off, base)),
            Lbu { rt, base, off } => write!(f, "lbu {rt}, {}", Mem(off, base)),
            Lh { rt, base, off } => write!(f, "lh {rt}, {}", Mem(off, base)),
            Lhu { rt, base, off } => write!(f, "lhu {rt}, {}", Mem(off, base)),
            Lw { rt, base, off } => write!(f, "lw {rt}, {}", Mem(off, base)),
            Lwu { rt, base, off } => write!(f, "lwu {rt}, {}", Mem(off, base)),
            Lwl { rt, base, off } => write!(f, "lwl {rt}, {}", Mem(off, base)),
            Lwr { rt, base, off } => write!(f, "lwr {rt}, {}", Mem(off, base)),
            Ld { rt, base, off } => write!(f, "ld {rt}, {}", Mem(off, base)),
            Ldl { rt, base, off } => write!(f, "ldl {rt}, {}", Mem(off, base)),
            Ldr { rt, base, off } => write!(f, "ldr {rt}, {}", Mem(off, base)),
            Ll { rt, base, off } => write!(f, "ll {rt}, {}", Mem(off, base)),
            Lld { rt, base, off } => write!(f, "lld {rt}, {}", Mem(off, base)),
            Sb { rt, base, off } => write!(f, "sb {rt}, {}", Mem(off, base)),
            Sh { rt, base, off } => write!(f, "sh {rt}, {}", Mem(off, base)),
            Sw { rt, base, off } => write!(f, "sw {rt}, {}", Mem(off, base)),
            Swl { rt, base, off } => write!(f, "swl {rt}, {}", Mem(off, base)),
            Swr { rt, base, off } => write!(f, "swr {rt}, {}", Mem(off, base)),
            Sd { rt, base, off } => write!(f, "sd {rt}, {}", Mem(off, base)),
            Sdl { rt, base, off } => write!(f, "sdl {rt}, {}", Mem(off, base)),
            Sdr { rt, base, off } => write!(f, "sdr {rt}, {}", Mem(off, base)),
            Sc { rt, base, off } => write!(f, "sc {rt}, {}", Mem(off, base)),
            Scd { rt, base, off } => write!(f, "scd {rt}, {}", Mem(off, base)),
            Cop0 { word } => f.write_str(&cop0_text(word)),
            Cache { op, base, off } => write!(f, "cache 0x{op:x}, {}", Mem(off, base)),
            Mfc1 { rt, fs } => write!(f, "mfc1 {rt}, $f{fs}"),
            Dmfc1 { rt, fs } => write!(f, "dmfc1 {rt}, $f{fs}"),
            Cfc1 { rt, fs } => write!(f, "cfc1 {rt}, ${fs}"),
            Mtc1 { rt, fs } => write!(f, "mtc1 {rt}, $f{fs}"),
            Dmtc1 { rt, fs } => write!(f, "dmtc1 {rt}, $f{fs}"),
            Ctc1 { rt, fs } => write!(f, "ctc1 {rt}, ${fs}"),
            Bc1f { off } => write!(f, "bc1f 0x{:x}", b(off)),
            Bc1t { off } => write!(f, "bc1t 0x{:x}", b(off)),
            Bc1fl { off } => write!(f, "bc1fl 0x{:x}", b(off)),
            Bc1tl { off } => write!(f, "bc1tl 0x{:x}", b(off)),
            Fp(op) => write!(f, "{op}"),
            Lwc1 { ft, base, off } => write!(f, "lwc1 $f{ft}, {}", Mem(off, base)),
            Ldc1 { ft, base, off } => write!(f, "ldc1 $f{ft}, {}", Mem(off, base)),
            Swc1 { ft, base, off } => write!(f, "swc1 $f{ft}, {}", Mem(off, base)),
            Sdc1 { ft, base, off } => write!(f, "sdc1 $f{ft}, {}", Mem(off, base)),
            Cop1Reserved { word } | Cop2 { word } | Reserved { word } => {
                write!(f, ".word 0x{word:08x}")
            }
        }
    }
}
