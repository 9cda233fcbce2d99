//! A process's address space: mappings (regions) with R/W/X permissions,
//! and 4 KiB pages that exist only once touched, big-endian like the
//! R4000 in IRIX.
//!
//! Contents: `AddressSpace` (this file), `regions` (the mappings and what
//! backs them: zeroes, a file, or a shared object), `shared` (the pages of
//! MAP_SHARED mappings, one copy for every process and for the file's
//! read(2) and write(2)), `attach` (the System V shared memory segments
//! attached here, however mprotect and munmap cut their regions), `frames`
//! (the host memory private pages live in), `budget` (the run's one memory
//! limit and the cost model of memory work).
//!
//! Mapping costs nothing but a region entry: untouched bss, heap, stack and
//! mmap pages have no host memory. The first access to a page materialises
//! it in a two-level table indexed by the 32-bit virtual address (10 bits of
//! directory, 10 bits of page, 12 bits of offset), so the hot path is two
//! indexed loads and no hashing. An untouched anonymous page first reads as
//! the budget's shared zero page; a file-backed one is read from its file.
//! A MAP_SHARED region's pages never enter the table: each access to one
//! takes the cold path to its [`SharedObject`], which holds the only copy.
//! Pages are reference-counted: `fork` clones the table and a page is copied
//! only when one side writes it (copy-on-write through `Rc::make_mut`); the
//! zero page is copied the same way on its first write. A private page's
//! bytes (the zero page's too) are a frame of the run's pool, which on
//! Linux is also a page of one anonymous file, so that the compiled tier
//! can map any page a second time by the file and the page's offset in it
//! (`page_frame`); a frame never moves while it is in use. The kernel's own
//! copies (`read_bytes`, `write_bytes`) see and materialise pages exactly as
//! user loads and stores do, so a system call writing into an untouched part
//! of the stack works like a store there.
//!
//! Every host byte an address space holds (pages, directories, regions) is
//! charged to the run's [`Budget`]; a user access that needs a page the
//! budget cannot give faults, and the budget remembers why.
//!
//! Execute permission is enforced on instruction fetch. A real R4000 TLB has
//! no execute bit; irix-emu is stricter (a jump into the heap or stack faults
//! with SIGSEGV) and documents it in the README.

mod attach;
mod budget;
mod frames;
mod regions;
mod shared;

use std::rc::Rc;

use bitflags::bitflags;
use cpu_mips::{MemFault, Memory, PageFrame};

pub use attach::{AttachMark, Attachment};
pub use budget::{cost, Budget};
pub use regions::{Backing, FileSource, Region};
pub use shared::{SharedFiles, SharedObject};

use budget::{PageData, PAGE_BYTES};
use frames::Frame;
use regions::Regions;

use crate::Errno;

pub use crate::abi::limits::{PAGE_SIZE, USER_TOP};
const PAGE_SHIFT: u32 = 12;
const DIR_ENTRIES: usize = 1024;
/// What an untouched anonymous page reads as to a kernel read, which does
/// not make the page (nor, in a run that has none yet, the frame pool).
static ZEROES: PageData = [0; PAGE_BYTES];

bitflags! {
    /// Page permissions (the PROT_* bits of mmap use the same values).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Perms: u8 {
        const R = 1;
        const W = 2;
        const X = 4;
    }
}

#[derive(Clone)]
struct Page {
    perms: Perms,
    data: Rc<Frame>,
}

type Directory = [Option<Page>; DIR_ENTRIES];

/// Host bytes a materialised page costs (its data and the Rc's counts).
const PAGE_COST: u64 = PAGE_BYTES as u64 + 16;
/// Host bytes one directory of the page table costs.
const DIR_COST: u64 = std::mem::size_of::<Directory>() as u64;
/// The least a kernel copy into a process's memory needs the budget to
/// hold (a page and two page-table directories; `poke_bytes`): kernel
/// objects that a copy-out follows (a new socket's descriptors) keep
/// this much free, so that the copy-out never fails after them.
pub const COPY_RESERVE: u64 = PAGE_COST + 2 * DIR_COST;
/// Host bytes one region entry costs (a B-tree slot with its backing).
const REGION_COST: u64 = 96;
/// Host bytes the address space itself costs (the directory vector).
const SPACE_COST: u64 = (DIR_ENTRIES * std::mem::size_of::<Option<Box<Directory>>>()) as u64;

/// One address space. `Clone` is the fork copy (copy-on-write per page):
/// the caller checks [`AddressSpace::table_bytes`] fits the budget first.
pub struct AddressSpace {
    regions: Regions,
    /// By the address's top ten bits: a fixed array, so a 32-bit address
    /// indexes it with no bounds check.
    dirs: Box<[Option<Box<Directory>>; DIR_ENTRIES]>,
    budget: Rc<Budget>,
    /// What this space has charged for its directories and regions.
    charged: u64,
    /// The ELF objects mapped here by name (the interpreter, and each object
    /// SGI_ELFMAP mapped), in mapping order: what a profiler needs to name
    /// a PC outside the program. Unmapping does not remove an entry.
    objects: Vec<MappedObject>,
    /// The System V shared memory attachments (see `attach`).
    attachments: Vec<attach::Attachment>,
}

/// An ELF object mapped into an address space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MappedObject {
    /// The guest path it was mapped from ("/usr/lib/libc.so.1").
    pub path: String,
    /// Its executable segments at their run-time addresses, `[start, end)`.
    pub text: Vec<(u32, u32)>,
    /// The run-time address of each of its loaded segments, in the order
    /// of its program headers: what a debugger relocates the object's
    /// symbols by.
    pub segments: Vec<u32>,
}

impl MappedObject {
    /// Does one of its executable segments hold `pc`?
    pub fn holds(&self, pc: u32) -> bool {
        self.text.iter().any(|&(s, e)| (s..e).contains(&pc))
    }
}

