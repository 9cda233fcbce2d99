//! Every engine gives the same run: each committed IRIX guest program runs
//! under `--engine interp`, `--engine block` and `--engine jit`, and each
//! run must match the program's golden file, tests/golden/guest/NAME.out,
//! byte for byte: stdout, stderr (but the host-time lines of `--stats`),
//! exit status, the instruction and cycle counts and the files it leaves.
//! The compiled tier runs twice: with an empty translation cache, and with
//! the cache that run filled (code loaded from disk, compiled from its
//! first run). `IRIX_EMU_BLESS=1` rewrites the golden files from the interpreter's run
//! (the other engines must still match it). The sampled gmon.out and flat
//! profile, the `--exact` profile and the call graph (`--callgraph`,
//! tracked on the block and compiled tiers from whole blocks) must agree
//! between the engines.
//!
//! Sized for a 2-core machine: every program runs on every engine, but
//! the profile modes are crossed with two programs only (workload, the
//! compiled C code every tier compiles, and cg_signal, call graphs through
//! signal handlers); the other profiling programs run in the default
//! sampled mode. Every engine still produces every mode, and each of the
//! profiling system calls (profil, sprofil, PROF_FAST, a forked child's
//! profile) on every engine.
//!
//! Each run's guest root is a fresh empty directory, which is also its
//! working directory, with the committed programs bound at `/irix`: the
//! guest's argv[0] (`/irix/NAME`), and so its start-up stack, counts and
//! output, are the same wherever the checkout lies, and no program sees or
//! changes the host's files.
//!
//! (The CPU-level lockstep test, crates/cpu-mips/tests/lockstep.rs, compares
//! the full CPU state at every step on random programs; this test covers
//! the whole kernel: system calls, signals, processes, profiling ticks.)

use crate::common;

use std::path::Path;

use common::{repo, repo_path, run_emu, run_emu_clean_env, Run, Scratch};
use test_support::golden;

/// The engines, the compiled tier twice: "jit" starts with an empty
/// translation cache and fills it, "jit-warm", run after it with the same
/// cache, loads its compiled code from there (a later process).
const ENGINES: [&str; 4] = ["interp", "block", "jit", "jit-warm"];

/// The options that select `engine`, with `cache` (empty at first, one per
/// program and mode) the jit runs' translation cache.
fn engine_args(engine: &str, cache: &Scratch) -> Vec<String> {
    let cache = cache
        .path()
        .join("jit")
        .to_str()
        .expect("UTF-8")
        .to_string();
    match engine {
        "jit" | "jit-warm" => ["--engine", "jit", "--jit-cache", &cache]
            .map(String::from)
            .to_vec(),
        other => vec!["--engine".into(), other.into()],
    }
}

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
                "irix-emu: host ",
                "irix-emu: guest MIPS",
                "irix-emu: engine",
                "irix-emu: jit cache",
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

/// Where the guest sees the committed programs.
const GUEST_BIN: &str = "/irix";

/// `--root DIR --bind REPO/guest/bin/irix:/irix`: the guest sees an empty
/// root (the scratch directory it runs in) and the committed programs.
fn scratch_root_args(dir: &Scratch) -> Vec<String> {
    let bin = repo_path("guest/bin/irix");
    vec![
        "--root".into(),
        dir.path().to_str().expect("a UTF-8 scratch path").into(),
        "--bind".into(),
        format!(
            "{}:{GUEST_BIN}",
            bin.to_str().expect("a UTF-8 checkout path")
        ),
    ]
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

/// What a golden file holds: the run's status, stdout, the comparable
/// stderr and the files it left in its directory, with the checkout's
/// path written `$REPO` (the programs run by their absolute path).
fn golden_text(run: &Run, files: &[String]) -> String {
    let (stdout, stderr, status) = comparable(run);
    let text = format!(
        "status: {status}\n--- stdout\n{stdout}--- stderr\n{stderr}\n--- files\n{}\n",
        files.join("\n")
    );
    text.replace(repo().to_str().expect("a UTF-8 checkout path"), "$REPO")
}

#[test]
fn every_guest_program_matches_its_golden_output_on_every_engine() {
    for name in programs() {
        let program = repo_path(&format!("guest/bin/irix/{name}"));
        let program = program.to_str().unwrap();
        let golden_file = repo_path(&format!("tests/golden/guest/{name}.out"));
        let mut first: Option<String> = None;
        let cache = Scratch::new("engines-cache");
        for engine in ENGINES {
            // Each run gets a fresh directory: some programs write files.
            let dir = Scratch::new("engines");
            let root = scratch_root_args(&dir);
            let selected = engine_args(engine, &cache);
            let mut args = vec!["run", "--stats"];
            args.extend(selected.iter().map(String::as_str));
            args.extend(root.iter().map(String::as_str));
            args.extend(CAPS);
            args.push(program);
            args.extend(guest_args(&name));
            // An empty host environment: the guest's is then the same on
            // every machine (args_env prints it).
            let run = run_emu_clean_env(&args, dir.path());
            if name == "workload" && engine == "jit-warm" {
                let line = run
                    .stderr_lines()
                    .into_iter()
                    .find(|l| l.contains("jit cache"));
                let line = line.expect("a jit cache line in --stats");
                // Every block it compiles is one heat made hot (see
                // jit/store/heat.rs): the cache had every other.
                let misses = line
                    .split(" misses (")
                    .next()
                    .and_then(|l| l.rsplit(' ').next());
                let heated = line
                    .split(" misses (")
                    .nth(1)
                    .and_then(|l| l.split(' ').next());
                assert!(!line.contains(" 0 hits") && misses == heated, "{line}");
            }
            let text = golden_text(&run, &dir.listing());
            match &first {
                // Blessing writes the interpreter's run; the others must
                // match it as they would match the file.
                Some(interp) if golden::blessing() => {
                    assert_eq!(interp, &text, "{name}: interp and {engine} runs differ")
                }
                _ => golden::check(&golden_file, &text),
            }
            first.get_or_insert(text);
        }
    }
}

#[test]
fn profiles_are_byte_identical_on_every_engine() {
    let every_mode: &[&[&str]] = &[
        &[],
        &["--exact"],
        &["--fast"],
        &["--callgraph"],
        &["--callgraph", "--exact"],
    ];
    let sampled: &[&[&str]] = &[&[]];
    for (name, modes) in [
        ("workload", every_mode),
        ("cg_signal", every_mode),
        ("prof_profil", sampled),
        ("prof_sprofil", sampled),
        ("prof_fast", sampled),
        ("proc_fork_profil", sampled),
    ] {
        let program = repo_path(&format!("guest/bin/irix/{name}"));
        let program = program.to_str().unwrap();
        for &mode in modes {
            let cache = Scratch::new("engines-prof-cache");
            let outputs: Vec<_> = ENGINES
                .iter()
                .map(|engine| {
                    let dir = Scratch::new("engines-prof");
                    let root = scratch_root_args(&dir);
                    let selected = engine_args(engine, &cache);
                    let mut args = vec!["prof", "-o", "gmon.out"];
                    args.extend(selected.iter().map(String::as_str));
                    args.extend(root.iter().map(String::as_str));
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
            // --exact keeps its figures in the sidecar too.
            let graph = mode.contains(&"--callgraph") || mode.contains(&"--exact");
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
