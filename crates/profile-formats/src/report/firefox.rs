//! A timeline in the Firefox Profiler's processed-profile format
//! (<https://profiler.firefox.com>), written with the
//! `fxprof-processed-profile` crate that samply uses.
//!
//! Contents: [`Timeline`], [`TimelineThread`], [`TimedSample`],
//! [`TimedMarker`] (what the command line fills from the kernel's
//! measurements) and [`render_firefox`].
//!
//! Each IRIX process is a process of the profile (its pid, named by the
//! first program it ran) with a thread per program it ran (a process that
//! execs gets a new thread, named by the new program, from the exec on);
//! samples carry their stacks (function names, root first) and virtual
//! timestamps, and each is charged one sampling interval of CPU. Markers
//! show each system call (its decoded arguments and result, over its
//! virtual duration, waits included) and the process events: signals,
//! fork, sproc, exec and exit. Time 0 is the start of the run on the
//! virtual clock; the interval is the profiling clock's.

use std::collections::BTreeMap;
use std::io::{self, Write};

use fxprof_processed_profile::{
    CategoryColor, CategoryHandle, CpuDelta, Frame, FrameFlags, FrameInfo, MarkerFieldFlags,
    MarkerFieldFormat, MarkerTiming, Profile, ReferenceTimestamp, SamplingInterval,
    StaticSchemaMarker, StaticSchemaMarkerField, StringHandle, Timestamp,
};

/// The threads of one run and their timed samples and markers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Timeline {
    /// The program that was profiled (the profile's product name).
    pub program: String,
    /// The sampling interval, in nanoseconds of virtual time.
    pub interval_ns: u64,
    /// In the order they started.
    pub threads: Vec<TimelineThread>,
}

/// One process running one program: its samples and markers in time
/// order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TimelineThread {
    pub pid: u32,
    /// The program it ran.
    pub name: String,
    /// Virtual time it started (or exec'd) and ended (or exec'd again), in
    /// nanoseconds.
    pub start_ns: u64,
    pub end_ns: Option<u64>,
    pub samples: Vec<TimedSample>,
    pub markers: Vec<TimedMarker>,
}

/// A sample: when, and the stack of function names, root first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TimedSample {
    pub time_ns: u64,
    pub stack: Vec<String>,
}

/// A marker: a system call or a process event, over `start_ns..=end_ns`
/// (equal for an instant).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimedMarker {
    pub start_ns: u64,
    pub end_ns: u64,
    pub kind: MarkerKind,
    /// The call's name, or the event's ("signal", "fork", "exec"...).
    pub name: String,
    /// The call's decoded arguments, or what the event concerns (the
    /// signal, the child, the program, the exit status).
    pub detail: String,
    /// The call's result (empty for an event).
    pub result: String,
}

/// Which marker chart row a marker goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkerKind {
    Syscall,
    Process,
}

/// A system call: its arguments and result in the tooltip and table.
struct SyscallMarker {
    name: StringHandle,
    args: StringHandle,
    result: StringHandle,
    category: CategoryHandle,
}

impl StaticSchemaMarker for SyscallMarker {
    const UNIQUE_MARKER_TYPE_NAME: &'static str = "IrixSyscall";
    const DESCRIPTION: Option<&'static str> =
        Some("A system call, as --strace shows it, over its virtual duration");
    const CHART_LABEL: Option<&'static str> = Some("{marker.name}");
    const TOOLTIP_LABEL: Option<&'static str> =
        Some("{marker.name}({marker.data.args}) = {marker.data.result}");
    const TABLE_LABEL: Option<&'static str> =
        Some("{marker.name}({marker.data.args}) = {marker.data.result}");
    const FIELDS: &'static [StaticSchemaMarkerField] = &[
        StaticSchemaMarkerField {
            key: "args",
            label: "Arguments",
            format: MarkerFieldFormat::String,
            flags: MarkerFieldFlags::SEARCHABLE,
        },
        StaticSchemaMarkerField {
            key: "result",
            label: "Result",
            format: MarkerFieldFormat::String,
            flags: MarkerFieldFlags::SEARCHABLE,
        },
    ];

    fn name(&self, _profile: &mut Profile) -> StringHandle {
        self.name
    }

    fn category(&self, _profile: &mut Profile) -> CategoryHandle {
        self.category
    }

    fn string_field_value(&self, field_index: u32) -> StringHandle {
        if field_index == 0 {
            self.args
        } else {
            self.result
        }
    }

    fn number_field_value(&self, _field_index: u32) -> f64 {
        0.0
    }
}

/// A process event: signal, fork, sproc, exec, exit.
struct ProcessMarker {
    name: StringHandle,
    detail: StringHandle,
    category: CategoryHandle,
}

