//! IRIX's software semaphore device, /dev/usemaclone (IRIX usema(7M)):
//! "The usemaclone device allocates a new semaphore device, and returns a
//! file handle to it. [...] The driver provides atomic blocking and
//! unblocking services."
//!
//! IRIX libc's semaphores (usnewsema(3P), uspsema(3P), usvsema(3P)) keep
//! their count in the shared arena and change it in user mode; the device
//! is used only when a process must sleep or wake a sleeper. As IRIX 5.3's
//! libc uses it (seen with --strace, docs/usema.md): uspsema that takes the
//! count below zero asks the device to block the caller (UIOCBLOCK);
//! usvsema that finds a sleeper asks it to unblock that process, naming
//! its pid (UIOCUNBLOCK). The two can arrive in either order (the V may
//! reach the kernel before the P that it answers), so an unblock of a
//! process not blocked yet is kept and lets its next block pass at once.
//!
//! Blocking uses the kernel's retry: a blocked request returns
//! `Ret::Block` and runs again when the process is next scheduled, so the
//! device remembers, per semaphore, who sleeps and who has been released;
//! a released process's retry returns 0. A run whose processes all sleep
//! on semaphores ends as a deadlock, as any other.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::{Rc, Weak};

use crate::process::Pid;

/// `'u' << 16 | 's' << 8`: the usema requests' common part.
const UIOC: u32 = (b'u' as u32) << 16 | (b's' as u32) << 8;
/// Attach (on /dev/usema): `arg` points at a `usattach_t` (o32: `us_dev`,
/// the semaphore's device number as fstat gives it, then `us_handle`);
/// the result is a new descriptor for that semaphore.
pub const UIOCATTACHSEMA: u32 = UIOC | 2;
/// Block the caller until an unblock, interruptible by signals.
pub const UIOCBLOCK: u32 = UIOC | 3;
/// Block asynchronously (a pollable semaphore's P): the caller goes on at
/// once, queued for the semaphore, and acquires it by polling the
/// descriptor for POLLIN (usnewpollsema(3P)).
pub const UIOCABLOCK: u32 = UIOC | 4;
/// Block the caller, not interruptible.
pub const UIOCNOIBLOCK: u32 = UIOC | 5;
/// Release the blocked process whose pid is the argument (or let its
/// next block pass).
pub const UIOCUNBLOCK: u32 = UIOC | 6;
/// Release the process queued by UIOCABLOCK whose pid is the argument: its
/// descriptor polls readable (or its next asynchronous block is granted at
/// once).
pub const UIOCAUNBLOCK: u32 = UIOC | 7;

/// The major device number irix-emu gives its semaphore devices (IRIX's
/// own is not known to matter: libc only hands the number back in an
/// attach). An IRIX o32 dev_t is the major number above 18 bits of minor.
pub const USEMA_MAJOR: u32 = 1;

/// One semaphore device (what an open of /dev/usemaclone makes; dup,
/// fork and sproc share it through the descriptor).
#[derive(Default)]
pub struct Usema {
    /// Its minor device number: which semaphore an attach names.
    pub minor: u32,
    state: RefCell<Sleepers>,
}

/// The semaphore devices of a run, by minor number (weakly: a device lives
/// while a descriptor holds it).
#[derive(Default)]
pub struct Usemas {
    last: u32,
    by_minor: BTreeMap<u32, Weak<Usema>>,
}

impl Usemas {
    /// A new device (an open of /dev/usemaclone).
    pub fn clone_device(&mut self) -> Rc<Usema> {
        self.by_minor.retain(|_, w| w.strong_count() > 0);
        self.last += 1;
        let sema = Rc::new(Usema {
            minor: self.last,
            ..Usema::default()
        });
        self.by_minor.insert(self.last, Rc::downgrade(&sema));
        sema
    }

