//! Helpers shared by tests/guest_profiling.rs, tests/prof_command.rs and
//! tests/processes.rs: running `irix-emu` from the repository root, scratch
//! directories, outside tools, and small parsers of what irix-emu prints.
//!
//! Contents:
//! - [`Out`], [`emu`], [`emu_in`]: run `irix-emu ARGS` (cwd = the repository
//!   root, so guest paths like `guest/bin/irix/hello` resolve inside the
//!   default `--root`, which is the cwd), capture both streams, with a time
//!   limit that turns a hang into a failure.
//! - [`guest`]: the relative path of a committed IRIX guest program.
//! - [`Scratch`]: a temporary directory removed on drop.
//! - [`tool`]: the skip-or-fail rule for outside tools (brief: "skip with a
//!   visible message ... and FAIL instead when the env var
//!   IRIX_EMU_REQUIRE_TOOLS=1").
//! - [`user_cycles`], [`USER_CYCLES_PER_TICK`]: the `--stats` line
//!   "cycles N user, M system" and the 100 Hz tick at the default 100 MHz.
//! - [`field`], [`lines_with`]: pulling numbers out of guest output.
//! - [`json_is_valid`]: a small JSON syntax check (no JSON crate among the
//!   dev-dependencies).

// Each test crate uses its own subset of these helpers.
#![allow(dead_code)]

#[path = "../common/mod.rs"]
mod common;

use std::path::Path;
use std::process::Command;

/// irix-emu's own failures (README "Exit statuses").
pub const EMULATOR_FAILURE: i32 = 125;
/// `--max-cycles` reached.
pub const CYCLE_LIMIT: i32 = 124;
/// 128 + SIGSEGV (11).
pub const KILLED_BY_SIGSEGV: i32 = 139;

/// User cycles per clock tick at the default 100 MHz and HZ = 100 (README
/// "Virtual time": cycles / rate; ABI.md "HZ = 100").
pub const USER_CYCLES_PER_TICK: u64 = 1_000_000;

