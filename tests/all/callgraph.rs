//! `irix-emu prof --callgraph`: the exact call graph of unmodified guest
//! programs, and the formats other tools read.
//!
//! Contents:
//! 1. Arc by arc, on guest programs whose calls are known from their
//!    source: recursion, function pointers, longjmp, signal handlers, tail
//!    calls, exit from deep inside, death by a signal, fork and sproc; the
//!    real stacks after the non-local exits (no frame left over), and a
//!    stack of its own for each process and sproc thread.
//! 2. Real consumers on real output: GNU gprof -q on the workload's
//!    gmon.out; callgrind_annotate on the callgrind file (per-function
//!    totals equal ours, exact and sampled); go tool pprof -top on the pprof
//!    file (flat totals equal ours).
//! 3. report: the sidecar gives the same graph as prof; without it the
//!    gmon.out arcs still give the counts; a stale sidecar is removed;
//!    folded stacks, speedscope JSON and the flame-graph SVG.

use crate::common;

use std::collections::BTreeMap;
use std::process::Command;

use common::{
    emu, exit, guest, json_is_valid, repo, require_tool, run_command, Run, Scratch,
    KILLED_BY_SIGSEGV,
};
use profile_formats::callgraph::{read_sidecar, sidecar_path, CallProfile};

/// `irix-emu prof --callgraph --fast OPTIONS -o OUT PROGRAM ARGS`.
fn prof(options: &[&str], out: &str, program: &str, args: &[&str]) -> Run {
    let path = guest(program);
    let mut all = vec!["prof", "--callgraph", "--fast"];
    all.extend(options);
    all.extend(["-o", out, &path]);
    all.extend(args);
    emu(&all)
}

/// Call counts per (caller, callee) from a gprof -q style call graph (GNU
/// gprof's or irix-emu's own): in each block, the lines after the primary
/// line `[n] ...` are the callees, ending in `CALLS[/TOTAL] NAME [m]`.
fn graph_arcs(text: &str) -> BTreeMap<(String, String), u64> {
    let mut arcs = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if line.starts_with("---") || line.contains("as a whole>") {
            current = None;
            continue;
        }
        // gprof names the members of a recursive cycle "ping <cycle 1>".
        let line = match (line.find(" <cycle "), line.rfind('>')) {
            (Some(a), Some(b)) if b > a => format!("{}{}", &line[..a], &line[b + 1..]),
            _ => line.to_string(),
        };
        let t: Vec<&str> = line.split_whitespace().collect();
        if t.len() < 3 || !t[t.len() - 1].starts_with('[') {
            continue;
        }
        let name = t[t.len() - 2].to_string();
        if line.starts_with('[') {
            current = Some(name);
        } else if let Some(caller) = &current {
            let calls = t[t.len() - 3].split('/').next().unwrap_or("");
            if let Ok(n) = calls.parse::<u64>() {
                *arcs.entry((caller.clone(), name)).or_insert(0) += n;
            }
        }
    }
    arcs
}

/// The arcs between the named functions only.
fn arcs_among(
    arcs: &BTreeMap<(String, String), u64>,
    names: &[&str],
) -> BTreeMap<(String, String), u64> {
    arcs.iter()
        .filter(|((a, b), _)| names.contains(&a.as_str()) && names.contains(&b.as_str()))
        .map(|(k, &n)| (k.clone(), n))
        .collect()
}

fn expect(pairs: &[(&str, &str, u64)]) -> BTreeMap<(String, String), u64> {
    pairs
        .iter()
        .map(|&(a, b, n)| ((a.to_string(), b.to_string()), n))
        .collect()
}

/// irix-emu's own call graph for a profile (report, text).
fn report_text(program: &str, gmon: &str) -> String {
    let out = emu(&["report", &guest(program), gmon]);
    assert_eq!(out.status.shell(), 0, "{}", out.stderr);
    out.stdout_text()
}

/// Folded stacks without the root frame (the program's path).
fn folded(program: &str, gmon: &str) -> BTreeMap<String, u64> {
    let out = emu(&["report", "--format", "folded", &guest(program), gmon]);
    assert_eq!(out.status.shell(), 0, "{}", out.stderr);
    out.stdout_text()
        .lines()
        .map(|l| {
            let (stack, n) = l.rsplit_once(' ').expect("stack count");
            let stack = stack.split_once(';').map_or(stack, |(_, s)| s);
            (stack.to_string(), n.parse().expect("count"))
        })
        .collect()
}