/// The bytes of a page for writing: a shared page (fork, the zero page) is
/// copied first, which the budget must hold.
#[inline(always)]
fn writable_data<'a>(page: &'a mut Page, budget: &Budget) -> Option<&'a mut PageData> {
    if Rc::get_mut(&mut page.data).is_some() {
        // The usual case, a page that is already the process's own: no
        // call (`Rc::make_mut`, which checks again, is not inlined).
        return Rc::get_mut(&mut page.data).map(|frame| &mut **frame);
    }
    if budget.charge(PAGE_COST).is_err() {
        budget.set_exhausted();
        return None;
    }
    budget.add_work(cost::PAGE_CYCLES);
    // The page's bytes move. Compiled code may hold the shared bytes
    // only of a page without write permission (`direct_page` hands out
    // a writable page only while no one shares it), which only the
    // kernel's own copies write: only then does the soft TLB have to
    // let go. A program's first store to each fresh page of its heap
    // or stack (the zero page copied) no longer empties it (a warm IDO
    // cc of sm64's behavior_script.c: emptied 217 times, not 565;
    // 22 K misses, not 44 K).
    if !page.perms.contains(Perms::W) {
        budget.new_epoch();
    }
    Some(&mut **Rc::make_mut(&mut page.data))
}

/// A page taken out of an address space to be kept by one process: an
/// sproc member's PRDA, private while the rest of the space is shared.
/// Gives its memory back when dropped, if no space shares it; a clone
/// shares the bytes until either copy is written (a fork's copy).
#[derive(Clone)]
pub struct PrivatePage {
    page: Page,
    budget: Rc<Budget>,
}

impl PrivatePage {
    /// Writes `bytes` at `offset` into the page (copying it first if it
    /// is shared).
    pub fn write(&mut self, offset: usize, bytes: &[u8]) {
        if let Some(data) = writable_data(&mut self.page, &self.budget) {
            data[offset..offset + bytes.len()].copy_from_slice(bytes);
        }
    }
}

impl Drop for PrivatePage {
    fn drop(&mut self) {
        if Rc::strong_count(&self.page.data) == 1 {
            self.budget.release(PAGE_COST);
        }
    }
}

/// Rounds `addr` down to its page.
pub fn page_floor(addr: u64) -> u64 {
    addr & !(PAGE_SIZE as u64 - 1)
}

/// Rounds `addr` up to a page boundary.
pub fn page_ceil(addr: u64) -> u64 {
    (addr + PAGE_SIZE as u64 - 1) & !(PAGE_SIZE as u64 - 1)
}

/// The directory and page-slot indexes of `addr`.
#[inline(always)]
fn slot(addr: u32) -> (usize, usize) {
    (
        (addr >> 22) as usize,
        ((addr >> PAGE_SHIFT) & 0x3ff) as usize,
    )
}

impl Default for AddressSpace {
    /// An empty space on an unlimited budget of its own (a placeholder).
    fn default() -> Self {
        AddressSpace::new(Budget::unlimited())
    }
}

impl Clone for AddressSpace {
    fn clone(&self) -> Self {
        self.budget.force(self.charged);
        self.budget.add_work(cost::copy_cycles(self.charged));
        // A new space, and this one's pages are shared from now on.
        self.budget.new_epoch();
        AddressSpace {
            regions: self.regions.clone(),
            dirs: self.dirs.clone(),
            budget: self.budget.clone(),
            charged: self.charged,
            objects: self.objects.clone(),
            attachments: self.attachments.clone(),
        }
    }
}

impl Drop for AddressSpace {
    fn drop(&mut self) {
        self.budget.release(self.charged);
        let mut freed = 0u64;
        for dir in self.dirs.iter().flatten() {
            for page in dir.iter().flatten() {
                if Rc::strong_count(&page.data) == 1 {
                    freed += PAGE_COST;
                }
            }
        }
        self.budget.release(freed);
    }
}

impl AddressSpace {
    /// An empty address space charging `budget`.
    pub fn new(budget: Rc<Budget>) -> Self {
        budget.force(SPACE_COST);
        budget.new_epoch();
        AddressSpace {
            regions: Regions::default(),
            dirs: Box::new([const { None }; DIR_ENTRIES]),
            budget,
            charged: SPACE_COST,
            objects: Vec::new(),
            attachments: Vec::new(),
        }
    }

    /// Records that `object` was mapped (see [`MappedObject`]).
    pub fn note_object(&mut self, object: MappedObject) {
        self.objects.push(object);
    }

    /// The objects mapped here, in mapping order.
    pub fn objects(&self) -> &[MappedObject] {
        &self.objects
    }

    /// The most recently mapped object holding `pc`.
    pub fn object_at(&self, pc: u32) -> Option<&MappedObject> {
        self.objects.iter().rev().find(|o| o.holds(pc))
    }

    /// The budget this space charges.
    pub fn budget(&self) -> &Rc<Budget> {
        &self.budget
    }

    /// Host bytes a fork copy of this space would charge at once (its
    /// table and regions; its pages are shared until written).
    pub fn table_bytes(&self) -> u64 {
        self.charged
    }

    /// Keeps the charge for directories and regions in step with them.
    fn recharge(&mut self) {
        let dirs = self.dirs.iter().flatten().count() as u64;
        let now = SPACE_COST
            + dirs * DIR_COST
            + self.regions.len() as u64 * REGION_COST
            + self.attachments.len() as u64 * attach::ATTACH_COST;
        if now > self.charged {
            self.budget.force(now - self.charged);
        } else {
            self.budget.release(self.charged - now);
        }
        self.charged = now;
    }

    #[inline(always)]
    fn page(&self, addr: u32) -> Option<&Page> {
        let (d, s) = slot(addr);
        self.dirs[d].as_ref()?[s].as_ref()
    }

    #[inline(always)]
    fn page_mut(&mut self, addr: u32) -> Option<&mut Page> {
        let (d, s) = slot(addr);
        self.dirs[d].as_mut()?[s].as_mut()
    }

    /// Takes the page holding `addr` out of the table (the region stays
    /// mapped: a touch now makes a fresh page), for one process to keep.
    /// None if the page is untouched.
    pub fn take_page(&mut self, addr: u32) -> Option<PrivatePage> {
        let page = self.page_mut(addr)?.clone();
        let (d, s) = slot(addr);
        self.dirs[d].as_mut()?[s] = None;
        self.budget.new_epoch();
        // The table no longer holds it: the kept page carries its charge.
        Some(PrivatePage {
            page,
            budget: self.budget.clone(),
        })
    }

