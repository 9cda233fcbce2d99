//! Turning the kernel's measurements into profile files' data: its outside
//! profile and the exact cycle counts into gmon.out histograms, its call
//! tracker into the call-graph sidecar's [`CallProfile`].

use std::collections::BTreeMap;

use irix_kernel::profiling::{ArcKind, CallGraph, HostProfile};
use profile_formats::callgraph::{CallArcRecord, CallProfile, ExactCost};
use profile_formats::gmon::HistRecord;

/// One histogram per profiled text range, bins as the kernel counted them.
pub fn sampled_histograms(hist: &HostProfile, rate_hz: u32) -> Vec<HistRecord> {
    let bpb = hist.bytes_per_bin();
    hist.regions()
        .map(|(start, _end, bins)| HistRecord {
            low_pc: start,
            high_pc: start.saturating_add(bins.len() as u32 * bpb),
            rate_hz,
            bins: bins.to_vec(),
        })
        .collect()
}

/// Exact cycles per `bytes_per_bin` of text starting at `base`, as a
/// histogram whose "rate" is the CPU clock (so seconds come out right).
pub fn exact_histograms(
    base: u32,
    cycles: &[u64],
    bytes_per_bin: u32,
    cpu_hz: u64,
) -> Vec<HistRecord> {
    let per_bin = (bytes_per_bin / 4).max(1) as usize;
    let bins: Vec<u64> = cycles.chunks(per_bin).map(|c| c.iter().sum()).collect();
    vec![HistRecord {
        low_pc: base,
        high_pc: base.saturating_add(bins.len() as u32 * bytes_per_bin),
        rate_hz: cpu_hz.min(u32::MAX as u64) as u32,
        bins,
    }]
}

/// The kernel tracker's results (call [`CallGraph`]'s `finish` first:
/// `Kernel::take_call_graph` does), arcs sorted by site and callee.
pub fn call_profile(
    cg: &CallGraph,
    rate_hz: u32,
    cpu_hz: u64,
    exact: Vec<ExactCost>,
    program_bytes: &[u8],
) -> CallProfile {
    let mut arcs: Vec<CallArcRecord> = cg
        .arcs()
        .iter()
        .map(|(k, c)| CallArcRecord {
            site: k.site,
            callee: k.callee,
            signal: c.kind == ArcKind::Signal,
            calls: c.calls,
            instructions: c.instructions,
            cycles: c.cycles,
        })
        .collect();
    arcs.sort_by_key(|a| (a.site, a.callee));
    CallProfile {
        rate_hz,
        cpu_hz,
        arcs,
        stacks: cg.stacks(),
        exact,
        program: Some(profile_formats::callgraph::program_identity(program_bytes)),
    }
}

/// The kernel's timeline as the Firefox Profiler's: a thread per process
/// and program, stacks named with each program's symbols (`functions` for
/// the profiled one, the exec'd programs' own read from their files),
/// cycles turned into nanoseconds at `cpu_hz`, samples every `1 / rate_hz`
/// seconds, and the kernel's events as markers on the thread running when
/// each began.
pub fn firefox_timeline(
    t: &irix_kernel::profiling::Timeline,
    functions: &profile_formats::report::stacks::Functions<'_>,
    program: &str,
    cpu_hz: u64,
    rate_hz: u32,
) -> profile_formats::report::firefox::Timeline {
    use profile_formats::report::firefox::{TimedSample, TimelineThread};
    use profile_formats::report::stacks::Functions;
    let ns = |cycles: u64| (u128::from(cycles) * 1_000_000_000 / u128::from(cpu_hz.max(1))) as u64;
    // The exec'd programs' symbols, as exec loaded them (image 0 is the
    // profiled program).
    let exec_symbols: Vec<Vec<profile_formats::report::Symbol>> = t
        .images
        .iter()
        .skip(1)
        .map(|image| crate::program::text_symbols(&image.symbols))
        .collect();
    let exec_functions: Vec<Functions<'_>> = exec_symbols
        .iter()
        .map(|symbols| Functions::new(symbols, u64::from(u32::MAX)))
        .collect();
    let functions_of = |image: usize| match image {
        0 => functions,
        i => &exec_functions[i - 1],
    };
    let mut threads: Vec<TimelineThread> = t
        .spans
        .iter()
        .map(|span| TimelineThread {
            pid: span.pid,
            name: span.name.clone(),
            start_ns: ns(span.start),
            end_ns: span.end.map(ns),
            samples: Vec::new(),
            markers: Vec::new(),
        })
        .collect();
    // Each process's threads, in the order they started.
    let mut by_pid: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (i, span) in t.spans.iter().enumerate() {
        by_pid.entry(span.pid).or_default().push(i);
    }
    // The thread of process `pid` at virtual time `time` (cycles): its
    // latest span that started by then (`inclusive`) or before then (an
    // execve that starts a span began in the span before).
    let thread_at = |pid: u32, time: u64, inclusive: bool| {
        let spans = by_pid.get(&pid)?;
        let started = spans.partition_point(|&i| {
            let start = t.spans[i].start;
            start < time || inclusive && start == time
        });
        spans.get(started.saturating_sub(1)).copied()
    };
    for s in &t.samples {
        let Some(i) = thread_at(s.pid, s.time, true) else {
            continue;
        };
        let f = functions_of(s.image);
        threads[i].samples.push(TimedSample {
            time_ns: ns(s.time),
            stack: s.stack.iter().map(|&pc| f.name(f.of(pc))).collect(),
        });
    }
    for e in &t.events {
        let call = matches!(e.kind, irix_kernel::profiling::EventKind::Syscall { .. });
        let Some(i) = thread_at(e.pid, e.start, !call) else {
            continue;
        };
        threads[i]
            .markers
            .push(timed_marker(e, ns(e.start), ns(e.end)));
    }
    profile_formats::report::firefox::Timeline {
        program: program.to_string(),
        interval_ns: 1_000_000_000 / u64::from(rate_hz.max(1)),
        threads,
    }
}

/// A kernel event as a Firefox Profiler marker.
fn timed_marker(
    e: &irix_kernel::profiling::TimelineEvent,
    start_ns: u64,
    end_ns: u64,
) -> profile_formats::report::firefox::TimedMarker {
    use irix_kernel::process::ExitStatus;
    use irix_kernel::profiling::EventKind;
    use profile_formats::report::firefox::{MarkerKind, TimedMarker};
    let event = |name: &str, detail: String| TimedMarker {
        start_ns,
        end_ns,
        kind: MarkerKind::Process,
        name: name.to_string(),
        detail,
        result: String::new(),
    };
    match &e.kind {
        EventKind::Syscall { name, args, result } => TimedMarker {
            start_ns,
            end_ns,
            kind: MarkerKind::Syscall,
            name: name.clone(),
            detail: args.join(", "),
            result: result.clone(),
        },
        EventKind::Signal { signal } => event("signal", format!("{signal} handled")),
        EventKind::Stopped { signal } => event("stopped", signal.clone()),
        EventKind::Child { child, shares } => event(
            if *shares { "sproc" } else { "fork" },
            format!("child {child}"),
        ),
        EventKind::Exec { path } => event("exec", path.clone()),
        EventKind::Exit { status } => event(
            "exit",
            match status {
                ExitStatus::Exited(code) => format!("status {code}"),
                ExitStatus::Killed { signal, core } => format!(
                    "killed by {}{}",
                    irix_kernel::signals::name(*signal),
                    if *core { " (core dumped)" } else { "" }
                ),
            },
        ),
    }
}
