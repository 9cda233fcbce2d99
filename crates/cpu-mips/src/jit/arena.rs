//! Executable memory for the compiled tier: a bounded arena of chunks.
//!
//! Contents: [`Arena`] (`install` copies one function's machine code in and
//! returns its address; `full` says when the bound is near), and the two
//! kinds of chunk it maps ([`Chunk`]).
//!
//! No address is ever writable and executable at once (W^X). On Linux a
//! chunk is one anonymous file mapped twice: read-execute where the code
//! runs, read-write at another address where it is copied in, so that
//! installing a function changes no protection. Where that mapping is not
//! available (another host, or one that refuses `memfd_create`), a chunk
//! is one mapping whose pages are made read-write to copy a function in
//! and read-execute again before any code runs. A warm IDO `cc -c -O2`
//! installs about 19,000 functions from the translation cache; flipping
//! protections made 39,000 `mprotect` calls of it, each a TLB shootdown on
//! the host once the compiler thread runs beside it.
//!
//! Nothing in a chunk is ever freed alone; the whole arena is dropped when
//! the compiled tier flushes (see `jit`), which unmaps every chunk.

use region::{Allocation, Protection};

/// Bytes mapped at a time.
const CHUNK: usize = 1 << 20;

/// Alignment of each function's start (x86-64 and AArch64 both prefer 16).
const FUNCTION_ALIGN: usize = 16;

/// The compiled tier's code memory.
pub(super) struct Arena {
    chunks: Vec<Chunk>,
    /// Bytes used in the last chunk.
    used: usize,
    /// Bytes mapped in all.
    mapped: usize,
    /// The bound on `mapped`.
    limit: usize,
    /// Whether to try a dual mapping for the next chunk (cleared when the
    /// host refuses one: every chunk after that flips its protection).
    dual: bool,
}

impl Arena {
    pub fn new(limit: usize) -> Arena {
        Arena {
            chunks: Vec::new(),
            used: 0,
            mapped: 0,
            limit,
            dual: cfg!(target_os = "linux"),
        }
    }

    /// An arena whose chunks always flip their protection (the path of
    /// hosts without a dual mapping).
    #[cfg(test)]
    fn flipping(limit: usize) -> Arena {
        Arena {
            dual: false,
            ..Arena::new(limit)
        }
    }

    /// Whether a function of `size` bytes may no longer fit.
    pub fn full(&self, size: usize) -> bool {
        let room = self.chunks.last().map_or(0, |c| c.len() - self.used);
        size + FUNCTION_ALIGN > room && self.mapped + self.chunk(size) > self.limit
    }

    /// Bytes to map for a function of `size` that does not fit: a chunk,
    /// no larger than the bound allows.
    fn chunk(&self, size: usize) -> usize {
        CHUNK.min(self.limit).max(size)
    }

    /// Bytes of code memory mapped.
    pub fn mapped(&self) -> usize {
        self.mapped
    }

    /// Maps a chunk of `len` bytes: dual if the host allows it.
    fn map(&mut self, len: usize) -> Option<Chunk> {
        if self.dual {
            match dual::Mapping::new(len) {
                Ok(m) => return Some(Chunk::Dual(m)),
                Err(_) => self.dual = false,
            }
        }
        let a = region::alloc(len, Protection::READ_EXECUTE).ok()?;
        Some(Chunk::Flipped(a))
    }

    /// Copies `code` in and returns the address of its first byte, or
    /// `None` when it does not fit in the bound (or the host refuses the
    /// mapping or its protection).
    pub fn install(&mut self, code: &[u8]) -> Option<*const u8> {
        if self.full(code.len()) {
            return None;
        }
        let start = self.used.next_multiple_of(FUNCTION_ALIGN);
        let fits = self
            .chunks
            .last()
            .is_some_and(|c| start + code.len() <= c.len());
        let start = if fits {
            start
        } else {
            let chunk = self.map(self.chunk(code.len()))?;
            self.mapped += chunk.len();
            self.chunks.push(chunk);
            0
        };
        let at = self.chunks.last_mut()?.copy_in(start, code)?;
        self.used = start + code.len();
        Some(at)
    }
}

/// One mapping of code memory.
enum Chunk {
    /// Written through one address, run at another.
    Dual(dual::Mapping),
    /// Made writable around each copy.
    Flipped(Allocation),
}

impl Chunk {
    fn len(&self) -> usize {
        match self {
            Chunk::Dual(m) => m.len,
            Chunk::Flipped(a) => a.len(),
        }
    }

