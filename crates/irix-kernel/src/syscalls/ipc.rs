//! System V IPC's three calls, each a family of operations chosen by its
//! first argument (SVR4's numbering, as IRIX's libc calls them):
//! - msgsys: 0 msgget(key, msgflg), 1 msgctl(msqid, cmd, buf),
//!   2 msgrcv(msqid, msgp, msgsz, msgtyp, msgflg),
//!   3 msgsnd(msqid, msgp, msgsz, msgflg);
//! - semsys: 0 semctl(semid, semnum, cmd, arg), 1 semget(key, nsems,
//!   semflg), 2 semop(semid, sops, nsops);
//! - shmsys: 0 shmat(shmid, shmaddr, shmflg), 1 shmctl(shmid, cmd, buf),
//!   2 shmdt(shmaddr), 3 shmget(key, size, shmflg).
//!
//! The objects are in `crate::ipc`. A call that must wait returns
//! `Ret::Block` and is made again when the process next runs; a caught
//! signal ends the wait with EINTR (msgop(2), semop(2)).

use super::{Args, Ret, SysResult};
use crate::ipc::msg::{self, Queue, MSG_NOERROR, MSQID_DS_BYTES};
use crate::ipc::sem::{self, Op, Outcome, Set, SEMBUF_BYTES, SEMID_DS_BYTES};
use crate::ipc::shm::{self, Segment, SHMID_DS_BYTES};
use crate::ipc::{IPC_NOWAIT, IPC_RMID, IPC_SET, IPC_STAT, READ, WRITE};
use crate::kernel::Kernel;
use crate::memory::{page_ceil, Perms, SharedObject, PAGE_SIZE, USER_TOP};
use crate::process::Process;
use crate::timers::{OnSignal, Wait};
use crate::Errno;

/// The wall-clock seconds the structures' times hold.
fn seconds(k: &Kernel) -> u32 {
    k.wall_time().0
}

/// The call waits; a caught signal ends it with EINTR.
fn block(p: &mut Process) -> SysResult {
    p.wait.get_or_insert_with(Wait::default).on_signal = OnSignal::Eintr;
    Ok(Ret::Block)
}

/// Is this call a retry of one that waited (EIDRM, not EINVAL, if its
/// object went meanwhile)?
fn waited(p: &Process) -> bool {
    p.wait.is_some()
}

fn read_vec(p: &Process, addr: u32, len: usize) -> Result<Vec<u8>, Errno> {
    let mut buf = vec![0u8; len];
    p.mem.read_bytes(addr, &mut buf)?;
    Ok(buf)
}

/// msgsys(2): the message queue operations.
pub fn msgsys(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    match a.word(0) {
        0 => msgget(k, p, a),
        1 => msgctl(k, p, a),
        2 => msgrcv(k, p, a),
        3 => msgsnd(k, p, a),
        _ => Err(Errno::EINVAL),
    }
}

/// msgget(key, msgflg) (msgget(2)).
fn msgget(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (key, flags) = (a.word(1), a.word(2));
    let (now, budget) = (seconds(k), k.budget.clone());
    let id = k.ipc.msgs.get(
        &p.ids,
        key,
        flags,
        |_| Ok(()),
        || Ok(Queue::new(now, budget)),
    )?;
    Ok(Ret::Val(id))
}

/// msgsnd(msqid, msgp, msgsz, msgflg) (msgop(2)).
fn msgsnd(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (id, msgp, size, flags) = (a.word(1), a.ptr(2), a.int(3), a.word(4));
    let total: usize = k.ipc.msgs.objects().map(Queue::qnum).sum();
    let now = seconds(k);
    let (perm, q) = k.ipc.msgs.find(id, waited(p))?;
    if !perm.allows(&p.ids, WRITE) {
        return Err(Errno::EACCES);
    }
    let mtype = p.mem.read_u32(msgp)? as i32;
    if mtype < 1 || size < 0 || size as usize > msg::MSGMAX {
        return Err(Errno::EINVAL);
    }
    let text = read_vec(p, msgp.wrapping_add(4), size as usize)?;
    if !q.has_room(text.len(), total) {
        return if flags & IPC_NOWAIT != 0 {
            Err(Errno::EAGAIN)
        } else {
            block(p)
        };
    }
    q.send(mtype, text, p.pid, now)?;
    Ok(Ret::Val(0))
}

