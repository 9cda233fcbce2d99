//! SGI's system-information calls that libc.so.1, rld and the IDO tools make
//! at start-up: sysmp (multiprocessor information), sgiprctl (process
//! control), sysinfo (SVR4 system information strings, `sysinfosgi`), and
//! the syssgi requests about the machine.
//!
//! irix-emu is one R4000 processor: sysmp and prctl answer for a uniprocessor
//! with 4096-byte pages, and sysinfo gives the same names as uname.

use super::info::UTSNAME;
use super::SysResult;
use crate::kernel::Kernel;
use crate::memory::PAGE_SIZE;
use crate::process::Process;
use crate::Errno;

/// sysmp commands (IRIX <sys/sysmp.h>, as qemu-irix and Linux's IRIX
/// compatibility layer number them).
pub const MP_NPROCS: u32 = 1;
pub const MP_NAPROCS: u32 = 2;
pub const MP_PGSIZE: u32 = 14;

/// sysmp(cmd, ...): MP_NPROCS and MP_NAPROCS (processors configured and
/// available: 1), MP_PGSIZE (the page size). Other commands: ENOSYS.
pub fn sysmp(cmd: u32) -> Result<u32, Errno> {
    match cmd {
        MP_NPROCS | MP_NAPROCS => Ok(1),
        MP_PGSIZE => Ok(PAGE_SIZE),
        _ => Err(Errno::ENOSYS),
    }
}

/// prctl options (IRIX <sys/prctl.h>).
pub const PR_MAXPROCS: u32 = 1;
pub const PR_ISBLOCKED: u32 = 2;
pub const PR_MAXPPROCS: u32 = 5;
pub const PR_GETNSHARE: u32 = 14;
/// CHILD_MAX: also what PR_MAXPROCS reports (processes per user).
const MAXPROCS: u32 = 100;

/// prctl(option, ...): PR_MAXPROCS (processes a user may have), PR_MAXPPROCS
/// (processes that can run in parallel: 1 processor), PR_GETNSHARE (members
/// of the caller's share group, 0 when it is in none), PR_ISBLOCKED (0: no
/// process is blocked by blockproc). Other options: ENOSYS.
pub fn prctl(k: &Kernel, p: &Process, option: u32) -> Result<u32, Errno> {
    match option {
        PR_MAXPROCS => Ok(MAXPROCS),
        PR_MAXPPROCS => Ok(1),
        PR_ISBLOCKED => Ok(0),
        PR_GETNSHARE => Ok(match p.share_group {
            None => 0,
            Some(g) => {
                // The caller is not in the table while it runs.
                let others = k
                    .live_pids()
                    .into_iter()
                    .filter(|&q| k.process(q).is_some_and(|o| o.share_group == Some(g)))
                    .count();
                1 + others as u32
            }
        }),
        _ => Err(Errno::ENOSYS),
    }
}

/// SVR4 sysinfo commands (<sys/systeminfo.h>): the "get" ones irix-emu
/// answers. The "set" ones (SI_SET_HOSTNAME 258...) are EPERM: the guest
/// runs as an ordinary user.
pub const SI_SYSNAME: u32 = 1;
pub const SI_HOSTNAME: u32 = 2;
pub const SI_RELEASE: u32 = 3;
pub const SI_VERSION: u32 = 4;
pub const SI_MACHINE: u32 = 5;
pub const SI_ARCHITECTURE: u32 = 6;
pub const SI_HW_PROVIDER: u32 = 8;
const SI_SET_FIRST: u32 = 257;

/// sysinfo(command, buf, count): copies the string (truncated to count - 1
/// bytes and NUL-terminated) and returns the size the whole string needs,
/// NUL included, as SVR4 sysinfo(2) specifies.
pub fn sysinfo(p: &mut Process, command: u32, buf: u32, count: u32) -> Result<u32, Errno> {
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
    Ok(value.len() as u32 + 1)
}

/// Table adapters: sysmp(cmd, ...).
pub fn sys_sysmp(_k: &mut Kernel, _p: &mut Process, a: &[u32; 8]) -> SysResult {
    SysResult::from(sysmp(a[0]))
}

/// sgiprctl(option, ...).
pub fn sys_prctl(k: &mut Kernel, p: &mut Process, a: &[u32; 8]) -> SysResult {
    SysResult::from(prctl(k, p, a[0]))
}

/// sysinfosgi(command, buf, count).
pub fn sys_sysinfo(_k: &mut Kernel, p: &mut Process, a: &[u32; 8]) -> SysResult {
    SysResult::from(sysinfo(p, a[0], a[1], a[2]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sysmp_reports_one_processor_and_the_page_size() {
        assert_eq!(sysmp(MP_PGSIZE), Ok(4096));
        assert_eq!(sysmp(MP_NPROCS), Ok(1));
        assert_eq!(sysmp(999), Err(Errno::ENOSYS));
    }
}
