//! How `irix-emu run` refuses what it cannot run: each rejection's exit
//! status and its one line on stderr, checked exactly (src/exit.rs; the
//! loader's messages are crates/loader/src/error.rs).
//!
//! Contents:
//! - a hand-built minimal executable runs (the control for the ELF cases).
//! - PROGRAM missing (127), not runnable (126): a directory, a text file,
//!   an empty file, a host ELF, little-endian MIPS, truncations, a
//!   dynamically linked program whose interpreter the root lacks.
//! - bad options and a bad --root (125).

use crate::common;

use common::{exit, exit_program, exited, run_emu, Elf, Run, Scratch, Status};
use test_support::elf::{Segment, ELFDATA2LSB, PT_INTERP};

/// Runs `irix-emu run OPTIONS prog` in `dir`, where `prog` names the file
/// the case wrote (so messages show the short name "prog").
fn run_in(dir: &Scratch, options: &[&str], prog: &str) -> Run {
    let mut args = vec!["run"];
    args.extend_from_slice(options);
    args.push(prog);
    run_emu(args, dir.path())
}

/// Asserts the status and that stderr is exactly `line` and a newline.
fn assert_rejected(r: &Run, case: &str, status: u8, line: &str) {
    assert_eq!(r.stderr, format!("{line}\n"), "{case}: stderr");
    assert_eq!(r.stdout, b"", "{case}: stdout");
    assert_eq!(r.status, exited(status), "{case}: status");
}

#[test]
fn a_hand_built_minimal_irix_executable_runs() {
    // The control for the cases below: each differs from this in one field.
    let dir = Scratch::new("errors");
    dir.write("prog", &exit_program(7).build());
    let r = run_in(&dir, &[], "prog");
    assert_eq!(r.stderr, "");
    assert_eq!(r.status, Status::Code(7));
}

#[test]
fn a_missing_program_exits_127() {
    let dir = Scratch::new("errors");
    let table: &[(&str, &str)] = &[
        ("nope", "irix-emu: nope: No such file or directory"),
        (
            "no/such/dir/prog",
            "irix-emu: no/such/dir/prog: No such file or directory",
        ),
    ];
    for (prog, line) in table {
        assert_rejected(&run_in(&dir, &[], prog), prog, exit::NOT_FOUND, line);
    }
}

#[test]
fn a_directory_exits_126() {
    let dir = Scratch::new("errors");
    dir.mkdir("subdir");
    // The host's strerror(EISDIR), as "No such file or directory" above.
    assert_rejected(
        &run_in(&dir, &[], "subdir"),
        "directory",
        exit::NOT_RUNNABLE,
        "irix-emu: subdir: Is a directory",
    );
}

/// The e_machine of the host's own executables, and the loader's word for it.
fn host_machine() -> Option<(u16, &'static str)> {
    if cfg!(target_arch = "x86_64") {
        Some((62, "x86-64"))
    } else if cfg!(target_arch = "aarch64") {
        Some((183, "AArch64"))
    } else {
        None
    }
}

#[test]
fn a_host_executable_is_not_a_mips_executable() {
    let Some((machine, word)) = host_machine() else {
        eprintln!("SKIP: no expected e_machine for this host architecture");
        return;
    };
    // This test's own binary is an ELF for the host.
    let me = std::env::current_exe().expect("test binary path");
    let dir = Scratch::new("errors");
    dir.write("prog", &std::fs::read(me).expect("read test binary"));
    let line = format!("irix-emu: prog: not a MIPS executable (e_machine {machine}, {word})");
    assert_rejected(
        &run_in(&dir, &[], "prog"),
        "host ELF",
        exit::NOT_RUNNABLE,
        &line,
    );
}

