//! The compiled C workload (guest/src/workload.c, one round: about 12
//! million guest instructions, a fifth of them double-precision floating
//! point) through the whole kernel on each engine, as guest instructions
//! per second. Run: `cargo bench --bench engines`. Results are in the
//! README ("Speed").

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use irix_kernel::files::oflag;
use irix_kernel::{Kernel, KernelConfig, Outcome};

fn workload() -> loader::Executable {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("guest/bin/irix/workload");
    let bytes = std::fs::read(&path).expect("guest/bin/irix/workload");
    loader::load("workload", &bytes, &Default::default()).expect("loads")
}

/// Runs one round of the workload on `engine`; returns the instructions
/// retired.
fn run(exe: &loader::Executable, engine: cpu_mips::Engine) -> u64 {
    let mut k = Kernel::new(KernelConfig {
        engine,
        ..KernelConfig::default()
    });
    let argv = [b"workload".to_vec(), b"1".to_vec()];
    let pid = k.spawn(exe, "workload", &argv, &[]).expect("spawns");
    let null = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/null")
        .expect("/dev/null");
    k.set_host_fd(pid, 1, null, oflag::O_WRONLY)
        .expect("redirects stdout");
    assert_eq!(k.run(), Outcome::Exited(0));
    k.stats().instructions
}

fn engines(c: &mut Criterion) {
    let exe = workload();
    let instructions = run(&exe, cpu_mips::Engine::Interp);
    let mut group = c.benchmark_group("workload_1_round");
    group.throughput(Throughput::Elements(instructions));
    for (name, engine) in cpu_mips::Engine::ALL {
        group.bench_function(name, |b| {
            b.iter(|| assert_eq!(run(&exe, engine), instructions))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(8));
    targets = engines
}
criterion_main!(benches);
