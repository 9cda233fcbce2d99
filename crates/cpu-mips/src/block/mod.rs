//! The block tier's unit: a straight run of decoded instructions that ends
//! with a branch and its delay slot (or before an instruction that always
//! traps, at the page's end, or at [`MAX_LEN`]), with its timing worked out
//! once, when it is built.
//!
//! Contents: [`Block`] and [`Block::build`] (the static schedule).
//!
//! A block goes on past a conditional branch (BEQ, BNE, BLEZ, BGTZ, BLTZ,
//! BGEZ, BC1F, BC1T: not a likely, linking or always-taken one) and its
//! delay slot: when such a branch is not taken, the block runs on, as the
//! per-instruction path would; when it is taken, the block ends after the
//! slot (a side exit), exactly as a block that ended there would. It
//! stops at the target of a side exit ahead (where the taken path joins),
//! so that the code there is not copied into every block that falls into
//! it. A quarter of the blocks an IDO compile ran ended at a branch not
//! taken (30.6 M of 120 M on a 2,000-line `cc -c -O2`), each a block
//! boundary that cost an entry, its checks and a lookup.
//!
//! The static schedule is the scoreboard's arithmetic (see `timing`) done
//! with the entry cycle as zero and every register the block reads before
//! writing it assumed ready. Each instruction then issues at a fixed offset
//! from the entry, and the block leaves every register it writes ready at a
//! fixed offset. At run time one comparison per such incoming register
//! ([`Block::live_in`]: "ready by the offset of its first reader") shows
//! whether the assumption holds; when it does, the block's cycles, retired
//! count and scoreboard are exactly what the per-instruction path would
//! have produced, and they are applied in one step. When it does not, the
//! run loop interprets the block instead (`block::run`).
//!
//! One kind of late register does not spoil the schedule: one the first
//! instruction reads (a load's result read at the top of the next block,
//! the usual case). The first instruction then stalls until it is ready,
//! and from there on the block runs exactly as if it had been entered at
//! that cycle, so the schedule holds from [`Block::start`]. So does one the
//! second instruction reads, when no reader can tell when the first issued
//! and the second cannot stop the block before it issues
//! ([`absorbs_second_reads`]: the first an integer operation ready a cycle
//! later, or a load or store whose result the next two do not read): the
//! second then issues when the register is ready, as it would had the
//! block been entered a cycle before that; an end before or at the second
//! counts from the first's own issue ([`Block::first_issue`]). (A block
//! that starts a page after a load at the end of the page before, or an
//! epilogue `lw $s0; jr $ra` after the load of `$ra`: 122 K entries of a
//! warm IDO compile ran one instruction at a time for them.)

pub(crate) mod run;

use std::cell::Cell;

use crate::code_cache::{Entry, Page, PAGE_SHIFT, PAGE_WORDS};
use crate::decode::{decode_for_mode, Op};
use crate::insn::{branch_target, jump_target};
use crate::jit::JitFn;
use crate::timing::{
    Operands, Scoreboard, ISSUE_CYCLES, MAX_GPR_LATENCY, SLOTS, SLOT_HILO, SLOT_SINK, SLOT_ZERO,
};
use crate::Memory;

/// At most this many instructions in one block (the delay slot included).
pub(crate) const MAX_LEN: usize = 64;

/// Visits of a block entry before its block is built: code that runs once
/// (start-up, a long straight-line program) is interpreted, never built.
pub(crate) const BUILD_AFTER: u8 = 2;

/// One instruction of a block.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BlockInsn {
    pub op: Op,
    pub t: Operands,
    /// Issue cycle, counted from the block's entry.
    pub issue: u32,
}

/// The blocks a block's compiled code holds after it, each with its first
/// address (see `Block::members`).
pub(crate) type Members = Box<[(u32, Block)]>;

/// Slots with the offset, from a block's entry, at which each is ready.
pub(crate) type SlotTimes = Box<[(u8, u32)]>;

