//! The Rust function compiled code calls: any instruction the translator
//! does not inline, run by the interpreter's own `Cpu::execute`. (Memory
//! is reached directly through the soft TLB, see `tlb`; an access it
//! cannot make leaves the block, see `emit::ops`.)
//!
//! Contents: [`Helpers`] (its address for one `Memory` type) and the
//! `extern "C"` function itself.
//!
//! Compiled code knows nothing of the embedder's memory type: it calls
//! the function, instantiated for that type, through the address in
//! [`Helpers`], which finds the memory in [`JitRun`], and gives it the
//! instruction's word. It returns a status from `super::status`.

use super::status;
use crate::cpu::Cpu;
use crate::decode::{decode_for_mode, Op};
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
/// helpers of the run, the jump table and the deadline (kept here rather
/// than passed from block to block, so that a block's entry and its tail
/// call move one argument, not three). This is what makes compiled code
/// relocatable, and so fit to be kept on disk and run by another process.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(crate) struct JitLinks {
    pub helpers: Helpers,
    /// The jump table's address (see `super::JumpEntry`).
    pub jump: usize,
    /// The run's deadline (the cycle it stops at), set at each entry from
    /// Rust.
    pub deadline: u64,
    /// The deadline a function's member checks (see `region`): the run's
    /// where blocks chain, else 0, so that a function then leaves at the
    /// end of its first block, as one without members does.
    pub member_deadline: u64,
    /// The host address of guest address 0 in the view of guest memory
    /// (see `view`), for code compiled to use it.
    pub view: usize,
}

/// The entry from Rust into compiled code under way (field `jit_run` of
/// the `Cpu`): the memory, for the helper, and the block entered, for the
/// run loop when a function ends early; compiled code never reads it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct JitRun {
    /// The memory of the run (of the helpers' type).
    pub mem: usize,
    /// The first address of the block entered from Rust.
    pub pc: u32,
    /// That block's address, or 0 when the run loop entered it through the
    /// jump table (which then names it, as it names every block compiled
    /// code chains to).
    pub block: usize,
}

impl Helpers {
    /// The helpers for memory of type `M`.
    pub fn of<M: Memory>() -> Helpers {
        Helpers {
            exec: exec::<M> as *const () as usize,
        }
    }
}

/// Runs the instruction `word` (at `pc`) of the block compiled code is
/// running exactly as the interpreter does. A taken branch leaves its
/// target in `Cpu::jit_exit`.
///
/// The word is the block's (compiled in as a constant), decoded here as
/// the block was: so the helper needs no `Block`, and compiled code that
/// holds several blocks (see `emit`) calls it the same way.
///
/// # Safety
/// `cpu` points to the running CPU, whose `jit_run.mem` is its memory, of
/// type `M`, with no other reference to either in use.
unsafe extern "C" fn exec<M: Memory>(cpu: *mut Cpu, word: u32, pc: u32) -> u32 {
    let cpu = &mut *cpu;
    let op: Op = decode_for_mode(word, cpu.config.mode64);
    let mem = &mut *(cpu.jit_run.mem as *mut M);
    match cpu.execute(op, pc, mem) {
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
