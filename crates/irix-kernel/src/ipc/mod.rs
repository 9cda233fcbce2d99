//! System V interprocess communication (IRIX intro(2), msgget(2),
//! semget(2), shmget(2)): message queues (`msg`), semaphore sets (`sem`)
//! and shared memory segments (`shm`), each kept in a [`Table`] of
//! identifiers found by key.
//!
//! The objects live in the kernel for the whole run (or until IPC_RMID):
//! no process owns them. Identifiers follow the SVR4 scheme: a kind's
//! table has a fixed number of slots (its MNI limit), each with a
//! sequence number that grows when the slot's object is removed, and an
//! object's identifier is `seq * MNI + slot` (the lowest free slot, so a
//! run makes the same identifiers every time). A slot's old identifiers
//! are not handed out again until its sequence number wraps (past the
//! largest positive identifier), which lets a call that waited on a
//! removed object tell EIDRM ("removed from the system") from EINVAL
//! (never valid), and the table stays the same size however many objects
//! come and go. Waiting (msgsnd on a full queue, msgrcv on an empty one,
//! semop that cannot proceed) is the kernel's retry: the call returns
//! `Ret::Block` and is made again whenever the process is scheduled, on
//! virtual time, so the order in which waiters proceed is the scheduler's
//! round-robin order and the same on every run.
//!
//! Limits: IRIX's are tunables of the kernel (systune); irix-emu's are the
//! constants in each module (`msg::MSGMAX` ...), listed in docs/ipc.md.

pub mod msg;
pub mod sem;
pub mod shm;

use crate::identity::Identity;
use crate::Errno;

/// `key_t` IPC_PRIVATE: a new object every time.
pub const IPC_PRIVATE: u32 = 0;
/// Flags of the get calls (SVR4 numbering, intro(2)).
pub const IPC_CREAT: u32 = 0o1000;
pub const IPC_EXCL: u32 = 0o2000;
pub const IPC_NOWAIT: u32 = 0o4000;
/// The mode bit an object in use carries (IPC_STAT shows it).
pub const IPC_ALLOC: u32 = 0o100000;
/// The control commands every kind shares.
pub const IPC_RMID: u32 = 10;
pub const IPC_SET: u32 = 11;
pub const IPC_STAT: u32 = 12;

/// Read and write (alter) permission, the owner's bits: intro(2)'s
/// operation permissions shift them for group and others.
pub const READ: u32 = 0o400;
pub const WRITE: u32 = 0o200;

/// `struct ipc_perm` (o32: uid, gid, cuid, cgid, mode, seq, key and four
/// reserved words: 44 bytes), the first member of every `*id_ds`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Perm {
    pub uid: u32,
    pub gid: u32,
    pub cuid: u32,
    pub cgid: u32,
    /// The nine access permission bits.
    pub mode: u32,
    pub seq: u32,
    pub key: u32,
}

/// Bytes of `struct ipc_perm`.
pub const PERM_BYTES: usize = 44;

impl Perm {
    /// A new object's: creator and owner the caller, mode the low nine
    /// bits of the flags.
    pub fn new(ids: &Identity, key: u32, flags: u32, seq: u32) -> Perm {
        Perm {
            uid: ids.euid,
            gid: ids.egid,
            cuid: ids.euid,
            cgid: ids.egid,
            mode: flags & 0o777,
            seq,
            key,
        }
    }

    /// intro(2)'s operation permission: `want` is READ and/or WRITE (the
    /// owner's bits); the superuser always has it, the owner or creator
    /// is judged by the owner bits, the group by the group bits, others by
    /// the last three.
    pub fn allows(&self, ids: &Identity, want: u32) -> bool {
        if ids.is_superuser() {
            return true;
        }
        let bits = if ids.euid == self.uid || ids.euid == self.cuid {
            self.mode
        } else if ids.egid == self.gid || ids.egid == self.cgid || ids.groups.contains(&self.gid) {
            self.mode << 3
        } else {
            self.mode << 6
        };
        bits & want == want
    }

    /// May `ids` use IPC_SET and IPC_RMID (the owner, the creator or the
    /// superuser)?
    pub fn owned_by(&self, ids: &Identity) -> bool {
        ids.is_superuser() || ids.euid == self.uid || ids.euid == self.cuid
    }

    /// The structure's bytes (big-endian words).
    pub fn encode(&self) -> [u8; PERM_BYTES] {
        let mut out = [0u8; PERM_BYTES];
        let words = [
            self.uid,
            self.gid,
            self.cuid,
            self.cgid,
            IPC_ALLOC | self.mode,
            self.seq,
            self.key,
        ];
        for (i, w) in words.iter().enumerate() {
            out[4 * i..4 * i + 4].copy_from_slice(&w.to_be_bytes());
        }
        out
    }