    /// A copy of the page holding `addr` (shared until either is written),
    /// if touched.
    pub fn copy_page(&self, addr: u32) -> Option<PrivatePage> {
        // The page is shared from now on.
        self.budget.new_epoch();
        Some(PrivatePage {
            page: self.page(addr)?.clone(),
            budget: self.budget.clone(),
        })
    }

    /// Puts a kept page back at `addr`, replacing what the table holds
    /// there (with that page's permissions); nothing if `addr` is unmapped.
    pub fn put_page(&mut self, addr: u32, mut kept: PrivatePage) {
        if self.page(addr).is_none() && self.fault_in(addr).is_none() {
            return;
        }
        // `kept` is left holding the zero page, so its drop releases nothing.
        let data = std::mem::replace(&mut kept.page.data, self.budget.zero());
        self.budget.new_epoch();
        if let Some(slot) = self.page_mut(addr) {
            let old = std::mem::replace(&mut slot.data, data);
            if Rc::strong_count(&old) == 1 {
                self.budget.release(PAGE_COST);
            }
        }
    }

    /// Is `addr` mapped (touched or not)?
    pub fn is_mapped(&self, addr: u32) -> bool {
        self.regions.find(addr).is_some()
    }

    /// Is any byte of `[start, end)` mapped?
    pub fn any_mapped(&self, start: u64, end: u64) -> bool {
        end > start && self.regions.any_in(start as u32, end.min(USER_TOP) as u32)
    }

    /// Is every byte of `[start, end)` mapped?
    pub fn all_mapped(&self, start: u64, end: u64) -> bool {
        end <= USER_TOP && self.regions.covers(start as u32, end as u32)
    }

    /// The permissions of the page holding `addr`, if mapped.
    pub fn perms(&self, addr: u32) -> Option<Perms> {
        match self.page(addr) {
            Some(p) => Some(p.perms),
            None => self.regions.find(addr).map(|(_, r)| r.perms),
        }
    }

    /// Drops the materialised pages of `[first, end)` (page-aligned).
    fn drop_pages(&mut self, first: u64, end: u64) {
        self.budget.new_epoch();
        let mut freed = 0u64;
        let mut addr = first;
        while addr < end {
            let (d, s) = slot(addr as u32);
            let dir_end = ((addr >> 22) + 1) << 22;
            if let Some(Some(dir)) = self.dirs.get_mut(d) {
                let last = ((dir_end.min(end) - addr) >> PAGE_SHIFT) as usize + s;
                for entry in &mut dir[s..last] {
                    if let Some(page) = entry.take() {
                        if Rc::strong_count(&page.data) == 1 {
                            freed += PAGE_COST;
                        }
                    }
                }
                if dir.iter().all(Option::is_none) {
                    self.dirs[d] = None;
                }
            }
            addr = dir_end;
        }
        self.budget.release(freed);
    }

    /// Maps [start, start+len) (page-rounded) with `backing`, replacing
    /// what was there. Costs a region entry, not the pages. ENOMEM past
    /// user space or when the budget cannot hold the entry.
    pub fn map(
        &mut self,
        start: u64,
        len: u64,
        perms: Perms,
        backing: Backing,
    ) -> Result<(), Errno> {
        let (first, end) = (page_floor(start), page_ceil(start + len));
        if end > USER_TOP || end <= first {
            return Err(Errno::ENOMEM);
        }
        // A replacing map may split two regions around it.
        if self.budget.available() < 2 * REGION_COST {
            return Err(Errno::ENOMEM);
        }
        self.drop_pages(first, end);
        self.regions.insert(
            first as u32,
            Region {
                end: end as u32,
                perms,
                backing,
            },
        );
        self.prune_attachments(first as u32, end as u32);
        self.budget.add_work(cost::MAP_CYCLES);
        self.recharge();
        Ok(())
    }

    /// Maps zero-filled memory (bss, heap, stack, anonymous mmap).
    pub fn map_anon(&mut self, start: u64, len: u64, perms: Perms) -> Result<(), Errno> {
        self.map(start, len, perms, Backing::Anon)
    }

    /// Unmaps [start, start+len) (page-rounded); unmapped holes are fine.
    pub fn unmap(&mut self, start: u64, len: u64) {
        let (first, end) = (page_floor(start), page_ceil(start + len).min(USER_TOP));
        if end <= first {
            return;
        }
        self.drop_pages(first, end);
        self.regions.remove(first as u32, end as u32);
        self.prune_attachments(first as u32, end as u32);
        self.budget.add_work(cost::MAP_CYCLES);
        self.recharge();
    }

    /// Changes the permissions of [start, start+len); ENOMEM if any page in
    /// the range is unmapped (mprotect(2)).
    pub fn protect(&mut self, start: u64, len: u64, perms: Perms) -> Result<(), Errno> {
        let (first, end) = (page_floor(start), page_ceil(start + len));
        if end > USER_TOP || !self.regions.covers(first as u32, end as u32) {
            return Err(Errno::ENOMEM);
        }
        if end <= first {
            return Ok(());
        }
        self.regions.protect(first as u32, end as u32, perms);
        self.budget.new_epoch();
        let mut addr = first;
        while addr < end {
            let (d, _) = slot(addr as u32);
            if self.dirs[d].is_none() {
                addr = ((addr >> 22) + 1) << 22;
                continue;
            }
            if let Some(page) = self.page_mut(addr as u32) {
                page.perms = perms;
            }
            addr += PAGE_SIZE as u64;
        }
        self.budget.add_work(cost::MAP_CYCLES);
        self.recharge();
        Ok(())
    }

    /// The lowest free `size` bytes in [from, below) (mmap's first fit).
    pub fn find_free(&self, from: u32, below: u32, size: u64) -> Option<u32> {
        self.regions.find_gap(from, below, size)
    }

