//! The System V shared memory segments attached to an address space
//! (IRIX shmop(2)): which attachments exist, where, and of what.
//!
//! shmat maps a segment's object as a shared region, but a region is not
//! an attachment: mprotect(2) or a partial munmap(2) cuts the region into
//! pieces, and a piece is still part of the one attachment. So the space
//! keeps a table of its attachments, each the range shmat mapped and the
//! segment's object, and the rules are:
//! - shmdt(2) names an attachment by its start address and removes every
//!   page of it still mapped there (every piece, whatever permissions
//!   mprotect gave it), and nothing that was mapped over part of it since;
//! - an attachment ends when its last page goes, by munmap(2) or by a
//!   mapping made over it (`map`, `unmap` prune the table);
//! - fork copies the table with the space (a clone), exec and exit drop it
//!   with the space, and an sproc share group has the one table of its one
//!   space.
//!
//! Each attachment holds a clone of its segment's [`AttachMark`], so the
//! segment counts its attachments (shm_nattch) by the mark's references,
//! whichever spaces hold them: one per attachment, however many pieces.
//! A debugger's snapshot of a space is no process: its copies hold the
//! mark weakly, and count again when the snapshot is restored.

use std::rc::{Rc, Weak};

use super::regions::Backing;
use super::{AddressSpace, Perms, SharedObject, REGION_COST};
use crate::Errno;

/// What a segment counts its attachments by: every attachment, in any
/// address space, holds one reference to its segment's mark.
#[derive(Debug)]
pub struct AttachMark(());

impl AttachMark {
    /// A new segment's mark, held by the segment itself.
    pub fn new() -> Rc<AttachMark> {
        Rc::new(AttachMark(()))
    }

    /// The attachments of the segment holding `mark`: every reference but
    /// the segment's own.
    pub fn attachments(mark: &Rc<AttachMark>) -> u32 {
        Rc::strong_count(mark) as u32 - 1
    }
}

/// How an attachment holds its segment's mark.
#[derive(Clone)]
enum Hold {
    /// Counted in shm_nattch (a process's space).
    Counted(Rc<AttachMark>),
    /// Not counted (a debugger's snapshot of a space).
    Uncounted(Weak<AttachMark>),
}

/// One attachment: `[start, end)` as shmat mapped it, the segment's object
/// at offset 0 from `start`.
#[derive(Clone)]
pub struct Attachment {
    pub start: u32,
    pub end: u32,
    pub object: Rc<SharedObject>,
    /// Keeps the segment's count of attachments.
    hold: Hold,
}

impl Attachment {
    /// Is the region piece `[s, e)` mapping `backing` a part of this
    /// attachment (the same object, at the offset shmat gave that address)?
    fn owns(&self, s: u32, e: u32, backing: &Backing) -> bool {
        let Backing::Shared { object, offset } = backing else {
            return false;
        };
        e > self.start
            && s < self.end
            && s >= self.start
            && Rc::ptr_eq(object, &self.object)
            && *offset == u64::from(s - self.start)
    }
}

/// Host bytes one attachment costs (its entry; its pages are the object's).
pub(super) const ATTACH_COST: u64 = REGION_COST;

impl AddressSpace {
    /// shmat: maps `object` at `[start, start+len)` (page-aligned, free)
    /// with `perms` and records the attachment, holding `mark`.
    pub fn attach(
        &mut self,
        start: u32,
        len: u32,
        perms: Perms,
        object: Rc<SharedObject>,
        mark: &Rc<AttachMark>,
    ) -> Result<(), Errno> {
        if self.budget.available() < ATTACH_COST {
            return Err(Errno::ENOMEM);
        }
        let backing = Backing::Shared {
            object: object.clone(),
            offset: 0,
        };
        self.map(u64::from(start), u64::from(len), perms, backing)?;
        self.attachments.push(Attachment {
            start,
            end: start + len,
            object,
            hold: Hold::Counted(mark.clone()),
        });
        self.recharge();
        Ok(())
    }

    /// The attachment starting at `addr`, if one does.
    pub fn attachment_at(&self, addr: u32) -> Option<&Attachment> {
        self.attachment_index(addr).map(|i| &self.attachments[i])
    }

    /// Which attachment starting at `addr` shmdt names: the one whose
    /// page is mapped at `addr` now, else (its first page unmapped) the
    /// oldest starting there. Two can start at one address when a later
    /// shmat filled a hole munmap left at the start of an earlier one.
    fn attachment_index(&self, addr: u32) -> Option<usize> {
        let holds_addr = |a: &Attachment| {
            self.regions
                .within(addr, addr.saturating_add(1))
                .any(|(s, r)| a.owns(s, r.end, &r.backing))
        };
        let starting = || {
            self.attachments
                .iter()
                .enumerate()
                .filter(|(_, a)| a.start == addr)
        };
        starting()
            .find(|(_, a)| holds_addr(a))
            .or_else(|| starting().next())
            .map(|(i, _)| i)
    }

