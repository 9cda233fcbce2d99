//! The CPU state and the embedder's API (everything except the run loop,
//! which is in `run`, and the instruction bodies, in `exec/`).
//!
//! Contents: [`CpuConfig`], [`Cpu`] (state fields, construction, PC and
//! delay-slot control, counters, code-cache invalidation), the one exception
//! entry point `enter_exception`.
//!
//! LL/SC (our choice, documented in the crate docs): LL sets LLbit, SC
//! stores and writes 1 only while LLbit is set, then clears it. LLbit is
//! cleared by every exception the CPU reports, by `set_pc`,
//! `complete_exception_instruction` and `clear_ll_bit` (the embedder's
//! "ERET"), mirroring the R4000, where ERET clears LLbit (R4000 User's
//! Manual, ERET). Ordinary stores do not clear it.

use std::time::Duration;

use crate::code_cache::{CodeMarks, PageStore, PAGE_SHIFT};
use crate::cp0::{cause, Cp0};
use crate::fpu;
use std::sync::Arc;

use crate::jit::{JitCache, JitLinks, JitRun, PerfDump, Refusals, Tlb, TranslationStore};
use crate::pipeline::Fault;
use crate::timing::{Scoreboard, COUNT_DIVISOR, DEFAULT_CLOCK_HZ};
use crate::Exception;

/// How the embedder configures the CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuConfig {
    /// 64-bit operations enabled (an n32 process: Status.UX and FR set).
    /// When false, the MIPS III 64-bit operations raise Reserved Instruction.
    pub mode64: bool,
    /// Pipeline clock in Hz (virtual time = cycles / clock_hz).
    pub clock_hz: u64,
    /// How instructions are executed. Every engine gives the same state,
    /// cycle for cycle; they differ only in host speed.
    pub engine: Engine,
    /// The block tier's cache bound: instructions in built blocks. When a
    /// build would pass it, every block is dropped (and rebuilt as the
    /// code runs again). Each costs about 24 bytes of host memory.
    pub block_cache_insns: usize,
    /// The compiled tier's bound: bytes of host code memory. When it is
    /// full, every block and all compiled code are dropped together (and
    /// hot code is compiled again as it runs).
    pub jit_cache_bytes: usize,
    /// Runs of a block before the compiled tier compiles it: code that
    /// runs fewer times never pays for a translation.
    pub compile_after: u32,
    /// Compile on a second thread (see `jit::worker`): a hot block goes
    /// on running on the block tier until its code is ready, instead of
    /// waiting for it. Guest state, cycles and output are the same either
    /// way; how many instructions run compiled then depends on the host.
    pub compile_on_thread: bool,
    /// Let compiled code reach guest memory at a fixed host offset (see
    /// `jit::view`) where the memory names its pages by file
    /// ([`Memory::page_frame`](crate::Memory::page_frame)) and the host has
    /// the fault handler it needs (x86-64 Linux); else compiled code looks
    /// each page up in its soft TLB. Guest state, cycles and output are
    /// the same either way.
    pub guest_view: bool,
}

/// The default block cache: 1 Mi instructions, about 30 MB with the
/// blocks' own headers: several times the hot code of an IDO compiler
/// pass.
pub const DEFAULT_BLOCK_CACHE_INSNS: usize = 1 << 20;

/// The default compiled-code memory: 64 MiB.
pub const DEFAULT_JIT_CACHE_BYTES: usize = 64 << 20;

