//! The compiled tier's side of the run loop: when a block is compiled (its
//! policy), and the unsafe entries into compiled code.
//!
//! Contents: `Cpu::start_compiled_tier` (each run on the block tier),
//! `Cpu::run_linked` (the jump table's block at the PC, entered directly),
//! `Cpu::count_run` (a block that has run `CpuConfig::compile_after` times
//! as a block is compiled, with its members, in place or on the compiler
//! thread),
//! `Cpu::install_compiled` and `Cpu::finish_compiles` (code back from that
//! thread), `Cpu::run_compiled` (a block's compiled code, the early ends
//! finished by the block tier's `finish_block` in the block `Cpu::ended_in`
//! finds) and `Cpu::fault_again`.
//!
//! The block tier calls only these; everything unsafe about running
//! generated code is here and in the code memory (`arena`).

use std::sync::Arc;

use crate::block::run::{report_transfer, BlockEnd, Body};
use crate::block::{Block, Members};
use crate::code_cache::{Page, PageStore, PAGE_SHIFT};
use crate::cp0::status as cp0_status;
use crate::cpu::{Cpu, Engine};
use crate::insn::Reg;
use crate::jit::cache::Key;
use crate::jit::store::heat;
use crate::jit::trap::{self, Site};
use crate::jit::TranslationStore;
use crate::jit::{region, status, Done, Helpers, JitFn, JitRun, Job, Target};
use crate::pipeline::Fault;
use crate::{Memory, Observer};

impl Cpu {
    /// Readies the compiled tier for a run with `mem` and observer `O`:
    /// the soft TLB keeps its pages only while the memory's epoch stays
    /// the same (see `Memory::direct_epoch`; without one it starts each run
    /// empty), blocks chain only for an observer that needs neither blocks
    /// nor transfers, and code compiled for another memory type is dropped
    /// with every block and page.
    ///
    /// Returns the helpers for `M`, which the run compiles with. They are
    /// taken once, here: Rust does not promise that two casts of the same
    /// generic function to a pointer give the same address (each codegen
    /// site may have its own copy), so helpers taken again at each compile
    /// could differ from the ones the cache serves, and the next run would
    /// drop every block as compiled for another memory type.
    pub(crate) fn start_compiled_tier<M: Memory, O: Observer>(
        &mut self,
        pages: &mut PageStore,
        mem: &mut M,
    ) -> Helpers {
        if self.config.engine == Engine::Jit {
            let epoch = mem.direct_epoch();
            if epoch.is_none() || epoch != self.tlb_epoch {
                self.forget_direct_pages(mem, epoch.is_some());
            }
            self.tlb_epoch = epoch;
        }
        self.jit_chain = !O::BLOCKS && !O::TRANSFERS;
        let helpers = Helpers::of::<M>();
        let view = self.config.guest_view && !self.config.mode64 && mem.has_page_frames();
        if !self.jit.serves(&helpers, view) {
            self.flush_blocks(pages);
            self.tlb.clear();
        }
        self.jit.want_view(view);
        self.jit_links.helpers = helpers;
        self.link_jump_table();
        helpers
    }

    /// Empties the soft TLB, and the view of guest memory of the pages
    /// that may have moved (`kept`: the memory keeps an epoch, so the
    /// view asks it again for each page, see `GuestView::revalidate`;
    /// else it empties it too).
    fn forget_direct_pages<M: Memory>(&mut self, mem: &mut M, kept: bool) {
        self.tlb.clear();
        let marks = &self.code_marks;
        if let Some(view) = self.jit.view() {
            if kept {
                view.revalidate(mem, |addr| marks.contains(addr));
            } else {
                view.clear();
            }
        }
    }

    /// Hands compiled code the jump table (made with the first compiled
    /// block), or one that holds no block when it must not chain.
    fn link_jump_table(&mut self) {
        self.jit_links.jump = if self.jit_chain {
            self.jit.jump_table()
        } else {
            self.jit.unlinked_table()
        };
    }

