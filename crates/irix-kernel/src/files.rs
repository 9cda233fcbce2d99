//! Open files and the per-process descriptor table.
//!
//! An open file (host file, terminal stream, or pipe end) is shared by the
//! descriptors that `dup` and `fork` make, with one offset, as in UNIX: the
//! table holds `Rc<RefCell<OpenFile>>`. Pipes are kernel buffers (see
//! `pipe.rs`) so that several guest processes can block on them.

use std::cell::RefCell;
use std::fs::File;
use std::io::{IsTerminal, Read, Seek, SeekFrom, Write};
use std::rc::Rc;

use crate::pipe::Pipe;
use crate::Errno;

pub use crate::abi::flags::oflag;
use crate::abi::limits::OPEN_MAX;

/// What an open file is.
pub enum FileKind {
    /// A host file or directory inside the guest root, or a host stream
    /// (stdin/stdout/stderr passed through).
    Host(File),
    PipeRead(Rc<RefCell<Pipe>>),
    PipeWrite(Rc<RefCell<Pipe>>),
    /// A FIFO, device or socket inside the guest root, opened without
    /// blocking: a transfer that would wait never blocks the emulator, the
    /// caller waits in virtual time instead (`Io::WaitHost`).
    Device(File),
    /// A directory opened for reading its entries (getdents): the host
    /// directory, and the index of the next entry in [`dir_entries`] order
    /// (the "offset" lseek sets and getdents' d_off reports).
    Dir {
        file: File,
        /// The guest path it was opened by (its `..` is looked up from it).
        guest: String,
        next: u64,
    },
    /// A semaphore device made by opening /dev/usemaclone, or (None)
    /// /dev/usema itself, which only attaches to one (`usema.rs`).
    Usema(Option<Rc<crate::usema::Usema>>),
    /// A socket (`crate::net`): read(2) and write(2) are recv and send.
    Socket(Rc<RefCell<crate::net::Socket>>),
}

pub struct OpenFile {
    pub kind: FileKind,
    /// The O_* flags it was opened with (fcntl F_GETFL).
    pub flags: u32,
    /// The guest path it was opened by, for a file opened by name (what
    /// SGI_ELFMAP records as the name of the object it maps).
    pub path: Option<String>,
}

/// The outcome of a read or write that may have to wait for another process.
pub enum Io {
    Done(usize),
    /// Nothing can be transferred yet (an empty pipe with writers, a full
    /// pipe with readers): the process blocks and retries.
    WouldBlock,
    /// A host FIFO or device has nothing yet: the caller waits in virtual
    /// time (a clock tick) and retries; only a party outside the run can
    /// end the wait, so it is never a deadlock.
    WaitHost,
}

impl OpenFile {
    pub fn host(file: File, flags: u32) -> Self {
        OpenFile {
            kind: FileKind::Host(file),
            flags,
            path: None,
        }
    }

    /// An open file that is no host file (a kernel device).
    pub fn host_less(kind: FileKind, flags: u32) -> Self {
        OpenFile {
            kind,
            flags,
            path: None,
        }
    }

    fn readable(&self) -> bool {
        self.flags & oflag::O_ACCMODE != oflag::O_WRONLY
    }

    fn writable(&self) -> bool {
        self.flags & oflag::O_ACCMODE != oflag::O_RDONLY
    }

    pub fn read(&mut self, buf: &mut [u8]) -> Result<Io, Errno> {
        if !self.readable() {
            return Err(Errno::EBADF);
        }
        match &mut self.kind {
            FileKind::Host(f) => f.read(buf).map(Io::Done).map_err(|e| io_errno(&e)),
            FileKind::PipeRead(p) => Ok(p.borrow_mut().read(buf)),
            FileKind::PipeWrite(_) => Err(Errno::EBADF),
            FileKind::Device(f) => {
                let nonblocking = self.flags & (oflag::O_NONBLOCK | oflag::O_NDELAY) != 0;
                device_io(f, libc::POLLIN, nonblocking, |f| f.read(buf))
            }
            FileKind::Dir { .. } => Err(Errno::EISDIR),
            FileKind::Usema(_) => Err(Errno::ENXIO),
            FileKind::Socket(s) => {
                let io = s.borrow_mut().receive(buf, false).map(|(io, _)| io);
                socket_io(self.flags, io)
            }
        }
    }

