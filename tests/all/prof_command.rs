//! `irix-emu prof` and `irix-emu report` on real guest programs (the
//! outside profiler).
//!
//! Contents:
//! 1. prof: the guest's stdout passes through untouched; gmon.out parses
//!    with profile_formats::gmon and its samples sum to the guest's user ticks
//!    (also when the guest dies by a signal or hits --max-cycles); GNU gprof
//!    reads it and agrees; two runs write the same bytes; --fast; --granularity;
//!    an unwritable -o.
//! 2. prof --exact on exact_loops: each function's cycles, worked out by hand.
//! 3. report: text (= prof's own flat profile), folded, json, --annotate,
//!    --svg; bad profiles are refused with status 125 and one line.
//!
//! Workload runs use `workload 2` (2 rounds, about 20 M instructions) to keep
//! the suite quick.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use common::{
    emu, exit, exited, guest, json_is_valid, lines_with, require_tool, run_command, user_cycles,
    Run, Scratch, Status, KILLED_BY_SIGSEGV, USER_CYCLES_PER_TICK,
};
use profile_formats::gmon::{read_gmon, GmonFile};

/// `irix-emu prof --stats OPTIONS -o OUT PROGRAM ARGS` from the repository root.
fn prof(options: &[&str], out: &str, program: &str, args: &[&str]) -> Run {
    let path = guest(program);
    let mut all = vec!["prof", "--stats"];
    all.extend(options);
    all.extend(["-o", out, &path]);
    all.extend(args);
    emu(&all)
}

