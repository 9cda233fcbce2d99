//! Identity calls: the user and group IDs (setuid(2), setgid, setreuid(2),
//! setregid), the supplementary groups (getgroups(2), setgroups(2), through
//! syssgi), process groups and sessions (pgrpsys, whose commands are
//! getpgrp(2), setpgrp(2), getsid(2), setsid(2), getpgid(2) and setpgid(2);
//! IRIX's libc reaches the last four through syssgi), and scheduling
//! priority (nice(2), and getpriority(2)/setpriority(2), which libc builds on
//! schedctl, that is sysmp(MP_SCHED)).
//!
//! The guest is an unprivileged user (`identity`), so each call gives what
//! its page gives such a user.

use super::{Args, Ret, SysResult};
use crate::identity::{Identity, NGROUPS_MAX, NICE_MAX, NZERO};
use crate::kernel::Kernel;
use crate::process::{Pid, Process};
use crate::Errno;

/// The largest user or group ID (IRIX's uid_t and gid_t are signed 32-bit
/// words; a negative one is "out of range", setuid(2)'s EINVAL).
const MAXUID: u32 = 0x7fff_ffff;

/// getuid(): v0 = the real user ID, v1 = the effective one.
pub fn getuid(_k: &mut Kernel, p: &mut Process, _a: &Args) -> SysResult {
    Ok(Ret::Pair(p.ids.ruid, p.ids.euid))
}

/// getgid(): v0 = the real group ID, v1 = the effective one.
pub fn getgid(_k: &mut Kernel, p: &mut Process, _a: &Args) -> SysResult {
    Ok(Ret::Pair(p.ids.rgid, p.ids.egid))
}

/// One of setuid's and setgid's triples (real, effective, saved).
struct Triple<'a> {
    real: &'a mut u32,
    effective: &'a mut u32,
    saved: &'a mut u32,
}

fn uid_triple(ids: &mut Identity) -> Triple<'_> {
    Triple {
        real: &mut ids.ruid,
        effective: &mut ids.euid,
        saved: &mut ids.suid,
    }
}

fn gid_triple(ids: &mut Identity) -> Triple<'_> {
    Triple {
        real: &mut ids.rgid,
        effective: &mut ids.egid,
        saved: &mut ids.sgid,
    }
}

/// setuid(2) and setgid(2): "If the calling process has the super-user
/// privilege, the real, effective, and saved user IDs are set to the uid
/// parameter. If the calling process does not have the super-user
/// privilege, but uid is either the real user ID or the saved user ID of
/// the calling process, the effective user ID is set to uid." Otherwise
/// EPERM; an ID out of range is EINVAL.
fn set_id(superuser: bool, t: Triple<'_>, id: u32) -> SysResult {
    if id > MAXUID {
        return Err(Errno::EINVAL);
    }
    if superuser {
        (*t.real, *t.effective, *t.saved) = (id, id, id);
    } else if id == *t.real || id == *t.saved {
        *t.effective = id;
    } else {
        return Err(Errno::EPERM);
    }
    Ok(Ret::Val(0))
}

/// setuid(uid): see `set_id`.
pub fn setuid(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let su = p.ids.is_superuser();
    set_id(su, uid_triple(&mut p.ids), a.word(0))
}

/// setgid(gid): see `set_id`.
pub fn setgid(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let su = p.ids.is_superuser();
    set_id(su, gid_triple(&mut p.ids), a.word(0))
}

/// setreuid(2) and setregid: "If ruid or euid is -1, the current uid is
/// filled in by the system. Unprivileged users may change the real user ID
/// to the effective user ID and vice-versa; only the super-user may make
/// other changes" (EPERM). When the real ID is set, or the effective one
/// set to other than the real one, the saved ID follows the new effective
/// one (as BSD, whose call this is, does).
fn set_re(superuser: bool, t: Triple<'_>, r: u32, e: u32) -> SysResult {
    const KEEP: u32 = u32::MAX;
    let (old_r, old_e) = (*t.real, *t.effective);
    let new_r = if r == KEEP { old_r } else { r };
    let new_e = if e == KEEP { old_e } else { e };
    if new_r > MAXUID || new_e > MAXUID {
        return Err(Errno::EINVAL);
    }
    let allowed = |v: u32| v == old_r || v == old_e;
    if !superuser && (!allowed(new_r) || !allowed(new_e)) {
        return Err(Errno::EPERM);
    }
    if r != KEEP || new_e != old_r {
        *t.saved = new_e;
    }
    (*t.real, *t.effective) = (new_r, new_e);
    Ok(Ret::Val(0))
}