    /// Writes; `Err(EPIPE)` means the caller must also raise SIGPIPE.
    pub fn write(&mut self, data: &[u8]) -> Result<Io, Errno> {
        if !self.writable() {
            return Err(Errno::EBADF);
        }
        match &mut self.kind {
            FileKind::Host(f) => {
                if self.flags & oflag::O_APPEND != 0 {
                    f.seek(SeekFrom::End(0)).map_err(|e| io_errno(&e))?;
                }
                f.write_all(data).map_err(|e| io_errno(&e))?;
                Ok(Io::Done(data.len()))
            }
            FileKind::PipeWrite(p) => p.borrow_mut().write(data),
            FileKind::PipeRead(_) | FileKind::Dir { .. } => Err(Errno::EBADF),
            FileKind::Usema(_) => Err(Errno::ENXIO),
            FileKind::Socket(s) => socket_io(self.flags, crate::net::write(s, data)),
            FileKind::Device(f) => {
                let nonblocking = self.flags & (oflag::O_NONBLOCK | oflag::O_NDELAY) != 0;
                device_io(f, libc::POLLOUT, nonblocking, |f| f.write(data))
            }
        }
    }

    pub fn seek(&mut self, pos: SeekFrom) -> Result<u64, Errno> {
        match &mut self.kind {
            FileKind::Host(f) if !f.is_terminal() => f.seek(pos).map_err(|e| io_errno(&e)),
            // A directory's offset is an entry index: only rewinddir's and
            // seekdir's absolute positions and telldir's query make sense.
            FileKind::Dir { next, .. } => match pos {
                SeekFrom::Start(n) => {
                    *next = n;
                    Ok(n)
                }
                SeekFrom::Current(0) => Ok(*next),
                _ => Err(Errno::EINVAL),
            },
            _ => Err(Errno::ESPIPE),
        }
    }

    pub fn is_terminal(&self) -> bool {
        matches!(&self.kind, FileKind::Host(f) | FileKind::Device(f) if f.is_terminal())
    }

    pub fn metadata(&self) -> Option<std::fs::Metadata> {
        match &self.kind {
            FileKind::Host(f) | FileKind::Device(f) | FileKind::Dir { file: f, .. } => {
                f.metadata().ok()
            }
            _ => None,
        }
    }
}

/// A socket transfer's outcome for read(2) and write(2): a wait on the
/// host (`--net`) is EAGAIN on a non-blocking socket, as any wait is.
fn socket_io(flags: u32, io: Result<Io, Errno>) -> Result<Io, Errno> {
    match io {
        Ok(Io::WaitHost) if flags & (oflag::O_NONBLOCK | oflag::O_NDELAY) != 0 => {
            Err(Errno::EAGAIN)
        }
        io => io,
    }
}

/// One transfer on a non-blocking host FIFO or device: if `poll` says it
/// would wait (or the transfer says EAGAIN), EAGAIN for a descriptor the
/// guest opened O_NONBLOCK/O_NDELAY, else `Io::WaitHost`.
fn device_io(
    f: &mut File,
    events: libc::c_short,
    nonblocking: bool,
    transfer: impl FnOnce(&mut File) -> std::io::Result<usize>,
) -> Result<Io, Errno> {
    use std::os::fd::AsRawFd;
    let would_wait = || {
        if nonblocking {
            Err(Errno::EAGAIN)
        } else {
            Ok(Io::WaitHost)
        }
    };
    let mut pfd = libc::pollfd {
        fd: f.as_raw_fd(),
        events,
        revents: 0,
    };
    // SAFETY: one valid pollfd for a descriptor `f` owns; timeout 0.
    let ready = unsafe { libc::poll(&mut pfd, 1, 0) };
    if ready == 0 {
        return would_wait();
    }
    match transfer(f) {
        Ok(n) => Ok(Io::Done(n)),
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => would_wait(),
        Err(e) => Err(io_errno(&e)),
    }
}

impl Drop for OpenFile {
    fn drop(&mut self) {
        match &self.kind {
            FileKind::PipeRead(p) => p.borrow_mut().readers -= 1,
            FileKind::PipeWrite(p) => p.borrow_mut().writers -= 1,
            FileKind::Host(_)
            | FileKind::Device(_)
            | FileKind::Dir { .. }
            | FileKind::Usema(_)
            | FileKind::Socket(_) => {}
        }
    }
}