fn gmon(path: &str) -> GmonFile {
    read_gmon(Path::new(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn total(g: &GmonFile) -> u64 {
    g.histograms.iter().map(|h| h.total()).sum()
}

/// The flat profile prof prints on stderr: everything before its summary
/// line "irix-emu: N samples at ...".
/// prof's flat profile: what lies between its header line (the seconds
/// are virtual) and its summary line.
fn flat_part(stderr: &str) -> String {
    let start = stderr.find("Flat profile:\n").unwrap_or(0);
    let end = start
        + stderr[start..]
            .find("irix-emu: ")
            .unwrap_or_else(|| panic!("no summary line in:\n{stderr}"));
    stderr[start..end].to_string()
}

#[test]
fn prof_passes_the_guest_output_through_untouched() {
    // docs/usage.md: "The guest's own stdout and stderr pass through
    // untouched; the flat profile goes to stderr."
    let dir = Scratch::new("prof-stdout");
    let out = dir.file("gmon.out");
    let plain = emu(&["run", &guest("workload"), "2"]);
    let profiled = prof(&[], &out, "workload", &["2"]);
    assert_eq!(plain.status, Status::Code(0));
    assert_eq!(
        profiled.status,
        Status::Code(0),
        "stderr: {}",
        profiled.stderr
    );
    assert_eq!(profiled.stdout, plain.stdout);
    // One line on the clock, then the flat profile.
    assert_eq!(
        flat_part(&profiled.stderr).lines().next(),
        Some("Flat profile:"),
        "{}",
        profiled.stderr
    );
    assert!(profiled
        .stderr
        .starts_with("irix-emu: the seconds below are virtual time: "));
    assert_eq!(
        lines_with(&profiled.stderr, "irix-emu: 44 samples"),
        [format!(
            "irix-emu: 44 samples at 100 Hz (0 outside the text) written to {out}"
        )]
    );
}

/// (case, prof options, program, its arguments, status, cycles per sample)
type Case<'a> = (&'a str, &'a [&'a str], &'a str, &'a [&'a str], i32, u64);

#[test]
fn the_flat_profile_samples_sum_to_the_guest_user_ticks() {
    // A sample is a tick of the process's user time (README "The clock
    // tick": tick k is due when its user cycles reach k x (cpu_hz / HZ)), so
    // the gmon.out total is user cycles / 1,000,000 at 100 MHz and 100 Hz,
    // or / 100,000 with --fast (1000 Hz) -- however the run ends: prof writes
    // the profile after a fatal signal and at --max-cycles too.
    let cases: [Case; 5] = [
        (
            "normal exit",
            &[],
            "workload",
            &["2"],
            0,
            USER_CYCLES_PER_TICK,
        ),
        (
            "PROF_FAST rate",
            &["--fast"],
            "workload",
            &["2"],
            0,
            100_000,
        ),
        (
            "16-byte bins",
            &["--granularity", "16"],
            "workload",
            &["2"],
            0,
            USER_CYCLES_PER_TICK,
        ),
        (
            "killed by SIGSEGV",
            &[],
            "fault_segv",
            &[],
            KILLED_BY_SIGSEGV,
            USER_CYCLES_PER_TICK,
        ),
        (
            "--max-cycles",
            &["--max-cycles", "5000000"],
            "workload",
            &["2"],
            exit::CYCLE_LIMIT.into(),
            USER_CYCLES_PER_TICK,
        ),
    ];
    for (case, options, program, args, status, per_sample) in cases {
        let dir = Scratch::new("prof-sum");
        let out = dir.file("gmon.out");
        let r = prof(options, &out, program, args);
        assert_eq!(r.status.shell(), status, "{case}: stderr {}", r.stderr);
        let g = gmon(&out);
        assert_eq!(
            total(&g),
            user_cycles(&r.stderr) / per_sample,
            "{case}: samples vs user cycles"
        );
    }
}

/// gprof's flat profile rows as name -> samples (self seconds x rate).
fn gprof_samples(stdout: &str, rate_hz: f64) -> BTreeMap<String, u64> {
    let mut m = BTreeMap::new();
    for line in stdout.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        // % time, cumulative seconds, self seconds, [calls ...], name
        if w.len() < 4 || w[0].parse::<f64>().is_err() || w[2].parse::<f64>().is_err() {
            continue;
        }
        let self_seconds: f64 = w[2].parse().expect("self seconds");
        let name = w[w.len() - 1].to_string();
        m.insert(name, (self_seconds * rate_hz).round() as u64);
    }
    m
}

/// `report --format folded` as name -> samples ("PROGRAM;name N" lines).
fn folded_samples(stdout: &str) -> BTreeMap<String, u64> {
    stdout
        .lines()
        .map(|l| {
            let (stack, n) = l.rsplit_once(' ').expect("folded line");
            let name = stack.rsplit(';').next().expect("frame");
            (name.to_string(), n.parse().expect("count"))
        })
        .collect()
}

#[test]
fn gnu_gprof_reads_the_gmon_out_and_agrees_on_every_function() {
    // README: "The gmon.out is the GNU format (big-endian, 4-byte addresses)
    // that `mips-linux-gnu-gprof -b -p PROGRAM gmon.out` reads too."
    if !require_tool("mips-linux-gnu-gprof") {
        return;
    }
    let dir = Scratch::new("prof-gprof");
    let out = dir.file("gmon.out");
    let program = guest("workload");
    assert_eq!(prof(&[], &out, "workload", &["2"]).status, Status::Code(0));
    let mut cmd = Command::new("mips-linux-gnu-gprof");
    cmd.args(["-b", "-p", &program, &out])
        .current_dir(common::repo());
    let g = run_command(cmd);
    assert_eq!(g.status, Status::Code(0), "gprof: {}", g.stderr);
    let theirs = gprof_samples(&g.stdout_text(), 100.0);
    let ours =
        folded_samples(&emu(&["report", "--format", "folded", &program, &out]).stdout_text());
    assert_eq!(theirs, ours);
    assert_eq!(theirs.values().sum::<u64>(), total(&gmon(&out)));
    // The same top functions, in gprof's order (ties broken by name there).
    let mut top: Vec<(&String, &u64)> = ours.iter().collect();
    top.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    assert_eq!(
        top.iter().take(3).map(|t| t.0.as_str()).collect::<Vec<_>>(),
        ["series_pi", "series_zeta2", "sieve"]
    );
}

#[test]
fn two_prof_runs_write_byte_identical_gmon_out_files() {
    let dir = Scratch::new("prof-twice");
    let (a, b) = (dir.file("a.out"), dir.file("b.out"));
    assert_eq!(prof(&[], &a, "workload", &["2"]).status, Status::Code(0));
    assert_eq!(prof(&[], &b, "workload", &["2"]).status, Status::Code(0));
    let (a, b) = (std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
    assert!(!a.is_empty());
    assert_eq!(a, b);
}

#[test]
fn fast_samples_every_millisecond_about_ten_times_as_often() {
    // --fast = PROF_FAST: "forcing the system to take samples once every
    // millisecond" (irix sprofil(2)): n ticks of 10 ms hold 10n to 10n + 9
    // ticks of 1 ms; the histogram's rate says 1000 Hz.
    let dir = Scratch::new("prof-fast");
    let (slow, fast) = (dir.file("slow.out"), dir.file("fast.out"));
    assert_eq!(prof(&[], &slow, "workload", &["2"]).status, Status::Code(0));
    assert_eq!(
        prof(&["--fast"], &fast, "workload", &["2"]).status,
        Status::Code(0)
    );
    let (s, f) = (gmon(&slow), gmon(&fast));
    assert_eq!(s.histograms[0].rate_hz, 100);
    assert_eq!(f.histograms[0].rate_hz, 1000);
    let n = total(&s);
    assert!(
        (10 * n..10 * n + 10).contains(&total(&f)),
        "{n} slow samples, {} fast",
        total(&f)
    );
}

#[test]
fn granularity_16_gives_bins_of_16_bytes_holding_the_same_samples() {
    // --granularity BYTES: "bytes of text per histogram bin, default 4". The
    // ticks fall on the same PCs either way, so each 16-byte bin holds the
    // sum of the four 4-byte bins it covers.
    let dir = Scratch::new("prof-gran");
    let (fine, coarse) = (dir.file("4.out"), dir.file("16.out"));
    assert_eq!(prof(&[], &fine, "workload", &["2"]).status, Status::Code(0));
    assert_eq!(
        prof(&["--granularity", "16"], &coarse, "workload", &["2"]).status,
        Status::Code(0)
    );
    let (f, c) = (gmon(&fine), gmon(&coarse));
    assert_eq!(f.histograms.len(), c.histograms.len());
    for (hf, hc) in f.histograms.iter().zip(&c.histograms) {
        assert_eq!(hf.span() / hf.bins.len() as u64, 4);
        assert_eq!(hc.span() / hc.bins.len() as u64, 16);
        assert_eq!(hc.low_pc, hf.low_pc);
        let regrouped: Vec<u64> = hf.bins.chunks(4).map(|c| c.iter().sum()).collect();
        assert_eq!(hc.bins, regrouped);
    }
    assert_eq!(total(&c), total(&f));
}

#[test]
fn output_into_a_missing_directory_fails_with_125_and_leaves_no_file() {
    let dir = Scratch::new("prof-nodir");
    let out = dir.file("missing/gmon.out");
    let r = prof(&[], &out, "hello", &[]);
    assert_eq!(
        r.status,
        exited(exit::EMULATOR_FAILURE),
        "stderr: {}",
        r.stderr
    );
    // The directory is checked before the guest runs: no run is wasted
    // on a profile that cannot be written.
    assert_eq!(r.stdout_text(), "");
    let errors = lines_with(&r.stderr, "irix-emu: ");
    assert_eq!(errors.len(), 1, "{}", r.stderr);
    assert!(
        errors[0].starts_with(&format!("irix-emu: {out}: cannot write")),
        "{}",
        errors[0]
    );
    assert!(!r.stderr.contains("panicked"));
    assert_eq!(
        dir.names(),
        Vec::<String>::new(),
        "nothing created, no temporary left"
    );
}

/// The --exact table's rows as name -> (samples, cycles):
/// " sampled %   exact %  difference     samples          cycles  name".
fn exact_rows(stderr: &str) -> BTreeMap<String, (u64, u64)> {
    let start = stderr
        .find(" sampled %   exact %")
        .unwrap_or_else(|| panic!("no exact table in:\n{stderr}"));
    stderr[start..]
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(w.len(), 6, "row {l:?}");
            (
                w[5].to_string(),
                (
                    w[3].parse().expect("samples"),
                    w[4].parse().expect("cycles"),
                ),
            )
        })
        .collect()
}

#[test]
fn exact_reports_the_cycles_the_timing_model_says_to_the_cycle() {
    // guest/src/exact_loops.S (noreorder: each line one instruction) under
    // crates/cpu-mips/src/timing.rs: 1 cycle per instruction, a taken branch
    // or jump +2 (BRANCH_BUBBLES, charged to the branch), a load's user one
    // instruction later stalls 1 (LOAD_LATENCY 3), HI/LO ready 10 cycles
    // after MULT. ALU results are bypassed (no stall).
    //
    // loop_1m: li = lui + ori (2); 1,000,000 trips of addiu, bnez, nop (3),
    //   the bnez taken 999,999 times (+2 each); jr (+2 taken) and its nop (2):
    //   2 + 3,000,000 + 1,999,998 + 4 = 5,000,004.
    // loop_2m: 2 + 6,000,000 + 3,999,998 + 4 = 10,000,004.
    // loop_mul: li, move (3); per trip mult, mflo (waits until mult + 10: 9
    //   stall cycles), addu, addiu, bnez, nop = 6 + 9 = 15, +2 when taken
    //   (499,999 times); jr, nop (4): 3 + 7,500,000 + 999,998 + 4 = 8,500,005.
    // nested: addiu (1); per outer trip addiu (1) + 1,000 inner trips x 3 +
    //   999 x 2 + addiu, bnez, nop (3) = 5,002, +2 when taken (999 times);
    //   jr, nop (4): 1 + 5,002,000 + 1,998 + 4 = 5,004,003.
    // main: 17 instructions (objdump), 6 taken jumps (5 jal + jr: +12), and
    //   `lw $ra` two instructions before `jr $ra` (+1 stall): 30.
    let dir = Scratch::new("prof-exact");
    let out = dir.file("gmon.out");
    let r = prof(&["--exact"], &out, "exact_loops", &[]);
    assert_eq!(r.status, Status::Code(0), "stderr: {}", r.stderr);
    assert_eq!(r.stdout_text(), "exact_loops: done\n");
    let rows = exact_rows(&r.stderr);
    for (name, cycles) in [
        ("loop_1m", 5_000_004u64),
        ("loop_2m", 10_000_004),
        ("loop_mul", 8_500_005),
        ("nested", 5_004_003),
        ("main", 30),
    ] {
        assert_eq!(rows.get(name).map(|r| r.1), Some(cycles), "{name}");
    }
    // Every retired user cycle is charged somewhere in the text, and the
    // sampled column is the gmon.out's.
    let cycles: u64 = rows.values().map(|r| r.1).sum();
    assert_eq!(cycles, user_cycles(&r.stderr));
    let samples: u64 = rows.values().map(|r| r.0).sum();
    assert_eq!(samples, total(&gmon(&out)));
    assert_eq!(samples, cycles / USER_CYCLES_PER_TICK);
    assert!(r
        .stderr
        .contains(&format!("; {samples} samples, {cycles} cycles.")));
}

#[test]
fn report_prints_the_profile_in_every_format() {
    let dir = Scratch::new("report-formats");
    let out = dir.file("gmon.out");
    let program = guest("workload");
    let p = prof(&[], &out, "workload", &["2"]);
    assert_eq!(p.status, Status::Code(0));
    let samples = total(&gmon(&out));

    // text: the same flat profile prof printed.
    let text = emu(&["report", &program, &out]);
    assert_eq!(text.status, Status::Code(0), "{}", text.stderr);
    assert_eq!(text.stdout_text(), flat_part(&p.stderr));

    // folded: one "PROGRAM;function N" line per function with samples.
    let folded = emu(&["report", "--format", "folded", &program, &out]);
    assert_eq!(folded.status, Status::Code(0));
    assert!(folded
        .stdout_text()
        .lines()
        .all(|l| l.starts_with(&format!("{program};"))));
    assert_eq!(
        folded_samples(&folded.stdout_text()).values().sum::<u64>(),
        samples
    );

    // json: valid, and its total is the gmon.out's.
    let json = emu(&["report", "--format", "json", &program, &out]);
    assert_eq!(json.status, Status::Code(0));
    assert!(
        json_is_valid(&json.stdout_text()),
        "not JSON:\n{}",
        json.stdout_text()
    );
    assert!(
        json.stdout_text()
            .contains(&format!("\"total_samples\": {samples},")),
        "{}",
        json.stdout_text()
    );

    // --annotate sieve: per-instruction samples summing to sieve's.
    let ann = emu(&["report", "--annotate", "sieve", &program, &out]);
    assert_eq!(ann.status, Status::Code(0), "{}", ann.stderr);
    let sieve = folded_samples(&folded.stdout_text())["sieve"];
    let head = format!("Annotation of sieve (0x00400188-0x0040026c): {sieve} samples");
    assert_eq!(
        lines_with(&ann.stdout_text(), "Annotation of "),
        [format!("{head}, 0.08 seconds")]
    );
    let per_insn: u64 = ann.stdout_text()[ann.stdout_text().find(&head).unwrap()..]
        .lines()
        .filter_map(|l| l.split_whitespace().next()?.parse::<u64>().ok())
        .sum();
    assert_eq!(per_insn, sieve);

    // --svg FILE: written, an SVG document.
    let svg = dir.file("profile.svg");
    let s = emu(&["report", "--svg", &svg, &program, &out]);
    assert_eq!(s.status, Status::Code(0), "{}", s.stderr);
    let body = std::fs::read_to_string(&svg).expect("svg written");
    assert!(body.starts_with("<svg"), "{}", &body[..body.len().min(80)]);
    assert!(body.trim_end().ends_with("</svg>"));
}

#[test]
fn report_refuses_bad_profiles_with_125_and_one_line() {
    let dir = Scratch::new("report-bad");
    let good = dir.file("gmon.out");
    assert_eq!(prof(&[], &good, "workload", &["2"]).status, Status::Code(0));
    let bytes = std::fs::read(&good).unwrap();
    let truncated = dir.file("truncated.out");
    std::fs::write(&truncated, &bytes[..100]).unwrap();
    let empty = dir.file("empty.out");
    std::fs::write(&empty, b"").unwrap();
    let workload = guest("workload");
    let hello = guest("hello");
    // (case, program, gmon, start of the message after "irix-emu: ")
    let cases = [
        (
            "truncated histogram",
            &workload,
            &truncated,
            format!("{truncated}: truncated"),
        ),
        (
            "empty file",
            &workload,
            &empty,
            format!("{empty}: truncated"),
        ),
        (
            "an ELF file as gmon.out",
            &workload,
            &workload,
            format!("{workload}: not a gmon.out file"),
        ),
        (
            "another program's gmon.out",
            &hello,
            &good,
            format!("{good}: histogram 0x400000-0x"),
        ),
    ];
    for (case, program, gmon, message) in cases {
        let r = emu(&["report", program, gmon]);
        assert_eq!(r.status, exited(exit::EMULATOR_FAILURE), "{case}");
        assert_eq!(r.stdout, b"", "{case}");
        let lines: Vec<&str> = r.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "{case}: {}", r.stderr);
        assert!(
            lines[0].starts_with(&format!("irix-emu: {message}")),
            "{case}: {}",
            lines[0]
        );
    }
    // The mismatch names both sides.
    let r = emu(&["report", &hello, &good]);
    assert!(
        r.stderr
            .contains(&format!("does not match {hello}'s text 0x400000-0x")),
        "{}",
        r.stderr
    );
}

#[test]
fn prof_never_charges_an_exec_d_image_to_the_first_program_s_functions() {
    // proc_exec runs hot_a for 8,500,000 cycles (8 ticks), then execs
    // workload (19 rounds, about 246 ticks). Whatever prof does at exec
    // (stop, as profil does: "Profiling is turned off when an exec(2) is
    // executed", or follow the new image), no sample may be credited to a
    // function of proc_exec that proc_exec never executes. Found: 246
    // samples, "main 104, unlink 24, open 22, memset 12, creat 10, sginap 9"
    // when reported against proc_exec (workload's PCs read through
    // proc_exec's symbols).
    let dir = Scratch::new("prof-exec");
    let out = dir.file("gmon.out");
    let r = prof(&[], &out, "proc_exec", &["guest/bin/irix/workload"]);
    assert_eq!(r.status, Status::Code(0), "stderr: {}", r.stderr);
    let folded = emu(&["report", "--format", "folded", &guest("proc_exec"), &out]);
    let charged = folded_samples(&folded.stdout_text());
    for never_called in ["unlink", "open", "creat", "sginap"] {
        assert_eq!(
            charged.get(never_called),
            None,
            "{never_called}: {charged:?}"
        );
    }
}
