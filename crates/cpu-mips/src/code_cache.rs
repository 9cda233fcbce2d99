//! Decoded-code cache: instructions are decoded once per 4 KiB code page.
//!
//! Contents: [`Entry`] (an op with its timing operands), [`Page`] (with
//! the block tier's blocks, see `block`),
//! [`PageStore`] (page number -> decoded page), [`CodeMarks`] (bitmap of the
//! pages holding decoded code, checked by every store so that
//! self-modifying code still works).
//!
//! Entries are decoded lazily, on first execution, by the run loop; a page
//! is marked in `CodeMarks` when its first entry is decoded. A store to a
//! marked page (or `Cpu::invalidate_code`) resets the page's entries and
//! clears its mark. A clone of the cache is empty: it is only a cache.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::block::{Block, BUILD_AFTER};
use crate::decode::Op;
use crate::timing::{operands, Operands};

pub(crate) const PAGE_SHIFT: u32 = 12;
pub(crate) const PAGE_WORDS: usize = 1 << (PAGE_SHIFT - 2);
/// The index of the word at `pc` in its page.
#[inline(always)]
pub(crate) fn word_index(pc: u32) -> usize {
    (pc >> 2) as usize & (PAGE_WORDS - 1)
}

/// Pages of the 2 GB user address space.
const USER_PAGES: usize = 1 << (31 - PAGE_SHIFT);

/// One instruction slot: its op once decoded (`None` until first
/// executed), and the op's timing operands.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub op: Option<Op>,
    pub t: Operands,
}

impl Entry {
    pub const EMPTY: Entry = Entry {
        op: None,
        t: Operands {
            src: [0, 0],
            dst: crate::timing::SLOT_SINK,
            latency: 1,
        },
    };
    pub fn new(op: Op) -> Entry {
        Entry {
            op: Some(op),
            t: operands(&op),
        }
    }
}

/// The decoded instructions of one 4 KiB page, and the block tier's
/// blocks that start on it.
pub(crate) struct Page {
    /// On the heap by itself: a page is created inside the hot loops'
    /// page lookup, and a 16 KiB value built in place would give that
    /// function a 16 KiB stack frame to probe on every call.
    pub entries: Box<[Entry; PAGE_WORDS]>,
    /// The block starting at each word, once the block tier has visited
    /// the page (empty until then; zeroed memory, so cheap to create).
    pub blocks: Vec<Option<Box<Block>>>,
    /// Visits to each word as a block entry while it has no block, or
    /// [`NO_BLOCK`].
    pub visits: Vec<u8>,
}

/// `Page::visits` of a word where no block can start (it would be
/// empty): always interpreted.
pub(crate) const NO_BLOCK: u8 = u8::MAX;

impl Page {
    #[cold]
    #[inline(never)]
    pub(crate) fn new() -> Box<Page> {
        let entries = vec![Entry::EMPTY; PAGE_WORDS].into_boxed_slice();
        Box::new(Page {
            entries: entries.try_into().expect("PAGE_WORDS entries"),
            blocks: Vec::new(),
            visits: Vec::new(),
        })
    }
    fn reset(&mut self) {
        self.entries.fill(Entry::EMPTY);
        self.drop_blocks();
    }
    fn drop_blocks(&mut self) {
        self.blocks = Vec::new();
        self.visits = Vec::new();
    }
    /// Counts a visit to word `idx` as a block entry; true when a block
    /// runs there or is due to be built (`block::BUILD_AFTER` visits).
    /// The common case in code that runs once, an early visit, is counted
    /// inline (no block exists before `BUILD_AFTER` visits); the rest is
    /// out of line, which keeps the interpreter's hot loop small.
    #[inline(always)]
    pub fn block_entry_warm(&mut self, idx: usize) -> bool {
        if let Some(v) = self.visits.get_mut(idx & (PAGE_WORDS - 1)) {
            if *v < BUILD_AFTER - 1 {
                *v += 1;
                return false;
            }
        }
        self.block_entry_warm_slow(idx)
    }

    #[inline(never)]
    fn block_entry_warm_slow(&mut self, idx: usize) -> bool {
        let idx = idx & (PAGE_WORDS - 1);
        if self.blocks.is_empty() {
            self.blocks = vec![None; PAGE_WORDS];
            self.visits = vec![0; PAGE_WORDS];
        }
        if self.blocks[idx].is_some() {
            return true;
        }
        let visits = &mut self.visits[idx];
        if *visits == NO_BLOCK {
            false
        } else if *visits + 1 < BUILD_AFTER {
            *visits += 1;
            false
        } else {
            true
        }
    }
}

