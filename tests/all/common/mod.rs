//! The vocabulary of the integration tests that drive the `irix-emu`
//! binary: running it, the committed guest programs, its exit statuses, and
//! small parsers of what it prints. What the other packages' tests share
//! too (ELF writer, MIPS encoder, the outside-tool rule, scratch
//! directories, running a process with a time limit) is in the
//! `test-support` crate, re-exported here.
//!
//! Contents:
//! - [`exit`]: irix-emu's own exit statuses (the binary's crate's), and
//!   [`PANIC`], [`KILLED_BY_SIGSEGV`].
//! - [`Run`], [`Status`], [`run_command`]: how a process ended and what it
//!   printed (test_support::process).
//! - [`emu`], [`run_emu`], [`run_emu_clean_env`], [`emu_command`]: running
//!   `irix-emu` with a time limit, capturing both streams; `emu` runs it
//!   from the repository root, so guest paths like `guest/bin/irix/hello`
//!   resolve inside the default `--root`, which is the cwd.
//! - [`guest_program`], [`guest`], [`repo_path`], [`repo`]: the committed
//!   guest binaries; a program not built yet skips, or fails when
//!   IRIX_EMU_REQUIRE_TOOLS=1, as a missing outside tool does
//!   ([`require_tool`]).
//! - [`Scratch`]: a temporary directory removed on drop.
//! - [`user_cycles`], [`USER_CYCLES_PER_TICK`]: the `--stats` line
//!   "cycles N user, M system" and the 100 Hz tick at the default 100 MHz.
//! - [`field`], [`lines_with`]: pulling numbers out of guest output.
//! - [`json_is_valid`]: a small JSON syntax check (no JSON crate among the
//!   dev-dependencies).
//! - [`gdb`]: GDB sessions against `irix-emu --gdb`.

// Each test crate uses its own subset of these helpers.
#![allow(dead_code, unused_imports)]

pub mod gdb;

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;

pub use irix_emu::exit;
pub use test_support::elf::Elf;
pub use test_support::process::{run_command, Run, Status};
pub use test_support::tools::require_tool;
pub use test_support::Scratch;

/// A Rust panic's exit status.
pub const PANIC: i32 = 101;
/// 128 + SIGSEGV (11).
pub const KILLED_BY_SIGSEGV: i32 = exit::SIGNAL_BASE as i32 + 11;

/// User cycles per clock tick at the default 100 MHz and HZ = 100 (README
/// "Virtual time": cycles / rate; docs/abi.md, "HZ = 100").
pub const USER_CYCLES_PER_TICK: u64 = 1_000_000;

/// A hand-built static IRIX o32 program that only calls exit(`status`)
/// (`Elf::program`: one PT_LOAD at 0x400000 mapping the whole file). As it
/// is, it runs; each field changed from it is what the loader refuses.
pub fn exit_program(status: u8) -> Elf {
    use test_support::mips::{addiu, syscall, A0, V0, ZERO};
    // exit is IRIX system call 1001 (docs/abi.md, "System calls").
    Elf::program(&[
        addiu(V0, ZERO, 1001),
        addiu(A0, ZERO, status.into()),
        syscall(),
    ])
}

/// How irix-emu ended when it exited with one of its own statuses.
pub fn exited(status: u8) -> Status {
    Status::Code(status.into())
}

/// The repository root (the root package's directory).
pub fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A path inside the repository.
pub fn repo_path(rel: &str) -> PathBuf {
    repo().join(rel)
}

/// `guest/bin/irix/NAME`, relative to the repository root.
pub fn guest(name: &str) -> String {
    format!("guest/bin/irix/{name}")
}

/// `guest/bin/<personality>/<name>`, or None (with a visible SKIP line)
/// when that program has not been built and committed yet; a failure
/// instead under IRIX_EMU_REQUIRE_TOOLS=1.
pub fn guest_program(personality: &str, name: &str) -> Option<PathBuf> {
    let shown = format!("guest/bin/{personality}/{name}");
    let path = repo_path(&shown);
    test_support::tools::require_file(&path, &shown).then_some(path)
}

/// The dynamic guest's root, guest/bin/dynroot (`/lib/ld.so`,
/// `/lib/libgreet.so`, `/bin/dyn_hello`), or None as [`guest_program`].
pub fn dynroot() -> Option<PathBuf> {
    let root = repo_path("guest/bin/dynroot");
    test_support::tools::require_file(
        &root.join("bin/dyn_hello"),
        "guest/bin/dynroot/bin/dyn_hello",
    )
    .then_some(root)
}