struct Case {
    program: &'static str,
    status: i32,
    stdout: &'static str,
    functions: &'static [&'static str],
    arcs: &'static [(&'static str, &'static str, u64)],
}

const CASES: &[Case] = &[
    Case {
        program: "cg_recursion",
        status: 0,
        stdout: "fib(12) = 144, ping(9) = 9\n",
        functions: &["main", "fib", "ping", "pong", "spin"],
        arcs: &[
            ("main", "fib", 1),
            ("fib", "fib", 464),
            ("fib", "spin", 233),
            ("main", "ping", 1),
            ("ping", "pong", 5),
            ("pong", "ping", 4),
        ],
    },
    Case {
        program: "cg_fnptr",
        status: 0,
        stdout: "total = 62\nhello from greet\n",
        functions: &["main", "apply", "add", "sub", "mul", "greet", "spin"],
        arcs: &[
            ("main", "apply", 10),
            ("apply", "add", 4),
            ("apply", "sub", 3),
            ("apply", "mul", 3),
            ("main", "greet", 1),
            ("add", "spin", 4),
            ("sub", "spin", 3),
            ("mul", "spin", 3),
        ],
    },
    Case {
        program: "cg_longjmp",
        status: 0,
        stdout: "longjmp: 3 recoveries\n",
        functions: &["main", "run", "setjmp", "dive", "longjmp", "after", "spin"],
        arcs: &[
            ("main", "run", 3),
            ("run", "setjmp", 3),
            ("run", "dive", 3),
            ("dive", "dive", 15),
            ("dive", "longjmp", 3),
            ("dive", "spin", 18),
            ("run", "after", 3),
            ("after", "spin", 3),
        ],
    },
    Case {
        program: "cg_signal",
        status: 0,
        stdout: "signals: 2 usr1, 1 segv\n",
        functions: &[
            "main",
            "trigger",
            "kill",
            "__sigtramp",
            "on_usr1",
            "work",
            "recover",
            "sigsetjmp",
            "fault",
            "on_segv",
            "siglongjmp",
            "later",
        ],
        arcs: &[
            ("main", "trigger", 2),
            ("trigger", "kill", 2),
            ("__sigtramp", "on_usr1", 2),
            ("on_usr1", "work", 2),
            ("main", "recover", 1),
            ("recover", "sigsetjmp", 1),
            ("recover", "fault", 1),
            ("__sigtramp", "on_segv", 1),
            ("on_segv", "siglongjmp", 1),
            ("main", "later", 1),
        ],
    },
    Case {
        program: "cg_tailcall",
        status: 0,
        stdout: "tail: 795\n",
        functions: &["main", "dispatch", "via_pointer", "leaf_a", "leaf_b"],
        arcs: &[
            ("main", "dispatch", 10),
            ("main", "leaf_a", 7),
            ("main", "leaf_b", 5),
            ("main", "via_pointer", 2),
        ],
    },
    Case {
        program: "cg_exit_deep",
        status: 3,
        stdout: "",
        functions: &["main", "level1", "level2", "level3", "spin", "exit"],
        arcs: &[
            ("main", "level1", 1),
            ("level1", "level2", 1),
            ("level2", "level3", 1),
            ("level3", "spin", 1),
            ("level3", "exit", 1),
        ],
    },
    Case {
        program: "cg_fork",
        status: 0,
        stdout: "child: done\nparent: child exited with status 0\n",
        functions: &[
            "main",
            "run",
            "fork",
            "child_work",
            "parent_work",
            "leaf",
            "spin",
            "waitpid",
            "child_tail",
            "parent_tail",
        ],
        arcs: &[
            ("main", "run", 1),
            ("run", "spin", 1),
            ("run", "fork", 1),
            ("run", "child_work", 1),
            ("child_work", "leaf", 3),
            ("run", "parent_work", 1),
            ("parent_work", "leaf", 2),
            ("leaf", "spin", 5),
            ("run", "waitpid", 1),
            ("main", "child_tail", 1),
            ("main", "parent_tail", 1),
            ("child_tail", "spin", 1),
            ("parent_tail", "spin", 1),
        ],
    },
    Case {
        program: "cg_sproc",
        status: 0,
        stdout: "parent: member exited with status 7\n",
        functions: &[
            "main",
            "sproc",
            "member",
            "member_work",
            "parent_work",
            "leaf",
            "spin",
            "waitpid",
            "parent_tail",
        ],
        arcs: &[
            ("main", "sproc", 1),
            ("member", "member_work", 1),
            ("member_work", "leaf", 3),
            ("main", "parent_work", 1),
            ("parent_work", "leaf", 2),
            ("leaf", "spin", 5),
            ("main", "waitpid", 1),
            ("main", "parent_tail", 1),
            ("parent_tail", "spin", 1),
        ],
    },
    Case {
        program: "cg_killed",
        status: KILLED_BY_SIGSEGV,
        stdout: "",
        functions: &["main", "outer", "middle", "inner", "spin"],
        arcs: &[
            ("main", "outer", 1),
            ("outer", "middle", 1),
            ("middle", "inner", 1),
            ("inner", "spin", 1),
        ],
    },
];