    /// The page holding `addr`, materialising it from its region on first
    /// touch: the zero page for anonymous memory, the file's bytes for a
    /// file-backed region. None if unmapped, or (the budget then says so)
    /// when the budget cannot hold what it needs.
    #[cold]
    #[inline(never)]
    fn fault_in(&mut self, addr: u32) -> Option<&mut Page> {
        let (start, region) = self.regions.find(addr)?;
        if region.backing.shared_at(0).is_some() {
            return None; // reached through `shared_at`, never copied in
        }
        let perms = region.perms;
        let data = if region.backing.is_anon() {
            self.budget.zero()
        } else {
            if self.budget.charge(PAGE_COST).is_err() {
                self.budget.set_exhausted();
                return None;
            }
            let mut page = self.budget.frames().zeroed();
            let off = u64::from((addr & !(PAGE_SIZE - 1)) - start);
            region.backing.fill(off, &mut page[..]);
            self.budget.add_work(cost::FILE_PAGE_CYCLES);
            Rc::new(page)
        };
        let (d, s) = slot(addr);
        if self.dirs[d].is_none() {
            if self.budget.available() < DIR_COST {
                self.budget.set_exhausted();
                return None;
            }
            self.dirs[d] = Some(Box::new(std::array::from_fn(|_| None)));
            self.recharge();
        }
        let dir = self.dirs[d].as_mut()?;
        dir[s] = Some(Page { perms, data });
        dir[s].as_mut()
    }

    /// For an address in a MAP_SHARED region: its object and the object
    /// offset, or the fault an access needing `need` takes there. None for
    /// any other address.
    fn shared_at(&self, addr: u32, need: Perms) -> Option<Result<(&SharedObject, u64), MemFault>> {
        let (start, region) = self.regions.find(addr)?;
        let at = region.backing.shared_at(u64::from(addr - start))?;
        Some(if region.perms.contains(need) {
            Ok(at)
        } else {
            Err(MemFault::Protection)
        })
    }

    /// The shared objects mapped in `[start, start+len)` (page-rounded),
    /// each with the object offsets inside the range: what msync(2)
    /// writes back. ENOMEM if part of the range is unmapped.
    pub fn shared_in(
        &self,
        start: u64,
        len: u64,
    ) -> Result<Vec<(Rc<SharedObject>, u64, u64)>, Errno> {
        let (first, end) = (page_floor(start), page_ceil(start + len));
        if end > USER_TOP || !self.regions.covers(first as u32, end as u32) {
            return Err(Errno::ENOMEM);
        }
        Ok(self.regions.shared_in(first as u32, end as u32))
    }

    /// The page for an access needing `need`, faulting it in if untouched.
    #[inline(always)]
    fn access(&mut self, addr: u32, need: Perms) -> Result<&mut Page, MemFault> {
        let (d, s) = slot(addr);
        if !matches!(&self.dirs[d], Some(dir) if dir[s].is_some()) {
            self.fault_in(addr).ok_or(MemFault::Unmapped)?;
        }
        let page = self.dirs[d]
            .as_mut()
            .and_then(|dir| dir[s].as_mut())
            .ok_or(MemFault::Unmapped)?;
        if page.perms.contains(need) {
            Ok(page)
        } else {
            Err(MemFault::Protection)
        }
    }

    /// Calls `f` with the bytes of the page holding `addr` as a kernel
    /// read sees them, without materialising an untouched page: EFAULT if
    /// unmapped or not readable.
    fn with_page<R>(&self, addr: u32, f: impl FnOnce(&PageData) -> R) -> Result<R, Errno> {
        if let Some(page) = self.page(addr) {
            return if page.perms.contains(Perms::R) {
                Ok(f(&page.data))
            } else {
                Err(Errno::EFAULT)
            };
        }
        let (start, region) = self.regions.find(addr).ok_or(Errno::EFAULT)?;
        if !region.perms.contains(Perms::R) {
            return Err(Errno::EFAULT);
        }
        let page_off = u64::from((addr & !(PAGE_SIZE - 1)) - start);
        if let Some((object, off)) = region.backing.shared_at(page_off) {
            let mut page = [0u8; PAGE_BYTES];
            object.read(off, &mut page)?;
            return Ok(f(&page));
        }
        if region.backing.is_anon() {
            return Ok(f(&ZEROES));
        }
        let mut page = [0u8; PAGE_BYTES];
        region
            .backing
            .fill(u64::from((addr & !(PAGE_SIZE - 1)) - start), &mut page);
        self.budget.add_work(cost::FILE_PAGE_CYCLES);
        Ok(f(&page))
    }

    /// Copies guest bytes out, as the kernel does for a system call argument:
    /// EFAULT if any byte is unmapped or unreadable.
    pub fn read_bytes(&self, addr: u32, buf: &mut [u8]) -> Result<(), Errno> {
        let mut done = 0usize;
        while done < buf.len() {
            let a = addr.checked_add(done as u32).ok_or(Errno::EFAULT)?;
            let off = (a & (PAGE_SIZE - 1)) as usize;
            let n = (PAGE_BYTES - off).min(buf.len() - done);
            self.with_page(a, |data| {
                buf[done..done + n].copy_from_slice(&data[off..off + n])
            })?;
            done += n;
        }
        self.budget.add_work(cost::copy_cycles(buf.len() as u64));
        Ok(())
    }

    /// Copies bytes into guest memory as the kernel does (read(2) into a
    /// buffer): EFAULT if any byte is unmapped or not writable, ENOMEM if
    /// the budget cannot hold the pages it touches; on failure nothing is
    /// written.
    pub fn write_bytes(&mut self, addr: u32, data: &[u8]) -> Result<(), Errno> {
        self.check_writable(addr, data.len() as u32)?;
        self.poke_bytes(addr, data)
    }

