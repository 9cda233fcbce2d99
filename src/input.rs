//! Reading an input file (PROGRAM, a gmon.out) with a bound: only a regular
//! file, and only up to a size no real one could exceed, so a FIFO, a
//! device such as /dev/zero or a runaway file never blocks irix-emu or
//! fills the host's memory.

use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use thiserror::Error;

/// The largest executable read: 512 MiB. Its segments must fit the 2 GiB
/// user address space, and no IRIX-era program, debug information
/// included, came near this.
pub const MAX_PROGRAM_BYTES: u64 = 512 << 20;
/// The largest gmon.out read: 256 MiB, 2 bytes per bin at one bin per
/// 4-byte instruction, i.e. a histogram of 512 MiB of text.
pub const MAX_GMON_BYTES: u64 = 256 << 20;

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
