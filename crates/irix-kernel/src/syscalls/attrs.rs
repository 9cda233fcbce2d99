//! A file's attributes other than its mode: size (truncate, ftruncate and
//! their 64-bit forms), times (utime), owner (chown, lchown, fchown; the
//! rules are in `owner.rs`), and its data's way to the disk (fsync, sync).

use std::fs::{self, OpenOptions};
use std::os::unix::ffi::OsStrExt;

use super::fs::changing;
use super::owner::{self, Target};
use super::paths::place;
use super::{Args, Ret, SysResult};
use crate::files::{io_errno, oflag, FileKind, OpenFile};
use crate::kernel::Kernel;
use crate::process::Process;
use crate::vfs::Follow;
use crate::Errno;

/// Sets the size of the regular file open as `f` (its MAP_SHARED pages
/// kept in step). EINVAL for a negative length or a file that is not
/// regular.
fn set_size(k: &mut Kernel, f: &OpenFile, length: i64) -> Result<(), Errno> {
    let pages = k.mapped_pages(f);
    let FileKind::Host(host) = &f.kind else {
        return Err(Errno::EINVAL);
    };
    if length < 0 || !host.metadata().is_ok_and(|m| m.is_file()) {
        return Err(Errno::EINVAL);
    }
    changing(pages, || host.set_len(length as u64)).map_err(|e| io_errno(&e))
}

/// ftruncate(fd, length) and ftruncate64: truncate(2): "for ftruncate the
/// file must be open for writing" (EBADF); EINVAL for a negative length or
/// a descriptor that is no regular file. (The pc-sampling runtime
/// truncates mon.out before writing it.)
fn ftruncate_to(k: &mut Kernel, p: &mut Process, fd: u32, length: i64) -> SysResult {
    let file = p.fds.get(fd)?;
    let f = file.borrow();
    if f.flags & oflag::O_ACCMODE == oflag::O_RDONLY {
        return Err(Errno::EBADF);
    }
    super::rlimit::check_file_size(p, length.max(0) as u64)?;
    set_size(k, &f, length)?;
    Ok(Ret::Val(0))
}

pub fn ftruncate(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    ftruncate_to(k, p, a.fd(0), i64::from(a.int(1)))
}

/// ftruncate64(fd, pad, hi, lo): the length as an aligned register pair.
pub fn ftruncate64(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    ftruncate_to(k, p, a.fd(0), a.u64_pair(2) as i64)
}

/// truncate(path, length) and truncate64: truncate(2): the caller needs
/// write permission (EACCES); EISDIR for a directory, EINVAL for a file
/// that is not ordinary or a negative length.
fn truncate_to(k: &mut Kernel, p: &mut Process, path: u32, length: i64) -> SysResult {
    let at = place(k, p, path, Follow::Yes)?;
    let meta = fs::metadata(&at.host).map_err(|e| io_errno(&e))?;
    if meta.is_dir() {
        return Err(Errno::EISDIR);
    }
    if !meta.is_file() || length < 0 {
        return Err(Errno::EINVAL);
    }
    at.writable()?;
    super::rlimit::check_file_size(p, length as u64)?;
    let file = OpenOptions::new()
        .write(true)
        .open(&at.host)
        .map_err(|e| io_errno(&e))?;
    set_size(k, &OpenFile::host(file, oflag::O_WRONLY), length)?;
    Ok(Ret::Val(0))
}

pub fn truncate(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    truncate_to(k, p, a.ptr(0), i64::from(a.int(1)))
}

/// truncate64(path, pad, hi, lo).
pub fn truncate64(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    truncate_to(k, p, a.ptr(0), a.u64_pair(2) as i64)
}