#[test]
fn call_graphs_of_the_guest_programs_match_their_sources_arc_by_arc() {
    let dir = Scratch::new("cg-arcs");
    for case in CASES {
        let gmon = dir.file(&format!("{}.gmon", case.program));
        let out = prof(&[], &gmon, case.program, &[]);
        assert_eq!(
            out.status.shell(),
            case.status,
            "{}: {}",
            case.program,
            out.stderr
        );
        assert_eq!(out.stdout_text(), case.stdout, "{}", case.program);
        let got = arcs_among(
            &graph_arcs(&report_text(case.program, &gmon)),
            case.functions,
        );
        assert_eq!(got, expect(case.arcs), "{}", case.program);
    }
}

#[test]
fn gnu_gprof_q_prints_the_same_exact_counts_for_the_guest_programs() {
    if !require_tool("mips-linux-gnu-gprof") {
        return;
    }
    let dir = Scratch::new("cg-gprof-cases");
    for case in CASES {
        let gmon = dir.file(&format!("{}.gmon", case.program));
        prof(&[], &gmon, case.program, &[]);
        let mut cmd = Command::new("mips-linux-gnu-gprof");
        cmd.args(["-q", "-b", &guest(case.program), &gmon])
            .current_dir(repo());
        let g = run_command(cmd);
        assert_eq!(g.status.shell(), 0, "{}: {}", case.program, g.stderr);
        // gprof shows a recursive function's calls to itself apart
        // ("19+44101"), but lists the arc under the function all the same.
        let got = arcs_among(&graph_arcs(&g.stdout_text()), case.functions);
        assert_eq!(got, expect(case.arcs), "{}", case.program);
    }
}

#[test]
fn after_longjmp_and_signals_the_real_stack_has_no_frame_left_over() {
    let dir = Scratch::new("cg-stacks");
    let gmon = dir.file("lj.gmon");
    prof(&[], &gmon, "cg_longjmp", &[]);
    let stacks = folded("cg_longjmp", &gmon);
    let after: Vec<&String> = stacks.keys().filter(|s| s.contains("after")).collect();
    assert!(!after.is_empty(), "samples in after: {stacks:?}");
    for s in after {
        assert_eq!(s, "__start;main;run;after;spin");
    }

    let gmon = dir.file("sig.gmon");
    prof(&[], &gmon, "cg_signal", &[]);
    let stacks = folded("cg_signal", &gmon);
    for (s, _) in stacks.iter().filter(|(s, _)| s.contains("later")) {
        assert_eq!(s, "__start;main;later;spin");
    }
    let in_handler: Vec<&String> = stacks.keys().filter(|s| s.contains("work")).collect();
    assert!(!in_handler.is_empty(), "samples in the handler: {stacks:?}");
    for s in in_handler {
        assert_eq!(s, "__start;main;trigger;kill;__sigtramp;on_usr1;work;spin");
    }
}

