//! Every engine gives the same run: each committed IRIX guest program runs
//! under `--engine interp`, `--engine block` and `--engine jit`, and the
//! runs must agree byte for byte: stdout, stderr (but the host-time lines of `--stats`),
//! exit status, the instruction and cycle counts, the sampled gmon.out and
//! flat profile, the `--exact` profile and the call graph (`--callgraph`,
//! tracked on the block and compiled tiers from whole blocks).
//!
//! (The CPU-level lockstep test, crates/cpu-mips/tests/lockstep.rs, compares
//! the full CPU state at every step on random programs; this test covers
//! the whole kernel: system calls, signals, processes, profiling ticks.)

mod common;

use std::path::Path;

use common::{repo_path, run_emu, Run, Scratch};

const ENGINES: [&str; 3] = ["interp", "block", "jit"];

/// Bounds that keep the resource-limit programs short; they apply to
/// every engine alike.
const CAPS: [&str; 4] = ["--max-cycles", "400000000", "--max-memory", "256M"];

/// The lines of a run that may differ between engines: host time and
/// speed, and the engine's own line.
fn comparable(run: &Run) -> (String, String, String) {
    let stderr = run
        .stderr_lines()
        .into_iter()
        .filter(|l| {
            ![
                "irix-emu: host seconds",
                "irix-emu: guest MIPS",
                "irix-emu: engine",
            ]
            .iter()
            .any(|p| l.starts_with(p))
        })
        .collect::<Vec<_>>()
        .join("\n");
    (run.stdout_text(), stderr, format!("{:?}", run.status))
}

fn programs() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(repo_path("guest/bin/irix"))
        .expect("guest/bin/irix")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() > 40, "the committed guest programs: {names:?}");
    names
}

fn run_in(dir: &Path, args: &[&str]) -> Run {
    run_emu(args, dir)
}

/// The guest's arguments: the workload runs one round instead of its
/// default nineteen (one already runs every kernel thousands of times;
/// nineteen add only time).
fn guest_args(name: &str) -> &'static [&'static str] {
    if name == "workload" {
        &["1"]
    } else {
        &[]
    }
}

#[test]
fn every_guest_program_runs_the_same_on_every_engine() {
    for name in programs() {
        let program = repo_path(&format!("guest/bin/irix/{name}"));
        let program = program.to_str().unwrap();
        let runs: Vec<_> = ENGINES
            .iter()
            .map(|engine| {
                // Each run gets a fresh directory: some programs write files.
                let dir = Scratch::new("engines");
                let mut args = vec!["run", "--stats", "--engine", engine, "--root", "/"];
                args.extend(CAPS);
                args.push(program);
                args.extend(guest_args(&name));
                let run = run_in(dir.path(), &args);
                (comparable(&run), dir.listing())
            })
            .collect();
        for (engine, run) in ENGINES.iter().zip(&runs).skip(1) {
            assert_eq!(&runs[0], run, "{name}: interp and {engine} runs differ");
        }
    }
}

#[test]
fn profiles_are_byte_identical_on_every_engine() {
    for name in [
        "workload",
        "prof_profil",
        "prof_sprofil",
        "prof_fast",
        "proc_fork_profil",
        "cg_signal",
    ] {
        let program = repo_path(&format!("guest/bin/irix/{name}"));
        let program = program.to_str().unwrap();
        let modes: [&[&str]; 5] = [
            &[],
            &["--exact"],
            &["--fast"],
            &["--callgraph"],
            &["--callgraph", "--exact"],
        ];
        for mode in modes {
            let outputs: Vec<_> = ENGINES
                .iter()
                .map(|engine| {
                    let dir = Scratch::new("engines-prof");
                    let mut args =
                        vec!["prof", "--engine", engine, "--root", "/", "-o", "gmon.out"];
                    args.extend(mode);
                    args.extend(CAPS);
                    args.push(program);
                    args.extend(guest_args(name));
                    let run = run_in(dir.path(), &args);
                    let gmon = std::fs::read(dir.path().join("gmon.out")).unwrap_or_default();
                    // The call graph's sidecar, when there is one.
                    let graph = std::fs::read(dir.path().join("gmon.out.callgraph")).ok();
                    (comparable(&run), gmon, graph)
                })
                .collect();
            assert!(!outputs[0].1.is_empty(), "{name} {mode:?}: no gmon.out");
            let graph = mode.contains(&"--callgraph");
            assert_eq!(
                outputs[0].2.is_some(),
                graph,
                "{name} {mode:?}: the sidecar"
            );
            for (engine, out) in ENGINES.iter().zip(&outputs).skip(1) {
                assert_eq!(
                    &outputs[0], out,
                    "{name} {mode:?}: interp and {engine} profiles differ"
                );
            }
        }
    }
}
