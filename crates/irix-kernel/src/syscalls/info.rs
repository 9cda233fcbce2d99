//! System information: getpid, uname (utssys and its own number), ulimit.
//! The user and group IDs are `ids`. syssgi has its own module and table (`syssgi.rs`).

use super::{Args, Ret, SysResult};
use crate::abi::flags::{ulimit::*, UTS_UNAME};
use crate::abi::limits::OPEN_MAX;
use crate::kernel::Kernel;
use crate::process::Process;
use crate::rlimits::{Limit, Resource, INFINITY};
use crate::Errno;

/// getpid(): v0 = pid, v1 = ppid (docs/abi.md).
pub fn getpid(_k: &mut Kernel, p: &mut Process, _a: &Args) -> SysResult {
    Ok(Ret::Pair(p.pid, p.ppid))
}

/// SVR4 struct utsname: five fields of SYS_NMLN (257) bytes.
const SYS_NMLN: usize = 257;
/// What uname reports: an R4000 Indigo (IP20) running IRIX 5.3.
pub const UTSNAME: [&str; 5] = ["IRIX", "irix-emu", "5.3", "11091812", "IP20"];

/// utssys(buf, 0, UTS_UNAME = 0): uname(2) as IRIX's libc asks it.
/// Other commands: EINVAL.
pub fn utssys(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    if a.word(2) != UTS_UNAME {
        return Err(Errno::EINVAL);
    }
    uname(k, p, a)
}

/// uname(buf), uname(2)'s own number: the five utsname fields; EFAULT for
/// a bad buf.
pub fn uname(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let mut buf = vec![0u8; SYS_NMLN * UTSNAME.len()];
    for (i, field) in UTSNAME.iter().enumerate() {
        buf[i * SYS_NMLN..i * SYS_NMLN + field.len()].copy_from_slice(field.as_bytes());
    }
    p.mem.write_bytes(a.ptr(0), &buf)?;
    Ok(Ret::Val(0))
}

/// ulimit(cmd, newlimit), by ulimit(2): UL_GETFSIZE 1 and UL_SETFSIZE 2
/// read and set RLIMIT_FSIZE (soft and hard together) in 512-byte blocks
/// (raising it is the super-user's: EPERM); UL_GMEMLIM 3 is the highest
/// break (where the stack area begins); UL_GDESLIM 4 is RLIMIT_NOFILE.
pub fn ulimit(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    const BLOCK: u64 = 512;
    let fsize = p.limits.get(Resource::Fsize);
    Ok(Ret::Val(match a.word(0) {
        UL_GETFSIZE => (fsize.soft / BLOCK).min(0x7fff_ffff) as u32,
        UL_SETFSIZE => {
            let blocks = u64::from(a.word(1)).min(0x7fff_ffff);
            let bytes = if blocks == 0x7fff_ffff {
                INFINITY
            } else {
                blocks * BLOCK
            };
            let su = p.ids.is_superuser();
            p.limits.set(
                Resource::Fsize,
                Limit {
                    soft: bytes,
                    hard: bytes,
                },
                su,
            )?;
            blocks as u32
        }
        UL_GMEMLIM => p.stack_limit,
        UL_GDESLIM => p.limits.soft(Resource::Nofile).min(OPEN_MAX as u64) as u32,
        _ => return Err(Errno::EINVAL),
    }))
}
