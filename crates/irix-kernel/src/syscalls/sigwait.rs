//! Signal calls beyond the dispositions: waiting for a signal (pause,
//! sigsuspend), the pending set (sigpending), the alternate stack
//! (sigaltstack) and sending to sets of processes (sigsendset, which libc's
//! sigsend(2) calls with an intersection against P_ALL).

use super::{Args, Ret, SysResult};
use crate::abi::flags::procset::*;
use crate::abi::flags::wait::{P_ALL, P_PGID, P_PID};
use crate::kernel::{Kernel, INIT_PID};
use crate::process::{Process, RunState};
use crate::signals::{self, AltStack, NSIG, SIGKILL, SIGSTOP};
use crate::timers::{OnSignal, Wait};
use crate::Errno;

/// Reads a `sigset_t` (four words; signals 1..64 in the first two).
fn read_sigset(p: &Process, addr: u32) -> Result<u64, Errno> {
    let mut b = [0u8; 16];
    p.mem.read_bytes(addr, &mut b)?;
    let word = |i: usize| u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]) as u64;
    Ok(word(0) | word(4) << 32)
}

fn write_sigset(p: &mut Process, addr: u32, set: u64) -> Result<(), Errno> {
    let mut b = [0u8; 16];
    b[0..4].copy_from_slice(&(set as u32).to_be_bytes());
    b[4..8].copy_from_slice(&((set >> 32) as u32).to_be_bytes());
    p.mem.write_bytes(addr, &b)
}

/// pause(): "suspends the calling process until it receives a signal"
/// that is not ignored; a caught one makes it return -1 EINTR after the
/// handler, one whose action terminates the process ends it there.
pub fn pause(_k: &mut Kernel, p: &mut Process, _a: &Args) -> SysResult {
    p.wait.get_or_insert(Wait {
        on_signal: OnSignal::Eintr,
        ..Default::default()
    });
    Ok(Ret::Block)
}

/// sigsuspend(maskptr): "replaces the process's set of masked signals with
/// the set pointed to by maskptr and then waits for a signal"; the handler
/// of the signal that ends the wait returns to the original mask, and the
/// call "always terminates by being interrupted, returning -1 with errno
/// set to EINTR". EFAULT for a bad maskptr. SIGKILL and SIGSTOP stay
/// unblockable.
pub fn sigsuspend(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    if p.wait.is_none() {
        let mask = read_sigset(p, a.ptr(0))?;
        let unblockable = signals::bit(SIGKILL) | signals::bit(SIGSTOP);
        p.signals.suspend_mask = Some(p.signals.blocked);
        p.signals.blocked = mask & !unblockable;
        p.wait = Some(Wait {
            on_signal: OnSignal::Eintr,
            ..Default::default()
        });
    }
    Ok(Ret::Block)
}

/// sigpending(maskptr): stores the signals that are pending and blocked
/// from delivery. EFAULT for a bad maskptr.
pub fn sigpending(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let set = p.signals.pending & p.signals.blocked;
    write_sigset(p, a.ptr(0), set)?;
    Ok(Ret::Val(0))
}

/// IRIX `stack_t`: { char *ss_sp; int ss_size; int ss_flags; } (the
/// page's member list, 12 bytes on o32).
const STACK_T_SIZE: usize = 12;
/// ss_flags (sigaltstack(2)).
const SS_ONSTACK: u32 = 1;
const SS_DISABLE: u32 = 2;
/// "The size of the alternate stack area is less than MINSIGSTKSZ": the
/// value IRIX's <sys/signal.h> gives it.
const MINSIGSTKSZ: u32 = 512;

