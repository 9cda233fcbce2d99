//! What a newcomer meets: completions and the manual page generated from
//! the command-line definition, errors that say what to do next, output
//! that names what it wrote, and binary formats kept off terminals.

use crate::common;

use std::os::fd::{FromRawFd, OwnedFd};
use std::process::Stdio;

use common::{emu, emu_command, exit, exited, guest, run_emu, Scratch, Status};

#[test]
fn completions_are_generated_for_every_shell_clap_knows() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let r = emu(&["completions", shell]);
        assert_eq!(r.status, Status::Code(0), "{shell}: {}", r.stderr);
        let script = String::from_utf8_lossy(&r.stdout);
        // Each names the command and offers its options.
        assert!(script.contains("irix-emu"), "{shell}");
        assert!(script.contains("max-memory"), "{shell}");
        assert!(script.contains("callgraph"), "{shell}");
    }
    let r = emu(&["completions", "tcsh"]);
    assert_eq!(r.status, exited(exit::EMULATOR_FAILURE));
    assert!(
        r.stderr.starts_with("irix-emu: invalid value 'tcsh'"),
        "{}",
        r.stderr
    );
}

#[test]
fn the_manual_page_is_roff_with_every_command_and_option() {
    let r = emu(&["man"]);
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    let page = String::from_utf8_lossy(&r.stdout);
    assert!(page.contains(".TH irix-emu 1"), "{page}");
    for sub in [
        "irix\\-emu\\-run(1)",
        "irix\\-emu\\-prof(1)",
        "irix\\-emu\\-report(1)",
    ] {
        assert!(page.contains(sub), "{sub} in {page}");
    }
    let r = emu(&["man", "prof"]);
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    let page = String::from_utf8_lossy(&r.stdout);
    assert!(page.contains(".TH irix-emu-prof 1"), "{page}");
    for option in [
        "\\-\\-max\\-memory",
        "\\-\\-callgraph",
        "\\-\\-exact",
        "\\-\\-svg",
    ] {
        assert!(page.contains(option), "{option}");
    }
    let r = emu(&["man", "nope"]);
    assert_eq!(r.status, exited(exit::EMULATOR_FAILURE));
    assert_eq!(
        r.stderr,
        "irix-emu: man: no command 'nope' (the commands: run, prof, report, completions, man)\n"
    );
}

/// The help, the list of commands and the manual page show `run`'s usage
/// as typed: brackets, not the backslashes rustdoc would want before them.
#[test]
fn the_help_shows_runs_usage_with_plain_brackets() {
    let usage = "irix-emu run [OPTIONS] PROGRAM [ARGS...]";
    for args in [&["--help"][..], &["run", "--help"]] {
        let r = emu(args);
        assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
        let text = String::from_utf8_lossy(&r.stdout);
        assert!(text.contains(usage), "{args:?}: {text}");
        assert!(!text.contains('\\'), "{args:?}: {text}");
    }
    let r = emu(&["man", "run"]);
    let page = String::from_utf8_lossy(&r.stdout);
    assert!(
        page.contains("irix\\-emu run [OPTIONS] PROGRAM [ARGS...]"),
        "{page}"
    );
}

#[test]
fn each_command_points_its_errors_at_its_own_help() {
    for (command, args) in [
        ("prof", vec!["prof", "--fast=x"]),
        ("report", vec!["report"]),
    ] {
        let r = emu(&args);
        let lines: Vec<&str> = r.stderr.lines().collect();
        assert_eq!(lines.len(), 2, "{}", r.stderr);
        assert!(lines[0].starts_with("irix-emu: "), "{}", r.stderr);
        assert_eq!(
            lines[1],
            format!("irix-emu: hint: try 'irix-emu {command} --help'")
        );
        assert_eq!(r.status, exited(exit::EMULATOR_FAILURE));
    }
}

/// A profile of workload in a scratch directory: (dir, program path).
fn profiled(extra: &[&str]) -> (Scratch, String, common::Run) {
    let dir = Scratch::new("first-contact");
    let program = common::repo_path(&guest("workload")).display().to_string();
    let mut args = vec!["prof"];
    args.extend_from_slice(extra);
    args.push(&program);
    let r = run_emu(args, dir.path());
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    (dir, program, r)
}

#[test]
fn prof_says_its_seconds_are_virtual_and_what_to_do_next() {
    let (_dir, program, r) = profiled(&[]);
    let lines: Vec<&str> = r.stderr.lines().collect();
    // The header comes before the flat profile.
    assert_eq!(
        lines[0],
        "irix-emu: the seconds below are virtual time: ticks of the 100 Hz clock on a 100 MHz R4000"
    );
    assert!(
        lines[1].starts_with("irix-emu: host seconds    "),
        "{}",
        lines[1]
    );
    assert!(lines[1].ends_with(" (what the host took)"), "{}", lines[1]);
    assert_eq!(lines[2], "Flat profile:");
    let last = lines.last().copied().unwrap_or_default();
    assert!(
        last.starts_with(&format!(
            "irix-emu: next: irix-emu report {program} gmon.out"
        )),
        "{last}"
    );
}

