//! An R4000-class MIPS interpreter (MIPS I, II and III, big-endian, user
//! mode) with a cycle-level timing model. It knows nothing of IRIX: the
//! embedder (the kernel) supplies memory through [`Memory`] and receives
//! every exception as a value from [`Cpu::run`]; no guest instruction word
//! can make it panic.
//!
//! # Table of contents (one file per concern)
//! - `lib.rs`: this overview, [`Observer`], [`StopReason`].
//! - `cpu`: [`Cpu`], [`CpuConfig`]: state, PC/delay-slot control, counters,
//!   code-cache invalidation, the one exception entry point.
//! - `run`: [`Cpu::run`] and [`Cpu::step`]: a run enters its engine's tier.
//! - `interp`: the interpreter ([`Engine::Interp`]), the hot loop every
//!   other tier is held to.
//! - `block/`: the block tier ([`Engine::Block`]): blocks (straight code,
//!   through branches not taken) with a precomputed schedule (`block`),
//!   run as units (`block::run`). No unsafe code, no Cranelift type.
//! - `jit/`: the compiled tier ([`Engine::Jit`]): when a block is compiled
//!   and the entry into its code (`tier`), hot blocks translated to host
//!   code with Cranelift (`emit`), the helpers it calls, its soft TLB for
//!   direct guest-memory access, its fixed-offset view of guest memory
//!   with the fault handler that leaves compiled code (`view`, `trap`),
//!   and its bounded code memory (`arena`);
//!   compiled blocks kept on disk from run to run ([`TranslationStore`]:
//!   the entry format in `cache`, the directory of packs in `store`).
//! - `lockstep`: [`Cpu::differences`], for differential tests of engines.
//! - `insn`: [`Instruction`] (field accessors) and [`Reg`].
//! - `decode`: the one decode, [`decode`](fn@decode) -> [`Op`], [`is_r4000_encoding`].
//! - `access`: [`DataAccess`], the load/store an op makes (for debuggers).
//! - `disasm`: [`disassemble`], `Display` for [`Disasm`] (= `Op::at(pc)`).
//! - `exec/`: instruction bodies: `alu`, `muldiv`, `branch`, `loadstore`, `cop`.
//! - `pipeline`: `Flow` (next / branch / no-branch / skip) and `Fault`.
//! - `timing`: every cost constant and the ready-at scoreboard.
//! - `code_cache`: decoded 4 KiB pages and the bitmap stores check.
//! - `cp0`: [`Cp0`], Status/Cause bits, PRId.
//! - `memory`: [`Memory`], [`MemFault`]; `exception`: [`ExcCode`], [`Exception`].
//! - `fpu/`: the CP1 floating-point unit (its own helper's module).
//!
//! # What is implemented
//! - Every MIPS I, II and III user-mode integer instruction: ALU and shifts
//!   incl. the 64-bit D-forms, MULT..DDIVU, MFHI/MTHI/MFLO/MTLO, all loads
//!   and stores incl. LWL/LWR/SWL/SWR, LDL/LDR/SDL/SDR, LWU, LD/SD,
//!   LL/SC/LLD/SCD, all branches incl. likely and and-link forms,
//!   J/JAL/JR/JALR, TGE..TNE, TGEI..TNEI, SYNC, SYSCALL, BREAK; the CP1
//!   moves, BC1F/BC1T(L) and CP1 loads/stores (computational COP1 ops go to
//!   `fpu`).
//! - 64-bit operations only with [`CpuConfig::mode64`] (an n32 process);
//!   otherwise Reserved Instruction. Encodings the R4000 lacks (MIPS IV
//!   MOVN/MOVZ/MOVCI/PREF/COP1X, MIPS32 SPECIAL2/SPECIAL3, ROTR/ROTRV...)
//!   raise Reserved Instruction. COP1 with Status.CU1 clear: CpU, CE = 1;
//!   COP0/CACHE: CpU, CE = 0; COP2 and LWC2..SDC2: CpU, CE = 2.
//! - Precise exceptions with architectural codes; EPC/Cause.BD per the
//!   manual for delay slots; BadVAddr for address errors and memory faults
//!   (Unmapped -> TLBL/TLBS, Protection -> TLBL on load/fetch, Mod on store).
//! - Undefined HI/LO results (divide by zero, INT_MIN / -1): the hardware
//!   divider's values, see `exec/muldiv.rs`.
//! - LL/SC: SC succeeds iff LLbit is set; LL sets it; SC, every exception,
//!   `set_pc`, `complete_exception_instruction` and `clear_ll_bit` clear it
//!   (the R4000's ERET clears LLbit; our embedder's ERET is those calls).
//!
//! # Timing model (all in `timing.rs`)
//! Every instruction costs one pipeline cycle plus its stalls; a taken
//! branch adds two bubbles; loads, HI/LO and FPU results become ready after
//! their latency. The table of costs, with the source of each, is in the
//! repository's docs/timing.md.
//!
//! An instruction issues when the clock has reached it and every source
//! register (GPR, HI/LO, FPR, FP condition bit) is ready; [`Observer::retire`]
//! is charged its stall + issue cycle + branch bubbles, so the charges sum to
//! [`Cpu::cycles`]. An instruction that raises an exception is not charged;
//! [`Cpu::complete_exception_instruction`] charges its issue cycle.
//!
//! # Speed
//! Decoded once per 4 KiB code page (lazily, per instruction) into an array
//! the hot loop keeps in a local; stores check a page bitmap so
//! self-modifying code works; the embedder calls [`Cpu::invalidate_code`]
//! when it writes guest memory or changes mappings. Generic over
//! `M: Memory` and `O: Observer` (monomorphized, no allocation or dynamic
//! dispatch per instruction); the per-instruction deadline check is one
//! comparison.
//!
//! Measured by the criterion benchmark `benches/interp.rs` (a 5-instruction
//! integer loop, timing model on, `O = ()`, on each engine):
//! `cargo bench -p cpu-mips --bench interp`. The compiled C workload
//! through the whole kernel is the root package's `benches/workload.rs`.
//! The figures of a given machine are in the README's Performance section,
//! not here: a number in a doc comment is not re-measured.
//!
//! # Deliberately not implemented
//! - Kernel mode, the TLB, caches and their miss penalties (no public fixed
//!   R4000 penalty), interrupts (the embedder ticks its clock from
//!   [`Cpu::cycles`]), CP0 access with CU0 set (always CpU), Watch.
//! - Structural hazards of the multiply/divide unit (a second MULT before the
//!   first finished is not delayed), and FR = 0 register pairing in the
//!   scoreboard (each FPR number is tracked on its own).
//! - Must-be-zero instruction fields are ignored except SRL/SRLV's (so that
//!   ROTR/ROTRV are caught).
//! - A JR/JALR target that is not a sign-extended 32-bit value is folded
//!   into kernel space so that the fetch raises AdEL; BadVAddr then holds
//!   the folded low word.