/// setreuid(ruid, euid): see `set_re`.
pub fn setreuid(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let su = p.ids.is_superuser();
    set_re(su, uid_triple(&mut p.ids), a.word(0), a.word(1))
}

/// setregid(rgid, egid): see `set_re`.
pub fn setregid(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let su = p.ids.is_superuser();
    set_re(su, gid_triple(&mut p.ids), a.word(0), a.word(1))
}

/// syssgi(SGI_GETGROUPS, setlen, gidset): getgroups(2). "if the setlen
/// parameter is zero, getgroups returns the number of supplemental group
/// IDs ... without modifying the array"; EINVAL when setlen is smaller
/// than the number of groups; EFAULT for a bad gidset. gid_t is a 32-bit
/// word.
pub fn getgroups(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (len, set) = (a.int(0), a.ptr(1));
    let groups = &p.ids.groups;
    if len == 0 {
        return Ok(Ret::Val(groups.len() as u32));
    }
    if len < 0 || (len as usize) < groups.len() {
        return Err(Errno::EINVAL);
    }
    let bytes: Vec<u8> = groups.iter().flat_map(|g| g.to_be_bytes()).collect();
    p.mem.write_bytes(set, &bytes)?;
    Ok(Ret::Val(groups.len() as u32))
}

/// syssgi(SGI_SETGROUPS, ngroups, gidset): setgroups(2). "Only the
/// super-user may set new groups": EPERM; EINVAL for a count above
/// NGROUPS_MAX (checked first, as the count needs no privilege to judge),
/// EFAULT for a bad array.
pub fn setgroups(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (n, set) = (a.int(0), a.ptr(1));
    if n < 0 || n as usize > NGROUPS_MAX {
        return Err(Errno::EINVAL);
    }
    let mut bytes = vec![0u8; n as usize * 4];
    p.mem.read_bytes(set, &mut bytes)?;
    if !p.ids.is_superuser() {
        return Err(Errno::EPERM);
    }
    p.ids.groups = bytes
        .chunks(4)
        .map(|w| u32::from_be_bytes([w[0], w[1], w[2], w[3]]))
        .collect();
    Ok(Ret::Val(n as u32))
}

/// pgrpsys commands (SVR4's, in the order its libc numbers them).
const GETPGRP: u32 = 0;
const SETPGRP: u32 = 1;
const GETSID: u32 = 2;
const SETSID: u32 = 3;
const GETPGID: u32 = 4;
const SETPGID: u32 = 5;

/// pgrpsys(cmd, pid, pgid): the process-group calls by command number.
pub fn pgrpsys(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    match a.word(0) {
        GETPGRP => Ok(Ret::Val(p.ids.pgid)),
        SETPGRP => Ok(Ret::Val(setpgrp(k, p))),
        GETSID => getsid(k, p, &a.shifted()),
        SETSID => setsid(k, p, a),
        GETPGID => getpgid(k, p, &a.shifted()),
        SETPGID => setpgid(k, p, &a.shifted()),
        _ => Err(Errno::EINVAL),
    }
}

/// Whether any process but `p` has `pgid` as its process group.
fn group_has_others(k: &Kernel, p: &Process, pgid: Pid) -> bool {
    k.procs
        .values()
        .any(|o| o.pid != p.pid && o.ids.pgid == pgid)
}

/// setpgrp(2), System V: "behaves identically to setsid" but "returns the
/// value of the new process group ID with no possibility of error": where
/// setsid would fail, nothing changes and the current group is returned.
fn setpgrp(k: &Kernel, p: &mut Process) -> u32 {
    if p.ids.sid != p.pid && !group_has_others(k, p, p.pid) {
        p.ids.sid = p.pid;
        p.ids.pgid = p.pid;
    }
    p.ids.pgid
}

