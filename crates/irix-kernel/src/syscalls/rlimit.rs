//! Resource limits: getrlimit(2) and setrlimit(2) (32-bit `struct rlimit`,
//! two words) and their 64-bit forms (two doublewords), and the checks the
//! other calls make against them: RLIMIT_FSIZE (write, ftruncate: SIGXFSZ
//! and EFBIG), RLIMIT_DATA (brk: ENOMEM), RLIMIT_STACK (the stack area),
//! RLIMIT_NOFILE (the descriptor table: EMFILE). RLIMIT_CPU is the run
//! loop's (`kernel::limits`).

use super::{Args, Ret, SysResult};
use crate::files::{FileKind, OpenFile};
use crate::image::{STACK_MAX, STACK_TOP};
use crate::kernel::Kernel;
use crate::memory::Perms;
use crate::process::Process;
use crate::rlimits::{Limit, Resource, INFINITY, RLIM32_INFINITY, RLIM64_INFINITY};
use crate::signals::{self, SIGXFSZ};
use crate::Errno;

/// A limit as the 32-bit calls show it: RLIM_INFINITY for none and for any
/// value a word cannot hold.
fn to32(v: u64) -> u32 {
    if v >= u64::from(RLIM32_INFINITY) {
        RLIM32_INFINITY
    } else {
        v as u32
    }
}

fn from32(v: u32) -> u64 {
    if v >= RLIM32_INFINITY {
        INFINITY
    } else {
        u64::from(v)
    }
}

fn to64(v: u64) -> u64 {
    v.min(RLIM64_INFINITY)
}

fn from64(v: u64) -> u64 {
    if v >= RLIM64_INFINITY {
        INFINITY
    } else {
        v
    }
}

fn resource(a: &Args) -> Result<Resource, Errno> {
    Resource::from_number(a.word(0)).ok_or(Errno::EINVAL)
}

/// getrlimit(resource, rlp): { rlim_cur, rlim_max } as two words. EINVAL
/// for an unknown resource, EFAULT for a bad rlp.
pub fn getrlimit(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let l = p.limits.get(resource(a)?);
    let mut b = [0u8; 8];
    b[..4].copy_from_slice(&to32(l.soft).to_be_bytes());
    b[4..].copy_from_slice(&to32(l.hard).to_be_bytes());
    p.mem.write_bytes(a.ptr(1), &b)?;
    Ok(Ret::Val(0))
}

/// getrlimit64(resource, rlp): as getrlimit, two doublewords.
pub fn getrlimit64(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let l = p.limits.get(resource(a)?);
    let mut b = [0u8; 16];
    b[..8].copy_from_slice(&to64(l.soft).to_be_bytes());
    b[8..].copy_from_slice(&to64(l.hard).to_be_bytes());
    p.mem.write_bytes(a.ptr(1), &b)?;
    Ok(Ret::Val(0))
}

/// setrlimit(resource, rlp): see `Limits::set` for the rules.
pub fn setrlimit(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let r = resource(a)?;
    let soft = p.mem.read_u32(a.ptr(1))?;
    let hard = p.mem.read_u32(a.ptr(1).wrapping_add(4))?;
    set(
        p,
        r,
        Limit {
            soft: from32(soft),
            hard: from32(hard),
        },
    )
}

/// setrlimit64(resource, rlp): as setrlimit, two doublewords.
pub fn setrlimit64(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let r = resource(a)?;
    let mut b = [0u8; 16];
    p.mem.read_bytes(a.ptr(1), &mut b)?;
    let word = |i: usize| u64::from_be_bytes(b[i..i + 8].try_into().expect("eight bytes"));
    set(
        p,
        r,
        Limit {
            soft: from64(word(0)),
            hard: from64(word(8)),
        },
    )
}

fn set(p: &mut Process, r: Resource, l: Limit) -> SysResult {
    let su = p.ids.is_superuser();
    p.limits.set(r, l, su)?;
    match r {
        Resource::Nofile => p.fds.set_limit(l.soft),
        Resource::Stack => apply_stack_limit(p)?,
        Resource::Cpu => p.xcpu_sent = None,
        _ => {}
    }
    Ok(Ret::Val(0))
}

