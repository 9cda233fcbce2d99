//! File-system information: statvfs(2) and fstatvfs, and SVR4's older
//! statfs(2) and fstatfs.
//!
//! The figures are the host file system's (its size and free space, so
//! they vary from host to host as inode numbers and times do), scaled so
//! the 32-bit counts hold them: when a count passes 2^32 - 1, the fragment
//! size doubles and the counts halve. Every file is on SGI's EFS as stat's
//! st_fstype says. The private devices are a read-only file system.
//!
//! Layouts (big-endian, o32; docs/abi.md):
//! - `struct statvfs`, 156 bytes: f_bsize@0, f_frsize@4, f_blocks@8,
//!   f_bfree@12, f_bavail@16, f_files@20, f_ffree@24, f_favail@28,
//!   f_fsid@32, f_basetype[16]@36, f_flag@52, f_namemax@56, f_fstr[32]@60,
//!   f_filler[16]@92 (IRIX 5.3's <sys/statvfs.h>, statvfs(2)).
//! - `struct statfs`, 40 bytes: f_fstyp (short)@0, f_bsize@4, f_frsize@8,
//!   f_blocks@12, f_bfree@16, f_files@20, f_ffree@24, f_fname[6]@28,
//!   f_fpack[6]@34 (statfs(2); Linux's sysirix.c irix_statfs agrees).

use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;

use super::stat::{svr4_dev, FSTYPE};
use super::{Args, Ret, SysResult};
use crate::abi::limits::PATH_MAX;
use crate::files::{io_errno, FileKind};
use crate::kernel::Kernel;
use crate::process::Process;
use crate::vfs::{Follow, Mount};
use crate::Errno;

/// statvfs's f_flag bits.
const ST_RDONLY: u32 = 0x01;
const ST_NOSUID: u32 = 0x02;
const ST_NOTRUNC: u32 = 0x04;
const ST_LOCAL: u32 = 0x8000_0000;
/// The longest file name (<limits.h> NAME_MAX).
const NAME_MAX: u32 = 255;
/// Bytes of `struct statvfs` and `struct statfs`.
const STATVFS_SIZE: usize = 156;
const STATFS_SIZE: usize = 40;
/// The file system types a guest can meet, in the order sysfs(2) numbers
/// them from 1 (the index statfs reports in f_fstyp): the root and the
/// binds are EFS, pipes fifofs and the semaphore devices specfs.
const FS_TYPES: [&[u8]; 3] = [FSTYPE, b"fifofs", b"specfs"];

/// sysfs(2)'s opcodes and FSTYPSZ (<sys/fstyp.h>, SVR4's values).
const GETFSIND: u32 = 1;
const GETFSTYP: u32 = 2;
const GETNFSTYP: u32 = 3;
const FSTYPSZ: usize = 16;

/// A type's sysfs index, from 1.
fn fs_index(basetype: &[u8]) -> Option<u16> {
    let at = FS_TYPES.iter().position(|t| *t == basetype)?;
    Some(at as u16 + 1)
}

/// What statvfs and statfs report of one file system.
#[derive(Debug, Default, PartialEq, Eq)]
struct FsInfo {
    bsize: u32,
    frsize: u32,
    blocks: u32,
    bfree: u32,
    bavail: u32,
    files: u32,
    ffree: u32,
    favail: u32,
    fsid: u32,
    basetype: &'static [u8],
    flag: u32,
}

impl FsInfo {
    /// The host's figures for the file system of `host_fd`, whose device
    /// is `dev`; `read_only` for the private devices.
    fn from_host(s: &libc::statvfs, dev: u64, read_only: bool) -> FsInfo {
        let mut frsize = if s.f_frsize > 0 {
            wide(s.f_frsize)
        } else {
            wide(s.f_bsize)
        };
        let (mut blocks, mut bfree, mut bavail) =
            (wide(s.f_blocks), wide(s.f_bfree), wide(s.f_bavail));
        while blocks > u64::from(u32::MAX) {
            frsize *= 2;
            blocks /= 2;
            bfree /= 2;
            bavail /= 2;
        }
        let count = |n: u64| n.min(u64::from(u32::MAX)) as u32;
        let mut flag = ST_NOTRUNC | ST_LOCAL;
        if read_only || s.f_flag & libc::ST_RDONLY != 0 {
            flag |= ST_RDONLY;
        }
        if s.f_flag & libc::ST_NOSUID != 0 {
            flag |= ST_NOSUID;
        }
        FsInfo {
            bsize: count(wide(s.f_bsize)),
            frsize: count(frsize),
            blocks: blocks as u32,
            bfree: bfree as u32,
            bavail: bavail as u32,
            files: count(wide(s.f_files)),
            ffree: count(wide(s.f_ffree)),
            favail: count(wide(s.f_favail)),
            fsid: svr4_dev(dev),
            basetype: FSTYPE,
            flag,
        }
    }

