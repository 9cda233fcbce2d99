//! fcntl's record locks and file space commands (F_GETLK, F_SETLK,
//! F_SETLKW, F_ALLOCSP, F_FREESP): the guest's `struct flock` and what
//! each command does with it. The lock table is `locks.rs`.

use std::io::SeekFrom;

use super::{Args, Ret, SysResult};
use crate::abi::flags::{fcntl::*, seek::*};
use crate::files::{io_errno, oflag, FileKind, OpenFile};
use crate::kernel::Kernel;
use crate::locks::{FileId, Kind as LockKind, Range};
use crate::process::Process;
use crate::Errno;

/// A `struct flock` as the guest gave it (abi::flags::fcntl::FLOCK_SIZE).
struct Flock {
    bytes: [u8; FLOCK_SIZE],
}

impl Flock {
    fn read(p: &Process, addr: u32) -> Result<Flock, Errno> {
        let mut bytes = [0; FLOCK_SIZE];
        p.mem.read_bytes(addr, &mut bytes)?;
        Ok(Flock { bytes })
    }

    fn half(&self, at: usize) -> i16 {
        i16::from_be_bytes([self.bytes[at], self.bytes[at + 1]])
    }

    fn word(&self, at: usize) -> i32 {
        i32::from_be_bytes(self.bytes[at..at + 4].try_into().unwrap_or_default())
    }

    fn l_type(&self) -> i16 {
        self.half(0)
    }

    /// The bytes it names: l_start from l_whence (the start, the file
    /// offset of `file`, or its end), l_len of them (0: to the end of the
    /// file, however long it grows). EINVAL for a negative start or length
    /// or an unknown whence.
    fn range(&self, file: &mut OpenFile) -> Result<Range, Errno> {
        let base = match self.half(2) as u32 {
            SEEK_SET => 0,
            SEEK_CUR => file.seek(SeekFrom::Current(0))?,
            SEEK_END => file.metadata().map_or(0, |m| m.len()),
            _ => return Err(Errno::EINVAL),
        };
        let (start, len) = (base as i64 + i64::from(self.word(4)), self.word(8));
        if start < 0 || len < 0 {
            return Err(Errno::EINVAL);
        }
        let start = start as u64;
        Ok(Range {
            start,
            end: (len > 0).then(|| start + len as u64),
        })
    }
}

/// fcntl's record locks (locks.rs): F_GETLK reports the first lock of
/// another process that would stop the one described (its type, range
/// from the start of the file and pid) or sets l_type to F_UNLCK; F_SETLK
/// takes or releases a lock, EAGAIN when another process's lock stops it;
/// F_SETLKW waits until none does (a wait nothing can end is the run's
/// deadlock, not EDEADLK). A read lock needs a descriptor open for
/// reading, a write lock one open for writing (EBADF); only regular files
/// take locks (EINVAL).
pub(super) fn record_lock(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (cmd, addr) = (a.word(1), a.ptr(2));
    let flock = Flock::read(p, addr)?;
    let file = p.fds.get(a.fd(0))?;
    let mut f = file.borrow_mut();
    let id = FileId::of(&f).ok_or(Errno::EINVAL)?;
    let range = flock.range(&mut f)?;
    let mode = f.flags & oflag::O_ACCMODE;
    let kind = match flock.l_type() {
        F_RDLCK if cmd != F_GETLK && mode == oflag::O_WRONLY => return Err(Errno::EBADF),
        F_WRLCK if cmd != F_GETLK && mode == oflag::O_RDONLY => return Err(Errno::EBADF),
        F_RDLCK => Some(LockKind::Read),
        F_WRLCK => Some(LockKind::Write),
        F_UNLCK if cmd != F_GETLK => None,
        _ => return Err(Errno::EINVAL),
    };
    let conflict = kind.and_then(|kind| k.locks.conflict(id, p.pid, kind, range));
    match (cmd, conflict) {
        (F_GETLK, None) => p.mem.write_bytes(addr, &F_UNLCK.to_be_bytes())?,
        (F_GETLK, Some(l)) => {
            let l_type = match l.kind {
                LockKind::Read => F_RDLCK,
                LockKind::Write => F_WRLCK,
            };
            let len = l.range.end.map_or(0, |e| e - l.range.start);
            let mut out = flock.bytes;
            out[0..2].copy_from_slice(&l_type.to_be_bytes());
            out[2..4].copy_from_slice(&(SEEK_SET as i16).to_be_bytes());
            out[4..8].copy_from_slice(&(l.range.start as u32).to_be_bytes());
            out[8..12].copy_from_slice(&(len as u32).to_be_bytes());
            out[12..16].copy_from_slice(&0u32.to_be_bytes());
            out[16..20].copy_from_slice(&l.pid.to_be_bytes());
            p.mem.write_bytes(addr, &out)?;
        }
        (F_SETLK, Some(_)) => return Err(Errno::EAGAIN),
        (_, Some(_)) => return Ok(Ret::Block),
        (_, None) => k.locks.set(id, p.pid, kind, range),
    }
    Ok(Ret::Val(0))
}

/// F_ALLOCSP and F_FREESP on the range a `struct flock` names, for a
/// regular file open for writing (else EBADF, or EINVAL for a pipe or
/// device). F_FREESP with l_len 0 sets the file's size to the range's
/// start (ftruncate's meaning, growing or shrinking); with a length, the
/// freed bytes read as zeroes (those at the end are cut off). F_ALLOCSP
/// makes the file at least as long as the range's end (l_len 0: its
/// start), never shorter: IRIX's usinit sizes its arena file this way
/// before mapping it. A range ending beyond 2 GiB (o32's off_t) is EINVAL.
pub(super) fn file_space(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let flock = Flock::read(p, a.ptr(2))?;
    let file = p.fds.get(a.fd(0))?;
    let mut f = file.borrow_mut();
    FileId::of(&f).ok_or(Errno::EINVAL)?;
    let pages = k.mapped_pages(&f);
    if f.flags & oflag::O_ACCMODE == oflag::O_RDONLY {
        return Err(Errno::EBADF);
    }
    let range = flock.range(&mut f)?;
    let FileKind::Host(host) = &f.kind else {
        return Err(Errno::EINVAL);
    };
    let size = host.metadata().map_err(|e| io_errno(&e))?.len();
    if range.end.unwrap_or(range.start) > i32::MAX as u64 {
        return Err(Errno::EINVAL);
    }
    super::fs::changing(pages, || resize(host, a.word(1), range, size))
}

/// F_ALLOCSP's or F_FREESP's change of a file `size` bytes long.
fn resize(host: &std::fs::File, cmd: u32, range: Range, size: u64) -> SysResult {
    use std::os::unix::fs::FileExt;
    let set_len = |len: u64| host.set_len(len).map_err(|e| io_errno(&e));
    match (cmd, range.end) {
        (F_ALLOCSP, end) => {
            let want = end.unwrap_or(range.start);
            if want > size {
                set_len(want)?;
            }
        }
        (_, None) => set_len(range.start)?,
        (_, Some(end)) if end >= size => {
            if range.start < size {
                set_len(range.start)?;
            }
        }
        (_, Some(end)) => {
            let zeroes = [0; 1 << 16];
            let mut at = range.start;
            while at < end {
                let n = (end - at).min(zeroes.len() as u64);
                host.write_all_at(&zeroes[..n as usize], at)
                    .map_err(|e| io_errno(&e))?;
                at += n;
            }
        }
    }
    Ok(Ret::Val(0))
}