#[test]
fn forked_children_and_sproc_members_keep_stacks_of_their_own() {
    // Parent and child (or member) take turns inside the same functions;
    // each one's samples sit on its own real stack, and neither's returns
    // pop the other's frames: after the child has returned from run, the
    // parent is still in it, and the parent's tail is sampled on main
    // alone. The member's stack starts at its entry point.
    let dir = Scratch::new("cg-threads");
    for (program, want, three, two) in [
        (
            "cg_fork",
            &[
                "__start;main;child_tail;spin",
                "__start;main;parent_tail;spin",
                "__start;main;run;child_work;leaf;spin",
                "__start;main;run;parent_work;leaf;spin",
                "__start;main;run;spin",
            ][..],
            "__start;main;run;child_work;leaf;spin",
            "__start;main;run;parent_work;leaf;spin",
        ),
        (
            "cg_sproc",
            &[
                "__start;main;parent_tail;spin",
                "__start;main;parent_work;leaf;spin",
                "member;member_work;leaf;spin",
            ][..],
            "member;member_work;leaf;spin",
            "__start;main;parent_work;leaf;spin",
        ),
    ] {
        let gmon = dir.file(&format!("{program}.gmon"));
        let out = prof(&["--exact"], &gmon, program, &[]);
        assert_eq!(out.status.shell(), 0, "{program}: {}", out.stderr);
        let stacks = folded(program, &gmon);
        let got: Vec<&str> = stacks.keys().map(String::as_str).collect();
        assert_eq!(got, want, "{program}: {stacks:?}");
        // Three leaves on one side, two on the other: samples in that
        // proportion, so both processes were sampled, each on its own
        // user-time grid.
        assert!(stacks[two] > 0, "{program}: {stacks:?}");
        assert_eq!(2 * stacks[three], 3 * stacks[two], "{program}: {stacks:?}");
        // Exact costs: what both processes retired, each cycle once. The
        // child's copy of main's frame charges only what the child ran
        // after the fork (not the parent's spin before it again), so
        // main's inclusive cycles stay within the total.
        let p = read_sidecar(std::path::Path::new(&gmon))
            .expect("sidecar")
            .expect("present");
        let total: u64 = p.exact.iter().map(|c| c.cycles).sum();
        let main = inclusive_cycles(&p, program, "__start", "main");
        assert!(main > 0 && main <= total, "{program}: {main} of {total}");
        let (work3, work2) = match program {
            "cg_fork" => ("child_work", "parent_work"),
            _ => ("member_work", "parent_work"),
        };
        let leaves = |work| inclusive_cycles(&p, program, work, "leaf");
        assert_eq!(
            2 * leaves(work3) / 3,
            leaves(work2),
            "{program}: three leaves, two leaves"
        );
    }
}

/// The inclusive cycles of the arcs from `caller` to `callee` in the sidecar.
fn inclusive_cycles(p: &CallProfile, program: &str, caller: &str, callee: &str) -> u64 {
    let exe = std::fs::read(repo().join(guest(program))).expect("program");
    let exe = loader::load(program, &exe, &Default::default()).expect("loads");
    let syms = irix_emu::program::functions_of(&exe);
    let f = profile_formats::report::stacks::Functions::new(&syms, u64::MAX);
    p.arcs
        .iter()
        .filter(|a| f.name(f.of(a.site)) == caller && f.name(f.of(a.callee)) == callee)
        .map(|a| a.cycles)
        .sum()
}

#[test]
fn a_program_that_never_returns_still_gives_a_consistent_graph() {
    // exit from three calls deep, and death by SIGSEGV three calls deep:
    // every sample is on the one deep stack, and each caller's inclusive
    // cycles include its callee's.
    let dir = Scratch::new("cg-noreturn");
    for (program, chain) in [
        (
            "cg_exit_deep",
            ["main", "level1", "level2", "level3", "spin"],
        ),
        ("cg_killed", ["main", "outer", "middle", "inner", "spin"]),
    ] {
        let gmon = dir.file(&format!("{program}.gmon"));
        prof(&["--exact"], &gmon, program, &[]);
        let stacks = folded(program, &gmon);
        let deep = format!("__start;{}", chain.join(";"));
        let total: u64 = stacks.values().sum();
        assert!(total > 0);
        assert!(
            stacks.get(&deep).copied().unwrap_or(0) * 10 >= total * 9,
            "{program}: {stacks:?}"
        );
        let p = read_sidecar(std::path::Path::new(&gmon))
            .expect("sidecar")
            .expect("present");
        let costs: Vec<u64> = chain
            .windows(2)
            .map(|w| inclusive_cycles(&p, program, w[0], w[1]))
            .collect();
        assert!(costs.iter().all(|&c| c > 0), "{program}: {costs:?}");
        assert!(
            costs.windows(2).all(|w| w[0] >= w[1]),
            "{program}: {costs:?}"
        );
    }
}