/// sigaltstack(ss, oss), as system call 172 and as syssgi(SGI_SIGALTSTACK,
/// ss, oss), which IRIX 5.3's libc uses. ss_sp names the stack's highest
/// byte (see `AltStack`). EPERM to change the stack while running on it,
/// EINVAL for flags other than SS_DISABLE, ENOMEM for a stack smaller than
/// MINSIGSTKSZ, EFAULT for a bad ss or oss.
pub fn sigaltstack(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (ss, oss) = (a.ptr(0), a.ptr(1));
    let old = p.signals.altstack;
    let on_it = old.is_some_and(|alt| alt.contains(p.reg(cpu_mips::Reg::SP)));
    if ss != 0 {
        let mut b = [0u8; STACK_T_SIZE];
        p.mem.read_bytes(ss, &mut b)?;
        let word = |i: usize| u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let (sp, size, flags) = (word(0), word(4), word(8));
        if flags & !SS_DISABLE != 0 {
            return Err(Errno::EINVAL);
        }
        if on_it {
            return Err(Errno::EPERM);
        }
        if flags & SS_DISABLE == 0 && size < MINSIGSTKSZ {
            return Err(Errno::ENOMEM);
        }
        // Checked before anything changes: the old stack is reported as
        // it was, and a bad oss leaves the new stack unset.
        if oss != 0 {
            p.mem.check_writable(oss, STACK_T_SIZE as u32)?;
        }
        p.signals.altstack = (flags & SS_DISABLE == 0).then_some(AltStack { sp, size });
    }
    if oss != 0 {
        let (sp, size, flags) = match old {
            Some(alt) => (alt.sp, alt.size, if on_it { SS_ONSTACK } else { 0 }),
            None => (0, 0, SS_DISABLE),
        };
        let mut b = [0u8; STACK_T_SIZE];
        b[0..4].copy_from_slice(&sp.to_be_bytes());
        b[4..8].copy_from_slice(&size.to_be_bytes());
        b[8..12].copy_from_slice(&flags.to_be_bytes());
        p.mem.write_bytes(oss, &b)?;
    }
    Ok(Ret::Val(0))
}

/// The 4.3BSD `struct sigstack` { caddr_t ss_sp; int ss_onstack; }: 8
/// bytes on o32 (sigstack(2)).
const SIGSTACK_SIZE: usize = 8;
/// The size irix-emu gives a stack set by sigstack(2), which names only its
/// top: SIGSTKSZ of IRIX's <sys/signal.h> (docs/abi.md), the size the
/// headers recommend for a signal stack. The page gives none.
const SIGSTACK_BYTES: u32 = 8192;

/// sigstack(ss, oss), as system call 171 and as syssgi(SGI_SIGSTACK, ss,
/// oss), which IRIX 5.3's libc uses. sigstack(2): "If ss is non-zero, it
/// specifies a signal stack on which to deliver signals"; "If oss is
/// non-zero, the current signal stack state is returned". ss_sp is the
/// stack's top (the first address past it: stacks grow down and "are not
/// grown automatically"); the stack is the [`SIGSTACK_BYTES`] below it,
/// the same alternate stack sigaltstack(2) sets and reports. A handler
/// runs there when its action asks for the signal stack (SA_ONSTACK, what
/// sigvec's SV_ONSTACK is) and the process is not already on it; whether
/// it is, irix-emu tells from the stack pointer, so a given ss_onstack is
/// not needed and not kept, and oss's ss_onstack says whether the process
/// runs on the stack now. An ss_sp of 0 removes the stack.
/// "Sigstack will fail and the signal stack context will remain unchanged
/// if ... [EFAULT] Either ss or oss points to memory that is not a valid
/// part of the process address space."
pub fn sigstack(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (ss, oss) = (a.ptr(0), a.ptr(1));
    let old = p.signals.altstack;
    let new = if ss != 0 {
        let mut b = [0u8; SIGSTACK_SIZE];
        p.mem.read_bytes(ss, &mut b)?;
        let top = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
        Some((top != 0).then(|| AltStack {
            sp: top.wrapping_sub(1),
            size: SIGSTACK_BYTES,
        }))
    } else {
        None
    };
    if oss != 0 {
        let (top, onstack) = match old {
            Some(alt) => (alt.top(), u32::from(alt.contains(p.reg(cpu_mips::Reg::SP)))),
            None => (0, 0),
        };
        let mut b = [0u8; SIGSTACK_SIZE];
        b[0..4].copy_from_slice(&top.to_be_bytes());
        b[4..8].copy_from_slice(&onstack.to_be_bytes());
        p.mem.check_writable(oss, SIGSTACK_SIZE as u32)?;
        p.mem.write_bytes(oss, &b)?;
    }
    if let Some(new) = new {
        p.signals.altstack = new;
    }
    Ok(Ret::Val(0))
}