/// The default runs of a block before it is compiled. Measured (user
/// seconds, paired, `--engine jit`): compiling after 64 runs, an IDO 5.3
/// `cc -c -O2` of 2,000 lines took 11.2 s (Cranelift compiles dominated:
/// each compiler pass is a new process with cold code), after 500 7.6 s,
/// after 2000 5.5 s, after 4000 4.7-4.9 s (the block tier: 5.5 s); the
/// bundled workload 0.51, 0.51, 0.48-0.51 and 0.48-0.55 s. With the
/// translation cache, compiling sooner still costs the first run more than
/// it saves the next ones: IDO's cc -c -O2 of 2,000 lines after 4000, 1000,
/// 250 and 60 runs took 7.8-8.7, 9.4-9.9, 12.0-12.6 and 14.8 user seconds
/// with an empty cache, and 3.9-5.0, 4.2-4.4, 4.3-4.5 and 3.9 with the
/// cache it filled (a loaded machine; docs/performance.md). Once compiled
/// code made no calls for memory and its IR shrank (a cheaper compile),
/// callgrind (host instructions, deterministic) of the first 503 lines of
/// that compile gave, empty cache then filled cache: after 4000 runs
/// 10.70 G and 6.76 G (77.9% of guest instructions compiled), after 1000
/// 11.33 G and 4.76 G (92.1%), after 250 13.74 G and 4.04 G (97.4%):
/// 1000 buys a third of the warm run for 6% of the cold one. Compiling on
/// a second thread did not move that balance (wall seconds, empty cache
/// then filled cache, three rounds): after 1000 runs 3.5-4.4 and 2.7-3.1,
/// after 400 4.0-4.2 and 2.9-3.1, after 150 4.6-5.0 and 2.7-3.1.
/// Since compiled code reaches guest memory through the view, and a CPU
/// that goes no longer waits for its compiles (`Cpu::let_compiles_go`),
/// compiling sooner costs the first run nothing and its cache serves the
/// second: that compile, eleven interleaved rounds on a loaded host
/// (medians of wall seconds: an empty cache, then the second, third and
/// fourth runs on it), took 2.35, 1.58, 1.47 and 1.43 s after 1000 runs,
/// and 2.34, 1.38, 1.37 and 1.28 s after 250 (qemu-irix: 1.09 s); after
/// 120 and 60 runs the empty cache cost 2.6 and 2.9 s, and the next runs
/// gained nothing more.
pub const DEFAULT_COMPILE_AFTER: u32 = 250;

impl Default for CpuConfig {
    fn default() -> Self {
        CpuConfig {
            mode64: false,
            clock_hz: DEFAULT_CLOCK_HZ,
            engine: Engine::default(),
            block_cache_insns: DEFAULT_BLOCK_CACHE_INSNS,
            jit_cache_bytes: DEFAULT_JIT_CACHE_BYTES,
            compile_after: DEFAULT_COMPILE_AFTER,
            compile_on_thread: true,
            guest_view: true,
        }
    }
}

/// An execution engine (a tier). Each gives exactly the interpreter's
/// registers, memory, cycle count and retired count at every point where
/// [`Cpu::run`] returns; the lockstep tests hold them to it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// One instruction at a time: the reference.
    Interp,
    /// Whole blocks (straight code, through branches not taken) with a
    /// precomputed schedule, falling back to the interpreter where that
    /// schedule does not hold. Runs the interpreter whenever an
    /// [`Observer`](crate::Observer) wants every instruction.
    Block,
    /// The block tier, with hot blocks compiled to host code (Cranelift).
    /// Where the host has no Cranelift backend it is the block tier.
    #[default]
    Jit,
}

impl Engine {
    /// Every engine, by its command-line name.
    pub const ALL: [(&'static str, Engine); 3] = [
        ("interp", Engine::Interp),
        ("block", Engine::Block),
        ("jit", Engine::Jit),
    ];
}

impl std::fmt::Display for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = Engine::ALL
            .iter()
            .find(|(_, e)| e == self)
            .map_or("?", |(n, _)| n);
        f.write_str(name)
    }
}

impl std::str::FromStr for Engine {
    type Err = String;
    fn from_str(s: &str) -> Result<Engine, String> {
        Engine::ALL
            .iter()
            .find(|(n, _)| *n == s)
            .map(|(_, e)| *e)
            .ok_or_else(|| format!("unknown engine `{s}` (expected interp, block or jit)"))
    }
}

