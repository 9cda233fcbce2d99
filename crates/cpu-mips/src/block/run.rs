//! The block tier's run loop: whole blocks (see `block`) at a time, with
//! the per-instruction loop of `run` as the fallback.
//!
//! Contents: `Cpu::run_blocks`, `Cpu::exec_block` (a block's instructions
//! one by one in `run_body`, or its compiled code through the compiled
//! tier, `jit::tier`; the timing in `finish_block`), and the two ways a
//! block stops early (`block_fault`, `block_stopped_after`).
//!
//! The compiled tier is reached through these calls only, none unsafe and
//! none naming a Cranelift type: `start_compiled_tier` (each run),
//! `run_linked` (the compiled block at the PC, when the jump table names
//! it), `count_run` (which compiles a hot block, or sends it to the
//! compiler thread), `install_compiled` (code back from that thread),
//! `run_compiled` (a block that has code) and the cache's bound and flush
//! (`JitCache::full`, `flush`).
//!
//! A block runs as a unit when the CPU is not in a delay slot, its static
//! schedule holds (every incoming register ready by its first reader, the
//! first instruction's own stall allowed, see `Block::start`) and the clock
//! after its second-to-last instruction is before the deadline.
//! It then pays for the PC/delay-slot bookkeeping, the retired count, the
//! deadline check and the scoreboard once, not per instruction. Everything
//! else (a cold entry, a late register, a block straddling the deadline,
//! an instruction that always traps) is interpreted up to the next block
//! boundary. Either way the state after each run is exactly the
//! interpreter's: the same registers, memory, scoreboard, cycle count and
//! retired count, and the same stop (checked by the lockstep tests).
//!
//! An instruction that faults inside a block leaves the precise state the
//! interpreter would have: the instructions before it complete, their
//! scoreboard writes are replayed from the schedule, and the clock reads
//! what it read before the faulting instruction. A store into decoded code
//! ends the block after that store, and the page's blocks are dropped.
//!
//! The blocks are a cache bounded by `CpuConfig::block_cache_insns` (and,
//! on the compiled tier, their code by `CpuConfig::jit_cache_bytes`): when
//! one more block could pass it, every block and all compiled code are
//! dropped (the decoded instructions stay) and blocks are rebuilt as the
//! code runs again.

use crate::block::{Block, MAX_LEN};
use crate::code_cache::{word_index, Page, PageStore, NO_BLOCK, PAGE_SHIFT};
use crate::cpu::{Cpu, NO_BLOCK_RAN};
use crate::decode::Op;
use crate::exec::USER_TOP;
use crate::insn::Reg;
use crate::jit::Helpers;
use crate::pipeline::{Fault, Flow};
use crate::timing::{BRANCH_BUBBLES, ISSUE_CYCLES, NULLIFIED_SLOT_CYCLES};
use crate::{Memory, Observer, StopReason, Transfer};

/// How a block's instructions ended, before its timing is applied.
pub(crate) enum Body {
    /// All of them ran.
    Done,
    /// Instruction `i`, the delay slot of a side exit's branch that was
    /// taken, ran: the block ends there (see `block::side_exit`).
    Exit(usize),
    /// Instruction `i`, a branch-likely not taken, nullified its slot.
    Skip(usize),
    /// Instruction `i` raised this fault and had no effect.
    Fault(usize, Fault),
    /// Instruction `i`, a store, wrote to a page of decoded code.
    CodeWritten(usize),
}

/// Tells `obs` of the transfer `op` (at `site`) made to `target`, if it is
/// a call, return or jump; `sp` is $sp just after it executed.
#[inline(always)]
pub(crate) fn report_transfer<O: Observer>(obs: &mut O, op: &Op, site: u32, target: u32, sp: u32) {
    if let Some(kind) = Transfer::kind_of(op) {
        obs.transfer(Transfer {
            kind,
            site,
            target,
            sp,
        });
    }
}

