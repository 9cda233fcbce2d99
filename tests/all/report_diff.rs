//! `irix-emu report --diff BASE PROGRAM FILE`: two builds of one program
//! that differ in one function, profiled exactly; the diff names only that
//! function (and its callers' inclusive samples) with the exact instruction
//! and cycle difference, which `--stats` confirms; a profile diffed against
//! itself is all zeros; `go tool pprof -diff_base` on the two pprof files
//! agrees, and reads our own pprof difference the same; profiles that
//! cannot compare (other rates, or a profile read with another build than
//! the one it was recorded from) are refused.

use crate::common;

use std::collections::BTreeMap;
use std::process::Command;

use common::{emu, exit, repo, require_tool, run_command, Scratch};

/// One build differs from the other in `changed`'s loop bound only.
const SOURCE: &str = "static volatile int sink;

static __attribute__((noinline)) void same(int n)
{
\tint i;
\tfor (i = 0; i < n; i++)
\t\tsink += i;
}

static __attribute__((noinline)) void changed(int n)
{
\tint i;
\tfor (i = 0; i < n * FACTOR; i++)
\t\tsink ^= i;
}

int main(void)
{
\tsame(300000);
\tchanged(200000);
\treturn 0;
}
";

/// Builds the program with FACTOR `factor` into `dir`, returns its path.
fn build(dir: &Scratch, factor: u32) -> String {
    let src = dir.file(&format!("v{factor}.c"));
    let prog = dir.file(&format!("v{factor}"));
    std::fs::write(&src, SOURCE.replace("FACTOR", &factor.to_string())).expect("write source");
    let mut c = Command::new(repo().join("guest/build.sh"));
    c.args(["--program", &src, &prog]);
    let built = run_command(c);
    assert_eq!(built.status.shell(), 0, "{}", built.stderr);
    prog
}

/// `prof --callgraph --exact` of `prog` into `gmon`.
fn profile(prog: &str, gmon: &str, extra: &[&str]) {
    let mut args = vec!["prof", "--callgraph", "--exact", "-o", gmon];
    args.extend(extra);
    args.push(prog);
    let out = emu(&args);
    assert_eq!(out.status.shell(), 0, "{}", out.stderr);
}

/// The value after "irix-emu: KEY" in `--stats` output.
fn stat(prog: &str, key: &str) -> i128 {
    let out = emu(&["run", "--stats", prog]);
    let line = out
        .stderr
        .lines()
        .find(|l| l.starts_with(&format!("irix-emu: {key} ")))
        .unwrap_or_else(|| panic!("no {key} in {}", out.stderr));
    line.split_whitespace()
        .nth(2)
        .expect("value")
        .parse()
        .expect("number")
}

/// The diff's rows: function -> the changes (samples, inclusive,
/// instructions, cycles); a blank column is 0.
fn rows(text: &str) -> BTreeMap<String, [i128; 4]> {
    text.lines()
        .skip_while(|l| !l.trim_end().ends_with("function"))
        .skip(1)
        .map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            let n = |i: usize| t[i].parse::<i128>().expect("number");
            let (name, changes) = match t.len() {
                7 => (t[6], [n(2), n(3), n(4), n(5)]),
                // The total has no inclusive column.
                6 => (t[5], [n(2), 0, n(3), n(4)]),
                _ => panic!("row {l:?}"),
            };
            (name.to_string(), changes)
        })
        .collect()
}

#[test]
fn a_diff_of_two_builds_names_only_the_changed_function_with_its_exact_cost() {
    if !require_tool("mips-linux-gnu-gcc") {
        return;
    }
    let dir = Scratch::new("diff");
    let (v1, v2) = (build(&dir, 1), build(&dir, 2));
    let (g1, g2) = (dir.file("g1.out"), dir.file("g2.out"));
    profile(&v1, &g1, &[]);
    profile(&v2, &g2, &[]);
    let out = emu(&["report", "--diff", &g1, "--base-program", &v1, &v2, &g2]);
    assert_eq!(out.status.shell(), 0, "{}", out.stderr);
    let rows = rows(&out.stdout_text());
    let instructions = stat(&v2, "instructions") - stat(&v1, "instructions");
    assert!(instructions > 0);
    let changed = rows["changed"];
    assert_eq!(changed[2], instructions, "{rows:?}");
    assert_eq!(rows["<total>"][2], instructions);
    assert!(changed[3] > 0 && changed[0] > 0, "{rows:?}");
    for (name, c) in &rows {
        match name.as_str() {
            "changed" | "<total>" => {}
            // Callers: more samples with them on the stack, nothing else.
            "main" | "__start" => assert_eq!([c[0], c[2], c[3]], [0, 0, 0], "{name}"),
            _ => assert_eq!(*c, [0; 4], "{name}: {rows:?}"),
        }
    }
    assert_eq!(rows["main"][1], changed[0]);
}

#[test]
fn a_profile_diffed_against_itself_is_all_zeros() {
    if !require_tool("mips-linux-gnu-gcc") {
        return;
    }
    let dir = Scratch::new("diff-self");
    let v1 = build(&dir, 1);
    let g1 = dir.file("g1.out");
    profile(&v1, &g1, &[]);
    let out = emu(&["report", "--diff", &g1, &v1, &g1]);
    assert_eq!(out.status.shell(), 0, "{}", out.stderr);
    let rows = rows(&out.stdout_text());
    assert!(rows.len() > 3, "{rows:?}");
    assert!(rows.values().all(|c| *c == [0; 4]), "{rows:?}");
    // The folded form carries both counts per stack, equal here.
    let folded = emu(&["report", "--diff", &g1, "--format", "folded", &v1, &g1]);
    let text = folded.stdout_text();
    assert!(text.contains(";main;same "), "{text}");
    for line in text.lines() {
        let t: Vec<&str> = line.rsplitn(3, ' ').collect();
        assert_eq!(t[0], t[1], "{line}");
    }
}

