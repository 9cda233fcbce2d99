//! Calls that change the name space: mkdir, rmdir, rename, symlink,
//! readlink, xmknod (mknod and mkfifo), and the directory calls fchdir and
//! chroot.
//!
//! Every name is resolved in the guest's view (`vfs.rs`), so a symbolic
//! link's text is stored as the guest wrote it and is only ever followed
//! there: an absolute target restarts at the guest root, never the host's.
//! Each bind is a file system of its own, as a mount is: a name never
//! moves from one to another (rename, link: EXDEV), a bind point or the
//! root cannot be removed or renamed (EBUSY), and the private devices a
//! root without /dev gets are read-only (EROFS).

use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::PathBuf;

use super::{Args, Ret, SysResult};
use crate::abi::limits::PATH_MAX;
use crate::files::{io_errno, FileKind};
use crate::kernel::Kernel;
use crate::process::Process;
use crate::vfs::{Follow, Mount};
use crate::Errno;

/// A guest path resolved for a change.
pub(super) struct Place {
    pub host: PathBuf,
    pub guest: String,
    pub mount: Mount,
    /// The last component as the guest wrote it: `.` and `..` may not be
    /// removed or renamed.
    dot: bool,
}

impl Place {
    /// EROFS on the read-only private devices.
    pub fn writable(&self) -> Result<(), Errno> {
        if self.mount == Mount::Devices {
            return Err(Errno::EROFS);
        }
        Ok(())
    }

    pub fn exists(&self) -> bool {
        std::fs::symlink_metadata(&self.host).is_ok()
    }
}

/// Resolves the guest path at `addr` for a change of the name space.
pub(super) fn place(k: &Kernel, p: &Process, addr: u32, follow: Follow) -> Result<Place, Errno> {
    let path = p.mem.read_cstr(addr, PATH_MAX)?;
    place_bytes(k, p, &path, follow)
}

/// As `place`, for a path already read (a socket address's).
pub(super) fn place_bytes(
    k: &Kernel,
    p: &Process,
    path: &[u8],
    follow: Follow,
) -> Result<Place, Errno> {
    let (host, guest) = k.vfs.resolve(&p.cwd, path, follow)?;
    let last = path.split(|&b| b == b'/').rfind(|c| !c.is_empty());
    Ok(Place {
        host,
        mount: k.vfs.mount_of(&guest),
        guest,
        dot: matches!(last, Some(b".") | Some(b"..")),
    })
}

/// The permission bits a new file gets: `mode` less the umask.
fn creation_mode(p: &Process, mode: u32) -> std::fs::Permissions {
    std::fs::Permissions::from_mode(mode & 0o7777 & !p.umask)
}

/// mkdir(path, mode): a new, empty directory with mode's permission bits
/// (0777) less the umask. EEXIST when the name exists, even as a dangling
/// symbolic link (the last component is not followed).
pub fn mkdir(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let at = place(k, p, a.ptr(0), Follow::No)?;
    if at.exists() {
        return Err(Errno::EEXIST);
    }
    at.writable()?;
    std::fs::create_dir(&at.host).map_err(|e| io_errno(&e))?;
    // The host's umask applied too: set the bits the guest asked for.
    std::fs::set_permissions(&at.host, creation_mode(p, a.word(1) & 0o777))
        .map_err(|e| io_errno(&e))?;
    Ok(Ret::Val(0))
}

/// rmdir(path): removes an empty directory. rmdir(2): "If path is a
/// symbolic link, it is not followed" (ENOTDIR); EEXIST for a directory
/// with entries; EINVAL for `.` or the current directory; EBUSY for a
/// mount point (a bind point, the root).
pub fn rmdir(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let at = place(k, p, a.ptr(0), Follow::No)?;
    if at.dot || at.guest == p.cwd {
        return Err(Errno::EINVAL);
    }
    at.writable()?;
    if k.vfs.holds_mount_point(&at.guest) {
        return Err(Errno::EBUSY);
    }
    std::fs::remove_dir(&at.host).map_err(|e| not_empty_is_eexist(&e))?;
    Ok(Ret::Val(0))
}

/// rmdir(2) and rename(2) name a directory with entries EEXIST.
fn not_empty_is_eexist(e: &std::io::Error) -> Errno {
    match io_errno(e) {
        Errno::ENOTEMPTY => Errno::EEXIST,
        other => other,
    }
}

/// rename(old, new). rename(2): "If the final component of old is a
/// symbolic link, the symbolic link is renamed"; both must be on one file
/// system (EXDEV across binds or between a bind and the root); EINVAL for
/// `.`, `..` or a directory into itself; EBUSY for a mount point; EEXIST
/// for a non-empty directory in the way.
pub fn rename(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let old = place(k, p, a.ptr(0), Follow::No)?;
    let new = place(k, p, a.ptr(1), Follow::No)?;
    if old.dot || new.dot {
        return Err(Errno::EINVAL);
    }
    if !old.exists() {
        return Err(Errno::ENOENT);
    }
    old.writable()?;
    new.writable()?;
    if old.mount != new.mount {
        return Err(Errno::EXDEV);
    }
    if k.vfs.holds_mount_point(&old.guest) || (new.exists() && k.vfs.holds_mount_point(&new.guest))
    {
        return Err(Errno::EBUSY);
    }
    std::fs::rename(&old.host, &new.host).map_err(|e| not_empty_is_eexist(&e))?;
    Ok(Ret::Val(0))
}

