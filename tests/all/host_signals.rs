//! irix-emu itself sent SIGINT, SIGTERM or SIGHUP while a program runs
//! (docs/usage.md, "Exit statuses"): the run stops between time slices, the
//! private scratch directory (the guest's /tmp, /usr/tmp and /var/tmp) is
//! removed, and irix-emu exits with 128 + the signal's number. Each test
//! points TMPDIR at a directory of its own, so the scratch directory is
//! found there and its removal checked.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::{emu_command, Elf, Scratch};
use test_support::mips::{itype, ZERO};

/// How long irix-emu may take to stop after the signal (it stops within a
/// time slice; the GDB case within the two-second grace).
const STOP_LIMIT: Duration = Duration::from_secs(60);

/// `beq zero, zero, .` with a nop in its delay slot: runs until stopped.
fn spinning_program() -> Elf {
    Elf::program(&[itype(0x04, ZERO, ZERO, 0xffff), 0])
}

/// The `irix-emu-*` directories in `tmp`.
fn scratch_dirs(tmp: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(tmp)
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with("irix-emu-"))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Starts `irix-emu ARGS` in `dir` (the default root, without /tmp) with
/// TMPDIR=`tmp`.
fn start(dir: &Scratch, tmp: &Path, args: &[&str]) -> Child {
    let mut cmd = emu_command(args, dir.path());
    cmd.env("TMPDIR", tmp)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    cmd.spawn().expect("irix-emu starts")
}

/// The scratch directory irix-emu makes in `tmp`, once it is there.
fn wait_for_scratch(tmp: &Path) -> Option<PathBuf> {
    let started = Instant::now();
    while started.elapsed() < STOP_LIMIT {
        if let [one] = scratch_dirs(tmp).as_slice() {
            return Some(one.clone());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    None
}

/// Sends `signal` to `child` and waits for it: (exit status, stderr).
fn stop(mut child: Child, signal: i32) -> (Option<i32>, String) {
    // Let the run get going (the signal must also work mid-run).
    std::thread::sleep(Duration::from_millis(200));
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > STOP_LIMIT {
            child.kill().ok();
            child.wait().ok();
            panic!("irix-emu still running {STOP_LIMIT:?} after signal {signal}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut stderr = String::new();
    if let Some(mut e) = child.stderr.take() {
        use std::io::Read;
        e.read_to_string(&mut stderr).ok();
    }
    (status.code(), stderr)
}

fn assert_stopped_cleanly(command: &str, signal: i32, name: &str) {
    let dir = Scratch::new("host-signal");
    let tmp = dir.mkdir("host-tmp");
    dir.write_executable("spin", &spinning_program().build());
    let args = [command, "--max-cycles", "100000000000", "spin"];
    let child = start(&dir, &tmp, &args);
    let scratch = wait_for_scratch(&tmp);
    let had_tmp = scratch.as_ref().is_some_and(|s| s.join("tmp").is_dir());
    let (status, stderr) = stop(child, signal);
    let scratch = scratch.expect("irix-emu made a scratch directory");
    assert!(had_tmp, "the guest's /tmp was in it");
    assert_eq!(status, Some(128 + signal), "{command}, {name}: {stderr}");
    assert!(
        stderr.contains(&format!("spin: stopped: irix-emu received {name}")),
        "{command}, {name}: {stderr}"
    );
    assert!(!scratch.exists(), "{command}, {name}: scratch left behind");
    assert_eq!(scratch_dirs(&tmp), Vec::<PathBuf>::new());
}

#[test]
fn sigterm_removes_the_private_tmp_and_exits_143() {
    assert_stopped_cleanly("run", libc::SIGTERM, "SIGTERM");
}

#[test]
fn sigint_removes_the_private_tmp_and_exits_130() {
    assert_stopped_cleanly("run", libc::SIGINT, "SIGINT");
}

#[test]
fn sighup_removes_the_private_tmp_and_exits_129() {
    assert_stopped_cleanly("run", libc::SIGHUP, "SIGHUP");
}

#[test]
fn prof_stopped_by_sigterm_cleans_up_and_exits_143() {
    assert_stopped_cleanly("prof", libc::SIGTERM, "SIGTERM");
}

/// Waiting for GDB, the run cannot look between time slices: after the
/// grace period irix-emu removes the directory and exits by itself.
#[test]
fn sigterm_while_waiting_for_gdb_still_cleans_up_and_exits_143() {
    let dir = Scratch::new("host-signal-gdb");
    let tmp = dir.mkdir("host-tmp");
    dir.write_executable("spin", &spinning_program().build());
    let sock = dir.path().join("gdb.sock");
    let gdb = format!("unix:{}", sock.display());
    let child = start(&dir, &tmp, &["run", "--gdb", &gdb, "spin"]);
    let scratch = wait_for_scratch(&tmp);
    common::gdb::wait_for_socket(&sock);
    let (status, stderr) = stop(child, libc::SIGTERM);
    let scratch = scratch.expect("irix-emu made a scratch directory");
    assert_eq!(status, Some(143), "{stderr}");
    assert!(stderr.contains("stopped by SIGTERM"), "{stderr}");
    assert!(!scratch.exists(), "scratch left behind");
}
