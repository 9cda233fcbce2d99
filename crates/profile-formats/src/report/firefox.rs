//! A timeline in the Firefox Profiler's processed-profile format
//! (<https://profiler.firefox.com>), written with the
//! `fxprof-processed-profile` crate that samply uses.
//!
//! Contents: [`Timeline`], [`TimelineProcess`], [`TimedSample`] (what the
//! command line fills from the kernel's measurements) and
//! [`render_firefox`].
//!
//! Each IRIX process is a process of the profile (named by its command,
//! with its pid) with one main thread; its samples carry their stacks (function names,
//! root first) and their virtual timestamps, and each is charged one
//! sampling interval of CPU. Time 0 is the start of the run on the virtual
//! clock; the interval is the profiling clock's.
//!
//! Not yet here: markers (system calls, signals, fork, exec, exit).

use std::io::{self, Write};

use fxprof_processed_profile::{
    CategoryColor, CpuDelta, Frame, FrameFlags, FrameInfo, Profile, ReferenceTimestamp,
    SamplingInterval, Timestamp,
};

/// The processes of one run and their timed samples.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Timeline {
    /// The program that was profiled (the profile's product name).
    pub program: String,
    /// The sampling interval, in nanoseconds of virtual time.
    pub interval_ns: u64,
    pub processes: Vec<TimelineProcess>,
}

/// One process: its samples in time order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TimelineProcess {
    pub pid: u32,
    /// Its command (the program it ran last).
    pub name: String,
    /// Virtual time it started and ended, in nanoseconds.
    pub start_ns: u64,
    pub end_ns: Option<u64>,
    pub samples: Vec<TimedSample>,
}

/// A sample: when, and the stack of function names, root first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TimedSample {
    pub time_ns: u64,
    pub stack: Vec<String>,
}

/// The timeline as the Firefox Profiler's JSON.
pub fn render_firefox(timeline: &Timeline, out: &mut impl Write) -> io::Result<()> {
    let mut profile = Profile::new(
        &timeline.program,
        ReferenceTimestamp::from_millis_since_unix_epoch(0.0),
        SamplingInterval::from_nanos(timeline.interval_ns.max(1)),
    );
    let user = profile.add_category("User", CategoryColor::Yellow);
    for p in &timeline.processes {
        let start = Timestamp::from_nanos_since_reference(p.start_ns);
        let process = profile.add_process(&p.name, p.pid, start);
        let thread = profile.add_thread(process, p.pid, start, true);
        if let Some(end) = p.end_ns {
            let end = Timestamp::from_nanos_since_reference(end);
            profile.set_thread_end_time(thread, end);
            profile.set_process_end_time(process, end);
        }
        for s in &p.samples {
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
                Timestamp::from_nanos_since_reference(s.time_ns),
                stack,
                CpuDelta::from_nanos(timeline.interval_ns),
                1,
            );
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

    #[test]
    fn each_process_is_a_thread_with_its_stacks_and_virtual_times() {
        let timeline = Timeline {
            program: "prog".into(),
            interval_ns: 10_000_000,
            processes: vec![
                TimelineProcess {
                    pid: 100,
                    name: "prog".into(),
                    start_ns: 0,
                    end_ns: Some(50_000_000),
                    samples: vec![
                        sample(10_000_000, &["__start", "main", "work"]),
                        sample(20_000_000, &["__start", "main"]),
                    ],
                },
                TimelineProcess {
                    pid: 101,
                    name: "child".into(),
                    start_ns: 15_000_000,
                    end_ns: None,
                    samples: vec![sample(30_000_000, &["__start", "main", "work"])],
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
    }
}