/// A block and its static schedule.
#[derive(Clone, Debug)]
pub(crate) struct Block {
    /// The instructions in address order; with [`Block::branch`], the last
    /// two are the branch and its delay slot. Any earlier instruction
    /// with a delay slot is a side exit's branch (see [`side_exit`]).
    pub insns: Box<[BlockInsn]>,
    /// The block ends with a branch or jump and its delay slot.
    pub branch: bool,
    /// Every slot read before the block writes it, with the issue offset of
    /// its first reader: the block's schedule holds iff each is ready by
    /// then, counted from [`Block::start`]. Those the first instruction
    /// reads come first, with offset 0.
    pub live_in: Box<[(u8, u32)]>,
    /// How many of `live_in` the entry waits for (see [`Block::start`]):
    /// those the first instruction reads, and those the second reads when
    /// [`absorbs_second_reads`].
    pub first_reads: u8,
    /// Ready offsets of the slots the block writes (the last writer's), for
    /// a block that ran to its end.
    pub out: SlotTimes,
    /// The same without the delay slot: a branch-likely not taken
    /// nullifies it.
    pub out_skip: SlotTimes,
    /// For each side exit (see [`Block::side_exit_slot`]), its slot's
    /// index and [`Block::side_out`] there: what a run that leaves there
    /// sets, instead of replaying every instruction before it.
    pub side_outs: Box<[(u32, SlotTimes)]>,
    /// The clock after the second-to-last instruction, from the entry: the
    /// block may run as a unit only if this is before the deadline (the
    /// per-instruction path would otherwise stop inside it).
    pub guard: u32,
    /// Its compiled code, once it is hot (see `jit`).
    pub compiled: Option<JitFn>,
    /// Runs as a whole block while not compiled (saturating): it is
    /// compiled once, on the run that makes it `CpuConfig::compile_after`.
    pub runs: u32,
    /// Its instruction words: what compiled code hands the interpreter for
    /// an instruction it does not inline (see `jit::helpers`), and the key
    /// of its entry when compiled code is kept on disk (see `jit::cache`).
    pub words: Box<[u32]>,
    /// `runs` started from earlier processes' count (`jit::store::heat`).
    pub heated: bool,
    /// The first block of the function it runs inside as a member (see
    /// `jit::region`), if any: its runs count toward compiling it alone
    /// only when control comes to it from outside that function.
    pub claimed_by: Option<u32>,
    /// The blocks its compiled code holds after it, each with its first
    /// address (see `jit::region`): member `m` of the code is
    /// `members[m - 1]`. Empty unless it is compiled with some.
    pub members: Members,
    /// Where its end last jumped to when the block tier ran it, for a
    /// block that ends with a jump through a register: the callee a
    /// function may compile in after it (see `jit::region::select`).
    pub jumped: Cell<u32>,
}

/// An instruction a block never contains: it always raises an exception,
/// so the per-instruction path handles it.
fn always_traps(op: &Op) -> bool {
    use Op::*;
    matches!(
        op,
        Syscall { .. }
            | Break { .. }
            | Cop0 { .. }
            | Cache { .. }
            | Cop1Reserved { .. }
            | Cop2 { .. }
            | Reserved { .. }
    )
}

/// The target of `op` (at `pc`) when a block goes on past it when it is
/// not taken (a side exit): a conditional branch that is not likely (whose
/// not-taken path skips the slot), does not link (a call, which the call
/// graph sees end a block) and is not always taken (`beq r, r`, `bgez
/// $zero`: a jump).
pub(crate) fn side_exit(op: &Op, pc: u32) -> Option<u32> {
    use Op::*;
    let off = match *op {
        Beq { rs, rt, off } if rs != rt => off,
        Bgez { rs, off } | Blez { rs, off } if rs.idx() != 0 => off,
        Bne { off, .. } | Bgtz { off, .. } | Bltz { off, .. } | Bc1f { off } | Bc1t { off } => off,
        _ => return None,
    };
    Some(branch_target(pc, off))
}

