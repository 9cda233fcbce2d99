//! stat(2), lstat(2) and fstat(2) as IRIX's libc calls them: xstat,
//! lxstat and fxstat with a version number naming the struct to fill.
//!
//! Layouts (big-endian, o32; docs/abi.md):
//! - version 2, `struct stat`, 136 bytes: st_dev@0, st_pad1[3], st_ino@16,
//!   st_mode@20, st_nlink@24, st_uid@28, st_gid@32, st_rdev@36,
//!   st_pad2[2], st_size@48, st_pad3, st_atim@56 (sec, nsec), st_mtim@64,
//!   st_ctim@72, st_blksize@80, st_blocks@84, st_fstype[16]@88,
//!   st_projid@104, st_pad4[7].
//! - version 3, `struct stat64` (stat64(2), lstat64, fstat64), 152 bytes:
//!   st_dev@0, st_pad1[3], st_ino (64-bit)@16, st_mode@24, st_nlink@28,
//!   st_uid@32, st_gid@36, st_rdev@40, st_pad2[2], st_size (64-bit)@56,
//!   st_pad3@64, st_atim@68, st_mtim@76, st_ctim@84, st_blksize@92,
//!   st_blocks (64-bit)@96, st_fstype[16]@104, st_projid@120, st_pad4[7].
//!
//! Sources: NetBSD sys/compat/irix/irix_types.h (struct irix_stat,
//! struct irix_stat64, the version numbers _STAT_VER 2, _STAT64_VER 3) and
//! Linux's arch/mips/kernel/sysirix.c (irix_xstat32_xlate,
//! irix_xstat64_xlate), which agree on every offset.

use std::fs::Metadata;
use std::os::unix::fs::MetadataExt;

use super::{owner, Args, Ret, SysResult};
use crate::abi::flags::{STAT64_VER, STAT_VER_O32};
use crate::files::{io_errno, FileKind};
use crate::kernel::Kernel;
use crate::process::Process;
use crate::vfs::Follow;
use crate::Errno;

/// The fields of a stat structure, whichever version holds them.
#[derive(Clone, Debug, Default)]
pub struct Stat {
    pub dev: u32,
    pub ino: u64,
    pub mode: u32,
    pub nlink: u32,
    pub uid: u32,
    pub gid: u32,
    pub rdev: u32,
    pub size: u64,
    /// (seconds, nanoseconds) of the last access, change and status change.
    pub atime: (u32, u32),
    pub mtime: (u32, u32),
    pub ctime: (u32, u32),
    pub blksize: u32,
    pub blocks: u64,
}

/// An SVR4 dev_t: major << 18 | minor (the encoding sysirix.c used).
pub fn svr4_dev(d: u64) -> u32 {
    (((d >> 8) & 0x3fff) << 18 | (d & 0xff)) as u32
}

/// The file system type stat names (st_fstype) and statvfs's f_basetype:
/// every guest file is on one kind, SGI's EFS.
pub const FSTYPE: &[u8] = b"efs";

impl Stat {
    /// A host file's status, its owner as the guest sees it ([`owner`]).
    pub fn of(m: &Metadata) -> Stat {
        let (uid, gid) = owner::guest_ids(m);
        Stat {
            dev: svr4_dev(m.dev()),
            ino: m.ino(),
            mode: m.mode(),
            nlink: m.nlink() as u32,
            uid,
            gid,
            rdev: svr4_dev(m.rdev()),
            size: m.size(),
            atime: (m.atime() as u32, m.atime_nsec() as u32),
            mtime: (m.mtime() as u32, m.mtime_nsec() as u32),
            ctime: (m.ctime() as u32, m.ctime_nsec() as u32),
            blksize: m.blksize() as u32,
            blocks: m.blocks(),
        }
    }

