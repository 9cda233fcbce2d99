//! `prof --format firefox`: the Firefox Profiler timeline's markers and
//! threads. Each system call `--strace` shows is a marker on the thread of
//! the process that made it, with its decoded arguments and result; fork,
//! sproc, signals handled, exec and exit are markers too; a process that
//! execs goes on as a new thread named by the new program, sampled with
//! that program's symbols; and the file is the same on every run.
//! (callgraph.rs checks the samples against the flat profile.)

use crate::common;

use std::collections::BTreeMap;

use common::{repo_path, run_emu, Scratch};
use serde_json::Value;

/// One thread of the written profile, read as the profiler reads it.
#[derive(Debug)]
struct Thread {
    pid: String,
    name: String,
    process_name: String,
    samples: usize,
    /// Marker name, its data's type, and its fields (strings resolved).
    markers: Vec<(String, String, BTreeMap<String, String>)>,
}

fn threads(v: &Value) -> Vec<Thread> {
    v["threads"]
        .as_array()
        .expect("threads")
        .iter()
        .map(|t| {
            let string = |i: &Value| {
                t["stringArray"][i.as_u64().expect("string index") as usize]
                    .as_str()
                    .expect("string")
                    .to_string()
            };
            let m = &t["markers"];
            let n = m["length"].as_u64().expect("marker count") as usize;
            let markers = (0..n)
                .map(|i| {
                    let data = m["data"][i].as_object().expect("marker data");
                    let fields = data
                        .iter()
                        .filter(|(k, _)| *k != "type")
                        .map(|(k, v)| (k.clone(), string(v)))
                        .collect();
                    let kind = data["type"].as_str().expect("type").to_string();
                    (string(&m["name"][i]), kind, fields)
                })
                .collect();
            Thread {
                pid: t["pid"].as_str().expect("pid").to_string(),
                name: t["name"].as_str().expect("name").to_string(),
                process_name: t["processName"].as_str().expect("processName").to_string(),
                samples: t["samples"]["length"].as_u64().expect("samples") as usize,
                markers,
            }
        })
        .collect()
}

/// `irix-emu prof --fast --format firefox --report profile.json OPTIONS
/// PROGRAM` in a scratch directory, which must exit 0; the profile, stderr
/// and the file's bytes.
fn timeline(options: &[&str], program: &str) -> (Value, String, Vec<u8>) {
    timeline_ending(options, program, 0)
}

/// [`timeline`] of a program that ends with shell status `status`.
fn timeline_ending(options: &[&str], program: &str, status: i32) -> (Value, String, Vec<u8>) {
    let dir = Scratch::new("firefox");
    let path = repo_path(&format!("guest/bin/irix/{program}"));
    let mut args = vec![
        "prof",
        "--fast",
        "--format",
        "firefox",
        "--report",
        "profile.json",
    ];
    args.extend(options);
    args.push(path.to_str().expect("UTF-8 path"));
    let run = run_emu(&args, dir.path());
    assert_eq!(run.status.shell(), status, "{program}: {}", run.stderr);
    let bytes = std::fs::read(dir.path().join("profile.json")).expect("profile.json");
    let v = serde_json::from_slice(&bytes).expect("JSON");
    (v, run.stderr, bytes)
}

/// The calls each process made, from `--strace` lines `[PID] NAME(...`.
fn strace_calls(stderr: &str) -> BTreeMap<String, Vec<String>> {
    let mut calls: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in stderr.lines() {
        let Some(rest) = line.strip_prefix('[') else {
            continue;
        };
        let Some((pid, call)) = rest.split_once("] ") else {
            continue;
        };
        let name = call.split('(').next().unwrap_or_default();
        calls
            .entry(pid.to_string())
            .or_default()
            .push(name.to_string());
    }
    calls
}

#[test]
fn every_system_call_the_strace_shows_is_a_marker_of_its_process() {
    for program in ["cg_fork", "cg_sproc", "cg_signal"] {
        let (v, stderr, _) = timeline(&["--strace", "--callgraph"], program);
        let shown = strace_calls(&stderr);
        assert!(!shown.is_empty(), "{program}: no strace lines in {stderr}");
        let mut marked: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for t in threads(&v) {
            let calls = t
                .markers
                .iter()
                .filter(|(_, kind, _)| kind == "IrixSyscall")
                .map(|(name, _, _)| name.clone());
            marked.entry(t.pid).or_default().extend(calls);
        }
        assert_eq!(marked, shown, "{program}");
    }
}

#[test]
fn a_marker_holds_the_calls_decoded_arguments_and_result() {
    let (v, _, _) = timeline(&[], "cg_fork");
    let parent = &threads(&v)[0];
    let write = parent
        .markers
        .iter()
        .find(|(name, _, _)| name == "write")
        .expect("a write marker");
    let fields = &write.2;
    assert!(fields["args"].starts_with("1, \""), "{fields:?}");
    let written: i64 = fields["result"].parse().expect("a byte count");
    assert!(written > 0, "{fields:?}");
}

