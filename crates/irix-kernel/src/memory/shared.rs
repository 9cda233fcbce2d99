//! The pages of a MAP_SHARED mapping: one object that every mapping of it
//! refers to, in any process, and (for a file) the file's read(2) and
//! write(2) too. IRIX mmap(2): with MAP_SHARED "write references change the
//! underlying object", and every process mapping it sees them.
//!
//! A [`SharedObject`] is either anonymous (MAP_SHARED|MAP_ANONYMOUS, or
//! /dev/zero mapped MAP_SHARED: zeroes, shared with the children a fork
//! makes afterwards) or a regular file's page cache. Its pages never enter
//! an address space's page table: each access to a shared region goes to
//! the object by offset (`AddressSpace`'s cold path), so there is exactly
//! one copy of each page and nothing to keep in step. Shared memory is
//! therefore slower to reach than private memory; the programs that use
//! it (lock arenas, semaphores, small shared tables) touch little of it.
//!
//! A file's object is found again by the file's identity (host device and
//! inode) through [`SharedFiles`], so a second mmap of the same file, by
//! the same or another process, shares the same pages. Coherence with the
//! file, the rules:
//! - a page is read from the file when first touched;
//! - stores mark it dirty; dirty pages are written back to the file by
//!   msync(2), by munmap(2) of a region holding them, when the last
//!   mapping goes (exit, exec), and before any read(2), write(2) or size
//!   change of the file through a descriptor;
//! - after a write(2) or a size change, the cached pages are dropped and
//!   read again when next touched.
//!
//! So read(2) sees every store made through a mapping, and a mapping sees
//! every write(2), as IRIX's single page cache gives. Bytes of the last
//! page past the end of the file read as zero and are never written back
//! (the file does not grow); IRIX sends SIGBUS for a page wholly past the
//! end, irix-emu reads it as zeroes (see the README).

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::rc::{Rc, Weak};

use super::budget::{cost, Budget, PageData, PAGE_BYTES};
use super::PAGE_COST;
use crate::locks::FileId;
use crate::Errno;

/// One page of a shared object and whether it holds stores the file has
/// not seen.
struct SharedPage {
    data: Box<PageData>,
    dirty: bool,
}

/// The file behind a shared object.
struct Backer {
    file: File,
    /// Whether `file` was opened for writing (dirty pages can go back).
    writable: bool,
}

/// The pages of a shared mapping (see the module's documentation).
pub struct SharedObject {
    /// The pages touched so far, by page index within the object.
    pages: RefCell<BTreeMap<u64, SharedPage>>,
    /// The file, for a file's object; None for anonymous memory.
    backer: RefCell<Option<Backer>>,
    budget: Rc<Budget>,
    /// Pages written back to the file so far (tests, `--stats`).
    written_back: Cell<u64>,
}

impl SharedObject {
    /// Anonymous shared memory: zeroes until written.
    pub fn anonymous(budget: Rc<Budget>) -> Rc<SharedObject> {
        Rc::new(SharedObject {
            pages: RefCell::default(),
            backer: RefCell::new(None),
            budget,
            written_back: Cell::new(0),
        })
    }

    /// The page cache of the host file `file`.
    pub fn file(file: File, writable: bool, budget: Rc<Budget>) -> Rc<SharedObject> {
        let obj = SharedObject::anonymous(budget);
        *obj.backer.borrow_mut() = Some(Backer { file, writable });
        obj
    }

    /// Gives the object a writable handle of its file, when it has only a
    /// read-only one (a later mapping opened for writing).
    pub fn offer_writable(&self, file: File) {
        if let Some(b) = self.backer.borrow_mut().as_mut() {
            if !b.writable {
                *b = Backer {
                    file,
                    writable: true,
                };
            }
        }
    }

