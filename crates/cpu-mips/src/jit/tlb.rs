//! The compiled tier's soft TLB: guest pages the embedder lets compiled
//! code read and write directly (see `Memory::direct_page`).
//!
//! Contents: [`Tlb`] and its entries.
//!
//! Two direct-mapped tables of 1024 entries (4 MiB of guest memory each),
//! one for loads and one for stores, indexed by the low bits of the page
//! number. A compiled load or store whose page is in its table is a host
//! load or store and a byte swap; any other access goes through the
//! embedder's `Memory` methods, and fills the table on success.
//!
//! An entry is laid out for the shortest check in compiled code: its tag
//! is the page's first address, so the effective address (64 bits) and
//! the tag differ only in the in-page offset exactly when the page is this
//! one; and with the offset's bits cleared, except those that must be
//! zero for the access to be aligned, they differ in none exactly when the
//! access is also aligned and in user space (a misaligned address keeps a
//! low bit, an address at or above 2 GiB or outside 32 bits a high one,
//! and no user page's tag has either). Compiled code tests that on the
//! two's exclusive or, which x86-64 computes with the tag still in memory.
//! An empty entry's tag is a page no address looked up in it can be on
//! (one whose index is another entry's, see [`TlbEntry::empty`]).
//! Everything else, the address error included, is the slow path's to
//! decide. The host address is then the entry's `addend` plus the guest
//! address.
//!
//! The embedder changes mappings, permissions and copy-on-write sharing
//! only between runs, so the tables are valid for one `Cpu::run`, or for
//! as long as the memory's `direct_epoch` stays the same: a run starts
//! with them empty unless the epoch is the one they were filled under.
//! (A warm IDO `cc` of a game's 3,000-line file missed 725 K times with
//! 256 entries emptied at each run, 4.5 K with 4096 kept; 1024 kept enter
//! compiled code 0.7% more often than 4096, for a quarter of the memory.)
//!
//! The store table never holds a page of decoded code, so a direct store
//! needs no check for self-modifying code: marking a page as
//! code evicts it.

use std::ptr::NonNull;

use crate::code_cache::PAGE_SHIFT;
use crate::exec::USER_TOP;
use crate::Memory;

/// Entries per table.
pub(crate) const TLB_ENTRIES: usize = 1024;

/// One entry (16 bytes on a 64-bit host: compiled code scales the index
/// by a shift): the guest page it holds, and where its bytes are.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct TlbEntry {
    /// The guest page's first address (when empty, one of a page that
    /// does not index this entry, see [`TlbEntry::empty`]).
    pub tag: u64,
    /// The host address of the page's first byte minus the page's guest
    /// address (wrapping): added to a guest address in the page, the host
    /// address of that byte.
    pub addend: usize,
}

impl TlbEntry {
    /// Entry `i` holding no page: its tag is the first address of a page
    /// whose index is not `i`, so no address looked up in entry `i` is on
    /// it.
    pub const fn empty(i: usize) -> TlbEntry {
        TlbEntry {
            tag: (((i ^ 1) & (TLB_ENTRIES - 1)) as u64) << PAGE_SHIFT,
            addend: 0,
        }
    }
}

/// A table of empty entries.
fn empty_table() -> [TlbEntry; TLB_ENTRIES] {
    std::array::from_fn(TlbEntry::empty)
}

/// The load and store tables.
#[derive(Clone, Debug)]
pub(crate) struct Tlb {
    pub read: [TlbEntry; TLB_ENTRIES],
    pub write: [TlbEntry; TLB_ENTRIES],
}

impl Default for Tlb {
    fn default() -> Self {
        Tlb {
            read: empty_table(),
            write: empty_table(),
        }
    }
}

/// The entry index of guest page `page`.
#[inline(always)]
pub(crate) fn index(page: u32) -> usize {
    page as usize & (TLB_ENTRIES - 1)
}

impl Tlb {
    /// Forgets every page (at the start of a run).
    pub fn clear(&mut self) {
        self.read = empty_table();
        self.write = empty_table();
    }

    /// After a load from `addr` succeeded: enters its page for loads if
    /// the embedder allows direct reads.
    pub fn fill_read<M: Memory>(&mut self, mem: &mut M, addr: u32) {
        if addr as u64 >= USER_TOP {
            return;
        }
        if let Some(host) = mem.direct_page(addr, false) {
            self.read[index(addr >> PAGE_SHIFT)] = entry(addr, host);
        }
    }

    /// After a store to `addr` (not into decoded code) succeeded: enters
    /// its page for stores, and for loads (a writable page's bytes stay
    /// where they are), if the embedder allows direct writes.
    pub fn fill_write<M: Memory>(&mut self, mem: &mut M, addr: u32) {
        if addr as u64 >= USER_TOP {
            return;
        }
        if let Some(host) = mem.direct_page(addr, true) {
            let e = entry(addr, host);
            self.write[index(addr >> PAGE_SHIFT)] = e;
            self.read[index(addr >> PAGE_SHIFT)] = e;
        }
    }

    /// Takes guest page `page` out of the store table (it now holds
    /// decoded code).
    pub fn evict_write(&mut self, page: u32) {
        let i = index(page);
        if self.write[i].tag == (page as u64) << PAGE_SHIFT {
            self.write[i] = TlbEntry::empty(i);
        }
    }
}

fn entry(addr: u32, host: NonNull<u8>) -> TlbEntry {
    let base = addr >> PAGE_SHIFT << PAGE_SHIFT;
    TlbEntry {
        tag: base as u64,
        addend: (host.as_ptr() as usize).wrapping_sub(base as usize),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What compiled code tests (see the module's comment): an access of
    /// `bytes` at `ea` through `e` misses when the two differ in any bit
    /// but those of the in-page offset an aligned access may set.
    fn misses(e: &TlbEntry, ea: u64, bytes: u64) -> bool {
        (ea ^ e.tag) & (u64::MAX << PAGE_SHIFT | (bytes - 1)) != 0
    }

    #[test]
    fn an_empty_entry_holds_no_page_its_index_names() {
        for i in 0..TLB_ENTRIES {
            let e = TlbEntry::empty(i);
            assert_ne!(index((e.tag >> PAGE_SHIFT) as u32), i);
            // The user page and the kernel page (sign-extended) that index
            // entry `i`, at the lowest and highest offsets.
            let user = (i as u64) << PAGE_SHIFT;
            let kernel = 0xffff_ffff_8000_0000 | user;
            for ea in [user, user | 0xfff, kernel, kernel | 0xfff] {
                assert!(misses(&e, ea & !3, 4) && misses(&e, ea, 1), "{i} {ea:#x}");
            }
        }
    }

    #[test]
    fn a_full_entry_holds_aligned_user_accesses_to_its_page_only() {
        let page = 0x1234_5000u32;
        let e = TlbEntry {
            tag: page as u64,
            addend: 0,
        };
        assert!(!misses(&e, page as u64 + 8, 4) && !misses(&e, page as u64 + 0xffd, 1));
        assert!(misses(&e, page as u64 + 6, 4), "misaligned");
        assert!(misses(&e, page as u64 + 0x1000, 4), "the next page");
        assert!(
            misses(&e, (page as u64) | 0xffff_ffff_8000_0000, 4),
            "kernel"
        );
    }
}
