//! A small page-mapped guest memory for the CPU tests, and helpers to
//! build a machine around a hand-encoded program. Its pages are frames
//! of one file (`Frames`, an anonymous memfd on Linux), which it names to
//! the compiled tier (`Memory::page_frame`), as the kernel does: compiled
//! code reaches them through its fixed-offset view of guest memory.
//!
//! Layout used by the tests: code at `CODE` (read + execute), data at `DATA`
//! (read + write, 8 KiB), a read-only page at `RODATA`.
#![allow(dead_code)]

use std::collections::HashMap;

use cpu_mips::{Cpu, CpuConfig, Exception, MemFault, Memory, PageFrame};

pub const CODE: u32 = 0x0040_0000;
pub const DATA: u32 = 0x1000_0000;
pub const RODATA: u32 = 0x2000_0000;

const PAGE: u32 = 4096;

/// The frames pages are taken from: `FRAMES` pages of one shared
/// mapping of a memfd (fd -1, an anonymous mapping, where there is none).
struct Frames {
    fd: i32,
    base: *mut u8,
    next: usize,
}

const FRAMES: usize = 1024;

impl Frames {
    fn new() -> Frames {
        // SAFETY: plain system calls on a file and a mapping this owns.
        unsafe {
            #[cfg(target_os = "linux")]
            let fd = {
                let fd = libc::memfd_create(c"testmem".as_ptr(), libc::MFD_CLOEXEC);
                if fd >= 0 && libc::ftruncate(fd, (FRAMES * PAGE as usize) as libc::off_t) != 0 {
                    libc::close(fd);
                    -1
                } else {
                    fd
                }
            };
            #[cfg(not(target_os = "linux"))]
            let fd = -1;
            let flags = if fd >= 0 {
                libc::MAP_SHARED
            } else {
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS
            };
            let base = libc::mmap(
                std::ptr::null_mut(),
                FRAMES * PAGE as usize,
                libc::PROT_READ | libc::PROT_WRITE,
                flags,
                fd,
                0,
            );
            assert_ne!(base, libc::MAP_FAILED, "test memory");
            Frames {
                fd,
                base: base.cast(),
                next: 0,
            }
        }
    }
    fn take(&mut self) -> usize {
        assert!(self.next < FRAMES, "test memory is {FRAMES} pages");
        self.next += 1;
        self.next - 1
    }
    fn bytes(&self, frame: usize) -> &[u8] {
        // SAFETY: a frame of the mapping, which lives as long as `self`.
        unsafe { std::slice::from_raw_parts(self.base.add(frame * PAGE as usize), PAGE as usize) }
    }
    fn bytes_mut(&mut self, frame: usize) -> &mut [u8] {
        // SAFETY: as `bytes`, borrowed mutably through `self`.
        unsafe {
            std::slice::from_raw_parts_mut(self.base.add(frame * PAGE as usize), PAGE as usize)
        }
    }
}

impl Drop for Frames {
    fn drop(&mut self) {
        // SAFETY: the mapping and file `new` made.
        unsafe {
            libc::munmap(self.base.cast(), FRAMES * PAGE as usize);
            if self.fd >= 0 {
                libc::close(self.fd);
            }
        }
    }
}

struct Page {
    frame: usize,
    write: bool,
    exec: bool,
    /// Compiled code may reach it directly (else, like the kernel's
    /// MAP_SHARED pages, every access takes the slow path).
    direct: bool,
}

/// Guest memory: 4 KiB pages with write/execute permissions (all readable).
pub struct TestMem {
    pages: HashMap<u32, Page>,
    frames: Frames,
    /// What `direct_epoch` says (None: the compiled tier forgets direct
    /// pages at every run).
    pub epoch: Option<u64>,
}

impl Default for TestMem {
    fn default() -> Self {
        TestMem {
            pages: HashMap::new(),
            frames: Frames::new(),
            epoch: None,
        }
    }
}

