//! The compiled tier: hot blocks translated to host code with Cranelift.
//!
//! Contents: [`JitCache`] (the CPU's compiler and code memory, created on
//! first use), [`JitFn`] (a compiled block), `status` (what a compiled block
//! and the helpers return), and the files `tier` (when a block is compiled,
//! and the unsafe entry into its code), `region` (the blocks of its page
//! compiled into a block's function), `emit` (block -> Cranelift IR),
//! `helpers` (what compiled code calls), `tlb` (direct access to guest
//! memory), `view` (guest memory at a fixed host offset, and the code
//! pages that keep to the soft TLB instead), `trap` (leaving compiled code
//! at a host fault in the view: the sites, the handler and the entry
//! trampoline) and `arena` (code memory).
//!
//! A compiled block does what the block tier does with its block, with the
//! block's static schedule compiled in as constants: the entry checks, the
//! instructions, and at its end the clock, retired count, scoreboard and
//! PC in one step, then a tail call to the next block when that one is
//! compiled too (through the jump table, [`JumpEntry`]), or a jump into a
//! block of the same page compiled into the same function (its member,
//! see `region`); a block that branches to itself loops inside its own
//! function instead (see `emit::self_loop`). Every other end (a
//! fault, a store into code, a nullified delay slot) returns to the block
//! tier, which builds the precise state as it does for its own blocks. The
//! lockstep tests hold both to the interpreter.
//!
//! A block is compiled after it has run `CpuConfig::compile_after` times as
//! a block: code that runs fewer times never pays for a translation.
//! Compiled code lives in a bounded arena; when it is full, every block is
//! dropped with it (`Cpu::flush_blocks`) and hot code is rebuilt and
//! recompiled as it runs; a page whose blocks are dropped is forgotten by
//! the jump table.
//! Hosts Cranelift does not support (and any failure to set it up) leave
//! the block tier to run alone.
//!
//! Compiled code holds no address of its process (the helpers and the jump
//! table are read through the `Cpu` it is entered with, see [`JitLinks`],
//! and it is given nothing else), so it may be kept on disk and run by a
//! later process: with a [`TranslationStore`], a block the store knows is
//! compiled from the moment it is built, with no Cranelift and no warm-up,
//! and every block compiled is saved (see `tier`, `cache`, `store`).

mod arena;
mod cache;
mod calls;
mod emit;
mod helpers;
#[cfg(test)]
mod listing;
mod perf_dump;
mod region;
mod store;
mod tier;
mod tlb;
mod trap;
mod view;
mod worker;

pub use perf_dump::PerfDump;
pub use store::{
    default_translation_dir, StoreError, TranslationStats, TranslationStore,
    DEFAULT_TRANSLATION_STORE_BYTES,
};

use cranelift_codegen::control::ControlPlane;
use cranelift_codegen::ir::{Function, Signature, Type, UserFuncName};
use cranelift_codegen::isa::CallConv;
use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_codegen::{CompiledCode, Context};
use cranelift_frontend::FunctionBuilderContext;
use std::sync::Arc;
use std::thread::JoinHandle;

pub(crate) use helpers::{Helpers, JitLinks, JitRun};
pub(crate) use tlb::Tlb;
pub(crate) use view::Refusals;
use worker::Worker;
pub(crate) use worker::{Done, Job};

use crate::block::Block;
use crate::code_cache::{PAGE_SHIFT, PAGE_WORDS};
use crate::cpu::Cpu;
use arena::Arena;
use trap::{Landing, Site, TrapMap};
use view::GuestView;

/// The most code one block may take (a 64-instruction block of loads and
/// stores compiles to a few KiB; larger ones are left to the block tier).
const MAX_BLOCK_CODE: usize = 64 << 10;

/// A compiled block: the address of its code, a function of Cranelift's
/// `tail` convention `(cpu, clock) -> status word` (see `status`), entered from
/// Rust through [`JitCache::entry`]. The run loop finds the `Block` a
/// function ended early in by its PC and the end's word (`Cpu::ended_in`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct JitFn(pub usize);

/// The entry from Rust: `(cpu, block code) -> status word`, which calls
/// the block (and whatever it chains to). The deadline is in
/// `Cpu::jit_links`, the memory (for the helper) in `Cpu::jit_run`.
pub(crate) type Enter = unsafe extern "C" fn(*mut Cpu, usize) -> u64;

/// Entries of the jump table (see [`JumpEntry`]): 16384, so the blocks of
/// one page fill 1024 consecutive entries, and the table (256 KiB) stays in
/// the host's second-level cache. Blocks 64 KiB apart have the same entry
/// and may take the one beside it as well (see [`jump_index`]); the run
/// loop gives an entry back to each compiled block it enters
/// (`JitCache::note_entry`), so the entries follow the code that runs now.
/// (A warm IDO `cc -c -O2` of a 2,000-line file left compiled code for the
/// run loop 2.18 M times with 4096 entries, 0.85 M with 16384 and 0.76 M
/// with 32768; each of those trips reads the block's page and `Block`,
/// which compiled code never touches, so they miss the host's caches.)
pub(crate) const JUMP_ENTRIES: usize = 16384;