/// link(path1, path2): a second name for a file, on the same file system
/// (link(2): EXDEV otherwise); EPERM for a directory.
pub fn link(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let from = place(k, p, a.ptr(0), Follow::No)?;
    let to = place(k, p, a.ptr(1), Follow::No)?;
    if !from.exists() {
        return Err(Errno::ENOENT);
    }
    if to.exists() {
        return Err(Errno::EEXIST);
    }
    if from.mount != to.mount {
        return Err(Errno::EXDEV);
    }
    to.writable()?;
    std::fs::hard_link(&from.host, &to.host).map_err(|e| io_errno(&e))?;
    Ok(Ret::Val(0))
}

/// symlink(name1, name2): name2 becomes a symbolic link holding name1's
/// text as given. The text is a guest path: it is followed only in the
/// guest's view (an absolute one from the guest root).
pub fn symlink(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let target = p.mem.read_cstr(a.ptr(0), PATH_MAX)?;
    let at = place(k, p, a.ptr(1), Follow::No)?;
    if at.exists() {
        return Err(Errno::EEXIST);
    }
    at.writable()?;
    std::os::unix::fs::symlink(std::ffi::OsStr::from_bytes(&target), &at.host)
        .map_err(|e| io_errno(&e))?;
    Ok(Ret::Val(0))
}

/// readlink(path, buf, bufsiz): the link's text, not NUL-terminated, cut
/// to bufsiz bytes; the count placed. EINVAL for a file that is no
/// symbolic link.
pub fn readlink(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let at = place(k, p, a.ptr(0), Follow::No)?;
    let meta = std::fs::symlink_metadata(&at.host).map_err(|e| io_errno(&e))?;
    if !meta.file_type().is_symlink() {
        return Err(Errno::EINVAL);
    }
    let text = std::fs::read_link(&at.host).map_err(|e| io_errno(&e))?;
    let text = text.as_os_str().as_bytes();
    let n = text.len().min(a.size(2) as usize);
    p.mem.write_bytes(a.ptr(1), &text[..n])?;
    Ok(Ret::Val(n as u32))
}

/// The xmknod version libc's mknod passes (_MKNOD_VER).
const MKNOD_VER: u32 = 2;
const S_IFMT: u32 = 0o170000;
const S_IFIFO: u32 = 0o010000;

/// xmknod(version, path, mode, dev): mknod(2) (mkfifo(3C) is
/// mknod(path, S_IFIFO | perms, 0)). mknod(2): "mknod may be invoked only
/// by the super-user for file types other than FIFO special": the guest
/// makes FIFOs, and a device, regular file or directory is EPERM. The FIFO
/// gets mode's permission bits less the umask.
pub fn xmknod(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    if a.word(0) != MKNOD_VER {
        return Err(Errno::EINVAL);
    }
    let mode = a.word(2);
    if mode & S_IFMT != S_IFIFO {
        return Err(Errno::EPERM);
    }
    let at = place(k, p, a.ptr(1), Follow::No)?;
    if at.exists() {
        return Err(Errno::EEXIST);
    }
    at.writable()?;
    let c = std::ffi::CString::new(at.host.as_os_str().as_bytes()).map_err(|_| Errno::EINVAL)?;
    // SAFETY: a valid NUL-terminated path; mkfifo reads it only.
    if unsafe { libc::mkfifo(c.as_ptr(), 0o600) } != 0 {
        return Err(io_errno(&std::io::Error::last_os_error()));
    }
    std::fs::set_permissions(&at.host, creation_mode(p, mode)).map_err(|e| io_errno(&e))?;
    Ok(Ret::Val(0))
}

/// fchdir(fd): the directory open on fd becomes the working directory;
/// ENOTDIR for any other file. A directory is known by the guest path it
/// was opened by: if that no longer names it (renamed or removed since),
/// ENOENT, as fchdir(2) gives for a directory that no longer exists.
pub fn fchdir(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let file = p.fds.get(a.fd(0))?;
    let f = file.borrow();
    let FileKind::Dir {
        file: dir, guest, ..
    } = &f.kind
    else {
        return Err(Errno::ENOTDIR);
    };
    let open = dir.metadata().map_err(|e| io_errno(&e))?;
    let (host, _) = k.vfs.resolve("/", guest.as_bytes(), Follow::Yes)?;
    match std::fs::metadata(host) {
        Ok(m) if m.ino() == open.ino() && m.dev() == open.dev() => {
            p.cwd = guest.clone();
            Ok(Ret::Val(0))
        }
        _ => Err(Errno::ENOENT),
    }
}

/// chroot(path): chroot(2): "The calling process must have the super-user
/// privilege to change the root directory": the guest has not, EPERM.
pub fn chroot(_k: &mut Kernel, _p: &mut Process, _a: &Args) -> SysResult {
    Err(Errno::EPERM)
}
