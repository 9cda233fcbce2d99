//! ALU and shift instructions, 32-bit and 64-bit (R4000 User's Manual,
//! appendix A: ADD, ADDU, SUB, SUBU, AND..NOR, SLT(U)/SLTI(U), SLL..SRAV,
//! DADD..DSUBU, DSLL..DSRAV). 32-bit forms operate on the low 32 bits and
//! sign-extend the result; ADD/ADDI/SUB/DADD/DADDI/DSUB raise Integer
//! Overflow and leave rd unchanged.

use super::sx32;
use crate::cpu::Cpu;
use crate::insn::Reg;
use crate::pipeline::{Fault, Flow};
use crate::ExcCode;

type R = Result<Flow, Fault>;

impl Cpu {
    /// Writes a 64-bit result computed by the caller (logic ops, SLT, LUI).
    #[inline(always)]
    pub(crate) fn logic(&mut self, rd: Reg, v: u64) -> R {
        self.set(rd, v);
        Ok(Flow::Next)
    }
    #[inline(always)]
    pub(crate) fn add(&mut self, rd: Reg, rs: Reg, b: u64) -> R {
        match (self.r32(rs) as i32).checked_add(b as u32 as i32) {
            Some(v) => self.logic(rd, v as i64 as u64),
            None => Err(Fault::new(ExcCode::Ov)),
        }
    }
    #[inline(always)]
    pub(crate) fn addu(&mut self, rd: Reg, rs: Reg, b: u64) -> R {
        self.logic(rd, sx32(self.r32(rs).wrapping_add(b as u32)))
    }
    #[inline(always)]
    pub(crate) fn sub(&mut self, rd: Reg, rs: Reg, rt: Reg) -> R {
        match (self.r32(rs) as i32).checked_sub(self.r32(rt) as i32) {
            Some(v) => self.logic(rd, v as i64 as u64),
            None => Err(Fault::new(ExcCode::Ov)),
        }
    }
    #[inline(always)]
    pub(crate) fn subu(&mut self, rd: Reg, rs: Reg, rt: Reg) -> R {
        self.logic(rd, sx32(self.r32(rs).wrapping_sub(self.r32(rt))))
    }
    #[inline(always)]
    pub(crate) fn dadd(&mut self, rd: Reg, rs: Reg, b: u64) -> R {
        match (self.r(rs) as i64).checked_add(b as i64) {
            Some(v) => self.logic(rd, v as u64),
            None => Err(Fault::new(ExcCode::Ov)),
        }
    }
    #[inline(always)]
    pub(crate) fn daddu(&mut self, rd: Reg, rs: Reg, b: u64) -> R {
        self.logic(rd, self.r(rs).wrapping_add(b))
    }
    #[inline(always)]
    pub(crate) fn dsub(&mut self, rd: Reg, rs: Reg, rt: Reg) -> R {
        match (self.r(rs) as i64).checked_sub(self.r(rt) as i64) {
            Some(v) => self.logic(rd, v as u64),
            None => Err(Fault::new(ExcCode::Ov)),
        }
    }
    #[inline(always)]
    pub(crate) fn dsubu(&mut self, rd: Reg, rs: Reg, rt: Reg) -> R {
        self.logic(rd, self.r(rs).wrapping_sub(self.r(rt)))
    }
    /// SLL/SLLV: shift the low word left, sign-extend.
    #[inline(always)]
    pub(crate) fn sll(&mut self, rd: Reg, rt: Reg, sa: u8) -> R {
        self.logic(rd, sx32(self.r32(rt) << (sa & 31)))
    }
    /// SRL/SRLV: logical shift of the low word, sign-extend.
    #[inline(always)]
    pub(crate) fn srl(&mut self, rd: Reg, rt: Reg, sa: u8) -> R {
        self.logic(rd, sx32(self.r32(rt) >> (sa & 31)))
    }
    /// SRA/SRAV: arithmetic shift of the low word, sign-extend.
    #[inline(always)]
    pub(crate) fn sra(&mut self, rd: Reg, rt: Reg, sa: u8) -> R {
        self.logic(rd, sx32(((self.r32(rt) as i32) >> (sa & 31)) as u32))
    }
    #[inline(always)]
    pub(crate) fn dsll(&mut self, rd: Reg, rt: Reg, sa: u8) -> R {
        self.logic(rd, self.r(rt) << (sa & 63))
    }
    #[inline(always)]
    pub(crate) fn dsrl(&mut self, rd: Reg, rt: Reg, sa: u8) -> R {
        self.logic(rd, self.r(rt) >> (sa & 63))
    }
    #[inline(always)]
    pub(crate) fn dsra(&mut self, rd: Reg, rt: Reg, sa: u8) -> R {
        self.logic(rd, ((self.r(rt) as i64) >> (sa & 63)) as u64)
    }
}