    /// Counts a run of block `idx` of `page`, which starts at the PC, as a
    /// block; on the compiled tier the run that makes it hot compiles it,
    /// with the blocks of the page it reaches (see `region`). A block that
    /// cannot be compiled runs on the block tier.
    ///
    /// A member of another block's function counts only the runs that
    /// come to it from outside that function (`region::from_inside`), so
    /// that a block hot from elsewhere gets code of its own.
    ///
    /// With a translation store, the count is noted every
    /// `heat::step` runs, for the next run to go on from (see `heat`).
    #[inline(always)]
    pub(crate) fn count_run(&mut self, page: &mut Page, idx: usize, helpers: &Helpers) {
        let Some(block) = page.blocks[idx].as_deref() else {
            return;
        };
        if block.compiled.is_some() || self.config.engine != Engine::Jit {
            return;
        }
        let last = self.last_block;
        let from_code = self.last_from_code;
        if block
            .claimed_by
            .is_some_and(|head| region::from_inside(page, head, last, from_code))
        {
            return;
        }
        if let Some(block) = page.blocks[idx].as_deref_mut() {
            block.runs = block.runs.saturating_add(1);
            let after = self.config.compile_after.max(1);
            if block.runs == after {
                self.compile_with_members(page, idx, helpers);
            } else if block.runs & (heat::step(after) - 1) == 0 && block.runs < after {
                self.note_heat(block, helpers);
            }
        }
    }

    /// Tells the translation store how many times `block`, which starts at
    /// the PC, has run (see [`Cpu::count_run`]).
    #[cold]
    #[inline(never)]
    fn note_heat(&mut self, block: &Block, helpers: &Helpers) {
        let Some(store) = self.translations.clone() else {
            return;
        };
        let limit = self.config.jit_cache_bytes;
        if let Some(fingerprint) = self.jit.fingerprint(helpers, limit) {
            let key = self.translation_key(fingerprint, self.pc, &block.words);
            store.note_heat(&key, block.runs);
        }
    }

    /// Compiles block `idx` of `page`, which starts at the PC, with the
    /// blocks it reaches on the page as its members (see `region`).
    #[cold]
    #[inline(never)]
    fn compile_with_members(&mut self, page: &mut Page, idx: usize, helpers: &Helpers) {
        let pc = self.pc;
        let Some(head) = page.blocks[idx].as_deref() else {
            return;
        };
        let members = region::select(page, pc, head, |at| self.jit.leaf(at));
        self.jit.note_leaf(head, pc);
        region::claim(page, pc, &members);
        let Some(block) = page.blocks[idx].as_deref_mut() else {
            return;
        };
        block.members = members;
        let dropped = self.compile(block, helpers);
        region::unclaim(page, pc, &dropped);
    }

    /// Compiles `block`, which starts at the PC, with the run's `helpers`
    /// (see [`Cpu::start_compiled_tier`]), or has the compiler thread
    /// compile it (`CpuConfig::compile_on_thread`, see `install_compiled`),
    /// and keeps its code in the translation store, if there is one.
    /// Returns the members the block had and was compiled without (too
    /// large with them, say), whose claims the caller undoes.
    #[cold]
    #[inline(never)]
    fn compile(&mut self, block: &mut Block, helpers: &Helpers) -> Members {
        let limit = self.config.jit_cache_bytes;
        let (pc, status) = (self.pc, self.cp0.status);
        if let Some(store) = self.translations.as_deref() {
            store.count_miss(block.heated);
        }
        let view = self.through_view(pc);
        if self.config.compile_on_thread {
            let job = Job {
                block: block.clone(),
                pc,
                status,
                target: Target {
                    fma: false,
                    view,
                    sites: false,
                },
            };
            if self.jit.send(job, helpers, limit) {
                return Box::default();
            }
        }
        block.compiled = self.jit.compile(block, pc, status, view, helpers, limit);
        let mut dropped = Box::default();
        if block.compiled.is_none() && !block.members.is_empty() {
            dropped = std::mem::take(&mut block.members);
            block.compiled = self.jit.compile(block, pc, status, view, helpers, limit);
        }
        self.link_jump_table();
        if block.compiled.is_some() {
            self.jit.hold(pc, &block.members);
            if let Some(code) = self.jit.last_code() {
                let code = code.to_vec();
                let target = self.compiled_for(status, view);
                self.keep_translation(block, pc, target, &code, helpers);
            }
        }
        dropped
    }