    /// IPC_SET: uid, gid and the permission bits from the caller's
    /// structure. EINVAL for an id IRIX could not hold (negative).
    pub fn set_from(&mut self, bytes: &[u8]) -> Result<(), Errno> {
        let word = |i: usize| u32::from_be_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap());
        let (uid, gid, mode) = (word(0), word(1), word(4));
        if (uid as i32) < 0 || (gid as i32) < 0 {
            return Err(Errno::EINVAL);
        }
        self.uid = uid;
        self.gid = gid;
        self.mode = mode & 0o777;
        Ok(())
    }
}

/// One kind's objects, in slots (see the module's documentation).
pub struct Table<T> {
    /// Each slot's object, if any.
    slots: Vec<Option<(Perm, T)>>,
    /// Each slot's sequence number: its object's, or the next one's.
    seqs: Vec<u32>,
}

impl<T> Table<T> {
    /// A table of `limit` slots: the most objects of this kind at once
    /// (ENOSPC past it).
    pub fn new(limit: usize) -> Self {
        Table {
            slots: (0..limit).map(|_| None).collect(),
            seqs: vec![0; limit],
        }
    }

    /// The largest sequence number, so that identifiers stay positive
    /// as IRIX's `int` identifiers.
    fn max_seq(&self) -> u32 {
        (i32::MAX as u32 / self.slots.len().max(1) as u32).saturating_sub(1)
    }

    /// The identifier of the object with sequence number `seq` in `slot`.
    fn id(&self, slot: usize, seq: u32) -> u32 {
        seq * self.slots.len() as u32 + slot as u32
    }

    /// The slot and sequence number of `id` (None past the table).
    fn split(&self, id: u32) -> Option<(usize, u32)> {
        let n = u32::try_from(self.slots.len()).ok().filter(|&n| n > 0)?;
        Some(((id % n) as usize, id / n))
    }

    fn live(&self) -> impl Iterator<Item = (u32, &Perm, &T)> {
        self.slots.iter().enumerate().filter_map(|(i, s)| {
            s.as_ref()
                .map(|(perm, obj)| (self.id(i, self.seqs[i]), perm, obj))
        })
    }

    /// The get calls' common rule (msgget(2), semget(2), shmget(2)): the
    /// identifier of `key`, made by `make` when the key is IPC_PRIVATE or
    /// has none and IPC_CREAT is set. `fits` checks an existing object
    /// against the caller's size (EINVAL when it is too small).
    pub fn get(
        &mut self,
        ids: &Identity,
        key: u32,
        flags: u32,
        fits: impl FnOnce(&T) -> Result<(), Errno>,
        make: impl FnOnce() -> Result<T, Errno>,
    ) -> Result<u32, Errno> {
        if key != IPC_PRIVATE {
            if let Some((id, perm, obj)) = self.live().find(|(_, p, _)| p.key == key) {
                if flags & IPC_CREAT != 0 && flags & IPC_EXCL != 0 {
                    return Err(Errno::EEXIST);
                }
                if flags & 0o777 & !perm.mode != 0 {
                    return Err(Errno::EACCES);
                }
                fits(obj)?;
                return Ok(id);
            }
            if flags & IPC_CREAT == 0 {
                return Err(Errno::ENOENT);
            }
        }
        // The arguments are judged (EINVAL) before the table's limit.
        let obj = make()?;
        let slot = self
            .slots
            .iter()
            .position(Option::is_none)
            .ok_or(Errno::ENOSPC)?;
        let seq = self.seqs[slot];
        self.slots[slot] = Some((Perm::new(ids, key, flags, seq), obj));
        Ok(self.id(slot, seq))
    }

    /// The object `id` names: EIDRM when it was removed and the caller
    /// waited on it (`waited`), EINVAL when it is not valid.
    pub fn find(&mut self, id: u32, waited: bool) -> Result<(&mut Perm, &mut T), Errno> {
        let (slot, seq) = self.split(id).ok_or(Errno::EINVAL)?;
        let current = self.seqs[slot];
        match &mut self.slots[slot] {
            Some((perm, obj)) if seq == current => Ok((perm, obj)),
            _ if waited && seq != current => Err(Errno::EIDRM),
            _ => Err(Errno::EINVAL),
        }
    }

    /// IPC_RMID: the object goes (returned, for the caller to free), and
    /// its slot's next object gets the next sequence number.
    pub fn remove(&mut self, id: u32) -> Option<T> {
        let (slot, seq) = self.split(id)?;
        if seq != self.seqs[slot] {
            return None;
        }
        let (_, obj) = self.slots[slot].take()?;
        self.seqs[slot] = match seq.checked_add(1) {
            Some(next) if next <= self.max_seq() => next,
            _ => 0,
        };
        Some(obj)
    }

    /// Every live object.
    pub fn objects(&self) -> impl Iterator<Item = &T> {
        self.slots.iter().flatten().map(|(_, t)| t)
    }

    /// Every live object, to change.
    pub fn objects_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.slots.iter_mut().flatten().map(|(_, t)| t)
    }

    /// How many objects are live.
    pub fn len(&self) -> usize {
        self.slots.iter().flatten().count()
    }

    /// Is no object live?
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The run's System V IPC objects.
pub struct Ipc {
    pub msgs: Table<msg::Queue>,
    pub sems: Table<sem::Set>,
    pub shms: Table<shm::Segment>,
}