/// The static target of a branch or jump, where it has one.
pub(crate) fn static_target(op: &Op, pc: u32) -> Option<u32> {
    use Op::*;
    match *op {
        Beq { off, .. }
        | Bne { off, .. }
        | Blez { off, .. }
        | Bgtz { off, .. }
        | Beql { off, .. }
        | Bnel { off, .. }
        | Blezl { off, .. }
        | Bgtzl { off, .. }
        | Bltz { off, .. }
        | Bgez { off, .. }
        | Bltzl { off, .. }
        | Bgezl { off, .. }
        | Bltzal { off, .. }
        | Bgezal { off, .. }
        | Bltzall { off, .. }
        | Bgezall { off, .. }
        | Bc1f { off }
        | Bc1t { off }
        | Bc1fl { off }
        | Bc1tl { off } => Some(branch_target(pc, off)),
        J { target } | Jal { target } => Some(jump_target(pc, target)),
        _ => None,
    }
}

/// Whether `block` (at `pc0`) branches back to its own start.
pub(crate) fn loops_to_itself(block: &Block, pc0: u32) -> bool {
    let n = block.insns.len();
    block.branch && {
        let pc = pc0.wrapping_add(4 * (n as u32 - 2));
        static_target(&block.insns[n - 2].op, pc) == Some(pc0)
    }
}

/// The instruction at word `idx` of `page` (at address `pc`) and its
/// word, decoding and caching it on first use; `None` if the fetch fails.
fn entry_at<M: Memory>(
    page: &mut Page,
    idx: usize,
    pc: u32,
    mem: &mut M,
    mode64: bool,
) -> Option<(Entry, u32)> {
    let word = mem.fetch32(pc).ok()?;
    let e = page.entries[idx];
    if e.op.is_some() {
        return Some((e, word));
    }
    let e = Entry::new(decode_for_mode(word, mode64));
    page.entries[idx] = e;
    Some((e, word))
}

impl Block {
    /// Builds the block that starts at `pc` (word-aligned, on `page`),
    /// decoding through the page's cache. `None` when no instruction can
    /// start a block here. The caller marks the page as holding code.
    #[cold]
    #[inline(never)]
    pub fn build<M: Memory>(page: &mut Page, pc: u32, mem: &mut M, mode64: bool) -> Option<Block> {
        let base = pc & !((1 << PAGE_SHIFT) - 1);
        let first = ((pc - base) >> 2) as usize;
        // On the stack: a block is built in every process that runs it
        // (and most are loaded compiled from the translation cache), so
        // its building allocates only what the block keeps.
        let mut ops = [Entry::EMPTY; MAX_LEN];
        let mut words = [0u32; MAX_LEN];
        let mut len = 0;
        let mut joins = [0u32; MAX_LEN / 2];
        let mut n_joins = 0;
        let mut idx = first;
        while idx < PAGE_WORDS && len < MAX_LEN {
            let at = base + (idx as u32) * 4;
            if joins[..n_joins].contains(&at) {
                break;
            }
            let Some((e, word)) = entry_at(page, idx, at, mem, mode64) else {
                break;
            };
            let op = e.op?;
            if always_traps(&op) {
                break;
            }
            if op.has_delay_slot() {
                // The branch and its slot go in together, or neither: the
                // slot must be on this page, fit, and not be a branch itself
                // (or a trap, which the per-instruction path handles).
                if idx + 1 >= PAGE_WORDS || len + 2 > MAX_LEN {
                    break;
                }
                let Some((slot, slot_word)) = entry_at(page, idx + 1, at + 4, mem, mode64) else {
                    break;
                };
                let slot_op = slot.op?;
                if slot_op.has_delay_slot() || always_traps(&slot_op) {
                    break;
                }
                ops[len] = e;
                ops[len + 1] = slot;
                words[len] = word;
                words[len + 1] = slot_word;
                len += 2;
                let side = side_exit(&op, at);
                if side.is_some() && idx + 2 < PAGE_WORDS && len < MAX_LEN {
                    // Not taken, the block goes on after the slot, up to
                    // the target when it is ahead (where the taken path
                    // joins: the block there is not copied into this one).
                    if let Some(t) = side.filter(|&t| t > at + 4) {
                        joins[n_joins] = t;
                        n_joins += 1;
                    }
                    idx += 2;
                    continue;
                }
                break;
            }
            ops[len] = e;
            words[len] = word;
            len += 1;
            idx += 1;
        }
        if len == 0 {
            return None;
        }
        // Ends with a branch and its slot (a side exit's, when nothing
        // could follow it), or not.
        let branch = len >= 2 && ops[len - 2].op.is_some_and(|op| op.has_delay_slot());
        Some(Block::schedule(&ops[..len], &words[..len], branch))
    }