/// One entry of the jump table compiled blocks chain through: the block
/// that starts at `pc`, by the address of its code (16 bytes: compiled
/// code scales an index by a rotation; the run loop keeps the `Block`s beside
/// the table, `Jit::blocks`). An entry with no block holds a PC of another
/// entry (see [`empty_entry`]), which no jump looked up here can equal,
/// whatever its target (0xffffffff too), and the code of a function that
/// returns INTERPRET.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct JumpEntry {
    /// The block's address, zero-extended: a jump through a register
    /// compares the whole register with it, so a register that is not a
    /// sign-extended word (whose jump the interpreter folds to a kernel
    /// address) finds no block.
    pub pc: u64,
    pub code: usize,
}

impl JumpEntry {
    /// Whether this entry is the block at `pc`'s.
    fn is(&self, pc: u32) -> bool {
        self.pc == pc as u64
    }
}

/// The target a jump through a register holding `v` leaves in
/// `Cpu::jit_exit.target`, as compiled code folds it (`Emitter::fold`): the
/// low word, with bit 31 set unless `v` is that word sign-extended (a
/// kernel address, whose fetch then faults as the interpreter's does).
pub(super) fn fold(v: u64) -> u32 {
    let lo = v as u32;
    match lo as i32 as i64 as u64 == v {
        true => lo,
        false => lo | 0x8000_0000,
    }
}

/// The jump-table index of `pc`: its own entry. A block is in its own
/// entry or in the one beside it, `jump_index(pc) ^ 1` (the same cache
/// line), which compiled code looks at on a cold path when its own holds
/// another block: two blocks that share an entry both chain (see
/// `Jit::enter_jump`). (The blocks of IDO's compiler passes share entries
/// in pairs, at the same place in pages 64 KiB apart: on a warm `cc -c
/// -O2` of a 2,000-line file, such pairs, each taking the entry from the
/// other, sent compiled code back to the run loop 107 K times of 152 K.)
pub(super) fn jump_index(pc: u32) -> usize {
    (pc >> 2) as usize & (JUMP_ENTRIES - 1)
}

/// Whether entry `e`, at index `i`, holds a block whose own entry is `i`
/// (not a block moved beside its own, nor no block).
fn holds_own(e: &JumpEntry, i: usize) -> bool {
    jump_index(e.pc as u32) == i
}

/// Whether entry `e`, at index `i`, holds a block: one whose own entry is
/// `i` or the one beside it (an entry with no block holds neither's).
fn holds_block(e: &JumpEntry, i: usize) -> bool {
    jump_index(e.pc as u32) | 1 == i | 1
}

/// Entry `index` with no block (see [`JumpEntry`]): its PC is one whose
/// own entry is neither this one nor the one beside it, so that a jump
/// that looks up this entry never finds it; `bail` returns INTERPRET.
fn empty_entry(bail: usize, index: usize) -> JumpEntry {
    JumpEntry {
        pc: ((index ^ 2) << 2) as u64,
        code: bail,
    }
}

/// A jump table with no block in it (see [`empty_entry`]).
fn empty_table(bail: usize) -> Box<[JumpEntry]> {
    (0..JUMP_ENTRIES).map(|i| empty_entry(bail, i)).collect()
}

/// What compiled code and the helpers return.
///
/// The helper returns one of the first five statuses. A compiled block
/// returns a word: the index of the instruction where it stopped (bits
/// 0-7), its end (bits 8-15: `NEXT` when it ran to its end, or `SKIP`,
/// `FAULT`, `CODE_WRITTEN`, `INTERPRET`, `MISS_LOAD`, `MISS_STORE`) and
/// whether its branch was taken (bit 16).
pub(crate) mod status {
    /// Completed; go on (a branch not taken, too).
    pub const NEXT: u32 = 0;
    /// A branch-likely not taken: its delay slot is nullified.
    pub const SKIP: u32 = 1;
    /// The instruction raised an exception and had no effect.
    pub const FAULT: u32 = 2;
    /// A store wrote to a page of decoded code, and completed.
    pub const CODE_WRITTEN: u32 = 3;
    /// A branch or jump is taken (its target is in `Cpu::jit_exit`).
    pub const TAKEN: u32 = 4;
    /// (A compiled block's end only) its schedule does not hold now: the
    /// block tier interprets it.
    pub const INTERPRET: u32 = 5;
    /// (A compiled block's end only) the load at the index missed the soft
    /// TLB and did nothing; its address is in `Cpu::jit_exit.value`.
    pub const MISS_LOAD: u32 = 6;
    /// (A compiled block's end only) the same for a store.
    pub const MISS_STORE: u32 = 7;

    pub const KIND_SHIFT: u32 = 8;
    pub const TAKEN_SHIFT: u32 = 16;
    /// Where an early end's word holds the number of the member it ended in
    /// (see `region`; its PC is the function's first address).
    pub const MEMBER_SHIFT: u32 = 24;

    /// The member an end's word says it ended in.
    pub const fn member(word: u64) -> usize {
        ((word >> MEMBER_SHIFT) & 0xff) as usize
    }

