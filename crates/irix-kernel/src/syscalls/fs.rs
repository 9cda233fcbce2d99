//! File-system calls. Every path goes through the sandboxed resolver
//! (`vfs.rs`); every buffer through the address space's checked copies.

use std::fs::{self, OpenOptions};
use std::io::SeekFrom;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};

use super::{filelocks, paths, usema, Args, Ret, SysResult};
use crate::abi::flags::{fcntl::*, seek::*};
use crate::abi::limits::PATH_MAX;
use crate::files::{io_errno, oflag, FileKind, Io, OpenFile};
use crate::kernel::Kernel;
use crate::pipe::Pipe;
use crate::process::Process;
use crate::vfs::Follow;
use crate::Errno;

/// Largest single transfer (a guard against a guest asking for gigabytes of
/// host buffer; larger requests are transferred partially, which read(2)
/// and write(2) allow).
pub(super) const MAX_IO: u32 = 1 << 20;

fn path_arg(p: &Process, addr: u32) -> Result<Vec<u8>, Errno> {
    p.mem.read_cstr(addr, PATH_MAX)
}

fn resolve(
    k: &Kernel,
    p: &Process,
    addr: u32,
    follow: Follow,
) -> Result<std::path::PathBuf, Errno> {
    let path = path_arg(p, addr)?;
    k.vfs.resolve(&p.cwd, &path, follow).map(|(host, _)| host)
}

/// read(fd, buf, n): v0 = bytes read, 0 at end of file. A file mapped
/// MAP_SHARED has its mappings' stores written back first, so the read
/// sees them.
pub fn read(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (fd, buf, n) = (a.fd(0), a.ptr(1), a.size(2).min(MAX_IO));
    let file = p.fds.get(fd)?;
    p.mem.check_writable(buf, n)?;
    if let Some(pages) = k.mapped_pages(&file.borrow()) {
        pages.sync_all();
    }
    let mut data = vec![0; n as usize];
    let read = file.borrow_mut().read(&mut data)?;
    let got = match read {
        Io::Done(got) => got,
        Io::WouldBlock => return super::vio::would_block(&file.borrow()),
        Io::WaitHost => return Ok(Ret::WaitHost),
    };
    p.mem.write_bytes(buf, &data[..got])?;
    p.cpu.invalidate_code(buf, got as u32);
    Ok(Ret::Val(got as u32))
}

/// write(fd, buf, n): v0 = bytes written; EPIPE (and SIGPIPE) without readers.
/// The transfer goes in pieces of at most [`MAX_IO`] bytes, until all is
/// written or a piece is short (a full pipe): a regular file takes the
/// whole request, as write(2) promises (IRIX's pixie treats a short write
/// to its output file as a failure). An error after some bytes were
/// written returns their count. A file mapped MAP_SHARED keeps in step
/// with its mappings (see [`changing`]).
pub fn write(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let file = p.fds.get(a.fd(0))?;
    let total = super::rlimit::file_size_room(p, &file.borrow(), a.size(2))?;
    let pages = k.mapped_pages(&file.borrow());
    changing(pages, || write_pieces(p, &file, a.ptr(1), total))
}

/// Runs `change`, a change of a file's bytes or size, with the file's
/// mapped pages (if it is mapped MAP_SHARED) in step: their stores go to
/// the file first, and they are read from the file again after.
pub(super) fn changing<R>(
    pages: Option<std::rc::Rc<crate::memory::SharedObject>>,
    change: impl FnOnce() -> R,
) -> R {
    if let Some(pages) = &pages {
        pages.sync_all();
    }
    let r = change();
    if let Some(pages) = &pages {
        pages.invalidate();
    }
    r
}

/// write(2)'s transfer, in pieces.
fn write_pieces(
    p: &mut Process,
    file: &std::rc::Rc<std::cell::RefCell<OpenFile>>,
    buf: u32,
    total: u32,
) -> SysResult {
    let mut done = 0u32;
    loop {
        let n = (total - done).min(MAX_IO);
        let mut data = vec![0; n as usize];
        let piece = p
            .mem
            .read_bytes(buf.wrapping_add(done), &mut data)
            .and_then(|()| file.borrow_mut().write(&data));
        match piece {
            Ok(Io::Done(got)) => {
                done += got as u32;
                if got < n as usize || done >= total {
                    return Ok(Ret::Val(done));
                }
            }
            _ if done > 0 => return Ok(Ret::Val(done)),
            Ok(Io::WouldBlock) => return super::vio::would_block(&file.borrow()),
            Ok(Io::WaitHost) => return Ok(Ret::WaitHost),
            Err(Errno::EPIPE) => {
                p.signals.pending |= crate::signals::bit(crate::signals::SIGPIPE);
                return Err(Errno::EPIPE);
            }
            Err(e) => return Err(e),
        }
    }
}

