//! Requests about how memory is held: cacheflush(2), cachectl(2) and
//! madvise(2). Each checks its arguments as its page says and then has
//! nothing a program could see left to do:
//! - irix-emu's instruction fetch always sees memory (a store into a page
//!   holding decoded code drops that code), so no cache holds stale
//!   instructions or data; cacheflush still drops the decoded code of the
//!   range when it names the instruction cache;
//! - the timing model has no caches, so an uncacheable page costs what a
//!   cacheable one does (cachectl's row says so);
//! - MADV_DONTNEED only says which pages to reclaim first; the pages keep
//!   their contents ("will be the first to be reclaimed", madvise(2)), and
//!   irix-emu reclaims nothing.

use super::{Args, Ret, SysResult};
use crate::abi::flags::cachectl::*;
use crate::abi::flags::mmap::MADV_DONTNEED;
use crate::kernel::Kernel;
use crate::memory::PAGE_SIZE;
use crate::process::Process;
use crate::Errno;

/// `[addr, addr + len)` as a range; EINVAL for a negative length.
fn range(addr: u32, len: i32) -> Result<(u64, u64), Errno> {
    let len = u64::try_from(len).map_err(|_| Errno::EINVAL)?;
    Ok((u64::from(addr), u64::from(addr) + len))
}

/// cacheflush(addr, nbytes, cache): "[EINVAL] The cache parameter is not
/// one of ICACHE, DCACHE, or BCACHE. [EFAULT] Some or all of the address
/// range addr to (addr+nbytes-1) is not accessible." (cacheflush(2)). A
/// negative nbytes is EINVAL (the page is silent).
pub fn cacheflush(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (addr, cache) = (a.ptr(0), a.word(2));
    if !matches!(cache, ICACHE | DCACHE | BCACHE) {
        return Err(Errno::EINVAL);
    }
    let (start, end) = range(addr, a.int(1))?;
    if !p.mem.all_mapped(start, end) {
        return Err(Errno::EFAULT);
    }
    if cache & ICACHE != 0 {
        p.cpu.invalidate_code(addr, (end - start) as u32);
    }
    Ok(Ret::Val(0))
}

/// cachectl(addr, nbytes, op): "[EINVAL] The op parameter is not one of
/// CACHEABLE or UNCACHEABLE. [EINVAL] The addr parameter is not page
/// aligned, or nbytes is not a multiple of the page size. [EFAULT] Some or
/// all of the address range ... is not accessible." (cachectl(2)).
pub fn cachectl(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (addr, op) = (a.ptr(0), a.word(2));
    if !matches!(op, CACHEABLE | UNCACHEABLE) {
        return Err(Errno::EINVAL);
    }
    let (start, end) = range(addr, a.int(1))?;
    if start % u64::from(PAGE_SIZE) != 0 || (end - start) % u64::from(PAGE_SIZE) != 0 {
        return Err(Errno::EINVAL);
    }
    if !p.mem.all_mapped(start, end) {
        return Err(Errno::EFAULT);
    }
    Ok(Ret::Val(0))
}

/// madvise(addr, len, behavior): "[ENOMEM] Addresses in the range (addr,
/// addr + len) are outside the valid range for the address space of the
/// process. [EINVAL] behavior is not recognized by the system."
/// (madvise(2)); MADV_DONTNEED is the one behaviour IRIX 5.3 recognizes.
pub fn madvise(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    if a.word(2) != MADV_DONTNEED {
        return Err(Errno::EINVAL);
    }
    let (start, end) = range(a.ptr(0), a.int(1))?;
    if !p.mem.all_mapped(start, end) {
        return Err(Errno::ENOMEM);
    }
    Ok(Ret::Val(0))
}
