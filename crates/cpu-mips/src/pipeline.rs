//! What one instruction tells the pipeline to do next, and the exception a
//! failed instruction reports before the core turns it into an
//! [`Exception`](crate::Exception).
//!
//! Contents: [`Flow`] (named transitions: next, branch, no-branch, skip),
//! [`Fault`] and its one-line constructors.
//!
//! The persistent delay-slot state lives in `Cpu` as `pc` (the instruction
//! to execute), `next_pc` (the one after it: the branch target while `pc`
//! sits in the delay slot of a taken branch) and `in_delay_slot` (for EPC and
//! Cause.BD). R4000 User's Manual ch. 3: every branch and jump has one
//! architectural delay slot; a branch-likely that is not taken nullifies it.

use crate::ExcCode;

/// The outcome of an instruction that completed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Not a branch: continue with the next instruction.
    Next,
    /// A branch or jump that is taken: the delay slot runs, then `target`.
    Branch(u32),
    /// A branch that is not taken: the delay slot runs, then the fall-through.
    NoBranch,
    /// A branch-likely that is not taken: the delay slot is nullified (skip).
    Skip,
    /// A store wrote to a page holding decoded code (like `Next`, and the
    /// page's decoded instructions are dropped before anything else runs).
    CodeWritten,
}

/// An exception an instruction raised, before EPC/BD are known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fault {
    pub code: ExcCode,
    pub bad_vaddr: Option<u32>,
    pub ce: u8,
    /// The SYSCALL/BREAK code field, as decoded.
    pub code_field: Option<u32>,
}

impl Fault {
    pub fn new(code: ExcCode) -> Fault {
        Fault {
            code,
            bad_vaddr: None,
            ce: 0,
            code_field: None,
        }
    }
    /// SYSCALL or BREAK with the 20-bit code field the decoder extracted.
    pub fn trap(code: ExcCode, code_field: u32) -> Fault {
        Fault {
            code_field: Some(code_field),
            ..Fault::new(code)
        }
    }
    pub fn at(code: ExcCode, addr: u32) -> Fault {
        Fault {
            bad_vaddr: Some(addr),
            ..Fault::new(code)
        }
    }
    pub fn reserved() -> Fault {
        Fault::new(ExcCode::RI)
    }
    pub fn unusable(ce: u8) -> Fault {
        Fault {
            ce,
            ..Fault::new(ExcCode::CpU)
        }
    }
}