/// open(path, flags, mode): the lowest free descriptor.
pub fn open(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    open_at(k, p, a.ptr(0), a.word(1), a.word(2))
}

/// creat(path, mode) = open(path, O_WRONLY|O_CREAT|O_TRUNC, mode).
pub fn creat(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    open_at(
        k,
        p,
        a.ptr(0),
        oflag::O_WRONLY | oflag::O_CREAT | oflag::O_TRUNC,
        a.word(1),
    )
}

fn open_at(k: &mut Kernel, p: &mut Process, path: u32, flags: u32, mode: u32) -> SysResult {
    let name = path_arg(p, path)?;
    let (host, guest) = k.vfs.resolve(&p.cwd, &name, Follow::Yes)?;
    if usema::is_device(&guest) {
        return usema::open(k, p, flags, guest);
    }
    let mut opts = OpenOptions::new();
    match flags & oflag::O_ACCMODE {
        oflag::O_RDONLY => opts.read(true),
        oflag::O_WRONLY => opts.write(true),
        oflag::O_RDWR => opts.read(true).write(true),
        _ => return Err(Errno::EINVAL),
    };
    if flags & oflag::O_CREAT != 0 {
        if flags & oflag::O_EXCL != 0 {
            opts.create_new(true);
        } else {
            opts.create(true);
        }
        opts.mode(mode & 0o7777 & !p.umask);
    }
    if flags & oflag::O_TRUNC != 0 {
        opts.truncate(true);
    }
    // A FIFO, device or socket is opened without blocking, so that the
    // open (a FIFO without a reader or writer) and every transfer later
    // never hold up the emulator: the caller waits in virtual time.
    let special = fs::metadata(&host).is_ok_and(|m| !m.is_file() && !m.is_dir());
    if special {
        opts.custom_flags(libc::O_NONBLOCK);
    }
    // Directories may be opened read-only (for fstat, fchdir, getdents).
    let file = match opts.open(&host) {
        Ok(file) => file,
        // A FIFO opened for writing before any reader: O_NONBLOCK callers
        // get ENXIO (open(2)); others wait for a reader.
        Err(e) if special && e.raw_os_error() == Some(libc::ENXIO) => {
            return if flags & (oflag::O_NONBLOCK | oflag::O_NDELAY) != 0 {
                Err(Errno::ENXIO)
            } else {
                Ok(Ret::WaitHost)
            };
        }
        Err(e) => return Err(io_errno(&e)),
    };
    let open = if special {
        OpenFile {
            kind: FileKind::Device(file),
            flags,
            path: None,
        }
    } else if file.metadata().is_ok_and(|m| m.is_dir()) {
        OpenFile {
            kind: FileKind::Dir {
                file,
                guest,
                next: 0,
            },
            flags,
            path: None,
        }
    } else {
        let mut open = OpenFile::host(file, flags);
        open.path = Some(guest);
        open
    };
    Ok(Ret::Val(p.fds.install(open)?))
}

pub fn close(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let file = p.fds.get(a.fd(0))?;
    k.release_locks(p.pid, &file.borrow());
    p.fds.close(a.fd(0))?;
    Ok(Ret::Val(0))
}

/// unlink(path): removes a name (a final symbolic link itself); EPERM
/// for a directory, EROFS for the private devices.
pub fn unlink(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let at = paths::place(k, p, a.ptr(0), Follow::No)?;
    if at.host.is_dir() && !at.host.is_symlink() {
        return Err(Errno::EPERM);
    }
    at.writable()?;
    fs::remove_file(at.host).map_err(|e| io_errno(&e))?;
    Ok(Ret::Val(0))
}

pub fn chdir(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let path = path_arg(p, a.ptr(0))?;
    let (host, guest) = k.vfs.resolve(&p.cwd, &path, Follow::Yes)?;
    match fs::metadata(&host) {
        Ok(m) if m.is_dir() => {
            p.cwd = guest;
            Ok(Ret::Val(0))
        }
        Ok(_) => Err(Errno::ENOTDIR),
        Err(e) => Err(io_errno(&e)),
    }
}

/// access(path, mode): F_OK 0, X_OK 1, W_OK 2, R_OK 4, checked against the
/// file's permission bits for its owner (the guest runs as the file owner).
pub fn access(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let host = resolve(k, p, a.ptr(0), Follow::Yes)?;
    let meta = fs::metadata(&host).map_err(|e| io_errno(&e))?;
    let want = a.word(1) & 7;
    let have = (meta.permissions().mode() >> 6) & 7;
    if want & !have != 0 {
        return Err(Errno::EACCES);
    }
    Ok(Ret::Val(0))
}

fn whence(offset: i64, whence: u32) -> Result<SeekFrom, Errno> {
    match whence {
        SEEK_SET if offset >= 0 => Ok(SeekFrom::Start(offset as u64)),
        SEEK_CUR => Ok(SeekFrom::Current(offset)),
        SEEK_END => Ok(SeekFrom::End(offset)),
        _ => Err(Errno::EINVAL),
    }
}

