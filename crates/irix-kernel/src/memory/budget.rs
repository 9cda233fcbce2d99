//! The memory budget of a whole run: one counter of host bytes that every
//! address space (pages, page tables, regions) and the kernel (processes,
//! zombies, pipe buffers) charge, against one limit (`--max-memory`).
//!
//! It also collects the *work* the memory system did (pages zeroed, copied
//! or read from a file, bytes copied by system calls), in cycles, for the
//! kernel to charge as the system time of the process that caused it: so
//! that virtual time, and `--max-cycles`, bound host work too.

use std::cell::{Cell, OnceCell};
use std::rc::Rc;

use super::frames::{Frame, FramePool};
use crate::Errno;

/// Bytes of one page of guest memory.
pub(crate) const PAGE_BYTES: usize = crate::abi::limits::PAGE_SIZE as usize;

/// The bytes of one page of guest memory.
pub(crate) type PageData = [u8; PAGE_BYTES];

/// The run's memory limit and what has been charged against it.
pub struct Budget {
    limit: u64,
    used: Cell<u64>,
    peak: Cell<u64>,
    /// Cycles of memory work not yet charged to a process.
    work: Cell<u64>,
    /// Set when an allocation a user-mode access needed was refused.
    exhausted: Cell<bool>,
    /// Counts the changes that may move, free, share or restrict a page
    /// of any address space on this budget (see [`Budget::epoch`]).
    epoch: Cell<u64>,
    /// The frames the private pages of every space on this budget live
    /// in, made with the first (so a placeholder budget costs nothing).
    frames: OnceCell<Rc<FramePool>>,
    /// The one page of zeroes every untouched anonymous page reads as
    /// (copied on the first write, like any shared page), made with the
    /// first page that reads as it.
    zero: OnceCell<Rc<Frame>>,
}

impl Budget {
    /// A budget of `limit` bytes, shared by everything in a run.
    pub fn new(limit: u64) -> Rc<Budget> {
        Rc::new(Budget {
            limit,
            used: Cell::new(0),
            peak: Cell::new(0),
            work: Cell::new(0),
            exhausted: Cell::new(false),
            epoch: Cell::new(0),
            frames: OnceCell::new(),
            zero: OnceCell::new(),
        })
    }

    /// A budget whose frames are all anonymous memory, with no file (the
    /// path of hosts without `memfd_create`).
    #[cfg(test)]
    pub(crate) fn with_anonymous_frames(limit: u64) -> Rc<Budget> {
        let budget = Budget::new(limit);
        let _ = budget.frames.set(FramePool::anonymous());
        budget
    }

    /// No limit (unit tests, placeholders holding nothing).
    pub fn unlimited() -> Rc<Budget> {
        Budget::new(u64::MAX)
    }

    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Bytes charged now.
    pub fn used(&self) -> u64 {
        self.used.get()
    }

    /// The most ever charged at once.
    pub fn peak(&self) -> u64 {
        self.peak.get()
    }

    /// Bytes that may still be charged.
    pub fn available(&self) -> u64 {
        self.limit.saturating_sub(self.used.get())
    }

    /// Charges `bytes`, or ENOMEM (and nothing charged) past the limit.
    pub fn charge(&self, bytes: u64) -> Result<(), Errno> {
        if bytes > self.available() {
            return Err(Errno::ENOMEM);
        }
        self.force(bytes);
        Ok(())
    }

    /// Charges `bytes` even past the limit (a copy that cannot fail, whose
    /// room the caller checked beforehand).
    pub fn force(&self, bytes: u64) {
        let used = self.used.get().saturating_add(bytes);
        self.used.set(used);
        self.peak.set(self.peak.get().max(used));
    }

    pub fn release(&self, bytes: u64) {
        self.used.set(self.used.get().saturating_sub(bytes));
    }

    /// Records `cycles` of memory work.
    pub fn add_work(&self, cycles: u64) {
        self.work.set(self.work.get().saturating_add(cycles));
    }

    /// The work recorded since the last call.
    pub fn take_work(&self) -> u64 {
        self.work.replace(0)
    }

    /// The run's page epoch: it changes whenever a page of any address
    /// space on this budget may have moved (copy-on-write), been freed or
    /// shared, or lost a permission, and when a space is made. What the
    /// CPU's compiled tier reads directly stays valid while it holds (see
    /// `AddressSpace::direct_epoch`). One budget serves a whole run, so no
    /// two states of two spaces of a run share a value.
    pub fn epoch(&self) -> u64 {
        self.epoch.get()
    }

    /// Starts a new page epoch (see [`Budget::epoch`]).
    pub(crate) fn new_epoch(&self) {
        self.epoch.set(self.epoch.get() + 1);
    }

    /// The run's frame pool.
    pub(crate) fn frames(&self) -> &Rc<FramePool> {
        self.frames.get_or_init(FramePool::new)
    }

    /// The shared zero page.
    pub(crate) fn zero(&self) -> Rc<Frame> {
        let zero = self.zero.get_or_init(|| Rc::new(self.frames().zeroed()));
        zero.clone()
    }

    pub(crate) fn set_exhausted(&self) {
        self.exhausted.set(true);
    }

    /// Whether an allocation a user-mode access needed was refused since
    /// the last call (the fault was the budget's, not the program's).
    pub fn take_exhausted(&self) -> bool {
        self.exhausted.replace(false)
    }
}

/// The cost model of memory work, in CPU cycles of system time (at the
/// R4000's one word per cycle for a kernel copy loop; model parameters,
/// not measurements).
pub mod cost {
    /// Zeroing or copying a 4 KiB page: 1,024 words.
    pub const PAGE_CYCLES: u64 = 1024;
    /// Reading a page from a file: the copy plus the file system's work.
    pub const FILE_PAGE_CYCLES: u64 = 2 * PAGE_CYCLES;
    /// Creating, splitting or removing a mapping (the region bookkeeping).
    pub const MAP_CYCLES: u64 = 200;
    /// Copying `bytes` between user and kernel space: one cycle a word.
    pub const fn copy_cycles(bytes: u64) -> u64 {
        bytes.div_ceil(4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charges_past_the_limit_fail_and_change_nothing() {
        let b = Budget::new(10_000);
        b.charge(8_000).unwrap();
        assert_eq!(b.charge(4_000), Err(Errno::ENOMEM));
        assert_eq!(b.used(), 8_000);
        b.release(8_000);
        assert_eq!((b.used(), b.peak()), (0, 8_000));
    }
}