    /// A kernel object's file system with no storage of its own: pipes
    /// (SVR4's fifofs) and the semaphore devices (specfs).
    fn kernel(basetype: &'static [u8]) -> FsInfo {
        FsInfo {
            bsize: crate::abi::limits::PAGE_SIZE,
            frsize: crate::abi::limits::PAGE_SIZE,
            basetype,
            flag: ST_NOTRUNC | ST_LOCAL,
            ..FsInfo::default()
        }
    }

    fn statvfs(&self) -> [u8; STATVFS_SIZE] {
        let mut b = [0u8; STATVFS_SIZE];
        let words = [
            self.bsize,
            self.frsize,
            self.blocks,
            self.bfree,
            self.bavail,
            self.files,
            self.ffree,
            self.favail,
            self.fsid,
        ];
        for (i, w) in words.iter().enumerate() {
            b[4 * i..4 * i + 4].copy_from_slice(&w.to_be_bytes());
        }
        b[36..36 + self.basetype.len()].copy_from_slice(self.basetype);
        b[52..56].copy_from_slice(&self.flag.to_be_bytes());
        b[56..60].copy_from_slice(&NAME_MAX.to_be_bytes());
        b
    }

    fn statfs(&self) -> [u8; STATFS_SIZE] {
        let mut b = [0u8; STATFS_SIZE];
        let fstyp = fs_index(self.basetype).unwrap_or(0);
        b[0..2].copy_from_slice(&fstyp.to_be_bytes());
        let words = [
            self.frsize,
            self.frsize,
            self.blocks,
            self.bfree,
            self.files,
            self.ffree,
        ];
        for (i, w) in words.iter().enumerate() {
            b[4 + 4 * i..8 + 4 * i].copy_from_slice(&w.to_be_bytes());
        }
        b
    }
}

/// A host count as 64 bits, whatever width the host's libc gives it.
fn wide<T: Into<u64>>(v: T) -> u64 {
    v.into()
}

/// The host's statvfs of a path or an open descriptor.
fn host_statvfs(target: Result<&std::path::Path, &std::fs::File>) -> Result<libc::statvfs, Errno> {
    // SAFETY: an all-zero statvfs is a valid value of this plain C struct.
    let mut s: libc::statvfs = unsafe { std::mem::zeroed() };
    let r = match target {
        Ok(path) => {
            let c =
                std::ffi::CString::new(path.as_os_str().as_bytes()).map_err(|_| Errno::EINVAL)?;
            // SAFETY: a valid path and a statvfs to fill.
            unsafe { libc::statvfs(c.as_ptr(), &mut s) }
        }
        // SAFETY: a descriptor the File owns and a statvfs to fill.
        Err(file) => unsafe { libc::fstatvfs(file.as_raw_fd(), &mut s) },
    };
    if r != 0 {
        return Err(io_errno(&std::io::Error::last_os_error()));
    }
    Ok(s)
}

/// The file system holding the guest path at `addr`.
fn path_info(k: &Kernel, p: &Process, addr: u32) -> Result<FsInfo, Errno> {
    let path = p.mem.read_cstr(addr, PATH_MAX)?;
    let (host, guest) = k.vfs.resolve(&p.cwd, &path, Follow::Yes)?;
    let meta = std::fs::metadata(&host).map_err(|e| io_errno(&e))?;
    let s = host_statvfs(Ok(&host))?;
    let read_only = k.vfs.mount_of(&guest) == Mount::Devices;
    Ok(FsInfo::from_host(&s, meta.dev(), read_only))
}

/// The file system holding the file open on `fd`.
fn fd_info(p: &Process, fd: u32) -> Result<FsInfo, Errno> {
    let file = p.fds.get(fd)?;
    let f = file.borrow();
    match &f.kind {
        FileKind::Host(h) | FileKind::Device(h) | FileKind::Dir { file: h, .. } => {
            let meta = h.metadata().map_err(|e| io_errno(&e))?;
            let s = host_statvfs(Err(h))?;
            Ok(FsInfo::from_host(&s, meta.dev(), false))
        }
        FileKind::PipeRead(_) | FileKind::PipeWrite(_) => Ok(FsInfo::kernel(b"fifofs")),
        FileKind::Usema(_) | FileKind::Socket(_) => Ok(FsInfo::kernel(b"specfs")),
    }
}