/// lseek(fd, offset, whence): EOVERFLOW if the result does not fit off_t.
pub fn lseek(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let file = p.fds.get(a.fd(0))?;
    let pos = whence(i64::from(a.int(1)), a.word(2))?;
    let new = file.borrow_mut().seek(pos)?;
    if new > i32::MAX as u64 {
        return Err(Errno::EOVERFLOW);
    }
    Ok(Ret::Val(new as u32))
}

/// lseek64(fd, pad, hi, lo, whence) (docs/abi.md): v0 = high word, v1 = low word.
pub fn lseek64(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let file = p.fds.get(a.fd(0))?;
    let offset = a.u64_pair(2) as i64;
    let pos = whence(offset, a.word(4))?;
    let new = file.borrow_mut().seek(pos)?;
    Ok(Ret::Pair((new >> 32) as u32, new as u32))
}

pub fn dup(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    Ok(Ret::Val(p.fds.dup(a.fd(0), 0)?))
}

/// pipe(): the read end in v0, the write end in v1.
pub fn pipe(_k: &mut Kernel, p: &mut Process, _a: &Args) -> SysResult {
    use crate::files::FileKind;
    use std::{cell::RefCell, rc::Rc};
    let pipe = Rc::new(RefCell::new(Pipe::new()));
    let r = p.fds.install(OpenFile {
        kind: FileKind::PipeRead(pipe.clone()),
        flags: oflag::O_RDONLY,
        path: None,
    })?;
    let w = match p.fds.install(OpenFile {
        kind: FileKind::PipeWrite(pipe),
        flags: oflag::O_WRONLY,
        path: None,
    }) {
        Ok(w) => w,
        Err(e) => {
            let _ = p.fds.close(r);
            return Err(e);
        }
    };
    Ok(Ret::Pair(r, w))
}

/// chmod(path, mode): the permission bits (07777) of the host file.
pub fn chmod(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let at = paths::place(k, p, a.ptr(0), Follow::Yes)?;
    at.writable()?;
    let host = at.host;
    let perms = fs::Permissions::from_mode(a.word(1) & 0o7777);
    fs::set_permissions(host, perms).map_err(|e| io_errno(&e))?;
    Ok(Ret::Val(0))
}

/// fchmod(fd, mode): chmod of an open file.
pub fn fchmod(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let file = p.fds.get(a.fd(0))?;
    let f = file.borrow();
    if matches!(f.kind, FileKind::Usema(_)) {
        // IRIX libc's usinit sets its semaphore device's mode and goes on
        // whatever the answer; the device has no mode to keep.
        return Ok(Ret::Val(0));
    }
    let (FileKind::Host(host) | FileKind::Dir { file: host, .. }) = &f.kind else {
        return Err(Errno::EINVAL);
    };
    let perms = fs::Permissions::from_mode(a.word(1) & 0o7777);
    host.set_permissions(perms).map_err(|e| io_errno(&e))?;
    Ok(Ret::Val(0))
}

pub fn umask(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let old = p.umask;
    p.umask = a.word(0) & 0o777;
    Ok(Ret::Val(old))
}

pub fn fcntl(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let fd = a.fd(0);
    match a.word(1) {
        F_DUPFD => Ok(Ret::Val(p.fds.dup(fd, a.word(2))?)),
        F_GETFD => Ok(Ret::Val(p.fds.close_on_exec(fd)? as u32)),
        F_SETFD => {
            p.fds.set_close_on_exec(fd, a.word(2) & 1 != 0)?;
            Ok(Ret::Val(0))
        }
        F_GETFL => Ok(Ret::Val(p.fds.get(fd)?.borrow().flags)),
        F_SETFL => {
            let file = p.fds.get(fd)?;
            let changeable = oflag::O_APPEND | oflag::O_NONBLOCK | oflag::O_NDELAY | oflag::O_SYNC;
            let mut f = file.borrow_mut();
            f.flags = (f.flags & !changeable) | (a.word(2) & changeable);
            Ok(Ret::Val(0))
        }
        F_GETLK | F_SETLK | F_SETLKW => filelocks::record_lock(k, p, a),
        F_ALLOCSP | F_FREESP => filelocks::file_space(k, p, a),
        _ => Err(Errno::EINVAL),
    }
}

/// ioctl(fd, request, arg): a semaphore device's requests (`usema`),
/// else the terminal and descriptor requests (`ioctl`).
pub fn ioctl(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let file = p.fds.get(a.fd(0))?;
    let sema = match &file.borrow().kind {
        FileKind::Usema(sema) => Some(sema.clone()),
        _ => None,
    };
    if let Some(sema) = sema {
        return usema::ioctl(k, p, sema.as_deref(), a.word(1), a.ptr(2));
    }
    super::ioctl::request(k, p, &file, a.word(1), a.ptr(2))
}
