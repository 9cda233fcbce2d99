//! The guest programs also build with Linux system call numbers: each then
//! runs under qemu-mips and under irix-emu with identical output and exit
//! status (a differential test).
//!
//! Contents:
//! - [`ARGS`]: the arguments each program gets (the same on both sides).
//! - [`QEMU_DIFFERS`]: programs left out, with the reason.
//! - the differential test over every program in both guest/bin/linux and
//!   guest/bin/irix: stdout (the program path normalised, since argv[0]
//!   names a different file on each side) and the exit status, a death by
//!   signal N counting as 128 + N on both sides (qemu-mips dies by the
//!   guest's signal itself; irix-emu exits 128 + N).
//!
//! Both run with an empty host environment plus one -E variable, in a fresh
//! scratch directory each (fileio writes there; irix-emu's root is it).

use crate::common;

use common::{require_tool, run_command, Run, Scratch};
use std::path::Path;
use std::process::Command;

/// Guest arguments per program (default: none).
const ARGS: &[(&str, &[&str])] = &[
    ("args_env", &["a", "-b", "c d", "", "--"]),
    ("workload", &["1"]),
];

/// The one environment variable both guests get. (qemu-mips does not keep
/// -E variables in command-line order and irix-emu sorts them, so a single
/// one keeps args_env's output comparable.)
const ENV: &str = "IRIX_EMU_DIFF=1";

/// Programs that are not compared, and why.
const QEMU_DIFFERS: &[(&str, &str)] = &[(
    "fault_divzero",
    "qemu-mips reports the `teq` divide-by-zero trap as SIGTRAP (it does not pass the trap code on); \
     Linux and IRIX send SIGFPE (guest/src/fault_overflow.c)",
)];

/// Programs present for both personalities, sorted.
fn common_programs() -> Vec<String> {
    let names = |p: &str| test_support::names_in(&common::repo_path(&format!("guest/bin/{p}")));
    let irix = names("irix");
    names("linux")
        .into_iter()
        .filter(|n| irix.contains(n))
        .collect()
}

/// stdout with `program` (argv[0]) replaced by "PROGRAM".
fn normalised_stdout(r: &Run, program: &Path) -> String {
    r.stdout_text()
        .replace(program.to_str().expect("utf-8 path"), "PROGRAM")
}

fn run_qemu(program: &Path, args: &[&str], cwd: &Path) -> Run {
    let mut cmd = Command::new("qemu-mips");
    cmd.env_clear()
        .current_dir(cwd)
        .args(["-E", ENV])
        .arg(program)
        .args(args);
    run_command(cmd)
}

fn run_irix_emu(program: &Path, args: &[&str], cwd: &Path) -> Run {
    let mut cmd = common::emu_command(["run", "-E", ENV], cwd);
    cmd.env_clear().arg(program).args(args);
    run_command(cmd)
}

#[test]
fn each_program_prints_the_same_and_exits_the_same_under_qemu_mips_and_irix_emu() {
    if !require_tool("qemu-mips") {
        return;
    }
    let programs = common_programs();
    if programs.is_empty() {
        eprintln!("SKIP: no program is built for both guest/bin/linux and guest/bin/irix");
        return;
    }
    let mut differences = Vec::new();
    let mut compared = Vec::new();
    for name in &programs {
        if let Some((_, why)) = QEMU_DIFFERS.iter().find(|(n, _)| n == name) {
            eprintln!("note: {name} not compared: {why}");
            continue;
        }
        let args = ARGS
            .iter()
            .find(|(n, _)| n == name)
            .map_or(&[][..], |(_, a)| *a);
        let linux = common::repo_path(&format!("guest/bin/linux/{name}"));
        let irix = common::repo_path(&format!("guest/bin/irix/{name}"));
        let (qdir, edir) = (Scratch::new("diff-qemu"), Scratch::new("diff-emu"));
        let q = run_qemu(&linux, args, qdir.path());
        let e = run_irix_emu(&irix, args, edir.path());
        let (qout, eout) = (normalised_stdout(&q, &linux), normalised_stdout(&e, &irix));
        if qout != eout || q.status.shell() != e.status.shell() {
            differences.push(format!(
                "{name} {args:?}:\n  qemu-mips: status {} ({:?}), stdout {qout:?}, stderr {:?}\n  irix-emu:  status {} ({:?}), stdout {eout:?}, stderr {:?}",
                q.status.shell(),
                q.status,
                q.stderr,
                e.status.shell(),
                e.status,
                e.stderr
            ));
        }
        // Agreeing by both failing to start proves nothing: every program
        // prints something, and 124..=127 are irix-emu's own statuses.
        if eout.is_empty() || (124..=127).contains(&e.status.shell()) {
            differences.push(format!(
                "{name}: irix-emu did not run it: status {:?}, stderr {:?}",
                e.status, e.stderr
            ));
        }
        // Neither side may leave files behind in its directory (fileio
        // removes its own; a qemu core file would show up here too).
        let (ql, el) = (qdir.listing(), edir.listing());
        if !el.is_empty() {
            differences.push(format!(
                "{name}: irix-emu left {el:?} in its directory (qemu-mips left {ql:?})"
            ));
        }
        compared.push(name.as_str());
    }
    eprintln!("compared under qemu-mips and irix-emu: {compared:?}");
    assert!(
        differences.is_empty(),
        "{} program(s) differ:\n{}",
        differences.len(),
        differences.join("\n")
    );
    assert!(
        compared.contains(&"hello"),
        "hello is among the compared programs: {compared:?}"
    );
}