    /// The attachments of this space, in the order they were made.
    pub fn attachments(&self) -> &[Attachment] {
        &self.attachments
    }

    /// shmdt: removes the attachment starting at `addr` and unmaps every
    /// page of it still mapped; the attachment is returned (its range, its
    /// object). None, with nothing changed, when no attachment starts at
    /// `addr`.
    pub fn detach(&mut self, addr: u32) -> Option<Attachment> {
        let at = self.attachment_index(addr)?;
        let gone = self.attachments.remove(at);
        for (s, e) in self.pieces_of(&gone) {
            self.unmap(u64::from(s), u64::from(e - s));
        }
        self.recharge(); // when no piece was left to unmap
        Some(gone)
    }

    /// Stops this space's attachments counting in shm_nattch: the space is
    /// a debugger's snapshot, no process's (see [`Self::count_attachments`]).
    pub fn uncount_attachments(&mut self) {
        for a in &mut self.attachments {
            if let Hold::Counted(mark) = &a.hold {
                a.hold = Hold::Uncounted(Rc::downgrade(mark));
            }
        }
    }

    /// Counts this space's attachments again (a snapshot restored), each
    /// whose segment still exists.
    pub fn count_attachments(&mut self) {
        for a in &mut self.attachments {
            if let Hold::Uncounted(mark) = &a.hold {
                if let Some(mark) = mark.upgrade() {
                    a.hold = Hold::Counted(mark);
                }
            }
        }
    }

    /// The region pieces of `att` still mapped, as `[start, end)` ranges.
    fn pieces_of(&self, att: &Attachment) -> Vec<(u32, u32)> {
        self.regions
            .within(att.start, att.end)
            .filter(|(s, r)| att.owns(*s, r.end, &r.backing))
            .map(|(s, r)| (s, r.end))
            .collect()
    }