/// One R4000 in user mode. About 34 KiB (the compiled tier's soft TLB is
/// inside it): an embedder that moves CPUs around keeps them boxed.
#[derive(Clone)]
pub struct Cpu {
    /// General-purpose registers, 64 bits wide; `gpr[0]` reads as zero.
    pub gpr: [u64; 32],
    /// HI (multiply high word / remainder).
    pub hi: u64,
    /// LO (multiply low word / quotient).
    pub lo: u64,
    /// The floating-point coprocessor.
    pub fpu: fpu::Fpu,
    /// The system control coprocessor registers.
    pub cp0: Cp0,
    pub(crate) config: CpuConfig,
    /// Address of the instruction to execute next.
    pub(crate) pc: u32,
    /// Address of the instruction after it: the branch target when `pc`
    /// is in the delay slot of a taken branch, else `pc + 4`.
    pub(crate) next_pc: u32,
    /// `pc` names a delay-slot instruction (Cause.BD if it faults).
    pub(crate) in_delay_slot: bool,
    /// Branch bubbles owed once the current delay slot retires.
    pub(crate) pending_bubbles: u64,
    /// LLbit: set by LL/LLD, required by SC/SCD.
    pub(crate) ll_bit: bool,
    /// Pipeline cycles so far.
    pub(crate) cycles: u64,
    /// Instructions retired.
    pub(crate) retired: u64,
    /// Of those, retired one at a time: by the per-instruction path, and
    /// the instructions of a block that stopped early. The rest ran in
    /// whole blocks.
    pub(crate) retired_singly: u64,
    /// Of those, retired in whole blocks the block tier ran instruction by
    /// instruction. The rest of the whole blocks ran as compiled code,
    /// which counts only `retired`, to keep its block ends short.
    pub(crate) retired_block_tier: u64,
    /// Calls from the run loop into compiled code (each runs one block and
    /// whatever it chains to).
    pub(crate) compiled_entries: u64,
    /// Of those, entries that ended at a fault in the view of guest
    /// memory (a page the view did not hold yet, see `jit::trap`).
    pub(crate) view_faults: u64,
    /// Code pages whose functions keep to the soft TLB (see
    /// `jit::view::Refusals`).
    pub(crate) view_refused: Refusals,
    /// The first address of the block the block tier ran last, or of the
    /// function whose compiled code returned last (`last_from_code`;
    /// [`NO_BLOCK_RAN`] after instructions run one at a time): how the
    /// block tier tells a member's runs inside its function from the
    /// others (see `jit::region::from_inside`).
    pub(crate) last_block: u32,
    /// Whether `last_block` names a function that compiled code returned
    /// from.
    pub(crate) last_from_code: bool,
    /// Instructions in blocks built since the block cache was last emptied.
    pub(crate) block_cache_used: usize,
    /// How many times the block cache was emptied to stay in its bound.
    pub(crate) block_cache_flushes: u64,
    /// Ready-at cycles of registers (the load/HI-LO/FP interlocks).
    pub(crate) scoreboard: Scoreboard,
    /// Pages with decoded code (checked by stores).
    pub(crate) code_marks: CodeMarks,
    /// The decoded pages (moved out of `self` while `run` executes).
    pub(crate) code_pages: PageStore,
    /// The page a store into decoded code wrote (valid with `Flow::CodeWritten`).
    pub(crate) written_code_page: u32,
    /// The compiled tier's compiler and code.
    pub(crate) jit: JitCache,
    /// What a compiled block leaves for its caller besides its result.
    pub(crate) jit_exit: JitExit,
    /// Guest pages compiled code reads and writes directly. Inside the
    /// `Cpu` (32 KiB), not boxed: compiled code reaches an entry at a
    /// constant offset from the `Cpu` it is entered with, so no host
    /// register holds the table's address.
    pub(crate) tlb: Tlb,
    /// The memory's `direct_epoch` the soft TLB was filled under.
    pub(crate) tlb_epoch: Option<u64>,
    /// Whether compiled blocks may chain to each other (this run): only
    /// when the observer wants nothing of each block.
    pub(crate) jit_chain: bool,
    /// What compiled code reaches by address: the helpers and the jump
    /// table (see `jit::JitLinks`).
    pub(crate) jit_links: JitLinks,
    /// The entry into compiled code under way (for the helper and the run
    /// loop).
    pub(crate) jit_run: JitRun,
    /// Where compiled blocks are kept from run to run, if anywhere.
    pub(crate) translations: Option<Arc<TranslationStore>>,
}

