//! Profile files on the host: reading an input with a bound
//! ([`read_bounded`]) and writing an output atomically ([`write_atomically`]).

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

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

/// Writes `bytes` to `path` atomically: a new temporary file in the same
/// directory, synced and renamed over `path`; on failure it is removed and
/// `path` is untouched.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let (tmp_path, mut file) = create_temp_beside(path)?;
    let written = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .and_then(|()| {
            drop(file);
            fs::rename(&tmp_path, path)
        });
    if let Err(e) = written {
        // Best effort: the write already failed, and that is the error to report.
        let _ = fs::remove_file(&tmp_path);
        return Err(e);
    }
    Ok(())
}

/// Create `.NAME.PID.N.tmp` next to `path`, never reusing an existing file.
pub(crate) fn create_temp_beside(path: &Path) -> io::Result<(PathBuf, fs::File)> {
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
    fn devices_and_directories_are_refused_without_reading() {
        let err = read_bounded(Path::new("/dev/zero"), "program", 1 << 20).unwrap_err();
        assert_eq!(err.to_string(), "not a regular file (a character device)");
        let err = read_bounded(Path::new("/"), "program", 1 << 20).unwrap_err();
        assert_eq!(err.to_string(), "Is a directory");
    }
}