impl StaticSchemaMarker for ProcessMarker {
    const UNIQUE_MARKER_TYPE_NAME: &'static str = "IrixProcessEvent";
    const DESCRIPTION: Option<&'static str> =
        Some("A process event: a signal handled, fork, sproc, exec, exit");
    const CHART_LABEL: Option<&'static str> = Some("{marker.name} {marker.data.detail}");
    const TOOLTIP_LABEL: Option<&'static str> = Some("{marker.name} {marker.data.detail}");
    const TABLE_LABEL: Option<&'static str> = Some("{marker.name} {marker.data.detail}");
    const FIELDS: &'static [StaticSchemaMarkerField] = &[StaticSchemaMarkerField {
        key: "detail",
        label: "Detail",
        format: MarkerFieldFormat::String,
        flags: MarkerFieldFlags::SEARCHABLE,
    }];

    fn name(&self, _profile: &mut Profile) -> StringHandle {
        self.name
    }

    fn category(&self, _profile: &mut Profile) -> CategoryHandle {
        self.category
    }

    fn string_field_value(&self, _field_index: u32) -> StringHandle {
        self.detail
    }

    fn number_field_value(&self, _field_index: u32) -> f64 {
        0.0
    }
}

/// The timeline as the Firefox Profiler's JSON.
pub fn render_firefox(timeline: &Timeline, out: &mut impl Write) -> io::Result<()> {
    let mut profile = Profile::new(
        &timeline.program,
        ReferenceTimestamp::from_millis_since_unix_epoch(0.0),
        SamplingInterval::from_nanos(timeline.interval_ns.max(1)),
    );
    let user = profile.add_category("User", CategoryColor::Yellow);
    let kernel = profile.add_category("System call", CategoryColor::Orange);
    let events = profile.add_category("Process", CategoryColor::Blue);
    let at = Timestamp::from_nanos_since_reference;
    let mut processes = BTreeMap::new();
    for t in &timeline.threads {
        let process = *processes
            .entry(t.pid)
            .or_insert_with(|| profile.add_process(&t.name, t.pid, at(t.start_ns)));
        let is_main = t.start_ns
            == timeline
                .threads
                .iter()
                .find(|f| f.pid == t.pid)
                .map_or(0, |f| f.start_ns);
        let thread = profile.add_thread(process, t.pid, at(t.start_ns), is_main);
        profile.set_thread_name(thread, &t.name);
        if let Some(end) = t.end_ns {
            profile.set_thread_end_time(thread, at(end));
            if timeline.threads.iter().rev().find(|l| l.pid == t.pid) == Some(t) {
                profile.set_process_end_time(process, at(end));
            }
        }
        for s in &t.samples {
            let frames: Vec<FrameInfo> = s
                .stack
                .iter()
                .map(|name| FrameInfo {
                    frame: Frame::Label(profile.intern_string(name)),
                    category_pair: user.into(),
                    flags: FrameFlags::empty(),
                })
                .collect();
            let stack = profile.intern_stack_frames(thread, frames.into_iter());
            profile.add_sample(
                thread,
                at(s.time_ns),
                stack,
                CpuDelta::from_nanos(timeline.interval_ns),
                1,
            );
        }
        for m in &t.markers {
            let timing = if m.end_ns > m.start_ns {
                MarkerTiming::Interval(at(m.start_ns), at(m.end_ns))
            } else {
                MarkerTiming::Instant(at(m.start_ns))
            };
            let name = profile.intern_string(&m.name);
            let detail = profile.intern_string(&m.detail);
            match m.kind {
                MarkerKind::Syscall => {
                    let result = profile.intern_string(&m.result);
                    let marker = SyscallMarker {
                        name,
                        args: detail,
                        result,
                        category: kernel,
                    };
                    profile.add_marker(thread, timing, marker);
                }
                MarkerKind::Process => {
                    let marker = ProcessMarker {
                        name,
                        detail,
                        category: events,
                    };
                    profile.add_marker(thread, timing, marker);
                }
            }
        }
    }
    serde_json::to_writer(&mut *out, &profile).map_err(io::Error::other)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn sample(time_ns: u64, stack: &[&str]) -> TimedSample {
        TimedSample {
            time_ns,
            stack: stack.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn marker(kind: MarkerKind, name: &str, start_ns: u64, end_ns: u64) -> TimedMarker {
        TimedMarker {
            start_ns,
            end_ns,
            kind,
            name: name.into(),
            detail: "3, 0x7fff0000, 512".into(),
            result: "512".into(),
        }
    }

    #[test]
    fn a_process_that_execs_is_one_process_with_a_thread_per_program() {
        let thread = |name: &str, start_ns, end_ns| TimelineThread {
            pid: 100,
            name: name.into(),
            start_ns,
            end_ns,
            samples: vec![sample(start_ns + 1, &["main"])],
            markers: Vec::new(),
        };
        let timeline = Timeline {
            program: "cc".into(),
            interval_ns: 1_000_000,
            threads: vec![
                thread("cc", 0, Some(5_000_000)),
                thread("cfe", 5_000_000, None),
            ],
        };
        let mut out = Vec::new();
        render_firefox(&timeline, &mut out).expect("render");
        let v: Value = serde_json::from_slice(&out).expect("JSON");
        let threads = v["threads"].as_array().expect("threads");
        let seen: Vec<(&str, &str, bool)> = threads
            .iter()
            .map(|t| {
                (
                    t["name"].as_str().expect("name"),
                    t["pid"].as_str().expect("pid"),
                    t["isMainThread"].as_bool().expect("isMainThread"),
                )
            })
            .collect();
        assert_eq!(seen, [("cc", "100", true), ("cfe", "100", false)]);
        assert_eq!(threads[0]["processName"], "cc");
        assert_eq!(threads[1]["processName"], "cc");
    }

    #[test]
    fn each_process_is_a_thread_with_its_stacks_and_virtual_times() {
        let timeline = Timeline {
            program: "prog".into(),
            interval_ns: 10_000_000,
            threads: vec![
                TimelineThread {
                    pid: 100,
                    name: "prog".into(),
                    start_ns: 0,
                    end_ns: Some(50_000_000),
                    samples: vec![
                        sample(10_000_000, &["__start", "main", "work"]),
                        sample(20_000_000, &["__start", "main"]),
                    ],
                    markers: vec![
                        marker(MarkerKind::Syscall, "read", 11_000_000, 12_500_000),
                        marker(MarkerKind::Process, "fork", 15_000_000, 15_000_000),
                    ],
                },
                TimelineThread {
                    pid: 101,
                    name: "child".into(),
                    start_ns: 15_000_000,
                    end_ns: None,
                    samples: vec![sample(30_000_000, &["__start", "main", "work"])],
                    markers: Vec::new(),
                },
            ],
        };
        let mut out = Vec::new();
        render_firefox(&timeline, &mut out).expect("render");
        let v: Value = serde_json::from_slice(&out).expect("JSON");
        assert_eq!(v["meta"]["interval"], Value::from(10.0));
        assert_eq!(v["meta"]["product"], "prog");
        let threads = v["threads"].as_array().expect("threads");
        let names: Vec<&str> = threads
            .iter()
            .map(|t| t["name"].as_str().expect("name"))
            .collect();
        assert_eq!(names, ["prog", "child"]);
        let pids: Vec<&str> = threads
            .iter()
            .map(|t| t["pid"].as_str().expect("pid"))
            .collect();
        assert_eq!(pids, ["100", "101"]);
        // The first thread: two samples at 10 and 20 ms, whose stacks end
        // in work and in main.
        let t = &threads[0];
        assert_eq!(t["samples"]["length"], 2);
        let leaf_names: Vec<String> = t["samples"]["stack"]
            .as_array()
            .expect("sample stacks")
            .iter()
            .map(|s| {
                let s = s.as_u64().expect("stack index") as usize;
                let frame = t["stackTable"]["frame"][s].as_u64().expect("frame") as usize;
                let func = t["frameTable"]["func"][frame].as_u64().expect("func") as usize;
                let name = t["funcTable"]["name"][func].as_u64().expect("name") as usize;
                t["stringArray"][name].as_str().expect("string").to_string()
            })
            .collect();
        assert_eq!(leaf_names, ["work", "main"]);
        let deltas: Vec<f64> = t["samples"]["timeDeltas"]
            .as_array()
            .expect("time deltas")
            .iter()
            .map(|d| d.as_f64().expect("delta"))
            .collect();
        assert_eq!(deltas, [10.0, 10.0]);
        // Its markers: the call over its duration, the fork at an instant.
        let m = &t["markers"];
        assert_eq!(m["length"], 2);
        let marker_names: Vec<&str> = m["name"]
            .as_array()
            .expect("marker names")
            .iter()
            .map(|n| {
                t["stringArray"][n.as_u64().expect("name") as usize]
                    .as_str()
                    .expect("string")
            })
            .collect();
        assert_eq!(marker_names, ["read", "fork"]);
        assert_eq!(m["startTime"][0], Value::from(11.0));
        assert_eq!(m["endTime"][0], Value::from(12.5));
        assert_eq!(m["data"][0]["type"], "IrixSyscall");
        assert_eq!(m["data"][1]["type"], "IrixProcessEvent");
        let schemas: Vec<&str> = v["meta"]["markerSchema"]
            .as_array()
            .expect("marker schemas")
            .iter()
            .map(|s| s["name"].as_str().expect("schema name"))
            .collect();
        assert!(schemas.contains(&"IrixSyscall") && schemas.contains(&"IrixProcessEvent"));
    }
}