/// Fits the stack area to RLIMIT_STACK: it spans the soft limit below
/// STACK_TOP (at most the STACK_MAX irix-emu reserves, which is the
/// default hard limit), so the stack cannot grow past it (SIGSEGV). Pages
/// from the one the stack pointer is in up stay, whatever the new limit:
/// only growth is refused. Called by setrlimit and after an exec.
pub(crate) fn apply_stack_limit(p: &mut Process) -> Result<(), Errno> {
    use crate::memory::{page_ceil, page_floor};
    let size = page_ceil(p.limits.soft(Resource::Stack).min(STACK_MAX as u64)) as u32;
    let sp_page = page_floor(u64::from(p.reg(cpu_mips::Reg::SP))) as u32;
    let mut limit = STACK_TOP - size;
    if (p.stack_limit..STACK_TOP).contains(&sp_page) {
        limit = limit.min(sp_page);
    }
    let old = p.stack_limit;
    if limit > old {
        p.mem.unmap(u64::from(old), u64::from(limit - old));
    } else if limit < old {
        if p.mem.any_mapped(u64::from(limit), u64::from(old)) {
            return Err(Errno::ENOMEM);
        }
        p.mem.map_anon(
            u64::from(limit),
            u64::from(old - limit),
            Perms::R | Perms::W,
        )?;
    }
    p.stack_limit = limit;
    Ok(())
}

/// RLIMIT_FSIZE for a write of `len` bytes to `file`: how many may be
/// written. getrlimit(2): "A process which attempts to exceed this limit
/// will fail with ... SIGXFSZ. If the process is holding or ignoring
/// SIGXFSZ, continued attempts to increase the size of a file beyond the
/// limit will fail with errno set to EFBIG." A write that starts below the
/// limit writes up to it; one that starts at it or past it sends SIGXFSZ
/// and fails with EFBIG. Only regular files have a size to limit.
pub fn file_size_room(p: &mut Process, file: &OpenFile, len: u32) -> Result<u32, Errno> {
    use std::io::Seek;
    let limit = p.limits.soft(Resource::Fsize);
    let FileKind::Host(f) = &file.kind else {
        return Ok(len);
    };
    if limit == INFINITY || len == 0 || !f.metadata().is_ok_and(|m| m.is_file()) {
        return Ok(len);
    }
    let at = if file.flags & crate::abi::flags::oflag::O_APPEND != 0 {
        f.metadata().map_or(0, |m| m.len())
    } else {
        let mut f = f;
        f.stream_position().unwrap_or(0)
    };
    if at >= limit {
        p.signals.pending |= signals::bit(SIGXFSZ);
        return Err(Errno::EFBIG);
    }
    Ok(len.min((limit - at).min(u64::from(u32::MAX)) as u32))
}

/// RLIMIT_FSIZE for pwrite(2) of `len` bytes at offset `at` of a regular
/// file: as [`file_size_room`], at an explicit offset.
pub fn pwrite_room(p: &mut Process, at: u64, len: u32) -> Result<u32, Errno> {
    let limit = p.limits.soft(Resource::Fsize);
    if limit == INFINITY || len == 0 {
        return Ok(len);
    }
    if at >= limit {
        p.signals.pending |= signals::bit(SIGXFSZ);
        return Err(Errno::EFBIG);
    }
    Ok(len.min((limit - at).min(u64::from(u32::MAX)) as u32))
}

/// RLIMIT_FSIZE for making a file `size` bytes long (ftruncate): SIGXFSZ
/// and EFBIG past the limit.
pub fn check_file_size(p: &mut Process, size: u64) -> Result<(), Errno> {
    if size > p.limits.soft(Resource::Fsize) {
        p.signals.pending |= signals::bit(SIGXFSZ);
        return Err(Errno::EFBIG);
    }
    Ok(())
}

/// RLIMIT_DATA for a break at `end`: "A brk(2) which attempts to exceed
/// this limit will fail with errno set to ENOMEM".
pub fn check_data_size(p: &Process, end: u32) -> Result<(), Errno> {
    let heap = u64::from(end.saturating_sub(p.brk.start));
    if heap > p.limits.soft(Resource::Data) {
        return Err(Errno::ENOMEM);
    }
    Ok(())
}
