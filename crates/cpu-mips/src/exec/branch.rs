//! Branches and jumps (R4000 User's Manual, appendix A: BEQ..BGTZL, BLTZ..
//! BGEZALL, J, JAL, JR, JALR). Every one has a delay slot; the likely forms
//! nullify it when not taken. The and-link forms write the return address
//! (the instruction after the delay slot) whether or not they branch, after
//! reading their operands.

use super::sx32;
use crate::cpu::Cpu;
use crate::insn::Reg;
use crate::insn::{branch_target, jump_target};
use crate::pipeline::{Fault, Flow};

type R = Result<Flow, Fault>;

/// A conditional branch: taken or not, the delay slot runs.
#[inline(always)]
pub(crate) fn cond(taken: bool, pc: u32, off: i16) -> Flow {
    if taken {
        Flow::Branch(branch_target(pc, off))
    } else {
        Flow::NoBranch
    }
}

/// A branch-likely: not taken nullifies the delay slot.
#[inline(always)]
pub(crate) fn likely(taken: bool, pc: u32, off: i16) -> Flow {
    if taken {
        Flow::Branch(branch_target(pc, off))
    } else {
        Flow::Skip
    }
}

/// A jump-register target as a 32-bit PC. A 64-bit value outside the
/// sign-extended 32-bit range cannot be a user address: it is folded to a
/// kernel-space address so that the fetch raises Address Error (BadVAddr
/// then holds the low word with bit 31 set: a documented approximation).
#[inline(always)]
fn jump_register_target(v: u64) -> u32 {
    if sx32(v as u32) == v {
        v as u32
    } else {
        v as u32 | 0x8000_0000
    }
}

/// The return address: the instruction after the delay slot.
#[inline(always)]
fn link_address(pc: u32) -> u64 {
    sx32(pc.wrapping_add(8))
}

impl Cpu {
    #[inline(always)]
    pub(crate) fn branch_link(&mut self, taken: bool, is_likely: bool, pc: u32, off: i16) -> R {
        self.set(Reg::RA, link_address(pc));
        Ok(if is_likely {
            likely(taken, pc, off)
        } else {
            cond(taken, pc, off)
        })
    }
    #[inline(always)]
    pub(crate) fn jal(&mut self, target: u32, pc: u32) -> R {
        self.set(Reg::RA, link_address(pc));
        Ok(Flow::Branch(jump_target(pc, target)))
    }
    #[inline(always)]
    pub(crate) fn jr(&mut self, rs: Reg) -> R {
        Ok(Flow::Branch(jump_register_target(self.r(rs))))
    }
    #[inline(always)]
    pub(crate) fn jalr(&mut self, rd: Reg, rs: Reg, pc: u32) -> R {
        let target = jump_register_target(self.r(rs));
        self.set(rd, link_address(pc));
        Ok(Flow::Branch(target))
    }
}