/// statvfs(path, buf): the file system holding path.
pub fn statvfs(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let info = path_info(k, p, a.ptr(0))?;
    p.mem.write_bytes(a.ptr(1), &info.statvfs())?;
    Ok(Ret::Val(0))
}

/// fstatvfs(fd, buf): the file system holding the open file.
pub fn fstatvfs(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let info = fd_info(p, a.fd(0))?;
    p.mem.write_bytes(a.ptr(1), &info.statvfs())?;
    Ok(Ret::Val(0))
}

/// statfs(2)'s len and fstyp: EINVAL for a len below 0 or above the
/// structure, or a non-zero fstyp (which names an unmounted file system on
/// a block device; the guest has none).
fn statfs_len(a: &Args) -> Result<usize, Errno> {
    let len = a.int(2);
    if len < 0 || len as usize > STATFS_SIZE || a.word(3) != 0 {
        return Err(Errno::EINVAL);
    }
    Ok(len as usize)
}

/// statfs(path, buf, len, fstyp): the first len bytes of `struct statfs`.
pub fn statfs(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let len = statfs_len(a)?;
    let info = path_info(k, p, a.ptr(0))?;
    p.mem.write_bytes(a.ptr(1), &info.statfs()[..len])?;
    Ok(Ret::Val(0))
}

/// fstatfs(fd, buf, len, fstyp): statfs of an open file.
pub fn fstatfs(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let len = statfs_len(a)?;
    let info = fd_info(p, a.fd(0))?;
    p.mem.write_bytes(a.ptr(1), &info.statfs()[..len])?;
    Ok(Ret::Val(0))
}

/// sysfs(GETFSIND, fsname), sysfs(GETFSTYP, fs_index, buf),
/// sysfs(GETNFSTYP): the file system types of `FS_TYPES` (sysfs(2)):
/// "EINVAL fsname points to an invalid file-system identifier; fs_index is
/// zero, or invalid; opcode is invalid. EFAULT buf or fsname points to an
/// invalid user address."
pub fn sysfs(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    match a.word(0) {
        GETFSIND => {
            // A name too long for any type is no type's name.
            let name = p.mem.read_cstr(a.ptr(1), FSTYPSZ).map_err(|e| match e {
                Errno::ENAMETOOLONG => Errno::EINVAL,
                e => e,
            })?;
            fs_index(&name).map_or(Err(Errno::EINVAL), |i| Ok(Ret::Val(i.into())))
        }
        GETFSTYP => {
            let index = a.word(1) as usize;
            let name = index
                .checked_sub(1)
                .and_then(|i| FS_TYPES.get(i))
                .ok_or(Errno::EINVAL)?;
            let mut buf = name.to_vec();
            buf.push(0);
            p.mem.write_bytes(a.ptr(2), &buf)?;
            Ok(Ret::Val(0))
        }
        GETNFSTYP => Ok(Ret::Val(FS_TYPES.len() as u32)),
        _ => Err(Errno::EINVAL),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_past_32_bits_double_the_fragment_size_instead_of_wrapping() {
        // SAFETY: an all-zero statvfs is a valid value.
        let mut s: libc::statvfs = unsafe { std::mem::zeroed() };
        s.f_bsize = 4096;
        s.f_frsize = 4096;
        s.f_blocks = 3 << 32;
        s.f_bfree = 1 << 32;
        s.f_bavail = 1 << 31;
        let info = FsInfo::from_host(&s, 0, true);
        assert_eq!(info.frsize, 4096 * 4);
        assert_eq!(info.blocks, 3 << 30);
        assert_eq!(info.bfree, 1 << 30);
        assert_eq!(info.bavail, 1 << 29);
        assert_eq!(info.flag, ST_RDONLY | ST_NOTRUNC | ST_LOCAL);
    }

    #[test]
    fn statfs_puts_the_type_first_and_the_counts_after_a_pad() {
        let info = FsInfo {
            frsize: 512,
            blocks: 7,
            basetype: FSTYPE,
            ..FsInfo::default()
        };
        let b = info.statfs();
        assert_eq!(&b[0..2], &1u16.to_be_bytes());
        assert_eq!(&b[4..8], &512u32.to_be_bytes());
        assert_eq!(&b[12..16], &7u32.to_be_bytes());
    }
}