    /// The static schedule of `ops` (of instruction words `words`) entered
    /// at cycle 0.
    fn schedule(ops: &[Entry], words: &[u32], branch: bool) -> Block {
        let mut ready = Ready::new();
        let mut seen = [false; SLOTS];
        let mut live_in = [(0u8, 0u32); SLOTS];
        let mut n_live_in = 0;
        let mut insns = Vec::with_capacity(ops.len());
        let mut out_skip = Box::default();
        let mut side_outs = Vec::new();
        let mut clock = 0u32;
        for (i, e) in ops.iter().enumerate() {
            if branch && i == ops.len() - 1 {
                out_skip = ready.written();
            }
            let mut issue = clock;
            for &s in &e.t.src {
                if let Some(r) = ready.at(s) {
                    issue = issue.max(r);
                }
            }
            for &s in &e.t.src {
                if s != SLOT_ZERO && ready.at(s).is_none() && !seen[s as usize] {
                    seen[s as usize] = true;
                    if !always_ready(s, issue) {
                        live_in[n_live_in] = (s, issue);
                        n_live_in += 1;
                    }
                }
            }
            ready.set(e.t.dst, issue + e.t.latency as u32);
            let after_branch = || ops[i - 1].op.is_some_and(|op| op.has_delay_slot());
            if side_exit_slot_at(i, ops.len(), after_branch) {
                side_outs.push((i as u32, ready.written()));
            }
            insns.push(BlockInsn {
                op: e.op.expect("blocks hold decoded entries"),
                t: e.t,
                issue,
            });
            clock = issue + 1;
        }
        let live_in = &live_in[..n_live_in];
        let absorbed = if absorbs_second_reads(&insns) { 1 } else { 0 };
        let first_reads = live_in
            .iter()
            .take_while(|&&(_, at)| at <= absorbed)
            .count() as u8;
        let n = insns.len();
        let guard = if n >= 2 { insns[n - 2].issue + 1 } else { 0 };
        Block {
            insns: insns.into_boxed_slice(),
            branch,
            live_in: live_in.into(),
            first_reads,
            out: ready.written(),
            out_skip,
            side_outs: side_outs.into(),
            guard,
            compiled: None,
            runs: 0,
            words: words.into(),
            heated: false,
            claimed_by: None,
            members: Box::default(),
            jumped: Cell::new(0),
        }
    }

    /// Ready offsets of the slots instructions `..=i` write (the last
    /// writer's), worked out from the instructions: what [`Block::side_out`]
    /// must hold (the test oracle of its list).
    #[cfg(test)]
    pub fn out_after(&self, i: usize) -> SlotTimes {
        let mut ready = Ready::new();
        for insn in &self.insns[..=i] {
            ready.set(insn.t.dst, insn.issue + insn.t.latency as u32);
        }
        ready.written()
    }

    /// The scoreboard a side exit whose slot is instruction `i` leaves, as
    /// [`Block::out`] is the block's: the ready offsets of the slots
    /// instructions `..=i` write (the last writer's), built with the block.
    /// Only a side exit's slot has one (a run leaves early only there, see
    /// [`Block::side_exit_slot`]); any other `i` gets none.
    pub fn side_out(&self, i: usize) -> &[(u8, u32)] {
        debug_assert!(
            self.side_exit_slot(i),
            "instruction {i} is no side exit's slot"
        );
        self.side_outs
            .iter()
            .find(|&&(at, _)| at as usize == i)
            .map_or(&[], |(_, out)| &**out)
    }