    /// The live device whose dev_t is `dev`.
    pub fn find(&self, dev: u32) -> Option<Rc<Usema>> {
        if dev >> 18 != USEMA_MAJOR {
            return None;
        }
        self.by_minor.get(&(dev & 0x3ffff))?.upgrade()
    }

    /// Process `pid` has ended: no semaphore keeps it sleeping, released,
    /// queued or granted, nor keeps unblocks for it (a later process with
    /// the same pid starts afresh).
    pub fn exited(&mut self, pid: Pid) {
        self.by_minor.retain(|_, w| w.strong_count() > 0);
        for sema in self.by_minor.values().filter_map(Weak::upgrade) {
            sema.forget(pid);
        }
    }
}

#[derive(Default)]
struct Sleepers {
    /// Processes blocked.
    waiting: BTreeSet<Pid>,
    /// Processes released whose block has not returned yet.
    released: BTreeSet<Pid>,
    /// Unblocks of a process that was not blocked yet: its next blocks
    /// pass at once.
    preposted: BTreeMap<Pid, u32>,
    /// Processes queued by an asynchronous block.
    queued: BTreeSet<Pid>,
    /// Processes an asynchronous unblock released: their descriptor polls
    /// readable until their next asynchronous block.
    granted: BTreeSet<Pid>,
}

impl Sleepers {
    /// One more unblock of `pid` kept for its next block (the count stops
    /// at its largest value rather than wrapping).
    fn prepost(&mut self, pid: Pid) {
        let n = self.preposted.entry(pid).or_default();
        *n = n.saturating_add(1);
    }
}

/// What a block request does now.
#[derive(Debug, PartialEq, Eq)]
pub enum Block {
    /// The caller goes on (it was released, or an unblock came first).
    Pass,
    /// The caller sleeps; the request is retried.
    Sleep,
}

impl Usema {
    /// Its device number (st_rdev).
    pub fn dev(&self) -> u32 {
        USEMA_MAJOR << 18 | self.minor
    }

    /// `pid` asks to block (first time or a retry).
    pub fn block(&self, pid: Pid) -> Block {
        let mut s = self.state.borrow_mut();
        if s.released.remove(&pid) {
            return Block::Pass;
        }
        if s.waiting.contains(&pid) {
            return Block::Sleep;
        }
        if let Some(n) = s.preposted.get_mut(&pid) {
            *n -= 1;
            if *n == 0 {
                s.preposted.remove(&pid);
            }
            return Block::Pass;
        }
        s.waiting.insert(pid);
        Block::Sleep
    }

    /// Releases `pid` if it is blocked, or lets its next block pass. The
    /// caller has checked that `pid` is a process of the run.
    pub fn unblock(&self, pid: Pid) {
        let mut s = self.state.borrow_mut();
        if s.waiting.remove(&pid) {
            s.released.insert(pid);
        } else {
            s.prepost(pid);
        }
    }

    /// Drops everything kept for `pid` (it has ended).
    fn forget(&self, pid: Pid) {
        let mut s = self.state.borrow_mut();
        s.waiting.remove(&pid);
        s.released.remove(&pid);
        s.preposted.remove(&pid);
        s.queued.remove(&pid);
        s.granted.remove(&pid);
    }

    /// `pid` blocks asynchronously (UIOCABLOCK): it is queued, or granted
    /// at once by an unblock that came first. Its earlier grant, which its
    /// poll has reported, is used up.
    pub fn block_async(&self, pid: Pid) {
        let mut s = self.state.borrow_mut();
        s.granted.remove(&pid);
        if let Some(n) = s.preposted.get_mut(&pid) {
            *n -= 1;
            if *n == 0 {
                s.preposted.remove(&pid);
            }
            s.granted.insert(pid);
        } else {
            s.queued.insert(pid);
        }
    }

    /// Grants the semaphore to `pid` if it is queued (UIOCAUNBLOCK), or
    /// lets its next block pass. The caller has checked that `pid` is a
    /// process of the run.
    pub fn unblock_async(&self, pid: Pid) {
        let mut s = self.state.borrow_mut();
        if s.queued.remove(&pid) {
            s.granted.insert(pid);
        } else {
            s.prepost(pid);
        }
    }

