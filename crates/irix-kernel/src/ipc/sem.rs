//! Semaphore sets (IRIX semget(2), semop(2), semctl(2)).
//!
//! semop applies its whole array of operations or none of them: the array
//! is tried on a copy of the values, and when one operation would have to
//! wait the copy is dropped and the caller waits (or gets EAGAIN with
//! IPC_NOWAIT). SEM_UNDO operations record the opposite change in the
//! caller's adjustment for that semaphore (semadj), which exit(2) applies;
//! SETVAL and SETALL clear the adjustments of the semaphores they set, in
//! every process. fork(2)'s child starts with none (they are per
//! process); exec keeps them.

use std::collections::BTreeMap;

use super::{Perm, PERM_BYTES};
use crate::process::Pid;
use crate::Errno;

/// The most sets at once (IRIX's semmni tunable).
pub const SEMMNI: usize = 10;
/// The most semaphores in a set.
pub const SEMMSL: usize = 25;
/// The most semaphores in all sets together.
pub const SEMMNS: usize = 60;
/// The most operations in one semop call.
pub const SEMOPM: usize = 10;
/// The most semaphores one process holds adjustments for.
pub const SEMUME: usize = 10;
/// The largest semaphore value.
pub const SEMVMX: i32 = 32767;
/// The largest adjustment, either way.
pub const SEMAEM: i32 = 16384;

/// sem_flg's undo flag.
pub const SEM_UNDO: u16 = 0o10000;
/// sem_flg's IPC_NOWAIT (the same bit as the get calls' flag).
pub const SEM_NOWAIT: u16 = super::IPC_NOWAIT as u16;

/// semctl's commands (SVR4 numbering) besides IPC_RMID/SET/STAT.
pub const GETNCNT: u32 = 3;
pub const GETPID: u32 = 4;
pub const GETVAL: u32 = 5;
pub const GETALL: u32 = 6;
pub const GETZCNT: u32 = 7;
pub const SETVAL: u32 = 8;
pub const SETALL: u32 = 9;

/// Bytes of `struct semid_ds`; of `struct sembuf`.
pub const SEMID_DS_BYTES: usize = 84;
pub const SEMBUF_BYTES: usize = 6;

/// One semaphore: its value and the last process to operate on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sem {
    pub val: i32,
    pub pid: Pid,
}

/// One `struct sembuf`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Op {
    pub num: u16,
    pub op: i16,
    pub flg: u16,
}

impl Op {
    pub fn decode(b: &[u8]) -> Op {
        Op {
            num: u16::from_be_bytes([b[0], b[1]]),
            op: i16::from_be_bytes([b[2], b[3]]),
            flg: u16::from_be_bytes([b[4], b[5]]),
        }
    }
}

/// What a semop does now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every operation was applied.
    Done,
    /// Semaphore `num` is not yet what operation needs: the caller waits
    /// for its value to grow (`zero` false, semncnt) or to reach zero
    /// (`zero` true, semzcnt).
    Wait { num: u16, zero: bool },
}

/// One semaphore set and its `semid_ds` figures.
pub struct Set {
    pub sems: Vec<Sem>,
    pub otime: u32,
    pub ctime: u32,
    /// Each process's adjustments, by semaphore number.
    undo: BTreeMap<Pid, BTreeMap<u16, i32>>,
    /// The processes waiting in semop on this set, with what they wait for.
    pub waiting: BTreeMap<Pid, (u16, bool)>,
}

impl Set {
    pub fn new(nsems: usize, now: u32) -> Set {
        Set {
            sems: vec![Sem::default(); nsems],
            otime: 0,
            ctime: now,
            undo: BTreeMap::new(),
            waiting: BTreeMap::new(),
        }
    }

    /// semop's array for process `pid` (see the module's documentation).
    /// EFBIG for a semaphore number past the set, ERANGE past SEMVMX or
    /// SEMAEM, EAGAIN when it would wait with IPC_NOWAIT, EINVAL past
    /// SEMUME adjusted semaphores. The caller counts in semncnt or
    /// semzcnt while, and only while, the outcome is to wait: a retry that
    /// fails or completes counts no more.
    pub fn semop(&mut self, ops: &[Op], pid: Pid, now: u32) -> Result<Outcome, Errno> {
        let outcome = self.attempt(ops, pid, now);
        match outcome {
            Ok(Outcome::Wait { num, zero }) => {
                self.waiting.insert(pid, (num, zero));
            }
            _ => {
                self.waiting.remove(&pid);
            }
        }
        outcome
    }