#[test]
fn gprof_q_shows_the_workload_arcs_known_from_its_source() {
    if !require_tool("mips-linux-gnu-gprof") {
        return;
    }
    let dir = Scratch::new("cg-gprof");
    let gmon = dir.file("gmon.out");
    let out = prof(&[], &gmon, "workload", &["1"]);
    assert_eq!(out.status.shell(), 0, "{}", out.stderr);
    let mut cmd = Command::new("mips-linux-gnu-gprof");
    cmd.args(["-q", "-b", &guest("workload"), &gmon])
        .current_dir(repo());
    let g = run_command(cmd);
    assert_eq!(g.status.shell(), 0, "{}", g.stderr);
    let arcs = graph_arcs(&g.stdout_text());
    // workload.c, one round: main calls each kernel once, and the table
    // builder once; seven mallocs; five result lines plus the banner.
    for (caller, callee, n) in [
        ("__start", "main", 1),
        ("main", "sieve", 1),
        ("main", "crc32", 1),
        ("main", "crc32_table", 1),
        ("main", "quick_sort", 1),
        ("main", "matrix_multiply", 1),
        ("main", "series_pi", 1),
        ("main", "series_zeta2", 1),
        ("main", "malloc", 7),
        ("main", "printf", 6),
    ] {
        assert_eq!(
            arcs.get(&(caller.to_string(), callee.to_string())),
            Some(&n),
            "{caller} -> {callee} in\n{}",
            g.stdout_text()
        );
    }
    // And irix-emu's own graph has the same counts for every arc.
    let ours = graph_arcs(&report_text("workload", &gmon));
    assert_eq!(ours, arcs);
}

/// callgrind_annotate's per-function totals: "file:function" -> the
/// counts of each event, in the file's event order.
fn callgrind_totals(file: &str) -> BTreeMap<String, Vec<u64>> {
    let mut cmd = Command::new("callgrind_annotate");
    cmd.args(["--threshold=100", "--auto=no", file]);
    let out = run_command(cmd);
    assert_eq!(out.status.shell(), 0, "{}", out.stderr);
    let text = out.stdout_text();
    let mut totals = BTreeMap::new();
    for line in text.lines() {
        // "2,795,193 (23.27%)  3,997,928 (12.10%)  ???:sieve [prog]"
        let Some(open) = line.rfind(" [") else {
            continue;
        };
        let head = &line[..open];
        let Some(name_at) = head.rfind("  ") else {
            continue;
        };
        let name = head[name_at..].trim();
        let Some((_, func)) = name.split_once(':') else {
            continue;
        };
        let counts: Vec<u64> = head[..name_at]
            .split_whitespace()
            .filter(|t| !t.starts_with('('))
            .filter_map(|t| t.replace(',', "").parse().ok())
            .collect();
        if !counts.is_empty() {
            totals.insert(func.to_string(), counts);
        }
    }
    totals
}

/// The flat profile's samples per function, from `report --format json`.
fn flat_samples(program: &str, gmon: &str) -> BTreeMap<String, u64> {
    flat_samples_of(&guest(program), gmon)
}

/// [`flat_samples`] of the program at `path`.
fn flat_samples_of(path: &str, gmon: &str) -> BTreeMap<String, u64> {
    let out = emu(&["report", "--format", "text", path, gmon]);
    assert_eq!(out.status.shell(), 0, "{}", out.stderr);
    let text = out.stdout_text();
    let flat = text.split("Call graph").next().unwrap_or("");
    flat.lines()
        .filter_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            (t.len() == 5 && t[0].parse::<f64>().is_ok())
                .then(|| (t[4].to_string(), t[3].parse().expect("samples")))
        })
        .collect()
}

#[test]
fn callgrind_annotate_reads_our_callgrind_files_and_its_totals_equal_ours() {
    if !require_tool("callgrind_annotate") {
        return;
    }
    let dir = Scratch::new("cg-callgrind");
    // --exact: instructions and cycles per function.
    let gmon = dir.file("gmon.out");
    let cg = dir.file("callgrind.out");
    let out = prof(
        &["--exact", "--format", "callgrind", "--report", &cg],
        &gmon,
        "workload",
        &["1"],
    );
    assert_eq!(out.status.shell(), 0, "{}", out.stderr);
    let totals = callgrind_totals(&cg);
    // Ours: prof --exact's comparison table ("... samples cycles name").
    let table = emu(&[
        "prof",
        "--exact",
        "-o",
        &dir.file("g2"),
        &guest("workload"),
        "1",
    ]);
    let ours: BTreeMap<String, u64> = table
        .stderr
        .split("Sampled and exact profiles")
        .nth(1)
        .expect("exact table")
        .lines()
        .filter_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            (t.len() == 6 && t[4].parse::<u64>().is_ok())
                .then(|| (t[5].to_string(), t[4].parse().expect("cycles")))
        })
        .filter(|(_, c)| *c > 0)
        .collect();
    let theirs: BTreeMap<String, u64> = totals.iter().map(|(f, c)| (f.clone(), c[1])).collect();
    assert_eq!(theirs, ours);

    // Sampled: the samples per function of the flat profile.
    let cg = dir.file("sampled.out");
    prof(
        &["--format", "callgrind", "--report", &cg],
        &gmon,
        "workload",
        &["1"],
    );
    let theirs: BTreeMap<String, u64> = callgrind_totals(&cg)
        .into_iter()
        .map(|(f, c)| (f, c[0]))
        .collect();
    assert_eq!(theirs, flat_samples("workload", &gmon));
}