impl TestMem {
    pub fn new() -> Self {
        Self::default()
    }
    /// Maps `[addr, addr + len)` (rounded out to pages), zero-filled.
    pub fn map(&mut self, addr: u32, len: u32, write: bool, exec: bool) {
        let first = addr / PAGE;
        let last = (addr + len - 1) / PAGE;
        for p in first..=last {
            let frame = self.frames.take();
            self.frames.bytes_mut(frame).fill(0);
            self.pages.insert(
                p,
                Page {
                    frame,
                    write,
                    exec,
                    direct: true,
                },
            );
        }
    }
    /// Maps `[addr, addr + len)` read-write, as pages compiled code must
    /// not reach directly (see `Page::direct`).
    pub fn map_indirect(&mut self, addr: u32, len: u32) {
        self.map(addr, len, true, false);
        for p in addr / PAGE..=(addr + len - 1) / PAGE {
            self.pages.get_mut(&p).expect("just mapped").direct = false;
        }
    }
    /// Unmaps the page holding `addr`.
    pub fn unmap(&mut self, addr: u32) {
        self.pages.remove(&(addr / PAGE));
    }
    fn page_bytes(&self, page: u32) -> Option<&[u8]> {
        Some(self.frames.bytes(self.pages.get(&page)?.frame))
    }
    fn byte(&self, addr: u32) -> Option<u8> {
        self.page_bytes(addr / PAGE)
            .map(|b| b[(addr % PAGE) as usize])
    }
    /// Host-side write, ignoring permissions (like the kernel's copyout).
    pub fn poke8(&mut self, addr: u32, v: u8) {
        let frame = self
            .pages
            .get(&(addr / PAGE))
            .expect("poke into a mapped page")
            .frame;
        self.frames.bytes_mut(frame)[(addr % PAGE) as usize] = v;
    }
    pub fn poke32(&mut self, addr: u32, v: u32) {
        for (i, b) in v.to_be_bytes().iter().enumerate() {
            self.poke8(addr + i as u32, *b);
        }
    }
    pub fn poke64(&mut self, addr: u32, v: u64) {
        for (i, b) in v.to_be_bytes().iter().enumerate() {
            self.poke8(addr + i as u32, *b);
        }
    }
    pub fn peek32(&self, addr: u32) -> u32 {
        u32::from_be_bytes(std::array::from_fn(|i| {
            self.byte(addr + i as u32).unwrap_or(0)
        }))
    }
    pub fn peek64(&self, addr: u32) -> u64 {
        u64::from_be_bytes(std::array::from_fn(|i| {
            self.byte(addr + i as u32).unwrap_or(0)
        }))
    }
    /// The pages (address, bytes) in which `self` and `other` differ.
    pub fn differing_pages(&self, other: &TestMem) -> Vec<u32> {
        let mut out: Vec<u32> = self
            .pages
            .keys()
            .filter(|&&n| other.page_bytes(n) != self.page_bytes(n))
            .map(|n| n * PAGE)
            .collect();
        out.extend(
            other
                .pages
                .keys()
                .filter(|n| !self.pages.contains_key(n))
                .map(|n| n * PAGE),
        );
        out.sort();
        out
    }
    pub fn poke_words(&mut self, addr: u32, words: &[u32]) {
        for (i, w) in words.iter().enumerate() {
            self.poke32(addr + 4 * i as u32, *w);
        }
    }

    fn read<const N: usize>(&mut self, addr: u32) -> Result<[u8; N], MemFault> {
        let mut out = [0; N];
        for (i, b) in out.iter_mut().enumerate() {
            *b = self.byte(addr + i as u32).ok_or(MemFault::Unmapped)?;
        }
        Ok(out)
    }
    fn write(&mut self, addr: u32, bytes: &[u8]) -> Result<(), MemFault> {
        for i in 0..bytes.len() as u32 {
            match self.pages.get(&((addr + i) / PAGE)) {
                None => return Err(MemFault::Unmapped),
                Some(p) if !p.write => return Err(MemFault::Protection),
                Some(_) => {}
            }
        }
        for (i, b) in bytes.iter().enumerate() {
            self.poke8(addr + i as u32, *b);
        }
        Ok(())
    }
}