    /// Writes bytes regardless of the W permission (the kernel building a
    /// stack, a PRDA, a stub page); the pages must be mapped. ENOMEM (and
    /// nothing written) if the budget cannot hold the pages.
    pub fn poke_bytes(&mut self, addr: u32, data: &[u8]) -> Result<(), Errno> {
        if data.is_empty() {
            return Ok(());
        }
        let first = page_floor(u64::from(addr));
        let end = page_ceil(u64::from(addr) + data.len() as u64);
        if end > USER_TOP || !self.regions.covers(first as u32, end as u32) {
            return Err(Errno::EFAULT);
        }
        // Room for every page to be new, and a directory per 4 MiB.
        let pages = (end - first) / PAGE_SIZE as u64;
        if self.budget.available() < pages * PAGE_COST + (pages / 1024 + 2) * DIR_COST {
            return Err(Errno::ENOMEM);
        }
        let mut done = 0usize;
        while done < data.len() {
            let a = addr + done as u32;
            let off = (a & (PAGE_SIZE - 1)) as usize;
            let n = (PAGE_BYTES - off).min(data.len() - done);
            if let Some(at) = self.shared_at(a, Perms::empty()) {
                let (object, off) = at.map_err(|_| Errno::EFAULT)?;
                object.write(off, &data[done..done + n])?;
                done += n;
                continue;
            }
            let (d, s) = slot(a);
            if self.page(a).is_none() {
                self.fault_in(a).ok_or(Errno::ENOMEM)?;
            }
            let page = self.dirs[d]
                .as_mut()
                .and_then(|dir| dir[s].as_mut())
                .ok_or(Errno::EFAULT)?;
            let bytes = writable_data(page, &self.budget).ok_or(Errno::ENOMEM)?;
            bytes[off..off + n].copy_from_slice(&data[done..done + n]);
            done += n;
        }
        self.budget.add_work(cost::copy_cycles(data.len() as u64));
        Ok(())
    }

    /// EFAULT unless every byte of [addr, addr+len) is mapped writable.
    pub fn check_writable(&self, addr: u32, len: u32) -> Result<(), Errno> {
        if len == 0 {
            return Ok(());
        }
        let last = addr.checked_add(len - 1).ok_or(Errno::EFAULT)?;
        let mut a = addr & !(PAGE_SIZE - 1);
        loop {
            match self.perms(a) {
                Some(p) if p.contains(Perms::W) => {}
                _ => return Err(Errno::EFAULT),
            }
            match a.checked_add(PAGE_SIZE) {
                Some(next) if next <= last => a = next,
                _ => return Ok(()),
            }
        }
    }

    /// The frame of the page holding `addr`, if compiled code may reach
    /// it directly for a read, or with `write` a write (the conditions of
    /// `Memory::direct_page`, which `page_frame` shares). A page's bytes
    /// change place only by copy-on-write, and mappings and sharing change
    /// only in system calls, between runs. So a page may be read directly
    /// when it cannot be written (its bytes are shared and fixed) or is
    /// this space's own copy, and written directly once it is this space's
    /// own copy (the store that precedes the call made it so). MAP_SHARED
    /// pages are never in the table: always the slow path.
    fn direct_frame(&mut self, addr: u32, write: bool) -> Option<&Frame> {
        let page = self.page_mut(addr)?;
        if write {
            if !page.perms.contains(Perms::W) {
                return None;
            }
            Rc::get_mut(&mut page.data).map(|frame| &*frame)
        } else {
            let own = Rc::strong_count(&page.data) == 1 && Rc::weak_count(&page.data) == 0;
            if !page.perms.contains(Perms::R) || (page.perms.contains(Perms::W) && !own) {
                return None;
            }
            Some(&page.data)
        }
    }

    /// Reads a NUL-terminated string (path names, argv): EFAULT on a bad
    /// pointer, ENAMETOOLONG past `max` bytes.
    pub fn read_cstr(&self, addr: u32, max: usize) -> Result<Vec<u8>, Errno> {
        let mut out = Vec::new();
        let mut a = addr;
        loop {
            let off = (a & (PAGE_SIZE - 1)) as usize;
            let found = self.with_page(a, |data| {
                let chunk = &data[off..];
                match chunk.iter().position(|&b| b == 0) {
                    Some(nul) => {
                        out.extend_from_slice(&chunk[..nul]);
                        true
                    }
                    None => {
                        out.extend_from_slice(chunk);
                        false
                    }
                }
            })?;
            if out.len() > max {
                return Err(Errno::ENAMETOOLONG);
            }
            if found {
                self.budget.add_work(cost::copy_cycles(out.len() as u64));
                return Ok(out);
            }
            a = a
                .checked_add((PAGE_BYTES - off) as u32)
                .ok_or(Errno::EFAULT)?;
        }
    }

    pub fn read_u32(&self, addr: u32) -> Result<u32, Errno> {
        let mut b = [0; 4];
        self.read_bytes(addr, &mut b)?;
        Ok(u32::from_be_bytes(b))
    }

    pub fn write_u32(&mut self, addr: u32, v: u32) -> Result<(), Errno> {
        self.write_bytes(addr, &v.to_be_bytes())
    }

    /// The page's bytes, for an access of `N` bytes that the caller has
    /// aligned (so it never crosses a page). The hot path is the old
    /// two-level lookup; an untouched page takes the cold path.
    #[inline(always)]
    fn load<const N: usize>(&mut self, addr: u32, need: Perms) -> Result<[u8; N], MemFault> {
        let off = (addr & (PAGE_SIZE - 1)) as usize;
        if let Some(page) = self.page(addr) {
            if !page.perms.contains(need) {
                return Err(MemFault::Protection);
            }
            let mut out = [0; N];
            out.copy_from_slice(&page.data[off..off + N]);
            return Ok(out);
        }
        self.load_cold(addr, need)
    }

    /// A load from a page not in the table: a shared region's object, or
    /// a page faulted in now.
    #[cold]
    #[inline(never)]
    fn load_cold<const N: usize>(&mut self, addr: u32, need: Perms) -> Result<[u8; N], MemFault> {
        let mut out = [0; N];
        if let Some(at) = self.shared_at(addr, need) {
            let (object, off) = at?;
            object.read(off, &mut out).map_err(|_| MemFault::Unmapped)?;
            return Ok(out);
        }
        let off = (addr & (PAGE_SIZE - 1)) as usize;
        let page = self.access(addr, need)?;
        out.copy_from_slice(&page.data[off..off + N]);
        Ok(out)
    }

    /// A store to a page not in the table: into a shared region's object,
    /// or into a page faulted in now.
    #[cold]
    #[inline(never)]
    fn store_cold<const N: usize>(&mut self, addr: u32, bytes: [u8; N]) -> Result<(), MemFault> {
        if let Some(at) = self.shared_at(addr, Perms::W) {
            let (object, off) = at?;
            return object.write(off, &bytes).map_err(|_| MemFault::Unmapped);
        }
        self.fault_in(addr).ok_or(MemFault::Unmapped)?;
        self.store(addr, bytes)
    }

