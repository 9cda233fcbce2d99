//! Vectored and positioned I/O: readv, writev (read(2), write(2)), pread
//! and pwrite. readv and writev move the whole vector as one transfer (a
//! writev of PIPE_BUF bytes or fewer to a pipe is as atomic as a write),
//! filling or emptying "one buffer completely before proceeding to the
//! next". pread and pwrite transfer at an offset without moving the file
//! pointer, so they need a file that can seek.

use std::os::unix::fs::FileExt;

use super::fs::{changing, MAX_IO};
use super::{Args, Ret, SysResult};
use crate::files::{io_errno, oflag, FileKind, Io, OpenFile};
use crate::kernel::Kernel;
use crate::process::Process;
use crate::Errno;

/// Most iovec entries one call takes. IRIX 5.3's <limits.h> as we have it
/// does not say; SVR4.0 allowed 16 and later IRIX releases 512: irix-emu
/// takes the larger, so no vector IRIX accepts is refused.
pub const IOV_MAX: u32 = 512;

/// One iovec: { iov_base, iov_len }, two words on o32.
#[derive(Clone, Copy)]
pub(super) struct IoVec {
    pub base: u32,
    pub len: u32,
}

/// Reads the iovec array: EINVAL for a count outside 1..=IOV_MAX, a
/// negative iov_len or a total that overflows a 32-bit int; EFAULT for an
/// array outside the address space.
pub(super) fn read_iovecs(p: &Process, iov: u32, count: i32) -> Result<Vec<IoVec>, Errno> {
    if count <= 0 || count as u32 > IOV_MAX {
        return Err(Errno::EINVAL);
    }
    let mut raw = vec![0u8; count as usize * 8];
    p.mem.read_bytes(iov, &mut raw)?;
    let mut total: i32 = 0;
    raw.chunks(8)
        .map(|c| {
            let base = u32::from_be_bytes([c[0], c[1], c[2], c[3]]);
            let len = u32::from_be_bytes([c[4], c[5], c[6], c[7]]);
            total = i32::try_from(len)
                .ok()
                .and_then(|l| total.checked_add(l))
                .ok_or(Errno::EINVAL)?;
            Ok(IoVec { base, len })
        })
        .collect()
}

/// A transfer that cannot proceed now, by the descriptor's flags: read(2)
/// and write(2) say O_NONBLOCK gives EAGAIN and O_NDELAY returns 0;
/// without either the caller waits (`Ret::Block`). A socket follows the
/// BSD rule instead: recv(2), send(2) and accept(2) say a non-blocking
/// socket (either flag, FNDELAY included) fails with EWOULDBLOCK, which
/// is EAGAIN on IRIX.
pub(super) fn would_block(f: &OpenFile) -> SysResult {
    let socket = matches!(f.kind, FileKind::Socket(_));
    if f.flags & oflag::O_NONBLOCK != 0 || (socket && f.flags & oflag::O_NDELAY != 0) {
        Err(Errno::EAGAIN)
    } else if f.flags & oflag::O_NDELAY != 0 {
        Ok(Ret::Val(0))
    } else {
        Ok(Ret::Block)
    }
}

/// As [`would_block`], for a wait only the host can end (a socket's host
/// side, `--net`): EAGAIN on a non-blocking socket, else `Ret::WaitHost`.
pub(super) fn wait_host(f: &OpenFile) -> SysResult {
    match would_block(f)? {
        Ret::Block => Ok(Ret::WaitHost),
        r => Ok(r),
    }
}

/// The outcome of a socket transfer that did not complete: a wait on the
/// run (`Io::WouldBlock`) or on the host (`Io::WaitHost`).
pub(super) fn wait(f: &OpenFile, io: &Io) -> SysResult {
    match io {
        Io::WaitHost => wait_host(f),
        _ => would_block(f),
    }
}

/// readv(fd, iov, iovcnt).
pub fn readv(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let file = p.fds.get(a.fd(0))?;
    let vecs = read_iovecs(p, a.ptr(1), a.int(2))?;
    for v in &vecs {
        p.mem.check_writable(v.base, v.len)?;
    }
    let total: u32 = vecs.iter().map(|v| v.len).sum::<u32>().min(MAX_IO);
    if let Some(pages) = k.mapped_pages(&file.borrow()) {
        pages.sync_all();
    }
    let mut data = vec![0; total as usize];
    let read = file.borrow_mut().read(&mut data)?;
    let got = match read {
        Io::Done(got) => got,
        Io::WouldBlock => return would_block(&file.borrow()),
        Io::WaitHost => return Ok(Ret::WaitHost),
    };
    let mut rest = &data[..got];
    for v in &vecs {
        let n = rest.len().min(v.len as usize);
        p.mem.write_bytes(v.base, &rest[..n])?;
        p.cpu.invalidate_code(v.base, n as u32);
        rest = &rest[n..];
    }
    Ok(Ret::Val(got as u32))
}