/// msgrcv(msqid, msgp, msgsz, msgtyp, msgflg) (msgop(2)): the number of
/// bytes placed in mtext.
fn msgrcv(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (id, msgp, size, msgtyp, flags) = (a.word(1), a.ptr(2), a.int(3), a.int(4), a.word(5));
    let now = seconds(k);
    let (perm, q) = k.ipc.msgs.find(id, waited(p))?;
    if !perm.allows(&p.ids, READ) {
        return Err(Errno::EACCES);
    }
    if size < 0 {
        return Err(Errno::EINVAL);
    }
    let Some(at) = q.select(msgtyp) else {
        return if flags & IPC_NOWAIT != 0 {
            Err(Errno::ENOMSG)
        } else {
            block(p)
        };
    };
    let len = q.len_of(at);
    if len > size as usize && flags & MSG_NOERROR == 0 {
        return Err(Errno::E2BIG);
    }
    let n = len.min(size as usize);
    p.mem.check_writable(msgp, 4 + n as u32)?;
    let (mtype, text) = q.receive(at, p.pid, now);
    p.mem.write_u32(msgp, mtype as u32)?;
    p.mem.write_bytes(msgp + 4, &text[..n])?;
    Ok(Ret::Val(n as u32))
}

/// msgctl(msqid, cmd, buf) (msgctl(2)): IPC_STAT, IPC_SET, IPC_RMID.
fn msgctl(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (id, cmd, buf) = (a.word(1), a.word(2), a.ptr(3));
    let now = seconds(k);
    let (perm, q) = k.ipc.msgs.find(id, false)?;
    match cmd {
        IPC_STAT => {
            if !perm.allows(&p.ids, READ) {
                return Err(Errno::EACCES);
            }
            let ds = q.encode(perm);
            p.mem.write_bytes(buf, &ds)?;
        }
        IPC_SET => {
            if !perm.owned_by(&p.ids) {
                return Err(Errno::EPERM);
            }
            let ds = read_vec(p, buf, MSQID_DS_BYTES)?;
            let qbytes = u32::from_be_bytes(ds[60..64].try_into().expect("4 bytes"));
            if qbytes > q.qbytes && !p.ids.is_superuser() {
                return Err(Errno::EPERM);
            }
            perm.set_from(&ds)?;
            q.qbytes = qbytes;
            q.ctime = now;
        }
        IPC_RMID => {
            if !perm.owned_by(&p.ids) {
                return Err(Errno::EPERM);
            }
            k.ipc.msgs.remove(id);
        }
        _ => return Err(Errno::EINVAL),
    }
    Ok(Ret::Val(0))
}

/// semsys(2): the semaphore operations.
pub fn semsys(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    match a.word(0) {
        0 => semctl(k, p, a),
        1 => semget(k, p, a),
        2 => semop(k, p, a),
        _ => Err(Errno::EINVAL),
    }
}

/// semget(key, nsems, semflg) (semget(2)).
fn semget(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (key, nsems, flags) = (a.word(1), a.int(2), a.word(3));
    let now = seconds(k);
    let in_use: usize = k.ipc.sems.objects().map(|s| s.sems.len()).sum();
    let id = k.ipc.sems.get(
        &p.ids,
        key,
        flags,
        |set| {
            if nsems < 0 || nsems as usize > set.sems.len() {
                Err(Errno::EINVAL)
            } else {
                Ok(())
            }
        },
        || {
            if nsems <= 0 || nsems as usize > sem::SEMMSL {
                Err(Errno::EINVAL)
            } else if in_use + nsems as usize > sem::SEMMNS {
                Err(Errno::ENOSPC)
            } else {
                Ok(Set::new(nsems as usize, now))
            }
        },
    )?;
    Ok(Ret::Val(id))
}