/// [`Cpu::last_block`] when no block ran last: no block starts at an
/// address that is not a multiple of 4.
pub(crate) const NO_BLOCK_RAN: u32 = 1;

/// Values a compiled block (see `jit`) hands back through memory.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct JitExit {
    /// The target of the block's branch, once taken.
    pub target: u32,
    /// $sp when the block's call, return or jump executed (its delay slot
    /// may change it), for an observer of transfers.
    pub sp: u32,
    /// A doubleword a load helper read.
    pub value: u64,
    /// 1 when the branch was taken, for an access in its delay slot
    /// through the view of guest memory whose end the fault handler makes
    /// (see `jit::trap`, `Site::TAKEN_AT_RUN`): written before the access.
    pub taken: u64,
    /// The register a jump took its target from, for an access in its
    /// delay slot through the view (`Site::TARGET_AT_RUN`, likewise).
    pub jump: u64,
}

/// The one way a page's decoded code goes: its instructions and blocks,
/// and the jump-table entries of its compiled blocks.
fn drop_decoded(pages: &mut PageStore, jit: &mut JitCache, page_no: u32) {
    pages.invalidate(page_no);
    jit.forget_page(page_no);
    // Functions of other pages that hold a copy of one of its blocks (a
    // callee compiled into its callers, see `jit::calls`) go with it.
    for holder in jit.forget_code(page_no) {
        pages.invalidate(holder);
        jit.forget_page(holder);
    }
}

impl Drop for Cpu {
    fn drop(&mut self) {
        self.let_compiles_go();
    }
}

impl Cpu {
    /// A CPU in user mode (KSU = user), FPU usable (CU1), FR and UX set
    /// when `config.mode64`; all registers zero, PC 0.
    pub fn new(config: CpuConfig) -> Cpu {
        Cpu {
            gpr: [0; 32],
            hi: 0,
            lo: 0,
            fpu: fpu::Fpu::new(),
            cp0: Cp0::new(config.mode64),
            config,
            pc: 0,
            next_pc: 4,
            in_delay_slot: false,
            pending_bubbles: 0,
            ll_bit: false,
            cycles: 0,
            retired: 0,
            retired_singly: 0,
            retired_block_tier: 0,
            compiled_entries: 0,
            view_faults: 0,
            view_refused: Refusals::default(),
            last_block: NO_BLOCK_RAN,
            last_from_code: false,
            block_cache_used: 0,
            block_cache_flushes: 0,
            scoreboard: Scoreboard::default(),
            code_marks: CodeMarks::default(),
            code_pages: PageStore::default(),
            written_code_page: 0,
            jit: JitCache::default(),
            jit_exit: JitExit::default(),
            tlb: Tlb::default(),
            tlb_epoch: None,
            jit_chain: false,
            jit_links: JitLinks::default(),
            jit_run: JitRun::default(),
            translations: None,
        }
    }

    pub fn config(&self) -> &CpuConfig {
        &self.config
    }

    /// Address of the next instruction to execute (after an exception: the
    /// faulting instruction, even when it sits in a delay slot).
    pub fn pc(&self) -> u32 {
        self.pc
    }

    /// Continues execution at `pc` with no branch pending (program entry,
    /// signal delivery, sigreturn). Clears LLbit.
    pub fn set_pc(&mut self, pc: u32) {
        self.pc = pc;
        self.next_pc = pc.wrapping_add(4);
        self.in_delay_slot = false;
        self.pending_bubbles = 0;
        self.ll_bit = false;
    }

