//! Regions: one compiled function for a block and the blocks of its page
//! that control reaches from it by static branches.
//!
//! Contents: [`select`] (the members, chosen when the first block is
//! compiled), [`claim`] / [`unclaim`] / [`from_inside`] (the page's
//! blocks that run inside a function, see `Block::claimed_by`),
//! [`member`] (a member's `Block` by its number, for the run loop when
//! compiled code ends early in it),
//! [`still_decoded`] (whether the page still holds the members a compile
//! on the other thread was given), [`pack`] / [`unpack`] (the members'
//! addresses and words in an entry of the translation cache, see `store`)
//! and [`build`] (a loaded entry's members, checked against memory).
//!
//! Where a block's end or side exit goes to the start of a member, the
//! function jumps there instead of looking the target up in the jump table
//! and tail-calling it: no frame to leave and set up again, no lookup, and
//! the two blocks' code side by side. A loop whose blocks all lie on one
//! page runs inside one function. The member's entry checks its schedule
//! and the deadline as its own function would, and returns to the run
//! loop when they fail (see `emit`).
//!
//! Only blocks on the first block's page are members, but for a leaf
//! called through a register (see `calls`): code written on a page drops
//! every block on it (`Cpu::drop_code_page`), and the functions of other
//! pages that copied one of them, so a function never outlives any block
//! it holds. A member's early end leaves the first block's address as the
//! PC and its number in the end's word; the run loop finds the member in
//! the first block's `members`.
//!
//! Measured on a warm IDO `cc -c -O2` of a 2,000-line file (see
//! docs/performance.md): about 38% of the transitions between compiled
//! blocks went to a static target on the same page.

use super::calls;
use crate::block::{loops_to_itself, side_exit, static_target, Block, Members};
use crate::code_cache::{word_index, Page, PageStore, PAGE_SHIFT};
use crate::decode::Op;
use crate::Memory;

/// A member as the translation cache keeps it: its first address and its
/// instruction words.
pub(crate) type StoredMember = (u32, Vec<u32>);

/// At most this many blocks after the first in one function.
pub(crate) const MAX_MEMBERS: usize = 7;
/// At most this many instructions in all the blocks of one function.
const MAX_INSNS: usize = 160;

/// The members of the function of `head` (at `pc`, on `page`): the blocks
/// already built on `page` that its static successors reach, nearest
/// first, each once, within the bounds above, that
/// - have no code of their own and are not waiting for it (a block is
///   compiled from its run `head.runs`, as `head` is now): one that has is
///   chained to, its code not copied;
/// - are not members of another function already (so that whether a run
///   of a member came from inside its function, [`from_inside`], has one
///   answer);
/// - ran at least a quarter as often as `head`: code off the hot path
///   stays out;
/// - do not branch to themselves (a loop of their own, see
///   `emit::self_loop`).
///
/// A block that ends with a call through a register whose callee (as the
/// block tier last saw it) is a leaf on another page that `leaf` knows
/// (see `calls`) brings in the callee, a copy reached only by that call
/// (the only members on another page, see [`is_callee`]; not claimed: its
/// runs count as any block's), and makes the block the call returns to a
/// successor, as if the call were a branch to it; at most [`MAX_CALLS`]
/// calls a function.
///
/// None when `head` branches to itself.
pub(crate) fn select<'a>(
    page: &Page,
    pc: u32,
    head: &Block,
    leaf: impl Fn(u32) -> Option<&'a Block>,
) -> Members {
    if loops_to_itself(head, pc) {
        return Box::default();
    }
    let on_page = |at: u32| at >> PAGE_SHIFT == pc >> PAGE_SHIFT;
    let mut members: Vec<(u32, Block)> = Vec::new();
    let mut insns = head.insns.len();
    let mut calls = 0;
    let mut next = 0;
    while next <= members.len() {
        let (at, from) = match next {
            0 => (pc, head),
            m => (members[m - 1].0, &members[m - 1].1),
        };
        next += 1;
        let mut succ: Vec<u32> = successors(from, at).collect();
        let call = calls::call_of(from, at)
            .filter(|&(callee, back)| !on_page(callee) && on_page(back) && calls < MAX_CALLS);
        if let Some((callee, back)) = call {
            let known = members.iter().any(|&(p, _)| p == callee);
            match leaf(callee) {
                _ if known => succ.push(back),
                Some(l) if members.len() < MAX_MEMBERS && insns + l.insns.len() <= MAX_INSNS => {
                    insns += l.insns.len();
                    members.push((callee, as_member(l)));
                    calls += 1;
                    succ.push(back);
                }
                _ => {}
            }
        }
        for s in succ {
            if !on_page(s)
                || s == pc
                || members.iter().any(|&(p, _)| p == s)
                || members.len() == MAX_MEMBERS
            {
                continue;
            }
            let Some(Some(b)) = page.blocks.get(word_index(s)) else {
                continue;
            };
            if loops_to_itself(b, s)
                || b.compiled.is_some()
                || b.claimed_by.is_some()
                || b.runs >= head.runs
                || b.runs < head.runs / 4
                || insns + b.insns.len() > MAX_INSNS
            {
                continue;
            }
            insns += b.insns.len();
            members.push((s, as_member(b)));
        }
    }
    members.into()
}

