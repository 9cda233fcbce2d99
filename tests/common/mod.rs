//! Helpers shared by the integration tests that drive the `irix-emu` binary
//! (tests/run_programs.rs, run_errors.rs, sandbox.rs, malformed_elf.rs,
//! qemu_guest_diff.rs).
//!
//! Contents:
//! - [`Status`], [`Run`]: how a process ended and what it printed.
//! - [`emu`], [`run_emu`], [`run_emu_clean_env`], [`run_command`]: running
//!   `irix-emu` (or any program) with a time limit, capturing both streams.
//! - [`guest_program`], [`repo_path`]: the committed guest binaries, with a
//!   visible skip for programs not built yet.
//! - [`require_tool`]: the skip-or-fail rule for outside tools (brief:
//!   "skip with a visible message ... and FAIL instead when the env var
//!   IRIX_EMU_REQUIRE_TOOLS=1").
//! - [`TempDir`]: a scratch directory removed on drop (no tempfile crate in
//!   the dev-dependencies).

// Each test crate uses its own subset of these helpers.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Wall-clock limit for one process. Every guest program here runs in well
/// under a second; the limit only turns a hang into a failure.
pub const TIME_LIMIT: Duration = Duration::from_secs(120);

/// Exit statuses of irix-emu itself (src/cli/mod.rs, `status`).
pub const CYCLE_LIMIT: i32 = 124;
pub const EMULATOR_FAILURE: i32 = 125;
pub const NOT_RUNNABLE: i32 = 126;
pub const NOT_FOUND: i32 = 127;
/// A Rust panic's exit status.
pub const PANIC: i32 = 101;

/// How a process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// It exited with this status.
    Code(i32),
    /// A signal killed it (qemu-mips dies by the guest's fatal signal).
    Signal(i32),
}

impl Status {
    /// The status a shell would report: 128 + N for death by signal N.
    pub fn shell(self) -> i32 {
        match self {
            Status::Code(c) => c,
            Status::Signal(n) => 128 + n,
        }
    }
}

/// What a finished process printed and how it ended.
#[derive(Debug)]
pub struct Run {
    pub status: Status,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Run {
    /// stdout as text (guest output is ASCII; anything else shows as U+FFFD).
    pub fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// The lines of stderr.
    pub fn stderr_lines(&self) -> Vec<&str> {
        self.stderr.lines().collect()
    }
}

/// The irix-emu binary cargo built for these tests.
pub fn emu() -> &'static str {
    env!("CARGO_BIN_EXE_irix-emu")
}

/// A path inside the repository.
pub fn repo_path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// `guest/bin/<personality>/<name>`, or None (with a visible SKIP line)
/// when that program has not been built and committed yet.
pub fn guest_program(personality: &str, name: &str) -> Option<PathBuf> {
    let path = repo_path(&format!("guest/bin/{personality}/{name}"));
    if path.is_file() {
        Some(path)
    } else {
        eprintln!("SKIP: guest/bin/{personality}/{name} is not built yet");
        None
    }
}

/// Whether the outside tool `name` is on PATH. Absent: prints "SKIP: ..."
/// and returns false, or panics when IRIX_EMU_REQUIRE_TOOLS=1.
pub fn require_tool(name: &str) -> bool {
    if find_on_path(name).is_some() {
        return true;
    }
    if std::env::var("IRIX_EMU_REQUIRE_TOOLS").as_deref() == Ok("1") {
        panic!("{name} not found on PATH and IRIX_EMU_REQUIRE_TOOLS=1");
    }
    eprintln!("SKIP: {name} not found");
    false
}

fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// A Command for `irix-emu` with these arguments, run in `cwd`, with the
/// test's environment.
pub fn emu_command<I, S>(args: I, cwd: &Path) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut cmd = Command::new(emu());
    cmd.args(args).current_dir(cwd);
    cmd
}

/// Runs `irix-emu ARGS` in `cwd` with the test's environment.
pub fn run_emu<I, S>(args: I, cwd: &Path) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    run_command(emu_command(args, cwd))
}