    /// The word for an end of `kind` at instruction `i`, branch not taken.
    pub const fn encode(kind: u32, i: usize) -> u64 {
        (i as u64 & 0xff) | (kind as u64) << KIND_SHIFT
    }
    /// (instruction index, end, branch taken) of a compiled block's word.
    pub const fn decode(word: u64) -> (usize, u32, bool) {
        (
            (word & 0xff) as usize,
            ((word >> KIND_SHIFT) & 0xff) as u32,
            (word >> TAKEN_SHIFT) & 1 != 0,
        )
    }
}

/// The compiler and its code memory.
struct Jit {
    isa: OwnedTargetIsa,
    ctx: Context,
    fctx: FunctionBuilderContext,
    arena: Arena,
    /// The helpers compiled code calls (for one `Memory` type).
    helpers: Helpers,
    /// The entry from Rust.
    enter: Enter,
    /// A function that returns INTERPRET (in every empty jump entry).
    bail: usize,
    /// The compiled blocks, by PC, that compiled code chains to.
    jump: Box<[JumpEntry]>,
    /// The address of the `Block` of each entry of `jump` that holds one,
    /// for the run loop (compiled code never reads it).
    blocks: Box<[usize]>,
    /// The table compiled code is given when it must not chain (an
    /// observer sees every block, see `Cpu::jit_chain`): every entry
    /// empty, so every block returns to the run loop at its end. Made when
    /// first asked for.
    unlinked: Option<Box<[JumpEntry]>>,
    /// The host has a fused multiply-add instruction (else Cranelift would
    /// call a library function, which this code memory cannot link).
    fma: bool,
    /// What code kept on disk must have been compiled by to run here: this
    /// build of the crate, the `Cpu` layout, Cranelift's target and flags,
    /// and whether it goes through the view.
    fingerprint: u64,
    /// The view of guest memory, when the run asked for one (see
    /// `JitCache::wants_view`) and the host gave it: code is compiled to go
    /// through it only then.
    view: Option<GuestView>,
    /// The installed functions that access the view (see `trap`).
    traps: TrapMap,
    /// The installed bytes of the block compiled last (for the store).
    blob: Vec<u8>,
    /// The leaves callers may hold, and the pages that hold copies of
    /// other pages' blocks (see `calls`).
    calls: calls::Calls,
}

/// The CPU's compiled tier: absent until first used, and `Unsupported` on
/// a host Cranelift cannot compile for. A clone is empty: it is a cache.
#[derive(Default)]
pub(crate) struct JitCache {
    jit: Option<Box<Jit>>,
    unsupported: bool,
    /// The compiler thread, once a block was sent to it.
    worker: Option<Worker>,
    /// The host refused the thread (a memory limit, say): blocks are
    /// compiled in place from then on.
    no_thread: bool,
    /// Blocks installed as members of another's code (see `region`).
    members_installed: u64,
    /// Whether the compiler is made to compile for the view of guest
    /// memory: the compiler there is was made so (a change flushes it
    /// first, see `JitCache::serves`).
    wants_view: bool,
    /// Where each function installed is recorded for `perf`, if anywhere
    /// (see `perf_dump`).
    pub perf: Option<Arc<PerfDump>>,
}

impl Clone for JitCache {
    fn clone(&self) -> Self {
        JitCache {
            perf: self.perf.clone(),
            ..JitCache::default()
        }
    }
}

impl JitCache {
    /// Whether compiled code for memory with these helpers may run: false
    /// when code was compiled for another memory type, which must then be
    /// flushed (with every block) before the next compile.
    /// Code compiled with the view of guest memory (`view`) serves only
    /// memory that names its pages by file (`Memory::page_frame`), and the
    /// other way round.
    pub fn serves(&self, helpers: &Helpers, view: bool) -> bool {
        self.jit
            .as_ref()
            .is_none_or(|j| j.helpers == *helpers && self.wants_view == view)
    }

    /// Makes the compiler, when it is next made, compile for the view of
    /// guest memory or not (after a flush where it does not `serve`).
    pub fn want_view(&mut self, view: bool) {
        self.wants_view = view;
    }

    /// Whether the code memory may not hold one more block.
    pub fn full(&self) -> bool {
        self.jit
            .as_ref()
            .is_some_and(|j| j.arena.full(MAX_BLOCK_CODE))
    }

    /// How many blocks were installed as members of another block's code
    /// (see `region`).
    pub fn members_installed(&self) -> u64 {
        self.members_installed
    }

    /// Bytes of code memory in use.
    pub fn code_bytes(&self) -> usize {
        self.jit.as_ref().map_or(0, |j| j.arena.mapped())
    }

    /// Frees all compiled code. Every `JitFn` handed out is invalid after
    /// this: the caller drops every block first.
    pub fn flush(&mut self) {
        self.jit = None;
    }

    /// Notes `block` (at `pc`), compiled as a function's first block, as
    /// a leaf its callers may hold, if it is one (see `calls`).
    pub fn note_leaf(&mut self, block: &Block, pc: u32) {
        if let Some(jit) = self.jit.as_mut() {
            jit.calls.note_leaf(block, pc);
        }
    }