#[test]
fn go_tool_pprof_reads_our_pprof_file_and_its_flat_totals_equal_ours() {
    if !require_tool("go") {
        return;
    }
    let dir = Scratch::new("cg-pprof");
    let gmon = dir.file("gmon.out");
    let pb = dir.file("profile.pb.gz");
    let out = prof(
        &["--format", "pprof", "--report", &pb],
        &gmon,
        "workload",
        &["1"],
    );
    assert_eq!(out.status.shell(), 0, "{}", out.stderr);
    let mut cmd = Command::new("go");
    cmd.args([
        "tool",
        "pprof",
        "-top",
        "-nodecount=10000",
        "-sample_index=samples",
        "-symbolize=none",
        &pb,
    ])
    .env("GOCACHE", dir.file("gocache"))
    .env("HOME", dir.path());
    let g = run_command(cmd);
    assert_eq!(g.status.shell(), 0, "{}", g.stderr);
    // "        76 31.93% 31.93%         76 31.93%  sieve"
    let theirs: BTreeMap<String, u64> = g
        .stdout_text()
        .lines()
        .filter_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            (t.len() == 6 && t[1].ends_with('%') && t[0].parse::<u64>().is_ok())
                .then(|| (t[5].to_string(), t[0].parse().expect("flat")))
        })
        .filter(|(_, n)| *n > 0)
        .collect();
    assert_eq!(theirs, flat_samples("workload", &gmon));
}

/// A program whose hot loop is a function of its own (lines 3 to 8), for
/// `go tool pprof -list`.
const LISTED_SOURCE: &str = "static volatile int sink;

static __attribute__((noinline)) void spin(int n)
{
\tint i;
\tfor (i = 0; i < n; i++)
\t\tsink += i;
}

int main(void)
{
\tspin(3000000);
\treturn 0;
}
";

/// `go tool pprof ARGS PROFILE`, with Go's caches in `dir`.
fn go_pprof(dir: &Scratch, args: &[&str]) -> String {
    let mut cmd = Command::new("go");
    cmd.args(["tool", "pprof", "-symbolize=none"])
        .args(args)
        .env("GOCACHE", dir.file("gocache"))
        .env("HOME", dir.path());
    let g = run_command(cmd);
    assert_eq!(g.status.shell(), 0, "{}", g.stderr);
    g.stdout_text()
}

/// The (line number, flat samples) rows of a `go tool pprof -list` listing:
/// "        20         20      7:\t\tsink += i;".
fn listed_lines(listing: &str) -> BTreeMap<u32, u64> {
    listing
        .lines()
        .filter_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            let line = t.get(2)?.strip_suffix(':')?.parse().ok()?;
            let flat = match *t.first()? {
                "." => 0,
                n => n.parse().ok()?,
            };
            Some((line, flat))
        })
        .collect()
}

#[test]
fn go_tool_pprof_list_shows_the_source_lines_of_a_guest_built_with_g() {
    if !require_tool("go") || !require_tool("mips-linux-gnu-gcc") {
        return;
    }
    let dir = Scratch::new("cg-pprof-list");
    let src = dir.file("listed.c");
    let prog = dir.file("listed");
    std::fs::write(&src, LISTED_SOURCE).expect("write source");
    let built = run_command({
        let mut c = Command::new(repo().join("guest/build.sh"));
        c.args(["--program", &src, &prog]);
        c
    });
    assert_eq!(built.status.shell(), 0, "{}", built.stderr);
    let gmon = dir.file("gmon.out");
    let pb = dir.file("profile.pb.gz");
    let out = emu(&[
        "prof",
        "--callgraph",
        "--format",
        "pprof",
        "--report",
        &pb,
        "-o",
        &gmon,
        &prog,
    ]);
    assert_eq!(out.status.shell(), 0, "{}", out.stderr);
    let ours = flat_samples_of(&prog, &gmon);
    let spin = ours["spin"];
    assert!(spin > 0, "{ours:?}");

    // The listing is of the source file, and spin's samples stand on its
    // lines, all of them.
    let listing = go_pprof(&dir, &["-list", "^spin$", &pb]);
    assert!(
        listing.contains(&format!("ROUTINE ======================== spin in {src}")),
        "{listing}"
    );
    assert!(listing.contains("sink += i;"), "{listing}");
    let rows = listed_lines(&listing);
    assert_eq!(rows.values().sum::<u64>(), spin, "{listing}");
    let sampled: Vec<u32> = rows
        .iter()
        .filter(|(_, &n)| n > 0)
        .map(|(&l, _)| l)
        .collect();
    assert!(
        !sampled.is_empty() && sampled.iter().all(|l| (3..=8).contains(l)),
        "samples outside spin's lines: {listing}"
    );
}

