//! Guest memory at a fixed host offset: a host reservation of 4 GiB, one
//! host page for each page of the guest's user space, where compiled code
//! finds guest address `a` at the view's base plus `a`.
//!
//! Contents: [`GuestView`], and the code pages that keep to the soft TLB
//! instead ([`Refusals`]).
//!
//! The embedder keeps its pages in a file (see `Memory::page_frame`), so
//! the view maps each page that the soft TLB would hold a second time,
//! shared, from that file: the kernel's copies and compiled code see the
//! same bytes. A page goes into the view where the soft TLB would take
//! it (after an access the slow path made), readable, or writable when the
//! TLB would take it for stores; every other page of the reservation is
//! inaccessible, so an access there faults and leaves compiled code (see
//! `trap`) exactly as a soft TLB miss. A page that holds decoded code is
//! never writable in the view (as the TLB's store table never holds it),
//! and the view is emptied whenever the soft TLB is.
//!
//! Mapping costs one `mmap` a page, which fills the page's entry in at
//! once (the access that asked for it comes next), and an entry in the
//! host's list of mappings (pages that follow each other in the guest and
//! in the file share one); a host that refuses another mapping empties the
//! view, which goes on filling from there.

use std::collections::{HashMap, HashSet};

use crate::code_cache::PAGE_SHIFT;
use crate::exec::USER_TOP;
use crate::{Memory, PageFrame};

/// Bytes the view maps guest pages into: the whole of user space.
const VIEW_BYTES: usize = USER_TOP as usize;
/// Bytes reserved beyond each end and never mapped, more than a 16-bit
/// offset reaches.
const GUARD: usize = 128 << 10;
/// Bytes reserved below the base and never mapped: kernel space, whose
/// addresses a register holds sign-extended (below 0 as 64-bit numbers),
/// and a guard.
///
/// Compiled code checks only an access's alignment, and adds the base
/// register's 64-bit value to the view's base: a register of a 32-bit
/// program holds a 32-bit value sign-extended (compiled code is entered
/// only then, see `Cpu::gprs_sign_extended`), which with a 16-bit offset
/// is an address within 2 GiB and a guard of the base, in user space or
/// out of it, so that an access out of user space faults here, and the
/// slow path raises its address error.
const BELOW: usize = (1 << 31) + GUARD;
/// The whole reservation.
const RESERVED: usize = BELOW + VIEW_BYTES + GUARD;

/// A page the view maps: its frame, and whether it is writable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Mapped {
    frame: PageFrame,
    write: bool,
}

/// The view of one CPU's guest memory (see the module's comment).
pub(crate) struct GuestView {
    base: *mut u8,
    /// The pages mapped, by page number.
    pages: HashMap<u32, Mapped>,
}

impl GuestView {
    /// Reserves the view, every page inaccessible; `None` where the host
    /// refuses (or has no fault handler for compiled code, see `trap`).
    pub fn new() -> Option<GuestView> {
        if !super::trap::install() {
            return None;
        }
        // SAFETY: a fresh anonymous mapping, placed by the host.
        let start = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                RESERVED,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        (start != libc::MAP_FAILED).then(|| GuestView {
            // SAFETY: inside the reservation.
            base: unsafe { start.cast::<u8>().add(BELOW) },
            pages: HashMap::new(),
        })
    }

    /// The host address of guest address 0.
    pub fn base(&self) -> usize {
        self.base as usize
    }

    /// The reservation, kernel space below the base and the guards
    /// included: where a fault is the view's.
    pub fn reserved(&self) -> (usize, usize) {
        (
            self.base as usize - BELOW,
            self.base as usize - BELOW + RESERVED,
        )
    }

    /// The host address of guest page `page`.
    fn at(&self, page: u32) -> *mut libc::c_void {
        // SAFETY: every user page is inside the reservation.
        unsafe { self.base.add((page as usize) << PAGE_SHIFT).cast() }
    }

    /// Maps the guest page that holds `addr` from `frame`, writable when
    /// `write`.
    pub fn map(&mut self, addr: u32, frame: PageFrame, write: bool) {
        let page = addr >> PAGE_SHIFT;
        let want = Mapped { frame, write };
        if addr as u64 >= USER_TOP
            || self
                .pages
                .get(&page)
                .is_some_and(|m| m.frame == frame && m.write >= write)
        {
            return;
        }
        if !self.place(page, want) {
            return self.clear();
        }
        self.pages.insert(page, want);
    }

    /// Maps `page` as `m` says (filled in at once: the access that asked
    /// for it comes next); false if the host refused.
    fn place(&mut self, page: u32, m: Mapped) -> bool {
        let prot = libc::PROT_READ | if m.write { libc::PROT_WRITE } else { 0 };
        // SAFETY: a page of the reservation, which only this view maps
        // into.
        let got = unsafe {
            libc::mmap(
                self.at(page),
                1 << PAGE_SHIFT,
                prot,
                libc::MAP_SHARED | libc::MAP_FIXED | libc::MAP_POPULATE,
                m.frame.fd,
                m.frame.offset as libc::off_t,
            )
        };
        got != libc::MAP_FAILED
    }

    /// Guest page `page` now holds decoded code: compiled code no longer
    /// writes it directly.
    pub fn protect(&mut self, page: u32) {
        let Some(m) = self.pages.get_mut(&page).filter(|m| m.write) else {
            return;
        };
        m.write = false;
        let at = self.at(page);
        // SAFETY: a page of the reservation this view mapped.
        if unsafe { libc::mprotect(at, 1 << PAGE_SHIFT, libc::PROT_READ) } != 0 {
            self.clear();
        }
    }