    /// Installs the code the compiler thread has finished in its block, if
    /// the block is still there with the same instructions, and keeps it
    /// in the translation store either way.
    #[cold]
    #[inline(never)]
    pub(crate) fn install_compiled(&mut self, pages: &mut PageStore, helpers: &Helpers) {
        let limit = self.config.jit_cache_bytes;
        while let Some(Done { job, code, dropped }) = self.jit.finished(false) {
            region::unclaim(pages.page(job.pc >> PAGE_SHIFT), job.pc, &dropped);
            // (Code compiled for the view, or without it, when the compiler
            // has since changed: only a new memory type does that.)
            let Some(code) = code.filter(|_| self.jit.viewed() == Some(job.target.sites)) else {
                continue;
            };
            self.keep_translation(&job.block, job.pc, job.compiled_for(), &code, helpers);
            // The page may have been written, and its code decoded again,
            // since the job was sent.
            if !region::still_decoded(pages, &job.block.members) {
                continue;
            }
            let Some(b) = pages.block_mut(job.pc) else {
                continue;
            };
            let same = b
                .insns
                .iter()
                .map(|x| x.op)
                .eq(job.block.insns.iter().map(|y| y.op));
            if same && b.compiled.is_none() {
                b.members = job.block.members;
                b.compiled = self.jit.install(b, job.pc, &code, helpers, limit);
                if b.compiled.is_some() {
                    self.jit.hold(job.pc, &b.members);
                }
                self.link_jump_table();
            }
        }
    }

    /// Waits for the compiler thread and keeps what it compiled in the
    /// translation store, so that the store receives every block the run
    /// compiled (before the store is written).
    pub fn finish_compiles(&mut self) {
        let helpers = self.jit_links.helpers;
        while let Some(Done { job, code, .. }) = self.jit.finished(true) {
            if let Some(code) = code.filter(|_| self.jit.viewed() == Some(job.target.sites)) {
                self.keep_translation(&job.block, job.pc, job.compiled_for(), &code, &helpers);
            }
        }
    }

    /// The CPU is going (its process exited or exec'd): its compiler
    /// thread finishes the jobs still out without it and keeps each in the
    /// translation store, which waits for the thread before it is written
    /// (`TranslationStore::adopt`); without a store the jobs are dropped.
    /// (Waiting here instead cost a cold IDO `cc -c -O2` that compiles
    /// after 250 runs 100 to 175 ms of wall time at its processes' ends.)
    pub(crate) fn let_compiles_go(&mut self) {
        // (Without a thread nothing is out, and no compiler is to be made
        // for the fingerprint.)
        if !self.jit.has_worker() {
            return;
        }
        let helpers = self.jit_links.helpers;
        let sites = self.jit.viewed();
        let keeper = self.keeper(&helpers);
        let store = keeper.as_ref().map(|k| Arc::clone(&k.store));
        let keep = keeper.map(|k| {
            move |Done { job, code, .. }: Done| {
                if let Some(code) = code.filter(|_| sites == Some(job.target.sites)) {
                    k.save(&job.block, job.pc, job.compiled_for(), &code);
                }
            }
        });
        if let (Some(store), Some(thread)) = (store, self.jit.let_worker_go(keep)) {
            store.adopt(thread);
        }
    }

    /// Keeps `code`, compiled for `block` at `pc` as `target` says, in the
    /// translation store, if there is one.
    fn keep_translation(
        &mut self,
        block: &Block,
        pc: u32,
        target: CompiledFor,
        code: &[u8],
        helpers: &Helpers,
    ) {
        if let Some(keeper) = self.keeper(helpers) {
            keeper.save(block, pc, target, code);
        }
    }

    /// What saves this CPU's compiled code in its translation store, if it
    /// has one (and a compiler: the fingerprint is the compiler's).
    fn keeper(&mut self, helpers: &Helpers) -> Option<Keeper> {
        let store = self.translations.clone()?;
        let limit = self.config.jit_cache_bytes;
        let fingerprint = self.jit.fingerprint(helpers, limit)?;
        Some(Keeper {
            store,
            fingerprint,
            mode64: self.config.mode64,
        })
    }