    fn attempt(&mut self, ops: &[Op], pid: Pid, now: u32) -> Result<Outcome, Errno> {
        if ops.iter().any(|o| o.num as usize >= self.sems.len()) {
            return Err(Errno::EFBIG);
        }
        let mut vals: Vec<i32> = self.sems.iter().map(|s| s.val).collect();
        let mut adj = self.undo.get(&pid).cloned().unwrap_or_default();
        for o in ops {
            let v = &mut vals[o.num as usize];
            let op = i32::from(o.op);
            let wait = match op {
                0 if *v != 0 => Some(true),
                op if op < 0 && *v < -op => Some(false),
                _ => None,
            };
            if let Some(zero) = wait {
                if o.flg & SEM_NOWAIT != 0 {
                    return Err(Errno::EAGAIN);
                }
                return Ok(Outcome::Wait { num: o.num, zero });
            }
            if *v + op > SEMVMX {
                return Err(Errno::ERANGE);
            }
            *v += op;
            if o.flg & SEM_UNDO != 0 && op != 0 {
                let a = adj.entry(o.num).or_default();
                *a -= op;
                if a.abs() > SEMAEM {
                    return Err(Errno::ERANGE);
                }
                if adj.len() > SEMUME {
                    return Err(Errno::EINVAL);
                }
            }
        }
        for (s, (o, v)) in self.sems.iter_mut().zip(
            vals.into_iter()
                .enumerate()
                .map(|(i, v)| (ops.iter().any(|o| o.num as usize == i), v)),
        ) {
            s.val = v;
            if o {
                s.pid = pid;
            }
        }
        adj.retain(|_, a| *a != 0);
        if adj.is_empty() {
            self.undo.remove(&pid);
        } else {
            self.undo.insert(pid, adj);
        }
        self.otime = now;
        Ok(Outcome::Done)
    }

    /// A waiter gave up (a signal ended its wait, or it is gone).
    pub fn stop_waiting(&mut self, pid: Pid) {
        self.waiting.remove(&pid);
    }

    /// semncnt (`zero` false) or semzcnt of semaphore `num`.
    pub fn waiters(&self, num: u16, zero: bool) -> u32 {
        self.waiting.values().filter(|&&w| w == (num, zero)).count() as u32
    }

    /// SETVAL / SETALL: the value of `num`, and no process's adjustment
    /// for it any more. ERANGE past SEMVMX.
    pub fn set_value(&mut self, num: usize, val: i32, now: u32) -> Result<(), Errno> {
        if !(0..=SEMVMX).contains(&val) {
            return Err(Errno::ERANGE);
        }
        self.sems[num].val = val;
        for adj in self.undo.values_mut() {
            adj.remove(&(num as u16));
        }
        self.undo.retain(|_, a| !a.is_empty());
        self.ctime = now;
        Ok(())
    }

    /// exit(2): `pid`'s adjustments are added to the values (kept within
    /// 0 and SEMVMX), and it waits no more.
    pub fn exited(&mut self, pid: Pid) {
        self.waiting.remove(&pid);
        if let Some(adj) = self.undo.remove(&pid) {
            for (num, a) in adj {
                let s = &mut self.sems[num as usize];
                s.val = (s.val + a).clamp(0, SEMVMX);
            }
        }
    }

    /// `pid`'s adjustment of semaphore `num` (tests).
    pub fn adjustment(&self, pid: Pid, num: u16) -> i32 {
        self.undo
            .get(&pid)
            .and_then(|a| a.get(&num))
            .copied()
            .unwrap_or(0)
    }

