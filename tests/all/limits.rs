//! Resource limits: no guest, file or input exhausts the host or hangs
//! irix-emu. Each test reproduces one way it used to (a fork bomb, a sparse
//! 4 GiB exec, an mmap loop, a copy-out into fresh stack, a FIFO, /dev/zero,
//! a quadratic report, a BREAK in a delay slot...), shows the behaviour now,
//! and runs irix-emu under a hard address-space cap (`ulimit -v` in a child
//! shell) so that a regression fails instead of exhausting the machine.
//! Where memory is the point, the peak resident size of the irix-emu
//! process is asserted too: the `host memory` line of `--stats` (the
//! high-water mark of irix-emu's own address space; getrusage's
//! `ru_maxrss` through wait4 would count the test process's memory too,
//! since Linux carries it over the spawned child's exec).

use crate::common;

use std::ffi::OsStr;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{guest_program, repo_path, Scratch, Status};
use test_support::process::TIME_LIMIT;

/// The address-space cap (KiB) every run here gets: 1 GiB, a quarter of
/// what the old eager memory needed for the sparse exec alone.
const CAP_KB: u64 = 1 << 20;

/// What a capped run printed and how it ended.
struct Capped {
    status: Status,
    stdout: String,
    stderr: String,
}

impl Capped {
    /// The peak resident size (KiB) from `--stats`' host memory line.
    fn peak_rss_kb(&self) -> u64 {
        self.stderr
            .lines()
            .find_map(|l| l.strip_prefix("irix-emu: host memory"))
            .and_then(|l| l.trim().strip_suffix(" KiB peak resident"))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no host memory line in {}", self.stderr))
    }
}

/// Runs `irix-emu ARGS` in `cwd` under `ulimit -v CAP_KB`, with stdin
/// empty; returns its output and status. Kills it and panics after the
/// common time limit.
fn run_capped<S: AsRef<OsStr>>(args: &[S], cwd: &Path) -> Capped {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("ulimit -v {CAP_KB} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_irix-emu"))
        .args(args)
        .current_dir(cwd)
        // As common::emu_command: never the user's own translation cache.
        .env(
            "XDG_CACHE_HOME",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("xdg-cache"),
        )
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("start sh");
    let mut out = child.stdout.take().expect("piped");
    let mut err = child.stderr.take().expect("piped");
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
        if let Some(exit) = child.try_wait().expect("wait for irix-emu") {
            break exit;
        }
        if started.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "irix-emu {:?} still running after {TIME_LIMIT:?}",
                args_text(args)
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let status = match (exit.code(), exit.signal()) {
        (Some(code), _) => Status::Code(code),
        (None, Some(signal)) => Status::Signal(signal),
        (None, None) => unreachable!("an exit is a code or a signal"),
    };
    Capped {
        status,
        stdout: String::from_utf8_lossy(&out_reader.join().expect("stdout")).into_owned(),
        stderr: String::from_utf8_lossy(&err_reader.join().expect("stderr")).into_owned(),
    }
}

fn args_text<S: AsRef<OsStr>>(args: &[S]) -> Vec<String> {
    args.iter()
        .map(|a| a.as_ref().to_string_lossy().into_owned())
        .collect()
}

fn here() -> PathBuf {
    repo_path("")
}

fn prog(name: &str) -> Option<String> {
    guest_program("irix", name).map(|p| p.display().to_string())
}

/// Peak RSS a run whose point is memory may reach: irix-emu itself and a
/// small guest take about 10 MiB.
const SMALL_RSS_KB: u64 = 64 << 10;

#[test]
fn break_7_in_a_delay_slot_is_sigfpe_as_its_code_asks() {
    let Some(p) = prog("limit_break_slot") else {
        return;
    };
    let r = run_capped(&["run", &p], &here());
    assert_eq!(r.stdout, "limit_break_slot: break 7 in a delay slot\n");
    assert!(r.stderr.contains("killed by SIGFPE"), "{}", r.stderr);
    assert_eq!(r.status, Status::Code(136), "SIGFPE, not SIGTRAP (133)");
}