    /// The key of the code this CPU would compile now for the block of
    /// `words` at `pc` (see [`translation_key`]): under its Status, and
    /// through the view unless the block's code page keeps to the soft
    /// TLB (see `view::Refusals`).
    fn translation_key(&self, fingerprint: u64, pc: u32, words: &[u32]) -> Key {
        let target = self.compiled_for(self.cp0.status, self.through_view(pc));
        translation_key(fingerprint, self.config.mode64, pc, target, words)
    }

    /// Whether code compiled now for the block at `pc` is to reach guest
    /// memory through the view (where there is one): unless the view
    /// refused its code page's functions too often (see
    /// `view::Refusals`).
    fn through_view(&self, pc: u32) -> bool {
        !self.view_refused.keeps_to_tlb(pc)
    }

    /// What code compiled under Status `status` is compiled for, `view`
    /// as [`Cpu::through_view`] says: through the view only where the
    /// compiler has one (as `Jit::target` makes a job's).
    fn compiled_for(&self, status: u32, view: bool) -> CompiledFor {
        CompiledFor {
            status,
            view: view && self.jit.viewed() == Some(true),
        }
    }

    /// With a translation store, on the compiled tier: gives `block`, just
    /// built at the PC on `page`, the code the store keeps for it, if any,
    /// so that it runs compiled from its first run (no Cranelift, no
    /// warm-up). The entry's members are built from `mem` and must have
    /// the words it was compiled for (see `region`), or the entry is not
    /// used.
    #[cold]
    #[inline(never)]
    pub(crate) fn load_translation<M: Memory>(
        &mut self,
        block: &mut Block,
        page: &mut Page,
        mem: &mut M,
        helpers: &Helpers,
    ) {
        if self.config.engine != Engine::Jit {
            return;
        }
        let Some(store) = self.translations.clone() else {
            return;
        };
        let pc = self.pc;
        let limit = self.config.jit_cache_bytes;
        let Some(fingerprint) = self.jit.fingerprint(helpers, limit) else {
            return;
        };
        let key = self.translation_key(fingerprint, pc, &block.words);
        let (jit, mode64) = (&mut self.jit, self.config.mode64);
        let loaded = store.load_with(&key, |bytes| {
            let (words, code) = region::unpack(bytes)?;
            block.members = region::build(page, pc, mem, mode64, &words)?;
            jit.install(block, pc, code, helpers, limit)
        });
        if let Some(Some(compiled)) = loaded {
            block.compiled = Some(compiled);
            region::claim(page, pc, &block.members);
            // A callee from another page (see `calls`): stores to its page
            // are checked from now on, and drop this function's.
            for (at, _) in block
                .members
                .iter()
                .filter(|(at, _)| region::is_callee(pc, *at))
            {
                self.mark_code(at >> PAGE_SHIFT);
            }
            self.jit.hold(pc, &block.members);
            self.jit.note_leaf(block, pc);
            self.block_cache_used += block
                .members
                .iter()
                .map(|(_, m)| m.insns.len())
                .sum::<usize>();
            self.link_jump_table();
        } else {
            block.members = Box::default();
            // Runs of earlier runs count: it compiles by the run that makes
            // them `compile_after` in all (at the latest on its next run).
            let after = self.config.compile_after.max(1);
            block.runs = store.heat(&key).min(after - 1);
            block.heated = block.runs > 0;
        }
    }

    /// Runs the compiled block at the PC if the jump table names it and
    /// blocks may chain (no observer wants each block): the run loop then
    /// skips the page lookup and its two cache misses (on a warm camera.c,
    /// 1.4% fewer host instructions). `None` leaves the PC to the block
    /// tier's page loop.
    #[inline(always)]
    pub(crate) fn run_linked<M: Memory, O: Observer>(
        &mut self,
        mem: &mut M,
        obs: &mut O,
        deadline: u64,
    ) -> Option<BlockEnd> {
        if !self.jit_chain {
            return None;
        }
        let f = self.jit.linked(self.pc)?;
        Some(self.enter_compiled(None, f, mem, obs, deadline))
    }

