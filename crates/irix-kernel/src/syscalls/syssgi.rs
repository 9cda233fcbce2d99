//! syssgi(request, ...): SGI's catch-all system call. Its requests are a
//! table like the system calls (number, name, support, handler), so --strace
//! names them (`syssgi(SGI_ELFMAP, 3, 0x7fff2e10, 2)`) and an unknown request
//! is ENOSYS with a one-line warning naming it, never a silent success.
//!
//! Request numbers are IRIX's <sys/syssgi.h> (published by SGI under the
//! GPL with its open-source compilers).

use super::{Support, SysResult};
use crate::kernel::Kernel;
use crate::process::Process;
use crate::Errno;

/// A request handler: the arguments after the request number (`a[0]` is
/// syssgi's second argument).
pub type RequestHandler = fn(&mut Kernel, &mut Process, &[u32; 8]) -> SysResult;

pub struct Request {
    pub nr: u32,
    pub name: &'static str,
    pub support: Support,
    pub handler: RequestHandler,
}

pub const SGI_SYSID: u32 = 1;
pub const SGI_INVENT: u32 = 5;
pub const SGI_SYSCONF: u32 = 22;
pub const SGI_PATHCONF: u32 = 24;
pub const SGI_SPROFIL: u32 = 55;
pub const SGI_ELFMAP: u32 = 68;
pub const SGI_TOSSTSAVE: u32 = 108;
pub const SGI_USE_FP_BCOPY: u32 = 129;

use Support::*;

/// Every request irix-emu implements, sorted by number.
#[rustfmt::skip]
pub static REQUESTS: &[Request] = &[
    Request { nr: SGI_SYSID,        name: "SGI_SYSID",        support: Full, handler: super::info::sgi_sysid },
    Request { nr: SGI_INVENT,       name: "SGI_INVENT",       support: Partial("an empty hardware inventory"), handler: invent },
    Request { nr: SGI_SYSCONF,      name: "SGI_SYSCONF",      support: Partial("ARG_MAX, CHILD_MAX, CLK_TCK, OPEN_MAX, PAGESIZE"), handler: super::info::sgi_sysconf },
    Request { nr: SGI_PATHCONF,     name: "SGI_PATHCONF",     support: Partial("LINK_MAX, NAME_MAX, PATH_MAX, PIPE_BUF"), handler: pathconf },
    Request { nr: SGI_SPROFIL,      name: "SGI_SPROFIL",      support: Full, handler: sprofil },
    Request { nr: SGI_ELFMAP,       name: "SGI_ELFMAP",       support: Full, handler: elfmap },
    Request { nr: SGI_TOSSTSAVE,    name: "SGI_TOSSTSAVE",    support: Full, handler: tosstsave },
    Request { nr: SGI_USE_FP_BCOPY, name: "SGI_USE_FP_BCOPY", support: Full, handler: use_fp_bcopy },
];

/// The table entry for request `nr`.
pub fn lookup(nr: u32) -> Option<&'static Request> {
    REQUESTS
        .binary_search_by_key(&nr, |r| r.nr)
        .ok()
        .map(|i| &REQUESTS[i])
}

/// How --strace shows a request number.
pub fn request_name(nr: u32) -> String {
    lookup(nr).map_or_else(|| nr.to_string(), |r| r.name.to_string())
}

/// The system call: looks the request up and runs it with the remaining
/// arguments; an unknown request is ENOSYS and a warning.
pub fn syssgi(k: &mut Kernel, p: &mut Process, a: &[u32; 8]) -> SysResult {
    let Some(req) = lookup(a[0]) else {
        k.warn(&format!(
            "{}: unimplemented syssgi request {} at pc 0x{:08x}: ENOSYS",
            p.name,
            a[0],
            p.cpu.pc()
        ));
        return SysResult::Err(Errno::ENOSYS);
    };
    let mut rest = [0u32; 8];
    rest[..7].copy_from_slice(&a[1..]);
    (req.handler)(k, p, &rest)
}

/// SGI_SPROFIL(profp, profcnt, tvp, flags): sprofil(2).
fn sprofil(k: &mut Kernel, p: &mut Process, a: &[u32; 8]) -> SysResult {
    super::prof::sprofil(k, p, a)
}

/// SGI_ELFMAP(fd, phdrs, count): see `elfmap.rs`.
fn elfmap(_k: &mut Kernel, p: &mut Process, a: &[u32; 8]) -> SysResult {
    SysResult::from(super::elfmap::elfmap(p, a[0], a[1], a[2]))
}

/// SGI_TOSSTSAVE: "toss any saved pregions". IRIX keeps the regions of a
/// program's text after it exits, to start the next run faster; rld asks
/// for them to be dropped. irix-emu never keeps any, so there is nothing to
/// toss: 0.
fn tosstsave(_k: &mut Kernel, _p: &mut Process, _a: &[u32; 8]) -> SysResult {
    SysResult::Ok(0)
}

/// SGI_USE_FP_BCOPY: "should bcopy/bzero use fp?". libc asks once; 0 (no)
/// keeps its integer loops, which is what an R4000 Indigo's libc gets (the
/// floating-point copy loops pay off on later processors).
fn use_fp_bcopy(_k: &mut Kernel, _p: &mut Process, _a: &[u32; 8]) -> SysResult {
    SysResult::Ok(0)
}

/// SGI_INVENT(SGI_INV_SIZEOF = 1 | SGI_INV_READ = 2, buf, size): the
/// hardware inventory. irix-emu reports none: the size of a record for
/// SIZEOF (the o32 `inventory_t`: next pointer, class, type, controller,
/// unit, state, six words) and 0 bytes for READ.
fn invent(_k: &mut Kernel, _p: &mut Process, a: &[u32; 8]) -> SysResult {
    const SGI_INV_SIZEOF: u32 = 1;
    const SGI_INV_READ: u32 = 2;
    const INVENTORY_SIZE: u32 = 24;
    match a[0] {
        SGI_INV_SIZEOF => SysResult::Ok(INVENTORY_SIZE),
        SGI_INV_READ => SysResult::Ok(0),
        _ => SysResult::Err(Errno::EINVAL),
    }
}

/// SGI_PATHCONF(path or fd, name, which): pathconf(2) and fpathconf(2).
/// The values are those of IRIX's EFS file system (<limits.h>): _PC_LINK_MAX
/// 1 = 30000, _PC_NAME_MAX 4 = 255, _PC_PATH_MAX 5 = 1024, _PC_PIPE_BUF 6 =
/// 10240; others EINVAL. The path or descriptor is not consulted: every
/// file in the guest is on the same kind of file system.
fn pathconf(_k: &mut Kernel, _p: &mut Process, a: &[u32; 8]) -> SysResult {
    match a[1] {
        1 => SysResult::Ok(30000),
        4 => SysResult::Ok(255),
        5 => SysResult::Ok(crate::vfs::PATH_MAX as u32),
        6 => SysResult::Ok(10240),
        _ => SysResult::Err(Errno::EINVAL),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_sorted_and_unique() {
        for w in REQUESTS.windows(2) {
            assert!(w[0].nr < w[1].nr, "{} before {}", w[0].name, w[1].name);
        }
        assert_eq!(request_name(68), "SGI_ELFMAP");
        assert_eq!(request_name(4242), "4242");
    }
}
