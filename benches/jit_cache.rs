//! Cold against warm start: whole `irix-emu run` processes on the jit
//! engine with an empty translation cache (every hot block compiled by
//! Cranelift after its warm-up) and with the cache a previous run filled
//! (hot blocks loaded from disk and compiled from their first run).
//!
//! Two jobs: the bundled guest programs (the workload, one round, then
//! proc_pipeline's four processes and proc_exec's exec chain, each an
//! irix-emu process of its own), and, when `IRIX_ROOT_53` names an IRIX
//! root holding IDO 5.3, `cc -c -O2` of the 2,000-line file of the
//! ido_compile bench (the driver, cfe, uopt, ugen and as1: five processes).
//! Without the root that job prints a SKIP line.
//!
//! Run: `cargo bench --bench jit_cache` (docs/performance.md has results).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};

#[path = "ido_compile.rs"]
#[allow(dead_code)]
mod ido_compile;

/// `irix-emu run --engine jit --jit-cache CACHE ARGS...` in `dir`.
fn emu(cache: &Path, dir: &Path, args: &[&std::ffi::OsStr]) {
    let status = Command::new(env!("CARGO_BIN_EXE_irix-emu"))
        .args(["run", "--engine", "jit", "--jit-cache"])
        .arg(cache)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .expect("irix-emu runs");
    assert!(status.success(), "{args:?}: {status}");
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The bundled job: three irix-emu runs, six guest processes.
fn bundled(cache: &Path) {
    let bin = repo().join("guest/bin/irix");
    let dir = repo();
    emu(
        cache,
        &dir,
        &[bin.join("workload").as_os_str(), "1".as_ref()],
    );
    emu(cache, &dir, &[bin.join("proc_pipeline").as_os_str()]);
    emu(cache, &dir, &[bin.join("proc_exec").as_os_str()]);
}

/// `cc -c -O2 big.c` from the IRIX root `root`, in `dir`.
fn ido(cache: &Path, root: &Path, dir: &Path) {
    let cc = root.join("usr/bin/cc");
    emu(
        cache,
        dir,
        &[
            "--root".as_ref(),
            root.as_os_str(),
            "--bind".as_ref(),
            dir.as_os_str(),
            cc.as_os_str(),
            "-c".as_ref(),
            "-O2".as_ref(),
            "big.c".as_ref(),
            "-o".as_ref(),
            "big.o".as_ref(),
        ],
    );
}

/// Benchmarks `job` with an empty cache each time ("cold") and with the
/// cache one run of it filled ("warm").
fn cold_and_warm(c: &mut Criterion, group: &str, job: &dyn Fn(&Path)) {
    let scratch = test_support::Scratch::new("jit-cache-bench");
    let mut g = c.benchmark_group(group);
    g.sample_size(10);
    let mut round = 0u32;
    g.bench_function("cold", |b| {
        b.iter_batched(
            || {
                round += 1;
                scratch.path().join(format!("cold-{round}"))
            },
            |cache| job(&cache),
            BatchSize::PerIteration,
        )
    });
    let warm = scratch.path().join("warm");
    job(&warm);
    g.bench_function("warm", |b| b.iter(|| job(&warm)));
    g.finish();
}

fn jit_cache(c: &mut Criterion) {
    cold_and_warm(c, "jit-cache-bundled", &bundled);
    let Some(root) = std::env::var_os("IRIX_ROOT_53")
        .map(PathBuf::from)
        .filter(|r| r.join("usr/bin/cc").is_file())
    else {
        eprintln!("SKIP: IRIX_ROOT_53 is not set (an IRIX root holding IDO 5.3)");
        return;
    };
    let tmp = test_support::Scratch::new("jit-cache-ido");
    let dir = tmp.path().to_path_buf();
    std::fs::write(dir.join("big.c"), ido_compile::source()).expect("writes big.c");
    cold_and_warm(c, "jit-cache-ido53", &|cache| ido(cache, &root, &dir));
}

criterion_group!(benches, jit_cache);
criterion_main!(benches);