/// setsid(2): "If the calling process is not already a process group
/// leader, setsid sets the process group ID and session ID of the calling
/// process to the process ID of the calling process". EPERM when it "is
/// already a process group leader, or there are processes other than the
/// calling process whose process group ID is equal to the process ID of
/// the calling process". Returns the new process group ID.
pub fn setsid(k: &mut Kernel, p: &mut Process, _a: &Args) -> SysResult {
    if p.ids.pgid == p.pid || group_has_others(k, p, p.pid) {
        return Err(Errno::EPERM);
    }
    p.ids.sid = p.pid;
    p.ids.pgid = p.pid;
    Ok(Ret::Val(p.pid))
}

/// The identity of process `pid` (0: the caller): ESRCH when there is no
/// such live process.
fn ids_of<'a>(k: &'a Kernel, p: &'a Process, pid: u32) -> Result<&'a Identity, Errno> {
    if pid == 0 || pid == p.pid {
        return Ok(&p.ids);
    }
    k.procs.get(&pid).map(|o| &o.ids).ok_or(Errno::ESRCH)
}

/// getsid(pid) (syssgi SGI_GETSID): the session of `pid`, 0 for the
/// caller; ESRCH "if there is no process with a process ID equal to pid".
/// Every guest process may see every other's (the page's EPERM is for
/// implementations that hide other sessions; irix-emu hides nothing).
pub fn getsid(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    Ok(Ret::Val(ids_of(k, p, a.word(0))?.sid))
}

/// getpgid(pid) (syssgi SGI_GETPGID): the process group of `pid`, or of
/// the caller "if pid is equal to zero"; ESRCH without such a process.
pub fn getpgid(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let pid = a.word(0);
    match ids_of(k, p, pid) {
        Ok(ids) => Ok(Ret::Val(ids.pgid)),
        // A child that has exited and not been waited for still has a group.
        Err(e) => k.zombie(pid).map(|z| Ret::Val(z.pgid)).ok_or(e),
    }
}

/// setpgid(pid, pgid) (syssgi SGI_SETPGID), by setpgid(2): pid 0 is the
/// caller, pgid 0 is pid. EINVAL for a negative pgid; ESRCH unless pid is
/// the caller or its child; EACCES for a child that has exec'd; EPERM for
/// a session leader, a child in another session, or a pgid other than pid
/// that no process of the caller's session has.
pub fn setpgid(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (pid, pgid) = (a.int(0), a.int(1));
    if pgid < 0 || pid < 0 {
        return Err(if pgid < 0 {
            Errno::EINVAL
        } else {
            Errno::ESRCH
        });
    }
    let pid = if pid == 0 { p.pid } else { pid as u32 };
    let pgid = if pgid == 0 { pid } else { pgid as u32 };
    let session = p.ids.sid;
    let group_exists = |k: &Kernel| {
        pgid == pid
            || (p.ids.pgid == pgid && p.ids.sid == session)
            || k.procs
                .values()
                .any(|o| o.ids.pgid == pgid && o.ids.sid == session)
    };
    if pid == p.pid {
        if p.ids.sid == p.pid {
            return Err(Errno::EPERM);
        }
        if !group_exists(k) {
            return Err(Errno::EPERM);
        }
        p.ids.pgid = pgid;
        return Ok(Ret::Val(0));
    }
    let exists = group_exists(k);
    let child = match k.procs.get_mut(&pid) {
        Some(c) if c.ppid == p.pid => c,
        _ => return Err(Errno::ESRCH),
    };
    if child.execs > 0 {
        return Err(Errno::EACCES);
    }
    if child.ids.sid == child.pid || child.ids.sid != session || !exists {
        return Err(Errno::EPERM);
    }
    child.ids.pgid = pgid;
    Ok(Ret::Val(0))
}