/// What a process is, for matching an id type of sigsend(2).
struct Member {
    pid: u32,
    ppid: u32,
    pgid: u32,
    sid: u32,
    /// Effective user and group id.
    uid: u32,
    gid: u32,
}

impl Member {
    fn of(p: &Process) -> Self {
        Member {
            pid: p.pid,
            ppid: p.ppid,
            pgid: p.ids.pgid,
            sid: p.ids.sid,
            uid: p.ids.euid,
            gid: p.ids.egid,
        }
    }
}

/// Is `m` in the set (idtype, id)? Every process is in the one scheduling
/// class (P_CID). EINVAL for an unknown id type.
fn in_set(m: &Member, idtype: u32, id: u32) -> Result<bool, Errno> {
    Ok(match idtype {
        P_PID => m.pid == id,
        P_PPID => m.ppid == id,
        P_PGID => m.pgid == id,
        P_SID => m.sid == id,
        P_CID => id == GUEST_CID,
        P_UID => m.uid == id,
        P_GID => m.gid == id,
        P_ALL => true,
        _ => return Err(Errno::EINVAL),
    })
}

/// sigsendset(psp, sig): sends `sig` to the processes of the procset at
/// psp: { p_op, p_lidtype, p_lid, p_ridtype, p_rid }, five words. P_MYID
/// names the caller's own id; "The process with a process ID of 0 is
/// always excluded. The process with a process ID of 1 is excluded unless
/// idtype is equal to P_PID". sig 0 only checks. EINVAL for a bad signal,
/// id type or operation, EPERM for SIGKILL to P_PID 1, ESRCH when no
/// process matches, EFAULT for a bad psp.
pub fn sigsendset(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let sig = a.word(1);
    let mut b = [0u8; 20];
    p.mem.read_bytes(a.ptr(0), &mut b)?;
    let word = |i: usize| u32::from_be_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]);
    let (op, lidtype, lid, ridtype, rid) = (word(0), word(1), word(2), word(3), word(4));
    if sig >= NSIG {
        return Err(Errno::EINVAL);
    }
    let own = |idtype: u32, id: u32| -> u32 {
        if id != P_MYID {
            return id;
        }
        match idtype {
            P_PID => p.pid,
            P_PPID => p.ppid,
            P_PGID => p.ids.pgid,
            P_SID => p.ids.sid,
            P_CID => GUEST_CID,
            P_GID => p.ids.egid,
            _ => p.ids.euid,
        }
    };
    let (lid, rid) = (own(lidtype, lid), own(ridtype, rid));
    if !matches!(op, POP_DIFF | POP_AND | POP_OR | POP_XOR) {
        return Err(Errno::EINVAL);
    }
    let explicit_pid = |idtype, id| idtype == P_PID && id == INIT_PID;
    if sig == SIGKILL && (explicit_pid(lidtype, lid) || explicit_pid(ridtype, rid)) {
        return Err(Errno::EPERM);
    }
    let mut members: Vec<Member> = k.procs.values().map(Member::of).collect();
    members.push(Member::of(p));
    let mut targets = Vec::new();
    for m in &members {
        let (l, r) = (in_set(m, lidtype, lid)?, in_set(m, ridtype, rid)?);
        let chosen = match op {
            POP_DIFF => l && !r,
            POP_AND => l && r,
            POP_OR => l || r,
            _ => l != r,
        };
        if chosen && m.pid != 0 {
            targets.push(m.pid);
        }
    }
    if targets.is_empty() {
        return Err(Errno::ESRCH);
    }
    if sig != 0 {
        for t in targets {
            let target = if t == p.pid {
                Some(&mut *p)
            } else {
                k.process_mut(t)
            };
            if let Some(target) = target {
                target.signals.pending |= signals::bit(sig);
                if target.state == RunState::Blocked && sig == SIGKILL {
                    target.state = RunState::Runnable;
                }
            }
        }
    }
    Ok(Ret::Val(0))
}

/// The scheduling class every process is in (priocntl's time-sharing
/// class; irix-emu has no other).
const GUEST_CID: u32 = 1;
