//! A real job: SGI's IDO 5.3 compiling a 2,000-line C file with
//! `cc -c -O2` (the driver forks and execs cfe, uopt, ugen and as1, every
//! one a dynamic executable started through libc.so.1 and rld).
//!
//! Needs an IRIX root holding IDO 5.3 in `IRIX_ROOT_53` (SGI's files are
//! never in the repository); without it the benchmark prints a SKIP line
//! and measures nothing. The time is the whole `irix-emu run` process, as a
//! user sees it. Run: `IRIX_ROOT_53=/path/to/root cargo bench --bench
//! ido_compile`. The README records it beside qemu-irix's time.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use criterion::{criterion_group, criterion_main, Criterion};

/// Functions in the generated file; each is 20 lines, with the prologue
/// the file has just over 2,000 lines.
const FUNCTIONS: usize = 100;

/// A deterministic C file of about 2,000 lines: loops, arithmetic, a
/// switch, structures and calls, the mix a compiler's optimiser works on.
pub fn source() -> String {
    let mut s = String::from(
        "struct acc { int sum; int count; double mean; };\n\
         int printf(const char *, ...);\n\
         static int table[64];\n",
    );
    for f in 0..FUNCTIONS {
        s.push_str(&format!(
            "int work{f}(int n, struct acc *a) {{\n\
             \x20   int i, j, x = {f};\n\
             \x20   for (i = 0; i < n; i++) {{\n\
             \x20       for (j = 0; j < 8; j++) {{\n\
             \x20           x = x * {m} + table[(i + j) & 63];\n\
             \x20           switch (x & 3) {{\n\
             \x20           case 0: x ^= i << 2; break;\n\
             \x20           case 1: x += j * {f}; break;\n\
             \x20           case 2: x -= (x >> 3); break;\n\
             \x20           default: x |= 1; break;\n\
             \x20           }}\n\
             \x20       }}\n\
             \x20       a->sum += x;\n\
             \x20       a->count++;\n\
             \x20   }}\n\
             \x20   a->mean = a->count ? (double)a->sum / a->count : 0.0;\n\
             \x20   if (n > 1) x += work{prev}(n - 1, a);\n\
             \x20   table[{f} & 63] = x;\n\
             \x20   return x;\n\
             }}\n",
            m = 2 * f + 3,
            prev = f.saturating_sub(1),
        ));
    }
    s
}

fn irix_root() -> Option<PathBuf> {
    let root = PathBuf::from(std::env::var_os("IRIX_ROOT_53")?);
    root.join("usr/bin/cc").is_file().then_some(root)
}

/// One `cc -c -O2 big.c` under irix-emu in `dir`.
fn compile(root: &Path, dir: &Path) {
    let status = Command::new(env!("CARGO_BIN_EXE_irix-emu"))
        .arg("run")
        // Every iteration compiles afresh, as the first run on a machine
        // does (benches/jit_cache.rs measures the translation cache).
        .args(["--jit-cache", "off"])
        .arg("--root")
        .arg(root)
        .arg("--bind")
        .arg(dir)
        .arg(root.join("usr/bin/cc"))
        .args(["-c", "-O2", "big.c", "-o", "big.o"])
        .current_dir(dir)
        .stdin(Stdio::null())
        .status()
        .expect("irix-emu runs");
    assert!(status.success(), "cc -c -O2 failed: {status}");
}

fn ido_compile(c: &mut Criterion) {
    let Some(root) = irix_root() else {
        eprintln!("SKIP: IRIX_ROOT_53 is not set (an IRIX root holding IDO 5.3)");
        return;
    };
    let tmp = test_support::Scratch::new("ido-bench");
    let dir = tmp.path().to_path_buf();
    std::fs::write(dir.join("big.c"), source()).expect("writes big.c");
    let mut group = c.benchmark_group("ido53");
    group.sample_size(10);
    group.bench_function("cc -c -O2 (2,000 lines)", |b| {
        b.iter(|| compile(&root, &dir))
    });
    group.finish();
}

criterion_group!(benches, ido_compile);
criterion_main!(benches);
