//! The Rust function compiled code calls: any instruction the translator
//! does not inline, run by the interpreter's own `Cpu::execute`. (Memory
//! is reached directly through the soft TLB, see `tlb`; an access it
//! cannot make leaves the block, see `emit::ops`.)
//!
//! Contents: [`Helpers`] (its address for one `Memory` type) and the
//! `extern "C"` function itself.
//!
//! Compiled code knows nothing of the embedder's memory type: it receives
//! the memory as an untyped pointer and calls the function, instantiated
//! for that type, through the address in [`Helpers`]. It returns a status
//! from `super::status`.

use std::ffi::c_void;

use super::status;
use crate::block::Block;
use crate::cpu::Cpu;
use crate::decode::Op;
use crate::pipeline::Flow;
use crate::Memory;

/// The helper's address, for one `Memory` type. Compiled code reads it
/// from the `Cpu` it runs on (see [`JitLinks`]), never from a constant, so
/// that its bytes hold no address of this process.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub(crate) struct Helpers {
    pub exec: usize,
}

/// Everything compiled code reaches by address, held in the `Cpu` (field
/// `jit_links`) at a fixed offset from the pointer it is entered with: the
/// helpers of the run, the jump table, the memory and the deadline (kept
/// here rather than passed from block to block, so that a block's entry
/// and its tail call move two arguments, not four). This is what makes compiled code
/// relocatable, and so fit to be kept on disk and run by another process.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(crate) struct JitLinks {
    pub helpers: Helpers,
    /// The jump table's address (see `super::JumpEntry`).
    pub jump: usize,
    /// The memory of the run (for the helper), set at each entry from Rust.
    pub mem: usize,
    /// The run's deadline (the cycle it stops at), set with `mem`.
    pub deadline: u64,
}

impl Helpers {
    /// The helpers for memory of type `M`.
    pub fn of<M: Memory>() -> Helpers {
        Helpers {
            exec: exec::<M> as *const () as usize,
        }
    }
}

/// Runs instruction `i` of `block` (at `pc`) exactly as the interpreter
/// does. A taken branch leaves its target in `Cpu::jit_exit`.
///
/// # Safety
/// `cpu` and `mem` point to the running CPU and its memory of type `M`,
/// with no other reference to them in use; `block` points to a live
/// `Block` with more than `i` instructions.
unsafe extern "C" fn exec<M: Memory>(
    cpu: *mut Cpu,
    mem: *mut c_void,
    block: *const Block,
    i: u32,
    pc: u32,
) -> u32 {
    let cpu = &mut *cpu;
    let op: Op = (*block).insns[i as usize].op;
    match cpu.execute(op, pc, &mut *mem.cast::<M>()) {
        Ok(Flow::Next | Flow::NoBranch) => status::NEXT,
        Ok(Flow::Branch(target)) => {
            cpu.jit_exit.target = target;
            status::TAKEN
        }
        Ok(Flow::Skip) => status::SKIP,
        Ok(Flow::CodeWritten) => status::CODE_WRITTEN,
        Err(_) => status::FAULT,
    }
}
