//! Calls compiled into their callers: the small leaf functions seen so far,
//! and which pages' functions hold a copy of a block of another page.
//!
//! A call in IRIX's position-independent code is a jump through a register
//! (`jalr $t9`), and its return another (`jr $ra`); each used to leave the
//! caller's function for the callee's, and the callee's for the function
//! of the block the call returns to, by the jump table. A warm IDO `cc -c
//! -O2` made 16.5 M such calls, 6.5 M of them to one leaf of 13
//! instructions (uopt's `bvectin`). A function whose block ends with a call
//! to a leaf on another page (one short block that returns through `$ra`)
//! now holds a copy of the leaf as a member, and goes on past the call to
//! the block it returns to as past a branch (see `region::select`). The
//! call compares its register with the leaf's address, and the leaf's
//! return with the continuation's, before the jump table (`emit`'s
//! `guessed_edges`): a call and its return stay inside one function.
//!
//! The callee usually lies on another page. Code written on a page drops
//! the blocks of that page only (`Cpu::drop_code_page`), so a page records
//! here the pages whose functions copied one of its blocks, and those go
//! with it ([`Calls::forget_code`]). A function kept in the translation
//! cache is checked, member by member, against memory when it is loaded
//! (`region::build`), so an entry whose callee has changed is not used.

use std::collections::{BTreeMap, HashMap};

use crate::block::{loops_to_itself, Block};
use crate::code_cache::PAGE_SHIFT;
use crate::decode::Op;

/// The longest leaf compiled into its callers.
pub(crate) const LEAF_INSNS: usize = 24;

/// Whether `block` (at `pc`) is a leaf a caller may hold: short, with no
/// side exit (its one way out is the return), and ending with a return
/// through `$ra` (`jr $ra` and its slot).
pub(crate) fn is_leaf(block: &Block, pc: u32) -> bool {
    let n = block.insns.len();
    block.branch
        && n <= LEAF_INSNS
        && block.side_outs.is_empty()
        && matches!(block.insns[n - 2].op, Op::Jr { rs } if rs.idx() == 31)
        && !loops_to_itself(block, pc)
}

/// The address a call returns to, for a block (at `pc`) that ends with a
/// call through a register (`jalr` linking `$ra`).
pub(crate) fn continuation(block: &Block, pc: u32) -> Option<u32> {
    let n = block.insns.len();
    let is_call =
        block.branch && matches!(block.insns[n - 2].op, Op::Jalr { rd, .. } if rd.idx() == 31);
    is_call.then(|| pc.wrapping_add(4 * n as u32))
}

/// The callee a block (at `pc`) that ends with a call through a register
/// last went to on the block tier, and the address the call returns to;
/// `None` for any other block, or one the block tier never ran to its end.
pub(crate) fn call_of(block: &Block, pc: u32) -> Option<(u32, u32)> {
    let callee = block.jumped.get();
    continuation(block, pc)
        .filter(|_| callee != 0)
        .map(|back| (callee, back))
}

/// The leaves seen so far and the pages that copied blocks of others (see
/// the module's notes). Kept with the compiled code, and dropped with it.
#[derive(Default)]
pub(crate) struct Calls {
    /// Copies, as members, of the leaves compiled so far, by address.
    leaves: BTreeMap<u32, Block>,
    /// For a page, the pages whose functions hold a copy of one of its
    /// blocks.
    holders: HashMap<u32, Vec<u32>>,
}

impl Calls {
    /// Notes `block` (at `pc`), just compiled as a function's first block,
    /// if it is a leaf.
    pub fn note_leaf(&mut self, block: &Block, pc: u32) {
        if is_leaf(block, pc) {
            self.leaves.insert(pc, super::region::as_member(block));
        }
    }

    /// The leaf at `pc`, if one was noted.
    pub fn leaf(&self, pc: u32) -> Option<&Block> {
        self.leaves.get(&pc)
    }

    /// Notes that the function of the block at `head` holds `members`,
    /// some perhaps of other pages.
    pub fn hold(&mut self, head: u32, members: &[(u32, Block)]) {
        let page = head >> PAGE_SHIFT;
        for (at, _) in members {
            let from = at >> PAGE_SHIFT;
            if from != page {
                let holders = self.holders.entry(from).or_default();
                if !holders.contains(&page) {
                    holders.push(page);
                }
            }
        }
    }

    /// The code of page `page_no` changed (written or unmapped): forgets
    /// its leaves, and returns the pages whose functions copied one of its
    /// blocks, which must go too.
    pub fn forget_code(&mut self, page_no: u32) -> Vec<u32> {
        let first = page_no << PAGE_SHIFT;
        let last = first | ((1 << PAGE_SHIFT) - 1);
        let gone: Vec<u32> = self.leaves.range(first..=last).map(|(&pc, _)| pc).collect();
        for pc in gone {
            self.leaves.remove(&pc);
        }
        self.holders.remove(&page_no).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jit::listing::block_of;

    const LEAF: u32 = 0x0041_0000;

    #[test]
    fn a_page_whose_code_changes_names_the_pages_that_copied_its_blocks() {
        let mut calls = Calls::default();
        // addiu a0, a0, 1; jr ra; nop
        let leaf = block_of(&[0x2484_0001, 0x03e0_0008, 0]);
        assert!(is_leaf(&leaf, LEAF));
        calls.note_leaf(&leaf, LEAF);
        assert!(calls.leaf(LEAF).is_some());
        // Two functions on page 0x400 and one on 0x402 hold the leaf; one
        // on 0x400 holds a block of its own page only.
        calls.hold(0x0040_0000, &[(LEAF, leaf.clone())]);
        calls.hold(0x0040_0100, &[(LEAF, leaf.clone())]);
        calls.hold(0x0040_2000, &[(LEAF, leaf.clone())]);
        calls.hold(0x0040_0200, &[(0x0040_0300, leaf)]);
        // Another page's code changing touches neither.
        assert_eq!(calls.forget_code(0x401), Vec::<u32>::new());
        assert!(calls.leaf(LEAF).is_some());
        assert_eq!(calls.forget_code(0x410), vec![0x400, 0x402]);
        assert!(calls.leaf(LEAF).is_none());
        // Once forgotten, the pages are not named again.
        assert_eq!(calls.forget_code(0x410), Vec::<u32>::new());
    }

    #[test]
    fn a_leaf_is_one_short_block_that_returns_through_ra() {
        // jr t9 (a jump through another register): not a leaf.
        assert!(!is_leaf(&block_of(&[0x0320_0008, 0]), LEAF));
        // A side exit (bne a0, zero to past the return), then jr ra: not
        // a leaf, part of it lies outside the block.
        let side = block_of(&[0x1480_0003, 0, 0x03e0_0008, 0, 0x03e0_0008, 0]);
        assert!(!side.side_outs.is_empty());
        assert!(!is_leaf(&side, LEAF));
        // jalr t9: a call, not a leaf.
        let call = block_of(&[0x0320_f809, 0]);
        assert!(!is_leaf(&call, LEAF));
        // Never run on the block tier: no callee known.
        assert_eq!(call_of(&call, LEAF), None);
        call.jumped.set(0x0050_0000);
        assert_eq!(call_of(&call, LEAF), Some((0x0050_0000, LEAF + 8)));
    }
}