    /// Whether instruction `i` is the delay slot of a side exit's branch
    /// (a branch before the block's last one, see [`side_exit`]).
    pub fn side_exit_slot(&self, i: usize) -> bool {
        side_exit_slot_at(i, self.insns.len(), || {
            self.insns[i - 1].op.has_delay_slot()
        })
    }

    /// The cycle the schedule's offsets count from when the block is
    /// entered with the clock at `now`: `now`, or later when the first
    /// instruction waits for a register it reads, or the second (at offset
    /// 1, see [`absorbs_second_reads`]) for one it reads.
    #[inline(always)]
    pub fn start(&self, scoreboard: &Scoreboard, now: u64) -> u64 {
        self.live_in[..self.first_reads as usize]
            .iter()
            .fold(now, |t, &(slot, at)| {
                let at = at as u64;
                (t + at).max(scoreboard.ready(slot)) - at
            })
    }

    /// The cycle the first instruction issues at when the block is
    /// entered with the clock at `now`: [`Block::start`] without the wait
    /// for the second's registers. An end at the first or second
    /// instruction (a fault, or the first storing into code) counts from
    /// it: the second had not issued, or is charged no stall.
    pub fn first_issue(&self, scoreboard: &Scoreboard, now: u64) -> u64 {
        self.live_in[..self.first_reads as usize]
            .iter()
            .filter(|&&(_, at)| at == 0)
            .fold(now, |t, &(slot, _)| t.max(scoreboard.ready(slot)))
    }

    /// Whether the block may run as a unit from `start` (see
    /// [`Block::start`]): every incoming register that a later instruction
    /// reads is ready by its reader's offset, and the clock after the
    /// second-to-last instruction is before `deadline`.
    #[inline(always)]
    pub fn holds(&self, scoreboard: &Scoreboard, start: u64, deadline: u64) -> bool {
        start + (self.guard as u64) < deadline
            && self.live_in[self.first_reads as usize..]
                .iter()
                .all(|&(slot, at)| scoreboard.ready(slot) <= start + at as u64)
    }
}

/// Whether a register that the second of `insns` reads, not ready by then,
/// may delay the block's start instead of its run as a unit. The second
/// issues when the register is ready whatever the first did, and
/// everything from it on runs as the schedule says from that cycle less
/// one; the first issued earlier, which no reader can tell when
/// - the first is an integer operation that cannot fault, whose result is
///   ready a cycle after it; or an aligned integer load or store whose
///   result (a load's) neither of the next two instructions reads (so that
///   no issue in the schedule waits for it) and the block's end comes after
///   it is ready. A first instruction that stops the block (a fault, a
///   store into code) ends it before the second issued: the early ends
///   count from the first's own issue (`Block::first_issue`);
/// - the second cannot stop the block before it issues: an integer
///   operation, a branch or a jump that is not likely, or an aligned
///   integer load or store, whose fault the interpreter charges no stall
///   (so the early end at it counts from the first's issue too).
fn absorbs_second_reads(insns: &[BlockInsn]) -> bool {
    use crate::decode::Op::*;
    let plain = |op: &Op| {
        matches!(
            op,
            Sll { .. }
                | Srl { .. }
                | Sra { .. }
                | Sllv { .. }
                | Srlv { .. }
                | Srav { .. }
                | Addu { .. }
                | Subu { .. }
                | And { .. }
                | Or { .. }
                | Xor { .. }
                | Nor { .. }
                | Slt { .. }
                | Sltu { .. }
                | Addiu { .. }
                | Slti { .. }
                | Sltiu { .. }
                | Andi { .. }
                | Ori { .. }
                | Xori { .. }
                | Lui { .. }
        )
    };
    let transfer = |op: &Op| {
        matches!(
            op,
            J { .. }
                | Jal { .. }
                | Jr { .. }
                | Jalr { .. }
                | Beq { .. }
                | Bne { .. }
                | Blez { .. }
                | Bgtz { .. }
                | Bltz { .. }
                | Bgez { .. }
        )
    };
    let access = |op: &Op| {
        matches!(
            op,
            Lb { .. }
                | Lbu { .. }
                | Lh { .. }
                | Lhu { .. }
                | Lw { .. }
                | Sb { .. }
                | Sh { .. }
                | Sw { .. }
        )
    };
    let [first, second, ..] = insns else {
        return false;
    };
    // A load first: no issue in the schedule waits for its result (a
    // reader two or more instructions on issues no sooner than the load's
    // latency), and every end after the second finds it ready.
    let unread = || {
        let least_end = insns[insns.len() - 1].issue + ISSUE_CYCLES as u32;
        insns[1..insns.len().min(3)]
            .iter()
            .all(|x| !x.t.src.contains(&first.t.dst))
            && first.t.latency as u32 <= least_end
    };
    let first_ok = (plain(&first.op) && first.t.latency <= 1) || (access(&first.op) && unread());
    first_ok && (plain(&second.op) || transfer(&second.op) || access(&second.op))
}

