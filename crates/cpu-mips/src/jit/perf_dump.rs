//! A record of the compiled code for Linux `perf` (`--perf-jitdump`): the
//! jitdump format that `perf inject --jit` reads, so that a profile of
//! irix-emu names the compiled function each sample of compiled code fell
//! in, by its guest address, instead of one anonymous file.
//!
//! Contents: [`PerfDump`] (the open file: `create`, `record`) and the
//! record's layout (`header`, `code_load`).
//!
//! How perf finds it: the file is named `jit-PID.dump` and is mapped
//! executable once (`PerfDump::create`), which `perf record` sees as a
//! mapping of that name; `perf inject --jit` then reads the file, writes
//! one small ELF file per function it records, and moves each sample of
//! compiled code into the function that held its address at the time. The
//! timestamps are of `CLOCK_MONOTONIC`, so perf must record with the same
//! clock (`perf record -k mono`). docs/performance.md has the commands.
//!
//! Every function installed in a compiled tier's code memory is recorded,
//! compiled here or loaded from the translation cache, under the name
//! `mips 0xPC` (its first block's address; `+N` when it holds N members,
//! see `region`). Addresses are reused after the code memory is flushed;
//! perf takes the newest load of an address as its owner from its time
//! on. One file serves every CPU of the process (writes are whole records
//! under a lock).

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The file's magic number ("JiTD" as a native-endian word).
const MAGIC: u32 = 0x4A69_5444;
/// The format's version perf reads.
const VERSION: u32 = 1;
/// The size of the file's header.
const HEADER_SIZE: u32 = 40;
/// A record of code loaded at an address.
const CODE_LOAD: u32 = 0;
/// The size of a code-load record before its name and code.
const CODE_LOAD_SIZE: u32 = 16 + 40;

/// The ELF machine of the host, which the header names.
#[cfg(target_arch = "x86_64")]
const ELF_MACHINE: u32 = 62;
#[cfg(target_arch = "aarch64")]
const ELF_MACHINE: u32 = 183;
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const ELF_MACHINE: u32 = 0;

/// An open jitdump file of this process.
pub struct PerfDump {
    file: Mutex<Writer>,
    /// The file's path (for `Debug`).
    path: PathBuf,
    /// The executable mapping of the file's first page, which tells perf
    /// where the file is; unmapped when the dump is dropped.
    _marker: Marker,
}

struct Writer {
    file: File,
    /// Records written, as each record's index.
    index: u64,
    /// The bytes of the header and the whole records written.
    len: u64,
    /// A write failed: nothing more is written.
    failed: bool,
}

impl Writer {
    /// Appends `rec`, a whole record. A write that fails (a full disk)
    /// ends the recording, the file cut back to its last whole record so
    /// that perf reads every record before it.
    fn append(&mut self, rec: &[u8]) {
        if self.failed {
            return;
        }
        match self.file.write_all(rec) {
            Ok(()) => {
                self.index += 1;
                self.len += rec.len() as u64;
            }
            Err(_) => {
                self.failed = true;
                let _ = self.file.set_len(self.len);
            }
        }
    }
}

impl PerfDump {
    /// Creates `dir/jit-PID.dump` (replacing one of a former process of
    /// the same number), writes its header and maps it as perf expects.
    pub fn create(dir: &Path) -> io::Result<PerfDump> {
        let pid = std::process::id();
        let path = dir.join(format!("jit-{pid}.dump"));
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)?;
        file.write_all(&header(pid, monotonic_ns()))?;
        file.flush()?;
        let marker = Marker::map(&file)?;
        Ok(PerfDump {
            file: Mutex::new(Writer {
                file,
                index: 0,
                len: HEADER_SIZE as u64,
                failed: false,
            }),
            path,
            _marker: marker,
        })
    }

    /// Records that the function of guest address `pc` with `members`
    /// members was installed at host address `addr`, as `code`. The run
    /// goes on whatever becomes of the write (see `Writer::append`).
    pub(crate) fn record(&self, pc: u32, members: usize, addr: u64, code: &[u8]) {
        let name = match members {
            0 => format!("mips 0x{pc:08x}"),
            n => format!("mips 0x{pc:08x}+{n}"),
        };
        let Ok(mut w) = self.file.lock() else {
            return;
        };
        let load = CodeLoad {
            pid: std::process::id(),
            tid: thread_id(),
            addr,
            index: w.index,
            timestamp: monotonic_ns(),
        };
        let mut rec = code_load(&load, &name, code.len());
        rec.extend_from_slice(code);
        w.append(&rec);
    }
}

impl std::fmt::Debug for PerfDump {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PerfDump")
            .field("path", &self.path)
            .finish()
    }
}

/// What a code-load record says besides the name and the code.
struct CodeLoad {
    pid: u32,
    tid: u32,
    addr: u64,
    index: u64,
    timestamp: u64,
}

/// The file's header.
fn header(pid: u32, timestamp: u64) -> Vec<u8> {
    let mut h = Vec::with_capacity(HEADER_SIZE as usize);
    for w in [MAGIC, VERSION, HEADER_SIZE, ELF_MACHINE, 0, pid] {
        h.extend_from_slice(&w.to_ne_bytes());
    }
    h.extend_from_slice(&timestamp.to_ne_bytes());
    h.extend_from_slice(&0u64.to_ne_bytes()); // flags
    h
}

