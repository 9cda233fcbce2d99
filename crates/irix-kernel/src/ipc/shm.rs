//! Shared memory segments (IRIX shmget(2), shmop(2), shmctl(2)).
//!
//! A segment's memory is a [`SharedObject`], the same object a
//! MAP_SHARED|MAP_ANONYMOUS mapping has: shmat maps it into the caller's
//! address space as a shared region, so every process attached (and the
//! children a fork makes, which inherit the attachment) reaches the one
//! copy of each page, and the compiled tier's rule that shared regions
//! are reached through the cold path holds unchanged. Pages are zero
//! until written and charged to the run's memory budget when first
//! touched. IPC_RMID drops the table's reference: the memory goes when
//! the last attachment does (detach, exit or exec).
//!
//! Attachments are counted by the segment's [`AttachMark`]: each address
//! space keeps a table of the attachments it holds (`memory/attach.rs`),
//! one entry per shmat however mprotect or munmap cut its region, and each
//! entry holds a reference to the mark.

use std::rc::Rc;

use super::{Perm, PERM_BYTES};
use crate::memory::{AttachMark, SharedObject};
use crate::process::Pid;

/// The smallest and largest segment, in bytes (IRIX's shmmin and shmmax
/// tunables).
pub const SHMMIN: u32 = 1;
pub const SHMMAX: u32 = 32 << 20;
/// The most segments at once.
pub const SHMMNI: usize = 100;
/// The most attachments one address space holds at once (IRIX's shmseg
/// tunable; shmop(2): past it shmat is EMFILE). irix-emu's own value.
pub const SHMSEG: usize = 100;
/// The boundary SHM_RND rounds an attach address down to (IRIX's
/// `<sys/shm.h>`: 256 KiB).
pub const SHMLBA: u32 = 256 << 10;

/// shmat's flags.
pub const SHM_RDONLY: u32 = 0o10000;
pub const SHM_RND: u32 = 0o20000;
/// shmctl's superuser commands.
pub const SHM_LOCK: u32 = 3;
pub const SHM_UNLOCK: u32 = 4;

/// Bytes of `struct shmid_ds`.
pub const SHMID_DS_BYTES: usize = 112;

/// One segment and its `shmid_ds` figures.
pub struct Segment {
    pub object: Rc<SharedObject>,
    /// What its attachments hold (shm_nattch counts them).
    pub mark: Rc<AttachMark>,
    /// The size asked for (`shm_segsz`); attachments are page-rounded.
    pub size: u32,
    pub cpid: Pid,
    pub lpid: Pid,
    pub atime: u32,
    pub dtime: u32,
    pub ctime: u32,
}

impl Segment {
    pub fn new(object: Rc<SharedObject>, size: u32, cpid: Pid, now: u32) -> Segment {
        Segment {
            object,
            mark: AttachMark::new(),
            size,
            cpid,
            lpid: 0,
            atime: 0,
            dtime: 0,
            ctime: now,
        }
    }

    /// `shm_nattch`: the attachments alive, in every address space (not
    /// the regions: one attachment may be several).
    pub fn nattch(&self) -> u32 {
        AttachMark::attachments(&self.mark)
    }

    /// `struct shmid_ds` (SVR4's o32 layout, as IRIX's `<sys/shm.h>`):
    /// the permissions, shm_segsz, a kernel pointer (0), shm_lkcnt (a
    /// short) and padding, shm_lpid, shm_cpid, shm_nattch, shm_cnattch,
    /// then shm_atime, shm_dtime and shm_ctime each followed by a
    /// reserved word, then reserved words.
    pub fn encode(&self, perm: &Perm) -> [u8; SHMID_DS_BYTES] {
        let mut out = [0u8; SHMID_DS_BYTES];
        out[..PERM_BYTES].copy_from_slice(&perm.encode());
        let words = [
            (44, self.size),
            (56, self.lpid),
            (60, self.cpid),
            (64, self.nattch()),
            (68, self.nattch()),
            (72, self.atime),
            (80, self.dtime),
            (88, self.ctime),
        ];
        for (at, w) in words {
            out[at..at + 4].copy_from_slice(&w.to_be_bytes());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{AddressSpace, Budget, Perms};

    #[test]
    fn shm_nattch_counts_attachments_not_regions() {
        let budget = Budget::unlimited();
        let seg = Segment::new(SharedObject::anonymous(budget.clone()), 100, 100, 0);
        assert_eq!(seg.nattch(), 0);
        let mut space = AddressSpace::new(budget);
        let rw = Perms::R | Perms::W;
        space
            .attach(0x3000_0000, 0x3000, rw, seg.object.clone(), &seg.mark)
            .unwrap();
        space.protect(0x3000_1000, 0x1000, Perms::R).unwrap();
        assert_eq!(seg.nattch(), 1);
        let ds = seg.encode(&Perm::default());
        assert_eq!(&ds[44..48], &100u32.to_be_bytes());
        assert_eq!(&ds[64..68], &1u32.to_be_bytes());
        drop(space);
        assert_eq!(seg.nattch(), 0);
    }
}