/// At most this many calls compiled into one function.
const MAX_CALLS: usize = 2;

/// Whether the member at `at` of the function of the block at `head` is
/// a callee's copy, reached only by a call through a register (see
/// [`select`]): the members on another page, and only those.
pub(crate) fn is_callee(head: u32, at: u32) -> bool {
    at >> PAGE_SHIFT != head >> PAGE_SHIFT
}

/// A copy of `b` as a member: the instructions and schedule only (a block
/// that may be a member has no code and no members of its own).
pub(crate) fn as_member(b: &Block) -> Block {
    Block {
        compiled: None,
        runs: 0,
        heated: false,
        claimed_by: None,
        members: Box::default(),
        ..b.clone()
    }
}

/// Where a block's compiled code may go on from `block` (at `pc0`) to a
/// static address, as `emit` makes its ends: each side exit's target,
/// then the end's target, and the address after the block where the end
/// may fall through (no branch, or a conditional one that is not likely:
/// a likely one not taken leaves by SKIP; BEQ $0, $0 counts, as the
/// emitter does not tell it from other conditions).
pub(super) fn successors(block: &Block, pc0: u32) -> impl Iterator<Item = u32> + '_ {
    let at = move |i: usize| pc0.wrapping_add(4 * i as u32);
    let n = block.insns.len();
    let sides = block.side_outs.iter().filter_map(move |&(slot, _)| {
        side_exit(&block.insns[slot as usize - 1].op, at(slot as usize - 1))
    });
    let end = block.branch.then(|| &block.insns[n - 2].op);
    let target = end.and_then(|op| static_target(op, at(n - 2)));
    let fall = end.is_none_or(falls_through).then(|| at(n));
    sides.chain(target).chain(fall)
}

/// Whether compiled code may go on after a block that ends with `op` (and
/// its slot) to the next address: a conditional branch that is not
/// likely.
fn falls_through(op: &Op) -> bool {
    use Op::*;
    matches!(
        op,
        Beq { .. }
            | Bne { .. }
            | Blez { .. }
            | Bgtz { .. }
            | Bltz { .. }
            | Bgez { .. }
            | Bltzal { .. }
            | Bgezal { .. }
            | Bc1f { .. }
            | Bc1t { .. }
    )
}

/// Marks the blocks of `page` that are `members` of the function of the
/// block at `head` as claimed by it (see `Block::claimed_by`), each unless
/// another function claimed it first (a function loaded from the
/// translation cache may hold a block this run made a member elsewhere).
/// A claimed block's runs count toward compiling it alone only when they
/// come from outside the function ([`from_inside`]): those are the runs
/// the block tier sees whether or not the function's code has arrived (on
/// the compiler thread, the moment depends on the host; whether a member
/// compiles alone must not, except where another function's code reaches
/// it, see [`from_inside`]).
pub(crate) fn claim(page: &mut Page, head: u32, members: &[(u32, Block)]) {
    for (pc, _) in members.iter().filter(|(pc, _)| !is_callee(head, *pc)) {
        if let Some(Some(b)) = page.blocks.get_mut(word_index(*pc)) {
            b.claimed_by.get_or_insert(head);
        }
    }
}

/// Undoes [`claim`] for `members`, which the function of the block at
/// `head` turned out not to hold (compiled without them).
pub(crate) fn unclaim(page: &mut Page, head: u32, members: &[(u32, Block)]) {
    for (pc, _) in members.iter().filter(|(pc, _)| !is_callee(head, *pc)) {
        if let Some(Some(b)) = page.blocks.get_mut(word_index(*pc)) {
            if b.claimed_by == Some(head) {
                b.claimed_by = None;
            }
        }
    }
}