    /// After a change to the memory's pages (its `direct_epoch` moved):
    /// keeps each page the memory still names by the same frame, readable
    /// or writable as it still allows (never writable where `code` says
    /// the page holds decoded code), and unmaps the rest. A program that
    /// maps, unmaps or forks keeps most of its pages where they were, and
    /// they need not fault into the view again.
    pub fn revalidate<M: Memory>(&mut self, mem: &mut M, code: impl Fn(u32) -> bool) {
        let pages: Vec<(u32, Mapped)> = self.pages.iter().map(|(&p, &m)| (p, m)).collect();
        for (page, m) in pages {
            let addr = page << PAGE_SHIFT;
            let write = m.write && !code(addr);
            let now = match write.then(|| mem.page_frame(addr, true)).flatten() {
                Some(frame) => Some(Mapped { frame, write: true }),
                None => mem.page_frame(addr, false).map(|frame| Mapped {
                    frame,
                    write: false,
                }),
            };
            match now {
                Some(n) if n == m => {}
                Some(n) if n.frame == m.frame => self.protect(page),
                Some(n) => {
                    if !self.place(page, n) {
                        return self.clear();
                    }
                    self.pages.insert(page, n);
                }
                None => {
                    if !self.unmap(page) {
                        return self.clear();
                    }
                    self.pages.remove(&page);
                }
            }
        }
    }

    /// Makes `page` inaccessible again; false if the host refused.
    fn unmap(&mut self, page: u32) -> bool {
        // SAFETY: a page of the reservation, as `new` made it.
        let got = unsafe {
            libc::mmap(
                self.at(page),
                1 << PAGE_SHIFT,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_FIXED,
                -1,
                0,
            )
        };
        got != libc::MAP_FAILED
    }

    /// Makes every page inaccessible again.
    pub fn clear(&mut self) {
        if self.pages.is_empty() {
            return;
        }
        // SAFETY: replaces the whole reservation, as `new` made it.
        let got = unsafe {
            libc::mmap(
                self.base.cast(),
                VIEW_BYTES,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_FIXED,
                -1,
                0,
            )
        };
        // Nothing else may ever land in the reservation: compiled code
        // would write there.
        if got == libc::MAP_FAILED {
            eprintln!("irix-emu: cannot reset the compiled tier's view of guest memory");
            std::process::abort();
        }
        self.pages.clear();
    }
}

/// Pages of code whose functions keep to the soft TLB: an access through
/// the view to a page the memory cannot name by frame (a MAP_SHARED page
/// of the kernel's) faults every time, a host signal where the soft TLB's
/// miss is a return. After [`Refusals::LIMIT`] such faults in functions of
/// a code page, the page's compiled code is dropped (as by a store into
/// it), and compiled again without the view.
#[derive(Clone, Debug, Default)]
pub(crate) struct Refusals {
    counts: HashMap<u32, u32>,
    tlb_only: HashSet<u32>,
    /// A code page whose code is to be dropped.
    pub pending: Option<u32>,
}

impl Refusals {
    pub const LIMIT: u32 = 64;

    /// An access of the function at `pc` faulted in the view at a page
    /// the memory could not name by frame.
    pub fn count(&mut self, pc: u32) {
        let page = pc >> PAGE_SHIFT;
        let n = self.counts.entry(page).or_default();
        *n += 1;
        if *n == Refusals::LIMIT {
            self.tlb_only.insert(page);
            self.pending = Some(page);
        }
    }

    /// Whether the functions of the code page holding `pc` keep to the
    /// soft TLB.
    pub fn keeps_to_tlb(&self, pc: u32) -> bool {
        self.tlb_only.contains(&(pc >> PAGE_SHIFT))
    }
}

impl Drop for GuestView {
    fn drop(&mut self) {
        // SAFETY: the reservation `new` made, which nothing uses any more
        // (the code compiled against it goes with it).
        unsafe { libc::munmap(self.base.sub(BELOW).cast(), RESERVED) };
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// A one-page memfd holding `byte` in its first byte.
    fn frame_file(byte: u8) -> i32 {
        unsafe {
            let fd = libc::memfd_create(c"view-test".as_ptr(), libc::MFD_CLOEXEC);
            assert!(fd >= 0);
            assert_eq!(libc::ftruncate(fd, 4096), 0);
            assert_eq!(libc::pwrite(fd, [byte].as_ptr().cast(), 1, 0), 1);
            fd
        }
    }

    #[test]
    fn a_mapped_page_shows_its_frame_at_the_guest_address() {
        let Some(mut view) = GuestView::new() else {
            eprintln!("no view on this host: not checked");
            return;
        };
        let fd = frame_file(0x5a);
        view.map(0x1234_5678, PageFrame { fd, offset: 0 }, true);
        let at = (view.base() + 0x1234_5000) as *mut u8;
        unsafe {
            assert_eq!(*at, 0x5a);
            *at.add(1) = 7;
            let mut back = [0u8; 2];
            assert_eq!(libc::pread(fd, back.as_mut_ptr().cast(), 2, 0), 2);
            assert_eq!(back, [0x5a, 7], "the file sees the view's store");
        }
        assert_eq!(view.pages.len(), 1);
        view.protect(0x12345);
        assert!(!view.pages[&0x12345].write);
        view.clear();
        assert!(view.pages.is_empty());
        unsafe { libc::close(fd) };
    }
}