/// How one block run ended.
pub(crate) enum BlockEnd {
    /// It ran to its end.
    Done,
    /// Its schedule does not hold now: interpret it instead.
    Interpret,
    /// An instruction raised this fault; the CPU's state is precise (the
    /// PC names that instruction).
    Fault(Fault),
    /// A store wrote to this page of decoded code; the CPU's state is just
    /// after that store. (Also a page whose code is to go for another
    /// reason, after a block that ended as usual: see
    /// `jit::view::Refusals`.)
    CodeWritten(u32),
}

impl Cpu {
    /// [`Cpu::run`] on the block tier, for an observer that needs no
    /// per-instruction [`Observer::retire`]: it is told of each block's
    /// instructions and cycles at once ([`Observer::retire_block`]) and,
    /// when it wants them, of its transfers.
    pub(crate) fn run_blocks<M: Memory, O: Observer>(
        &mut self,
        pages: &mut PageStore,
        mem: &mut M,
        obs: &mut O,
        deadline: u64,
    ) -> StopReason {
        let helpers = self.start_compiled_tier::<M, O>(pages, mem);
        // A page whose code was to go when a fault ended the last run (see
        // `jit::view::Refusals`; otherwise it goes at once).
        if let Some(page_no) = self.view_refused.pending.take() {
            self.drop_code_page(pages, page_no);
        }
        loop {
            if self.cycles >= deadline {
                return StopReason::Deadline;
            }
            if self.jit.any_back() {
                self.install_compiled(pages, &helpers);
            }
            let pc = self.pc;
            if !self.in_delay_slot && pc & 3 == 0 && (pc as u64) < USER_TOP {
                let end = match self.run_linked(mem, obs, deadline) {
                    Some(end) => end,
                    None => self.run_page_blocks(pages, mem, obs, deadline, &helpers),
                };
                match end {
                    BlockEnd::Done => continue,
                    BlockEnd::Interpret => {}
                    BlockEnd::Fault(f) => {
                        let e = self.enter_exception(f, self.pc, self.in_delay_slot);
                        return StopReason::Exception(e);
                    }
                    BlockEnd::CodeWritten(page_no) => {
                        self.drop_code_page(pages, page_no);
                        continue;
                    }
                }
            }
            self.last_block = NO_BLOCK_RAN;
            if let Some(stop) = self.run_pages::<M, O, true>(pages, mem, obs, deadline) {
                return stop;
            }
        }
    }

    /// Runs the blocks of the PC's page one after another while control
    /// stays on the page. `Done` means control left the page (or the
    /// deadline passed) after a block; `Interpret` that the PC's entry has
    /// no block to run now.
    fn run_page_blocks<M: Memory, O: Observer>(
        &mut self,
        pages: &mut PageStore,
        mem: &mut M,
        obs: &mut O,
        deadline: u64,
        helpers: &Helpers,
    ) -> BlockEnd {
        if self.cache_full() {
            self.flush_blocks(pages);
            self.block_cache_flushes += 1;
        }
        let page_no = self.pc >> PAGE_SHIFT;
        let page = pages.page(page_no);
        loop {
            let idx = word_index(self.pc);
            if !self.block_ready(page, page_no, idx, mem, helpers) {
                return BlockEnd::Interpret;
            }
            self.count_run(page, idx, helpers);
            let Some(block) = &page.blocks[idx] else {
                return BlockEnd::Interpret;
            };
            match self.exec_block(block, mem, obs, deadline) {
                BlockEnd::Done => {}
                end => return end,
            }
            let pc = self.pc;
            if self.cycles >= deadline || pc >> PAGE_SHIFT != page_no || pc & 3 != 0 {
                return BlockEnd::Done;
            }
        }
    }

