//! Memory calls: the program break and mappings.

use std::io::{Read, Seek, SeekFrom};

use super::{Args, Ret, SysResult};
use crate::abi::flags::mmap::*;
use crate::files::FileKind;
use crate::kernel::Kernel;
use crate::memory::{page_ceil, Perms, PAGE_SIZE, USER_TOP};
use crate::process::Process;
use crate::Errno;

/// brk(addr): moves the break; 0 or ENOMEM (docs/abi.md). The heap may not
/// shrink below its start nor reach into a mapping or the stack area.
pub fn brk(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let want = a.ptr(0);
    if want < p.brk.start {
        return Err(Errno::ENOMEM);
    }
    let (old_end, new_end) = (page_ceil(p.brk.current as u64), page_ceil(want as u64));
    if new_end > old_end {
        if new_end > p.stack_limit as u64
            || (old_end..new_end)
                .step_by(PAGE_SIZE as usize)
                .any(|a| p.mem.is_mapped(a as u32))
        {
            return Err(Errno::ENOMEM);
        }
        p.mem.map(old_end, new_end - old_end, Perms::R | Perms::W)?;
    } else if new_end < old_end {
        p.mem.unmap(new_end, old_end - new_end);
        p.cpu
            .invalidate_code(new_end as u32, (old_end - new_end) as u32);
    }
    p.brk.current = want;
    Ok(Ret::Val(0))
}

/// mmap(addr, len, prot, flags, fd, off): anonymous and private file
/// mappings. A MAP_SHARED file mapping is refused with ENOSYS rather than
/// faked (its writes would have to reach the file).
pub fn mmap(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (hint, len, prot, flags, fd, off) = (
        a.ptr(0),
        a.size(1),
        a.word(2),
        a.word(3),
        a.fd(4),
        a.word(5),
    );
    if len == 0 || prot & !PROT_MASK != 0 || off % PAGE_SIZE != 0 {
        return Err(Errno::EINVAL);
    }
    match flags & (MAP_SHARED | MAP_PRIVATE) {
        MAP_PRIVATE => {}
        MAP_SHARED if flags & MAP_ANONYMOUS != 0 => {}
        MAP_SHARED => return Err(Errno::ENOSYS),
        _ => return Err(Errno::EINVAL),
    }
    let size = page_ceil(len as u64);
    let addr = if flags & MAP_FIXED != 0 {
        if hint % PAGE_SIZE != 0 || hint as u64 + size > USER_TOP {
            return Err(Errno::EINVAL);
        }
        hint
    } else {
        find_free(p, size)?
    };
    // Read the file first, so a failure leaves the address space untouched.
    let data = if flags & MAP_ANONYMOUS == 0 {
        let file = p.fds.get(fd)?;
        let mut f = file.borrow_mut();
        let FileKind::Host(host) = &mut f.kind else {
            return Err(Errno::EACCES);
        };
        let mut data = Vec::new();
        let read = host
            .seek(SeekFrom::Start(off as u64))
            .and_then(|_| host.by_ref().take(size).read_to_end(&mut data));
        read.map_err(|e| crate::files::io_errno(&e))?;
        Some(data)
    } else {
        None
    };
    let perms = page_perms(prot);
    p.mem.map(addr as u64, size, perms)?;
    if let Some(data) = data {
        p.mem.poke_bytes(addr, &data)?;
    }
    p.cpu.invalidate_code(addr, size as u32);
    if flags & MAP_FIXED == 0 {
        p.mmap_next = (addr as u64 + size) as u32;
    }
    Ok(Ret::Val(addr))
}

/// The page permissions a PROT_* set gives. The R4000's TLB has no
/// read-disable bit: a page that can be written or executed can be read, so
/// IRIX's PROT_WRITE and PROT_EXEC imply PROT_READ (IRIX's ld maps its output
/// file PROT_WRITE and reads it back).
fn page_perms(prot: u32) -> Perms {
    let mut perms = Perms::from_bits_truncate(prot as u8);
    if !perms.is_empty() {
        perms |= Perms::R;
    }
    perms
}

/// The first free range of `size` bytes at or above the process's mmap cursor.
pub(super) fn find_free(p: &Process, size: u64) -> Result<u32, Errno> {
    let mut start = p.mmap_next as u64;
    'search: while start + size <= p.stack_limit as u64 {
        for a in (start..start + size).step_by(PAGE_SIZE as usize) {
            if p.mem.is_mapped(a as u32) {
                start = a + PAGE_SIZE as u64;
                continue 'search;
            }
        }
        return Ok(start as u32);
    }
    Err(Errno::ENOMEM)
}

pub fn munmap(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (addr, len) = (a.ptr(0), a.size(1));
    if addr % PAGE_SIZE != 0 || len == 0 || addr as u64 + len as u64 > USER_TOP {
        return Err(Errno::EINVAL);
    }
    p.mem.unmap(addr as u64, len as u64);
    p.cpu.invalidate_code(addr, len);
    Ok(Ret::Val(0))
}

pub fn mprotect(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (addr, len, prot) = (a.ptr(0), a.size(1), a.word(2));
    if addr % PAGE_SIZE != 0 || prot & !PROT_MASK != 0 {
        return Err(Errno::EINVAL);
    }
    p.mem.protect(addr as u64, len as u64, page_perms(prot))?;
    p.cpu.invalidate_code(addr, len);
    Ok(Ret::Val(0))
}

pub fn getpagesize(_k: &mut Kernel, _p: &mut Process, _a: &Args) -> SysResult {
    Ok(Ret::Val(PAGE_SIZE))
}
