//! Turning the kernel's measurements into profile files' data: its outside
//! profile and the exact cycle counts into gmon.out histograms, its call
//! tracker into the call-graph sidecar's [`CallProfile`].

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
    }
}

/// The kernel's timeline as the Firefox Profiler's: processes by pid,
/// stacks named with `functions`, cycles turned into nanoseconds at
/// `cpu_hz`, samples every `1 / rate_hz` seconds.
pub fn firefox_timeline(
    t: &irix_kernel::profiling::Timeline,
    functions: &profile_formats::report::stacks::Functions<'_>,
    program: &str,
    cpu_hz: u64,
    rate_hz: u32,
) -> profile_formats::report::firefox::Timeline {
    use profile_formats::report::firefox::{TimedSample, TimelineProcess};
    let ns = |cycles: u64| (u128::from(cycles) * 1_000_000_000 / u128::from(cpu_hz.max(1))) as u64;
    let mut processes: Vec<TimelineProcess> = t
        .spans
        .iter()
        .map(|(&pid, span)| TimelineProcess {
            pid,
            name: span.name.clone(),
            start_ns: ns(span.start),
            end_ns: span.end.map(ns),
            samples: Vec::new(),
        })
        .collect();
    for s in &t.samples {
        let Some(p) = processes.iter_mut().find(|p| p.pid == s.pid) else {
            continue;
        };
        p.samples.push(TimedSample {
            time_ns: ns(s.time),
            stack: s
                .stack
                .iter()
                .map(|&pc| functions.name(functions.of(pc)))
                .collect(),
        });
    }
    profile_formats::report::firefox::Timeline {
        program: program.to_string(),
        interval_ns: 1_000_000_000 / u64::from(rate_hz.max(1)),
        processes,
    }
}