    /// Whether word `idx` of `page` has a block to run: counts a visit to a
    /// cold entry and builds its block on the visit that makes it warm.
    fn block_ready<M: Memory>(
        &mut self,
        page: &mut Page,
        page_no: u32,
        idx: usize,
        mem: &mut M,
        helpers: &Helpers,
    ) -> bool {
        // The hot case, a built block, without counting a visit.
        if let Some(Some(_)) = page.blocks.get(idx) {
            return true;
        }
        if !page.block_entry_warm(idx) {
            return false;
        }
        if self.cache_full() {
            // Interpreted this time; `run_page_blocks` empties the cache
            // when it is next entered, and the visit after builds.
            return false;
        }
        let block = Block::build(page, self.pc, mem, self.config.mode64);
        // Building decoded instructions into the page: stores must see it.
        self.mark_code(page_no);
        match block {
            Some(b) => {
                self.block_cache_used += b.insns.len();
                // Boxed first: the jump table knows its block by address.
                let mut b = Box::new(b);
                self.load_translation(&mut b, page, mem, helpers);
                page.blocks[idx] = Some(b);
                true
            }
            None => {
                page.visits[idx] = NO_BLOCK;
                false
            }
        }
    }

    /// Whether building (or compiling) one more block could pass the
    /// cache's bound.
    fn cache_full(&self) -> bool {
        self.block_cache_used + MAX_LEN > self.config.block_cache_insns || self.jit.full()
    }

    /// Drops every block and all compiled code (which only blocks refer
    /// to): the caches' eviction.
    pub(crate) fn flush_blocks(&mut self, pages: &mut PageStore) {
        pages.drop_blocks();
        self.jit.flush();
        self.block_cache_used = 0;
    }

    /// Runs `b`, which starts at the PC, as one unit if its schedule holds:
    /// its compiled code when it has some, else its instructions one after
    /// another; then applies its timing.
    #[inline(always)]
    fn exec_block<M: Memory, O: Observer>(
        &mut self,
        b: &Block,
        mem: &mut M,
        obs: &mut O,
        deadline: u64,
    ) -> BlockEnd {
        if b.compiled.is_some() {
            return self.run_compiled(b, mem, obs, deadline);
        }
        let entry = b.start(&self.scoreboard, self.cycles);
        if !b.holds(&self.scoreboard, entry, deadline) {
            return BlockEnd::Interpret;
        }
        let pc0 = self.pc;
        let (body, taken) = self.run_body(b, pc0, 0, None, mem, obs);
        self.finish_block(b, entry, pc0, body, taken, obs)
    }

    /// Executes the instructions of `b` (at `pc0`) one after another from
    /// instruction `from` (`taken`: the branch target, when the branch is
    /// before `from` and was taken), until its end or an instruction that
    /// stops it. Returns how it ended and the branch target once the
    /// branch is taken.
    #[inline(always)]
    pub(crate) fn run_body<M: Memory, O: Observer>(
        &mut self,
        b: &Block,
        pc0: u32,
        from: usize,
        mut taken: Option<u32>,
        mem: &mut M,
        obs: &mut O,
    ) -> (Body, Option<u32>) {
        // Only a branch returns anything but Next or CodeWritten; `taken`
        // is its target once it is taken, so that a fault or store in the
        // delay slot sees it. A slot run after a taken branch ends the
        // block there (a side exit, when it is not the last instruction).
        // `rest` holds the instructions still to run: the taken branch
        // cuts it to its slot, so the loop itself tests nothing but its
        // end (and indexes nothing).
        let n = b.insns.len();
        let end = if taken.is_some() { n.min(from + 1) } else { n };
        let mut rest = b.insns[from..end].iter();
        // The PC is the one counter the loop keeps: an instruction's index
        // is its distance from `pc0`, worked out only where the run stops.
        let at = |pc: u32| (pc.wrapping_sub(pc0) >> 2) as usize;
        let mut pc = pc0.wrapping_add(4 * from as u32);
        while let Some(insn) = rest.next() {
            match self.execute_ref(&insn.op, pc, mem) {
                Ok(Flow::Next | Flow::NoBranch) => {}
                Ok(Flow::Branch(target)) => {
                    taken = Some(target);
                    let slot = rest.as_slice();
                    rest = slot[..slot.len().min(1)].iter();
                    if O::TRANSFERS {
                        let sp = self.r(Reg::SP) as u32;
                        report_transfer(obs, &insn.op, pc, target, sp);
                    }
                }
                Ok(Flow::Skip) => return (Body::Skip(at(pc)), None),
                Ok(Flow::CodeWritten) => return (Body::CodeWritten(at(pc)), taken),
                Err(f) => return (Body::Fault(at(pc), f), taken),
            }
            pc = pc.wrapping_add(4);
        }
        let i = at(pc);
        if i < n {
            (Body::Exit(i - 1), taken)
        } else {
            (Body::Done, taken)
        }
    }