#[test]
fn fork_beyond_child_max_is_eagain_and_zombies_count_until_collected() {
    let Some(p) = prog("limit_fork") else {
        return;
    };
    let r = run_capped(&["run", "--stats", &p, "count"], &here());
    assert_eq!(
        r.stdout,
        "limit_fork: fork failed with EAGAIN after 99 children\n\
         limit_fork: collected 99\n\
         limit_fork: fork after collecting: ok\n"
    );
    assert_eq!(r.status, Status::Code(0));
    assert!(
        r.peak_rss_kb() < SMALL_RSS_KB,
        "peak RSS {} KiB",
        r.peak_rss_kb()
    );
}

#[test]
fn a_fork_bomb_fills_the_process_table_and_ends_at_max_cycles() {
    let Some(p) = prog("limit_fork") else {
        return;
    };
    let r = run_capped(
        &["run", "--stats", "--max-cycles", "300000000", &p, "bomb"],
        &here(),
    );
    assert_eq!(r.status, Status::Code(124), "{}", r.stderr);
    assert!(r.stderr.contains("--max-cycles"), "{}", r.stderr);
    assert!(
        r.peak_rss_kb() < SMALL_RSS_KB,
        "peak RSS {} KiB",
        r.peak_rss_kb()
    );
}

#[test]
fn every_process_shares_one_memory_budget() {
    let Some(p) = prog("limit_fork") else {
        return;
    };
    // 4 MiB holds the parent and a few dozen children's tables, not 99.
    let r = run_capped(
        &["run", "--stats", "--max-memory", "4M", &p, "count"],
        &here(),
    );
    let first = r.stdout.lines().next().unwrap_or_default().to_string();
    assert!(
        first.starts_with("limit_fork: fork failed with ENOMEM after "),
        "{first}"
    );
    let n: u32 = first
        .rsplit(' ')
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("a count");
    assert!(n > 0 && n < 99, "{n} children in 4 MiB");
    assert_eq!(r.status, Status::Code(0));
}

#[test]
fn exec_of_a_sparse_4_gib_file_maps_pages_not_the_file() {
    let Some(p) = prog("limit_exec") else {
        return;
    };
    let root = Scratch::new("sparse-exec");
    std::fs::copy(&p, root.path().join("prog")).expect("copy prog");
    let prog_path = root.path().join("prog");
    let r = run_capped(
        &[
            OsStr::new("run"),
            OsStr::new("--stats"),
            OsStr::new("--root"),
            root.path().as_os_str(),
            prog_path.as_os_str(),
        ],
        &here(),
    );
    assert_eq!(
        r.stdout,
        "limit_exec: /big is 4 GiB + 1, exec'ing it\nlimit_exec: child running from /big\n",
        "{}",
        r.stderr
    );
    assert_eq!(r.status, Status::Code(0));
    let big = std::fs::metadata(root.path().join("big")).expect("big");
    assert_eq!(big.len(), (4 << 30) + 1);
    assert!(
        r.peak_rss_kb() < SMALL_RSS_KB,
        "peak RSS {} KiB",
        r.peak_rss_kb()
    );
}

/// mkfifo(3) in the test's scratch root.
fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).expect("path");
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
}

#[test]
fn exec_of_a_fifo_or_directory_is_eacces_at_once() {
    let Some(p) = prog("limit_exec") else {
        return;
    };
    let root = Scratch::new("exec-special");
    mkfifo(&root.path().join("ff"));
    for (target, errno) in [("/ff", "EACCES"), ("/", "EACCES")] {
        let r = run_capped(
            &[
                OsStr::new("run"),
                OsStr::new("--root"),
                root.path().as_os_str(),
                OsStr::new(&p),
                OsStr::new("path"),
                OsStr::new(target),
            ],
            &here(),
        );
        assert_eq!(r.stdout, format!("limit_exec: exec {target}: {errno}\n"));
        assert_eq!(r.status, Status::Code(0));
    }
}

#[test]
fn mmap_and_munmap_in_a_loop_reuse_the_address_space() {
    let Some(p) = prog("limit_mmap_loop") else {
        return;
    };
    let r = run_capped(&["run", "--stats", &p], &here());
    assert_eq!(
        r.stdout,
        "limit_mmap_loop: 5000 maps, every one at 0x30000000\n\
         limit_mmap_loop: 512 MiB untouched: ok\n"
    );
    assert_eq!(r.status, Status::Code(0));
    assert!(
        r.peak_rss_kb() < SMALL_RSS_KB,
        "peak RSS {} KiB",
        r.peak_rss_kb()
    );
}

