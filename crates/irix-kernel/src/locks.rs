//! Advisory record locks, fcntl(2)'s F_GETLK, F_SETLK and F_SETLKW: read
//! (shared) and write (exclusive) locks on byte ranges of regular files,
//! owned by processes. A process's own locks never conflict with each
//! other: a new lock replaces whatever that process held on the range
//! (splitting a longer lock), and an unlock removes it. A process loses
//! all its locks on a file when it closes any descriptor of that file,
//! and all its locks when it exits (SVR4 and POSIX rules). sproc members
//! are processes of their own here, as on IRIX.

use std::os::unix::fs::MetadataExt;

use crate::files::{FileKind, OpenFile};
use crate::process::Pid;

/// A file as locks name it: the host's device and inode, so every
/// descriptor and every process opening the same file shares its locks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FileId {
    pub dev: u64,
    pub ino: u64,
}

impl FileId {
    /// The file `f` is, when it can hold locks: a regular host file
    /// (pipes, devices and directories cannot).
    pub fn of(f: &OpenFile) -> Option<FileId> {
        let FileKind::Host(host) = &f.kind else {
            return None;
        };
        let m = host.metadata().ok().filter(|m| m.is_file())?;
        Some(FileId {
            dev: m.dev(),
            ino: m.ino(),
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Read,
    Write,
}

/// Bytes `[start, end)`; `end` None is "to the end of the file, however
/// long it grows" (l_len 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    pub start: u64,
    pub end: Option<u64>,
}

impl Range {
    fn overlaps(&self, o: &Range) -> bool {
        self.end.is_none_or(|e| o.start < e) && o.end.is_none_or(|e| self.start < e)
    }
}

/// One held lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lock {
    pub file: FileId,
    pub pid: Pid,
    pub kind: Kind,
    pub range: Range,
}

/// Every lock of the run.
#[derive(Clone, Default)]
pub struct RecordLocks {
    held: Vec<Lock>,
}

impl RecordLocks {
    /// Is any lock held? (Callers skip the work of naming a file when not.)
    pub fn is_empty(&self) -> bool {
        self.held.is_empty()
    }

    /// The first lock of another process that stops `pid` taking `kind`
    /// on `range` (F_GETLK's answer; F_SETLK fails and F_SETLKW waits on
    /// it): any lock over a write, a write lock over a read.
    pub fn conflict(&self, file: FileId, pid: Pid, kind: Kind, range: Range) -> Option<Lock> {
        self.held
            .iter()
            .find(|l| {
                l.file == file
                    && l.pid != pid
                    && (kind == Kind::Write || l.kind == Kind::Write)
                    && l.range.overlaps(&range)
            })
            .copied()
    }

    /// Sets `pid`'s lock on `range` to `kind` (None: unlocks it). The
    /// caller has checked [`RecordLocks::conflict`].
    pub fn set(&mut self, file: FileId, pid: Pid, kind: Option<Kind>, range: Range) {
        let mut kept = Vec::with_capacity(self.held.len() + 2);
        for l in self.held.drain(..) {
            if l.file != file || l.pid != pid || !l.range.overlaps(&range) {
                kept.push(l);
                continue;
            }
            // What of the old lock lies before and after the new range.
            if l.range.start < range.start {
                kept.push(Lock {
                    range: Range {
                        start: l.range.start,
                        end: Some(range.start),
                    },
                    ..l
                });
            }
            if let Some(end) = range.end {
                if l.range.end.is_none_or(|e| e > end) {
                    kept.push(Lock {
                        range: Range {
                            start: end,
                            end: l.range.end,
                        },
                        ..l
                    });
                }
            }
        }
        if let Some(kind) = kind {
            kept.push(Lock {
                file,
                pid,
                kind,
                range,
            });
        }
        self.held = kept;
    }

    /// `pid` closed a descriptor of `file`: all its locks there go.
    pub fn closed(&mut self, file: FileId, pid: Pid) {
        self.held.retain(|l| l.file != file || l.pid != pid);
    }

    /// `pid` exited: all its locks go.
    pub fn exited(&mut self, pid: Pid) {
        self.held.retain(|l| l.pid != pid);
    }

    /// `pid`'s locks on `file`, in no particular order (for tests).
    pub fn held_by(&self, file: FileId, pid: Pid) -> Vec<Lock> {
        self.held
            .iter()
            .filter(|l| l.file == file && l.pid == pid)
            .copied()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const F: FileId = FileId { dev: 1, ino: 2 };

    fn r(start: u64, end: Option<u64>) -> Range {
        Range { start, end }
    }

    #[test]
    fn read_locks_share_and_a_write_lock_excludes() {
        let mut t = RecordLocks::default();
        t.set(F, 100, Some(Kind::Read), r(0, Some(10)));
        assert_eq!(t.conflict(F, 101, Kind::Read, r(5, Some(6))), None);
        let c = t.conflict(F, 101, Kind::Write, r(9, None)).unwrap();
        assert_eq!((c.pid, c.kind), (100, Kind::Read));
        assert_eq!(t.conflict(F, 101, Kind::Write, r(10, None)), None);
        // Its own lock never stops a process.
        assert_eq!(t.conflict(F, 100, Kind::Write, r(0, None)), None);
    }

    #[test]
    fn unlocking_the_middle_splits_a_lock_and_to_eof_is_unbounded() {
        let mut t = RecordLocks::default();
        t.set(F, 100, Some(Kind::Write), r(0, None));
        t.set(F, 100, None, r(4, Some(8)));
        let mut held: Vec<Range> = t.held_by(F, 100).iter().map(|l| l.range).collect();
        held.sort_by_key(|r| r.start);
        assert_eq!(held, [r(0, Some(4)), r(8, None)]);
        assert!(t
            .conflict(F, 101, Kind::Read, r(1 << 40, Some(1 << 41)))
            .is_some());
        assert!(t.conflict(F, 101, Kind::Read, r(4, Some(8))).is_none());
    }

    #[test]
    fn a_new_kind_replaces_the_old_on_its_range() {
        let mut t = RecordLocks::default();
        t.set(F, 100, Some(Kind::Write), r(0, Some(10)));
        t.set(F, 100, Some(Kind::Read), r(0, Some(10)));
        assert_eq!(t.held_by(F, 100).len(), 1);
        assert!(t.conflict(F, 101, Kind::Read, r(0, Some(10))).is_none());
    }

    #[test]
    fn closing_or_exiting_releases() {
        let mut t = RecordLocks::default();
        let g = FileId { dev: 1, ino: 3 };
        t.set(F, 100, Some(Kind::Write), r(0, Some(1)));
        t.set(g, 100, Some(Kind::Write), r(0, Some(1)));
        t.set(F, 101, Some(Kind::Write), r(5, Some(6)));
        t.closed(F, 100);
        assert!(t.held_by(F, 100).is_empty());
        assert_eq!(t.held_by(g, 100).len(), 1);
        t.exited(100);
        assert!(t.held_by(g, 100).is_empty());
        assert_eq!(t.held_by(F, 101).len(), 1);
    }
}