impl Memory for TestMem {
    fn load8(&mut self, addr: u32) -> Result<u8, MemFault> {
        Ok(self.read::<1>(addr)?[0])
    }
    fn load16(&mut self, addr: u32) -> Result<u16, MemFault> {
        Ok(u16::from_be_bytes(self.read(addr)?))
    }
    fn load32(&mut self, addr: u32) -> Result<u32, MemFault> {
        Ok(u32::from_be_bytes(self.read(addr)?))
    }
    fn load64(&mut self, addr: u32) -> Result<u64, MemFault> {
        Ok(u64::from_be_bytes(self.read(addr)?))
    }
    fn store8(&mut self, addr: u32, value: u8) -> Result<(), MemFault> {
        self.write(addr, &[value])
    }
    fn store16(&mut self, addr: u32, value: u16) -> Result<(), MemFault> {
        self.write(addr, &value.to_be_bytes())
    }
    fn store32(&mut self, addr: u32, value: u32) -> Result<(), MemFault> {
        self.write(addr, &value.to_be_bytes())
    }
    fn store64(&mut self, addr: u32, value: u64) -> Result<(), MemFault> {
        self.write(addr, &value.to_be_bytes())
    }
    fn fetch32(&mut self, addr: u32) -> Result<u32, MemFault> {
        match self.pages.get(&(addr / PAGE)) {
            None => Err(MemFault::Unmapped),
            Some(p) if !p.exec => Err(MemFault::Protection),
            Some(_) => self.load32(addr),
        }
    }
    /// Pages never move (each is its own frame), so every page may be read
    /// directly, and every writable one written.
    fn direct_page(&mut self, addr: u32, write: bool) -> Option<std::ptr::NonNull<u8>> {
        let p = self.pages.get(&(addr / PAGE)).filter(|p| p.direct)?;
        if write && !p.write {
            return None;
        }
        let frame = p.frame;
        std::ptr::NonNull::new(self.frames.bytes_mut(frame).as_mut_ptr())
    }
    /// The same pages as `direct_page`, by their frames.
    fn page_frame(&mut self, addr: u32, write: bool) -> Option<PageFrame> {
        let p = self.pages.get(&(addr / PAGE)).filter(|p| p.direct)?;
        (self.frames.fd >= 0 && (p.write || !write)).then_some(PageFrame {
            fd: self.frames.fd,
            offset: (p.frame * PAGE as usize) as u64,
        })
    }
    fn has_page_frames(&self) -> bool {
        self.frames.fd >= 0
    }
    fn direct_epoch(&self) -> Option<u64> {
        self.epoch
    }
}

/// A CPU (32-bit or 64-bit mode) at `CODE` with `program` loaded there
/// (followed by zero words = nops), DATA read-write, RODATA read-only.
pub fn machine(mode64: bool, program: &[u32]) -> (Cpu, TestMem) {
    let mut mem = TestMem::new();
    mem.map(CODE, 2 * PAGE, false, true);
    mem.map(DATA, 2 * PAGE, true, false);
    mem.map(RODATA, PAGE, false, false);
    mem.poke_words(CODE, program);
    let mut cpu = Cpu::new(CpuConfig {
        mode64,
        ..CpuConfig::default()
    });
    cpu.set_pc(CODE);
    (cpu, mem)
}

/// Steps `n` instructions; stops at the first exception and returns it.
pub fn steps(cpu: &mut Cpu, mem: &mut TestMem, n: usize) -> Option<Exception> {
    for _ in 0..n {
        if let Some(e) = cpu.step(mem) {
            return Some(e);
        }
    }
    None
}

/// Register indices by ABI name, for test tables (from `cpu_mips::Reg`,
/// the one place the numbers are written).
pub mod r {
    use cpu_mips::Reg;
    pub const ZERO: usize = Reg::ZERO.idx();
    pub const AT: usize = Reg::AT.idx();
    pub const V0: usize = Reg::V0.idx();
    pub const V1: usize = Reg::V1.idx();
    pub const A0: usize = Reg::A0.idx();
    pub const A1: usize = Reg::A1.idx();
    pub const A2: usize = Reg::A2.idx();
    pub const A3: usize = Reg::A3.idx();
    pub const T0: usize = Reg::T0.idx();
    pub const T1: usize = Reg::T1.idx();
    pub const T2: usize = Reg::T2.idx();
    pub const S0: usize = Reg::S0.idx();
    pub const SP: usize = Reg::SP.idx();
    pub const RA: usize = Reg::RA.idx();
}

/// Sign-extends a 32-bit value (what every 32-bit result looks like).
pub const fn sx(v: u32) -> u64 {
    v as i32 as i64 as u64
}