#[test]
fn kernel_copy_out_and_signal_frames_grow_the_stack_like_stores() {
    let Some(p) = prog("limit_stack_copyout") else {
        return;
    };
    let r = run_capped(&["run", &p], &here());
    assert_eq!(
        r.stdout,
        "limit_stack_copyout: gettimeofday into fresh stack: ok\n\
         limit_stack_copyout: nested handlers: 400\n"
    );
    assert_eq!(r.status, Status::Code(0));
}

#[test]
fn untouched_bss_and_heap_cost_the_host_nothing() {
    let Some(p) = prog("limit_big_bss") else {
        return;
    };
    let r = run_capped(&["run", "--stats", &p], &here());
    assert_eq!(
        r.stdout,
        "limit_big_bss: first 1 last 2\nlimit_big_bss: heap first 3 last 4\n"
    );
    assert_eq!(r.status, Status::Code(0));
    assert!(
        r.peak_rss_kb() < SMALL_RSS_KB,
        "peak RSS {} KiB",
        r.peak_rss_kb()
    );
}

/// "system N" from --stats' cycles line.
fn system_cycles(stderr: &str) -> u64 {
    stderr
        .lines()
        .find_map(|l| l.strip_prefix("irix-emu: cycles"))
        .and_then(|l| l.split(", ").nth(1))
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no cycles line in {stderr}"))
}

#[test]
fn brk_up_and_down_is_cheap_and_charged_as_the_work_it_does() {
    let Some(p) = prog("limit_brk_loop") else {
        return;
    };
    let r = run_capped(&["run", "--stats", &p], &here());
    assert_eq!(r.stdout, "limit_brk_loop: 20000 rounds\n");
    assert_eq!(r.status, Status::Code(0));
    // 40,000 brk calls at 500 cycles each, plus the memory work: a page
    // zeroed per round and the mappings made and removed.
    let fixed = 40_000 * 500;
    assert!(
        system_cycles(&r.stderr) > fixed + 20_000 * 1024,
        "{}",
        r.stderr
    );
    // So --max-cycles bounds it: the rounds' system time ends the run.
    let r = run_capped(&["run", "--max-cycles", "5000000", &p], &here());
    assert_eq!(r.stdout, "");
    assert_eq!(r.status, Status::Code(124));
}

#[test]
fn sprofil_with_1024_regions_in_a_loop_is_bounded_by_max_cycles() {
    let Some(p) = prog("limit_sprofil_loop") else {
        return;
    };
    // 20,000 calls used to cost 10 M cycles of virtual time and most of a
    // minute of host time; each call's system time now grows with its
    // regions (256 cycles each), so --max-cycles stops the loop early.
    let r = run_capped(&["run", "--stats", "--max-cycles", "50000000", &p], &here());
    assert_eq!(r.stdout, "");
    assert_eq!(r.status, Status::Code(124), "{}", r.stderr);
    assert!(system_cycles(&r.stderr) > 40_000_000, "{}", r.stderr);
}

#[test]
fn a_fifo_nobody_writes_blocks_only_the_caller_in_virtual_time() {
    let Some(p) = prog("limit_fifo") else {
        return;
    };
    let root = Scratch::new("fifo");
    mkfifo(&root.path().join("ff"));
    let base = |extra: &[&str]| {
        let mut v = vec![
            OsStr::new("run").to_os_string(),
            OsStr::new("--root").to_os_string(),
            root.path().as_os_str().to_os_string(),
        ];
        v.extend(extra.iter().map(|s| OsStr::new(s).to_os_string()));
        v
    };
    let r = run_capped(&base(&["--max-cycles", "100000000", &p, "/ff"]), &here());
    assert_eq!(r.stdout, "limit_fifo: opened /ff\n");
    assert_eq!(r.status, Status::Code(124), "{}", r.stderr);
    let r = run_capped(&base(&["--timeout", "0.5", &p, "/ff"]), &here());
    assert_eq!(r.status, Status::Code(124), "{}", r.stderr);
    assert!(r.stderr.contains("--timeout"), "{}", r.stderr);
    let r = run_capped(&base(&[&p, "/ff", "nonblocking"]), &here());
    assert_eq!(
        r.stdout,
        "limit_fifo: opened /ff\nlimit_fifo: read: EAGAIN\n"
    );
    assert_eq!(r.status, Status::Code(0));
}

