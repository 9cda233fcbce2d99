//! Reading directories: getdents (SVR4 `struct dirent`) and ngetdents64
//! (IRIX's 64-bit `struct dirent64` with an end-of-directory flag).
//!
//! Entries come in [`crate::files::dir_entries`] order (`.`, `..`, then the
//! names sorted), and a directory's offset is the index of the next entry, so
//! a listing is the same on every host. Records are packed whole: an entry
//! that does not fit the rest of the buffer waits for the next call, and a
//! buffer too small for the first entry is EINVAL (SVR4 getdents(2)).
//!
//! Layouts (big-endian; the SVR4 MIPS ABI's dirent, IRIX's dirent64):
//! - dirent: d_ino u32 @0, d_off i32 @4, d_reclen u16 @8, d_name @10,
//!   NUL-terminated, the record padded to a multiple of 4.
//! - dirent64: d_ino u64 @0, d_off i64 @8, d_reclen u16 @16, d_name @18,
//!   NUL-terminated, padded to a multiple of 8.
//!   d_off is the offset of the entry after this one.

use super::{Args, Ret, SysResult};
use crate::files::{dir_entries, FileKind};
use crate::kernel::Kernel;
use crate::process::Process;
use crate::vfs::Follow;
use crate::Errno;

/// The two record formats.
#[derive(Clone, Copy)]
enum Format {
    Dirent32,
    Dirent64,
}

impl Format {
    fn header(self) -> usize {
        match self {
            Format::Dirent32 => 10,
            Format::Dirent64 => 18,
        }
    }

    fn align(self) -> usize {
        match self {
            Format::Dirent32 => 4,
            Format::Dirent64 => 8,
        }
    }

    fn record(self, name: &[u8], ino: u64, next_off: u64) -> Vec<u8> {
        let len = (self.header() + name.len() + 1).next_multiple_of(self.align());
        let mut r = vec![0u8; len];
        match self {
            Format::Dirent32 => {
                r[0..4].copy_from_slice(&(ino as u32).to_be_bytes());
                r[4..8].copy_from_slice(&(next_off as u32).to_be_bytes());
                r[8..10].copy_from_slice(&(len as u16).to_be_bytes());
            }
            Format::Dirent64 => {
                r[0..8].copy_from_slice(&ino.to_be_bytes());
                r[8..16].copy_from_slice(&next_off.to_be_bytes());
                r[16..18].copy_from_slice(&(len as u16).to_be_bytes());
            }
        }
        r[self.header()..self.header() + name.len()].copy_from_slice(name);
        r
    }
}

/// Fills up to `size` bytes at `buf` from the directory open on `fd`;
/// returns the bytes used and whether the end was reached.
fn read_entries(
    k: &Kernel,
    p: &mut Process,
    fd: u32,
    buf: u32,
    size: u32,
    format: Format,
) -> Result<(u32, bool), Errno> {
    let file = p.fds.get(fd)?;
    let mut f = file.borrow_mut();
    let FileKind::Dir { guest, next, .. } = &mut f.kind else {
        return Err(Errno::ENOTDIR);
    };
    let (host, _) = k.vfs.resolve("/", guest.as_bytes(), Follow::Yes)?;
    let (parent, _) = k.vfs.resolve(guest, b"..", Follow::Yes)?;
    let mut entries = dir_entries(&host, &parent)?;
    let mut extra: Vec<(Vec<u8>, u64)> = k
        .vfs
        .bind_points_in(guest)
        .into_iter()
        .filter(|n| !entries.iter().any(|(e, _)| e == n))
        .map(|n| (n, 0))
        .collect();
    if !extra.is_empty() {
        entries.append(&mut extra);
        entries[2..].sort();
    }
    // A bind point's entry in its parent is the bound directory, as stat
    // through the guest path sees it (libc's getcwd matches entries to
    // directories by inode number).
    for (name, ino) in entries.iter_mut().skip(2) {
        let mut path = guest.clone().into_bytes();
        path.push(b'/');
        path.extend_from_slice(name);
        if let Ok(m) = k
            .vfs
            .resolve("/", &path, Follow::No)
            .and_then(|(h, _)| std::fs::symlink_metadata(h).map_err(|_| Errno::ENOENT))
        {
            *ino = std::os::unix::fs::MetadataExt::ino(&m);
        }
    }
    let mut out = Vec::new();
    let mut index = *next as usize;
    while let Some((name, ino)) = entries.get(index) {
        let rec = format.record(name, *ino, index as u64 + 1);
        if out.len() + rec.len() > size as usize {
            if out.is_empty() {
                return Err(Errno::EINVAL);
            }
            break;
        }
        out.extend(rec);
        index += 1;
    }
    p.mem.write_bytes(buf, &out)?;
    *next = index as u64;
    Ok((out.len() as u32, index >= entries.len()))
}

/// getdents(fd, buf, nbytes): bytes placed, 0 at the end of the directory.
pub fn getdents(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (n, _) = read_entries(k, p, a.fd(0), a.ptr(1), a.size(2), Format::Dirent32)?;
    Ok(Ret::Val(n))
}

/// ngetdents64(fd, buf, nbytes, eof): as getdents with 64-bit records;
/// also stores 1 in the int at `eof` (when not NULL) once the last entry has
/// been returned, else 0.
pub fn ngetdents64(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (n, at_end) = read_entries(k, p, a.fd(0), a.ptr(1), a.size(2), Format::Dirent64)?;
    let eof = a.ptr(3);
    if eof != 0 {
        p.mem.write_u32(eof, at_end as u32)?;
    }
    Ok(Ret::Val(n))
}
