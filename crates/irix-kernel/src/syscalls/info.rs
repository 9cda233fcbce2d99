//! Identity and system information: getpid/getuid/getgid, uname (utssys),
//! ulimit, and the syssgi requests SGI_SYSCONF and SGI_SYSID (the request
//! table is `syssgi.rs`).

use super::SysResult;
use crate::files::OPEN_MAX;
use crate::kernel::Kernel;
use crate::memory::PAGE_SIZE;
use crate::process::Process;
use crate::Errno;

/// The guest runs as this user and group (fixed, so runs are reproducible
/// on any host; the README documents it).
pub const GUEST_UID: u32 = 100;
pub const GUEST_GID: u32 = 100;

/// getpid(): v0 = pid, v1 = ppid (ABI.md).
pub fn getpid(_k: &mut Kernel, p: &mut Process, _a: &[u32; 8]) -> SysResult {
    SysResult::Ok2(p.pid, p.ppid)
}

/// getuid(): v0 = uid, v1 = euid.
pub fn getuid(_k: &mut Kernel, _p: &mut Process, _a: &[u32; 8]) -> SysResult {
    SysResult::Ok2(GUEST_UID, GUEST_UID)
}

/// getgid(): v0 = gid, v1 = egid.
pub fn getgid(_k: &mut Kernel, _p: &mut Process, _a: &[u32; 8]) -> SysResult {
    SysResult::Ok2(GUEST_GID, GUEST_GID)
}

/// SVR4 struct utsname: five fields of SYS_NMLN (257) bytes.
const SYS_NMLN: usize = 257;
/// What uname reports: an R4000 Indigo (IP20) running IRIX 5.3.
pub const UTSNAME: [&str; 5] = ["IRIX", "irix-emu", "5.3", "11091812", "IP20"];

/// utssys(buf, 0, UTS_UNAME = 0): uname(2). Other commands: EINVAL.
pub fn utssys(_k: &mut Kernel, p: &mut Process, a: &[u32; 8]) -> SysResult {
    if a[2] != 0 {
        return SysResult::Err(Errno::EINVAL);
    }
    let mut buf = vec![0u8; SYS_NMLN * UTSNAME.len()];
    for (i, field) in UTSNAME.iter().enumerate() {
        buf[i * SYS_NMLN..i * SYS_NMLN + field.len()].copy_from_slice(field.as_bytes());
    }
    tri!(p.mem.write_bytes(a[0], &buf));
    SysResult::Ok(0)
}

/// ulimit(cmd, newlimit): UL_GETFSIZE 1 (file size limit in 512-byte
/// blocks: unlimited), UL_SETFSIZE 2 (accepted, not enforced), UL_GMEMLIM 3
/// (the highest break: where the stack area begins), UL_GDESLIM 4 (OPEN_MAX).
pub fn ulimit(_k: &mut Kernel, p: &mut Process, a: &[u32; 8]) -> SysResult {
    match a[0] {
        1 => SysResult::Ok(0x7fff_ffff),
        2 => SysResult::Ok(a[1]),
        3 => SysResult::Ok(p.stack_limit),
        4 => SysResult::Ok(OPEN_MAX as u32),
        _ => SysResult::Err(Errno::EINVAL),
    }
}

/// sysconf names (through SGI_SYSCONF) and the values irix-emu reports.
const SC_ARG_MAX: u32 = 1;
const SC_CHILD_MAX: u32 = 2;
const SC_CLK_TCK: u32 = 3;
const SC_OPEN_MAX: u32 = 5;
const SC_PAGESIZE: u32 = 11;
/// ARG_MAX on IRIX 5 (limits.h): 5120 bytes... IRIX 6 raised it to 20480;
/// irix-emu reports the larger value, and enforces nothing below it.
const ARG_MAX: u32 = 20480;
/// CHILD_MAX: processes per user.
const CHILD_MAX: u32 = 100;

/// syssgi(SGI_SYSCONF, name): sysconf(3C)'s values.
pub fn sgi_sysconf(k: &mut Kernel, _p: &mut Process, a: &[u32; 8]) -> SysResult {
    match a[0] {
        SC_ARG_MAX => SysResult::Ok(ARG_MAX),
        SC_CHILD_MAX => SysResult::Ok(CHILD_MAX),
        SC_CLK_TCK => SysResult::Ok(k.config.tunables.hz),
        SC_OPEN_MAX => SysResult::Ok(OPEN_MAX as u32),
        SC_PAGESIZE => SysResult::Ok(PAGE_SIZE),
        _ => SysResult::Err(Errno::EINVAL),
    }
}

/// syssgi(SGI_SYSID, buf): a 16-byte system identifier, fixed like
/// everything that identifies the machine.
pub fn sgi_sysid(_k: &mut Kernel, p: &mut Process, a: &[u32; 8]) -> SysResult {
    tri!(p.mem.write_bytes(a[0], b"irix-emu\0\0\0\0\0\0\0\x01"));
    SysResult::Ok(0)
}
