//! Executable memory for the compiled tier: a bounded arena of chunks.
//!
//! Contents: [`Arena`] (`install` copies one function's machine code in and
//! returns its address; `full` says when the bound is near).
//!
//! Memory is never writable and executable at once (W^X): a chunk is made
//! read-write to copy a function in and read-execute again before any code
//! runs. Nothing in a chunk is ever freed alone; the whole arena is dropped
//! when the compiled tier flushes (see `jit`), which unmaps every chunk.

use region::{Allocation, Protection};

/// Bytes mapped at a time.
const CHUNK: usize = 1 << 20;

/// Alignment of each function's start (x86-64 and AArch64 both prefer 16).
const FUNCTION_ALIGN: usize = 16;

/// The compiled tier's code memory.
pub(super) struct Arena {
    chunks: Vec<Allocation>,
    /// Bytes used in the last chunk.
    used: usize,
    /// Bytes mapped in all.
    mapped: usize,
    /// The bound on `mapped`.
    limit: usize,
}

impl Arena {
    pub fn new(limit: usize) -> Arena {
        Arena {
            chunks: Vec::new(),
            used: 0,
            mapped: 0,
            limit,
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
            let chunk = region::alloc(self.chunk(code.len()), Protection::READ_EXECUTE).ok()?;
            self.mapped += chunk.len();
            self.chunks.push(chunk);
            0
        };
        let chunk = self.chunks.last_mut()?;
        let base: *mut u8 = chunk.as_mut_ptr();
        // Only the pages the code lands on change protection: a whole
        // chunk's page tables flipped twice a function were 1.2% of a warm
        // IDO compile's time (all of it in the host kernel).
        let page = region::page::size();
        let (first, end) = (
            start / page * page,
            (start + code.len()).next_multiple_of(page),
        );
        // SAFETY: `base..base + chunk.len()` is this chunk's mapping, owned
        // by the arena, and `first..end` lies within it (the chunk's length
        // is a whole number of pages and `start + code.len() <= len` was
        // checked above). No compiled code runs while a page is writable
        // (the caller compiles between blocks, on the one thread that runs
        // them).
        unsafe {
            let pages = base.add(first);
            region::protect(pages, end - first, Protection::READ_WRITE).ok()?;
            let at = base.add(start);
            std::ptr::copy_nonoverlapping(code.as_ptr(), at, code.len());
            region::protect(pages, end - first, Protection::READ_EXECUTE).ok()?;
            wasmtime_jit_icache_coherence::clear_cache(at.cast(), code.len()).ok()?;
            self.used = start + code.len();
            Some(at)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_is_installed_aligned_and_intact_until_the_bound() {
        let page = region::page::size();
        let mut arena = Arena::new(2 * page);
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
    fn a_function_larger_than_the_bound_is_refused() {
        let mut arena = Arena::new(4096);
        assert_eq!(arena.install(&vec![0u8; 8192]), None);
        assert_eq!(arena.mapped(), 0);
    }
}