    /// Applies the timing of `b`, whose first instruction issued at cycle
    /// `entry` (see [`Block::start`]), after its body ended as `body`
    /// (`taken`: its branch target once taken). The observer is charged
    /// from the clock before the block, a first instruction's stall
    /// included.
    #[inline(always)]
    pub(crate) fn finish_block<O: Observer>(
        &mut self,
        b: &Block,
        entry: u64,
        pc0: u32,
        body: Body,
        taken: Option<u32>,
        obs: &mut O,
    ) -> BlockEnd {
        let n = b.insns.len();
        let before = self.cycles;
        self.last_block = pc0;
        self.last_from_code = false;
        match body {
            Body::Done => {
                let bubbles = if taken.is_some() { BRANCH_BUBBLES } else { 0 };
                self.cycles = entry + b.insns[n - 1].issue as u64 + ISSUE_CYCLES + bubbles;
                self.retired += n as u64;
                if b.compiled.is_none() {
                    self.retired_block_tier += n as u64;
                }
                self.set_ready_from(entry, &b.out);
                if let Some(t) = taken {
                    // (Read only where the end is a jump through a
                    // register: the callee a function may compile in.)
                    b.jumped.set(t);
                }
                self.continue_at(taken.unwrap_or(pc0.wrapping_add(4 * n as u32)));
                obs.retire_block(pc0, n as u64, self.cycles - before);
                BlockEnd::Done
            }
            Body::Exit(i) => {
                // A side exit: as a block that ended with this slot.
                let issue = b.insns[i].issue as u64;
                self.cycles = entry + issue + ISSUE_CYCLES + BRANCH_BUBBLES;
                self.retired += (i + 1) as u64;
                if b.compiled.is_none() {
                    self.retired_block_tier += (i + 1) as u64;
                }
                self.set_ready_from(entry, b.side_out(i));
                self.continue_at(taken.expect("a side exit's branch was taken"));
                obs.retire_block(pc0, (i + 1) as u64, self.cycles - before);
                BlockEnd::Done
            }
            Body::Skip(i) => {
                // A branch-likely not taken: the slot is nullified.
                let issue = b.insns[i].issue as u64;
                self.cycles = entry + issue + ISSUE_CYCLES + NULLIFIED_SLOT_CYCLES;
                self.retired += (n - 1) as u64;
                if b.compiled.is_none() {
                    self.retired_block_tier += (n - 1) as u64;
                }
                self.set_ready_from(entry, &b.out_skip);
                self.continue_at(pc0.wrapping_add(4 * n as u32));
                obs.retire_block(pc0, (n - 1) as u64, self.cycles - before);
                BlockEnd::Done
            }
            Body::CodeWritten(i) => {
                let end = self.block_stopped_after(b, entry, pc0, i, taken);
                obs.retire_block(pc0, (i + 1) as u64, self.cycles - before);
                end
            }
            Body::Fault(i, f) => {
                let end = self.block_fault(b, entry, pc0, i, f, taken);
                obs.retire_block(pc0, i as u64, self.cycles - before);
                end
            }
        }
    }

    /// Sequential execution from `pc`, no branch pending.
    #[inline(always)]
    fn continue_at(&mut self, pc: u32) {
        self.pc = pc;
        self.next_pc = pc.wrapping_add(4);
        self.in_delay_slot = false;
        self.pending_bubbles = 0;
    }