    /// Runs the compiled code of `b`, which starts at the PC: the same as
    /// the block tier's `exec_block` does with its instructions. The compiled code checks
    /// the schedule and, when the block runs to its end, applies its timing
    /// itself and may chain to the next compiled block (when `jit_chain`
    /// allows); an early end, of `b` or of a block it chained to, is
    /// finished here.
    #[inline(always)]
    pub(crate) fn run_compiled<M: Memory, O: Observer>(
        &mut self,
        b: &Block,
        mem: &mut M,
        obs: &mut O,
        deadline: u64,
    ) -> BlockEnd {
        let Some(f) = b.compiled else {
            return BlockEnd::Interpret;
        };
        self.jit.note_entry(b, self.pc, f);
        self.enter_compiled(Some(b), f, mem, obs, deadline)
    }

    /// Runs `f`, the compiled code of the block that starts at the PC
    /// (`entered`: that block, `None` when the jump table names it), as
    /// `run_compiled` does. A block that runs to its end and chains is not
    /// read here: an entry from the jump table reads only the table.
    #[inline(always)]
    fn enter_compiled<M: Memory, O: Observer>(
        &mut self,
        entered: Option<&Block>,
        f: JitFn,
        mem: &mut M,
        obs: &mut O,
        deadline: u64,
    ) -> BlockEnd {
        let Some(enter) = self.jit.entry() else {
            return BlockEnd::Interpret;
        };
        let landing = self.jit.landing();
        if landing.is_some() && !self.gprs_sign_extended() {
            return BlockEnd::Interpret;
        }
        let (entry, pc0) = (self.cycles, self.pc);
        // SAFETY: `f` was compiled for memory of type `M` (`run_blocks`
        // flushes compiled code when `M` changes), and its code, like that
        // of every block it may chain to, lives until the blocks are
        // dropped, which never happens during the call. Compiled code
        // reaches the CPU only through `cpu`, and the memory only through
        // the helper, which reads the pointer set in `jit_run` just before
        // (it lives for the call) and the entered block (alive too).
        self.compiled_entries += 1;
        self.jit_links.deadline = deadline;
        self.jit_links.member_deadline = if self.jit_chain { deadline } else { 0 };
        self.jit_run = JitRun {
            mem: mem as *mut M as usize,
            pc: pc0,
            block: entered.map_or(0, |b| b as *const Block as usize),
        };
        let cpu = self as *mut Cpu;
        let mut from_view = false;
        let word = match landing {
            Some(mut landing) => {
                self.jit_links.view = landing.view_base();
                // SAFETY: as `enter` itself; the landing's map is the code
                // memory's own.
                let word = unsafe { trap::call(enter as usize, cpu as usize, f.0, &mut landing) };
                match landing.hit {
                    Some((site, addr)) => {
                        from_view = true;
                        self.left_at_fault(site, addr, word)
                    }
                    None => word,
                }
            }
            None => unsafe { enter(cpu, f.0) },
        };
        let (i, kind, was_taken) = status::decode(word);
        match kind {
            status::INTERPRET => return BlockEnd::Interpret,
            status::NEXT => {
                // (Compiled code left its function's first address in
                // `last_block`.)
                self.last_from_code = true;
                if !self.jit_chain {
                    // Not chained: the block entered (from its page: the
                    // jump table is entered only where blocks chain) ran
                    // to its end.
                    // It ran up to instruction `i`: its end, or the slot of
                    // a side exit taken.
                    let b = entered.expect("unchained compiled code is entered with its block");
                    if O::TRANSFERS && was_taken {
                        let site = pc0.wrapping_add(4 * (i as u32 - 1));
                        let (target, sp) = (self.pc, self.jit_exit.sp);
                        report_transfer(obs, &b.insns[i - 1].op, site, target, sp);
                    }
                    obs.retire_block(pc0, i as u64 + 1, self.cycles - entry);
                }
                return BlockEnd::Done;
            }
            _ => {}
        }
        let head = self.pc;
        let (b, pc0) = self.ended_in(head, status::member(word));
        let b: *const Block = b;
        if pc0 != head {
            self.pc = pc0;
            self.next_pc = pc0.wrapping_add(4);
        }
        // SAFETY: blocks are dropped only by the run loop, between runs of
        // compiled code; the reference ends with this call.
        let b = unsafe { &*b };
        let entry = b.start(&self.scoreboard, self.cycles);
        // A branch taken before the end at `i` is the one just before it
        // (`i` is its slot: the block ends after a taken branch's slot).
        let taken = was_taken.then_some(self.jit_exit.target);
        if O::TRANSFERS {
            if let Some(target) = taken {
                let site = pc0.wrapping_add(4 * (i as u32 - 1));
                report_transfer(obs, &b.insns[i - 1].op, site, target, self.jit_exit.sp);
            }
        }
        let (body, taken) = match kind {
            status::SKIP => (Body::Skip(i), taken),
            status::CODE_WRITTEN => (Body::CodeWritten(i), taken),
            status::MISS_LOAD | status::MISS_STORE => {
                let how = (kind == status::MISS_STORE, from_view);
                self.after_miss(b, pc0, i, taken, how, mem, obs)
            }
            _ => (Body::Fault(i, self.fault_again(b, pc0, i, mem)), taken),
        };
        let end = self.finish_block(b, entry, pc0, body, taken, obs);
        // The view refused the page's code once too often (see
        // `view::Refusals`): its code goes, as after a store into it.
        if let BlockEnd::Done = end {
            if let Some(page_no) = self.view_refused.pending.take() {
                return BlockEnd::CodeWritten(page_no);
            }
        }
        end
    }