/// Runs `irix-emu ARGS` in `cwd` with an empty host environment, so the
/// guest's environment is exactly what -E gives it.
pub fn run_emu_clean_env<I, S>(args: I, cwd: &Path) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut cmd = emu_command(args, cwd);
    cmd.env_clear();
    run_command(cmd)
}

/// Runs `cmd` to completion (stdin empty), capturing stdout and stderr;
/// kills it and panics after [`TIME_LIMIT`].
pub fn run_command(mut cmd: Command) -> Run {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let shown = format!("{cmd:?}");
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {shown}: {e}"));
    // Both pipes are drained on their own threads so a chatty child never
    // blocks on a full pipe while we wait for it.
    let mut out = child.stdout.take().expect("stdout is piped");
    let mut err = child.stderr.take().expect("stderr is piped");
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let started = Instant::now();
    let exit = loop {
        match child.try_wait() {
            Ok(Some(exit)) => break exit,
            Ok(None) if started.elapsed() > TIME_LIMIT => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("{shown} still running after {TIME_LIMIT:?}: killed");
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => panic!("waiting for {shown}: {e}"),
        }
    };
    let stdout = out_reader.join().expect("stdout reader");
    let stderr = err_reader.join().expect("stderr reader");
    let status = match (exit.code(), exit.signal()) {
        (Some(code), _) => Status::Code(code),
        (None, Some(sig)) => Status::Signal(sig),
        (None, None) => panic!("{shown}: neither an exit status nor a signal"),
    };
    Run {
        status,
        stdout,
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    }
}

/// A fresh directory under the system's temporary directory, removed with
/// everything in it when dropped. Its path is canonical, so it compares
/// equal to what the emulator computes from it.
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    pub fn new(label: &str) -> TempDir {
        let base = std::env::temp_dir();
        for attempt in 0..1000u32 {
            let nanos = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.subsec_nanos())
                .unwrap_or(0);
            let path = base.join(format!(
                "irix-emu-{label}-{}-{nanos}-{attempt}",
                std::process::id()
            ));
            // create_dir fails if the name is taken: then try another.
            if std::fs::create_dir(&path).is_ok() {
                let path = path.canonicalize().expect("canonical temp dir");
                return TempDir { path };
            }
        }
        panic!(
            "cannot create a temporary directory under {}",
            base.display()
        );
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Creates `rel` (and its parent directories) holding `contents`.
    pub fn write(&self, rel: &str, contents: &[u8]) -> PathBuf {
        let p = self.path.join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("create parent directories");
        }
        std::fs::write(&p, contents).expect("write test file");
        p
    }

    /// Creates directory `rel` (and its parents).
    pub fn mkdir(&self, rel: &str) -> PathBuf {
        let p = self.path.join(rel);
        std::fs::create_dir_all(&p).expect("create directory");
        p
    }

    /// Every file and directory below this one, as sorted relative paths
    /// (symbolic links are listed, not followed).
    pub fn listing(&self) -> Vec<String> {
        let mut out = Vec::new();
        list_into(&self.path, &self.path, &mut out);
        out.sort();
        out
    }
}

fn list_into(base: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        out.push(p.strip_prefix(base).unwrap_or(&p).display().to_string());
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            list_into(base, &p, out);
        }
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// A hand-built ELF32 MIPS executable: the ELF header, a PT_INTERP when
/// asked for, one PT_LOAD mapping the whole file at 0x400000, and three
/// instructions that exit with `exit_code`. With the defaults it is a
/// valid IRIX o32 program, so each field changed from the default is what
/// the loader refuses.
#[derive(Clone, Debug)]
pub struct TinyElf {
    /// EI_DATA = ELFDATA2LSB instead of ELFDATA2MSB.
    pub little_endian: bool,
    /// e_machine (EM_MIPS = 8).
    pub machine: u16,
    /// e_flags (0: MIPS I, o32, as IRIX's own o32 binaries).
    pub e_flags: u32,
    /// A PT_INTERP naming this interpreter.
    pub interp: Option<String>,
    /// What the program passes to exit(2).
    pub exit_code: u8,
    /// Instructions to run instead of the exit sequence (the first is the
    /// entry point, at [`TinyElf::CODE_ADDR`] when there is no PT_INTERP).
    pub code: Option<Vec<u32>>,
}

