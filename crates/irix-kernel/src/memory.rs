//! A process's address space: sparse 4 KiB pages with R/W/X permissions,
//! allocated only when mapped, big-endian like the R4000 in IRIX.
//!
//! Pages live in a two-level table indexed by the 32-bit virtual address
//! (10 bits of directory, 10 bits of page, 12 bits of offset), so a lookup is
//! two indexed loads and no hashing. Pages are reference-counted: `fork`
//! clones the table and a page is copied only when one side writes it
//! (copy-on-write through `Rc::make_mut`).
//!
//! Execute permission is enforced on instruction fetch. A real R4000 TLB has
//! no execute bit; irix-emu is stricter (a jump into the heap or stack faults
//! with SIGSEGV) and documents it in the README.

use std::rc::Rc;

use bitflags::bitflags;
use cpu_mips::{MemFault, Memory};

use crate::Errno;

pub use crate::abi::limits::{PAGE_SIZE, USER_TOP};
const PAGE_SHIFT: u32 = 12;
const DIR_ENTRIES: usize = 1024;

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
    data: Rc<[u8; PAGE_SIZE as usize]>,
}

type Directory = [Option<Page>; DIR_ENTRIES];

/// One address space. `Clone` is the fork copy (copy-on-write per page).
#[derive(Clone, Default)]
pub struct AddressSpace {
    dirs: Vec<Option<Box<Directory>>>,
    mapped_pages: u64,
    /// Pages may not exceed this many (`--max-memory`); `u64::MAX` = no limit.
    page_limit: Option<u64>,
    /// The ELF objects mapped here by name (the interpreter, and each object
    /// SGI_ELFMAP mapped), in mapping order: what a profiler needs to name
    /// a PC outside the program. Unmapping does not remove an entry.
    objects: Vec<MappedObject>,
}

/// An ELF object mapped into an address space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MappedObject {
    /// The guest path it was mapped from ("/usr/lib/libc.so.1").
    pub path: String,
    /// Its executable segments at their run-time addresses, `[start, end)`.
    pub text: Vec<(u32, u32)>,
}

