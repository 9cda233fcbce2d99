//! Whole-machine benchmarks on the compiled C workload (guest/src/workload.c):
//! guest instructions per second through the kernel's run loop, and the cost
//! of the profiling clock (PROF_FAST's 1000 Hz ticks, delivered by the run
//! loop's event deadline) against no profiling.
//!
//! Run: `cargo bench --bench workload`. Results are in the README.

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use irix_kernel::files::oflag;
use irix_kernel::profiling::HostProfile;
use irix_kernel::{Kernel, KernelConfig, Outcome};

/// One pass of the workload (argv[1] = rounds).
const ROUNDS: &str = "1";

fn workload() -> loader::Executable {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("guest/bin/irix/workload");
    let bytes = std::fs::read(&path).expect("guest/bin/irix/workload");
    loader::load("workload", &bytes, &Default::default()).expect("loads")
}

/// Runs the workload to completion; `fast_hz` adds an outside profile
/// ticking at that rate. Returns the instructions retired.
fn run(exe: &loader::Executable, fast_hz: Option<u32>) -> u64 {
    let mut k = Kernel::new(KernelConfig::default());
    let argv = [b"workload".to_vec(), ROUNDS.as_bytes().to_vec()];
    let pid = k.spawn(exe, "workload", &argv, &[]).expect("spawns");
    let null = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/null")
        .expect("/dev/null");
    k.set_host_fd(pid, 1, null, oflag::O_WRONLY)
        .expect("redirects stdout");
    if let Some(hz) = fast_hz {
        k.set_outside_profile(pid, HostProfile::new(&exe.text_ranges(), 4), hz);
    }
    assert_eq!(k.run(), Outcome::Exited(0));
    k.stats().instructions
}

fn bench(c: &mut Criterion) {
    let exe = workload();
    let instructions = run(&exe, None);
    let mut g = c.benchmark_group("workload");
    g.sample_size(10);
    g.throughput(Throughput::Elements(instructions));
    g.bench_function("run, no profiling", |b| b.iter(|| run(&exe, None)));
    g.bench_function("run, PROF_FAST 1000 Hz ticks", |b| {
        b.iter(|| run(&exe, Some(1000)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