/// Whether slot `s`, read first at `first_use` cycles after the entry, is
/// ready by then whatever ran before: a GPR is written at most
/// `LOAD_LATENCY` cycles after an issue, and the last issue before the
/// entry was at least one cycle before it (`timing::MAX_GPR_LATENCY`).
fn always_ready(s: u8, first_use: u32) -> bool {
    s < SLOT_HILO && first_use + 1 >= MAX_GPR_LATENCY as u32
}

/// Whether a block whose clock ends `end` cycles after its start (the
/// least it can: no branch bubbles) may leave slot `s`, which it makes
/// ready `at` cycles after its start, as it was: no later instruction can
/// tell. The sink is never read. A GPR ready by the block's end delays
/// nothing after it, and neither does the value it had: a GPR is ready at
/// most `MAX_GPR_LATENCY - 1` cycles after a block's start (see
/// `always_ready`). So the scoreboard keeps a time at or before the
/// clock, where the per-instruction path would have another, also at or
/// before the clock: the same to every reader. Compiled code skips these
/// stores (it keeps its block ends short); the block tier makes them.
pub(crate) fn settled_by_end(s: u8, at: u32, end: u32) -> bool {
    s == SLOT_SINK
        || (s > SLOT_ZERO && s < SLOT_HILO && at <= end && end + 1 >= MAX_GPR_LATENCY as u32)
}

/// Whether instruction `i` of a block of `n` is a side exit's delay slot:
/// the instruction before it (`after_branch`, asked only when there is
/// one) has a delay slot, and it is not the block's last. The one test,
/// for the built block and for its entries while its schedule is built.
fn side_exit_slot_at(i: usize, n: usize, after_branch: impl FnOnce() -> bool) -> bool {
    i > 0 && i + 1 < n && after_branch()
}

/// The ready offsets of the slots written so far in a schedule, and which
/// those are: a block's every exit lists them, and a scan of all the
/// slots for each (twice: to count, then to copy) cost 1.3% of a warm IDO
/// compile's host instructions, which builds each block it loads.
struct Ready {
    at: [Option<u32>; SLOTS],
    written: u128,
}

const _: () = assert!(SLOTS <= u128::BITS as usize);

impl Ready {
    fn new() -> Ready {
        Ready {
            at: [None; SLOTS],
            written: 0,
        }
    }

    fn at(&self, slot: u8) -> Option<u32> {
        self.at[slot as usize]
    }

    fn set(&mut self, slot: u8, ready: u32) {
        self.at[slot as usize] = Some(ready);
        self.written |= 1 << slot;
    }

    /// The slots written so far with their ready offsets, by slot (the
    /// sink included, so the scoreboard ends exactly as the
    /// per-instruction path leaves it), in one allocation of their number.
    fn written(&self) -> SlotTimes {
        let mut out = Vec::with_capacity(self.written.count_ones() as usize);
        let mut left = self.written;
        while left != 0 {
            let slot = left.trailing_zeros() as usize;
            left &= left - 1;
            out.extend(self.at[slot].map(|r| (slot as u8, r)));
        }
        out.into_boxed_slice()
    }
}