/// What one run printed and how it ended.
#[derive(Debug)]
pub struct Out {
    /// The shell's view: the exit status, or 128 + N for death by signal N.
    pub status: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Out {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
}

/// The repository root (the root package's directory).
pub fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `guest/bin/irix/NAME`, relative to the repository root.
pub fn guest(name: &str) -> String {
    format!("guest/bin/irix/{name}")
}

/// Runs `irix-emu ARGS` with the repository root as its cwd.
pub fn emu(args: &[&str]) -> Out {
    emu_in(repo(), args)
}

/// Runs `irix-emu ARGS` in `cwd`, stdin empty, both streams captured.
pub fn emu_in(cwd: &Path, args: &[&str]) -> Out {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_irix-emu"));
    cmd.args(args).current_dir(cwd);
    run(cmd)
}

/// Runs `cmd` to completion with a time limit (common::run_command); a
/// death by signal N reads as 128 + N, as a shell shows it.
pub fn run(cmd: Command) -> Out {
    let r = common::run_command(cmd);
    Out {
        status: r.status.shell(),
        stdout: r.stdout,
        stderr: r.stderr,
    }
}

/// Whether the outside tool `name` is on PATH (skip or fail rule in
/// common::require_tool).
pub fn tool(name: &str) -> bool {
    common::require_tool(name)
}

/// A fresh directory under the system's temporary directory, removed with
/// its contents on drop (common::TempDir, plus what these tests ask of it).
pub struct Scratch {
    dir: common::TempDir,
}

impl Scratch {
    pub fn new(label: &str) -> Scratch {
        Scratch {
            dir: common::TempDir::new(label),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `rel` inside the directory, as a string for a command line.
    pub fn file(&self, rel: &str) -> String {
        self.path().join(rel).display().to_string()
    }

    /// The names of the entries directly inside, sorted.
    pub fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(self.path())
            .map(|d| {
                d.flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    }
}

/// N of the `--stats` line "irix-emu: cycles          N user, M system".
pub fn user_cycles(stderr: &str) -> u64 {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("irix-emu: cycles"))
        .unwrap_or_else(|| panic!("no cycles line in stderr:\n{stderr}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    // ["irix-emu:", "cycles", N, "user,", M, "system"]
    assert_eq!(words.get(3), Some(&"user,"), "cycles line: {line}");
    words[2]
        .parse()
        .unwrap_or_else(|e| panic!("cycles line {line}: {e}"))
}

/// The number after `key` in `line` (`key` includes its trailing space, e.g.
/// "hot_a "), up to the next non-digit.
pub fn field(line: &str, key: &str) -> u64 {
    let at = line
        .find(key)
        .unwrap_or_else(|| panic!("no {key:?} in {line:?}"))
        + key.len();
    let digits: String = line[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits
        .parse()
        .unwrap_or_else(|e| panic!("{key:?} in {line:?}: {e}"))
}

/// The lines of `text` that start with `prefix`.
pub fn lines_with<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    text.lines().filter(|l| l.starts_with(prefix)).collect()
}

/// Whether `s` is one complete JSON value (RFC 8259 grammar; numbers and
/// string escapes checked, no semantic checks).
pub fn json_is_valid(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    let ok = json_value(b, &mut i);
    json_ws(b, &mut i);
    ok && i == b.len()
}

fn json_ws(b: &[u8], i: &mut usize) {
    while *i < b.len() && matches!(b[*i], b' ' | b'\t' | b'\n' | b'\r') {
        *i += 1;
    }
}

fn json_lit(b: &[u8], i: &mut usize, lit: &[u8]) -> bool {
    if b[*i..].starts_with(lit) {
        *i += lit.len();
        true
    } else {
        false
    }
}

fn json_value(b: &[u8], i: &mut usize) -> bool {
    json_ws(b, i);
    match b.get(*i) {
        Some(b'{') => json_seq(b, i, b'}', true),
        Some(b'[') => json_seq(b, i, b']', false),
        Some(b'"') => json_string(b, i),
        Some(b't') => json_lit(b, i, b"true"),
        Some(b'f') => json_lit(b, i, b"false"),
        Some(b'n') => json_lit(b, i, b"null"),
        Some(b'-' | b'0'..=b'9') => json_number(b, i),
        _ => false,
    }
}

/// An object (`keyed`) or array after its opening bracket.
fn json_seq(b: &[u8], i: &mut usize, close: u8, keyed: bool) -> bool {
    *i += 1;
    json_ws(b, i);
    if b.get(*i) == Some(&close) {
        *i += 1;
        return true;
    }
    loop {
        if keyed {
            json_ws(b, i);
            if !json_string(b, i) {
                return false;
            }
            json_ws(b, i);
            if b.get(*i) != Some(&b':') {
                return false;
            }
            *i += 1;
        }
        if !json_value(b, i) {
            return false;
        }
        json_ws(b, i);
        match b.get(*i) {
            Some(&c) if c == close => {
                *i += 1;
                return true;
            }
            Some(b',') => *i += 1,
            _ => return false,
        }
    }
}

fn json_string(b: &[u8], i: &mut usize) -> bool {
    if b.get(*i) != Some(&b'"') {
        return false;
    }
    *i += 1;
    while let Some(&c) = b.get(*i) {
        *i += 1;
        match c {
            b'"' => return true,
            b'\\' => match b.get(*i) {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => *i += 1,
                Some(b'u') => {
                    let hex = b.get(*i + 1..*i + 5);
                    if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                        return false;
                    }
                    *i += 5;
                }
                _ => return false,
            },
            0..=0x1f => return false,
            _ => {}
        }
    }
    false
}

fn json_number(b: &[u8], i: &mut usize) -> bool {
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i > start
    };
    if b.get(*i) == Some(&b'-') {
        *i += 1;
    }
    if b.get(*i) == Some(&b'0') {
        *i += 1;
    } else if !digits(i) {
        return false;
    }
    if b.get(*i) == Some(&b'.') {
        *i += 1;
        if !digits(i) {
            return false;
        }
    }
    if matches!(b.get(*i), Some(b'e' | b'E')) {
        *i += 1;
        if matches!(b.get(*i), Some(b'+' | b'-')) {
            *i += 1;
        }
        if !digits(i) {
            return false;
        }
    }
    true
}
