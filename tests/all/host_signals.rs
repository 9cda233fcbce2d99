//! irix-emu itself sent SIGINT, SIGTERM or SIGHUP while a program runs
//! (docs/usage.md, "Exit statuses"): the run stops between time slices, the
//! private scratch directory (the guest's /tmp, /usr/tmp and /var/tmp) is
//! removed, and irix-emu exits with 128 + the signal's number. Each test
//! points TMPDIR at a directory of its own, so the scratch directory is
//! found there and its removal checked.

use crate::common;

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
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
/// TMPDIR=`tmp`. The stopping signals are given their default action
/// first: irix-emu leaves a signal alone that it inherits ignored (as
/// under nohup), and the tests may themselves run under nohup.
fn start(dir: &Scratch, tmp: &Path, args: &[&str]) -> Child {
    use std::os::unix::process::CommandExt;
    let mut cmd = emu_command(args, dir.path());
    cmd.env("TMPDIR", tmp)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // SAFETY: signal(2) is async-signal-safe, so it may run between fork
    // and exec; it touches nothing of the parent's.
    unsafe {
        cmd.pre_exec(|| {
            for sig in [libc::SIGHUP, libc::SIGINT, libc::SIGTERM] {
                libc::signal(sig, libc::SIG_DFL);
            }
            Ok(())
        });
    }
    cmd.spawn().expect("irix-emu starts")
}

/// The scratch directory irix-emu makes in `tmp`, once the guest's /tmp is
/// in it.
fn wait_for_scratch(tmp: &Path) -> Option<PathBuf> {
    let started = Instant::now();
    while started.elapsed() < STOP_LIMIT {
        // The guest's /tmp is made in it just after the directory itself:
        // a loaded host can be seen between the two.
        if let [one] = scratch_dirs(tmp).as_slice() {
            if one.join("tmp").is_dir() {
                return Some(one.clone());
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    None
}

/// Sends `signal` to `child`.
fn send(child: &Child, signal: i32) {
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
}

/// Sends `signal` to `child` and waits for it: (exit status, stderr).
fn stop(child: Child, signal: i32) -> (Option<i32>, String) {
    // Let the run get going (the signal must also work mid-run).
    std::thread::sleep(Duration::from_millis(200));
    send(&child, signal);
    wait_for_exit(child, signal)
}

/// Waits for `child`, sent `signal`: (exit status, stderr).
fn wait_for_exit(mut child: Child, signal: i32) -> (Option<i32>, String) {
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
    let (status, stderr) = stop(child, signal);
    let scratch = scratch.expect("irix-emu made a scratch directory with the guest's /tmp in it");
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

/// A run a signal stops still writes the blocks it compiled to the
/// translation cache, as a run that ends does: one pack, which the next
/// run loads.
#[test]
fn sigint_still_writes_the_blocks_the_run_compiled_to_the_translation_cache() {
    let dir = Scratch::new("host-signal-jit-cache");
    let tmp = dir.mkdir("host-tmp");
    dir.write_executable("spin", &spinning_program().build());
    let cache = dir.path().join("cache");
    let cache = cache.to_str().expect("UTF-8");
    let args = [
        "run",
        "--stats",
        "--engine",
        "jit",
        "--jit-cache",
        cache,
        "--max-cycles",
        "100000000000",
        "spin",
    ];
    let child = start(&dir, &tmp, &args);
    wait_for_scratch(&tmp);
    let (status, stderr) = stop(child, libc::SIGINT);
    assert_eq!(status, Some(130), "{stderr}");
    assert!(
        stderr.contains("jit cache       0 hits, 1 misses"),
        "{stderr}"
    );
    let packs: Vec<PathBuf> = std::fs::read_dir(cache)
        .expect("the cache")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    assert_eq!(packs.len(), 1, "{packs:?}");
    assert!(
        packs[0].extension().is_some_and(|x| x == "pack"),
        "{packs:?}"
    );
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

/// The temporary files (`.NAME.PID.N.tmp`) in `dir`.
fn temporaries(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .expect("read the directory")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "tmp"))
        .collect()
}

/// Waiting for GDB, `prof`'s gmon.out is still its temporary file:
/// ending irix-emu after the grace removes it, with the scratch directory.
#[test]
fn sigterm_while_prof_waits_for_gdb_leaves_no_temporary_gmon_out() {
    let dir = Scratch::new("host-signal-prof-gdb");
    let tmp = dir.mkdir("host-tmp");
    dir.write_executable("spin", &spinning_program().build());
    let sock = dir.path().join("gdb.sock");
    let gdb = format!("unix:{}", sock.display());
    let child = start(&dir, &tmp, &["prof", "--gdb", &gdb, "spin"]);
    let scratch = wait_for_scratch(&tmp);
    common::gdb::wait_for_socket(&sock);
    assert_eq!(temporaries(dir.path()).len(), 1, "gmon.out's temporary");
    let (status, stderr) = stop(child, libc::SIGTERM);
    assert_eq!(status, Some(143), "{stderr}");
    assert!(stderr.contains("stopped by SIGTERM"), "{stderr}");
    assert!(!scratch.expect("a scratch directory").exists());
    assert_eq!(temporaries(dir.path()), Vec::<PathBuf>::new());
    assert!(!dir.path().join("gmon.out").exists(), "no profile");
}

/// A second signal before the run has stopped (here it cannot: irix-emu
/// waits for GDB) ends irix-emu at once, without waiting out the grace.
#[test]
fn a_second_sigint_in_quick_succession_ends_irix_emu_at_once_with_130() {
    let dir = Scratch::new("host-signal-twice");
    let tmp = dir.mkdir("host-tmp");
    dir.write_executable("spin", &spinning_program().build());
    let sock = dir.path().join("gdb.sock");
    let gdb = format!("unix:{}", sock.display());
    let child = start(&dir, &tmp, &["run", "--gdb", &gdb, "spin"]);
    let scratch = wait_for_scratch(&tmp);
    common::gdb::wait_for_socket(&sock);
    send(&child, libc::SIGINT);
    std::thread::sleep(Duration::from_millis(100));
    let second = Instant::now();
    send(&child, libc::SIGINT);
    let (status, stderr) = wait_for_exit(child, libc::SIGINT);
    let took = second.elapsed();
    assert_eq!(status, Some(130), "{stderr}");
    assert!(
        stderr.contains("stopped by SIGINT (a second signal"),
        "{stderr}"
    );
    assert!(took < GRACE, "took {took:?}, as long as the grace");
    assert!(!scratch.expect("a scratch directory").exists());
}

/// The grace irix-emu gives a run to stop (src/cli/interrupt.rs).
const GRACE: Duration = Duration::from_secs(2);

/// A pipe whose buffer is full: (read end, write end). Every write to it
/// blocks while the read end stays open and unread.
fn full_pipe() -> (OwnedFd, OwnedFd) {
    let mut fds = [0; 2];
    // SAFETY: pipe2 fills `fds` with two new descriptors, owned from here.
    let (read, write) = unsafe {
        assert_eq!(libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC), 0);
        (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1]))
    };
    let w = write.as_raw_fd();
    // SAFETY: fcntl and write on a descriptor this function owns, from a
    // live buffer.
    unsafe {
        libc::fcntl(w, libc::F_SETPIPE_SZ, 4096);
        let flags = libc::fcntl(w, libc::F_GETFL);
        libc::fcntl(w, libc::F_SETFL, flags | libc::O_NONBLOCK);
        let page = [b'x'; 4096];
        while libc::write(w, page.as_ptr().cast(), page.len()) > 0 {}
        libc::fcntl(w, libc::F_SETFL, flags);
    }
    (read, write)
}