/// The samples and leaf function names of each thread of a Firefox
/// Profiler profile, by pid, read through its stack, frame and function
/// tables as the profiler does.
fn firefox_threads(json: &serde_json::Value) -> BTreeMap<String, (u64, Vec<String>)> {
    json["threads"]
        .as_array()
        .expect("threads")
        .iter()
        .map(|t| {
            let samples = &t["samples"];
            let n = samples["length"].as_u64().expect("length");
            let leaves = samples["stack"]
                .as_array()
                .expect("stack column")
                .iter()
                .map(|s| {
                    let s = s.as_u64().expect("stack") as usize;
                    let frame = t["stackTable"]["frame"][s].as_u64().expect("frame") as usize;
                    let func = t["frameTable"]["func"][frame].as_u64().expect("func") as usize;
                    let name = t["funcTable"]["name"][func].as_u64().expect("name") as usize;
                    t["stringArray"][name].as_str().expect("string").to_string()
                })
                .collect();
            (t["pid"].as_str().expect("pid").to_string(), (n, leaves))
        })
        .collect()
}

#[test]
fn firefox_profile_has_a_thread_per_process_whose_samples_sum_to_the_flat_profile() {
    for (program, processes) in [("cg_fork", 2), ("cg_sproc", 2)] {
        let dir = Scratch::new("cg-firefox");
        let gmon = dir.file("gmon.out");
        let json = dir.file("profile.json");
        let out = prof(
            &["--format", "firefox", "--report", &json],
            &gmon,
            program,
            &[],
        );
        assert_eq!(out.status.shell(), 0, "{}", out.stderr);
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).expect("read")).expect("JSON");
        // 1 ms between samples (--fast), in the profile's milliseconds.
        assert_eq!(v["meta"]["interval"], serde_json::Value::from(1.0));
        let threads = firefox_threads(&v);
        assert_eq!(threads.len(), processes, "{program}: {threads:?}");
        let total: u64 = threads.values().map(|(n, _)| n).sum();
        let flat = flat_samples(program, &gmon);
        assert_eq!(total, flat.values().sum::<u64>(), "{program}");
        // Per function, the leaves of all threads are the flat profile.
        let mut leaves: BTreeMap<String, u64> = BTreeMap::new();
        for (_, names) in threads.values() {
            for n in names {
                *leaves.entry(n.clone()).or_insert(0) += 1;
            }
        }
        assert_eq!(leaves, flat, "{program}");
        // Every thread's samples are in time order, one interval apart at least.
        for t in v["threads"].as_array().expect("threads") {
            let deltas = t["samples"]["timeDeltas"].as_array().expect("deltas");
            assert!(
                deltas
                    .iter()
                    .skip(1)
                    .all(|d| d.as_f64().expect("delta") >= 1.0),
                "{program}"
            );
        }
    }
}

#[test]
fn report_refuses_firefox_without_a_timeline() {
    let dir = Scratch::new("cg-firefox-report");
    let gmon = dir.file("gmon.out");
    prof(&[], &gmon, "cg_fork", &[]);
    let out = emu(&["report", "--format", "firefox", &guest("cg_fork"), &gmon]);
    assert_eq!(out.status.shell(), i32::from(exit::EMULATOR_FAILURE));
    assert!(
        out.stderr.contains("prof --format firefox"),
        "{}",
        out.stderr
    );
}