    /// Forgets the attachments of `[first, end)` whose last page is gone
    /// (after a map or unmap of that range, which recharges).
    pub(super) fn prune_attachments(&mut self, first: u32, end: u32) {
        if self.attachments.is_empty() {
            return;
        }
        let regions = &self.regions;
        self.attachments.retain(|a| {
            a.end <= first
                || a.start >= end
                || regions
                    .within(a.start, a.end)
                    .any(|(s, r)| a.owns(s, r.end, &r.backing))
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::Budget;
    use cpu_mips::{MemFault, Memory};

    const RW: Perms = Perms::R.union(Perms::W);
    const PAGE: u32 = 4096;
    const AT: u32 = 0x3000_0000;

    fn segment(budget: &Rc<Budget>) -> (Rc<SharedObject>, Rc<AttachMark>) {
        (SharedObject::anonymous(budget.clone()), AttachMark::new())
    }

    /// shmop(2): shmdt "detaches ... the shared memory segment located at
    /// the address specified by shmaddr": every piece mprotect made.
    #[test]
    fn detach_removes_every_piece_of_an_attachment_split_by_protect() {
        let budget = Budget::new(1 << 20);
        let mut m = AddressSpace::new(budget.clone());
        let (object, mark) = segment(&budget);
        m.attach(AT, 3 * PAGE, RW, object, &mark).unwrap();
        m.protect(u64::from(AT + PAGE), u64::from(PAGE), Perms::R)
            .unwrap();
        assert_eq!(
            AttachMark::attachments(&mark),
            1,
            "pieces are not attachments"
        );
        assert!(m.attachment_at(AT + PAGE).is_none());
        let gone = m.detach(AT).unwrap();
        assert_eq!((gone.start, gone.end), (AT, AT + 3 * PAGE));
        drop(gone);
        assert!(!m.any_mapped(u64::from(AT), u64::from(AT + 3 * PAGE)));
        assert_eq!(AttachMark::attachments(&mark), 0);
        assert!(m.detach(AT).is_none());
        drop(m);
        assert_eq!(budget.used(), 0, "everything is given back");
    }

    #[test]
    fn an_attachment_lives_until_munmap_takes_its_last_page() {
        let budget = Budget::unlimited();
        let mut m = AddressSpace::new(budget.clone());
        let (object, mark) = segment(&budget);
        m.attach(AT, 2 * PAGE, RW, object, &mark).unwrap();
        m.unmap(u64::from(AT), u64::from(PAGE));
        assert_eq!(AttachMark::attachments(&mark), 1);
        assert!(m.attachment_at(AT).is_some(), "still named by its start");
        m.unmap(u64::from(AT + PAGE), u64::from(PAGE));
        assert_eq!(AttachMark::attachments(&mark), 0);
        assert!(m.attachment_at(AT).is_none());
    }

    #[test]
    fn detach_leaves_what_was_mapped_over_part_of_the_attachment() {
        let budget = Budget::unlimited();
        let mut m = AddressSpace::new(budget.clone());
        let (object, mark) = segment(&budget);
        m.attach(AT, 2 * PAGE, RW, object, &mark).unwrap();
        m.map_anon(u64::from(AT + PAGE), u64::from(PAGE), RW)
            .unwrap();
        m.store32(AT + PAGE, 5).unwrap();
        assert_eq!(AttachMark::attachments(&mark), 1);
        m.detach(AT).unwrap();
        assert_eq!(m.load32(AT), Err(MemFault::Unmapped));
        assert_eq!(m.load32(AT + PAGE), Ok(5), "the anonymous page stays");
    }

    #[test]
    fn a_mapping_over_the_whole_attachment_ends_it() {
        let budget = Budget::unlimited();
        let mut m = AddressSpace::new(budget.clone());
        let (object, mark) = segment(&budget);
        m.attach(AT, PAGE, RW, object, &mark).unwrap();
        m.map_anon(u64::from(AT), u64::from(PAGE), RW).unwrap();
        assert_eq!(AttachMark::attachments(&mark), 0);
        assert!(m.detach(AT).is_none());
    }

    /// fork(2) copies the attachments (shm_nattch + 1 each); dropping a
    /// space (exit, exec) drops them.
    #[test]
    fn a_fork_copy_holds_its_own_attachments() {
        let budget = Budget::unlimited();
        let mut m = AddressSpace::new(budget.clone());
        let (object, mark) = segment(&budget);
        m.attach(AT, PAGE, RW, object.clone(), &mark).unwrap();
        m.attach(AT + 4 * PAGE, PAGE, RW, object, &mark).unwrap();
        assert_eq!(AttachMark::attachments(&mark), 2);
        let mut child = m.clone();
        assert_eq!(AttachMark::attachments(&mark), 4);
        child.detach(AT).unwrap();
        assert_eq!(AttachMark::attachments(&mark), 3);
        assert!(m.attachment_at(AT).is_some(), "the parent's is its own");
        drop(child);
        drop(m);
        assert_eq!(AttachMark::attachments(&mark), 0);
    }

    /// A debugger's snapshot is no process: its copy counts only once
    /// restored.
    #[test]
    fn an_uncounted_copy_counts_again_when_counted() {
        let budget = Budget::unlimited();
        let mut m = AddressSpace::new(budget.clone());
        let (object, mark) = segment(&budget);
        m.attach(AT, PAGE, RW, object, &mark).unwrap();
        let mut snapshot = m.clone();
        snapshot.uncount_attachments();
        assert_eq!(AttachMark::attachments(&mark), 1);
        let mut restored = snapshot.clone();
        restored.count_attachments();
        assert_eq!(AttachMark::attachments(&mark), 2);
        drop(m);
        restored.detach(AT).unwrap();
        assert_eq!(AttachMark::attachments(&mark), 0);
        assert!(snapshot.attachment_at(AT).is_some());
    }

    #[test]
    fn a_second_attachment_over_a_hole_of_the_first_is_its_own() {
        let budget = Budget::unlimited();
        let mut m = AddressSpace::new(budget.clone());
        let (object, mark) = segment(&budget);
        m.attach(AT, 2 * PAGE, RW, object.clone(), &mark).unwrap();
        m.unmap(u64::from(AT + PAGE), u64::from(PAGE));
        m.attach(AT + PAGE, PAGE, RW, object, &mark).unwrap();
        assert_eq!(AttachMark::attachments(&mark), 2);
        m.detach(AT).unwrap();
        assert!(m.is_mapped(AT + PAGE), "the second attachment's page stays");
        assert_eq!(AttachMark::attachments(&mark), 1);
    }

    /// shmop(2): shmdt detaches the segment "located at the address
    /// specified by shmaddr" -- the one mapped there now, not an earlier
    /// attachment whose first page munmap took.
    #[test]
    fn detach_takes_the_attachment_mapped_at_the_address_not_an_older_one_starting_there() {
        let budget = Budget::unlimited();
        let mut m = AddressSpace::new(budget.clone());
        let (a, mark_a) = segment(&budget);
        let (b, mark_b) = segment(&budget);
        m.attach(AT, 2 * PAGE, RW, a, &mark_a).unwrap();
        m.unmap(u64::from(AT), u64::from(PAGE));
        m.attach(AT, PAGE, RW, b, &mark_b).unwrap();
        let gone = m.detach(AT).unwrap();
        assert_eq!((gone.start, gone.end), (AT, AT + PAGE), "B, one page");
        drop(gone);
        assert_eq!(AttachMark::attachments(&mark_b), 0);
        assert_eq!(AttachMark::attachments(&mark_a), 1);
        assert!(m.is_mapped(AT + PAGE), "A's remaining page stays");
        assert!(!m.is_mapped(AT));
    }
}
