//! An R4000-class MIPS interpreter (MIPS I, II and III, big-endian) with a
//! cycle-level timing model. It knows nothing of IRIX: the embedder (the
//! kernel) supplies memory through [`Memory`] and receives every exception
//! as a value from [`Cpu::run`].
//!
//! Table of contents (one file per concern):
//! - `memory`: the [`Memory`] trait the embedder implements, and [`MemFault`].
//! - `exception`: [`ExcCode`] (Cause.ExcCode values) and [`Exception`].
//! - the remaining modules are listed where they are declared below.

mod code_cache;
pub mod cp0;
mod cpu;
mod decode;
mod disasm;
mod exception;
mod exec;
pub mod fpu;
mod insn;
mod memory;
mod pipeline;
mod run;
pub mod timing;

pub use cp0::Cp0;
pub use cpu::{Cpu, CpuConfig};
pub use decode::{decode, is_r4000_encoding, Op};
pub use disasm::{disassemble, Disasm};
pub use exception::{ExcCode, Exception};
pub use insn::{Instruction, Reg};
pub use memory::{MemFault, Memory};

/// Receives every retired instruction with the cycles it cost, for exact
/// (non-sampled) profiling. `()` observes nothing and compiles to nothing.
pub trait Observer {
    /// Called once per retired instruction: `pc` is its address, `cycles` the
    /// pipeline cycles charged to it (issue cycle plus stalls and bubbles).
    fn retire(&mut self, pc: u32, cycles: u64);
}

impl Observer for () {
    #[inline(always)]
    fn retire(&mut self, _pc: u32, _cycles: u64) {}
}

/// Why [`Cpu::run`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The cycle counter reached the deadline given to `run` (checked after
    /// each instruction: the one comparison per instruction).
    Deadline,
    /// The instruction at `Exception::epc` raised an exception. The CPU state
    /// is precise: that instruction had no effect, and `pc` still names it
    /// (or the branch before it, when it sits in a delay slot).
    Exception(Exception),
}