/// Whether the block that ran last belongs to the function of the block
/// at `head` (on `page`). After compiled code returned (`from_code`, see
/// `Cpu::last_from_code`), `last` is the first address of the function it
/// ran in: inside when that is `head`'s (a member's entry failed), and
/// outside when it is another's, even one whose blocks `head` claimed (a
/// block compiled alone because it was hot before it was claimed, or a
/// function that holds `head` itself as a member): that code returns at
/// the block every time, so the block gets code of its own. (A warm `as1`
/// returned at one such block 36 K times a run.) After the block tier ran
/// `last`, inside when it is `head` or a block `head`'s function claimed:
/// the block tier runs a member after such a block when the function's
/// code has not arrived, and the count must not depend on when it does.
/// (On the compiler thread, when another function's code arrived does
/// depend on the host, and so may when a block it returns at compiles;
/// nothing a guest can see does.)
///
/// After a callee the function holds (see `calls`), on either tier:
/// inside. The callee returns to the block after the function's call only
/// when that call called it, and until the function's code arrives it
/// runs on its own (or in its own function): counting those runs would
/// make when the block compiles depend on that arrival.
pub(crate) fn from_inside(page: &Page, head: u32, last: u32, from_code: bool) -> bool {
    let callee = |b: &Block| is_callee(head, last) && b.members.iter().any(|&(at, _)| at == last);
    if matches!(page.blocks.get(word_index(head)), Some(Some(b)) if callee(b)) {
        return true;
    }
    if from_code {
        return last == head;
    }
    last == head
        || (last >> PAGE_SHIFT == head >> PAGE_SHIFT
            && matches!(page.blocks.get(word_index(last)), Some(Some(b)) if b.claimed_by == Some(head)))
}

/// Member `m` of the function of `head` (at `pc`) and its address: `head`
/// itself for 0.
pub(crate) fn member(head: &Block, pc: u32, m: usize) -> Option<(&Block, u32)> {
    match m {
        0 => Some((head, pc)),
        m => head.members.get(m - 1).map(|(at, b)| (b, *at)),
    }
}

/// Whether the pages still hold, decoded, the instructions of each of
/// `members` (a compile on the compiler thread may finish after code on
/// a page was written and decoded again).
pub(crate) fn still_decoded(pages: &mut PageStore, members: &[(u32, Block)]) -> bool {
    members.iter().all(|(pc, b)| {
        let page = pages.page(pc >> PAGE_SHIFT);
        let first = word_index(*pc);
        b.insns.iter().enumerate().all(|(i, insn)| {
            page.entries
                .get(first + i)
                .and_then(|e| e.op)
                .is_some_and(|op| op == insn.op)
        })
    })
}

/// The members of the function of the block at `pc` kept in the
/// translation cache (`words`: each member's address and words, see
/// [`unpack`]), built on `page` (`pc`'s) from `mem`: `None` unless each is
/// after its first address with the same words (the code the function was
/// compiled for). A member on another page is a callee's copy
/// ([`is_callee`]), built on a page of its own here: the caller marks
/// that page as holding code.
pub(crate) fn build<M: Memory>(
    page: &mut Page,
    pc: u32,
    mem: &mut M,
    mode64: bool,
    words: &[StoredMember],
) -> Option<Members> {
    words
        .iter()
        .map(|&(at, ref w)| {
            if at & 3 != 0 || at == pc {
                return None;
            }
            let b = if is_callee(pc, at) {
                Block::build(&mut Page::new(), at, mem, mode64)?
            } else {
                Block::build(page, at, mem, mode64)?
            };
            (*b.words == **w).then_some((at, b))
        })
        .collect()
}

/// The bytes an entry of the translation cache keeps for a function with
/// `members`, whose machine code is `code`: the members' count, each
/// member's address, length and words (little-endian 32-bit values), then
/// the code.
pub(crate) fn pack(members: &[(u32, Block)], code: &[u8]) -> Vec<u8> {
    let words: usize = members.iter().map(|(_, b)| b.words.len()).sum();
    let mut out = Vec::with_capacity(4 + 8 * members.len() + 4 * words + code.len());
    out.extend_from_slice(&(members.len() as u32).to_le_bytes());
    for (pc, b) in members {
        out.extend_from_slice(&pc.to_le_bytes());
        out.extend_from_slice(&(b.words.len() as u32).to_le_bytes());
        for w in b.words.iter() {
            out.extend_from_slice(&w.to_le_bytes());
        }
    }
    out.extend_from_slice(code);
    out
}