    /// `struct semid_ds` (SVR4's o32 layout): the permissions, a kernel
    /// pointer (0), sem_nsems (a short), sem_otime and sem_ctime each
    /// followed by a reserved word, then reserved words.
    pub fn encode(&self, perm: &Perm) -> [u8; SEMID_DS_BYTES] {
        let mut out = [0u8; SEMID_DS_BYTES];
        out[..PERM_BYTES].copy_from_slice(&perm.encode());
        out[48..50].copy_from_slice(&(self.sems.len() as u16).to_be_bytes());
        out[52..56].copy_from_slice(&self.otime.to_be_bytes());
        out[60..64].copy_from_slice(&self.ctime.to_be_bytes());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(num: u16, op: i16, flg: u16) -> Op {
        Op { num, op, flg }
    }

    #[test]
    fn semop_is_performed_atomically_on_the_whole_array() {
        let mut s = Set::new(2, 0);
        s.sems[0].val = 1;
        let r = s.semop(&[op(0, -1, 0), op(1, -1, 0)], 100, 0).unwrap();
        assert_eq!(
            r,
            Outcome::Wait {
                num: 1,
                zero: false
            }
        );
        assert_eq!(s.sems[0].val, 1, "nothing applied");
        assert_eq!(s.waiters(1, false), 1, "semncnt counts the waiter");
        s.sems[1].val = 1;
        assert_eq!(
            s.semop(&[op(0, -1, 0), op(1, -1, 0)], 100, 5),
            Ok(Outcome::Done)
        );
        assert_eq!((s.sems[0].val, s.sems[1].val, s.sems[1].pid), (0, 0, 100));
        assert_eq!(s.waiters(1, false), 0);
    }

    #[test]
    fn if_semval_is_not_zero_and_ipc_nowait_is_set_semop_returns_immediately() {
        let mut s = Set::new(1, 0);
        s.sems[0].val = 2;
        assert_eq!(s.semop(&[op(0, 0, SEM_NOWAIT)], 1, 0), Err(Errno::EAGAIN));
        assert_eq!(
            s.semop(&[op(0, 0, 0)], 1, 0),
            Ok(Outcome::Wait { num: 0, zero: true })
        );
        assert_eq!(s.waiters(0, true), 1, "semzcnt");
    }

    #[test]
    fn sem_num_past_the_set_is_efbig_and_overflow_is_erange() {
        let mut s = Set::new(1, 0);
        assert_eq!(s.semop(&[op(1, 1, 0)], 1, 0), Err(Errno::EFBIG));
        s.sems[0].val = SEMVMX;
        assert_eq!(s.semop(&[op(0, 1, 0)], 1, 0), Err(Errno::ERANGE));
    }

    #[test]
    fn sem_undo_adjustments_are_applied_at_exit_and_cleared_by_setval() {
        let mut s = Set::new(2, 0);
        s.semop(&[op(0, 3, SEM_UNDO), op(1, 2, SEM_UNDO)], 7, 0)
            .unwrap();
        assert_eq!(s.adjustment(7, 0), -3);
        s.set_value(1, 5, 0).unwrap();
        assert_eq!(s.adjustment(7, 1), 0);
        s.exited(7);
        assert_eq!((s.sems[0].val, s.sems[1].val), (0, 5));
    }

    #[test]
    fn a_waiter_whose_retry_fails_no_longer_counts_in_semncnt() {
        let mut s = Set::new(1, 0);
        assert_eq!(
            s.semop(&[op(0, -1, 0)], 7, 0),
            Ok(Outcome::Wait {
                num: 0,
                zero: false
            })
        );
        assert_eq!(s.waiters(0, false), 1);
        s.set_value(0, SEMVMX, 0).unwrap();
        // The retry: one down, then past SEMVMX (ERANGE).
        assert_eq!(
            s.semop(&[op(0, -1, 0), op(0, 2, 0)], 7, 0),
            Err(Errno::ERANGE)
        );
        assert_eq!(s.waiters(0, false), 0);
        assert_eq!(
            s.semop(&[op(0, 0, 0)], 8, 0),
            Ok(Outcome::Wait { num: 0, zero: true })
        );
        assert_eq!(s.semop(&[op(0, 0, SEM_NOWAIT)], 8, 0), Err(Errno::EAGAIN));
        assert_eq!(s.waiters(0, true), 0, "IPC_NOWAIT ends the count too");
    }
}