    /// The structure `version` names: EINVAL for an unknown version,
    /// EOVERFLOW when the size does not fit version 2's 32-bit st_size.
    pub fn encode(&self, version: u32) -> Result<Vec<u8>, Errno> {
        let put =
            |b: &mut [u8], off: usize, v: u32| b[off..off + 4].copy_from_slice(&v.to_be_bytes());
        let put64 =
            |b: &mut [u8], off: usize, v: u64| b[off..off + 8].copy_from_slice(&v.to_be_bytes());
        let times = |b: &mut [u8], off: usize| {
            for (i, (s, ns)) in [self.atime, self.mtime, self.ctime].into_iter().enumerate() {
                put(b, off + 8 * i, s);
                put(b, off + 8 * i + 4, ns);
            }
        };
        match version {
            STAT_VER_O32 => {
                if self.size > i32::MAX as u64 {
                    return Err(Errno::EOVERFLOW);
                }
                let mut b = vec![0u8; 136];
                put(&mut b, 0, self.dev);
                put(&mut b, 16, self.ino as u32);
                put(&mut b, 20, self.mode);
                put(&mut b, 24, self.nlink);
                put(&mut b, 28, self.uid);
                put(&mut b, 32, self.gid);
                put(&mut b, 36, self.rdev);
                put(&mut b, 48, self.size as u32);
                times(&mut b, 56);
                put(&mut b, 80, self.blksize);
                put(&mut b, 84, self.blocks as u32);
                b[88..88 + FSTYPE.len()].copy_from_slice(FSTYPE);
                Ok(b)
            }
            STAT64_VER => {
                let mut b = vec![0u8; 152];
                put(&mut b, 0, self.dev);
                put64(&mut b, 16, self.ino);
                put(&mut b, 24, self.mode);
                put(&mut b, 28, self.nlink);
                put(&mut b, 32, self.uid);
                put(&mut b, 36, self.gid);
                put(&mut b, 40, self.rdev);
                put64(&mut b, 56, self.size);
                times(&mut b, 68);
                put(&mut b, 92, self.blksize);
                put64(&mut b, 96, self.blocks);
                b[104..104 + FSTYPE.len()].copy_from_slice(FSTYPE);
                Ok(b)
            }
            _ => Err(Errno::EINVAL),
        }
    }
}

/// Stores `stat` at `buf` as `version` lays it out.
fn store(p: &mut Process, version: u32, stat: Result<Stat, Errno>, buf: u32) -> SysResult {
    // An unknown version is EINVAL whatever the file.
    Stat::default().encode(version)?;
    let bytes = stat?.encode(version)?;
    p.mem.write_bytes(buf, &bytes)?;
    Ok(Ret::Val(0))
}

fn path_stat(k: &Kernel, p: &Process, addr: u32, follow: Follow) -> Result<Stat, Errno> {
    let path = p.mem.read_cstr(addr, crate::abi::limits::PATH_MAX)?;
    let (host, _) = k.vfs.resolve(&p.cwd, &path, follow)?;
    let meta = match follow {
        Follow::Yes => std::fs::metadata(host),
        Follow::No => std::fs::symlink_metadata(host),
    };
    meta.map(|m| Stat::of(&m)).map_err(|e| io_errno(&e))
}

/// xstat(version, path, buf): stat(2), following links.
pub fn xstat(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let stat = path_stat(k, p, a.ptr(1), Follow::Yes);
    store(p, a.word(0), stat, a.ptr(2))
}

/// lxstat(version, path, buf): lstat(2), the link itself.
pub fn lxstat(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let stat = path_stat(k, p, a.ptr(1), Follow::No);
    store(p, a.word(0), stat, a.ptr(2))
}

/// fxstat(version, fd, buf): fstat(2). A pipe reports a FIFO owned by the
/// guest with its capacity as st_blksize; a semaphore device a character
/// device with its number in st_rdev and st_ino.
pub fn fxstat(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let stat = open_file_stat(p, a.fd(1));
    store(p, a.word(0), stat, a.ptr(2))
}

/// The status of the file open on `fd`.
pub fn open_file_stat(p: &Process, fd: u32) -> Result<Stat, Errno> {
    let file = p.fds.get(fd)?;
    let f = file.borrow();
    if let Some(m) = f.metadata() {
        return Ok(Stat::of(&m));
    }
    let mut s = Stat {
        nlink: 1,
        uid: crate::identity::GUEST_UID,
        gid: crate::identity::GUEST_GID,
        ..Stat::default()
    };
    match &f.kind {
        FileKind::Usema(sema) => {
            let dev = sema
                .as_ref()
                .map_or(crate::usema::USEMA_MAJOR << 18, |s| s.dev());
            s.mode = 0o020600;
            s.ino = u64::from(dev & 0x3ffff);
            s.rdev = dev;
        }
        FileKind::Socket(_) => {
            s.mode = 0o140777;
            s.blksize = crate::pipe::PIPE_CAPACITY as u32;
        }
        _ => {
            s.mode = 0o010600;
            s.blksize = crate::pipe::PIPE_CAPACITY as u32;
        }
    }
    Ok(s)
}