#[test]
fn a_file_that_is_not_a_runnable_irix_executable_exits_126() {
    let hello = common::repo_path("guest/bin/irix/hello");
    let hello_bytes = std::fs::read(&hello).expect("guest/bin/irix/hello is committed");
    // e_phnum of the real program, for the truncated-table message.
    let phnum = u16::from_be_bytes([hello_bytes[44], hello_bytes[45]]);
    let table: Vec<(&str, Vec<u8>, String)> = vec![
        ("empty file", vec![], "prog: empty file, not an ELF file".into()),
        ("shell script", b"#!/bin/sh\necho hi\n".to_vec(), "prog: not an ELF file (bad magic 23 21 2f 62)".into()),
        ("three-byte text file", b"hi\n".to_vec(), "prog: not an ELF file (bad magic 68 69 0a)".into()),
        ("magic only", b"\x7fELF".to_vec(), "prog: truncated ELF header".into()),
        ("header cut at 30 bytes", hello_bytes[..30].to_vec(), "prog: truncated ELF header".into()),
        (
            "header whole, program headers cut",
            hello_bytes[..100].to_vec(),
            format!("prog: program header table lies outside the file (offset 0x34, {phnum} entries of 32 bytes, file size 0x64)"),
        ),
        (
            "little-endian MIPS",
            Elf { data: ELFDATA2LSB, ..exit_program(0) }.build(),
            "prog: little-endian MIPS is not IRIX".into(),
        ),
        (
            "SPARC",
            Elf { e_machine: 2, ..exit_program(0) }.build(),
            "prog: not a MIPS executable (e_machine 2, SPARC)".into(),
        ),
        (
            "dynamically linked (o32)",
            dynamic(b"/usr/lib/libc.so.1\0"),
            "prog: interpreter /usr/lib/libc.so.1 not found in the guest root (is --root an IRIX root?)".into(),
        ),
    ];
    for (case, bytes, message) in table {
        let dir = Scratch::new("errors");
        dir.write("prog", &bytes);
        assert_rejected(
            &run_in(&dir, &[], "prog"),
            case,
            exit::NOT_RUNNABLE,
            &format!("irix-emu: {message}"),
        );
    }
}

#[test]
fn a_truncated_real_program_exits_126_whatever_the_cut() {
    // Cuts inside the header, the program headers, the text segment, and
    // one byte short of the last PT_LOAD's end (past it lie only the
    // section headers and symbols, whose loss costs names, not the run).
    let hello_bytes = std::fs::read(common::repo_path("guest/bin/irix/hello")).expect("hello");
    let loads_end = load_segments_end(&hello_bytes);
    for len in [
        1,
        4,
        51,
        52,
        53,
        84,
        200,
        1000,
        loads_end / 2,
        loads_end - 1,
    ] {
        let dir = Scratch::new("errors");
        dir.write("prog", &hello_bytes[..len]);
        let r = run_in(&dir, &[], "prog");
        assert_eq!(
            r.status,
            exited(exit::NOT_RUNNABLE),
            "cut at {len}: {}",
            r.stderr
        );
        assert_eq!(
            r.stderr.lines().count(),
            1,
            "cut at {len}: one line: {:?}",
            r.stderr
        );
        assert!(
            r.stderr.starts_with("irix-emu: prog: "),
            "cut at {len}: {:?}",
            r.stderr
        );
    }
}

/// The exit program with a PT_INTERP naming `interp` (NUL included).
fn dynamic(interp: &[u8]) -> Vec<u8> {
    let mut elf = exit_program(0);
    elf.segments
        .insert(0, Segment::other(PT_INTERP, interp.to_vec()));
    elf.build()
}

/// Where the file's last PT_LOAD segment ends (big-endian ELF32).
fn load_segments_end(elf: &[u8]) -> usize {
    let be32 = |o: usize| u32::from_be_bytes([elf[o], elf[o + 1], elf[o + 2], elf[o + 3]]) as usize;
    let phoff = be32(28);
    let phnum = u16::from_be_bytes([elf[44], elf[45]]) as usize;
    (0..phnum)
        .map(|i| phoff + 32 * i)
        .filter(|&ph| be32(ph) == 1)
        .map(|ph| be32(ph + 4) + be32(ph + 16))
        .max()
        .expect("a PT_LOAD")
}

#[test]
fn bad_options_exit_125_with_one_line_and_a_hint() {
    let dir = Scratch::new("errors");
    dir.write("prog", &exit_program(0).build());
    // (options, the one line on stderr). Each is followed by a hint line.
    let table: &[(&[&str], &str)] = &[
        (&["--bogus"], "irix-emu: unexpected argument '--bogus' found"),
        // (the upper bound of the range is left open here)
        (&["--cpu-mhz", "0"], "irix-emu: invalid value '0' for '--cpu-mhz <MHZ>': 0 is not in 1..="),
        (&["--cpu-mhz", "fast"], "irix-emu: invalid value 'fast' for '--cpu-mhz <MHZ>': invalid digit found in string"),
        (
            &["--max-memory", "banana"],
            "irix-emu: invalid value 'banana' for '--max-memory <BYTES>': 'banana' is not a size in bytes (e.g. 65536, 64K, 16M)",
        ),
        (
            &["--max-memory", "0"],
            "irix-emu: invalid value '0' for '--max-memory <BYTES>': a budget of 0 bytes holds nothing: give a size above zero (e.g. 64K, 16M; the default is 1G)",
        ),
        (&["--max-cycles", "-1"], "irix-emu: unexpected argument '-1' found"),
        (
            &["--personality", "vms"],
            "irix-emu: invalid value 'vms' for '--personality <PERSONALITY>': unknown personality \"vms\" (expected irix, solaris, darwin, aix or hpux)",
        ),
    ];
    for (options, first_line) in table {
        let r = run_in(&dir, options, "prog");
        let mut lines = r.stderr.lines();
        let got = lines.next().unwrap_or("");
        let got = if first_line.ends_with("..=") {
            &got[..first_line.len().min(got.len())]
        } else {
            got
        };
        assert_eq!(got, *first_line, "{options:?}: {:?}", r.stderr);
        assert_eq!(
            lines.collect::<Vec<_>>(),
            ["irix-emu: hint: try 'irix-emu run --help'"],
            "{options:?}"
        );
        assert_eq!(r.stdout, b"", "{options:?}");
        assert_eq!(r.status, exited(exit::EMULATOR_FAILURE), "{options:?}");
    }
    // irix-emu's own check of -E has nothing more to suggest.
    let r = run_in(&dir, &["-E", "FOO"], "prog");
    assert_rejected(
        &r,
        "-E FOO",
        exit::EMULATOR_FAILURE,
        "irix-emu: -E FOO: expected VAR=VALUE",
    );
}