    /// The PC a clock interrupt would latch in EPC now: the next
    /// instruction, or the branch before it when it is in a delay slot
    /// (R4000 User's Manual, EPC: "the virtual address of the branch when
    /// the instruction is in a branch delay slot").
    pub fn sample_pc(&self) -> u32 {
        if self.in_delay_slot {
            self.pc.wrapping_sub(4)
        } else {
            self.pc
        }
    }

    /// True when the next instruction sits in a branch delay slot.
    pub fn in_delay_slot(&self) -> bool {
        self.in_delay_slot
    }

    /// After the embedder handled the instruction that raised the last
    /// exception (SYSCALL, BREAK, a trap) in software: continue after it,
    /// honouring the pending branch when it sat in a delay slot. Counts the
    /// instruction as retired and charges its issue cycle (the Observer is
    /// not told). Clears LLbit (the handler's ERET).
    pub fn complete_exception_instruction(&mut self) {
        self.pc = self.next_pc;
        self.next_pc = self.pc.wrapping_add(4);
        self.in_delay_slot = false;
        self.cycles += crate::timing::ISSUE_CYCLES + self.pending_bubbles;
        self.pending_bubbles = 0;
        self.retired += 1;
        self.retired_singly += 1;
        self.ll_bit = false;
    }

    /// Clears LLbit, so that a pending SC fails (the embedder switched to
    /// another thread sharing this memory, or returned from a signal).
    pub fn clear_ll_bit(&mut self) {
        self.ll_bit = false;
    }

    /// LLbit (set by LL/LLD).
    pub fn ll_bit(&self) -> bool {
        self.ll_bit
    }

    /// Pipeline cycles so far.
    pub fn cycles(&self) -> u64 {
        self.cycles
    }

    /// Instructions retired so far.
    pub fn instructions(&self) -> u64 {
        self.retired
    }

    /// Instructions the block tier retired as whole blocks (the rest were
    /// interpreted one at a time).
    pub fn instructions_in_blocks(&self) -> u64 {
        self.retired - self.retired_singly
    }

    /// How many times the block cache was emptied because it reached
    /// [`CpuConfig::block_cache_insns`].
    pub fn block_cache_flushes(&self) -> u64 {
        self.block_cache_flushes
    }

    /// Instructions retired by compiled blocks that ran whole (part of
    /// [`Cpu::instructions_in_blocks`]).
    pub fn instructions_compiled(&self) -> u64 {
        self.instructions_in_blocks() - self.retired_block_tier
    }

    /// How many times the run loop called compiled code: each call runs a
    /// block and the compiled blocks it chains to, so instructions
    /// compiled per entry say how long chains last.
    pub fn compiled_entries(&self) -> u64 {
        self.compiled_entries
    }

    /// How many entries into compiled code ended at a page the view of
    /// guest memory did not hold yet (see `CpuConfig::guest_view`).
    pub fn view_faults(&self) -> u64 {
        self.view_faults
    }

    /// How many blocks were compiled, or loaded, into the code of another
    /// block of their page (see `jit::region`): control passes to them
    /// inside one function.
    pub fn blocks_compiled_as_members(&self) -> u64 {
        self.jit.members_installed()
    }

    /// Bytes of host memory holding compiled code now.
    pub fn compiled_code_bytes(&self) -> usize {
        self.jit.code_bytes()
    }

    /// Keeps compiled blocks in `store` from run to run (or stops, with
    /// `None`): on the compiled tier, a block the store has code for runs
    /// compiled from its first run, and every block compiled is saved to
    /// it. Results do not change: code from the store is the code the
    /// compiler would make (its key holds all that decides it, see
    /// [`TranslationStore`]). A clone (a forked CPU) shares the store.
    pub fn set_translation_store(&mut self, store: Option<Arc<TranslationStore>>) {
        self.translations = store;
    }

