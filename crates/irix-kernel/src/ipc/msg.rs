//! Message queues (IRIX msgget(2), msgop(2), msgctl(2)).
//!
//! A queue holds typed messages in the order they were sent. msgsnd waits
//! while the queue's bytes would pass `msg_qbytes` or the run holds
//! MSGTQL messages; msgrcv picks the first message of the type asked for
//! (0: any; negative: the lowest type up to its absolute value). The bytes
//! held count against the run's memory budget.

use std::collections::VecDeque;
use std::rc::Rc;

use super::{Perm, PERM_BYTES};
use crate::memory::Budget;
use crate::process::Pid;
use crate::Errno;

/// The largest message text, in bytes (IRIX's msgmax tunable).
pub const MSGMAX: usize = 16384;
/// A new queue's `msg_qbytes`: the most bytes it holds.
pub const MSGMNB: u32 = 16384;
/// The most queues at once.
pub const MSGMNI: usize = 50;
/// The most messages on all queues at once.
pub const MSGTQL: usize = 40;

/// msgrcv's flag: a longer message is truncated instead of E2BIG.
pub const MSG_NOERROR: u32 = 0o10000;

/// Bytes of `struct msqid_ds`.
pub const MSQID_DS_BYTES: usize = 112;

/// Host bytes a message costs besides its text (an estimate).
const MESSAGE_COST: u64 = 32;

/// One message queue and its `msqid_ds` figures.
pub struct Queue {
    messages: VecDeque<(i32, Vec<u8>)>,
    pub qbytes: u32,
    pub lspid: Pid,
    pub lrpid: Pid,
    pub stime: u32,
    pub rtime: u32,
    pub ctime: u32,
    budget: Rc<Budget>,
}

impl Queue {
    pub fn new(now: u32, budget: Rc<Budget>) -> Queue {
        Queue {
            messages: VecDeque::new(),
            qbytes: MSGMNB,
            lspid: 0,
            lrpid: 0,
            stime: 0,
            rtime: 0,
            ctime: now,
            budget,
        }
    }

    /// Bytes of text on the queue (`msg_cbytes`).
    pub fn cbytes(&self) -> usize {
        self.messages.iter().map(|(_, m)| m.len()).sum()
    }

    /// Messages on the queue (`msg_qnum`).
    pub fn qnum(&self) -> usize {
        self.messages.len()
    }

    /// Could a message of `len` bytes go on now, with `total` messages on
    /// all queues?
    pub fn has_room(&self, len: usize, total: usize) -> bool {
        self.cbytes() + len <= self.qbytes as usize && total < MSGTQL
    }

    /// Puts a message on (room checked by the caller). ENOMEM when the
    /// run's memory cannot hold it.
    pub fn send(&mut self, mtype: i32, text: Vec<u8>, pid: Pid, now: u32) -> Result<(), Errno> {
        self.budget.charge(MESSAGE_COST + text.len() as u64)?;
        self.messages.push_back((mtype, text));
        self.lspid = pid;
        self.stime = now;
        Ok(())
    }

    /// Where the message msgrcv's `msgtyp` selects is, if there is one.
    pub fn select(&self, msgtyp: i32) -> Option<usize> {
        match msgtyp {
            0 => (!self.messages.is_empty()).then_some(0),
            t if t > 0 => self.messages.iter().position(|(m, _)| *m == t),
            t => {
                let most = t.unsigned_abs();
                let mut best: Option<(usize, i32)> = None;
                for (i, (m, _)) in self.messages.iter().enumerate() {
                    if m.unsigned_abs() <= most && best.is_none_or(|(_, b)| *m < b) {
                        best = Some((i, *m));
                    }
                }
                best.map(|(i, _)| i)
            }
        }
    }

    /// The length of message `at`.
    pub fn len_of(&self, at: usize) -> usize {
        self.messages[at].1.len()
    }

    /// Takes message `at` off the queue.
    pub fn receive(&mut self, at: usize, pid: Pid, now: u32) -> (i32, Vec<u8>) {
        let (mtype, text) = self.messages.remove(at).expect("a selected message");
        self.budget.release(MESSAGE_COST + text.len() as u64);
        self.lrpid = pid;
        self.rtime = now;
        (mtype, text)
    }

    /// `struct msqid_ds` (SVR4's o32 layout): the permissions, two
    /// kernel pointers (0), msg_cbytes, msg_qnum, msg_qbytes, msg_lspid,
    /// msg_lrpid, then msg_stime, msg_rtime and msg_ctime each followed by
    /// a reserved word, then reserved words.
    pub fn encode(&self, perm: &Perm) -> [u8; MSQID_DS_BYTES] {
        let mut out = [0u8; MSQID_DS_BYTES];
        out[..PERM_BYTES].copy_from_slice(&perm.encode());
        let words = [
            (52, self.cbytes() as u32),
            (56, self.qnum() as u32),
            (60, self.qbytes),
            (64, self.lspid),
            (68, self.lrpid),
            (72, self.stime),
            (80, self.rtime),
            (88, self.ctime),
        ];
        for (at, w) in words {
            out[at..at + 4].copy_from_slice(&w.to_be_bytes());
        }
        out
    }
}

impl Drop for Queue {
    /// IPC_RMID: the messages' memory goes back to the budget.
    fn drop(&mut self) {
        let held: u64 = self
            .messages
            .iter()
            .map(|(_, m)| MESSAGE_COST + m.len() as u64)
            .sum();
        self.budget.release(held);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queue() -> Queue {
        let mut q = Queue::new(0, Budget::unlimited());
        for (t, m) in [(3, "c"), (1, "a"), (2, "b"), (1, "a2")] {
            q.send(t, m.as_bytes().to_vec(), 100, 0).unwrap();
        }
        q
    }

    #[test]
    fn if_msgtyp_is_0_the_first_message_on_the_queue_is_received() {
        assert_eq!(queue().select(0), Some(0));
        assert_eq!(Queue::new(0, Budget::unlimited()).select(0), None);
    }

    #[test]
    fn if_msgtyp_is_greater_than_0_the_first_message_of_type_msgtyp_is_received() {
        let q = queue();
        assert_eq!(q.select(1), Some(1));
        assert_eq!(q.select(4), None);
    }

    #[test]
    fn if_msgtyp_is_negative_the_first_message_of_the_lowest_type_up_to_its_absolute_value_is_received(
    ) {
        let q = queue();
        assert_eq!(q.select(-3), Some(1));
        let mut only_high = Queue::new(0, Budget::unlimited());
        only_high.send(5, vec![], 1, 0).unwrap();
        assert_eq!(only_high.select(-4), None);
    }

    #[test]
    fn a_full_queue_has_no_room_and_messages_are_charged_to_the_budget() {
        let budget = Budget::new(1 << 20);
        let mut q = Queue::new(0, budget.clone());
        assert!(q.has_room(MSGMNB as usize, 0));
        assert!(!q.has_room(MSGMNB as usize + 1, 0));
        assert!(!q.has_room(1, MSGTQL));
        q.send(1, vec![0; 100], 1, 0).unwrap();
        assert_eq!(budget.used(), 132);
        drop(q);
        assert_eq!(budget.used(), 0);
    }
}