    /// Whether `pid` polls this descriptor readable: an asynchronous
    /// unblock granted it the semaphore (usnewpollsema(3P): "The POLLIN
    /// event should be used with poll(2)").
    pub fn granted(&self, pid: Pid) -> bool {
        self.state.borrow().granted.contains(&pid)
    }

    /// Processes blocked now.
    pub fn sleepers(&self) -> usize {
        self.state.borrow().waiting.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_sleeps_until_an_unblock_names_the_sleeper() {
        let u = Usema::default();
        assert_eq!(u.block(100), Block::Sleep);
        assert_eq!(u.block(101), Block::Sleep);
        assert_eq!(u.block(100), Block::Sleep, "a retry keeps sleeping");
        u.unblock(101);
        assert_eq!(u.block(100), Block::Sleep, "101 was named");
        assert_eq!(u.block(101), Block::Pass);
        assert_eq!(u.sleepers(), 1);
    }

    #[test]
    fn an_unblock_before_the_block_lets_it_pass_once() {
        let u = Usema::default();
        u.unblock(100);
        assert_eq!(u.block(101), Block::Sleep, "not 101's unblock");
        assert_eq!(u.block(100), Block::Pass);
        assert_eq!(u.block(100), Block::Sleep, "one unblock, one pass");
    }

    #[test]
    fn an_asynchronous_block_is_granted_by_an_asynchronous_unblock_and_used_up_by_the_next() {
        let u = Usema::default();
        u.block_async(100);
        assert!(!u.granted(100));
        u.unblock_async(101);
        assert!(!u.granted(100), "101 was named");
        u.unblock_async(100);
        assert!(u.granted(100));
        assert!(u.granted(100), "polling does not use the grant up");
        u.block_async(100);
        assert!(!u.granted(100), "the next P queues again");
        assert_eq!(u.sleepers(), 0, "nobody sleeps");
    }

    #[test]
    fn an_asynchronous_unblock_before_the_block_grants_it_at_once() {
        let u = Usema::default();
        u.unblock_async(100);
        u.block_async(100);
        assert!(u.granted(100));
    }

    #[test]
    fn unblocks_kept_for_a_process_stop_counting_at_the_largest_count() {
        let u = Usema::default();
        u.state.borrow_mut().preposted.insert(100, u32::MAX);
        u.unblock(100);
        u.unblock_async(100);
        assert_eq!(u.state.borrow().preposted[&100], u32::MAX);
        assert_eq!(u.block(100), Block::Pass);
    }

    #[test]
    fn an_exited_process_leaves_nothing_kept_on_any_semaphore() {
        let mut all = Usemas::default();
        let a = all.clone_device();
        let b = all.clone_device();
        assert_eq!(a.block(100), Block::Sleep);
        a.unblock(101);
        b.block_async(100);
        b.unblock_async(101);
        b.unblock_async(102);
        b.block_async(102);
        assert!(b.granted(102));
        for pid in [100, 101, 102] {
            all.exited(pid);
        }
        for sema in [&a, &b] {
            let s = sema.state.borrow();
            assert!(s.waiting.is_empty() && s.released.is_empty());
            assert!(s.preposted.is_empty() && s.queued.is_empty() && s.granted.is_empty());
        }
        assert_eq!(a.block(101), Block::Sleep, "a new 101 starts afresh");
    }

    #[test]
    fn an_attach_finds_a_device_by_its_number_while_it_is_open() {
        let mut all = Usemas::default();
        let a = all.clone_device();
        let b = all.clone_device();
        assert_ne!(a.dev(), b.dev());
        assert!(Rc::ptr_eq(&all.find(b.dev()).unwrap(), &b));
        let dev = a.dev();
        drop(a);
        assert!(all.find(dev).is_none());
        assert!(all.find(0).is_none());
    }
}
