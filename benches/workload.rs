//! Whole-machine benchmarks on the compiled C workload (guest/src/workload.c):
//! guest instructions per second through the kernel's run loop, the cost
//! of the profiling clock (PROF_FAST's 1000 Hz ticks, delivered by the run
//! loop's event deadline) against no profiling, and the cost of call-graph
//! tracking (`prof --callgraph`: the shadow stack) on top of the ticks,
//! and each execution engine on the same run (group "engines").
//!
//! The call-graph comparison is also measured in the benchmark thread's CPU
//! time (group "workload-cpu"): on a shared machine the wall clock counts
//! the time other processes hold the CPU, the thread's CPU time does not.
//!
//! Run: `cargo bench --bench workload`. Results are in the README.

use std::path::Path;

use std::time::Duration;

use cpu_mips::Engine;
use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use irix_emu::program::functions_of;
use irix_kernel::files::oflag;
use irix_kernel::profiling::{CallGraph, FunctionRange, HostProfile};
use irix_kernel::{Kernel, KernelConfig, Outcome};
use profile_formats::report::charge::function_regions;

/// One pass of the workload (argv[1] = rounds).
const ROUNDS: &str = "1";

fn workload() -> loader::Executable {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("guest/bin/irix/workload");
    let bytes = std::fs::read(&path).expect("guest/bin/irix/workload");
    loader::load("workload", &bytes, &Default::default()).expect("loads")
}

/// The workload's functions, as `prof --callgraph` hands them to the tracker.
fn functions(exe: &loader::Executable) -> Vec<FunctionRange> {
    let symbols = functions_of(exe);
    let (regions, _) = function_regions(&symbols, u64::from(u32::MAX));
    regions
        .iter()
        .map(|r| FunctionRange {
            start: r.start as u32,
            end: r.end.min(u64::from(u32::MAX)) as u32,
        })
        .collect()
}

/// Runs the workload to completion on the default engine; `fast_hz` adds
/// an outside profile ticking at that rate, `calls` call-graph tracking.
/// Returns the instructions retired.
fn run(exe: &loader::Executable, fast_hz: Option<u32>, calls: Option<&[FunctionRange]>) -> u64 {
    run_on(exe, Engine::default(), fast_hz, calls)
}

/// [`run`] on `engine`.
fn run_on(
    exe: &loader::Executable,
    engine: Engine,
    fast_hz: Option<u32>,
    calls: Option<&[FunctionRange]>,
) -> u64 {
    let mut k = Kernel::new(KernelConfig {
        engine,
        ..KernelConfig::default()
    });
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
    if let Some(f) = calls {
        k.set_call_graph(CallGraph::new(f));
    }
    assert_eq!(k.run(), Outcome::Exited(0));
    k.stats().instructions
}

/// The calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID).
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through the valid pointer.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Criterion measurement in thread CPU time, printed like wall time.
struct ThreadCpu;

static WALL: WallTime = WallTime;

impl Measurement for ThreadCpu {
    type Intermediate = Duration;
    type Value = Duration;
    fn start(&self) -> Duration {
        thread_cpu()
    }
    fn end(&self, start: Duration) -> Duration {
        thread_cpu().saturating_sub(start)
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, v: &Duration) -> f64 {
        v.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        WALL.formatter()
    }
}

/// Call tracking on and off, in thread CPU time.
fn bench_cpu(c: &mut Criterion<ThreadCpu>) {
    let exe = workload();
    let instructions = run(&exe, None, None);
    let funcs = functions(&exe);
    let mut g = c.benchmark_group("workload-cpu");
    g.sample_size(10);
    g.throughput(Throughput::Elements(instructions));
    g.bench_function("PROF_FAST 1000 Hz ticks", |b| {
        b.iter(|| run(&exe, Some(1000), None))
    });
    g.bench_function("PROF_FAST 1000 Hz ticks + call graph", |b| {
        b.iter(|| run(&exe, Some(1000), Some(&funcs)))
    });
    g.finish();
}

fn bench(c: &mut Criterion) {
    let exe = workload();
    let instructions = run(&exe, None, None);
    let funcs = functions(&exe);
    let mut g = c.benchmark_group("workload");
    g.sample_size(10);
    g.throughput(Throughput::Elements(instructions));
    g.bench_function("run, no profiling", |b| b.iter(|| run(&exe, None, None)));
    g.bench_function("run, PROF_FAST 1000 Hz ticks", |b| {
        b.iter(|| run(&exe, Some(1000), None))
    });
    g.bench_function("run, PROF_FAST 1000 Hz ticks + call graph", |b| {
        b.iter(|| run(&exe, Some(1000), Some(&funcs)))
    });
    g.finish();
}

/// Each engine on the same run, no profiling (README "Engines").
fn engines(c: &mut Criterion) {
    let exe = workload();
    let instructions = run(&exe, None, None);
    let mut g = c.benchmark_group("engines");
    g.sample_size(10);
    g.throughput(Throughput::Elements(instructions));
    for (name, engine) in Engine::ALL {
        g.bench_function(name, |b| {
            b.iter(|| assert_eq!(run_on(&exe, engine, None, None), instructions))
        });
    }
    g.finish();
}

criterion_group!(benches, bench, engines);
criterion_group! {
    name = cpu_benches;
    config = Criterion::default().with_measurement(ThreadCpu);
    targets = bench_cpu
}
criterion_main!(benches, cpu_benches);