    /// The block a function that ended early ended in, and its address:
    /// the function left its first address `head` as the PC, and the
    /// number `m` of its member that ended in the end's word (see
    /// `region`). The function is the block entered from Rust or one the
    /// jump table names (every block compiled code chains to; the table
    /// changes only between runs of compiled code).
    #[cold]
    fn ended_in(&self, head: u32, m: usize) -> (&Block, u32) {
        let run = &self.jit_run;
        let first = if head == run.pc && run.block != 0 {
            // SAFETY: the run loop entered this block and drops blocks only
            // between runs of compiled code.
            unsafe { &*(run.block as *const Block) }
        } else {
            self.jit
                .linked_block(head)
                .expect("compiled code runs only blocks entered or chained to")
        };
        region::member(first, head, m).expect("compiled code ends only in its own members")
    }

    /// The access of instruction `i` of `b` (at `pc0`) missed the soft TLB
    /// in compiled code, which did nothing of it: the block tier runs the
    /// rest of the block from there (`taken`: the branch target, if the
    /// branch before `i` was taken), and the page is entered in the soft
    /// TLB when the access succeeded (a store's unless it wrote decoded
    /// code), so that the next run of the block stays compiled. Returns how
    /// the block ended and its branch target, as `run_body` does.
    #[cold]
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn after_miss<M: Memory, O: Observer>(
        &mut self,
        b: &Block,
        pc0: u32,
        i: usize,
        taken: Option<u32>,
        (store, from_view): (bool, bool),
        mem: &mut M,
        obs: &mut O,
    ) -> (Body, Option<u32>) {
        let addr = self.jit_exit.value as u32;
        let (body, taken) = self.run_body(b, pc0, i, taken, mem, obs);
        let stopped_at_i = match body {
            Body::Fault(j, _) | Body::CodeWritten(j) | Body::Skip(j) => j == i,
            Body::Done | Body::Exit(_) => false,
        };
        if !stopped_at_i {
            if store {
                self.tlb.fill_write(mem, addr);
            } else {
                self.tlb.fill_read(mem, addr);
            }
            // (A store's page holds no decoded code, or the store would
            // have stopped.)
            if let Some(view) = self.jit.view() {
                match mem.page_frame(addr, store) {
                    Some(frame) => view.map(addr, frame, store),
                    None if from_view => self.view_refused.count(pc0),
                    None => {}
                }
            }
        }
        (body, taken)
    }

