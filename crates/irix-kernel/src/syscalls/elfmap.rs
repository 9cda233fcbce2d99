//! syssgi(SGI_ELFMAP, fd, phdrs, count): map an ELF object's PT_LOAD
//! segments from an open descriptor. IRIX's libc.so.1 maps `/lib/rld` with
//! it, and rld maps every library a program needs the same way.
//!
//! The caller has read the object's program headers itself and passes the
//! PT_LOAD entries (`count` 32-byte Elf32_Phdr at `phdrs`). Every segment
//! goes at its p_vaddr when the object's whole range is free; otherwise the
//! object moves as one piece to the first free range in the mmap area and
//! every segment keeps its offset from the others. The result is the address
//! the first entry's segment now starts at (p_vaddr plus the move), which is
//! how the caller learns whether, and how far, the object moved.
//!
//! Errors (what the process sees): EBADF for a descriptor that is not open;
//! EACCES when it is not a readable regular file (a pipe, a directory); EINVAL
//! for a count of 0 or above [`MAX_SEGMENTS`]; EFAULT for an unreadable
//! header array; ENOEXEC when the file is not a big-endian 32-bit MIPS ELF
//! file, an entry is not PT_LOAD, p_filesz exceeds p_memsz, or a segment's
//! bytes lie outside the file; ENOMEM when no free range is large enough.
//! Nothing is mapped unless everything checks out.

use std::os::unix::fs::FileExt;

use super::{Args, Ret, SysResult};
use crate::abi::flags::oflag::{O_ACCMODE, O_WRONLY};
use crate::dynamic::{self, ObjectSegment};
use crate::files::FileKind;
use crate::image::{MMAP_BASE, STACK_TOP};
use crate::kernel::Kernel;
use crate::memory::Perms;
use crate::process::Process;
use crate::Errno;

/// Largest header array accepted (a real object has two or three PT_LOADs).
pub const MAX_SEGMENTS: u32 = 64;
/// sizeof(Elf32_Phdr).
const PHDR_SIZE: u32 = 32;
const PT_LOAD: u32 = 1;
/// The ELF identification irix-emu maps: "\x7fELF", ELFCLASS32,
/// ELFDATA2MSB; e_machine (offset 18) EM_MIPS.
const ELF_IDENT: [u8; 6] = [0x7f, b'E', b'L', b'F', 1, 2];
const EM_MIPS: u16 = 8;

/// One decoded Elf32_Phdr (the fields mapping needs).
struct Phdr {
    p_type: u32,
    offset: u32,
    vaddr: u32,
    filesz: u32,
    memsz: u32,
    flags: u32,
}

fn decode(b: &[u8]) -> Phdr {
    let w = |i: usize| u32::from_be_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]);
    Phdr {
        p_type: w(0),
        offset: w(1),
        vaddr: w(2),
        filesz: w(4),
        memsz: w(5),
        flags: w(6),
    }
}

/// PF_R 4, PF_W 2, PF_X 1 to page permissions.
fn perms(p_flags: u32) -> Perms {
    let mut p = Perms::empty();
    p.set(Perms::R, p_flags & 4 != 0);
    p.set(Perms::W, p_flags & 2 != 0);
    p.set(Perms::X, p_flags & 1 != 0);
    p
}

/// SGI_ELFMAP(fd, phdrs, count): the table's handler.
pub fn sgi_elfmap(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    Ok(Ret::Val(elfmap(p, a.fd(0), a.ptr(1), a.word(2))?))
}

/// Maps the object open on `fd`; returns where its first segment went.
pub fn elfmap(p: &mut Process, fd: u32, phdrs: u32, count: u32) -> Result<u32, Errno> {
    let file = p.fds.get(fd)?;
    let path = file.borrow().path.clone().unwrap_or_default();
    if count == 0 || count > MAX_SEGMENTS {
        return Err(Errno::EINVAL);
    }
    let mut table = vec![0u8; (count * PHDR_SIZE) as usize];
    p.mem.read_bytes(phdrs, &mut table)?;
    let headers: Vec<Phdr> = table.chunks(PHDR_SIZE as usize).map(decode).collect();

    // Read every segment's bytes first: a failure maps nothing.
    let contents = {
        let f = file.borrow();
        let FileKind::Host(host) = &f.kind else {
            return Err(Errno::EACCES);
        };
        let meta = host.metadata().map_err(|e| crate::files::io_errno(&e))?;
        if !meta.is_file() || f.flags & O_ACCMODE == O_WRONLY {
            return Err(Errno::EACCES);
        }
        let mut head = [0u8; 20];
        if host.read_exact_at(&mut head, 0).is_err()
            || head[..6] != ELF_IDENT
            || u16::from_be_bytes([head[18], head[19]]) != EM_MIPS
        {
            return Err(Errno::ENOEXEC);
        }
        // The bytes are read now, so the memory budget must hold them.
        let total: u64 = headers.iter().map(|h| u64::from(h.filesz)).sum();
        if total > p.mem.budget().available() {
            return Err(Errno::ENOMEM);
        }
        let mut contents = Vec::with_capacity(headers.len());
        for h in &headers {
            if h.p_type != PT_LOAD || h.filesz > h.memsz {
                return Err(Errno::ENOEXEC);
            }
            if u64::from(h.offset) + u64::from(h.filesz) > meta.len() {
                return Err(Errno::ENOEXEC);
            }
            let mut data = vec![0u8; h.filesz as usize];
            host.read_exact_at(&mut data, u64::from(h.offset))
                .map_err(|e| crate::files::io_errno(&e))?;
            contents.push(data);
        }
        contents
    };
    let segs: Vec<ObjectSegment> = headers
        .iter()
        .zip(&contents)
        .filter(|(h, _)| h.memsz > 0)
        .map(|(h, data)| ObjectSegment {
            vaddr: h.vaddr,
            mem_size: h.memsz,
            data,
            perms: perms(h.flags),
        })
        .collect();
    if segs.is_empty() {
        return Err(Errno::ENOEXEC);
    }
    let bias = dynamic::place(&p.mem, &segs, true, MMAP_BASE, p.stack_limit.min(STACK_TOP))?;
    dynamic::map_segments(&mut p.mem, &segs, bias)?;
    p.mem.note_object(dynamic::mapped_object(path, &segs, bias));
    for s in &segs {
        p.cpu
            .invalidate_code(s.vaddr.wrapping_add(bias), s.mem_size);
    }
    Ok(headers[0].vaddr.wrapping_add(bias))
}