    /// The leaf at `pc`, if one was noted (see `calls`).
    pub fn leaf(&self, pc: u32) -> Option<&Block> {
        self.jit.as_ref()?.calls.leaf(pc)
    }

    /// Notes that the function installed for the block at `head` holds
    /// `members`, perhaps of other pages (see `calls`).
    pub fn hold(&mut self, head: u32, members: &[(u32, Block)]) {
        if let Some(jit) = self.jit.as_mut() {
            jit.calls.hold(head, members);
        }
    }

    /// The code of page `page_no` changed: the pages whose functions hold
    /// a copy of one of its blocks, which must go too (see `calls`).
    pub fn forget_code(&mut self, page_no: u32) -> Vec<u32> {
        self.jit
            .as_mut()
            .map_or_else(Vec::new, |jit| jit.calls.forget_code(page_no))
    }

    /// The blocks of page `page_no` were dropped: compiled code must no
    /// longer chain to them.
    pub fn forget_page(&mut self, page_no: u32) {
        if let Some(jit) = self.jit.as_mut() {
            // (A block's entry and the one beside it are both among its
            // page's 1024.)
            let first = jump_index(page_no << PAGE_SHIFT);
            let bail = jit.bail;
            for (i, e) in jit.jump.iter_mut().enumerate().skip(first).take(PAGE_WORDS) {
                if e.pc >> PAGE_SHIFT == page_no as u64 && holds_block(e, i) {
                    *e = empty_entry(bail, i);
                }
            }
        }
    }

    /// The entry from Rust into compiled code, once there is any.
    pub fn entry(&self) -> Option<Enter> {
        self.jit.as_ref().map(|j| j.enter)
    }

    /// The jump table's address (0 before there is compiled code).
    pub fn jump_table(&self) -> usize {
        self.jit.as_ref().map_or(0, |j| j.jump.as_ptr() as usize)
    }

    /// The address of a jump table that holds no block (0 before there
    /// is compiled code), for compiled code that must not chain.
    pub fn unlinked_table(&mut self) -> usize {
        self.jit.as_deref_mut().map_or(0, |j| {
            let bail = j.bail;
            let t = j.unlinked.get_or_insert_with(|| empty_table(bail));
            t.as_ptr() as usize
        })
    }

    /// The code of the compiled block at `pc` in the jump table, if the
    /// entry is that block's: the run loop enters it without looking up
    /// its page or reading its `Block`.
    #[inline(always)]
    pub fn linked(&self, pc: u32) -> Option<JitFn> {
        let jit = self.jit.as_deref()?;
        jit.slot(pc).map(|i| JitFn(jit.jump[i].code))
    }

    /// The `Block` of the compiled block at `pc` in the jump table, if the
    /// entry is that block's.
    pub fn linked_block(&self, pc: u32) -> Option<&Block> {
        let jit = self.jit.as_deref()?;
        // SAFETY: an entry names a live block: blocks are dropped only
        // with their page's entries (`forget_page`) or the whole table
        // (`flush`).
        jit.slot(pc)
            .map(|i| unsafe { &*(jit.blocks[i] as *const Block) })
    }

    /// The run loop is about to run `block` (at `pc`), compiled as `f`:
    /// makes it the jump table's entry for `pc` again if another block
    /// took that entry since, so that compiled code chains to the blocks
    /// that run now. (Without it, a warm IDO `cc -c -O2`, whose compiler
    /// passes have 700 KiB of text, left compiled code for the run loop
    /// 18.0 M times; with it 3.2 M.)
    #[inline(always)]
    pub fn note_entry(&mut self, block: &Block, pc: u32, f: JitFn) {
        if let Some(jit) = self.jit.as_deref_mut() {
            if jit.slot(pc).is_none() {
                jit.enter_jump(block, pc, f);
            }
        }
    }

    /// Compiles `block` (which starts at `pc`) for a CPU whose CP0 Status
    /// is `status`, through the view of guest memory where there is one
    /// and `view` allows, or `None` when the host is unsupported, the code
    /// memory is full or the block's code would be too large. `limit`
    /// bounds the code memory.
    #[allow(clippy::too_many_arguments)]
    pub fn compile(
        &mut self,
        block: &Block,
        pc: u32,
        status: u32,
        view: bool,
        helpers: &Helpers,
        limit: usize,
    ) -> Option<JitFn> {
        let perf = self.perf.clone();
        let jit = self.ready(helpers, limit)?;
        let f = jit.compile(block, pc, status, view)?;
        jit.enter_jump(block, pc, f);
        if let Some(perf) = perf {
            jit.record(&perf, block, pc, f, &jit.blob);
        }
        self.members_installed += block.members.len() as u64;
        Some(f)
    }

    /// Sends `job` to the compiler thread (started on first use), to be
    /// compiled for the view of guest memory as the CPU's own compiler
    /// would; false when there is none (the caller compiles the block
    /// itself).
    pub fn send(&mut self, mut job: Job, helpers: &Helpers, limit: usize) -> bool {
        let Some(jit) = self.jit_for(helpers, limit) else {
            return false;
        };
        job.target = jit.target(job.target.view);
        if self.worker.is_none() && !self.no_thread {
            let Some(jit) = self.jit_for(helpers, limit) else {
                return false;
            };
            self.worker = Worker::start(jit.isa.clone());
            self.no_thread = self.worker.is_none();
        }
        self.worker.as_mut().is_some_and(|w| w.send(job))
    }