impl Default for Ipc {
    fn default() -> Self {
        Ipc {
            msgs: Table::new(msg::MSGMNI),
            sems: Table::new(sem::SEMMNI),
            shms: Table::new(shm::SHMMNI),
        }
    }
}

impl Ipc {
    /// shmctl's IPC_RMID: the segment leaves the table; its memory lives
    /// while an attachment holds it.
    pub fn remove_segment(&mut self, id: u32) {
        self.shms.remove(id);
    }

    /// A process ended (exit(2)): its semaphore adjustments are applied.
    pub fn exited(&mut self, pid: crate::process::Pid) {
        for set in self.sems.objects_mut() {
            set.exited(pid);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user() -> Identity {
        Identity::first(100)
    }

    #[test]
    fn ipc_private_makes_a_new_identifier_every_time() {
        let mut t: Table<()> = Table::new(10);
        let a = t
            .get(&user(), IPC_PRIVATE, 0o600, |_| Ok(()), || Ok(()))
            .unwrap();
        let b = t
            .get(&user(), IPC_PRIVATE, 0o600, |_| Ok(()), || Ok(()))
            .unwrap();
        assert_ne!(a, b);
    }

    #[test]
    fn a_key_without_an_identifier_and_without_ipc_creat_is_enoent() {
        let mut t: Table<()> = Table::new(10);
        let r = t.get(&user(), 42, 0o600, |_| Ok(()), || Ok(()));
        assert_eq!(r, Err(Errno::ENOENT));
        let id = t
            .get(&user(), 42, IPC_CREAT | 0o600, |_| Ok(()), || Ok(()))
            .unwrap();
        assert_eq!(t.get(&user(), 42, 0, |_| Ok(()), || Ok(())), Ok(id));
        assert_eq!(
            t.get(&user(), 42, IPC_CREAT | IPC_EXCL, |_| Ok(()), || Ok(())),
            Err(Errno::EEXIST)
        );
    }

    #[test]
    fn permission_beyond_the_mode_is_eacces_and_removed_ids_are_eidrm_to_waiters() {
        let mut t: Table<()> = Table::new(10);
        let id = t
            .get(&user(), 7, IPC_CREAT | 0o400, |_| Ok(()), || Ok(()))
            .unwrap();
        assert_eq!(
            t.get(&user(), 7, 0o600, |_| Ok(()), || Ok(())),
            Err(Errno::EACCES)
        );
        t.remove(id);
        assert_eq!(t.find(id, true).err(), Some(Errno::EIDRM));
        assert_eq!(t.find(id, false).err(), Some(Errno::EINVAL));
    }

    #[test]
    fn removing_and_making_objects_without_end_reuses_slots_with_new_identifiers() {
        let mut t: Table<()> = Table::new(3);
        let first = t
            .get(&user(), IPC_PRIVATE, 0, |_| Ok(()), || Ok(()))
            .unwrap();
        let mut seen = vec![first];
        t.remove(first);
        for _ in 0..10_000 {
            let id = t
                .get(&user(), IPC_PRIVATE, 0, |_| Ok(()), || Ok(()))
                .unwrap();
            assert_eq!(id % 3, 0, "the lowest free slot");
            seen.push(id);
            t.remove(id);
        }
        assert_eq!(seen[1], 3, "seq * MNI + slot");
        assert_eq!(t.len(), 0);
        assert_eq!(t.seqs.len(), 3, "the table does not grow");
        assert_eq!(t.find(first, true).err(), Some(Errno::EIDRM));
        assert_eq!(t.find(u32::MAX, true).err(), Some(Errno::EIDRM));
        assert_eq!(t.find(u32::MAX, false).err(), Some(Errno::EINVAL));
    }

    #[test]
    fn sequence_numbers_wrap_before_identifiers_turn_negative() {
        let mut t: Table<()> = Table::new(7);
        t.seqs[0] = t.max_seq();
        let id = t
            .get(&user(), IPC_PRIVATE, 0, |_| Ok(()), || Ok(()))
            .unwrap();
        assert!((id as i32) >= 0);
        t.remove(id);
        assert_eq!(t.get(&user(), IPC_PRIVATE, 0, |_| Ok(()), || Ok(())), Ok(0));
    }

    #[test]
    fn bad_arguments_are_einval_even_when_the_table_is_full() {
        let mut t: Table<()> = Table::new(1);
        t.get(&user(), 0, 0, |_| Ok(()), || Ok(())).unwrap();
        assert_eq!(
            t.get(&user(), 0, 0, |_| Ok(()), || Err(Errno::EINVAL)),
            Err(Errno::EINVAL)
        );
    }

    #[test]
    fn the_system_wide_limit_is_enospc() {
        let mut t: Table<()> = Table::new(1);
        t.get(&user(), 0, 0, |_| Ok(()), || Ok(())).unwrap();
        assert_eq!(
            t.get(&user(), 0, 0, |_| Ok(()), || Ok(())),
            Err(Errno::ENOSPC)
        );
    }
}
