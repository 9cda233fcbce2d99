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
//! is the page's first address, so the effective address (64 bits) with
//! its in-page offset cleared, except the bits that must be zero for the
//! access to be aligned, equals the tag exactly when the page is this one
//! and the access is aligned and in user space (a misaligned address keeps
//! a low bit, an address at or above 2 GiB or outside 32 bits a high one,
//! and no user page's tag has either). Everything else, the address error
//! included, is the slow path's to decide. The host address is then the
//! entry's `addend` plus the guest address.
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
    /// The guest page's first address, or `u64::MAX` when empty (which
    /// no masked address equals, see the module's comment).
    pub tag: u64,
    /// The host address of the page's first byte minus the page's guest
    /// address (wrapping): added to a guest address in the page, the host
    /// address of that byte.
    pub addend: usize,
}

impl TlbEntry {
    pub const EMPTY: TlbEntry = TlbEntry {
        tag: u64::MAX,
        addend: 0,
    };
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
            read: [TlbEntry::EMPTY; TLB_ENTRIES],
            write: [TlbEntry::EMPTY; TLB_ENTRIES],
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
        self.read.fill(TlbEntry::EMPTY);
        self.write.fill(TlbEntry::EMPTY);
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
        let e = &mut self.write[index(page)];
        if e.tag == (page as u64) << PAGE_SHIFT {
            *e = TlbEntry::EMPTY;
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
