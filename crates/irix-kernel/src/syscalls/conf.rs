//! The configurable limits and options: sysconf(3C) through
//! syssgi(SGI_SYSCONF, name), and pathconf(2)/fpathconf(2) through
//! syssgi(SGI_PATHCONF, path or fd, name, 1 or 2), as IRIX 5.3's libc
//! calls them.
//!
//! Values are IRIX's where its pages or headers give them (<limits.h>,
//! <unistd.h>, sysconf(3C)'s "Always 1 on Irix"), or the limit irix-emu
//! itself enforces (ARG_MAX, CHILD_MAX, OPEN_MAX, the page size, HZ). An
//! option irix-emu does not offer answers -1 as a success, which libc
//! returns with errno unchanged: sysconf(3C)'s "not defined on the system".
//! A name IRIX 5.3 does not define is EINVAL.

use super::{Args, Ret, SysResult};
use crate::abi::limits::{ARG_MAX, CHILD_MAX, OPEN_MAX, PAGE_SIZE, PATH_MAX};
use crate::abi::sgi::*;
use crate::kernel::Kernel;
use crate::process::Process;
use crate::vfs::Follow;
use crate::Errno;

/// The answer for an option the system does not offer.
const UNSUPPORTED: u32 = u32::MAX;

/// SGI_SYSCONF(name): sysconf(3C)'s value of `name`.
pub fn sysconf(k: &mut Kernel, _p: &mut Process, a: &Args) -> SysResult {
    Ok(Ret::Val(match a.word(0) {
        SC_ARG_MAX => ARG_MAX as u32,
        SC_CHILD_MAX => CHILD_MAX,
        SC_CLK_TCK => k.config.tunables.hz,
        // <limits.h> NGROUPS_MAX.
        SC_NGROUPS_MAX => 16,
        SC_OPEN_MAX | SC_STREAM_MAX => OPEN_MAX as u32,
        // "Always 1 on Irix".
        SC_JOB_CONTROL | SC_SAVED_IDS | SC_ASYNCHRONOUS_IO | SC_REALTIME_SIGNALS => 1,
        // IRIX 5.3's <unistd.h> _POSIX_VERSION and _XOPEN_VERSION.
        SC_VERSION => 199009,
        SC_XOPEN_VERSION => 3,
        // <limits.h> PASS_MAX, LOGNAME_MAX, TZNAME_MAX.
        SC_PASS_MAX | SC_LOGNAME_MAX | SC_TZNAME_MAX => 8,
        SC_PAGESIZE => PAGE_SIZE,
        // "Always 0 on Irix".
        SC_NACLS_MAX => 0,
        // One R4000, as sysmp(MP_NPROCS, MP_NAPROCS) says.
        SC_NPROC_CONF | SC_NPROC_ONLN => 1,
        // IRIX 5.3's libc answers these itself with 4, 255 and 16.
        SC_AIO_LISTIO_MAX => 4,
        SC_AIO_MAX => 255,
        SC_RTSIG_MAX => 16,
        // <limits.h> _POSIX_SIGQUEUE_MAX, the least POSIX allows.
        SC_SIGQUEUE_MAX => 32,
        SC_PRIORITIZED_IO => UNSUPPORTED,
        // Trusted IRIX's options are not configured: 0.
        SC_ACL | SC_AUDIT | SC_INF | SC_MAC | SC_CAP | SC_IP_SECOPTS => 0,
        SC_KERN_POINTERS => 32,
        _ => return Err(Errno::EINVAL),
    }))
}

/// SGI_PATHCONF(path or fd, name, which): pathconf(2) (which 1, a path)
/// and fpathconf(2) (which 2, a descriptor). The path or descriptor is
/// checked (ENOENT, EBADF...); every guest file is on EFS, so the values
/// do not depend on it: LINK_MAX 30000, MAX_CANON 256, MAX_INPUT 512,
/// NAME_MAX 255, PATH_MAX 1024, PIPE_BUF 10240 (<limits.h>), chown
/// restricted (1: see `owner.rs`), long names refused rather than
/// truncated (1), _POSIX_VDISABLE 0.
pub fn pathconf(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    match a.word(2) {
        PATHCONF_PATH => {
            let path = p.mem.read_cstr(a.ptr(0), PATH_MAX)?;
            let (host, _) = k.vfs.resolve(&p.cwd, &path, Follow::Yes)?;
            std::fs::symlink_metadata(host).map_err(|e| crate::files::io_errno(&e))?;
        }
        PATHCONF_FD => {
            p.fds.get(a.fd(0))?;
        }
        _ => return Err(Errno::EINVAL),
    }
    Ok(Ret::Val(match a.word(1) {
        PC_LINK_MAX => 30000,
        PC_MAX_CANON => 256,
        PC_MAX_INPUT => 512,
        PC_NAME_MAX => 255,
        PC_PATH_MAX => PATH_MAX as u32,
        PC_PIPE_BUF => crate::pipe::PIPE_CAPACITY as u32,
        PC_CHOWN_RESTRICTED | PC_NO_TRUNC => 1,
        PC_VDISABLE => 0,
        _ => return Err(Errno::EINVAL),
    }))
}