/// Whether process `pid`'s main thread sleeps writing to a pipe; None
/// where the host does not say (no /proc/PID/wchan, or a kernel that
/// hides it as "0").
fn writing_to_a_pipe(pid: u32) -> Option<bool> {
    let wchan = std::fs::read_to_string(format!("/proc/{pid}/wchan")).ok()?;
    let wchan = wchan.trim();
    (!wchan.is_empty() && wchan != "0").then(|| wchan.contains("pipe_w"))
}

/// After the run, `prof` writes its output; a SIGTERM then (as from CI's
/// `timeout`) ends irix-emu at once with 143, even with the main thread
/// stuck writing to a stderr nobody reads, and leaves no temporary file
/// and no half-written profile behind.
#[test]
fn sigterm_while_prof_writes_its_report_ends_irix_emu_at_once_with_143_leaving_no_temporary() {
    let dir = Scratch::new("host-signal-report");
    let tmp = dir.mkdir("host-tmp");
    dir.write_executable("spin", &spinning_program().build());
    let (_unread, stderr) = full_pipe();
    let mut cmd = emu_command(["prof", "--max-cycles", "1000000", "spin"], dir.path());
    cmd.env("TMPDIR", &tmp)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(stderr));
    let child = cmd.spawn().expect("irix-emu starts");
    // The run ends at the cycle limit; saying so, irix-emu blocks on the
    // full pipe, gmon.out still its temporary file.
    let started = Instant::now();
    loop {
        match writing_to_a_pipe(child.id()) {
            Some(true) => break,
            Some(false) => {}
            // A host that does not say: a million cycles take
            // milliseconds, so after a second prof is blocked writing.
            None if started.elapsed() >= Duration::from_secs(1) => break,
            None => {}
        }
        assert!(
            started.elapsed() < STOP_LIMIT,
            "prof never wrote its output"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let scratch = scratch_dirs(&tmp);
    assert_eq!(
        scratch.len(),
        1,
        "the kernel, and its scratch directory, live on"
    );
    assert_eq!(temporaries(dir.path()).len(), 1, "gmon.out's temporary");
    let signalled = Instant::now();
    send(&child, libc::SIGTERM);
    let (status, _) = wait_for_exit(child, libc::SIGTERM);
    let took = signalled.elapsed();
    assert_eq!(status, Some(143));
    assert!(took < GRACE, "took {took:?}, as long as the grace");
    assert!(!scratch[0].exists(), "scratch left behind");
    assert_eq!(temporaries(dir.path()), Vec::<PathBuf>::new());
    assert!(!dir.path().join("gmon.out").exists(), "no profile");
}