/// semop(semid, sops, nsops) (semop(2)).
fn semop(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (id, sops, nsops) = (a.word(1), a.ptr(2), a.word(3));
    if nsops as usize > sem::SEMOPM {
        return Err(Errno::E2BIG);
    }
    let now = seconds(k);
    // A wait a signal ended elsewhere is over: the caller waits, if at
    // all, on this call's set only.
    for set in k.ipc.sems.objects_mut() {
        set.stop_waiting(p.pid);
    }
    let (perm, set) = k.ipc.sems.find(id, waited(p))?;
    let bytes = read_vec(p, sops, nsops as usize * SEMBUF_BYTES)?;
    let ops: Vec<Op> = bytes.chunks(SEMBUF_BYTES).map(Op::decode).collect();
    let alters = ops.iter().any(|o| o.op != 0);
    let reads = ops.iter().any(|o| o.op == 0);
    if (alters && !perm.allows(&p.ids, WRITE)) || (reads && !perm.allows(&p.ids, READ)) {
        return Err(Errno::EACCES);
    }
    match set.semop(&ops, p.pid, now)? {
        Outcome::Done => Ok(Ret::Val(0)),
        Outcome::Wait { .. } => block(p),
    }
}

/// semctl(semid, semnum, cmd, arg) (semctl(2)); `arg` is the union's word
/// (a value, or the address of a semid_ds or an array of shorts).
fn semctl(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (id, num, cmd, arg) = (a.word(1), a.int(2), a.word(3), a.word(4));
    let now = seconds(k);
    // Waiters that a signal took out of semop no longer count.
    let waiting: Vec<_> = k
        .procs
        .iter()
        .filter(|(_, q)| q.wait.is_some_and(|w| w.call == "semsys"))
        .map(|(&pid, _)| pid)
        .collect();
    let (perm, set) = k.ipc.sems.find(id, false)?;
    set.waiting.retain(|pid, _| waiting.contains(pid));
    let one = || {
        usize::try_from(num)
            .ok()
            .filter(|&n| n < set.sems.len())
            .ok_or(Errno::EINVAL)
    };
    let need = match cmd {
        sem::SETVAL | sem::SETALL => WRITE,
        _ => READ,
    };
    if cmd != IPC_SET && cmd != IPC_RMID && !perm.allows(&p.ids, need) {
        return Err(Errno::EACCES);
    }
    let val = match cmd {
        sem::GETVAL => set.sems[one()?].val as u32,
        sem::GETPID => set.sems[one()?].pid,
        sem::GETNCNT => set.waiters(one()? as u16, false),
        sem::GETZCNT => set.waiters(one()? as u16, true),
        sem::SETVAL => {
            let n = one()?;
            set.set_value(n, arg as i32, now)?;
            0
        }
        sem::GETALL => {
            let vals: Vec<u8> = set
                .sems
                .iter()
                .flat_map(|s| (s.val as u16).to_be_bytes())
                .collect();
            p.mem.write_bytes(arg, &vals)?;
            0
        }
        sem::SETALL => {
            let vals = read_vec(p, arg, 2 * set.sems.len())?;
            let vals: Vec<i32> = vals
                .chunks(2)
                .map(|b| i32::from(u16::from_be_bytes([b[0], b[1]])))
                .collect();
            if vals.iter().any(|&v| v > sem::SEMVMX) {
                return Err(Errno::ERANGE);
            }
            for (n, v) in vals.into_iter().enumerate() {
                set.set_value(n, v, now)?;
            }
            0
        }
        IPC_STAT => {
            let ds = set.encode(perm);
            p.mem.write_bytes(arg, &ds)?;
            0
        }
        IPC_SET => {
            if !perm.owned_by(&p.ids) {
                return Err(Errno::EPERM);
            }
            let ds = read_vec(p, arg, SEMID_DS_BYTES)?;
            perm.set_from(&ds)?;
            set.ctime = now;
            0
        }
        IPC_RMID => {
            if !perm.owned_by(&p.ids) {
                return Err(Errno::EPERM);
            }
            k.ipc.sems.remove(id);
            0
        }
        _ => return Err(Errno::EINVAL),
    };
    Ok(Ret::Val(val))
}

/// shmsys(2): the shared memory operations.
pub fn shmsys(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    match a.word(0) {
        0 => shmat(k, p, a),
        1 => shmctl(k, p, a),
        2 => shmdt(k, p, a),
        3 => shmget(k, p, a),
        _ => Err(Errno::EINVAL),
    }
}