    /// Whether each GPR, and HI and LO (which MFHI and MFLO copy into
    /// one whole), holds a 32-bit value sign-extended, as every
    /// instruction of a 32-bit program leaves its register (the view is
    /// made only for those, see `jit::view`): compiled code that goes
    /// through the view adds a base register to the view's base unchecked,
    /// which stays inside the view's reservation only then. A register
    /// written otherwise from outside (a signal's saved context restored,
    /// a debugger) keeps the CPU off compiled code until it is so again;
    /// the block tier and the interpreter raise such an address's error.
    fn gprs_sign_extended(&self) -> bool {
        let high = self
            .gpr
            .iter()
            .chain([&self.hi, &self.lo])
            .fold(0, |acc, &v| acc | (v ^ crate::exec::sx32(v as u32)));
        high == 0
    }

    /// Compiled code's access at `site` faulted in the view at guest
    /// address `addr`: leaves what the access's soft TLB miss would have
    /// (see `trap`), and returns its word (the site's `word`, which the
    /// function returned, with the branch's outcome where the run decided
    /// it).
    #[cold]
    fn left_at_fault(&mut self, site: Site, addr: u32, word: u64) -> u64 {
        self.pc = site.pc;
        self.next_pc = site.pc.wrapping_add(4);
        self.jit_exit.target = match site.flags & Site::TARGET_AT_RUN {
            0 => site.target,
            _ => super::fold(self.jit_exit.jump),
        };
        self.jit_exit.value = addr as u64;
        if site.flags & Site::SP != 0 {
            self.jit_exit.sp = self.gpr[Reg::SP.idx()] as u32;
        }
        self.view_faults += 1;
        match site.flags & Site::TAKEN_AT_RUN {
            0 => word,
            _ => word | (self.jit_exit.taken & 1) << status::TAKEN_SHIFT,
        }
    }

    /// The fault instruction `i` of `b` raised in compiled code. A faulting
    /// instruction changes nothing, so running it again from the same
    /// state raises the same fault, built by the one implementation.
    #[cold]
    fn fault_again<M: Memory>(&mut self, b: &Block, pc0: u32, i: usize, mem: &mut M) -> Fault {
        let pc = pc0.wrapping_add(4 * i as u32);
        match self.execute(b.insns[i].op, pc, mem) {
            Err(f) => f,
            Ok(flow) => {
                unreachable!("compiled code faulted at {pc:#x}, the interpreter did not ({flow:?})")
            }
        }
    }
}

/// Saves compiled code in a translation store under the keys of one CPU's
/// compiler; apart from the CPU, so that a compiler thread that outlives
/// its CPU saves as the CPU would (see `Cpu::let_compiles_go`).
struct Keeper {
    store: Arc<TranslationStore>,
    fingerprint: u64,
    mode64: bool,
}

impl Keeper {
    /// Saves `code`, compiled for `block` at `pc` as `target` says.
    fn save(&self, block: &Block, pc: u32, target: CompiledFor, code: &[u8]) {
        let key = translation_key(self.fingerprint, self.mode64, pc, target, &block.words);
        self.store.save(&key, &region::pack(&block.members, code));
    }
}

/// What one function's code was compiled for, beside the compiler's
/// fingerprint: the CP0 Status, and whether its accesses go through the
/// view of guest memory (the compiler has one, and the function's code
/// page does not keep to the soft TLB).
#[derive(Clone, Copy, Debug)]
struct CompiledFor {
    status: u32,
    view: bool,
}

impl Job {
    /// What the job's code is compiled for.
    fn compiled_for(&self) -> CompiledFor {
        CompiledFor {
            status: self.status,
            view: self.target.view,
        }
    }
}

/// The key of the block of `words` at `pc`, compiled as `target` says
/// (see `cache::Key`): the compiler looks only at Status.CU1 and FR.
fn translation_key(
    fingerprint: u64,
    mode64: bool,
    pc: u32,
    target: CompiledFor,
    words: &[u32],
) -> Key {
    let status = target.status & (cp0_status::CU1 | cp0_status::FR);
    Key::new(fingerprint, pc, words, mode64, status, target.view)
}
