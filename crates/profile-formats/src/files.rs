//! Profile files on the host: reading an input with a bound
//! ([`read_bounded`]) and writing an output atomically
//! ([`TempFiles::write_atomically`]).

use std::collections::BTreeSet;
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use thiserror::Error;

/// Why an input file was not read.
#[derive(Debug, Error)]
pub enum InputError {
    #[error("{0}")]
    Io(#[from] io::Error),
    #[error("Is a directory")]
    Directory,
    #[error("not a regular file ({0})")]
    NotRegular(&'static str),
    #[error("{size} bytes is larger than any real {what} ({limit} at most)")]
    TooLarge {
        what: &'static str,
        size: u64,
        limit: u64,
    },
}

impl InputError {
    /// Whether the file does not exist (exit status 127 for PROGRAM).
    pub fn is_not_found(&self) -> bool {
        matches!(self, InputError::Io(e) if e.kind() == io::ErrorKind::NotFound)
    }
}

/// What kind of non-regular file `meta` describes, for the message.
fn kind(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a plain file"
    }
}

/// Reads `path` whole if it is a regular file of at most `limit` bytes.
/// The file is opened without blocking (a FIFO swapped in after the check
/// does not hang the open) and read through a `limit + 1` window, so a file
/// growing while it is read is caught too.
pub fn read_bounded(path: &Path, what: &'static str, limit: u64) -> Result<Vec<u8>, InputError> {
    let meta = std::fs::metadata(path)?;
    if meta.is_dir() {
        return Err(InputError::Directory);
    }
    if !meta.is_file() {
        return Err(InputError::NotRegular(kind(&meta)));
    }
    let file = File::options()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(InputError::NotRegular(kind(&meta)));
    }
    if meta.len() > limit {
        return Err(InputError::TooLarge {
            what,
            size: meta.len(),
            limit,
        });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(InputError::TooLarge {
            what,
            size: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}

/// The temporary files of the outputs being written (each becomes its
/// output by a rename once whole), shared by clones: whoever must end the
/// process at once calls [`TempFiles::remove_all`], which removes them and
/// refuses new ones, so every output is left whole or absent, never
/// half-written.
#[derive(Clone, Debug, Default)]
pub struct TempFiles(Arc<Mutex<Pending>>);

#[derive(Debug, Default)]
struct Pending {
    paths: BTreeSet<PathBuf>,
    /// [`TempFiles::remove_all`] was called: no new temporary files.
    closed: bool,
}

impl TempFiles {
    fn pending(&self) -> MutexGuard<'_, Pending> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A new temporary file beside `path`, noted until it is renamed over
    /// `path` or discarded.
    pub(crate) fn create_beside(&self, path: &Path) -> io::Result<(PathBuf, File)> {
        let mut pending = self.pending();
        if pending.closed {
            return Err(io::Error::new(
                io::ErrorKind::Interrupted,
                "the process is ending",
            ));
        }
        let (tmp, file) = create_temp_beside(path)?;
        pending.paths.insert(tmp.clone());
        Ok((tmp, file))
    }

    /// Renames the temporary file `tmp`, written and synced, over `path`.
    pub(crate) fn rename_over(&self, tmp: &Path, path: &Path) -> io::Result<()> {
        let mut pending = self.pending();
        fs::rename(tmp, path)?;
        pending.paths.remove(tmp);
        Ok(())
    }

    /// Removes the temporary file `tmp` (its write failed or was given up).
    pub(crate) fn discard(&self, tmp: &Path) {
        let mut pending = self.pending();
        // Best effort: the write already failed, or the output is not wanted.
        let _ = fs::remove_file(tmp);
        pending.paths.remove(tmp);
    }

    /// Removes every temporary file and refuses new ones, for a process
    /// about to end at once. A write under way then fails at its rename.
    pub fn remove_all(&self) {
        let mut pending = self.pending();
        pending.closed = true;
        for tmp in std::mem::take(&mut pending.paths) {
            let _ = fs::remove_file(tmp);
        }
    }

    /// The temporary files not yet renamed or discarded.
    pub fn pending_paths(&self) -> Vec<PathBuf> {
        self.pending().paths.iter().cloned().collect()
    }

    /// Writes `bytes` to `path` atomically: a new temporary file in the same
    /// directory, synced and renamed over `path`; on failure it is removed
    /// and `path` is untouched.
    pub fn write_atomically(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        let (tmp_path, mut file) = self.create_beside(path)?;
        let written = file
            .write_all(bytes)
            .and_then(|()| file.sync_all())
            .and_then(|()| {
                drop(file);
                self.rename_over(&tmp_path, path)
            });
        if let Err(e) = written {
            self.discard(&tmp_path);
            return Err(e);
        }
        Ok(())
    }
}

/// Create `.NAME.PID.N.tmp` next to `path`, never reusing an existing file.
fn create_temp_beside(path: &Path) -> io::Result<(PathBuf, fs::File)> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?
        .to_string_lossy()
        .into_owned();
    let pid = std::process::id();
    let mut last_err = None;
    for n in 0..100u32 {
        let tmp = path.with_file_name(format!(".{name}.{pid}.{n}.tmp"));
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(file) => return Ok((tmp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last_err = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last_err.unwrap_or_else(|| io::Error::other("no free temporary name")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_atomic_write_leaves_no_temporary_file_and_remove_all_refuses_new_ones() {
        let dir = std::env::temp_dir().join(format!("pf-temps-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let temps = TempFiles::default();
        let out = dir.join("report.txt");
        temps.write_atomically(&out, b"whole").unwrap();
        assert_eq!(fs::read(&out).unwrap(), b"whole");
        let (tmp, _file) = temps.create_beside(&dir.join("gmon.out")).unwrap();
        assert_eq!(temps.pending_paths(), vec![tmp.clone()]);
        temps.remove_all();
        assert!(!tmp.exists(), "removed");
        assert!(temps.pending_paths().is_empty());
        let err = temps.write_atomically(&out, b"late").unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::Interrupted);
        assert_eq!(fs::read(&out).unwrap(), b"whole", "untouched");
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("report.txt")]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn devices_and_directories_are_refused_without_reading() {
        let err = read_bounded(Path::new("/dev/zero"), "program", 1 << 20).unwrap_err();
        assert_eq!(err.to_string(), "not a regular file (a character device)");
        let err = read_bounded(Path::new("/"), "program", 1 << 20).unwrap_err();
        assert_eq!(err.to_string(), "Is a directory");
    }
}