impl Default for TinyElf {
    fn default() -> Self {
        TinyElf {
            little_endian: false,
            machine: 8,
            e_flags: 0,
            interp: None,
            exit_code: 0,
            code: None,
        }
    }
}

impl TinyElf {
    /// Load address of the file's first byte.
    pub const BASE: u32 = 0x0040_0000;
    /// Address of the first instruction (the entry point) when there is
    /// no PT_INTERP: after the 52-byte header and one program header.
    pub const CODE_ADDR: u32 = Self::BASE + 52 + 32;

    pub fn bytes(&self) -> Vec<u8> {
        const EHSIZE: u32 = 52;
        const PHENTSIZE: u32 = 32;
        let phnum = 1 + u32::from(self.interp.is_some());
        let code_off = EHSIZE + PHENTSIZE * phnum;
        // addiu $v0, $zero, 1001 (exit, ABI.md: v0 = 1000 + 1)
        // addiu $a0, $zero, exit_code
        // syscall
        let exit = vec![
            0x2402_03e9u32,
            0x2404_0000 | u32::from(self.exit_code),
            0x0000_000c,
        ];
        let code = self.code.clone().unwrap_or(exit);
        let interp_off = code_off + 4 * code.len() as u32;
        let interp = self.interp.as_ref().map(|s| {
            let mut b = s.as_bytes().to_vec();
            b.push(0);
            b
        });
        let file_size = interp_off + interp.as_ref().map_or(0, |b| b.len() as u32);

        let mut out = Vec::new();
        let h16 = |out: &mut Vec<u8>, v: u16| {
            out.extend(if self.little_endian {
                v.to_le_bytes()
            } else {
                v.to_be_bytes()
            })
        };
        let h32 = |out: &mut Vec<u8>, v: u32| {
            out.extend(if self.little_endian {
                v.to_le_bytes()
            } else {
                v.to_be_bytes()
            })
        };
        // e_ident: magic, ELFCLASS32, EI_DATA, EV_CURRENT, ELFOSABI_NONE.
        out.extend(b"\x7fELF");
        out.extend([1, if self.little_endian { 1 } else { 2 }, 1, 0]);
        out.extend([0; 8]);
        h16(&mut out, 2); // e_type ET_EXEC
        h16(&mut out, self.machine);
        h32(&mut out, 1); // e_version
        h32(&mut out, Self::BASE + code_off); // e_entry
        h32(&mut out, EHSIZE); // e_phoff
        h32(&mut out, 0); // e_shoff: no sections
        h32(&mut out, self.e_flags);
        h16(&mut out, EHSIZE as u16);
        h16(&mut out, PHENTSIZE as u16);
        h16(&mut out, phnum as u16);
        h16(&mut out, 40); // e_shentsize
        h16(&mut out, 0); // e_shnum
        h16(&mut out, 0); // e_shstrndx
                          // Program headers: p_type, p_offset, p_vaddr, p_paddr, p_filesz,
                          // p_memsz, p_flags, p_align. PT_INTERP first, as ld puts it.
        if let Some(b) = &interp {
            let len = b.len() as u32;
            for v in [
                3,
                interp_off,
                Self::BASE + interp_off,
                Self::BASE + interp_off,
                len,
                len,
                4,
                1,
            ] {
                h32(&mut out, v);
            }
        }
        for v in [
            1,
            0,
            Self::BASE,
            Self::BASE,
            file_size,
            file_size,
            5,
            0x1000,
        ] {
            h32(&mut out, v);
        }
        for w in code {
            h32(&mut out, w);
        }
        if let Some(b) = interp {
            out.extend(b);
        }
        assert_eq!(out.len() as u32, file_size);
        out
    }
}
