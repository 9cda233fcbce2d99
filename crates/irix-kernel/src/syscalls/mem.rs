//! Memory calls: the program break and mappings.

use std::rc::Rc;

use super::{Args, Ret, SysResult};
use std::os::unix::fs::MetadataExt;

use crate::abi::flags::mmap::*;
use crate::abi::flags::oflag::{O_ACCMODE, O_RDONLY, O_RDWR, O_WRONLY};
use crate::files::FileKind;
use crate::image::MMAP_BASE;
use crate::kernel::Kernel;
use crate::locks::FileId;
use crate::memory::{page_ceil, Backing, Perms, SharedObject, PAGE_SIZE, USER_TOP};
use crate::process::Process;
use crate::Errno;

/// brk(addr): moves the break; 0 or ENOMEM (docs/abi.md). The heap may not
/// shrink below its start nor reach into a mapping or the stack area.
/// Growing costs nothing until the pages are touched, but a growth larger
/// than the run's remaining memory budget is refused (see `fits_budget`).
pub fn brk(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let want = a.ptr(0);
    if want < p.brk.start {
        return Err(Errno::ENOMEM);
    }
    let (old_end, new_end) = (page_ceil(p.brk.current as u64), page_ceil(want as u64));
    super::rlimit::check_data_size(p, want)?;
    if new_end > old_end {
        if new_end > p.stack_limit as u64
            || p.mem.any_mapped(old_end, new_end)
            || !fits_budget(k, new_end - old_end)
        {
            return Err(Errno::ENOMEM);
        }
        p.mem
            .map_anon(old_end, new_end - old_end, Perms::R | Perms::W)?;
    } else if new_end < old_end {
        p.mem.unmap(new_end, old_end - new_end);
        p.cpu
            .invalidate_code(new_end as u32, (old_end - new_end) as u32);
    }
    p.brk.current = want;
    Ok(Ret::Val(0))
}

/// Whether a new mapping of `bytes` could ever be backed: pages are charged
/// only when touched, but a single request larger than all the memory the
/// run has left fails at once with ENOMEM (Linux's heuristic overcommit;
/// IRIX reserved swap for it), so malloc reports the failure instead of the
/// process being killed later.
fn fits_budget(k: &Kernel, bytes: u64) -> bool {
    bytes <= k.budget.available()
}

/// mmap(addr, len, prot, flags, fd, off): anonymous and file mappings,
/// private or shared. A private file mapping is read page by page as it is
/// touched and its written pages are the process's own. A MAP_SHARED
/// mapping's pages belong to a [`SharedObject`]: every process mapping the
/// same file (or sharing anonymous memory through fork) reaches the same
/// bytes, and read(2)/write(2) of the file see them (`memory::shared`).
///
/// Errors beyond EINVAL/ENOMEM (IRIX mmap(2)): EBADF for a descriptor not
/// open; EACCES when the file is not open for reading, or a MAP_SHARED
/// PROT_WRITE mapping's file is not open for writing; ENODEV for anything
/// but a regular file or /dev/zero.
pub fn mmap(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
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
    let shared = match flags & (MAP_SHARED | MAP_PRIVATE) {
        MAP_PRIVATE => false,
        MAP_SHARED => true,
        _ => return Err(Errno::EINVAL),
    };
    let size = page_ceil(len as u64);
    if !fits_budget(k, size) {
        return Err(Errno::ENOMEM);
    }
    let addr = if flags & MAP_FIXED != 0 {
        if hint % PAGE_SIZE != 0 || hint as u64 + size > USER_TOP {
            return Err(Errno::EINVAL);
        }
        hint
    } else {
        find_free(p, size)?
    };
    let backing = if flags & MAP_ANONYMOUS != 0 {
        anonymous(k, shared)
    } else {
        file_backing(k, p, fd, u64::from(off), size, prot, shared)?
    };
    let perms = page_perms(prot);
    p.mem.map(addr as u64, size, perms, backing)?;
    p.cpu.invalidate_code(addr, size as u32);
    Ok(Ret::Val(addr))
}

/// Zero-filled memory: the process's own pages, or (MAP_SHARED) an object
/// its children share after fork.
fn anonymous(k: &Kernel, shared: bool) -> Backing {
    if shared {
        Backing::Shared {
            object: SharedObject::anonymous(k.budget.clone()),
            offset: 0,
        }
    } else {
        Backing::Anon
    }
}