    /// Whether the compiler thread has sent back a job not yet taken
    /// (see `finished`).
    #[inline(always)]
    pub fn any_back(&self) -> bool {
        self.worker.as_ref().is_some_and(Worker::any_back)
    }

    /// A job the compiler thread finished, if one is back (`wait`: waits
    /// for one while jobs are out).
    pub fn finished(&mut self, wait: bool) -> Option<Done> {
        self.worker.as_mut()?.next(wait)
    }

    /// Whether a compiler thread was started (see `send`).
    pub fn has_worker(&self) -> bool {
        self.worker.is_some()
    }

    /// The CPU is going: the compiler thread finishes the jobs still out
    /// on its own and gives each to `keep` (see `Worker::detach`), or,
    /// without `keep`, drops them. Returns the thread while it has jobs.
    pub fn let_worker_go(
        &mut self,
        keep: Option<impl FnMut(Done) + Send + 'static>,
    ) -> Option<JoinHandle<()>> {
        let worker = self.worker.take()?;
        match keep {
            Some(keep) => worker.detach(keep),
            None => {
                // Not waited for: it has at most the job it is on left.
                worker.abandon();
                None
            }
        }
    }

    /// The machine code of the block compiled last (for the store).
    pub fn last_code(&self) -> Option<&[u8]> {
        Some(&self.jit.as_ref()?.blob)
    }

    /// Whether code for this compiler is to carry a table of sites (its
    /// blocks may go through the view of guest memory; `None` before the
    /// compiler is made).
    pub fn viewed(&self) -> Option<bool> {
        self.jit.as_ref().map(|j| j.view.is_some())
    }

    /// The fingerprint code on disk must carry to run here (see
    /// `Jit::fingerprint`), `None` where there is no compiled tier.
    pub fn fingerprint(&mut self, helpers: &Helpers, limit: usize) -> Option<u64> {
        Some(self.jit_for(helpers, limit)?.fingerprint)
    }

    /// The view of guest memory compiled code goes through, if any.
    pub fn view(&mut self) -> Option<&mut GuestView> {
        self.jit.as_deref_mut()?.view.as_mut()
    }

    /// What the fault handler needs for an entry into compiled code (see
    /// `trap`), when the code goes through the view.
    pub fn landing(&self) -> Option<Landing> {
        let jit = self.jit.as_deref()?;
        let view = jit.view.as_ref()?;
        Some(Landing::new(view.base(), view.reserved(), &jit.traps))
    }

    /// Installs `code`, machine code kept on disk for `block` (at `pc`),
    /// as that block's compiled code; `None` when the code memory is full.
    pub fn install(
        &mut self,
        block: &Block,
        pc: u32,
        code: &[u8],
        helpers: &Helpers,
        limit: usize,
    ) -> Option<JitFn> {
        let perf = self.perf.clone();
        let jit = self.ready(helpers, limit)?;
        if code.len() > MAX_BLOCK_CODE + MAX_SITES_BYTES
            || (jit.view.is_some() && trap::code_len(code).is_none())
        {
            return None;
        }
        let f = JitFn(jit.install_blob(code)?);
        jit.enter_jump(block, pc, f);
        if let Some(perf) = perf {
            jit.record(&perf, block, pc, f, code);
        }
        self.members_installed += block.members.len() as u64;
        Some(f)
    }

    /// The compiler, set up on first use, when it may take one more block
    /// compiled for memory with these helpers.
    fn ready(&mut self, helpers: &Helpers, limit: usize) -> Option<&mut Jit> {
        let jit = self.jit_for(helpers, limit)?;
        if jit.helpers != *helpers || jit.arena.full(MAX_BLOCK_CODE) {
            return None;
        }
        Some(jit)
    }

    /// The compiler, set up on first use (`None` on an unsupported host).
    fn jit_for(&mut self, helpers: &Helpers, limit: usize) -> Option<&mut Jit> {
        if self.unsupported {
            return None;
        }
        if self.jit.is_none() {
            match Jit::new(*helpers, self.wants_view, limit) {
                Some(j) => self.jit = Some(Box::new(j)),
                None => {
                    self.unsupported = true;
                    return None;
                }
            }
        }
        self.jit.as_deref_mut()
    }
}

impl Jit {
    /// The index of the entry that holds the block at `pc`: its own, or
    /// the one beside it (see [`jump_index`]).
    #[inline(always)]
    fn slot(&self, pc: u32) -> Option<usize> {
        let i = jump_index(pc);
        [i, i ^ 1].into_iter().find(|&i| self.jump[i].is(pc))
    }

