//! `--perf-jitdump DIR`: the jit engine records each function it installs
//! (compiled in the run or loaded from the translation cache) in
//! DIR/jit-PID.dump, in the jitdump format Linux `perf inject --jit` reads,
//! named by its guest address; the run itself is unchanged. A directory
//! that cannot take the file stops the run before it starts (status 125).

use crate::common;

use std::path::{Path, PathBuf};

use common::{exact, exit, exited, guest, repo, run_emu, Run, Scratch};

/// The workload on the jit engine with `cache`, and `--perf-jitdump dir`
/// when given.
fn run(cache: &Path, dump: Option<&Path>) -> Run {
    let mut args: Vec<String> = ["run", "--stats", "--engine", "jit", "--jit-cache"]
        .map(String::from)
        .to_vec();
    args.push(cache.to_str().expect("UTF-8").into());
    if let Some(dir) = dump {
        args.push("--perf-jitdump".into());
        args.push(dir.to_str().expect("UTF-8").into());
    }
    args.push(guest("workload"));
    args.push("2".into());
    run_emu(args, repo())
}

/// The one dump file in `dir`.
fn the_dump(dir: &Path) -> PathBuf {
    let files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("reads the dump directory")
        .map(|e| e.expect("an entry").path())
        .collect();
    assert_eq!(files.len(), 1, "one dump: {files:?}");
    let name = files[0].file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with("jit-") && name.ends_with(".dump"),
        "{name}"
    );
    files[0].clone()
}

/// The names of the code-load records of the jitdump file `bytes`.
fn loaded_names(bytes: &[u8]) -> Vec<String> {
    let word = |at: usize| u32::from_ne_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!(word(0), 0x4A69_5444, "the jitdump magic");
    let mut at = word(8) as usize;
    let mut names = Vec::new();
    while at < bytes.len() {
        assert_eq!(word(at), 0, "a code-load record");
        let total = word(at + 4) as usize;
        let rest = &bytes[at + 56..at + total];
        let nul = rest.iter().position(|&b| b == 0).expect("a NUL-ended name");
        names.push(String::from_utf8_lossy(&rest[..nul]).into_owned());
        at += total;
    }
    assert_eq!(at, bytes.len(), "whole records");
    names
}

#[test]
fn perf_jitdump_names_each_function_compiled_or_loaded_by_its_guest_address() {
    let scratch = Scratch::new("perf-jitdump");
    let cache = scratch.path().join("cache");
    let plain = run(&scratch.path().join("plain-cache"), None);
    assert_eq!(plain.status, exited(0), "{}", plain.stderr);
    for round in ["compiled", "loaded"] {
        let dir = scratch.path().join(round);
        std::fs::create_dir(&dir).unwrap();
        let r = run(&cache, Some(&dir));
        assert_eq!(r.status, exited(0), "{round}: {}", r.stderr);
        assert_eq!(exact(&r), exact(&plain), "{round}: the run is unchanged");
        let names = loaded_names(&std::fs::read(the_dump(&dir)).unwrap());
        assert!(!names.is_empty(), "{round}: functions recorded");
        for n in &names {
            let addr = n.strip_prefix("mips 0x").expect("named by guest address");
            let hex = addr.split('+').next().unwrap();
            assert!(
                hex.len() == 8 && u32::from_str_radix(hex, 16).is_ok(),
                "{round}: {n}"
            );
        }
    }
}

#[test]
fn a_perf_jitdump_directory_that_cannot_take_the_file_stops_the_run_with_125() {
    let scratch = Scratch::new("perf-jitdump-missing");
    let missing = scratch.path().join("no-such-dir");
    let r = run(&scratch.path().join("cache"), Some(&missing));
    assert_eq!(r.status, exited(exit::EMULATOR_FAILURE), "{}", r.stderr);
    let first = r.stderr_lines()[0].to_string();
    assert!(
        first.starts_with(&format!("irix-emu: --perf-jitdump {}: ", missing.display())),
        "{first}"
    );
    assert_eq!(r.stdout, b"");
}