/// The members' addresses and words, and the machine code, of bytes
/// [`pack`] made; `None` when they are not such bytes.
pub(crate) fn unpack(bytes: &[u8]) -> Option<(Vec<StoredMember>, &[u8])> {
    let mut rest = bytes;
    let mut word = || -> Option<u32> {
        let (w, tail) = rest.split_first_chunk::<4>()?;
        rest = tail;
        Some(u32::from_le_bytes(*w))
    };
    let count = word()? as usize;
    if count > MAX_MEMBERS {
        return None;
    }
    let mut members = Vec::with_capacity(count);
    for _ in 0..count {
        let pc = word()?;
        let len = word()? as usize;
        if len > MAX_INSNS {
            return None;
        }
        let words = (0..len).map(|_| word()).collect::<Option<Vec<u32>>>()?;
        members.push((pc, words));
    }
    Some((members, rest))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jit::listing::block_of;

    #[test]
    fn packed_members_come_back_with_their_code() {
        let b = block_of(&[0x2484_0001, 0x03e0_0008, 0]);
        let members = [(0x0040_0010, b.clone()), (0x0040_0020, b)];
        let bytes = pack(&members, b"code");
        let (words, code) = unpack(&bytes).expect("packed bytes");
        assert_eq!(code, b"code");
        let want: Vec<StoredMember> = members
            .iter()
            .map(|(pc, m)| (*pc, m.words.to_vec()))
            .collect();
        assert_eq!(words, want);
        assert_eq!(unpack(&pack(&[], b"x")), Some((Vec::new(), &b"x"[..])));
    }

    #[test]
    fn a_member_reached_from_another_functions_code_is_outside_its_function() {
        let mut pages = crate::code_cache::PageStore::default();
        let (head, last) = (0x0040_0000, 0x0040_0010);
        let page = pages.page(head >> PAGE_SHIFT);
        let mut b = block_of(&[0x2484_0001, 0x03e0_0008, 0]);
        b.claimed_by = Some(head);
        page.blocks = vec![None; crate::code_cache::PAGE_WORDS];
        page.blocks[word_index(last)] = Some(Box::new(b));
        // A block the function claimed, run on the block tier: inside.
        assert!(from_inside(page, head, last, false));
        assert!(from_inside(page, head, head, false));
        // The function's own code returned (a member's entry failed).
        assert!(from_inside(page, head, head, true));
        // Another function's code returned, though `head` claims its first
        // block: outside.
        assert!(!from_inside(page, head, last, true));
        // A block another function claimed, run on the block tier.
        assert!(!from_inside(page, head + 0x100, last, false));
        // After a callee the function holds (see `calls`), on either tier,
        // when the function's first block holds it: inside.
        let callee = 0x0041_0000;
        assert!(!from_inside(page, head, callee, true));
        let mut first = block_of(&[0x0320_f809, 0]);
        let copy = block_of(&[0x2484_0001, 0x03e0_0008, 0]);
        first.members = Box::new([(callee, copy)]);
        page.blocks[word_index(head)] = Some(Box::new(first));
        assert!(from_inside(page, head, callee, true));
        assert!(from_inside(page, head, callee, false));
    }

    #[test]
    fn bytes_that_are_not_packed_members_are_refused() {
        let b = block_of(&[0x2484_0001, 0x03e0_0008, 0]);
        let bytes = pack(&[(0x0040_0010, b)], b"");
        // Cut inside the member's words, or short of the count.
        assert_eq!(unpack(&bytes[..bytes.len() - 2]), None);
        assert_eq!(unpack(&bytes[..3]), None);
        // More members, or a longer member, than a function may hold.
        let too_many = (MAX_MEMBERS as u32 + 1).to_le_bytes();
        assert_eq!(unpack(&too_many), None);
        let mut long = 1u32.to_le_bytes().to_vec();
        long.extend_from_slice(&0x0040_0010u32.to_le_bytes());
        long.extend_from_slice(&(MAX_INSNS as u32 + 1).to_le_bytes());
        assert_eq!(unpack(&long), None);
    }
}