/// shmget(key, size, shmflg) (shmget(2)).
fn shmget(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (key, size, flags) = (a.word(1), a.word(2), a.word(3));
    let now = seconds(k);
    let budget = k.budget.clone();
    let id = k.ipc.shms.get(
        &p.ids,
        key,
        flags,
        |seg| {
            if size > seg.size {
                Err(Errno::EINVAL)
            } else {
                Ok(())
            }
        },
        || {
            if !(shm::SHMMIN..=shm::SHMMAX).contains(&size) {
                Err(Errno::EINVAL)
            } else if page_ceil(u64::from(size)) > budget.available() {
                Err(Errno::ENOMEM)
            } else {
                Ok(Segment::new(
                    SharedObject::anonymous(budget.clone()),
                    size,
                    p.pid,
                    now,
                ))
            }
        },
    )?;
    Ok(Ret::Val(id))
}

/// shmat(shmid, shmaddr, shmflg) (shmop(2)): the address attached at.
fn shmat(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (id, want, flags) = (a.word(1), a.ptr(2), a.word(3));
    let now = seconds(k);
    let (perm, seg) = k.ipc.shms.find(id, false)?;
    let rdonly = flags & shm::SHM_RDONLY != 0;
    let need = if rdonly { READ } else { READ | WRITE };
    if !perm.allows(&p.ids, need) {
        return Err(Errno::EACCES);
    }
    let size = page_ceil(u64::from(seg.size));
    let addr = match want {
        0 => super::mem::find_free(p, size)?,
        w if flags & shm::SHM_RND != 0 => w - w % shm::SHMLBA,
        w => w,
    };
    if addr % PAGE_SIZE != 0
        || u64::from(addr) + size > USER_TOP
        || (want != 0 && p.mem.any_mapped(u64::from(addr), u64::from(addr) + size))
    {
        return Err(Errno::EINVAL);
    }
    // "[EMFILE] The number of shared memory segments attached to the
    // calling process would exceed the system-imposed limit."
    if p.mem.attachments().len() >= shm::SHMSEG {
        return Err(Errno::EMFILE);
    }
    let perms = if rdonly {
        Perms::R
    } else {
        Perms::R | Perms::W
    };
    p.mem
        .attach(addr, size as u32, perms, seg.object.clone(), &seg.mark)?;
    p.cpu.invalidate_code(addr, size as u32);
    seg.lpid = p.pid;
    seg.atime = now;
    Ok(Ret::Val(addr))
}

/// shmdt(shmaddr) (shmop(2)): "detaches from the calling process's data
/// segment the shared memory segment located at the address specified by
/// shmaddr": every page of the attachment starting there, however
/// mprotect(2) or munmap(2) cut it. EINVAL unless an attachment starts at
/// shmaddr.
fn shmdt(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let addr = a.ptr(1);
    let now = seconds(k);
    let gone = p.mem.detach(addr).ok_or(Errno::EINVAL)?;
    p.cpu.invalidate_code(gone.start, gone.end - gone.start);
    if let Some(seg) = k
        .ipc
        .shms
        .objects_mut()
        .find(|s| std::rc::Rc::ptr_eq(&s.object, &gone.object))
    {
        seg.lpid = p.pid;
        seg.dtime = now;
    }
    Ok(Ret::Val(0))
}

/// shmctl(shmid, cmd, buf) (shmctl(2)): IPC_STAT, IPC_SET, IPC_RMID;
/// SHM_LOCK and SHM_UNLOCK are the superuser's (EPERM).
fn shmctl(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (id, cmd, buf) = (a.word(1), a.word(2), a.ptr(3));
    let now = seconds(k);
    let (perm, seg) = k.ipc.shms.find(id, false)?;
    match cmd {
        IPC_STAT => {
            if !perm.allows(&p.ids, READ) {
                return Err(Errno::EACCES);
            }
            let ds = seg.encode(perm);
            p.mem.write_bytes(buf, &ds)?;
        }
        IPC_SET => {
            if !perm.owned_by(&p.ids) {
                return Err(Errno::EPERM);
            }
            let ds = read_vec(p, buf, SHMID_DS_BYTES)?;
            perm.set_from(&ds)?;
            seg.ctime = now;
        }
        IPC_RMID => {
            if !perm.owned_by(&p.ids) {
                return Err(Errno::EPERM);
            }
            k.ipc.remove_segment(id);
        }
        shm::SHM_LOCK | shm::SHM_UNLOCK if !p.ids.is_superuser() => return Err(Errno::EPERM),
        shm::SHM_LOCK | shm::SHM_UNLOCK => {}
        _ => return Err(Errno::EINVAL),
    }
    Ok(Ret::Val(0))
}