/// A multiplicative hash for page numbers (a u32 key needs no SipHash).
#[derive(Default)]
pub(crate) struct PageHasher(u64);
impl Hasher for PageHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | b as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = (n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// Page number -> decoded page.
#[derive(Default)]
pub(crate) struct PageStore {
    map: HashMap<u32, Box<Page>, BuildHasherDefault<PageHasher>>,
}

impl Clone for PageStore {
    fn clone(&self) -> Self {
        PageStore::default()
    }
}

impl PageStore {
    /// The page `page_no`, created empty if absent.
    #[inline]
    pub fn page(&mut self, page_no: u32) -> &mut Page {
        self.map.entry(page_no).or_insert_with(Page::new)
    }
    /// Drops the decoded instructions of `page_no` (keeps the allocation).
    pub fn invalidate(&mut self, page_no: u32) {
        if let Some(p) = self.map.get_mut(&page_no) {
            p.reset();
        }
    }
    /// The block that starts at `pc`, if it has been built.
    pub fn block_mut(&mut self, pc: u32) -> Option<&mut Block> {
        let page = self.map.get_mut(&(pc >> PAGE_SHIFT))?;
        page.blocks.get_mut(word_index(pc))?.as_deref_mut()
    }
    /// Drops every block (the decoded instructions stay): the block
    /// cache's eviction.
    pub fn drop_blocks(&mut self) {
        for page in self.map.values_mut() {
            page.drop_blocks();
        }
    }
    /// Drops every decoded page and frees the table.
    pub fn clear(&mut self) {
        self.map = HashMap::default();
    }
}

/// One bit per user page: "this page has decoded instructions".
#[derive(Default)]
pub(crate) struct CodeMarks {
    /// Allocated on the first mark (USER_PAGES bits).
    bits: Vec<u64>,
}

impl Clone for CodeMarks {
    fn clone(&self) -> Self {
        CodeMarks::default()
    }
}

impl CodeMarks {
    /// True if the page holding `addr` has decoded code. One load and a bit
    /// test: this runs on every store.
    #[inline(always)]
    pub fn contains(&self, addr: u32) -> bool {
        let p = (addr >> PAGE_SHIFT) as usize;
        match self.bits.get(p >> 6) {
            Some(w) => (w >> (p & 63)) & 1 != 0,
            None => false,
        }
    }
    pub fn mark(&mut self, page_no: u32) {
        let p = page_no as usize;
        if p >= USER_PAGES {
            return;
        }
        if self.bits.is_empty() {
            self.bits = vec![0; USER_PAGES / 64];
        }
        self.bits[p >> 6] |= 1 << (p & 63);
    }
    /// Clears the mark of `page_no`; returns whether it was set.
    pub fn unmark(&mut self, page_no: u32) -> bool {
        let p = page_no as usize;
        match self.bits.get_mut(p >> 6) {
            Some(w) => {
                let was = (*w >> (p & 63)) & 1 != 0;
                *w &= !(1 << (p & 63));
                was
            }
            None => false,
        }
    }
    /// Clears the marks of pages `first..=last`, calling `f` with each
    /// page that was marked. Walks the bitmap a word at a time.
    pub fn unmark_range(&mut self, first: u32, last: u32, mut f: impl FnMut(u32)) {
        let (first, last) = (first as usize, (last as usize).min(USER_PAGES - 1));
        if first > last {
            return;
        }
        for w in first >> 6..=(last >> 6).min(self.bits.len().saturating_sub(1)) {
            let Some(word) = self.bits.get_mut(w) else {
                return;
            };
            let lo = if w == first >> 6 { first & 63 } else { 0 };
            let hi = if w == last >> 6 { last & 63 } else { 63 };
            let mask = (u64::MAX >> (63 - hi)) & (u64::MAX << lo);
            let mut hit = *word & mask;
            *word &= !mask;
            while hit != 0 {
                let bit = hit.trailing_zeros() as usize;
                f((w * 64 + bit) as u32);
                hit &= hit - 1;
            }
        }
    }

    /// Forgets every mark and frees the bitmap (exec, a zombie).
    pub fn clear(&mut self) {
        self.bits = Vec::new();
    }
}