/// A code-load record up to its code (which follows it, `len` bytes).
fn code_load(c: &CodeLoad, name: &str, len: usize) -> Vec<u8> {
    let total = CODE_LOAD_SIZE as usize + name.len() + 1 + len;
    let mut r = Vec::with_capacity(total);
    r.extend_from_slice(&CODE_LOAD.to_ne_bytes());
    r.extend_from_slice(&(total as u32).to_ne_bytes());
    r.extend_from_slice(&c.timestamp.to_ne_bytes());
    r.extend_from_slice(&c.pid.to_ne_bytes());
    r.extend_from_slice(&c.tid.to_ne_bytes());
    r.extend_from_slice(&c.addr.to_ne_bytes()); // vma
    r.extend_from_slice(&c.addr.to_ne_bytes()); // code_addr
    r.extend_from_slice(&(len as u64).to_ne_bytes());
    r.extend_from_slice(&c.index.to_ne_bytes());
    r.extend_from_slice(name.as_bytes());
    r.push(0);
    r
}

/// `CLOCK_MONOTONIC` in nanoseconds (perf's `-k mono`).
fn monotonic_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec to write.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// The calling thread's id (perf's tid).
fn thread_id() -> u32 {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid has no arguments and cannot fail.
        unsafe { libc::gettid() as u32 }
    }
    #[cfg(not(target_os = "linux"))]
    {
        std::process::id()
    }
}

/// The executable mapping of a jitdump file's first page.
struct Marker {
    addr: *mut libc::c_void,
    len: usize,
}

// SAFETY: the mapping is never read or written through `addr`; it only
// exists, and is unmapped once, on drop.
unsafe impl Send for Marker {}
unsafe impl Sync for Marker {}

impl Marker {
    fn map(file: &File) -> io::Result<Marker> {
        use std::os::fd::AsRawFd;
        // SAFETY: sysconf has no memory effects.
        let len = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as usize;
        // SAFETY: a fresh private mapping of an open file, at an address the
        // kernel picks; nothing in this process reads or writes it.
        let addr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_EXEC,
                libc::MAP_PRIVATE,
                file.as_raw_fd(),
                0,
            )
        };
        if addr == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        Ok(Marker { addr, len })
    }
}

impl Drop for Marker {
    fn drop(&mut self) {
        // SAFETY: `addr` and `len` are this mapping's, unmapped only here.
        unsafe { libc::munmap(self.addr, self.len) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(b: &[u8], at: usize) -> u32 {
        u32::from_ne_bytes(b[at..at + 4].try_into().unwrap())
    }
    fn dword(b: &[u8], at: usize) -> u64 {
        u64::from_ne_bytes(b[at..at + 8].try_into().unwrap())
    }

    #[test]
    fn the_dump_holds_perfs_header_and_a_code_load_record_per_function() {
        let dir = test_support::Scratch::new("perf-dump");
        let dump = PerfDump::create(dir.path()).expect("creates the dump");
        let path = dir.path().join(format!("jit-{}.dump", std::process::id()));
        let code = [0x90u8, 0x90, 0xc3];
        dump.record(0x0040_1230, 0, 0x7f00_0000_1000, &code);
        dump.record(0x0fa0_0000, 3, 0x7f00_0000_2000, &code[..1]);
        let bytes = std::fs::read(&path).expect("reads the dump");

        assert_eq!(word(&bytes, 0), MAGIC);
        assert_eq!(word(&bytes, 4), VERSION);
        assert_eq!(word(&bytes, 8), HEADER_SIZE);
        assert_eq!(word(&bytes, 12), ELF_MACHINE);
        assert_eq!(word(&bytes, 20), std::process::id());

        let mut at = HEADER_SIZE as usize;
        let mut seen = Vec::new();
        while at < bytes.len() {
            assert_eq!(word(&bytes, at), CODE_LOAD);
            let total = word(&bytes, at + 4) as usize;
            assert_eq!(word(&bytes, at + 16), std::process::id());
            let addr = dword(&bytes, at + 24);
            assert_eq!(dword(&bytes, at + 32), addr, "vma is the code's address");
            let len = dword(&bytes, at + 40) as usize;
            let index = dword(&bytes, at + 48);
            let rest = &bytes[at + CODE_LOAD_SIZE as usize..at + total];
            let nul = rest.iter().position(|&b| b == 0).expect("a NUL-ended name");
            let name = std::str::from_utf8(&rest[..nul]).unwrap().to_string();
            assert_eq!(&rest[nul + 1..], &code[..len], "the code follows the name");
            seen.push((name, addr, len, index));
            at += total;
        }
        assert_eq!(at, bytes.len(), "records fill the file exactly");
        assert_eq!(
            seen,
            [
                ("mips 0x00401230".to_string(), 0x7f00_0000_1000, 3, 0),
                ("mips 0x0fa00000+3".to_string(), 0x7f00_0000_2000, 1, 1)
            ]
        );
    }

    #[test]
    fn a_write_that_fails_ends_the_recording_at_the_last_whole_record() {
        let dir = test_support::Scratch::new("perf-dump-failing");
        let path = dir.path().join("dump");
        std::fs::write(&path, header(1, 0)).unwrap();
        // Read-only: every write fails, as on a full disk.
        let file = File::open(&path).unwrap();
        let mut w = Writer {
            file,
            index: 0,
            len: HEADER_SIZE as u64,
            failed: false,
        };
        w.append(b"a record");
        assert!(w.failed);
        assert_eq!((w.index, w.len), (0, HEADER_SIZE as u64));
        w.append(b"another");
        assert_eq!(w.index, 0, "nothing more is written");
        assert_eq!(std::fs::read(&path).unwrap(), header(1, 0));
    }

    #[test]
    fn a_dump_in_a_missing_directory_is_an_error_not_a_panic() {
        let dir = test_support::Scratch::new("perf-dump-missing");
        let err = PerfDump::create(&dir.path().join("no/such/dir"));
        assert!(err.is_err());
    }
}