    /// Calls `f` with page `index`, reading it from the file (or zeroing
    /// it) first if untouched. ENOMEM when the budget cannot hold it.
    fn with_page<R>(&self, index: u64, f: impl FnOnce(&mut SharedPage) -> R) -> Result<R, Errno> {
        let mut pages = self.pages.borrow_mut();
        if let Some(page) = pages.get_mut(&index) {
            return Ok(f(page));
        }
        if self.budget.charge(PAGE_COST).is_err() {
            self.budget.set_exhausted();
            return Err(Errno::ENOMEM);
        }
        let mut data = Box::new([0u8; PAGE_BYTES]);
        if let Some(b) = self.backer.borrow().as_ref() {
            read_full(&b.file, index * PAGE_BYTES as u64, &mut data[..]);
            self.budget.add_work(cost::FILE_PAGE_CYCLES);
        } else {
            self.budget.add_work(cost::PAGE_CYCLES);
        }
        let page = pages
            .entry(index)
            .or_insert(SharedPage { data, dirty: false });
        Ok(f(page))
    }

    /// Copies the bytes at `offset` into `buf`, which must not cross a
    /// page boundary.
    pub fn read(&self, offset: u64, buf: &mut [u8]) -> Result<(), Errno> {
        let (index, at) = split(offset);
        self.with_page(index, |p| buf.copy_from_slice(&p.data[at..at + buf.len()]))
    }

    /// Stores `data` at `offset` (not crossing a page boundary).
    pub fn write(&self, offset: u64, data: &[u8]) -> Result<(), Errno> {
        let (index, at) = split(offset);
        self.with_page(index, |p| {
            p.data[at..at + data.len()].copy_from_slice(data);
            p.dirty = true;
        })
    }

    /// Writes the dirty pages of `[start, end)` (object offsets) back to
    /// the file, each up to the file's end (the file never grows): what
    /// msync(2) does. Nothing for anonymous memory.
    pub fn sync(&self, start: u64, end: u64) {
        let backer = self.backer.borrow();
        let Some(b) = backer.as_ref().filter(|b| b.writable) else {
            return;
        };
        let size = b.file.metadata().map_or(0, |m| m.len());
        let first = start / PAGE_BYTES as u64;
        let last = end.div_ceil(PAGE_BYTES as u64);
        for (&index, page) in self.pages.borrow_mut().range_mut(first..last) {
            if !page.dirty {
                continue;
            }
            page.dirty = false;
            let at = index * PAGE_BYTES as u64;
            let n = size.saturating_sub(at).min(PAGE_BYTES as u64) as usize;
            if n > 0 {
                let _ = b.file.write_all_at(&page.data[..n], at);
                self.budget.add_work(cost::FILE_PAGE_CYCLES);
                self.written_back.set(self.written_back.get() + 1);
            }
        }
    }

    /// Writes every dirty page back.
    pub fn sync_all(&self) {
        self.sync(0, u64::MAX);
    }

    /// Writes dirty pages back, then forgets every cached page, so the
    /// next touch reads the file again (after a write(2), a size change,
    /// msync's MS_INVALIDATE). Anonymous memory keeps its pages.
    pub fn invalidate(&self) {
        if self.backer.borrow().is_none() {
            return;
        }
        self.sync_all();
        let dropped = std::mem::take(&mut *self.pages.borrow_mut()).len() as u64;
        self.budget.release(dropped * PAGE_COST);
    }

    /// Pages written back to the file so far.
    pub fn pages_written_back(&self) -> u64 {
        self.written_back.get()
    }
}

impl Drop for SharedObject {
    /// The last mapping went: dirty pages go back to the file.
    fn drop(&mut self) {
        self.sync_all();
        self.budget
            .release(self.pages.borrow().len() as u64 * PAGE_COST);
    }
}

/// A page index and the offset within the page.
fn split(offset: u64) -> (u64, usize) {
    (
        offset / PAGE_BYTES as u64,
        (offset % PAGE_BYTES as u64) as usize,
    )
}

/// Reads as much of `buf` as the file holds at `offset` (zeroes after).
fn read_full(file: &File, offset: u64, buf: &mut [u8]) {
    let mut done = 0;
    while done < buf.len() {
        match file.read_at(&mut buf[done..], offset + done as u64) {
            Ok(0) | Err(_) => break,
            Ok(n) => done += n,
        }
    }
}