#[test]
fn prof_and_report_say_where_they_wrote_the_flame_graph_and_the_report() {
    let (dir, program, r) = profiled(&[
        "--svg",
        "flame.svg",
        "--format",
        "folded",
        "--report",
        "stacks.txt",
    ]);
    assert!(
        r.stderr
            .contains("irix-emu: flame graph written to flame.svg\n"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("irix-emu: folded report written to stacks.txt\n"),
        "{}",
        r.stderr
    );
    assert!(dir.path().join("flame.svg").is_file());
    assert!(dir.path().join("stacks.txt").is_file());
    let r = run_emu(
        ["report", "--svg", "again.svg", &program, "gmon.out"],
        dir.path(),
    );
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    assert_eq!(r.stderr, "irix-emu: flame graph written to again.svg\n");
}

#[test]
fn report_with_its_arguments_swapped_says_so_and_how_to_write_them() {
    let (dir, program, _) = profiled(&[]);
    let r = run_emu(["report", "gmon.out", &program], dir.path());
    assert_eq!(r.status, exited(exit::EMULATOR_FAILURE));
    assert_eq!(
        r.stderr,
        format!(
            "irix-emu: report: {program} is a program and gmon.out is not: the arguments are the other way round\n\
             irix-emu: hint: irix-emu report {program} gmon.out\n"
        )
    );
    assert_eq!(r.stdout, b"");
}

#[test]
fn report_annotate_checks_its_function_before_printing_anything() {
    let (dir, program, _) = profiled(&[]);
    let r = run_emu(
        [
            "report",
            "--annotate",
            "no_such_function",
            &program,
            "gmon.out",
        ],
        dir.path(),
    );
    assert_eq!(r.status, exited(exit::EMULATOR_FAILURE));
    assert_eq!(r.stdout, b"", "nothing of the report is printed");
    assert!(
        r.stderr.starts_with(&format!(
            "irix-emu: {program}: no function named no_such_function\n"
        )),
        "{}",
        r.stderr
    );
}

/// A pseudo-terminal: (controller, terminal side).
fn pty() -> (OwnedFd, OwnedFd) {
    let (mut controller, mut terminal) = (-1, -1);
    // SAFETY: openpty writes two new descriptors into the two ints; the
    // name, termios and winsize pointers may be null.
    let rc = unsafe {
        libc::openpty(
            &mut controller,
            &mut terminal,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors are new and owned by nothing else.
    unsafe {
        (
            OwnedFd::from_raw_fd(controller),
            OwnedFd::from_raw_fd(terminal),
        )
    }
}

#[test]
fn binary_formats_are_never_written_to_a_terminal() {
    let (dir, program, _) = profiled(&["--callgraph"]);
    let (_controller, terminal) = pty();
    let out = emu_command(
        ["report", "--format", "pprof", &program, "gmon.out"],
        dir.path(),
    )
    .stdin(Stdio::null())
    .stdout(Stdio::from(terminal))
    .stderr(Stdio::piped())
    .output()
    .expect("irix-emu runs");
    assert_eq!(out.status.code(), Some(i32::from(exit::EMULATOR_FAILURE)));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "irix-emu: report: --format pprof is binary (gzip) and stdout is a terminal\n\
         irix-emu: hint: redirect it: irix-emu report --format pprof PROGRAM FILE > profile.pb.gz\n"
    );
    // To a pipe (or a file) it is written, as before.
    let r = run_emu(
        ["report", "--format", "pprof", &program, "gmon.out"],
        dir.path(),
    );
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    assert_eq!(&r.stdout[..2], b"\x1f\x8b", "gzip");
}

/// The --strace lines of `program` run in a scratch directory.
fn strace(program: &str) -> Vec<String> {
    let dir = Scratch::new("strace");
    let path = common::repo_path(&guest(program)).display().to_string();
    let r = run_emu(["run", "--strace", &path], dir.path());
    r.stderr
        .lines()
        .filter(|l| l.starts_with("[100] "))
        .map(str::to_string)
        .collect()
}

#[test]
fn strace_names_flags_whences_and_signals() {
    let lines = strace("fileio");
    for want in [
        "[100] open(\"fileio.tmp\", O_RDWR|O_CREAT|O_TRUNC, 0644) = 3",
        "[100] lseek(3, 9, SEEK_SET) = 9",
        "[100] lseek(3, 0, SEEK_END) = 29",
    ] {
        assert!(lines.iter().any(|l| l == want), "{want} in {lines:#?}");
    }
    let lines = strace("proc_sigsegv_handler");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("[100] sigaction(SIGSEGV, 0x")),
        "{lines:#?}"
    );
}

#[test]
fn strace_shows_the_stat_a_call_filled_in() {
    let lines = strace("sys_calls");
    assert!(
        lines.iter().any(|l| l
            == "[100] lxstat(2, \"sys_calls.b\", {st_mode=S_IFREG|0644, st_size=10, ...}) = 0"),
        "{lines:#?}"
    );
}

#[test]
fn strace_cuts_a_long_buffer_visibly() {
    // fileio writes its 29-byte text whole; fpu_print's lines are longer
    // than the 64 bytes shown, and end in "...".
    let lines = strace("fileio");
    assert!(
        lines
            .iter()
            .any(|l| l == "[100] write(3, \"line one\\nline two\\nline three\\n\", 29) = 29"),
        "{lines:#?}"
    );
    let lines = strace("fpu_print");
    let long = "[100] write(1, \"1e22                   %f=10000000000000000000000.000000 %e=1.00\"..., 82) = 82";
    assert!(lines.iter().any(|l| l == long), "{lines:#?}");
}

#[test]
fn prof_exact_keeps_its_figures_for_report_without_callgraph() {
    let (dir, program, _) = profiled(&["--exact"]);
    // The exact costs are in the sidecar, and report --diff reads them:
    // a profile diffed against itself shows zero exact change.
    let sidecar = std::fs::read_to_string(dir.path().join("gmon.out.callgraph"))
        .expect("prof --exact writes the call-graph sidecar");
    assert!(
        sidecar.lines().any(|l| l.starts_with("exact ")),
        "{sidecar}"
    );
    let r = run_emu(["report", &program, "gmon.out"], dir.path());
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
}