#[test]
fn run_without_a_program_exits_125() {
    let dir = Scratch::new("errors");
    let r = run_emu(["run"], dir.path());
    assert_eq!(
        r.stderr,
        "irix-emu: the following required arguments were not provided: <PROGRAM [ARGS]>...\n\
         irix-emu: hint: try 'irix-emu run --help'\n"
    );
    assert_eq!(r.status, exited(exit::EMULATOR_FAILURE));
}

#[test]
fn a_budget_too_small_to_start_names_the_budget_and_what_starting_takes() {
    let dir = Scratch::new("errors");
    dir.write("prog", &exit_program(0).build());
    let r = run_in(&dir, &["--max-memory", "1"], "prog");
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{:?}", r.stderr);
    assert_eq!(
        lines[0],
        "irix-emu: prog: cannot start within --max-memory 1 byte"
    );
    let smallest: u64 = lines[1]
        .strip_prefix("irix-emu: hint: the smallest budget that starts it is --max-memory ")
        .and_then(|rest| rest.split_once("K; it may need more as it runs (the default is 1G)"))
        .and_then(|(n, rest)| rest.is_empty().then(|| n.parse().ok()).flatten())
        .unwrap_or_else(|| panic!("{:?}", lines[1]));
    assert_eq!(r.status, exited(exit::EMULATOR_FAILURE));
    // One KiB less does not start it.
    let r = run_in(
        &dir,
        &["--max-memory", &format!("{}K", smallest - 1)],
        "prog",
    );
    assert_eq!(
        r.stderr.lines().next(),
        Some(&*format!(
            "irix-emu: prog: cannot start within --max-memory {} bytes",
            (smallest - 1) * 1024
        ))
    );
    // The size the hint names starts the program (this one needs no more).
    let r = run_in(&dir, &["--max-memory", &format!("{smallest}K")], "prog");
    assert_eq!(r.stderr, "");
    assert_eq!(r.status, Status::Code(0));
}

#[test]
fn a_root_that_is_not_a_directory_exits_125() {
    let dir = Scratch::new("errors");
    dir.write("prog", &exit_program(0).build());
    let file = dir.write("plain", b"not a directory\n");
    let missing = dir.path().join("no-such-root");
    let table: Vec<(&str, String, String)> = vec![
        (
            "missing",
            missing.display().to_string(),
            format!(
                "irix-emu: --root {}: No such file or directory",
                missing.display()
            ),
        ),
        (
            "a file",
            file.display().to_string(),
            format!("irix-emu: --root {}: not a directory", file.display()),
        ),
    ];
    for (case, root, line) in table {
        let r = run_in(&dir, &["--root", &root], "prog");
        assert_rejected(&r, case, exit::EMULATOR_FAILURE, &line);
    }
}

#[test]
fn option_errors_are_reported_before_the_program_is_looked_at() {
    // clap's option errors already win over a missing program (125); the
    // options irix-emu checks itself should too, as qemu-mips checks -E
    // before it opens the program.
    let dir = Scratch::new("errors");
    let table: &[(&[&str], &str)] = &[
        (&["-E", "FOO"], "irix-emu: -E FOO: expected VAR=VALUE"),
        (
            &["--root", "/no/such/root"],
            "irix-emu: --root /no/such/root: No such file or directory",
        ),
    ];
    for (options, first_line) in table {
        let r = run_in(&dir, options, "missing-program");
        assert_eq!(r.stderr.lines().next(), Some(*first_line), "{options:?}");
        assert_eq!(r.status, exited(exit::EMULATOR_FAILURE), "{options:?}");
    }
}