/// The shared objects of the files mapped MAP_SHARED, by file identity:
/// how a second mapping, and a descriptor's read(2) or write(2), find the
/// pages the first mapping made. Holds them weakly: an object lives as long
/// as a mapping of it.
#[derive(Default)]
pub struct SharedFiles {
    objects: HashMap<FileId, Weak<SharedObject>>,
}

impl SharedFiles {
    /// Is no file mapped shared? (Callers skip naming a file when so.)
    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }

    /// The live object of `id`, if a mapping of it exists.
    pub fn get(&mut self, id: FileId) -> Option<Rc<SharedObject>> {
        let obj = self.objects.get(&id)?.upgrade();
        if obj.is_none() {
            self.objects.remove(&id);
        }
        obj
    }

    /// sync(2): every mapped file's dirty pages go back to the file.
    pub fn sync_all(&self) {
        for object in self.objects.values().filter_map(Weak::upgrade) {
            object.sync_all();
        }
    }

    /// Records `object` as the pages of file `id`.
    pub fn insert(&mut self, id: FileId, object: &Rc<SharedObject>) {
        self.objects.retain(|_, w| w.strong_count() > 0);
        self.objects.insert(id, Rc::downgrade(object));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Seek, Write};

    fn temp_file(bytes: &[u8]) -> File {
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(bytes).unwrap();
        f
    }

    #[test]
    fn stores_reach_the_file_only_when_synced_and_never_past_its_end() {
        let mut f = temp_file(&[1u8; 5000]);
        let obj = SharedObject::file(f.try_clone().unwrap(), true, Budget::unlimited());
        obj.write(4096 + 900, &[9, 9, 9, 9]).unwrap();
        obj.write(4096 + 1000, &[7]).unwrap(); // past the end (5000)
        let mut now = Vec::new();
        f.rewind().unwrap();
        f.read_to_end(&mut now).unwrap();
        assert_eq!(now[4996], 1, "not yet written back");
        obj.sync_all();
        now.clear();
        f.rewind().unwrap();
        f.read_to_end(&mut now).unwrap();
        assert_eq!(now.len(), 5000, "the file does not grow");
        assert_eq!(&now[4996..5000], &[9, 9, 9, 9]);
        assert_eq!(obj.pages_written_back(), 1);
    }

    #[test]
    fn the_last_reference_writes_dirty_pages_back_and_gives_the_memory_back() {
        let budget = Budget::new(1 << 20);
        let f = temp_file(&[0u8; 100]);
        let obj = SharedObject::file(f.try_clone().unwrap(), true, budget.clone());
        obj.write(10, b"hi").unwrap();
        assert_eq!(budget.used(), PAGE_COST);
        drop(obj);
        assert_eq!(budget.used(), 0);
        let mut b = [0u8; 2];
        f.read_exact_at(&mut b, 10).unwrap();
        assert_eq!(&b, b"hi");
    }

    #[test]
    fn invalidating_reads_the_file_again() {
        let f = temp_file(b"abcd");
        let obj = SharedObject::file(f.try_clone().unwrap(), true, Budget::unlimited());
        let mut b = [0u8; 4];
        obj.read(0, &mut b).unwrap();
        f.write_all_at(b"wxyz", 0).unwrap();
        obj.invalidate();
        obj.read(0, &mut b).unwrap();
        assert_eq!(&b, b"wxyz");
    }

    #[test]
    fn a_second_mapping_of_a_file_finds_the_same_object_while_one_lives() {
        let mut files = SharedFiles::default();
        let id = FileId { dev: 1, ino: 2 };
        let a = SharedObject::anonymous(Budget::unlimited());
        files.insert(id, &a);
        let b = files.get(id).unwrap();
        assert!(Rc::ptr_eq(&a, &b));
        drop((a, b));
        assert!(files.get(id).is_none());
        assert!(files.is_empty());
    }
}
