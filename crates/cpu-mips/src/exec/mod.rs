//! Instruction execution: one `match` over the decoded [`Op`] dispatching to
//! one small inline function per instruction group.
//!
//! Contents (file per group):
//! - `alu`: ADD..NOR, SLT(U), shifts, immediates, LUI, the D-forms.
//! - `muldiv`: MULT/DIV and their D-forms, MFHI/MTHI/MFLO/MTLO.
//! - `branch`: branches (incl. likely and and-link), J/JAL/JR/JALR, traps.
//! - `loadstore`: every load and store incl. LWL..SDR, LL/SC.
//! - `cop`: COP0/CACHE/COP2 (unusable), the COP1 moves, branches, loads,
//!   stores and computational ops.
//!
//! Each body returns `Ok(Flow)` or `Err(Fault)`; a faulting instruction has
//! changed nothing (results are written only after every check passed).

mod alu;
mod branch;
mod cop;
mod loadstore;
mod muldiv;

pub(crate) use loadstore::{load_fault, USER_TOP};

use crate::cpu::Cpu;
use crate::decode::Op;
use crate::insn::Reg;
use crate::pipeline::{Fault, Flow};
use crate::{ExcCode, Memory};

/// Sign-extends a 32-bit result to 64 bits (R4000: every 32-bit operation
/// leaves a sign-extended value in its 64-bit destination).
#[inline(always)]
pub(crate) fn sx32(v: u32) -> u64 {
    v as i32 as i64 as u64
}

impl Cpu {
    #[inline(always)]
    pub(crate) fn r(&self, r: Reg) -> u64 {
        self.gpr[r.idx()]
    }
    #[inline(always)]
    pub(crate) fn r32(&self, r: Reg) -> u32 {
        self.gpr[r.idx()] as u32
    }
    /// Writes a GPR; $zero stays zero.
    #[inline(always)]
    pub(crate) fn set(&mut self, r: Reg, v: u64) {
        self.gpr[r.idx()] = v;
        self.gpr[0] = 0;
    }

    /// Executes one decoded instruction located at `pc`.
    #[inline(always)]
    pub(crate) fn execute<M: Memory>(
        &mut self,
        op: Op,
        pc: u32,
        mem: &mut M,
    ) -> Result<Flow, Fault> {
        self.execute_ref(&op, pc, mem)
    }