/// The entries of a host directory as getdents returns them: `.` and `..`
/// first, then the names in byte order (sorted, so a listing does not depend
/// on the host file system's hash order), each with its inode number.
/// `parent` is the host directory `..` names in the guest (the directory
/// itself at the guest root).
pub fn dir_entries(
    path: &std::path::Path,
    parent: &std::path::Path,
) -> Result<Vec<(Vec<u8>, u64)>, Errno> {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::MetadataExt;
    let ino = |p: &std::path::Path| std::fs::metadata(p).map(|m| m.ino()).unwrap_or(0);
    let mut names: Vec<(Vec<u8>, u64)> = std::fs::read_dir(path)
        .map_err(|e| io_errno(&e))?
        .filter_map(|e| e.ok())
        .map(|e| {
            let ino = e.metadata().map(|m| m.ino()).unwrap_or(0);
            (e.file_name().as_bytes().to_vec(), ino)
        })
        .collect();
    names.sort();
    let mut out = vec![(b".".to_vec(), ino(path)), (b"..".to_vec(), ino(parent))];
    out.extend(names);
    Ok(out)
}

/// Maps a host I/O error to the SVR4 errno the guest sees.
pub fn io_errno(e: &std::io::Error) -> Errno {
    use std::io::ErrorKind::*;
    // EPERM and EACCES share one ErrorKind; the guest tells them apart.
    if e.raw_os_error() == Some(libc::EPERM) {
        return Errno::EPERM;
    }
    match e.kind() {
        NotFound => Errno::ENOENT,
        PermissionDenied => Errno::EACCES,
        AlreadyExists => Errno::EEXIST,
        InvalidInput => Errno::EINVAL,
        NotADirectory => Errno::ENOTDIR,
        IsADirectory => Errno::EISDIR,
        DirectoryNotEmpty => Errno::ENOTEMPTY,
        BrokenPipe => Errno::EPIPE,
        _ => match e.raw_os_error() {
            Some(40) => Errno::ELOOP,
            Some(36) => Errno::ENAMETOOLONG,
            Some(29) => Errno::ESPIPE,
            Some(6) => Errno::ENXIO,
            Some(25) => Errno::ENOTTY,
            Some(libc::EXDEV) => Errno::EXDEV,
            Some(libc::EBUSY) => Errno::EBUSY,
            Some(libc::EROFS) => Errno::EROFS,
            Some(libc::EMLINK) => Errno::EMLINK,
            Some(libc::EFBIG) => Errno::EFBIG,
            Some(libc::ENOSPC | libc::EDQUOT) => Errno::ENOSPC,
            _ => Errno::EIO,
        },
    }
}

#[derive(Clone)]
struct Slot {
    file: Rc<RefCell<OpenFile>>,
    close_on_exec: bool,
}

/// A process's descriptor table. `Clone` is the fork copy: both tables
/// share the open files.
#[derive(Clone, Default)]
pub struct FdTable {
    slots: Vec<Option<Slot>>,
    /// RLIMIT_NOFILE's soft limit, when set below OPEN_MAX: no new
    /// descriptor at or above it (open descriptors above it stay).
    limit: Option<usize>,
}

impl FdTable {
    /// A table with the host's stdin, stdout and stderr as 0, 1 and 2.
    pub fn with_host_stdio() -> Self {
        let mut t = FdTable::default();
        let streams = [
            (std::io::stdin().as_fd_owned(), oflag::O_RDONLY),
            (std::io::stdout().as_fd_owned(), oflag::O_WRONLY),
            (std::io::stderr().as_fd_owned(), oflag::O_WRONLY),
        ];
        for (fd, flags) in streams {
            match fd {
                Some(f) => {
                    let _ = t.install(OpenFile::host(f, flags)); // a fresh table has room
                }
                None => t.slots.push(None),
            }
        }
        t
    }

    /// The most descriptors the process may have (RLIMIT_NOFILE).
    fn max(&self) -> usize {
        self.limit.unwrap_or(OPEN_MAX).min(OPEN_MAX)
    }