/// A Command for `irix-emu` with these arguments, run in `cwd`, with the
/// test's environment, but for XDG_CACHE_HOME: a directory of the build's,
/// so that no test writes to the user's own translation cache (the jit
/// engine's default `--jit-cache`).
pub fn emu_command<I, S>(args: I, cwd: &Path) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_irix-emu"));
    cmd.args(args).current_dir(cwd);
    cmd.env(
        "XDG_CACHE_HOME",
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("xdg-cache"),
    );
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

/// Runs `irix-emu ARGS` with the repository root as its cwd.
pub fn emu(args: &[&str]) -> Run {
    run_emu(args, repo())
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

/// What a run with `--stats` must give whatever the engine, the
/// translation cache or a recording of the compiled code: its status, its
/// output, and its instruction and cycle counts.
pub fn exact(run: &Run) -> (String, Vec<String>) {
    let lines = run
        .stderr_lines()
        .into_iter()
        .filter(|l| l.starts_with("irix-emu: instructions") || l.starts_with("irix-emu: cycles"))
        .map(String::from)
        .collect();
    (format!("{:?} {}", run.status, run.stdout_text()), lines)
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

/// `(samples, name)` of each line of a flat profile (irix-emu's text
/// report: `% time, cumulative, self, samples, name`).
#[allow(dead_code)] // not every test binary reads flat profiles
pub fn flat_profile_lines(text: &str) -> Vec<(u64, String)> {
    text.lines()
        .skip_while(|l| !l.contains("samples  name"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            Some((f.get(3)?.parse().ok()?, f.get(4)?.to_string()))
        })
        .collect()
}

/// One run of guest program `name` in an empty scratch directory, with its
/// stdin from /dev/null (None: the program is not built, skipped).
pub fn run_guest(name: &str) -> Option<Run> {
    let program = guest_program("irix", name)?;
    let dir = Scratch::new(name);
    Some(run_emu(["run".as_ref(), program.as_os_str()], dir.path()))
}

/// The lines of `stdout` that start with one of `prefixes`, in order.
pub fn lines<'a>(stdout: &'a str, prefixes: &[&str]) -> Vec<&'a str> {
    stdout
        .lines()
        .filter(|l| prefixes.iter().any(|p| l.starts_with(p)))
        .collect()
}

/// `prof --exact` of the committed IRIX program `name` in a fresh
/// directory, with the options `extra` before the program: its stdout, its
/// stderr without the scratch path and the host's time, and every file it
/// wrote (None: not built).
fn exact_profile(
    name: &str,
    extra: &[OsString],
) -> Option<(String, String, BTreeMap<String, Vec<u8>>)> {
    let program = guest_program("irix", name)?;
    let dir = Scratch::new(&format!("{name}-exact"));
    let mut args: Vec<OsString> = vec![
        "prof".into(),
        "--exact".into(),
        "-o".into(),
        dir.file("gmon.out").into(),
    ];
    args.extend(extra.iter().cloned());
    args.push(program.into_os_string());
    let r = run_emu(args, dir.path());
    assert_eq!(r.status, exited(0), "{name}: {}", r.stderr);
    let files = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    let stderr = r
        .stderr
        .replace(&dir.file(""), "DIR/")
        .lines()
        .filter(|l| !l.starts_with("irix-emu: host seconds"))
        .collect::<Vec<_>>()
        .join("\n");
    Some((r.stdout_text(), stderr, files))
}

/// Runs `prof --exact` of program `name` twice: the output, the exact
/// tables and the profile files must be the same, and the output what
/// `alone` (the program run without profiling) printed.
pub fn profiles_the_same_twice(name: &str, alone: Option<&str>) {
    profiles_the_same_twice_with(name, &[], alone);
}

/// [`profiles_the_same_twice`] with the options `extra` (a `--bind`).
pub fn profiles_the_same_twice_with(name: &str, extra: &[OsString], alone: Option<&str>) {
    let Some(first) = exact_profile(name, extra) else {
        return;
    };
    let second = exact_profile(name, extra).expect("built");
    assert_eq!(first.0, second.0, "{name}: output");
    assert!(first.1 == second.1, "{name}: prof --exact's tables differ");
    assert_eq!(first.2, second.2, "{name}: profile files");
    assert_eq!(Some(first.0.as_str()), alone, "{name}: as run alone");
}