    #[inline(always)]
    fn store<const N: usize>(&mut self, addr: u32, bytes: [u8; N]) -> Result<(), MemFault> {
        let (d, s) = slot(addr);
        let Some(page) = self.dirs[d].as_mut().and_then(|dir| dir[s].as_mut()) else {
            return self.store_cold(addr, bytes);
        };
        if !page.perms.contains(Perms::W) {
            return Err(MemFault::Protection);
        }
        let data = writable_data(page, &self.budget).ok_or(MemFault::Unmapped)?;
        let off = (addr & (PAGE_SIZE - 1)) as usize;
        data[off..off + N].copy_from_slice(&bytes);
        Ok(())
    }
}

impl Memory for AddressSpace {
    #[inline(always)]
    fn load8(&mut self, addr: u32) -> Result<u8, MemFault> {
        self.load::<1>(addr, Perms::R).map(|b| b[0])
    }
    #[inline(always)]
    fn load16(&mut self, addr: u32) -> Result<u16, MemFault> {
        self.load(addr, Perms::R).map(u16::from_be_bytes)
    }
    #[inline(always)]
    fn load32(&mut self, addr: u32) -> Result<u32, MemFault> {
        self.load(addr, Perms::R).map(u32::from_be_bytes)
    }
    #[inline(always)]
    fn load64(&mut self, addr: u32) -> Result<u64, MemFault> {
        self.load(addr, Perms::R).map(u64::from_be_bytes)
    }
    #[inline(always)]
    fn store8(&mut self, addr: u32, value: u8) -> Result<(), MemFault> {
        self.store(addr, [value])
    }
    #[inline(always)]
    fn store16(&mut self, addr: u32, value: u16) -> Result<(), MemFault> {
        self.store(addr, value.to_be_bytes())
    }
    #[inline(always)]
    fn store32(&mut self, addr: u32, value: u32) -> Result<(), MemFault> {
        self.store(addr, value.to_be_bytes())
    }
    #[inline(always)]
    fn store64(&mut self, addr: u32, value: u64) -> Result<(), MemFault> {
        self.store(addr, value.to_be_bytes())
    }
    #[inline(always)]
    fn fetch32(&mut self, addr: u32) -> Result<u32, MemFault> {
        self.load(addr, Perms::X).map(u32::from_be_bytes)
    }
    /// The frame's bytes, when `direct_frame` allows: a frame never moves,
    /// so they stay there until the budget's page epoch changes
    /// (`direct_epoch`).
    fn direct_page(&mut self, addr: u32, write: bool) -> Option<std::ptr::NonNull<u8>> {
        self.direct_frame(addr, write).map(Frame::host_ptr)
    }

    /// The same frame as `direct_page`, as a page of the run's frame file;
    /// None also when its memory is anonymous (see `frames`).
    fn page_frame(&mut self, addr: u32, write: bool) -> Option<PageFrame> {
        self.direct_frame(addr, write)?.page_frame()
    }

    /// Pages are frames of the run's pool, which has a file on Linux (see
    /// `frames`).
    fn has_page_frames(&self) -> bool {
        self.budget.frames().has_file()
    }

    /// The run's page epoch (see `Budget::epoch`): every change that could
    /// move, free or share a page handed out by `direct_page`, or take a
    /// permission away, starts a new one.
    fn direct_epoch(&self) -> Option<u64> {
        Some(self.budget.epoch())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RW: Perms = Perms::R.union(Perms::W);

    fn space() -> AddressSpace {
        AddressSpace::new(Budget::unlimited())
    }

    #[test]
    fn unmapped_memory_faults_and_mapped_memory_is_zero() {
        let mut m = space();
        assert_eq!(m.load32(0x1000), Err(MemFault::Unmapped));
        m.map_anon(0x1000, 1, RW).unwrap();
        assert_eq!(m.load32(0x1ffc), Ok(0));
        assert!(m.is_mapped(0x1fff) && !m.is_mapped(0x2000));
    }

    #[test]
    fn stores_are_big_endian() {
        let mut m = space();
        m.map_anon(0x1000, 4096, RW).unwrap();
        m.store32(0x1000, 0x1122_3344).unwrap();
        assert_eq!(m.load8(0x1000), Ok(0x11));
        assert_eq!(m.load16(0x1002), Ok(0x3344));
    }

    #[test]
    fn permissions_are_enforced_per_access_kind() {
        let mut m = space();
        m.map_anon(0x1000, 4096, Perms::R | Perms::X).unwrap();
        assert_eq!(m.store32(0x1000, 1), Err(MemFault::Protection));
        assert_eq!(m.fetch32(0x1000), Ok(0));
        m.protect(0x1000, 4096, RW).unwrap();
        assert_eq!(m.fetch32(0x1000), Err(MemFault::Protection));
        assert_eq!(m.protect(0x1000, 8192, RW), Err(Errno::ENOMEM));
    }

    #[test]
    fn fork_copy_is_copy_on_write() {
        let mut parent = space();
        parent.map_anon(0x1000, 4096, RW).unwrap();
        parent.store32(0x1000, 7).unwrap();
        let mut child = parent.clone();
        child.store32(0x1000, 9).unwrap();
        assert_eq!(parent.load32(0x1000), Ok(7));
        assert_eq!(child.load32(0x1000), Ok(9));
    }

    /// What compiled code holds (a page's host address, for reading or
    /// writing) stays valid exactly while the epoch stays: every change
    /// that could move, free or share a page, or take a permission away,
    /// starts a new one, and plain accesses to a space's own pages do not.
    #[test]
    fn the_page_epoch_changes_with_every_change_a_direct_page_could_miss() {
        let mut m = space();
        m.map_anon(0x1000, 2 * 4096, RW).unwrap();
        m.store32(0x1000, 7).unwrap(); // the zero page copied: an own page
        fn changed(m: &mut AddressSpace, what: &str, f: &dyn Fn(&mut AddressSpace)) {
            let before = m.direct_epoch();
            f(m);
            assert_ne!(m.direct_epoch(), before, "{what}");
        }
        let e = m.direct_epoch();
        m.store32(0x1004, 8).unwrap();
        assert_eq!(m.load32(0x1000), Ok(7));
        assert!(m.direct_page(0x1000, true).is_some());
        assert_eq!(m.direct_epoch(), e, "accesses to own pages");
        changed(&mut m, "a fork shares the pages", &|m| drop(m.clone()));
        let child = m.clone();
        // A writable page shared is never handed out, so its copy moves
        // nothing compiled code holds.
        let e = m.direct_epoch();
        assert!(
            m.direct_page(0x1000, false).is_none(),
            "a shared writable page"
        );
        m.store32(0x1000, 9).unwrap();
        assert_eq!(m.direct_epoch(), e, "a copy-on-write of a writable page");
        drop(child);
        // A read-only page is handed out shared (here the zero page); the
        // kernel's own write copies it.
        m.map_anon(0x3000, 4096, Perms::R).unwrap();
        assert_eq!(m.load32(0x3000), Ok(0));
        assert!(
            m.direct_page(0x3000, false).is_some(),
            "a shared read-only page"
        );
        changed(&mut m, "a copy-on-write of a read-only page", &|m| {
            m.poke_bytes(0x3000, &[1]).unwrap()
        });
        changed(&mut m, "mprotect", &|m| {
            m.protect(0x1000, 4096, Perms::R).unwrap()
        });
        changed(&mut m, "a page kept aside", &|m| drop(m.take_page(0x1000)));
        m.store32(0x2000, 1).unwrap();
        let kept = m.copy_page(0x2000).unwrap();
        changed(&mut m, "a page put back", &|m| {
            m.put_page(0x2000, kept.clone())
        });
        changed(&mut m, "munmap", &|m| m.unmap(0x2000, 4096));
        changed(&mut m, "mmap over", &|m| {
            m.map_anon(0x1000, 4096, RW).unwrap()
        });
        changed(&mut m, "a new space of the run", &|m| {
            *m = AddressSpace::new(m.budget().clone())
        });
    }

    /// The compiled tier may map a page a second time from its frame: the
    /// mapping and the space are the same memory, both ways.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_page_mapped_again_from_its_frame_is_the_same_memory() {
        let mut m = space();
        m.map_anon(0x1000, 4096, RW).unwrap();
        m.store32(0x1010, 0x1122_3344).unwrap();
        let at = m.page_frame(0x1010, true).expect("a memfd on Linux");
        let mut page = frames::MappedAgain::new(at);
        assert_eq!(
            page.bytes()[0x10..0x14],
            [0x11, 0x22, 0x33, 0x44],
            "the kernel's bytes"
        );
        page.bytes()[0x20..0x24].copy_from_slice(&[0xde, 0xad, 0xbe, 0xef]);
        assert_eq!(m.load32(0x1020), Ok(0xdead_beef), "a write through it");
    }

