//! A file's bytes mapped read-only into memory ([`Mapped`]), for reading a
//! pack of the translation cache with no system call per entry.
//!
//! The mapping stays readable however the file is renamed or deleted (the
//! host keeps a deleted file's data while it is mapped). It is not safe
//! against the file being truncated in place while mapped (the host then
//! raises SIGBUS on the pages past the new end): the store never writes a
//! pack in place (packs are written under a temporary name and renamed, and
//! deleted whole), and the directory is its owner's alone.

use std::fs::File;
use std::os::fd::AsRawFd;
use std::ptr::NonNull;

/// The first `len` bytes of a file, mapped read-only and shared.
pub(crate) struct Mapped {
    ptr: NonNull<u8>,
    len: usize,
}

// SAFETY: the mapping is read-only and owned by this value alone; reading
// it from several threads at once is sound.
unsafe impl Send for Mapped {}
// SAFETY: as above; `&Mapped` only gives `&[u8]`.
unsafe impl Sync for Mapped {}

impl Mapped {
    /// Maps the first `len` bytes of `file` (`len` > 0, at most the file's
    /// length).
    pub(crate) fn new(file: &File, len: usize) -> std::io::Result<Mapped> {
        if len == 0 {
            return Err(std::io::Error::from(std::io::ErrorKind::InvalidInput));
        }
        // SAFETY: a fresh mapping chosen by the host, of a file descriptor
        // that is open; the result is checked.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ,
                libc::MAP_SHARED,
                file.as_raw_fd(),
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        let ptr = NonNull::new(p.cast::<u8>()).ok_or(std::io::ErrorKind::Other)?;
        Ok(Mapped { ptr, len })
    }

    /// The bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        // SAFETY: `ptr` maps `len` readable bytes for as long as `self`
        // lives, and nothing writes to them (see the module's documentation).
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Mapped {
    fn drop(&mut self) {
        // SAFETY: unmaps exactly the mapping `new` made, which no slice
        // outlives (they borrow `self`).
        unsafe {
            libc::munmap(self.ptr.as_ptr().cast(), self.len);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mapping_reads_the_file_and_outlives_its_deletion() {
        let path = std::env::temp_dir().join(format!("irix-emu-mapped-{}", std::process::id()));
        std::fs::write(&path, b"pack bytes").unwrap();
        let file = File::open(&path).unwrap();
        let m = Mapped::new(&file, 10).unwrap();
        drop(file);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(m.bytes(), b"pack bytes");
        assert!(Mapped::new(&File::open("/dev/null").unwrap(), 0).is_err());
    }
}