    /// Sets each slot of `times` ready at its offset from `entry` (a
    /// block's outgoing scoreboard, see `Block::out`).
    #[inline(always)]
    fn set_ready_from(&mut self, entry: u64, times: &[(u8, u32)]) {
        for &(slot, at) in times {
            self.scoreboard.set_ready(slot, entry + at as u64);
        }
    }

    /// Replays the scoreboard writes of instructions `..upto` of `b`, the
    /// first issued at `first` (see `Block::first_issue`), the others at
    /// their offsets from `entry`.
    fn replay_scoreboard(&mut self, b: &Block, (first, entry): (u64, u64), upto: usize) {
        for (k, insn) in b.insns[..upto].iter().enumerate() {
            let from = if k == 0 { first } else { entry };
            let ready = from + insn.issue as u64 + insn.t.latency as u64;
            self.scoreboard.set_ready(insn.t.dst, ready);
        }
    }

    /// Where an early end at instruction `i` of `b`, entered at `entry`,
    /// counts from: the first instruction's own issue (see
    /// `Block::first_issue`), and `entry` for the rest, or the first's issue
    /// too while the second is charged nothing (it faulted, or never
    /// issued).
    fn early_entries(&self, b: &Block, entry: u64, charged_second: bool) -> (u64, u64) {
        let first = b.first_issue(&self.scoreboard, self.cycles);
        (first, if charged_second { entry } else { first })
    }

    /// Instruction `i` of `b` raised `f`: the state the interpreter has
    /// before it. `taken` is the branch target when `i` is the delay slot of
    /// a taken branch.
    #[cold]
    fn block_fault(
        &mut self,
        b: &Block,
        entry: u64,
        pc0: u32,
        i: usize,
        f: Fault,
        taken: Option<u32>,
    ) -> BlockEnd {
        // (A faulting instruction is charged nothing, not even its stall:
        // a fault at the first leaves the clock where it was, one at the
        // second counts from the first's issue.)
        let (first, entry) = self.early_entries(b, entry, i > 1);
        self.replay_scoreboard(b, (first, entry), i);
        if i > 0 {
            self.cycles = entry + b.insns[i - 1].issue as u64 + ISSUE_CYCLES;
        }
        self.retired += i as u64;
        self.retired_singly += i as u64;
        let pc = pc0.wrapping_add(4 * i as u32);
        // In the slot of the block's last branch or of a side exit's.
        let in_slot = i > 0 && b.insns[i - 1].op.has_delay_slot();
        self.pc = pc;
        self.next_pc = if in_slot {
            taken.unwrap_or(pc.wrapping_add(4))
        } else {
            pc.wrapping_add(4)
        };
        self.in_delay_slot = in_slot;
        self.pending_bubbles = if in_slot && taken.is_some() {
            BRANCH_BUBBLES
        } else {
            0
        };
        BlockEnd::Fault(f)
    }

    /// Instruction `i` of `b` (a store) wrote decoded code: the state the
    /// interpreter has just after it.
    #[cold]
    fn block_stopped_after(
        &mut self,
        b: &Block,
        entry: u64,
        pc0: u32,
        i: usize,
        taken: Option<u32>,
    ) -> BlockEnd {
        let (first, entry) = self.early_entries(b, entry, i > 0);
        self.replay_scoreboard(b, (first, entry), i + 1);
        let bubbles = if taken.is_some() { BRANCH_BUBBLES } else { 0 };
        self.cycles = entry + b.insns[i].issue as u64 + ISSUE_CYCLES + bubbles;
        self.retired += (i + 1) as u64;
        self.retired_singly += (i + 1) as u64;
        let after = pc0.wrapping_add(4 * (i as u32 + 1));
        self.continue_at(taken.unwrap_or(after));
        BlockEnd::CodeWritten(self.written_code_page)
    }
}
