//! Identity and system information: getpid/getuid/getgid, uname (utssys),
//! ulimit. syssgi has its own module and table (`syssgi.rs`).

use super::{Args, Ret, SysResult};
use crate::abi::flags::{ulimit::*, UTS_UNAME};
use crate::abi::limits::OPEN_MAX;
use crate::kernel::Kernel;
use crate::process::Process;
use crate::Errno;

/// The guest runs as this user and group (fixed, so runs are reproducible
/// on any host; the README documents it).
pub const GUEST_UID: u32 = 100;
pub const GUEST_GID: u32 = 100;

/// getpid(): v0 = pid, v1 = ppid (docs/abi.md).
pub fn getpid(_k: &mut Kernel, p: &mut Process, _a: &Args) -> SysResult {
    Ok(Ret::Pair(p.pid, p.ppid))
}

/// getuid(): v0 = uid, v1 = euid.
pub fn getuid(_k: &mut Kernel, _p: &mut Process, _a: &Args) -> SysResult {
    Ok(Ret::Pair(GUEST_UID, GUEST_UID))
}

/// getgid(): v0 = gid, v1 = egid.
pub fn getgid(_k: &mut Kernel, _p: &mut Process, _a: &Args) -> SysResult {
    Ok(Ret::Pair(GUEST_GID, GUEST_GID))
}

/// SVR4 struct utsname: five fields of SYS_NMLN (257) bytes.
const SYS_NMLN: usize = 257;
/// What uname reports: an R4000 Indigo (IP20) running IRIX 5.3.
pub const UTSNAME: [&str; 5] = ["IRIX", "irix-emu", "5.3", "11091812", "IP20"];

/// utssys(buf, 0, UTS_UNAME = 0): uname(2). Other commands: EINVAL.
pub fn utssys(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    if a.word(2) != UTS_UNAME {
        return Err(Errno::EINVAL);
    }
    let mut buf = vec![0u8; SYS_NMLN * UTSNAME.len()];
    for (i, field) in UTSNAME.iter().enumerate() {
        buf[i * SYS_NMLN..i * SYS_NMLN + field.len()].copy_from_slice(field.as_bytes());
    }
    p.mem.write_bytes(a.ptr(0), &buf)?;
    Ok(Ret::Val(0))
}

/// ulimit(cmd, newlimit): UL_GETFSIZE 1 (file size limit in 512-byte
/// blocks: unlimited), UL_SETFSIZE 2 (accepted, not enforced), UL_GMEMLIM 3
/// (the highest break: where the stack area begins), UL_GDESLIM 4 (OPEN_MAX).
pub fn ulimit(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    Ok(Ret::Val(match a.word(0) {
        UL_GETFSIZE => 0x7fff_ffff,
        UL_SETFSIZE => a.word(1),
        UL_GMEMLIM => p.stack_limit,
        UL_GDESLIM => OPEN_MAX as u32,
        _ => return Err(Errno::EINVAL),
    }))
}