    /// Makes compiled code `f` of `block` (at `pc`) the target of jumps to
    /// `pc` from compiled code: in `pc`'s own entry, whose block (another)
    /// moves to the entry beside it unless that one holds a block in its
    /// own entry (an older code of `pc`'s block there goes).
    #[inline]
    fn enter_jump(&mut self, block: &Block, pc: u32, f: JitFn) {
        let (i, beside) = (jump_index(pc), jump_index(pc) ^ 1);
        let there = &self.jump[i];
        if holds_block(there, i) && !there.is(pc) && !holds_own(&self.jump[beside], beside) {
            self.jump[beside] = self.jump[i];
            self.blocks[beside] = self.blocks[i];
        }
        self.jump[i] = JumpEntry {
            pc: pc as u64,
            code: f.0,
        };
        self.blocks[i] = block as *const Block as usize;
    }

    /// Records `f`, the function of `block` (at `pc`) installed from
    /// `blob`, in `perf` (its machine code, without the sites' table of a
    /// function that goes through the view).
    fn record(&self, perf: &PerfDump, block: &Block, pc: u32, f: JitFn, blob: &[u8]) {
        let len = match self.view {
            Some(_) => trap::code_len(blob).unwrap_or(blob.len()),
            None => blob.len(),
        };
        perf.record(pc, block.members.len(), f.0 as u64, &blob[..len]);
    }

    /// What a block is compiled for: through the view where there is one
    /// and `view` allows.
    fn target(&self, view: bool) -> Target {
        Target {
            fma: self.fma,
            view: view && self.view.is_some(),
            sites: self.view.is_some(),
        }
    }

    /// Installs `blob` (a function's code, and its sites' table when it
    /// goes through the view): the address of its code.
    fn install_blob(&mut self, blob: &[u8]) -> Option<usize> {
        let start = self.arena.install(blob)?;
        if self.view.is_some() {
            self.traps.insert(start as usize, blob);
        }
        Some(start as usize)
    }

    /// The compiler for this host, or `None` where Cranelift has none;
    /// with the view of guest memory where `view` asks and the host gives
    /// one.
    fn new(helpers: Helpers, view: bool, limit: usize) -> Option<Jit> {
        let mut flags = settings::builder();
        // Cranelift's optimiser ("speed") made compiles of IDO's many
        // short-lived processes cost more than it saved: an IDO cc -O2
        // took 7.6 s of user time with it, 6.6 s without (compiling after
        // 1000 runs); the bundled workload 0.46 and 0.49 s. With the
        // translation cache a warm run no longer compiles, but "speed"
        // still lost more cold than it won warm: a 500-line cc -c -O2
        // under callgrind took 6.4% more host instructions cold and 2.3%
        // fewer warm (docs/performance.md).
        flags.set("opt_level", "none").ok()?;

        flags.set("enable_verifier", "false").ok()?;
        // Cranelift's tail calls (how blocks chain) need frame pointers.
        flags.set("preserve_frame_pointers", "true").ok()?;
        let isa = cranelift_native::builder()
            .ok()?
            .finish(settings::Flags::new(flags))
            .ok()?;
        let fma = match isa.name() {
            "x64" => isa
                .isa_flags()
                .iter()
                .any(|f| f.name == "has_fma" && f.as_bool() == Some(true)),
            "aarch64" => true,
            _ => false,
        };
        let view = if view { GuestView::new() } else { None };
        let fingerprint = Jit::fingerprint(&isa, fma, view.is_some());
        let mut jit = Jit {
            view,
            traps: TrapMap::default(),
            calls: calls::Calls::default(),
            blob: Vec::new(),
            fingerprint,
            fma,
            isa,
            ctx: Context::new(),
            fctx: FunctionBuilderContext::new(),
            arena: Arena::new(limit),
            helpers,
            enter: bail_enter,
            bail: 0,
            jump: Box::new([]),
            blocks: vec![0; JUMP_ENTRIES].into_boxed_slice(),
            unlinked: None,
        };
        let ptr = jit.isa.pointer_type();
        let (system, tail) = (jit.isa.default_call_conv(), CallConv::Tail);
        jit.bail = jit.finish(emit::block_signature(tail, ptr), emit::translate_bail)?;
        let enter = jit.finish(emit::enter_signature(system, ptr), |f, fctx, ptr| {
            emit::translate_enter(f, fctx, ptr, tail)
        })?;
        // SAFETY: `enter` is the code of a function of `Enter`'s signature.
        jit.enter = unsafe { std::mem::transmute::<usize, Enter>(enter) };
        jit.jump = empty_table(jit.bail);
        Some(jit)
    }

    /// What decides the code besides the block: this crate's source (which
    /// holds the translator, the timing model and the `Cpu`'s fields), the
    /// layout of the `Cpu` as compiled (the offsets compiled code uses), the
    /// target and its flags (the host's CPU features) and Cranelift's
    /// version (in the workspace's lock file, part of the source hash).
    fn fingerprint(isa: &OwnedTargetIsa, fma: bool, view: bool) -> u64 {
        let mut text = format!(
            "{} {} {} {} {}",
            env!("CPU_MIPS_SOURCE_HASH"),
            isa.triple(),
            fma,
            view,
            size_of::<usize>()
        );
        for f in isa.isa_flags() {
            text.push_str(&format!(" {f}"));
        }
        text.push_str(&format!(" {}", isa.flags()));
        for o in emit::layout_offsets() {
            text.push_str(&format!(" {o}"));
        }
        text.push_str(&format!(" {}", size_of::<Cpu>()));
        cache::hash(cache::SEED, text.as_bytes())
    }