#[test]
fn profiles_at_different_rates_or_formats_without_a_diff_are_refused() {
    if !require_tool("mips-linux-gnu-gcc") {
        return;
    }
    let dir = Scratch::new("diff-refuse");
    let v1 = build(&dir, 1);
    let (slow, fast) = (dir.file("slow.out"), dir.file("fast.out"));
    profile(&v1, &slow, &[]);
    profile(&v1, &fast, &["--fast"]);
    let out = emu(&["report", "--diff", &slow, &v1, &fast]);
    assert_eq!(out.status.shell(), i32::from(exit::EMULATOR_FAILURE));
    assert_eq!(
        out.stderr,
        "irix-emu: report --diff: the profiles were sampled at different rates \
         (100 Hz and 1000 Hz): compare profiles taken with the same --fast setting\n"
    );
    let out = emu(&[
        "report",
        "--diff",
        &slow,
        "--format",
        "callgrind",
        &v1,
        &slow,
    ]);
    assert_eq!(out.status.shell(), i32::from(exit::EMULATOR_FAILURE));
    assert!(out.stderr.contains("no difference form"), "{}", out.stderr);
}

#[test]
fn a_base_from_another_build_without_its_program_is_refused() {
    if !require_tool("mips-linux-gnu-gcc") {
        return;
    }
    let dir = Scratch::new("diff-identity");
    let (v1, v2) = (build(&dir, 1), build(&dir, 2));
    let (g1, g2) = (dir.file("g1.out"), dir.file("g2.out"));
    profile(&v1, &g1, &[]);
    profile(&v2, &g2, &[]);
    // BASE is v1's: read with v2's symbols, its samples would land in the
    // wrong functions, so the diff names the file and what to give.
    let out = emu(&["report", "--diff", &g1, &v2, &g2]);
    assert_eq!(out.status.shell(), i32::from(exit::EMULATOR_FAILURE));
    assert_eq!(
        out.stderr,
        format!(
            "irix-emu: {g1}: recorded from another program than {v2} (another build of it?)\n\
             irix-emu: hint: if {g1} is a profile of another build, name that program \
             with --base-program\n"
        )
    );
    // A plain report with the wrong build is refused the same way.
    let out = emu(&["report", &v1, &g2]);
    assert_eq!(out.status.shell(), i32::from(exit::EMULATOR_FAILURE));
    assert_eq!(
        out.stderr,
        format!(
            "irix-emu: {g2}: recorded from another program than {v1} (another build of it?)\n\
             irix-emu: hint: give the executable the profile was recorded from\n"
        )
    );
}

/// `go tool pprof -top` of `args`: function -> (flat, cum) samples, the
/// functions with either non-zero.
fn pprof_top(dir: &Scratch, args: &[&str]) -> BTreeMap<String, (i128, i128)> {
    let mut cmd = Command::new("go");
    cmd.args([
        "tool",
        "pprof",
        "-top",
        "-nodecount=10000",
        "-sample_index=samples",
        "-symbolize=none",
    ])
    .args(args)
    .env("GOCACHE", dir.file("gocache"))
    .env("HOME", dir.path());
    let g = run_command(cmd);
    assert_eq!(g.status.shell(), 0, "{}", g.stderr);
    // "         2 40.00% 40.00%          2 40.00%  changed"
    g.stdout_text()
        .lines()
        .filter_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            if t.len() != 6 || !t[1].ends_with('%') {
                return None;
            }
            let n = |i: usize| t[i].parse::<i128>().ok();
            Some((t[5].to_string(), (n(0)?, n(3)?)))
        })
        .filter(|(_, c)| *c != (0, 0))
        .collect()
}

#[test]
fn go_tool_pprof_diff_base_agrees_with_the_text_diff_and_reads_ours() {
    if !require_tool("mips-linux-gnu-gcc") || !require_tool("go") {
        return;
    }
    let dir = Scratch::new("diff-pprof");
    let (v1, v2) = (build(&dir, 1), build(&dir, 2));
    let (g1, g2) = (dir.file("g1.out"), dir.file("g2.out"));
    profile(&v1, &g1, &[]);
    profile(&v2, &g2, &[]);
    let ours: BTreeMap<String, (i128, i128)> =
        rows(&emu(&["report", "--diff", &g1, "--base-program", &v1, &v2, &g2]).stdout_text())
            .into_iter()
            .filter(|(name, c)| name != "<total>" && (c[0], c[1]) != (0, 0))
            .map(|(name, c)| (name, (c[0], c[1])))
            .collect();
    assert!(ours.contains_key("changed"), "{ours:?}");

    let write = |args: &[&str], path: &str| {
        let out = emu(args);
        assert_eq!(out.status.shell(), 0, "{}", out.stderr);
        std::fs::write(path, &out.stdout).expect("write pprof");
    };
    let (b, n, d) = (
        dir.file("b.pb.gz"),
        dir.file("n.pb.gz"),
        dir.file("d.pb.gz"),
    );
    write(&["report", "--format", "pprof", &v1, &g1], &b);
    write(&["report", "--format", "pprof", &v2, &g2], &n);
    write(
        &[
            "report",
            "--diff",
            &g1,
            "--base-program",
            &v1,
            "--format",
            "pprof",
            &v2,
            &g2,
        ],
        &d,
    );
    // flat is the self change, cum the inclusive change.
    assert_eq!(pprof_top(&dir, &["-diff_base", &b, &n]), ours);
    assert_eq!(pprof_top(&dir, &[&d]), ours);
}