    /// Copies `code` to byte `start` (`start + code.len() <= len`) and
    /// returns where it runs.
    fn copy_in(&mut self, start: usize, code: &[u8]) -> Option<*const u8> {
        debug_assert!(start + code.len() <= self.len());
        // SAFETY (both arms): `start..start + code.len()` lies within this
        // chunk's mapping (checked by the caller, which computes `start`
        // from the chunk's own length), the arena owns the mapping, and no
        // function that lies there has been handed out yet, so nothing
        // runs or reads those bytes while they are written.
        let at = unsafe {
            match self {
                Chunk::Dual(m) => {
                    std::ptr::copy_nonoverlapping(code.as_ptr(), m.write.add(start), code.len());
                    m.exec.add(start)
                }
                Chunk::Flipped(a) => {
                    let base: *mut u8 = a.as_mut_ptr();
                    // Only the pages the code lands on change protection: a
                    // whole chunk's page tables flipped twice a function
                    // were 1.2% of a warm IDO compile's time.
                    let page = region::page::size();
                    let first = start / page * page;
                    let end = (start + code.len()).next_multiple_of(page);
                    let pages = base.add(first);
                    region::protect(pages, end - first, Protection::READ_WRITE).ok()?;
                    std::ptr::copy_nonoverlapping(code.as_ptr(), base.add(start), code.len());
                    region::protect(pages, end - first, Protection::READ_EXECUTE).ok()?;
                    base.add(start)
                }
            }
        };
        // The copy went through the data cache; hosts whose instruction
        // cache does not follow it (AArch64) must be told.
        // SAFETY: `at..at + code.len()` was just written and is mapped.
        unsafe { wasmtime_jit_icache_coherence::clear_cache(at.cast(), code.len()) }.ok()?;
        Some(at)
    }
}

/// The dual mapping: one anonymous file, mapped shared twice (Linux;
/// elsewhere `Arena::new` never asks for one).
mod dual {
    use std::io;

    pub struct Mapping {
        pub exec: *mut u8,
        pub write: *mut u8,
        pub len: usize,
    }

    impl Mapping {
        #[cfg(target_os = "linux")]
        pub fn new(len: usize) -> io::Result<Mapping> {
            // SAFETY: plain system calls on a descriptor this function owns
            // and closes; each mapping is checked before use and unmapped
            // if the second one fails. The file lives on in its mappings.
            unsafe {
                let fd = libc::memfd_create(c"irix-emu-code".as_ptr(), libc::MFD_CLOEXEC);
                if fd < 0 {
                    return Err(io::Error::last_os_error());
                }
                let map = |prot| {
                    let p = libc::mmap(std::ptr::null_mut(), len, prot, libc::MAP_SHARED, fd, 0);
                    if p == libc::MAP_FAILED {
                        Err(io::Error::last_os_error())
                    } else {
                        Ok(p.cast::<u8>())
                    }
                };
                let sized = if libc::ftruncate(fd, len as libc::off_t) == 0 {
                    Ok(())
                } else {
                    Err(io::Error::last_os_error())
                };
                let write = sized.and_then(|()| map(libc::PROT_READ | libc::PROT_WRITE));
                let exec = match &write {
                    Ok(_) => map(libc::PROT_READ | libc::PROT_EXEC),
                    Err(_) => Err(io::Error::from(io::ErrorKind::Other)),
                };
                libc::close(fd);
                match (write, exec) {
                    (Ok(write), Ok(exec)) => Ok(Mapping { exec, write, len }),
                    (Ok(write), Err(e)) => {
                        libc::munmap(write.cast(), len);
                        Err(e)
                    }
                    (Err(e), _) => Err(e),
                }
            }
        }

        #[cfg(not(target_os = "linux"))]
        pub fn new(_len: usize) -> io::Result<Mapping> {
            Err(io::ErrorKind::Unsupported.into())
        }
    }

    #[cfg(target_os = "linux")]
    impl Drop for Mapping {
        fn drop(&mut self) {
            // SAFETY: both are this mapping's own, of `len` bytes, and no
            // compiled code runs once the arena is dropped.
            unsafe {
                libc::munmap(self.exec.cast(), self.len);
                libc::munmap(self.write.cast(), self.len);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn installs_aligned_and_intact_until_the_bound(mut arena: Arena) {
        let page = region::page::size();
        let code = vec![0xc3u8; 100];
        let mut at = Vec::new();
        while let Some(p) = arena.install(&code) {
            assert_eq!(p as usize % FUNCTION_ALIGN, 0);
            at.push(p);
            assert!(arena.mapped() <= 2 * page, "{} mapped", arena.mapped());
        }
        // Nearly both pages' worth went in (100 bytes in a 112-byte stride,
        // less a function's room at the end of each chunk), and no more.
        let n = at.len();
        assert!(
            n >= 2 * (page / 112 - 1) && n <= 2 * page / 100,
            "{n} functions"
        );
        assert!(arena.full(code.len()));
        for p in at {
            // SAFETY: `p` is the start of 100 installed bytes, mapped
            // readable (and executable) by the arena, which is alive.
            let bytes = unsafe { std::slice::from_raw_parts(p, code.len()) };
            assert_eq!(bytes, &code[..]);
        }
    }

    #[test]
    fn code_is_installed_aligned_and_intact_until_the_bound() {
        let page = region::page::size();
        installs_aligned_and_intact_until_the_bound(Arena::new(2 * page));
        installs_aligned_and_intact_until_the_bound(Arena::flipping(2 * page));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn on_linux_code_runs_where_it_is_never_writable() {
        let mut arena = Arena::new(CHUNK);
        let at = arena.install(&[0xc3u8; 16]).expect("installed");
        assert!(matches!(arena.chunks[0], Chunk::Dual(_)), "a dual mapping");
        let p = region::query(at).expect("mapped");
        assert_eq!(p.protection(), Protection::READ_EXECUTE);
    }

    #[test]
    fn a_function_larger_than_the_bound_is_refused() {
        let mut arena = Arena::new(4096);
        assert_eq!(arena.install(&vec![0u8; 8192]), None);
        assert_eq!(arena.mapped(), 0);
    }
}