/// Whether the user running irix-emu may write the host file.
fn host_writable(host: &std::path::Path) -> bool {
    let Ok(c) = std::ffi::CString::new(host.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: a valid NUL-terminated path; access reads it only.
    unsafe { libc::access(c.as_ptr(), libc::W_OK) == 0 }
}

/// utime(path, times): sets the access and modification times. utime(2):
/// with times NULL, to the current time (the virtual wall clock), which
/// the owner or a writer may do (EACCES otherwise); with a `struct
/// utimbuf { time_t actime; time_t modtime; }` (two 32-bit words), to its
/// values, which only the owner may do (EPERM).
pub fn utime(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let at = place(k, p, a.ptr(0), Follow::Yes)?;
    let meta = fs::metadata(&at.host).map_err(|e| io_errno(&e))?;
    let owner = owner::owns(&meta);
    let times = if a.ptr(1) == 0 {
        if !owner && !host_writable(&at.host) {
            return Err(Errno::EACCES);
        }
        let (sec, usec) = k.wall_time();
        let now = (i64::from(sec), i64::from(usec) * 1000);
        [now, now]
    } else {
        let actime = p.mem.read_u32(a.ptr(1))? as i32;
        let modtime = p.mem.read_u32(a.ptr(1).wrapping_add(4))? as i32;
        if !owner {
            return Err(Errno::EPERM);
        }
        [(i64::from(actime), 0), (i64::from(modtime), 0)]
    };
    at.writable()?;
    let ts = times.map(|(sec, nsec)| libc::timespec {
        tv_sec: sec as libc::time_t,
        tv_nsec: nsec as _,
    });
    let c = std::ffi::CString::new(at.host.as_os_str().as_bytes()).map_err(|_| Errno::EINVAL)?;
    // SAFETY: a valid path and two timespecs; utimensat reads them only.
    // The path was resolved in the guest's view, so its last component is
    // no link: NOFOLLOW keeps a link swapped in meanwhile from leading out.
    let r = unsafe {
        libc::utimensat(
            libc::AT_FDCWD,
            c.as_ptr(),
            ts.as_ptr(),
            libc::AT_SYMLINK_NOFOLLOW,
        )
    };
    if r != 0 {
        return Err(io_errno(&std::io::Error::last_os_error()));
    }
    Ok(Ret::Val(0))
}

/// chown and lchown: the file at `path`, its final link followed or not.
fn chown_path(k: &mut Kernel, p: &mut Process, a: &Args, follow: Follow) -> SysResult {
    let at = place(k, p, a.ptr(0), follow)?;
    let meta = match follow {
        Follow::Yes => fs::metadata(&at.host),
        Follow::No => fs::symlink_metadata(&at.host),
    }
    .map_err(|e| io_errno(&e))?;
    let what = owner::check_chown(owner::guest_ids(&meta), a.word(1), a.word(2))?;
    at.writable()?;
    owner::apply_chown(Target::Path(&at.host), &meta, what)?;
    Ok(Ret::Val(0))
}

/// chown(path, owner, group): see `owner.rs` for what the guest may do.
pub fn chown(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    chown_path(k, p, a, Follow::Yes)
}

/// lchown(path, owner, group): chown(2): "lchown differs from chown in
/// that it does not follow symbolic links".
pub fn lchown(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    chown_path(k, p, a, Follow::No)
}

/// fchown(fd, owner, group). A pipe or semaphore device belongs to the
/// guest and has no host file: the checks alone decide.
pub fn fchown(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let file = p.fds.get(a.fd(0))?;
    let f = file.borrow();
    let (owner, group) = (a.word(1), a.word(2));
    match &f.kind {
        FileKind::Host(host) | FileKind::Device(host) | FileKind::Dir { file: host, .. } => {
            let meta = host.metadata().map_err(|e| io_errno(&e))?;
            let what = owner::check_chown(owner::guest_ids(&meta), owner, group)?;
            // A terminal or stream passed through from the host keeps its
            // mode: only files of the guest's view have set-ID bits to clear.
            if meta.is_file() || meta.is_dir() || what == owner::Chown::ToGuestGroup {
                owner::apply_chown(Target::File(host), &meta, what)?;
            }
        }
        FileKind::PipeRead(_)
        | FileKind::PipeWrite(_)
        | FileKind::Usema(_)
        | FileKind::Socket(_) => {
            let ids = (crate::identity::GUEST_UID, crate::identity::GUEST_GID);
            owner::check_chown(ids, owner, group)?;
        }
    }
    Ok(Ret::Val(0))
}

/// fsync(fd): fsync(2): "EBADF fildes is not a valid file descriptor open
/// for writing". A regular file's data (its MAP_SHARED pages first) goes
/// to the host's storage before the call returns; a pipe, FIFO or terminal
/// holds nothing to write.
pub fn fsync(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let file = p.fds.get(a.fd(0))?;
    let f = file.borrow();
    if f.flags & oflag::O_ACCMODE == oflag::O_RDONLY {
        return Err(Errno::EBADF);
    }
    if let Some(pages) = k.mapped_pages(&f) {
        pages.sync_all();
    }
    if let FileKind::Host(host) = &f.kind {
        if host.metadata().is_ok_and(|m| m.is_file()) {
            host.sync_all().map_err(|e| io_errno(&e))?;
        }
    }
    Ok(Ret::Val(0))
}

/// sync(): sync(2) schedules every modified buffer for writing. irix-emu
/// holds a file's data only in MAP_SHARED mappings, so their dirty pages
/// go to their files; the host's own cache is the host's to write.
pub fn sync(k: &mut Kernel, _p: &mut Process, _a: &Args) -> SysResult {
    k.shared_files.sync_all();
    Ok(Ret::Val(0))
}
