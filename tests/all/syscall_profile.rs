//! `prof --syscalls`: each process's system calls, errors and virtual
//! system time, as strace -c tallies them. The counts are --strace's lines,
//! call by call, and the times sum to the system time the kernel charged
//! (the `--stats` line, and each process's times(2)).

use crate::common;

use std::collections::BTreeMap;

use common::{guest, repo_path, run_emu, user_cycles, Scratch, Status};
use profile_formats::syscalls::{read_sidecar, SyscallProfile, FAULTS};

/// `prof --syscalls --strace --stats PROGRAM` in a scratch directory: the
/// run's stderr and the sidecar it kept.
fn profiled(program: &str) -> (String, SyscallProfile) {
    let dir = Scratch::new("syscall-profile");
    let path = repo_path(&guest(program)).display().to_string();
    let r = run_emu(
        ["prof", "--syscalls", "--strace", "--stats", &path],
        dir.path(),
    );
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    let profile = read_sidecar(&dir.path().join("gmon.out"))
        .expect("a readable sidecar")
        .expect("prof --syscalls keeps one");
    (r.stderr, profile)
}

/// A count per (pid, call name).
type Counts = BTreeMap<(u32, String), u64>;

/// --strace's lines counted by (pid, call), and the failed ones.
fn strace_counts(stderr: &str) -> (Counts, Counts) {
    let (mut calls, mut errors) = (BTreeMap::new(), BTreeMap::new());
    for line in stderr.lines() {
        let Some(rest) = line.strip_prefix('[') else {
            continue;
        };
        let Some((pid, call)) = rest.split_once("] ") else {
            continue;
        };
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        // The name runs to the first '(' (a syssgi request shows as
        // "syssgi(SGI_NAME, ...)", counted as syssgi(SGI_NAME)).
        let open = call.find('(').expect("name(args)");
        let mut name = call[..open].to_string();
        if name == "syssgi" {
            let request = call[open + 1..]
                .split([',', ')'])
                .next()
                .unwrap_or_default();
            if request.starts_with("SGI_") {
                name = format!("syssgi({request})");
            }
        }
        // A number IRIX does not name: "syscall(#N)".
        if name == "syscall" {
            name = call[..=call.find(')').expect("syscall(#N)")].to_string();
        }
        if call.ends_with("(blocked)") {
            continue;
        }
        *calls.entry((pid, name.clone())).or_insert(0) += 1;
        if call.contains(") = -1 ") {
            *errors.entry((pid, name)).or_insert(0) += 1;
        }
    }
    (calls, errors)
}

#[test]
fn the_counts_are_the_strace_lines_call_by_call() {
    for program in ["proc_pipeline", "sys_calls", "fileio"] {
        let (stderr, profile) = profiled(program);
        let (want_calls, want_errors) = strace_counts(&stderr);
        let mut got_calls = BTreeMap::new();
        let mut got_errors = BTreeMap::new();
        for p in &profile.processes {
            for c in p.calls.iter().filter(|c| c.name != FAULTS) {
                got_calls.insert((p.pid, c.name.clone()), c.calls);
                if c.errors > 0 {
                    got_errors.insert((p.pid, c.name.clone()), c.errors);
                }
            }
        }
        assert_eq!(got_calls, want_calls, "{program}");
        assert_eq!(got_errors, want_errors, "{program}");
    }
}

#[test]
fn the_system_times_sum_to_what_the_kernel_charged() {
    for program in ["proc_pipeline", "workload"] {
        let (stderr, profile) = profiled(program);
        let charged: u64 = profile.processes.iter().map(|p| p.total_cycles()).sum();
        // "irix-emu: cycles N user, M system" (--stats).
        let line = stderr
            .lines()
            .find(|l| l.starts_with("irix-emu: cycles "))
            .expect("the --stats cycles line");
        let system: u64 = line
            .rsplit_once(", ")
            .and_then(|(_, s)| s.strip_suffix(" system"))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        assert!(user_cycles(&stderr) > 0);
        assert_eq!(charged, system, "{program}");
    }
}

#[test]
fn report_shows_the_table_again_as_text_and_json() {
    let dir = Scratch::new("syscall-report");
    let path = repo_path(&guest("fileio")).display().to_string();
    let r = run_emu(["prof", "--syscalls", &path], dir.path());
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    let text = run_emu(["report", "--syscalls", &path, "gmon.out"], dir.path());
    assert_eq!(text.status, Status::Code(0), "{}", text.stderr);
    let text = text.stdout_text();
    assert!(text.contains("System calls of process 100 ("), "{text}");
    assert!(text.contains("% time     seconds  usecs/call     calls    errors syscall"));
    // What prof printed, the same table.
    assert!(r.stderr.contains(text.trim()), "{}", r.stderr);
    let json = run_emu(
        [
            "report",
            "--syscalls",
            "--format",
            "json",
            &path,
            "gmon.out",
        ],
        dir.path(),
    );
    assert_eq!(json.status, Status::Code(0), "{}", json.stderr);
    assert!(
        common::json_is_valid(&json.stdout_text()),
        "{}",
        json.stdout_text()
    );
    // Without --syscalls the next prof removes the table; report says so.
    let r = run_emu(["prof", &path], dir.path());
    assert_eq!(r.status, Status::Code(0));
    let gone = run_emu(["report", "--syscalls", &path, "gmon.out"], dir.path());
    assert_eq!(gone.status, Status::Code(125));
    assert_eq!(
        gone.stderr,
        "irix-emu: gmon.out.syscalls: no system calls were recorded\n\
         irix-emu: hint: record them with: irix-emu prof --syscalls PROGRAM\n"
    );
}