mod access;
mod block;
mod code_cache;
pub mod cp0;
mod cpu;
mod decode;
mod disasm;
mod exception;
mod exec;
pub mod fpu;
mod insn;
mod interp;
mod jit;
mod lockstep;
mod memory;
mod pipeline;
mod run;
pub mod timing;

pub use access::DataAccess;
pub use cp0::Cp0;
pub use cpu::{
    Cpu, CpuConfig, Engine, DEFAULT_BLOCK_CACHE_INSNS, DEFAULT_COMPILE_AFTER,
    DEFAULT_JIT_CACHE_BYTES,
};
pub use decode::{decode, is_r4000_encoding, Op};
pub use disasm::{disassemble, Disasm};
pub use exception::{ExcCode, Exception};
pub use insn::{Instruction, Reg};
pub use jit::{
    default_translation_dir, PerfDump, StoreError, TranslationStats, TranslationStore,
    DEFAULT_TRANSLATION_STORE_BYTES,
};
pub use memory::{MemFault, Memory, PageFrame};

/// Receives every retired instruction with the cycles it cost, for exact
/// (non-sampled) profiling, and (when [`Observer::TRANSFERS`] is true) the
/// control transfers a call-graph tracker needs. `()` observes nothing and
/// compiles to nothing.
pub trait Observer {
    /// Whether [`Observer::retire`] is wanted for every instruction. `()`
    /// and the call-graph tracker say no, which lets the block tier run
    /// whole blocks and report them through [`Observer::retire_block`]; an
    /// observer that needs every instruction keeps the default.
    const RETIRES: bool = true;
    /// Whether [`Observer::transfer`] is wanted. A constant, so the run
    /// loop's classification of jumps is compiled out when it is false.
    const TRANSFERS: bool = false;
    /// Whether [`Observer::retire_block`] is wanted for every block. `()`
    /// says no, which lets compiled blocks chain to each other without
    /// returning to the run loop in between.
    const BLOCKS: bool = true;
    /// Called once per retired instruction: `pc` is its address, `cycles` the
    /// pipeline cycles charged to it (issue cycle plus stalls and bubbles).
    fn retire(&mut self, pc: u32, cycles: u64);
    /// Called for a taken call, return or jump, before [`Observer::retire`]
    /// of the instruction that made it (its delay slot retires next).
    #[inline(always)]
    fn transfer(&mut self, _t: Transfer) {}
    /// For an observer whose `RETIRES` is false: the block tier retired
    /// `instructions` instructions from `pc` on (consecutive addresses),
    /// costing `cycles` in all, in place of as many `retire` calls. A
    /// transfer the block made was reported before this call, and its
    /// delay slot is among these instructions when it retired.
    #[inline(always)]
    fn retire_block(&mut self, _pc: u32, _instructions: u64, _cycles: u64) {}
}