/// BSDsetpgrp(pid, pgrp) (IRIX's own number): "If pgrp is zero and pid
/// refers to the calling process, setpgrp() behaves identically to
/// setsid"; otherwise as setpgid, with ESRCH and EPERM as its page gives.
pub fn bsd_setpgrp(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (pid, pgrp) = (a.word(0), a.word(1));
    if pgrp == 0 && (pid == 0 || pid == p.pid) {
        return setsid(k, p, a).map(|_| Ret::Val(0));
    }
    setpgid(k, p, a)
}

/// nice(incr), by nice(2): adds incr to the nice value, clamped to 0..=40,
/// and returns "the new nice value minus 20". EPERM "if incr is negative
/// or greater than 40 and the effective user ID of the calling process is
/// not super-user".
pub fn nice(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let incr = a.int(0);
    if (!(0..=NICE_MAX as i32).contains(&incr)) && !p.ids.is_superuser() {
        return Err(Errno::EPERM);
    }
    let new = (p.ids.nice as i32 + incr).clamp(0, NICE_MAX as i32) as u32;
    p.ids.nice = new;
    Ok(Ret::Val((new as i32 - NZERO as i32) as u32))
}

/// schedctl commands that getpriority(2) and setpriority(2) use, through
/// sysmp(MP_SCHED, cmd, who, prio) (IRIX libc's schedctl): the renice
/// commands, then the get-nice ones, for a process, a process group, a user.
const RENICE_PROC: u32 = 4;
const RENICE_USER: u32 = 6;
const GETNICE_PROC: u32 = 7;
const GETNICE_USER: u32 = 9;

/// The processes `which` (0 process, 1 group, 2 user) and `who` (0: the
/// caller's) select, as (pid, nice) pairs; the caller first when it is one.
fn selected(k: &Kernel, p: &Process, which: u32, who: u32) -> Vec<(Pid, u32)> {
    let matches = |ids: &Identity, pid: Pid| match which {
        0 => pid == if who == 0 { p.pid } else { who },
        1 => ids.pgid == if who == 0 { p.ids.pgid } else { who },
        _ => ids.euid == if who == 0 { p.ids.euid } else { who },
    };
    std::iter::once((p.pid, &p.ids))
        .chain(k.procs.values().map(|o| (o.pid, &o.ids)))
        .filter(|(pid, ids)| matches(ids, *pid))
        .map(|(pid, ids)| (pid, ids.nice))
        .collect()
}

/// sysmp(MP_SCHED, cmd, who, prio): schedctl's get-nice and renice
/// commands, as getpriority(2) and setpriority(2) define them. Priorities
/// are nice values less 20 (-20..=20). getpriority "returns the highest
/// priority (lowest numerical value) enjoyed by any of the specified
/// processes"; ESRCH when none is found. setpriority sets them all; "Only
/// the super-user may lower priorities" (EACCES); a process whose IDs do
/// not match the caller's effective user ID is EPERM. Out-of-range values
/// are clamped, as nice(2) clamps.
pub fn schedctl(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (cmd, who, prio) = (a.word(0), a.word(1), a.int(2));
    let which = match cmd {
        RENICE_PROC..=RENICE_USER => cmd - RENICE_PROC,
        GETNICE_PROC..=GETNICE_USER => cmd - GETNICE_PROC,
        _ => return Err(Errno::EINVAL),
    };
    let targets = selected(k, p, which, who);
    if targets.is_empty() {
        return Err(Errno::ESRCH);
    }
    if cmd >= GETNICE_PROC {
        let best = targets.iter().map(|&(_, n)| n).min().unwrap_or(NZERO);
        return Ok(Ret::Val((best as i32 - NZERO as i32) as u32));
    }
    let new = (prio.clamp(-(NZERO as i32), NZERO as i32) + NZERO as i32) as u32;
    let euid = p.ids.euid;
    let su = p.ids.is_superuser();
    for (pid, old) in targets {
        let ids = if pid == p.pid {
            &mut p.ids
        } else {
            match k.procs.get_mut(&pid) {
                Some(o) => &mut o.ids,
                None => continue,
            }
        };
        if !su && ids.euid != euid && ids.ruid != euid {
            return Err(Errno::EPERM);
        }
        if !su && new < old {
            return Err(Errno::EACCES);
        }
        ids.nice = new;
    }
    Ok(Ret::Val(0))
}