    /// Compiles the function `emit` builds and installs it: the address
    /// of its code.
    fn finish(
        &mut self,
        sig: Signature,
        emit: impl FnOnce(&mut Function, &mut FunctionBuilderContext, Type),
    ) -> Option<usize> {
        let code = machine_code(&self.isa, &mut self.ctx, &mut self.fctx, sig, emit)?;
        self.arena.install(code.code_buffer()).map(|p| p as usize)
    }

    fn compile(&mut self, block: &Block, pc: u32, status: u32, view: bool) -> Option<JitFn> {
        let target = self.target(view);
        let mut blob = std::mem::take(&mut self.blob);
        let ok = block_code(
            &self.isa,
            &mut self.ctx,
            &mut self.fctx,
            target,
            block,
            pc,
            status,
            &mut blob,
        );
        let f = if ok { self.install_blob(&blob) } else { None };
        self.blob = blob;
        f.map(JitFn)
    }
}

/// The machine code of the function `emit` builds, of signature `sig`,
/// compiled for `isa` in `ctx`: what the code memory installs, and the
/// translation cache keeps.
fn machine_code<'c>(
    isa: &OwnedTargetIsa,
    ctx: &'c mut Context,
    fctx: &mut FunctionBuilderContext,
    sig: Signature,
    emit: impl FnOnce(&mut Function, &mut FunctionBuilderContext, Type),
) -> Option<&'c CompiledCode> {
    build(isa, ctx, fctx, sig, emit);
    let code = ctx.compile(&**isa, &mut ControlPlane::default()).ok()?;
    // Helpers and the jump table are reached through the `Cpu`, so the
    // code has no relocations to apply (it may be copied anywhere, see
    // `cache`); refuse it if it ever has one.
    if !code.buffer.relocs().is_empty() || code.code_buffer().len() > MAX_BLOCK_CODE {
        return None;
    }
    Some(code)
}

/// What block code is compiled for besides the block: see `Jit::fma`;
/// whether its accesses go through the view of guest memory, and whether
/// its code carries a table of sites (every function of a compiler with
/// a view does, see `Jit::view`, whether its accesses use it or not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Target {
    pub fma: bool,
    pub view: bool,
    pub sites: bool,
}

/// The most bytes a function's sites' table may take (see `trap`): one
/// site per trap code.
const MAX_SITES_BYTES: usize = 256 * size_of::<Site>() + 16;

/// Compiles `block` (at `pc`, Status `status`) for `target` into `out`:
/// its machine code, followed by its sites' table when it goes through
/// the view (see `trap`). False when it cannot be compiled.
#[allow(clippy::too_many_arguments)]
fn block_code(
    isa: &OwnedTargetIsa,
    ctx: &mut Context,
    fctx: &mut FunctionBuilderContext,
    target: Target,
    block: &Block,
    pc: u32,
    status: u32,
    out: &mut Vec<u8>,
) -> bool {
    let (sig, emit) = block_function(isa, target, block, pc, status);
    let mut sites = Vec::new();
    let emit = |f: &mut Function, fctx: &mut FunctionBuilderContext, ptr: Type| {
        sites = emit(f, fctx, ptr);
    };
    let Some(code) = machine_code(isa, ctx, fctx, sig, emit) else {
        return false;
    };
    out.clear();
    out.extend_from_slice(code.code_buffer());
    if target.sites {
        // Each access's site, at the offset of every host instruction
        // Cranelift made of it (its trap code is its number).
        let mut placed: Vec<Site> = code
            .buffer
            .traps()
            .iter()
            .filter_map(|t| {
                let n = t.code.as_raw().get() as usize;
                let site = sites.get(n.checked_sub(1)?)?;
                Some(Site {
                    offset: t.offset,
                    ..*site
                })
            })
            .collect();
        trap::append_sites(out, &mut placed);
    }
    true
}

/// Builds the function `emit` writes into `ctx.func`, of signature `sig`.
fn build(
    isa: &OwnedTargetIsa,
    ctx: &mut Context,
    fctx: &mut FunctionBuilderContext,
    sig: Signature,
    emit: impl FnOnce(&mut Function, &mut FunctionBuilderContext, Type),
) {
    ctx.clear();
    ctx.func.signature = sig;
    emit(&mut ctx.func, fctx, isa.pointer_type());
}

/// The signature and the IR builder of `block`'s function (at `pc`, for
/// Status `status` and `target`); the builder returns the function's
/// sites (see `emit::translate`).
fn block_function<'b>(
    isa: &OwnedTargetIsa,
    target: Target,
    block: &'b Block,
    pc: u32,
    status: u32,
) -> (
    Signature,
    impl FnOnce(&mut Function, &mut FunctionBuilderContext, Type) -> Vec<Site> + 'b,
) {
    let sig = emit::block_signature(CallConv::Tail, isa.pointer_type());
    let emit = move |f: &mut Function, fctx: &mut FunctionBuilderContext, ptr: Type| {
        f.name = UserFuncName::user(0, pc);
        let setting = emit::Setting {
            status,
            fma: target.fma,
            view: target.view,
        };
        emit::translate(f, fctx, block, pc, setting, ptr)
    };
    (sig, emit)
}