/// What a mapping of descriptor `fd` from `off` holds. A regular file is
/// mapped page by page as it is touched; /dev/zero gives zero-filled
/// memory, as under SVR4 (IRIX's rld maps it for its heap). Anything else,
/// a FIFO, terminal or other device, would block the emulator or never end
/// (mmap(2): ENODEV).
fn file_backing(
    k: &mut Kernel,
    p: &Process,
    fd: u32,
    off: u64,
    size: u64,
    prot: u32,
    shared: bool,
) -> Result<Backing, Errno> {
    let file = p.fds.get(fd)?;
    let f = file.borrow();
    let host = match &f.kind {
        FileKind::Device(dev) if is_zero_device(dev) => return Ok(anonymous(k, shared)),
        FileKind::Host(host) => host,
        _ => return Err(Errno::ENODEV),
    };
    let meta = host.metadata().map_err(|e| crate::files::io_errno(&e))?;
    if !meta.is_file() {
        return Err(Errno::ENODEV);
    }
    let mode = f.flags & O_ACCMODE;
    if mode == O_WRONLY || (shared && prot & PROT_WRITE != 0 && mode == O_RDONLY) {
        return Err(Errno::EACCES);
    }
    let own = host.try_clone().map_err(|_| Errno::ENOMEM)?;
    if !shared {
        return Ok(Backing::File {
            source: Rc::new(own),
            offset: off,
            len: size,
        });
    }
    let writable = mode == O_RDWR;
    let id = FileId {
        dev: meta.dev(),
        ino: meta.ino(),
    };
    let object = match k.shared_files.get(id) {
        Some(object) => {
            if writable {
                object.offer_writable(own);
            }
            object
        }
        None => {
            let object = SharedObject::file(own, writable, k.budget.clone());
            k.shared_files.insert(id, &object);
            object
        }
    };
    Ok(Backing::Shared {
        object,
        offset: off,
    })
}

/// Is `f` the zero device? The host's /dev/zero (the private one irix-emu
/// provides, or a node in the root) is character device 1,5 on Linux.
fn is_zero_device(f: &std::fs::File) -> bool {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    f.metadata()
        .is_ok_and(|m| m.file_type().is_char_device() && m.rdev() == linux_makedev(1, 5))
}

/// Linux's encoding of a device number (glibc's gnu_dev_makedev).
fn linux_makedev(major: u64, minor: u64) -> u64 {
    (major & 0xfff) << 8 | (major & !0xfff) << 32 | (minor & 0xff) | (minor & !0xff) << 12
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

/// The lowest free range of `size` bytes from MMAP_BASE up to the stack's
/// growth area: first fit, so ranges freed by munmap are used again.
pub(super) fn find_free(p: &Process, size: u64) -> Result<u32, Errno> {
    p.mem
        .find_free(MMAP_BASE, p.stack_limit, size)
        .ok_or(Errno::ENOMEM)
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

/// msync(addr, len, flags): writes the MAP_SHARED file pages of the range
/// back to their files (IRIX msync(2)); MS_INVALIDATE also drops the cached
/// copies, so the next access reads the file. Writing back is synchronous
/// for MS_ASYNC too. EINVAL for an unaligned address, an unknown flag or
/// MS_ASYNC with MS_SYNC; ENOMEM when part of the range is unmapped.
/// Private and anonymous pages need nothing.
pub fn msync(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (addr, len, flags) = (a.ptr(0), a.size(1), a.word(2));
    if addr % PAGE_SIZE != 0
        || flags & !(MS_ASYNC | MS_SYNC | MS_INVALIDATE) != 0
        || flags & (MS_ASYNC | MS_SYNC) == MS_ASYNC | MS_SYNC
    {
        return Err(Errno::EINVAL);
    }
    for (object, start, end) in p.mem.shared_in(addr as u64, len as u64)? {
        object.sync(start, end);
        if flags & MS_INVALIDATE != 0 {
            object.invalidate();
        }
    }
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

#[cfg(test)]
mod tests {
    use super::is_zero_device;

    #[test]
    fn dev_zero_is_the_zero_device_and_dev_null_is_not() {
        let zero = std::fs::File::open("/dev/zero").unwrap();
        let null = std::fs::File::open("/dev/null").unwrap();
        assert!(is_zero_device(&zero));
        assert!(!is_zero_device(&null));
    }
}
