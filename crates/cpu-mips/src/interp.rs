//! The interpreter: fetch from the decoded-code cache, issue (scoreboard),
//! execute, retire, advance the PC and the delay-slot state, one
//! instruction at a time. It is the reference every other tier is held to.
//!
//! Contents: `Cpu::run_pages`.
//!
//! Speed by design: the current page's decoded array is a local; the loop
//! leaves it only when the PC leaves the page (one mask-and-compare per
//! instruction, which also catches a misaligned PC), a store hits decoded
//! code, the deadline passes (one comparison) or an exception is raised.
//! Execution is a `match` on the decoded op, generic over the memory and
//! observer types (monomorphized: no dynamic dispatch, no allocation); an
//! observer without `TRANSFERS` costs nothing for jumps.

use crate::code_cache::{word_index, Entry, PageStore, PAGE_SHIFT};
use crate::cpu::Cpu;
use crate::decode::{decode_for_mode, Op};
use crate::exec::{load_fault, USER_TOP};
use crate::insn::Reg;
use crate::pipeline::{Fault, Flow};
use crate::timing::{operands, BRANCH_BUBBLES, ISSUE_CYCLES, NULLIFIED_SLOT_CYCLES};
use crate::{ExcCode, MemFault, Memory, Observer, StopReason, Transfer};

/// An instruction fetch the embedder refused: TLBL either way (a fetch TLB
/// miss or invalid page is TLBL on the R4000; a non-executable page has no
/// R4000 equivalent and is reported the same way).
fn fetch_fault(f: MemFault, pc: u32) -> Fault {
    load_fault(f, pc)
}

impl Cpu {
    /// The per-instruction loop. With `TO_BOUNDARY` (the block tier's
    /// fallback) it also returns, with `None`, at the next block boundary
    /// (after a delay slot or a nullified one) that leaves the page or has
    /// a block to run or build; it counts the visits to the others.
    pub(crate) fn run_pages<M: Memory, O: Observer, const TO_BOUNDARY: bool>(
        &mut self,
        pages: &mut PageStore,
        mem: &mut M,
        obs: &mut O,
        deadline: u64,
    ) -> Option<StopReason> {
        let mode64 = self.config.mode64;
        let mut pc = self.pc;
        let mut npc = self.next_pc;
        let mut in_delay = self.in_delay_slot;
        let mut cycles = self.cycles;
        let mut bubbles = self.pending_bubbles;
        let mut retired = self.retired;
        let mut fault: Option<Fault> = None;
        let mut boundary = false;
        'outer: loop {
            if cycles >= deadline {
                break;
            }
            if pc & 3 != 0 || pc as u64 >= USER_TOP {
                fault = Some(Fault::at(ExcCode::AdEL, pc));
                break;
            }
            let page_no = pc >> PAGE_SHIFT;
            let base = page_no << PAGE_SHIFT;
            let page = pages.page(page_no);
            let written: u32 = loop {
                let idx = word_index(pc);
                // The instruction is read in place (see `Cpu::execute_ref`),
                // decoded on first use; its timing operands are copied, so
                // that the scoreboard's lookups need no load after the
                // dispatch (read in place, they made a five-instruction
                // integer loop a third slower).
                let Entry { op: slot, t } = &mut page.entries[idx];
                let op: &Op = match slot {
                    Some(op) => op,
                    None => match mem.fetch32(pc) {
                        Ok(word) => {
                            let op = decode_for_mode(word, mode64);
                            *t = operands(&op);
                            self.mark_code(page_no);
                            slot.insert(op)
                        }
                        Err(f) => {
                            fault = Some(fetch_fault(f, pc));
                            break 'outer;
                        }
                    },
                };
                let t = *t;
                let issue = self.scoreboard.issue_cycle(cycles, &t);
                let flow = match self.execute_ref(op, pc, mem) {
                    Ok(flow) => flow,
                    Err(f) => {
                        fault = Some(f);
                        break 'outer;
                    }
                };
                self.scoreboard.retire(issue, &t);
                let this_pc = pc;
                let was_in_delay = in_delay;
                let mut charged = issue + ISSUE_CYCLES - cycles;
                cycles = issue + ISSUE_CYCLES + bubbles;
                bubbles = 0;
                retired += 1;
                match flow {
                    Flow::Next => {
                        pc = npc;
                        npc = pc.wrapping_add(4);
                        in_delay = false;
                    }
                    Flow::NoBranch => {
                        pc = npc;
                        npc = pc.wrapping_add(4);
                        in_delay = true;
                    }
                    Flow::Branch(target) => {
                        if O::TRANSFERS {
                            if let Some(kind) = Transfer::kind_of(op) {
                                obs.transfer(Transfer {
                                    kind,
                                    site: this_pc,
                                    target,
                                    sp: self.r(Reg::SP) as u32,
                                });
                            }
                        }
                        pc = npc;
                        npc = target;
                        in_delay = true;
                        bubbles = BRANCH_BUBBLES;
                        charged += BRANCH_BUBBLES;
                    }
                    Flow::Skip => {
                        pc = npc.wrapping_add(4);
                        npc = pc.wrapping_add(4);
                        in_delay = false;
                        cycles += NULLIFIED_SLOT_CYCLES;
                        charged += NULLIFIED_SLOT_CYCLES;
                    }
                    Flow::CodeWritten => {
                        pc = npc;
                        npc = pc.wrapping_add(4);
                        in_delay = false;
                        obs.retire(this_pc, charged);
                        break self.written_code_page;
                    }
                }
                obs.retire(this_pc, charged);
                if cycles >= deadline {
                    break 'outer;
                }
                if TO_BOUNDARY && !in_delay && (was_in_delay || flow == Flow::Skip) {
                    // A block entry. Cold code on this page stays here (the
                    // visit is counted); the block tier takes over where a
                    // block runs or is due to be built, and off the page.
                    let same_page = pc & 0xffff_f003 == base;
                    let idx = word_index(pc);
                    if !same_page || page.block_entry_warm(idx) {
                        boundary = true;
                        break 'outer;
                    }
                }
                if pc & 0xffff_f003 != base {
                    continue 'outer;
                }
            };
            self.drop_code_page(pages, written);
        }
        self.cycles = cycles;
        self.retired_singly += retired - self.retired;
        self.retired = retired;
        self.pending_bubbles = bubbles;
        self.pc = pc;
        self.next_pc = npc;
        self.in_delay_slot = in_delay;
        match fault {
            None if boundary => None,
            None => Some(StopReason::Deadline),
            Some(f) => Some(StopReason::Exception(self.enter_exception(f, pc, in_delay))),
        }
    }
}