    /// [`Cpu::execute`] of an instruction read in place.
    #[inline(always)]
    pub(crate) fn execute_ref<M: Memory>(
        &mut self,
        op: &Op,
        pc: u32,
        mem: &mut M,
    ) -> Result<Flow, Fault> {
        use Op::*;
        match *op {
            Sll { rd, rt, sa } => self.sll(rd, rt, sa),
            Srl { rd, rt, sa } => self.srl(rd, rt, sa),
            Sra { rd, rt, sa } => self.sra(rd, rt, sa),
            Dsll { rd, rt, sa } => self.dsll(rd, rt, sa),
            Dsrl { rd, rt, sa } => self.dsrl(rd, rt, sa),
            Dsra { rd, rt, sa } => self.dsra(rd, rt, sa),
            Dsll32 { rd, rt, sa } => self.dsll(rd, rt, sa + 32),
            Dsrl32 { rd, rt, sa } => self.dsrl(rd, rt, sa + 32),
            Dsra32 { rd, rt, sa } => self.dsra(rd, rt, sa + 32),
            Sllv { rd, rt, rs } => self.sll(rd, rt, self.r(rs) as u8 & 31),
            Srlv { rd, rt, rs } => self.srl(rd, rt, self.r(rs) as u8 & 31),
            Srav { rd, rt, rs } => self.sra(rd, rt, self.r(rs) as u8 & 31),
            Dsllv { rd, rt, rs } => self.dsll(rd, rt, self.r(rs) as u8 & 63),
            Dsrlv { rd, rt, rs } => self.dsrl(rd, rt, self.r(rs) as u8 & 63),
            Dsrav { rd, rt, rs } => self.dsra(rd, rt, self.r(rs) as u8 & 63),
            Jr { rs } => self.jr(rs),
            Jalr { rd, rs } => self.jalr(rd, rs, pc),
            Syscall { code } => Err(Fault::trap(ExcCode::Sys, code)),
            Break { code } => Err(Fault::trap(ExcCode::Bp, code)),
            Sync => Ok(Flow::Next),
            Mfhi { rd } => self.mfhi(rd),
            Mthi { rs } => self.mthi(rs),
            Mflo { rd } => self.mflo(rd),
            Mtlo { rs } => self.mtlo(rs),
            Mult { rs, rt } => self.mult(rs, rt),
            Multu { rs, rt } => self.multu(rs, rt),
            Div { rs, rt } => self.div(rs, rt),
            Divu { rs, rt } => self.divu(rs, rt),
            Dmult { rs, rt } => self.dmult(rs, rt),
            Dmultu { rs, rt } => self.dmultu(rs, rt),
            Ddiv { rs, rt } => self.ddiv(rs, rt),
            Ddivu { rs, rt } => self.ddivu(rs, rt),
            Add { rd, rs, rt } => self.add(rd, rs, self.r(rt)),
            Addu { rd, rs, rt } => self.addu(rd, rs, self.r(rt)),
            Sub { rd, rs, rt } => self.sub(rd, rs, rt),
            Subu { rd, rs, rt } => self.subu(rd, rs, rt),
            And { rd, rs, rt } => self.logic(rd, self.r(rs) & self.r(rt)),
            Or { rd, rs, rt } => self.logic(rd, self.r(rs) | self.r(rt)),
            Xor { rd, rs, rt } => self.logic(rd, self.r(rs) ^ self.r(rt)),
            Nor { rd, rs, rt } => self.logic(rd, !(self.r(rs) | self.r(rt))),
            Slt { rd, rs, rt } => {
                self.logic(rd, ((self.r(rs) as i64) < (self.r(rt) as i64)) as u64)
            }
            Sltu { rd, rs, rt } => self.logic(rd, (self.r(rs) < self.r(rt)) as u64),
            Dadd { rd, rs, rt } => self.dadd(rd, rs, self.r(rt)),
            Daddu { rd, rs, rt } => self.daddu(rd, rs, self.r(rt)),
            Dsub { rd, rs, rt } => self.dsub(rd, rs, rt),
            Dsubu { rd, rs, rt } => self.dsubu(rd, rs, rt),
            Tge { rs, rt } => trap_if((self.r(rs) as i64) >= (self.r(rt) as i64)),
            Tgeu { rs, rt } => trap_if(self.r(rs) >= self.r(rt)),
            Tlt { rs, rt } => trap_if((self.r(rs) as i64) < (self.r(rt) as i64)),
            Tltu { rs, rt } => trap_if(self.r(rs) < self.r(rt)),
            Teq { rs, rt } => trap_if(self.r(rs) == self.r(rt)),
            Tne { rs, rt } => trap_if(self.r(rs) != self.r(rt)),
            Bltz { rs, off } => Ok(branch::cond((self.r(rs) as i64) < 0, pc, off)),
            Bgez { rs, off } => Ok(branch::cond((self.r(rs) as i64) >= 0, pc, off)),
            Bltzl { rs, off } => Ok(branch::likely((self.r(rs) as i64) < 0, pc, off)),
            Bgezl { rs, off } => Ok(branch::likely((self.r(rs) as i64) >= 0, pc, off)),
            Bltzal { rs, off } => self.branch_link((self.r(rs) as i64) < 0, false, pc, off),
            Bgezal { rs, off } => self.branch_link((self.r(rs) as i64) >= 0, false, pc, off),
            Bltzall { rs, off } => self.branch_link((self.r(rs) as i64) < 0, true, pc, off),
            Bgezall { rs, off } => self.branch_link((self.r(rs) as i64) >= 0, true, pc, off),
            Tgei { rs, imm } => trap_if((self.r(rs) as i64) >= imm as i64),
            Tgeiu { rs, imm } => trap_if(self.r(rs) >= imm as i64 as u64),
            Tlti { rs, imm } => trap_if((self.r(rs) as i64) < imm as i64),
            Tltiu { rs, imm } => trap_if(self.r(rs) < imm as i64 as u64),
            Teqi { rs, imm } => trap_if(self.r(rs) as i64 == imm as i64),
            Tnei { rs, imm } => trap_if(self.r(rs) as i64 != imm as i64),
            J { target } => Ok(Flow::Branch(crate::insn::jump_target(pc, target))),
            Jal { target } => self.jal(target, pc),
            Beq { rs, rt, off } => Ok(branch::cond(self.r(rs) == self.r(rt), pc, off)),
            Bne { rs, rt, off } => Ok(branch::cond(self.r(rs) != self.r(rt), pc, off)),
            Blez { rs, off } => Ok(branch::cond((self.r(rs) as i64) <= 0, pc, off)),
            Bgtz { rs, off } => Ok(branch::cond((self.r(rs) as i64) > 0, pc, off)),
            Beql { rs, rt, off } => Ok(branch::likely(self.r(rs) == self.r(rt), pc, off)),
            Bnel { rs, rt, off } => Ok(branch::likely(self.r(rs) != self.r(rt), pc, off)),
            Blezl { rs, off } => Ok(branch::likely((self.r(rs) as i64) <= 0, pc, off)),
            Bgtzl { rs, off } => Ok(branch::likely((self.r(rs) as i64) > 0, pc, off)),
            Addi { rt, rs, imm } => self.add(rt, rs, imm as i64 as u64),
            Addiu { rt, rs, imm } => self.addu(rt, rs, imm as i64 as u64),
            Slti { rt, rs, imm } => self.logic(rt, ((self.r(rs) as i64) < imm as i64) as u64),
            Sltiu { rt, rs, imm } => self.logic(rt, (self.r(rs) < imm as i64 as u64) as u64),
            Andi { rt, rs, imm } => self.logic(rt, self.r(rs) & imm as u64),
            Ori { rt, rs, imm } => self.logic(rt, self.r(rs) | imm as u64),
            Xori { rt, rs, imm } => self.logic(rt, self.r(rs) ^ imm as u64),
            Lui { rt, imm } => self.logic(rt, sx32((imm as u32) << 16)),
            Daddi { rt, rs, imm } => self.dadd(rt, rs, imm as i64 as u64),
            Daddiu { rt, rs, imm } => self.daddu(rt, rs, imm as i64 as u64),
            Lb { rt, base, off } => self.lb(mem, rt, base, off),
            Lbu { rt, base, off } => self.lbu(mem, rt, base, off),
            Lh { rt, base, off } => self.lh(mem, rt, base, off),
            Lhu { rt, base, off } => self.lhu(mem, rt, base, off),
            Lw { rt, base, off } => self.lw(mem, rt, base, off),
            Lwu { rt, base, off } => self.lwu(mem, rt, base, off),
            Lwl { rt, base, off } => self.lwl(mem, rt, base, off),
            Lwr { rt, base, off } => self.lwr(mem, rt, base, off),
            Ld { rt, base, off } => self.ld(mem, rt, base, off),
            Ldl { rt, base, off } => self.ldl(mem, rt, base, off),
            Ldr { rt, base, off } => self.ldr(mem, rt, base, off),
            Ll { rt, base, off } => self.ll(mem, rt, base, off),
            Lld { rt, base, off } => self.lld(mem, rt, base, off),
            Sb { rt, base, off } => self.sb(mem, rt, base, off),
            Sh { rt, base, off } => self.sh(mem, rt, base, off),
            Sw { rt, base, off } => self.sw(mem, rt, base, off),
            Swl { rt, base, off } => self.swl(mem, rt, base, off),
            Swr { rt, base, off } => self.swr(mem, rt, base, off),
            Sd { rt, base, off } => self.sd(mem, rt, base, off),
            Sdl { rt, base, off } => self.sdl(mem, rt, base, off),
            Sdr { rt, base, off } => self.sdr(mem, rt, base, off),
            Sc { rt, base, off } => self.sc(mem, rt, base, off),
            Scd { rt, base, off } => self.scd(mem, rt, base, off),
            Cop0 { .. } | Cache { .. } => Err(Fault::unusable(0)),
            Mfc1 { rt, fs } => self.mfc1(rt, fs),
            Dmfc1 { rt, fs } => self.dmfc1(rt, fs),
            Cfc1 { rt, fs } => self.cfc1(rt, fs),
            Mtc1 { rt, fs } => self.mtc1(rt, fs),
            Dmtc1 { rt, fs } => self.dmtc1(rt, fs),
            Ctc1 { rt, fs } => self.ctc1(rt, fs),
            Bc1f { off } => self.bc1(false, false, pc, off),
            Bc1t { off } => self.bc1(true, false, pc, off),
            Bc1fl { off } => self.bc1(false, true, pc, off),
            Bc1tl { off } => self.bc1(true, true, pc, off),
            Fp(fp) => self.fp(&fp),
            Cop1Reserved { .. } => self.cop1_usable().and(Err(Fault::reserved())),
            Lwc1 { ft, base, off } => self.lwc1(mem, ft, base, off),
            Ldc1 { ft, base, off } => self.ldc1(mem, ft, base, off),
            Swc1 { ft, base, off } => self.swc1(mem, ft, base, off),
            Sdc1 { ft, base, off } => self.sdc1(mem, ft, base, off),
            Cop2 { .. } => self.cop2(),
            Reserved { .. } => Err(Fault::reserved()),
        }
    }
}

/// Trap instructions: Trap exception when the condition holds.
#[inline(always)]
fn trap_if(cond: bool) -> Result<Flow, Fault> {
    if cond {
        Err(Fault::new(ExcCode::Tr))
    } else {
        Ok(Flow::Next)
    }
}