/// `Jit::enter` until the real one is compiled (never called).
unsafe extern "C" fn bail_enter(_: *mut Cpu, _: usize) -> u64 {
    status::encode(status::INTERPRET, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The code at `pc` in `cache`'s jump table, if that entry is `pc`'s.
    fn chained_to(cache: &JitCache, pc: u32) -> Option<usize> {
        cache.linked(pc).map(|f| f.0)
    }

    /// A block to install (its code is never run here).
    fn block() -> Block {
        // addiu a0, a0, 1; jr ra; nop
        listing::block_of(&[0x2484_0001, 0x03e0_0008, 0])
    }

    #[test]
    fn a_register_s_target_is_its_low_word_with_bit_31_set_unless_sign_extended() {
        assert_eq!(fold(0x0040_1000), 0x0040_1000);
        assert_eq!(fold(0xffff_ffff_8000_0010), 0x8000_0010);
        assert_eq!(fold(0x1_0040_1000), 0x8040_1000);
        assert_eq!(fold(0x8000_0010), 0x8000_0010);
    }

    #[test]
    fn two_blocks_that_share_an_entry_both_chain_and_the_run_loop_takes_it_back() {
        let helpers = Helpers::default();
        let [one, two, three, next_door] = [block(), block(), block(), block()];
        let mut cache = JitCache::default();
        // Three PCs whose own entry is the same, and a PC whose own entry
        // is the one beside theirs.
        let far = 4 * JUMP_ENTRIES as u32;
        let (a, b, c) = (0x0040_0000, 0x0040_0000 + far, 0x0040_0000 + 2 * far);
        let install = |cache: &mut JitCache, block: &Block, pc| {
            cache.install(block, pc, &[0xc3; 16], &helpers, 64 << 20)
        };
        let Some(fa) = install(&mut cache, &one, a) else {
            eprintln!("no compiled tier on this host: not checked");
            return;
        };
        let fb = install(&mut cache, &two, b);
        assert_eq!(chained_to(&cache, b), fb.map(|f| f.0));
        assert_eq!(chained_to(&cache, a), Some(fa.0), "moved beside");
        let fc = install(&mut cache, &three, c);
        assert_eq!(chained_to(&cache, c), fc.map(|f| f.0));
        assert_eq!(chained_to(&cache, b), fb.map(|f| f.0), "moved beside");
        assert_eq!(chained_to(&cache, a), None, "gone from beside");
        cache.note_entry(&one, a, fa);
        assert_eq!(chained_to(&cache, a), Some(fa.0));
        assert!(std::ptr::eq(cache.linked_block(a).unwrap(), &one));
        assert!(std::ptr::eq(cache.linked_block(c).unwrap(), &three));
        assert!(
            cache.linked_block(b).is_none(),
            "its block went with the entry"
        );
        // An entry that is already the block's is left alone.
        cache.note_entry(&one, a, fa);
        assert_eq!(chained_to(&cache, a), Some(fa.0));
        assert_eq!(chained_to(&cache, c), fc.map(|f| f.0));
        // A block in its own entry is not moved for another's.
        let fd = install(&mut cache, &next_door, a + 4);
        cache.note_entry(&two, b, fb.unwrap());
        assert_eq!(chained_to(&cache, b), fb.map(|f| f.0));
        assert_eq!(chained_to(&cache, a + 4), fd.map(|f| f.0));
        assert_eq!(chained_to(&cache, a), None);
        assert_eq!(chained_to(&cache, c), None);
        // A block beside its own entry stays there when that entry, emptied,
        // takes another block.
        let mut other = JitCache::default();
        install(&mut other, &one, a);
        install(&mut other, &two, b);
        other.forget_page(b >> PAGE_SHIFT);
        let fc = install(&mut other, &three, c);
        assert!(chained_to(&other, a).is_some(), "still beside");
        assert_eq!(chained_to(&other, c), fc.map(|f| f.0));
        // Forgetting the page forgets the entries beside as well.
        cache.note_entry(&one, a, fa);
        cache.forget_page(a >> PAGE_SHIFT);
        assert_eq!([a, a + 4, b].map(|pc| chained_to(&cache, pc)), [None; 3]);
        // New code for a block moved beside its entry replaces the old.
        let mut cache = JitCache::default();
        install(&mut cache, &one, a);
        let fb = install(&mut cache, &two, b);
        let fa2 = install(&mut cache, &one, a);
        assert_eq!(chained_to(&cache, a), fa2.map(|f| f.0));
        assert_eq!(chained_to(&cache, b), fb.map(|f| f.0));
        let fa3 = install(&mut cache, &one, a);
        assert_eq!(chained_to(&cache, a), fa3.map(|f| f.0));
        assert_eq!(chained_to(&cache, b), fb.map(|f| f.0));
        let jump = &cache.jit.as_deref().unwrap().jump;
        assert_eq!(jump.iter().filter(|e| e.is(a)).count(), 1);
    }
}