impl MappedObject {
    /// Does one of its executable segments hold `pc`?
    pub fn holds(&self, pc: u32) -> bool {
        self.text.iter().any(|&(s, e)| (s..e).contains(&pc))
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

impl AddressSpace {
    pub fn new(max_bytes: Option<u64>) -> Self {
        AddressSpace {
            dirs: vec![None; DIR_ENTRIES].into_iter().collect(),
            mapped_pages: 0,
            page_limit: max_bytes.map(|b| b / PAGE_SIZE as u64),
            objects: Vec::new(),
        }
    }

    /// Records that `object` was mapped (see [`MappedObject`]).
    pub fn note_object(&mut self, object: MappedObject) {
        self.objects.push(object);
    }

    /// The most recently mapped object holding `pc`.
    pub fn object_at(&self, pc: u32) -> Option<&MappedObject> {
        self.objects.iter().rev().find(|o| o.holds(pc))
    }

    /// Bytes currently mapped.
    pub fn mapped_bytes(&self) -> u64 {
        self.mapped_pages * PAGE_SIZE as u64
    }

    #[inline(always)]
    fn page(&self, addr: u32) -> Option<&Page> {
        let dir = self.dirs.get((addr >> 22) as usize)?.as_ref()?;
        dir[((addr >> PAGE_SHIFT) & 0x3ff) as usize].as_ref()
    }

    #[inline(always)]
    fn page_mut(&mut self, addr: u32) -> Option<&mut Page> {
        let dir = self.dirs.get_mut((addr >> 22) as usize)?.as_mut()?;
        dir[((addr >> PAGE_SHIFT) & 0x3ff) as usize].as_mut()
    }

    /// Is the page holding `addr` mapped?
    pub fn is_mapped(&self, addr: u32) -> bool {
        self.page(addr).is_some()
    }

    /// The permissions of the page holding `addr`, if mapped.
    pub fn perms(&self, addr: u32) -> Option<Perms> {
        self.page(addr).map(|p| p.perms)
    }

    /// Maps zero-filled pages over [start, start+len) (page-rounded), replacing
    /// what was there. Fails with ENOMEM past user space or the memory limit.
    pub fn map(&mut self, start: u64, len: u64, perms: Perms) -> Result<(), Errno> {
        let (first, end) = (page_floor(start), page_ceil(start + len));
        if end > USER_TOP || end < first {
            return Err(Errno::ENOMEM);
        }
        let new_pages = (first..end)
            .step_by(PAGE_SIZE as usize)
            .filter(|&a| !self.is_mapped(a as u32))
            .count() as u64;
        if let Some(limit) = self.page_limit {
            if self.mapped_pages + new_pages > limit {
                return Err(Errno::ENOMEM);
            }
        }
        for addr in (first..end).step_by(PAGE_SIZE as usize) {
            let addr = addr as u32;
            let dir = self.dirs[(addr >> 22) as usize]
                .get_or_insert_with(|| Box::new(std::array::from_fn(|_| None)));
            dir[((addr >> PAGE_SHIFT) & 0x3ff) as usize] = Some(Page {
                perms,
                data: Rc::new([0; PAGE_SIZE as usize]),
            });
        }
        self.mapped_pages += new_pages;
        Ok(())
    }

    /// Unmaps [start, start+len) (page-rounded); unmapped holes are fine.
    pub fn unmap(&mut self, start: u64, len: u64) {
        let (first, end) = (page_floor(start), page_ceil(start + len).min(USER_TOP));
        for addr in (first..end).step_by(PAGE_SIZE as usize) {
            let addr = addr as u32;
            if let Some(Some(dir)) = self.dirs.get_mut((addr >> 22) as usize) {
                let slot = &mut dir[((addr >> PAGE_SHIFT) & 0x3ff) as usize];
                if slot.take().is_some() {
                    self.mapped_pages -= 1;
                }
            }
        }
    }

    /// Changes the permissions of [start, start+len); ENOMEM if any page in
    /// the range is unmapped (mprotect(2)).
    pub fn protect(&mut self, start: u64, len: u64, perms: Perms) -> Result<(), Errno> {
        let (first, end) = (page_floor(start), page_ceil(start + len));
        if end > USER_TOP
            || (first..end)
                .step_by(PAGE_SIZE as usize)
                .any(|a| !self.is_mapped(a as u32))
        {
            return Err(Errno::ENOMEM);
        }
        for addr in (first..end).step_by(PAGE_SIZE as usize) {
            if let Some(page) = self.page_mut(addr as u32) {
                page.perms = perms;
            }
        }
        Ok(())
    }

    /// Copies guest bytes out, as the kernel does for a system call argument:
    /// EFAULT if any byte is unmapped or unreadable.
    pub fn read_bytes(&self, addr: u32, buf: &mut [u8]) -> Result<(), Errno> {
        let mut done = 0usize;
        while done < buf.len() {
            let a = addr.checked_add(done as u32).ok_or(Errno::EFAULT)?;
            let page = self
                .page(a)
                .filter(|p| p.perms.contains(Perms::R))
                .ok_or(Errno::EFAULT)?;
            let off = (a & (PAGE_SIZE - 1)) as usize;
            let n = (PAGE_SIZE as usize - off).min(buf.len() - done);
            buf[done..done + n].copy_from_slice(&page.data[off..off + n]);
            done += n;
        }
        Ok(())
    }

    /// Copies bytes into guest memory as the kernel does (read(2) into a
    /// buffer): EFAULT if any byte is unmapped or not writable; on EFAULT
    /// nothing is written.
    pub fn write_bytes(&mut self, addr: u32, data: &[u8]) -> Result<(), Errno> {
        self.check_writable(addr, data.len() as u32)?;
        self.poke_bytes(addr, data)
    }

    /// Writes bytes regardless of the W permission (the loader filling a
    /// read-only text segment); the pages must be mapped.
    pub fn poke_bytes(&mut self, addr: u32, data: &[u8]) -> Result<(), Errno> {
        let mut done = 0usize;
        while done < data.len() {
            let a = addr.checked_add(done as u32).ok_or(Errno::EFAULT)?;
            let page = self.page_mut(a).ok_or(Errno::EFAULT)?;
            let off = (a & (PAGE_SIZE - 1)) as usize;
            let n = (PAGE_SIZE as usize - off).min(data.len() - done);
            Rc::make_mut(&mut page.data)[off..off + n].copy_from_slice(&data[done..done + n]);
            done += n;
        }
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
            match self.page(a) {
                Some(p) if p.perms.contains(Perms::W) => {}
                _ => return Err(Errno::EFAULT),
            }
            match a.checked_add(PAGE_SIZE) {
                Some(next) if next <= last => a = next,
                _ => return Ok(()),
            }
        }
    }

    /// Reads a NUL-terminated string (path names, argv): EFAULT on a bad
    /// pointer, ENAMETOOLONG past `max` bytes.
    pub fn read_cstr(&self, addr: u32, max: usize) -> Result<Vec<u8>, Errno> {
        let mut out = Vec::new();
        let mut a = addr;
        loop {
            let page = self
                .page(a)
                .filter(|p| p.perms.contains(Perms::R))
                .ok_or(Errno::EFAULT)?;
            let off = (a & (PAGE_SIZE - 1)) as usize;
            let chunk = &page.data[off..];
            if let Some(nul) = chunk.iter().position(|&b| b == 0) {
                out.extend_from_slice(&chunk[..nul]);
                return if out.len() > max {
                    Err(Errno::ENAMETOOLONG)
                } else {
                    Ok(out)
                };
            }
            out.extend_from_slice(chunk);
            if out.len() > max {
                return Err(Errno::ENAMETOOLONG);
            }
            a = a.checked_add(chunk.len() as u32).ok_or(Errno::EFAULT)?;
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
    /// aligned (so it never crosses a page).
    #[inline(always)]
    fn load<const N: usize>(&self, addr: u32, need: Perms) -> Result<[u8; N], MemFault> {
        let page = self.page(addr).ok_or(MemFault::Unmapped)?;
        if !page.perms.contains(need) {
            return Err(MemFault::Protection);
        }
        let off = (addr & (PAGE_SIZE - 1)) as usize;
        let mut out = [0; N];
        out.copy_from_slice(&page.data[off..off + N]);
        Ok(out)
    }

    #[inline(always)]
    fn store<const N: usize>(&mut self, addr: u32, bytes: [u8; N]) -> Result<(), MemFault> {
        let page = self.page_mut(addr).ok_or(MemFault::Unmapped)?;
        if !page.perms.contains(Perms::W) {
            return Err(MemFault::Protection);
        }
        let off = (addr & (PAGE_SIZE - 1)) as usize;
        Rc::make_mut(&mut page.data)[off..off + N].copy_from_slice(&bytes);
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unmapped_memory_faults_and_mapped_memory_is_zero() {
        let mut m = AddressSpace::new(None);
        assert_eq!(m.load32(0x1000), Err(MemFault::Unmapped));
        m.map(0x1000, 1, Perms::R | Perms::W).unwrap();
        assert_eq!(m.load32(0x1ffc), Ok(0));
        assert_eq!(m.mapped_bytes(), 4096);
    }

    #[test]
    fn stores_are_big_endian() {
        let mut m = AddressSpace::new(None);
        m.map(0x1000, 4096, Perms::R | Perms::W).unwrap();
        m.store32(0x1000, 0x1122_3344).unwrap();
        assert_eq!(m.load8(0x1000), Ok(0x11));
        assert_eq!(m.load16(0x1002), Ok(0x3344));
    }

    #[test]
    fn permissions_are_enforced_per_access_kind() {
        let mut m = AddressSpace::new(None);
        m.map(0x1000, 4096, Perms::R | Perms::X).unwrap();
        assert_eq!(m.store32(0x1000, 1), Err(MemFault::Protection));
        assert_eq!(m.fetch32(0x1000), Ok(0));
        m.protect(0x1000, 4096, Perms::R | Perms::W).unwrap();
        assert_eq!(m.fetch32(0x1000), Err(MemFault::Protection));
    }

    #[test]
    fn fork_copy_is_copy_on_write() {
        let mut parent = AddressSpace::new(None);
        parent.map(0x1000, 4096, Perms::R | Perms::W).unwrap();
        parent.store32(0x1000, 7).unwrap();
        let mut child = parent.clone();
        child.store32(0x1000, 9).unwrap();
        assert_eq!(parent.load32(0x1000), Ok(7));
        assert_eq!(child.load32(0x1000), Ok(9));
    }

    #[test]
    fn kernel_copies_fault_without_partial_writes() {
        let mut m = AddressSpace::new(None);
        m.map(0x1000, 4096, Perms::R | Perms::W).unwrap();
        assert_eq!(m.write_bytes(0x1ffe, &[1, 2, 3, 4]), Err(Errno::EFAULT));
        assert_eq!(m.load16(0x1ffe), Ok(0));
        assert_eq!(m.read_cstr(0x1000, 10), Ok(vec![]));
    }

    #[test]
    fn memory_limit_refuses_new_pages() {
        let mut m = AddressSpace::new(Some(2 * 4096));
        m.map(0x1000, 8192, Perms::R).unwrap();
        assert_eq!(m.map(0x10000, 1, Perms::R), Err(Errno::ENOMEM));
    }
}