#[test]
fn dev_zero_as_program_or_profile_is_refused_without_reading() {
    let Some(p) = prog("hello") else {
        return;
    };
    let r = run_capped(&["run", "/dev/zero"], &here());
    assert_eq!(
        r.stderr,
        "irix-emu: /dev/zero: not a regular file (a character device)\n"
    );
    assert_eq!(r.status, Status::Code(126));
    let r = run_capped(&["report", &p, "/dev/zero"], &here());
    assert_eq!(
        r.stderr,
        "irix-emu: /dev/zero: cannot read: not a regular file (a character device)\n"
    );
    assert_eq!(r.status, Status::Code(125));
}

/// A gmon.out of `records` histogram records, all over the first 4 bytes
/// at `low` with one bin: gprof sums identical ranges.
fn many_records(low: u32, records: usize) -> Vec<u8> {
    let mut b = Vec::with_capacity(20 + records * 35);
    b.extend_from_slice(b"gmon");
    b.extend_from_slice(&1u32.to_be_bytes());
    b.extend_from_slice(&[0; 12]);
    for _ in 0..records {
        b.push(0);
        b.extend_from_slice(&low.to_be_bytes());
        b.extend_from_slice(&(low + 4).to_be_bytes());
        b.extend_from_slice(&1u32.to_be_bytes());
        b.extend_from_slice(&100u32.to_be_bytes());
        let mut dim = [0u8; 15];
        dim[..7].copy_from_slice(b"seconds");
        b.extend_from_slice(&dim);
        b.push(b's');
        b.extend_from_slice(&1u16.to_be_bytes());
    }
    b
}

#[test]
fn report_of_400k_histogram_records_is_not_quadratic() {
    let Some(p) = prog("hello") else {
        return;
    };
    let exe = loader::load(
        "hello",
        &std::fs::read(&p).expect("read"),
        &Default::default(),
    )
    .expect("loads");
    let text = exe.text_ranges()[0].0;
    let dir = Scratch::new("report-many");
    // 400,000 records, 14 MB: quadratic checking took minutes for this.
    let gmon = dir.write("gmon.out", &many_records(text, 400_000));
    let started = Instant::now();
    let r = run_capped(
        &[OsStr::new("report"), OsStr::new(&p), gmon.as_os_str()],
        &here(),
    );
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    assert!(r.stdout.contains("400000"), "{}", r.stdout);
    // A hang guard, not a speed target: linear work takes a second or two.
    assert!(started.elapsed() < Duration::from_secs(60));
}

#[test]
fn prof_output_that_cannot_be_written_fails_before_the_guest_runs() {
    let Some(p) = prog("hello") else {
        return;
    };
    let r = run_capped(&["prof", "-o", "/proc/irix-emu-gmon.out", &p], &here());
    assert_eq!(r.stdout, "", "the guest must not have run");
    assert!(
        r.stderr
            .starts_with("irix-emu: /proc/irix-emu-gmon.out: cannot write: "),
        "{}",
        r.stderr
    );
    assert_eq!(r.status, Status::Code(125));
}

#[test]
fn socket_buffers_count_against_max_memory_and_come_back_when_closed() {
    // socket(2) [ENOBUFS]: "Insufficient buffer space is available. The
    // socket cannot be created until sufficient resources are freed." A
    // socket's receive buffer is charged to --max-memory while it is
    // open: 1 MiB holds a few dozen pairs, not the 200 the program asks
    // for, and closing them all gives the memory back.
    let Some(p) = prog("limit_sockets") else {
        return;
    };
    let r = run_capped(&["run", "--max-memory", "1M", &p], &here());
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    let n: u32 = lines
        .first()
        .and_then(|l| l.strip_prefix("pairs made: "))
        .and_then(|n| n.parse().ok())
        .expect("a count");
    assert!(n > 0 && n < 100, "{n} pairs in 1 MiB");
    assert_eq!(
        lines[1..],
        [
            "then socketpair: ENOBUFS",
            "after closing them all, socketpair: 0"
        ]
    );
}