impl Observer for () {
    const RETIRES: bool = false;
    const BLOCKS: bool = false;
    #[inline(always)]
    fn retire(&mut self, _pc: u32, _cycles: u64) {}
}

/// Two observers seeing the same instructions (exact cycles and a call
/// graph, say).
impl<A: Observer, B: Observer> Observer for (&mut A, &mut B) {
    const RETIRES: bool = A::RETIRES || B::RETIRES;
    const TRANSFERS: bool = A::TRANSFERS || B::TRANSFERS;
    const BLOCKS: bool = A::BLOCKS || B::BLOCKS;
    #[inline(always)]
    fn retire(&mut self, pc: u32, cycles: u64) {
        self.0.retire(pc, cycles);
        self.1.retire(pc, cycles);
    }
    #[inline(always)]
    fn transfer(&mut self, t: Transfer) {
        if A::TRANSFERS {
            self.0.transfer(t);
        }
        if B::TRANSFERS {
            self.1.transfer(t);
        }
    }
    #[inline(always)]
    fn retire_block(&mut self, pc: u32, instructions: u64, cycles: u64) {
        self.0.retire_block(pc, instructions, cycles);
        self.1.retire_block(pc, instructions, cycles);
    }
}

/// What kind of control transfer an instruction made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransferKind {
    /// JAL, JALR, BLTZAL, BGEZAL and their likely forms, taken: a call
    /// whose return address is `site + 8`.
    Call,
    /// JR $ra: by convention, a return.
    Return,
    /// J, or JR through another register: a jump (within a function, a
    /// switch table, or a tail call).
    Jump,
}

/// A taken call, return or jump, as [`Observer::transfer`] sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transfer {
    pub kind: TransferKind,
    /// Address of the jump or branch instruction.
    pub site: u32,
    /// Where control goes after the delay slot.
    pub target: u32,
    /// The stack pointer ($sp, low word) when the instruction retired.
    pub sp: u32,
}

impl Transfer {
    /// The kind of transfer `op` makes when it is taken; `None` for
    /// everything else (conditional branches stay within a function).
    #[inline(always)]
    pub fn kind_of(op: &Op) -> Option<TransferKind> {
        match op {
            Op::Jal { .. }
            | Op::Jalr { .. }
            | Op::Bltzal { .. }
            | Op::Bgezal { .. }
            | Op::Bltzall { .. }
            | Op::Bgezall { .. } => Some(TransferKind::Call),
            Op::Jr { rs } if *rs == Reg::RA => Some(TransferKind::Return),
            Op::Jr { .. } | Op::J { .. } => Some(TransferKind::Jump),
            _ => None,
        }
    }
}

/// Why [`Cpu::run`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The cycle counter reached the deadline given to `run` (checked after
    /// each instruction: the one comparison per instruction).
    Deadline,
    /// An instruction raised an exception. The CPU state is precise: that
    /// instruction had no effect and [`Cpu::pc`] names it (even in a delay
    /// slot, so running again re-executes it); `Exception::epc` names it, or
    /// the branch before it when `in_delay_slot` (Cause.BD).
    Exception(Exception),
}