#[test]
fn report_reads_the_sidecar_and_without_it_still_has_the_arc_counts() {
    let dir = Scratch::new("cg-report");
    let gmon = dir.file("gmon.out");
    let out = prof(&[], &gmon, "cg_recursion", &[]);
    let ours = report_text("cg_recursion", &gmon);
    // prof printed the same flat profile and graph on stderr.
    assert!(out.stderr.contains(&ours), "{}\n---\n{ours}", out.stderr);
    assert!(ours.contains("Call graph"));
    let with = graph_arcs(&ours);
    std::fs::remove_file(sidecar_path(std::path::Path::new(&gmon))).expect("rm sidecar");
    let without = report_text("cg_recursion", &gmon);
    assert_eq!(graph_arcs(&without), with);

    // A profile without call tracking removes a stale sidecar.
    prof(&[], &gmon, "cg_recursion", &[]);
    let plain = emu(&["prof", "-o", &gmon, &guest("cg_recursion")]);
    assert_eq!(plain.status.shell(), 0, "{}", plain.stderr);
    assert!(!sidecar_path(std::path::Path::new(&gmon)).exists());
}

#[test]
fn folded_speedscope_and_svg_show_the_real_stacks() {
    let dir = Scratch::new("cg-formats");
    let gmon = dir.file("gmon.out");
    let svg = dir.file("flame.svg");
    prof(&["--svg", &svg], &gmon, "cg_recursion", &[]);
    let stacks = folded("cg_recursion", &gmon);
    let total: u64 = stacks.values().sum();
    assert!(
        stacks.keys().all(|s| s.starts_with("__start;main")),
        "{stacks:?}"
    );
    assert!(
        stacks.keys().any(|s| s.matches("fib").count() >= 5),
        "{stacks:?}"
    );

    let doc = std::fs::read_to_string(&svg).expect("svg");
    roxmltree::Document::parse(&doc).expect("well-formed SVG");
    assert!(doc.contains("<title>fib ("), "flame graph frames");

    let out = emu(&[
        "report",
        "--format",
        "speedscope",
        &guest("cg_recursion"),
        &gmon,
    ]);
    assert_eq!(out.status.shell(), 0, "{}", out.stderr);
    let json = out.stdout_text();
    assert!(json_is_valid(&json), "{json}");
    // Weights are nanoseconds at the 1 kHz clock: 10^6 per sample.
    let weights = json.split("\"weights\": [").nth(1).expect("weights");
    let sum: u64 = weights
        .split(']')
        .next()
        .unwrap_or("")
        .split(',')
        .map(|w| w.trim().parse::<u64>().expect("weight"))
        .sum();
    assert_eq!(sum, total * 1_000_000);
}

#[test]
fn pprof_without_a_report_file_and_a_foreign_sidecar_are_refused() {
    let dir = Scratch::new("cg-refuse");
    let gmon = dir.file("gmon.out");
    // Binary output on the terminal is refused before the guest runs.
    let out = emu(&["prof", "--format", "pprof", "-o", &gmon, &guest("cg_fnptr")]);
    assert_eq!(out.status.shell(), i32::from(exit::EMULATOR_FAILURE));
    assert_eq!(out.stdout_text(), "", "the guest did not run");
    assert!(out.stderr.contains("--report FILE"), "{}", out.stderr);
    assert!(!std::path::Path::new(&gmon).exists());

    // A sidecar from another run does not describe this histogram.
    let other = dir.file("other.out");
    prof(&[], &gmon, "cg_fnptr", &[]);
    prof(&[], &other, "cg_recursion", &[]);
    std::fs::copy(
        sidecar_path(std::path::Path::new(&other)),
        sidecar_path(std::path::Path::new(&gmon)),
    )
    .expect("copy");
    let out = emu(&["report", &guest("cg_fnptr"), &gmon]);
    assert_eq!(
        out.status.shell(),
        i32::from(exit::EMULATOR_FAILURE),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("does not belong to"), "{}", out.stderr);
}

#[test]
fn exec_ends_the_call_graph_with_the_first_program() {
    // The outside profile ends at exec; the graph is the first program's,
    // its last arc the call of execve, and the report reads it.
    let dir = Scratch::new("cg-exec");
    let gmon = dir.file("gmon.out");
    let out = prof(&[], &gmon, "proc_exec", &[]);
    assert_eq!(out.status.shell(), 0, "{}", out.stderr);
    assert!(
        out.stdout_text().ends_with("hello, world\n"),
        "{}",
        out.stdout_text()
    );
    let arcs = graph_arcs(&report_text("proc_exec", &gmon));
    assert_eq!(
        arcs.get(&("main".to_string(), "execve".to_string())),
        Some(&1),
        "{arcs:?}"
    );
}
