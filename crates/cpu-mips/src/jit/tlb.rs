//! The compiled tier's soft TLB: guest pages the embedder lets compiled
//! code read and write directly (see `Memory::direct_page`).
//!
//! Contents: [`Tlb`] and its entries.
//!
//! Two direct-mapped tables of 256 entries (1 MiB of guest memory each),
//! one for loads and one for stores, indexed by the low bits of the page
//! number. A compiled load or store whose page is in its table is a host
//! load or store and a byte swap; any other access goes through the
//! embedder's `Memory` methods, and fills the table on success.
//!
//! The tables are valid for one `Cpu::run`, which empties them first: the
//! embedder changes mappings, permissions and copy-on-write sharing only
//! between runs. The store table never holds a page of decoded code, so a
//! direct store needs no check for self-modifying code: marking a page as
//! code evicts it.

use std::ptr::NonNull;

use crate::code_cache::PAGE_SHIFT;
use crate::Memory;

/// Entries per table.
pub(crate) const TLB_ENTRIES: usize = 256;

/// One entry: the guest page number it holds, and where its bytes are.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct TlbEntry {
    /// Guest page number, or [`TlbEntry::EMPTY`] (no user page has it).
    pub page: u32,
    /// Host address of the page's first byte.
    pub host: usize,
}

impl TlbEntry {
    pub const EMPTY: TlbEntry = TlbEntry {
        page: u32::MAX,
        host: 0,
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
        if let Some(host) = mem.direct_page(addr, false) {
            self.read[index(addr >> PAGE_SHIFT)] = entry(addr, host);
        }
    }

    /// After a store to `addr` (not into decoded code) succeeded: enters
    /// its page for stores, and for loads (a writable page's bytes stay
    /// where they are), if the embedder allows direct writes.
    pub fn fill_write<M: Memory>(&mut self, mem: &mut M, addr: u32) {
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
        if e.page == page {
            *e = TlbEntry::EMPTY;
        }
    }
}

fn entry(addr: u32, host: NonNull<u8>) -> TlbEntry {
    TlbEntry {
        page: addr >> PAGE_SHIFT,
        host: host.as_ptr() as usize,
    }
}
