//! SGI's system-information calls that libc.so.1, rld and the IDO tools make
//! at start-up: sysmp (multiprocessor information), prctl (process control)
//! and sysinfo (SVR4's system-information strings).
//!
//! irix-emu is one R4000 processor: sysmp and prctl answer for a uniprocessor
//! with 4096-byte pages, and sysinfo gives the names uname gives.

use super::info::UTSNAME;
use super::{Args, Ret, SysResult};
use crate::abi::limits::{CHILD_MAX, PAGE_SIZE};
use crate::abi::sgi::*;
use crate::kernel::Kernel;
use crate::process::Process;
use crate::Errno;

/// sysmp(cmd, ...): MP_NPROCS and MP_NAPROCS (processors configured and
/// available: 1), MP_PGSIZE (the page size), MP_SCHED (schedctl, for the
/// nice commands getpriority and setpriority use). Other commands: ENOSYS.
pub fn sysmp(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    match a.word(0) {
        MP_NPROCS | MP_NAPROCS => Ok(Ret::Val(1)),
        MP_PGSIZE => Ok(Ret::Val(PAGE_SIZE)),
        MP_SCHED => super::ids::schedctl(k, p, &a.shifted()),
        _ => Err(Errno::ENOSYS),
    }
}

/// prctl(option, ...): PR_MAXPROCS (processes a user may have: CHILD_MAX),
/// PR_MAXPPROCS (processes that can run in parallel: one processor),
/// PR_GETNSHARE (members of the caller's share group, 0 when it is in none),
/// PR_ISBLOCKED (0: irix-emu has no blockproc). Other options: ENOSYS.
pub fn prctl(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    Ok(Ret::Val(match a.word(0) {
        PR_MAXPROCS => CHILD_MAX,
        PR_MAXPPROCS => 1,
        PR_ISBLOCKED => 0,
        PR_GETNSHARE => match p.share_group {
            None => 0,
            Some(g) => {
                // The caller is not in the table while it runs.
                let others = k
                    .live_pids()
                    .into_iter()
                    .filter(|&q| k.process_mut(q).is_some_and(|o| o.share_group == Some(g)))
                    .count();
                1 + others as u32
            }
        },
        _ => return Err(Errno::ENOSYS),
    }))
}

/// sysinfo(command, buf, count): copies the string (cut to count - 1 bytes
/// and NUL-terminated) and returns the size the whole string needs, NUL
/// included, as SVR4 sysinfo(2) specifies. The "set" commands are EPERM:
/// the guest runs as an ordinary user; unknown ones EINVAL.
pub fn sysinfo(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (command, buf, count) = (a.word(0), a.ptr(1), a.size(2));
    let value: &str = match command {
        SI_SYSNAME => UTSNAME[0],
        SI_HOSTNAME => UTSNAME[1],
        SI_RELEASE => UTSNAME[2],
        SI_VERSION => UTSNAME[3],
        SI_MACHINE => UTSNAME[4],
        SI_ARCHITECTURE => "mips",
        SI_HW_PROVIDER => "sgi",
        c if c >= SI_SET_FIRST => return Err(Errno::EPERM),
        _ => return Err(Errno::EINVAL),
    };
    if count > 0 {
        let n = value.len().min(count as usize - 1);
        let mut bytes = value.as_bytes()[..n].to_vec();
        bytes.push(0);
        p.mem.write_bytes(buf, &bytes)?;
    }
    Ok(Ret::Val(value.len() as u32 + 1))
}

/// gethostname(name, namelen): the host name uname reports, NUL-terminated
/// when namelen leaves room for the NUL, else cut to namelen bytes (IRIX
/// gethostname(2): "null-terminated unless insufficient space is
/// provided"). 0, or EFAULT.
pub fn gethostname(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    copy_name(p, UTSNAME[1], a)
}

/// getdomainname(name, namelen): the NIS domain name, as gethostname
/// copies the host name. The emulated machine belongs to no domain: the
/// name is empty.
pub fn getdomainname(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    copy_name(p, "", a)
}

/// `value` into (name, namelen) as gethostname(2) says: NUL-terminated
/// when namelen leaves room, else cut to namelen bytes; 0, or EFAULT.
fn copy_name(p: &mut Process, value: &str, a: &Args) -> SysResult {
    let (buf, len) = (a.ptr(0), a.size(1) as usize);
    let mut name = value.as_bytes().to_vec();
    name.push(0);
    name.truncate(len);
    p.mem.write_bytes(buf, &name)?;
    Ok(Ret::Val(0))
}

/// gethostid(): the 32-bit host identifier, the last four bytes of the
/// system identifier SGI_SYSID gives, so the two agree.
pub fn gethostid(_k: &mut Kernel, _p: &mut Process, _a: &Args) -> SysResult {
    let id = &super::syssgi::SYSID[12..16];
    Ok(Ret::Val(u32::from_be_bytes([id[0], id[1], id[2], id[3]])))
}