/// writev(fd, iov, iovcnt): EPIPE (and SIGPIPE) without readers.
pub fn writev(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let file = p.fds.get(a.fd(0))?;
    let vecs = read_iovecs(p, a.ptr(1), a.int(2))?;
    let mut data = Vec::new();
    for v in &vecs {
        let start = data.len();
        let n = (v.len as usize).min(MAX_IO as usize - start);
        data.resize(start + n, 0);
        p.mem.read_bytes(v.base, &mut data[start..])?;
    }
    // RLIMIT_FSIZE: the write stops at the limit (SIGXFSZ and EFBIG at it).
    let room = super::rlimit::file_size_room(p, &file.borrow(), data.len() as u32)?;
    data.truncate(room as usize);
    let pages = k.mapped_pages(&file.borrow());
    let written = changing(pages, || file.borrow_mut().write(&data));
    match written {
        Ok(Io::Done(n)) => Ok(Ret::Val(n as u32)),
        Ok(Io::WouldBlock) => would_block(&file.borrow()),
        Ok(Io::WaitHost) => Ok(Ret::WaitHost),
        Err(Errno::EPIPE) => {
            p.signals.pending |= crate::signals::bit(crate::signals::SIGPIPE);
            Err(Errno::EPIPE)
        }
        Err(e) => Err(e),
    }
}

/// The host file of a descriptor that pread and pwrite can use: ESPIPE
/// for a pipe, FIFO, device or terminal, EISDIR for a directory; EBADF
/// without the access `readable`/`writable` asks.
fn seekable(f: &OpenFile, write: bool) -> Result<&std::fs::File, Errno> {
    let mode = f.flags & oflag::O_ACCMODE;
    let allowed = if write {
        mode != oflag::O_RDONLY
    } else {
        mode != oflag::O_WRONLY
    };
    if !allowed {
        return Err(Errno::EBADF);
    }
    match &f.kind {
        FileKind::Host(host) if !f.is_terminal() => Ok(host),
        FileKind::Dir { .. } => Err(Errno::EISDIR),
        _ => Err(Errno::ESPIPE),
    }
}

/// The offset argument of pread and pwrite: EINVAL when negative.
fn offset(a: &Args) -> Result<u64, Errno> {
    u64::try_from(a.int(3)).map_err(|_| Errno::EINVAL)
}

/// pread(fd, buf, nbyte, offset): reads at offset, leaving the file
/// pointer where it was.
pub fn pread(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (buf, n) = (a.ptr(1), a.size(2).min(MAX_IO));
    let file = p.fds.get(a.fd(0))?;
    let f = file.borrow();
    let host = seekable(&f, false)?;
    let at = offset(a)?;
    p.mem.check_writable(buf, n)?;
    if let Some(pages) = k.mapped_pages(&f) {
        pages.sync_all();
    }
    let mut data = vec![0; n as usize];
    let mut got = 0;
    while got < data.len() {
        match host.read_at(&mut data[got..], at + got as u64) {
            Ok(0) => break,
            Ok(m) => got += m,
            Err(e) => return Err(io_errno(&e)),
        }
    }
    p.mem.write_bytes(buf, &data[..got])?;
    p.cpu.invalidate_code(buf, got as u32);
    Ok(Ret::Val(got as u32))
}

/// pwrite(fd, buf, nbyte, offset): writes at offset, leaving the file
/// pointer where it was (O_APPEND does not move the offset).
pub fn pwrite(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (buf, n) = (a.ptr(1), a.size(2).min(MAX_IO));
    let file = p.fds.get(a.fd(0))?;
    let f = file.borrow();
    let host = seekable(&f, true)?;
    let at = offset(a)?;
    let mut data = vec![0; n as usize];
    p.mem.read_bytes(buf, &mut data)?;
    // RLIMIT_FSIZE, as for write(2): up to the limit, EFBIG at it.
    let n = super::rlimit::pwrite_room(p, at, n)?;
    data.truncate(n as usize);
    let pages = k.mapped_pages(&f);
    changing(pages, || host.write_all_at(&data, at)).map_err(|e| io_errno(&e))?;
    Ok(Ret::Val(n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::{Socket, AF_UNIX, SOCK_STREAM};

    fn socket(flags: u32) -> OpenFile {
        let s = Socket::new(AF_UNIX, SOCK_STREAM);
        OpenFile::host_less(FileKind::Socket(std::rc::Rc::new(s.into())), flags)
    }

    #[test]
    fn a_non_blocking_socket_fails_with_ewouldblock_for_fndelay_as_for_o_nonblock() {
        for flags in [oflag::O_NDELAY, oflag::O_NONBLOCK] {
            assert_eq!(
                would_block(&socket(oflag::O_RDWR | flags)).err(),
                Some(Errno::EAGAIN)
            );
        }
        assert!(matches!(
            would_block(&socket(oflag::O_RDWR)),
            Ok(Ret::Block)
        ));
    }
}