    /// `page_frame` names a page exactly when `direct_page` hands it out,
    /// and never names two pages alike.
    #[test]
    fn page_frame_refuses_exactly_what_direct_page_refuses() {
        let mut m = space();
        m.map_anon(0x1000, 2 * 4096, RW).unwrap();
        m.map_anon(0x3000, 4096, Perms::R).unwrap();
        m.store32(0x1000, 1).unwrap();
        m.store32(0x2000, 2).unwrap();
        assert_eq!(m.load32(0x3000), Ok(0));
        let same = |m: &mut AddressSpace, addr, write| {
            let direct = m.direct_page(addr, write).is_some();
            let frame = m.page_frame(addr, write);
            if cfg!(target_os = "linux") {
                assert_eq!(frame.is_some(), direct, "{addr:#x} write {write}");
            }
            direct
        };
        assert!(same(&mut m, 0x1000, true), "an own writable page");
        assert!(same(&mut m, 0x3000, false), "a read-only page, read");
        assert!(!same(&mut m, 0x3000, true), "a read-only page, written");
        assert!(!same(&mut m, 0x5000, false), "an unmapped page");
        let child = m.clone();
        assert!(!same(&mut m, 0x1000, true), "shared after a fork, written");
        assert!(!same(&mut m, 0x1000, false), "shared after a fork, read");
        drop(child);
        if cfg!(target_os = "linux") {
            let one = m.page_frame(0x1000, true).unwrap();
            let two = m.page_frame(0x2000, true).unwrap();
            assert_eq!(one.fd, two.fd);
            assert_ne!(one.offset, two.offset);
        }
    }

    /// A fork's first store copies the page into a frame of its own: the
    /// other side keeps its bytes and its frame.
    #[test]
    fn copy_on_write_after_fork_copies_into_a_frame_of_its_own() {
        let mut parent = space();
        parent.map_anon(0x1000, 4096, RW).unwrap();
        parent.store32(0x1000, 7).unwrap();
        let mut child = parent.clone();
        child.store32(0x1004, 9).unwrap();
        assert_eq!(child.load32(0x1000), Ok(7), "the copy has the bytes");
        assert_eq!(parent.load32(0x1004), Ok(0), "the parent's are its own");
        let (p, c) = (
            parent.direct_page(0x1000, true).unwrap(),
            child.direct_page(0x1000, true).unwrap(),
        );
        assert_ne!(p, c);
        if cfg!(target_os = "linux") {
            let (p, c) = (
                parent.page_frame(0x1000, true).unwrap(),
                child.page_frame(0x1000, true).unwrap(),
            );
            assert_ne!(p.offset, c.offset);
        }
    }

    /// A freed page's frame comes back for the next page the run makes,
    /// even the zero page, which must then read as zero.
    #[test]
    fn a_freed_frame_reused_for_the_zero_page_reads_as_zero() {
        let mut m = space();
        let file: Rc<dyn FileSource> = Rc::new(vec![0xabu8; 4096]);
        let backing = Backing::File {
            source: file,
            offset: 0,
            len: 4096,
        };
        m.map(0x40_0000, 4096, Perms::R, backing).unwrap();
        assert_eq!(m.load32(0x40_0ffc), Ok(0xabab_abab));
        let freed = m.direct_page(0x40_0000, false).unwrap();
        m.unmap(0x40_0000, 4096);
        m.map_anon(0x1000, 4096, Perms::R).unwrap();
        assert_eq!(m.load32(0x1ffc), Ok(0));
        assert_eq!(m.direct_page(0x1000, false), Some(freed), "reused");
    }