    /// Records every function the compiled tier installs in `dump`, for
    /// Linux `perf` (see [`PerfDump`]), or nowhere. A clone of the CPU
    /// records in the same dump.
    pub fn set_perf_dump(&mut self, dump: Option<Arc<PerfDump>>) {
        self.jit.perf = dump;
    }

    /// Charges `n` cycles of embedder work to the clock.
    pub fn add_cycles(&mut self, n: u64) {
        self.cycles += n;
    }

    /// CP0 Count: increments every other pipeline cycle (truncated to 32 bits).
    pub fn count(&self) -> u32 {
        (self.cycles / COUNT_DIVISOR) as u32
    }

    /// Virtual time: cycles / clock rate.
    pub fn virtual_time(&self) -> Duration {
        let hz = self.config.clock_hz.max(1) as u128;
        let nanos = self.cycles as u128 * 1_000_000_000 / hz;
        Duration::from_nanos(nanos.min(u64::MAX as u128) as u64)
    }

    /// The embedder wrote guest memory in `[addr, addr + len)` (read(2) into
    /// a buffer, mmap, munmap, mprotect): decoded instructions there are
    /// dropped. Also required when fetch permissions change.
    pub fn invalidate_code(&mut self, addr: u32, len: u32) {
        if len == 0 {
            return;
        }
        let first = addr >> PAGE_SHIFT;
        let last = addr.saturating_add(len - 1) >> PAGE_SHIFT;
        // Only marked pages have decoded code: the bitmap is walked a word
        // (64 pages) at a time, so unmapping a gigabyte costs little.
        let (pages, jit) = (&mut self.code_pages, &mut self.jit);
        self.code_marks
            .unmark_range(first, last, |page| drop_decoded(pages, jit, page));
    }

    /// Page `page_no` was written while it held decoded code (a store the
    /// run loop saw, on any tier): its decoded instructions and blocks go,
    /// and compiled code no longer chains to them. `pages` is the page
    /// store the run loop holds.
    pub(crate) fn drop_code_page(&mut self, pages: &mut PageStore, page_no: u32) {
        if self.code_marks.unmark(page_no) {
            drop_decoded(pages, &mut self.jit, page_no);
        }
    }

    /// Drops every decoded instruction (exec(2), a new address space).
    pub fn flush_code_cache(&mut self) {
        self.code_marks.clear();
        self.code_pages.clear();
        self.jit.flush();
        self.view_refused = Refusals::default();
        self.block_cache_used = 0;
    }

    /// Records that page `page_no` holds decoded code: stores to it are
    /// checked from now on (and compiled code no longer writes it
    /// directly).
    pub(crate) fn mark_code(&mut self, page_no: u32) {
        self.code_marks.mark(page_no);
        self.tlb.evict_write(page_no);
        if let Some(view) = self.jit.view() {
            view.protect(page_no);
        }
    }

    /// The one exception entry point: latches Cause, EPC and BadVAddr for the
    /// instruction at `pc` and builds the value the embedder receives.
    /// (Status.EXL is not set: the embedder is the kernel, and the CPU stays
    /// in user mode.)
    pub(crate) fn enter_exception(
        &mut self,
        fault: Fault,
        pc: u32,
        in_delay_slot: bool,
    ) -> Exception {
        let epc = if in_delay_slot {
            pc.wrapping_sub(4)
        } else {
            pc
        };
        let keep = self.cp0.cause & !(cause::BD | cause::CE_MASK | cause::EXC_MASK);
        self.cp0.cause = keep
            | if in_delay_slot { cause::BD } else { 0 }
            | ((fault.ce as u32 & 3) << cause::CE_SHIFT)
            | ((fault.code as u32) << cause::EXC_SHIFT);
        self.cp0.epc = epc;
        if let Some(bad) = fault.bad_vaddr {
            self.cp0.bad_vaddr = bad;
        }
        self.ll_bit = false;
        Exception {
            code: fault.code,
            epc,
            in_delay_slot,
            bad_vaddr: fault.bad_vaddr,
            ce: fault.ce,
            code_field: fault.code_field,
        }
    }
}