#[test]
fn fork_sproc_and_exit_are_markers_of_the_processes_that_made_them() {
    for (program, call) in [("cg_fork", "fork"), ("cg_sproc", "sproc")] {
        let (v, _, _) = timeline(&[], program);
        let ts = threads(&v);
        assert_eq!(ts.len(), 2, "{program}: {ts:?}");
        let events = |t: &Thread| -> Vec<(String, String)> {
            t.markers
                .iter()
                .filter(|(_, kind, _)| kind == "IrixProcessEvent")
                .map(|(name, _, f)| (name.clone(), f["detail"].clone()))
                .collect()
        };
        let parent = events(&ts[0]);
        let child = format!("child {}", ts[1].pid);
        assert!(
            parent.contains(&(call.to_string(), child)),
            "{program}: {parent:?}"
        );
        for t in &ts {
            let last = events(t).pop().expect("an event");
            assert_eq!(last.0, "exit", "{program}: {t:?}");
            assert!(last.1.starts_with("status "), "{program}: {last:?}");
        }
    }
}

#[test]
fn a_signal_handled_is_a_marker() {
    let (v, _, _) = timeline(&[], "cg_signal");
    let handled: Vec<String> = threads(&v)
        .iter()
        .flat_map(|t| t.markers.iter())
        .filter(|(name, _, _)| name == "signal")
        .map(|(_, _, f)| f["detail"].clone())
        .collect();
    assert!(!handled.is_empty(), "no signal markers");
    assert!(
        handled.iter().all(|d| d.ends_with(" handled")),
        "{handled:?}"
    );
}

#[test]
fn a_process_that_execs_goes_on_as_a_thread_named_by_the_new_program() {
    // The programs' directory as the root: proc_exec runs /proc_exec and
    // execs /hello beside it.
    let root = repo_path("guest/bin/irix");
    let (v, stderr, _) = timeline(&["--root", root.to_str().expect("UTF-8")], "proc_exec");
    let ts = threads(&v);
    let names: Vec<(&str, &str)> = ts
        .iter()
        .map(|t| (t.name.as_str(), t.pid.as_str()))
        .collect();
    assert_eq!(names.len(), 2, "{ts:?}\n{stderr}");
    assert_eq!(names[0].1, names[1].1, "one process: {names:?}");
    assert_eq!(names[1].0, "hello", "{names:?}");
    assert_eq!(ts[1].process_name, ts[0].process_name);
    // The execve call is the old program's; the exec event and the new
    // program's calls are the new thread's.
    let calls = |t: &Thread| -> Vec<String> { t.markers.iter().map(|m| m.0.clone()).collect() };
    assert!(
        calls(&ts[0]).ends_with(&["execve".to_string()]),
        "{:?}",
        calls(&ts[0])
    );
    let exec = ts[1].markers.first().expect("the exec marker");
    assert_eq!(
        (exec.0.as_str(), exec.2["detail"].as_str()),
        ("exec", "/hello")
    );
    assert_eq!(calls(&ts[1]).last().map(String::as_str), Some("exit"));
    assert!(ts[0].samples > 0, "{ts:?}");
}

#[test]
fn the_timeline_is_the_same_file_on_every_run() {
    let (_, _, first) = timeline(&["--callgraph"], "cg_fork");
    let (_, _, second) = timeline(&["--callgraph"], "cg_fork");
    assert!(first == second, "two runs wrote different timelines");
}

#[test]
fn a_call_a_signal_restarts_is_the_wait_before_the_handler_and_the_call_after() {
    // sig_timers blocks in read(2) on an empty pipe; SIGALRM comes after
    // 1 s, its handler (SA_RESTART) returns into the read, which a child's
    // write ends 1 s later. (Its last check ends it by SIGALRM.)
    let (v, _, _) = timeline_ending(&[], "sig_timers", 128 + 14);
    let parent = &threads(&v)[0];
    let m = &v["threads"][0]["markers"];
    let at = |i: usize, key: &str| m[key][i].as_f64().unwrap_or(0.0);
    let restarted: Vec<usize> = (0..parent.markers.len())
        .filter(|&i| {
            parent.markers[i].0 == "read"
                && parent.markers[i].2["result"] == "? (restarted after SIGALRM)"
        })
        .collect();
    assert_eq!(restarted.len(), 1, "{:?}", parent.markers);
    let i = restarted[0];
    // The wait before the signal: a second of virtual time.
    let waited = at(i, "endTime") - at(i, "startTime");
    assert!((waited - 1000.0).abs() < 20.0, "waited {waited} ms");
    // Then the handler, then the read made again, which returns the byte.
    let after: Vec<&str> = parent.markers[i + 1..]
        .iter()
        .map(|(name, _, _)| name.as_str())
        .collect();
    let signal = after.iter().position(|&n| n == "signal");
    let read = after.iter().position(|&n| n == "read");
    assert!(signal.is_some() && read > signal, "{after:?}");
    let j = i + 1 + read.unwrap_or(0);
    assert_eq!(
        parent.markers[j].2["result"], "1",
        "{:?}",
        parent.markers[j]
    );
    assert!(at(j, "startTime") >= at(i, "endTime"));
}