    /// Sets RLIMIT_NOFILE's soft limit (getrlimit(2): "Functions that
    /// attempt to create new file descriptors beyond this limit will fail
    /// with errno set to EMFILE").
    pub fn set_limit(&mut self, n: u64) {
        self.limit = Some(n.min(OPEN_MAX as u64) as usize);
    }

    /// The highest open descriptor plus one (0 when none is open).
    pub fn high_water(&self) -> u32 {
        self.slots
            .iter()
            .rposition(Option::is_some)
            .map_or(0, |i| i as u32 + 1)
    }

    /// How many more descriptors the process may have open now.
    pub fn room(&self) -> usize {
        let max = self.max();
        let used = self.slots.iter().take(max).filter(|s| s.is_some()).count();
        max - used
    }

    /// Installs an open file another process shares (a descriptor passed
    /// over a socket) at the lowest free descriptor: EMFILE when full.
    pub fn install_file(&mut self, file: Rc<RefCell<OpenFile>>) -> Result<u32, Errno> {
        self.install_shared(file, 0)
    }

    /// Installs `file` at the lowest free descriptor: EMFILE when full.
    pub fn install(&mut self, file: OpenFile) -> Result<u32, Errno> {
        self.install_shared(Rc::new(RefCell::new(file)), 0)
    }

    fn install_shared(&mut self, file: Rc<RefCell<OpenFile>>, lowest: usize) -> Result<u32, Errno> {
        let slot = Some(Slot {
            file,
            close_on_exec: false,
        });
        let max = self.max();
        match self.slots.iter().skip(lowest).position(Option::is_none) {
            Some(i) if lowest + i < max => {
                self.slots[lowest + i] = slot;
                Ok((lowest + i) as u32)
            }
            Some(_) => Err(Errno::EMFILE),
            None if self.slots.len().max(lowest) < max => {
                self.slots.resize(self.slots.len().max(lowest), None);
                self.slots.push(slot);
                Ok((self.slots.len() - 1) as u32)
            }
            None => Err(Errno::EMFILE),
        }
    }

    pub fn get(&self, fd: u32) -> Result<Rc<RefCell<OpenFile>>, Errno> {
        self.slots
            .get(fd as usize)
            .and_then(|s| s.as_ref())
            .map(|s| s.file.clone())
            .ok_or(Errno::EBADF)
    }

    pub fn close(&mut self, fd: u32) -> Result<(), Errno> {
        match self.slots.get_mut(fd as usize) {
            Some(slot @ Some(_)) => {
                *slot = None;
                Ok(())
            }
            _ => Err(Errno::EBADF),
        }
    }

    /// dup / fcntl(F_DUPFD): the lowest free descriptor >= `lowest`.
    pub fn dup(&mut self, fd: u32, lowest: u32) -> Result<u32, Errno> {
        let file = self.get(fd)?;
        if lowest as usize >= self.max() {
            return Err(Errno::EINVAL);
        }
        self.install_shared(file, lowest as usize)
    }

    pub fn close_on_exec(&self, fd: u32) -> Result<bool, Errno> {
        self.slots
            .get(fd as usize)
            .and_then(|s| s.as_ref())
            .map(|s| s.close_on_exec)
            .ok_or(Errno::EBADF)
    }

    pub fn set_close_on_exec(&mut self, fd: u32, on: bool) -> Result<(), Errno> {
        let slot = self
            .slots
            .get_mut(fd as usize)
            .and_then(|s| s.as_mut())
            .ok_or(Errno::EBADF)?;
        slot.close_on_exec = on;
        Ok(())
    }

    /// exec: descriptors marked close-on-exec are closed; returns their
    /// files (closing one releases the process's record locks on it).
    pub fn exec(&mut self) -> Vec<Rc<RefCell<OpenFile>>> {
        let mut closed = Vec::new();
        for slot in &mut self.slots {
            if slot.as_ref().is_some_and(|s| s.close_on_exec) {
                closed.extend(slot.take().map(|s| s.file));
            }
        }
        closed
    }
}

/// Duplicates a host standard stream so the guest's descriptor owns it.
trait AsFdOwned {
    fn as_fd_owned(&self) -> Option<File>;
}

impl<T: std::os::fd::AsFd> AsFdOwned for T {
    fn as_fd_owned(&self) -> Option<File> {
        self.as_fd().try_clone_to_owned().ok().map(File::from)
    }
}