    /// Where the host gives no file, frames are anonymous memory: the
    /// space works as ever, hands out direct pages, and names no frame.
    #[test]
    fn anonymous_frames_work_and_name_no_file() {
        let mut m = AddressSpace::new(Budget::with_anonymous_frames(u64::MAX));
        m.map_anon(0x1000, 4096, RW).unwrap();
        m.store32(0x1000, 7).unwrap();
        let mut child = m.clone();
        child.store32(0x1000, 9).unwrap();
        assert_eq!((m.load32(0x1000), child.load32(0x1000)), (Ok(7), Ok(9)));
        assert!(m.direct_page(0x1000, true).is_some());
        assert_eq!(m.page_frame(0x1000, true), None);
    }

    #[test]
    fn kernel_copies_fault_without_partial_writes() {
        let mut m = space();
        m.map_anon(0x1000, 4096, RW).unwrap();
        assert_eq!(m.write_bytes(0x1ffe, &[1, 2, 3, 4]), Err(Errno::EFAULT));
        assert_eq!(m.load16(0x1ffe), Ok(0));
        assert_eq!(m.read_cstr(0x1000, 10), Ok(vec![]));
    }

    /// "untouched bss, brk and mmap cost nothing": a gigabyte mapped costs a
    /// region; each page touched costs a page.
    #[test]
    fn mapping_costs_nothing_until_touched() {
        let budget = Budget::new(1 << 20);
        let mut m = AddressSpace::new(budget.clone());
        m.map_anon(0x1000_0000, 1 << 30, RW).unwrap();
        let mapped = budget.used();
        assert!(
            mapped < 64 << 10,
            "{mapped} bytes for an untouched gigabyte"
        );
        assert_eq!(
            m.load32(0x1000_0000 + (512 << 20)),
            Ok(0),
            "reads share the zero page"
        );
        m.store32(0x1000_0000, 5).unwrap();
        assert!(budget.used() - mapped < 2 * DIR_COST + 2 * PAGE_COST);
        m.unmap(0x1000_0000, 1 << 30);
        drop(m);
        assert_eq!(budget.used(), 0, "everything is given back");
    }

    #[test]
    fn a_store_the_budget_cannot_hold_faults_and_says_why() {
        let budget = Budget::new(SPACE_COST + REGION_COST * 4 + DIR_COST + PAGE_COST);
        let mut m = AddressSpace::new(budget.clone());
        m.map_anon(0x1000, 1 << 20, RW).unwrap();
        m.store32(0x1000, 1).unwrap();
        assert!(!budget.take_exhausted());
        assert_eq!(m.store32(0x2000, 1), Err(MemFault::Unmapped));
        assert!(budget.take_exhausted());
        assert_eq!(m.write_bytes(0x3000, &[1]), Err(Errno::ENOMEM));
    }

    #[test]
    fn kernel_writes_materialise_untouched_pages_like_stores() {
        let mut m = space();
        m.map_anon(0x7000_0000, 64 << 20, RW).unwrap();
        m.write_bytes(0x7100_0ffc, &[1, 2, 3, 4, 5, 6, 7, 8])
            .unwrap();
        assert_eq!(m.load32(0x7100_1000), Ok(0x0506_0708));
    }

    #[test]
    fn file_backed_pages_are_read_when_touched_then_zero_past_the_data() {
        let mut m = space();
        let file: Rc<dyn FileSource> = Rc::new(vec![0xabu8; 5000]);
        let backing = Backing::File {
            source: file,
            offset: 100,
            len: 4000,
        };
        m.map(0x40_0000, 3 * 4096, Perms::R | Perms::X, backing)
            .unwrap();
        assert_eq!(m.fetch32(0x40_0000), Ok(0xabab_abab));
        let mut b = [0u8; 4];
        m.read_bytes(0x40_0f9e, &mut b).unwrap();
        assert_eq!(b, [0xab, 0xab, 0, 0], "bytes past len are zero");
        assert_eq!(m.load32(0x40_2000), Ok(0));
    }
    /// A MAP_SHARED region is one copy: a fork's store is the parent's,
    /// and kernel copies reach the same bytes.
    #[test]
    fn a_shared_region_is_one_copy_for_a_fork_and_its_parent() {
        let budget = Budget::new(1 << 20);
        let mut parent = AddressSpace::new(budget.clone());
        let backing = Backing::Shared {
            object: SharedObject::anonymous(budget.clone()),
            offset: 0,
        };
        parent.map(0x1000, 8192, RW, backing).unwrap();
        parent.store32(0x1000, 7).unwrap();
        let mut child = parent.clone();
        child.store32(0x1000, 9).unwrap();
        child.write_bytes(0x2ffe, &[1, 2]).unwrap();
        assert_eq!(parent.load32(0x1000), Ok(9));
        assert_eq!(parent.load16(0x2ffe), Ok(0x0102));
        parent.protect(0x2000, 4096, Perms::R).unwrap();
        assert_eq!(parent.store8(0x2000, 1), Err(MemFault::Protection));
        drop((parent, child));
        assert_eq!(budget.used(), 0, "everything is given back");
    }

    /// An sproc member's PRDA: taken out of the shared space while others
    /// run, put back with its bytes; no charge is lost or doubled.
    #[test]
    fn a_private_page_taken_out_and_put_back_keeps_its_bytes() {
        let budget = Budget::new(1 << 20);
        let mut m = AddressSpace::new(budget.clone());
        m.map_anon(0x20_0000, 4096, RW).unwrap();
        m.store32(0x20_0e00, 100).unwrap();
        let mine = m.take_page(0x20_0000).unwrap();
        assert_eq!(m.load32(0x20_0e00), Ok(0), "another member's fresh page");
        let mut theirs = m.copy_page(0x20_0000).unwrap();
        theirs.write(0xe00, &101u32.to_be_bytes());
        m.put_page(0x20_0000, mine);
        assert_eq!(m.load32(0x20_0e00), Ok(100));
        m.put_page(0x20_0000, theirs);
        assert_eq!(m.load32(0x20_0e00), Ok(101));
        drop(m);
        assert_eq!(budget.used(), 0, "everything is given back");
    }
}
