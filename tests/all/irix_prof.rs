//! IRIX's own profiling tools on irix-emu, with SGI's files: `cc -p` links
//! (mcrt1.o, libprof.a), the program writes mon.out through sprofil, and
//! IRIX `prof` prints its listing. The differential: the same run profiled
//! from outside by `irix-emu prof` gives, for every function of the
//! program, the samples IRIX prof reads from the guest's own mon.out (both
//! tick on the process's user-time grid, one counter per instruction).
//! Functions of libc.so.1 may have more samples from outside: the outside
//! profile also sees the runtime's own work before sprofil starts and after
//! it stops.
//!
//! Needs `IRIX_ROOT_53`: an IRIX 5.3 root with IDO (usr/bin/cc, lib/rld,
//! usr/lib/libc.so.1) plus usr/bin/prof, usr/lib/libprof.a and
//! usr/lib/mcrt1.o; ignored ("needs IRIX_ROOT_53") when the variable was
//! not set at build time (test_support::roots).

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use std::time::Duration;

use common::{flat_profile_lines, run_emu, Scratch, Status};
use test_support::process::{run_command_within, TIME_LIMIT};

/// Declares what it uses (the root has no headers). Time goes to two
/// functions of the program and to strlen and memset in libc.so.1.
const SOURCE: &str = r#"
extern int printf(const char *, ...);
extern unsigned long strlen(const char *);
extern void *memset(void *, int, unsigned long);
static char buf[4096];
static volatile int sink;
int spin(int n) { int i, s = 0; for (i = 0; i < n; i++) s += i * 3; return s; }
int twice(int n) { return spin(n) + spin(n / 2); }
int fill(int n) {
    int i, t = 0;
    for (i = 0; i < n; i++) {
        memset(buf, 1 + i % 200, sizeof buf);
        buf[sizeof buf - 1] = 0;
        t += (int)strlen(buf);
    }
    return t;
}
int main(void) {
    int k;
    for (k = 0; k < 100; k++) sink += twice(20000);
    sink += fill(3000);
    printf("done %d\n", sink);
    return 0;
}
"#;

const FORKS: &str = r#"
extern int printf(const char *, ...);
extern int fork(void);
extern int wait(int *);
extern void exit(int);
static volatile int sink;
int parent_work(int n) { int i, s = 0; for (i = 0; i < n; i++) s += i ^ 5; return s; }
int child_work(int n) { int i, s = 0; for (i = 0; i < n; i++) s += i * 7; return s; }
int main(void) {
    int st, k;
    int pid = fork();
    if (pid == 0) { for (k = 0; k < 100; k++) sink += child_work(20000); exit(3); }
    for (k = 0; k < 60; k++) sink += parent_work(20000);
    wait(&st);
    printf("child status %d\n", (st >> 8) & 0xff);
    return 0;
}
"#;

/// The parent and a sproc member (IRIX's sproc from libc.so.1: entry, the
/// PR_SALL share mask, argument) each do their own work; the member ends
/// with exit(3), so the runtime's exit handler writes its file.
const SPROCS: &str = r#"
extern int printf(const char *, ...);
extern int sproc(void (*)(void *), unsigned, void *);
extern int wait(int *);
extern void exit(int);
static volatile int sink;
int parent_work(int n) { int i, s = 0; for (i = 0; i < n; i++) s += i ^ 5; return s; }
int child_work(int n) { int i, s = 0; for (i = 0; i < n; i++) s += i * 7; return s; }
void member(void *arg) {
    int k;
    for (k = 0; k < 100; k++) sink += child_work(20000);
    exit(3);
}
int main(void) {
    int st, k;
    if (sproc(member, 0x7f, 0) < 0) { printf("sproc failed\n"); return 1; }
    for (k = 0; k < 60; k++) sink += parent_work(20000);
    wait(&st);
    printf("member status %d\n", (st >> 8) & 0xff);
    return 0;
}
"#;

fn irix_root() -> PathBuf {
    test_support::roots::irix_root_53(&[
        "usr/bin/cc",
        "usr/bin/prof",
        "usr/lib/libprof.a",
        "usr/lib/mcrt1.o",
    ])
}

/// `irix-emu CMD --root ROOT --bind DIR -E PWD=DIR -E LD_LIBRARY_PATH=DIR
/// ARGS...` in `dir`: the guest starts with the host's environment, where
/// cargo has set LD_LIBRARY_PATH to host directories; rld and prof -pixie
/// look for instrumented libraries (libc.so.1.pixie) through it.
fn emu(cmd: &str, root: &Path, dir: &Scratch, args: &[&str]) -> common::Run {
    emu_within(cmd, root, dir, args, TIME_LIMIT)
}

/// Steps of pixie take minutes of wall time on a loaded machine (pixie
/// instrumenting libc.so.1, the instrumented program): their own limit.
const PIXIE_LIMIT: Duration = Duration::from_secs(900);

/// As [`emu`], within `limit` of wall time.
fn emu_within(
    cmd: &str,
    root: &Path,
    dir: &Scratch,
    args: &[&str],
    limit: Duration,
) -> common::Run {
    let mut all: Vec<String> = vec![
        cmd.into(),
        "--root".into(),
        root.display().to_string(),
        "--bind".into(),
        dir.path().display().to_string(),
        "-E".into(),
        format!("PWD={}", dir.path().display()),
        "-E".into(),
        format!("LD_LIBRARY_PATH={}", dir.path().display()),
    ];
    all.extend(args.iter().map(|s| s.to_string()));
    run_command_within(common::emu_command(all, dir.path()), limit)
}

/// `cc -p -o NAME NAME.c` under irix-emu; returns the program's path.
fn cc_p(root: &Path, dir: &Scratch, name: &str, source: &str) -> String {
    dir.write(&format!("{name}.c"), source.as_bytes());
    let d = dir.path().display();
    let cc = root.join("usr/bin/cc").display().to_string();
    let (out, src) = (format!("{d}/{name}"), format!("{d}/{name}.c"));
    let r = emu("run", root, dir, &[&cc, "-p", "-o", &out, &src]);
    assert_eq!(r.status, Status::Code(0), "cc -p: {}", r.stderr);
    out
}

/// IRIX prof's -p listing: samples per procedure.
fn irix_prof(root: &Path, dir: &Scratch, args: &[&str]) -> BTreeMap<String, u64> {
    let prof = root.join("usr/bin/prof").display().to_string();
    let mut all = vec![prof.as_str()];
    all.extend_from_slice(args);
    let r = emu("run", root, dir, &all);
    assert_eq!(r.status, Status::Code(0), "prof: {}", r.stderr);
    let out = r.stdout_text();
    let listing: BTreeMap<String, u64> = out
        .lines()
        .skip_while(|l| !l.starts_with("samples   time(%)"))
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let samples = f.first()?.parse().ok()?;
            let name = if f.len() >= 2 && f[f.len() - 1] == "TOTAL" {
                "TOTAL"
            } else {
                f.get(f.len().checked_sub(2)?)?
            };
            Some((name.to_string(), samples))
        })
        .collect();
    assert!(listing.contains_key("TOTAL"), "no listing: {out}");
    listing
}

/// irix-emu prof's flat profile (stderr): samples per name.
fn outside_flat(stderr: &str) -> BTreeMap<String, u64> {
    flat_profile_lines(stderr)
        .into_iter()
        .map(|(samples, name)| (name, samples))
        .collect()
}

#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn cc_p_program_writes_mon_out_that_irix_prof_lists() {
    let root = irix_root();
    let dir = Scratch::new("irix-prof");
    let prog = cc_p(&root, &dir, "hot", SOURCE);
    let r = emu("run", &root, &dir, &[&prog]);
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    assert_eq!(r.stderr, "", "no unimplemented call on the way");
    assert!(dir.path().join("mon.out").is_file());
    let listing = irix_prof(&root, &dir, &[&prog, "mon.out"]);
    for f in ["spin", "strlen", "memset", "TOTAL"] {
        assert!(listing.get(f).is_some_and(|&n| n > 0), "{f}: {listing:?}");
    }
    // The header line names the machine SGI_INVENT describes.
    let prof = root.join("usr/bin/prof").display().to_string();
    let out = emu("run", &root, &dir, &[&prof, &prog, "mon.out"]).stdout_text();
    assert!(out.contains("R4000  R4010 100.0MHz"), "{out}");
    assert!(out.contains("10.0ms"), "{out}");
}

/// One run under `irix-emu prof` with `env`; IRIX prof reads its mon.out.
fn differential(env: &[&str], fast: bool) {
    let root = irix_root();
    let dir = Scratch::new("irix-prof-diff");
    let prog = cc_p(&root, &dir, "hot", SOURCE);
    let gmon = dir.path().join("gmon.out").display().to_string();
    let mut args: Vec<&str> = env.to_vec();
    if fast {
        args.push("--fast");
    }
    args.extend(["-o", &gmon, &prog]);
    let r = emu("prof", &root, &dir, &args);
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    let ours = outside_flat(&r.stderr);
    let theirs = irix_prof(&root, &dir, &[&prog, "mon.out"]);
    for (name, &n) in &theirs {
        if name == "TOTAL" {
            continue;
        }
        match ours.get(name) {
            // A function of the program: the same ticks at the same PCs.
            Some(&m) => assert!(
                m.abs_diff(n) <= 1,
                "{env:?} {name}: ours {m}, IRIX prof {n}"
            ),
            // A function of libc.so.1: never fewer from outside.
            None => {
                let m = ours[&format!("{name}@libc.so.1")];
                assert!(m >= n, "{env:?} {name}: ours {m}, IRIX prof {n}");
            }
        }
    }
    for name in ["spin", "fill"] {
        assert_eq!(ours.get(name), theirs.get(name), "{env:?} {name}");
    }
}

#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn irix_prof_of_mon_out_equals_the_outside_profile() {
    differential(&[], false);
}

#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn prof_sampling_1_is_prof_fast_and_equals_the_fast_outside_profile() {
    differential(&["-E", "PROF_SAMPLING=1"], true);
}

#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn prof_countsize_2_gives_the_same_listing() {
    differential(&["-E", "PROF_COUNTSIZE=2"], false);
}

/// PROFDIR set: IRIX 5.3's runtime writes `PROFDIR/argv[0].mon.PID` (not
/// prof(1)'s `PID.progname`), so the program runs by its bare name; IRIX
/// prof reads it.
#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn profdir_names_the_file_progname_mon_pid() {
    let root = irix_root();
    let dir = Scratch::new("irix-profdir");
    cc_p(&root, &dir, "hot", SOURCE);
    dir.mkdir("pd");
    let pd = format!("PROFDIR={}/pd", dir.path().display());
    let r = emu("run", &root, &dir, &["-E", &pd, "hot"]);
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    // The first pid is 100.
    let file = dir.path().join("pd/hot.mon.100");
    assert!(file.is_file(), "{:?}", dir.listing());
    assert!(!dir.path().join("mon.out").exists());
    let listing = irix_prof(&root, &dir, &["hot", "pd/hot.mon.100"]);
    assert!(listing.get("spin").is_some_and(|&n| n > 0), "{listing:?}");
}

/// An empty PROFDIR does not turn profiling off in IRIX 5.3's runtime: it
/// still starts sprofil and writes `"" + "/" + argv[0].mon.PID`, at the
/// top of the guest's root. The root here is an empty scratch directory
/// with the IRIX root's usr and lib bound into it, so nothing is written
/// into the IRIX files.
#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn an_empty_profdir_writes_progname_mon_pid_at_the_root() {
    let irix = irix_root();
    let dir = Scratch::new("irix-profdir-empty");
    cc_p(&irix, &dir, "hot", SOURCE);
    let top = dir.mkdir("top");
    let bind = |sub: &str| format!("{}:/{sub}", irix.join(sub).display());
    let d = dir.path().display().to_string();
    let args = [
        "run",
        "--root",
        &top.display().to_string(),
        "--bind",
        &bind("usr"),
        "--bind",
        &bind("lib"),
        "--bind",
        &d,
        "--strace",
        "-E",
        "PROFDIR=",
        "hot",
    ]
    .map(String::from);
    let r = run_emu(args, dir.path());
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    assert!(r.stderr.contains("syssgi(SGI_SPROFIL, "), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("open(\"/hot.mon.100\", O_WRONLY|O_CREAT, 0666) = 3"),
        "{}",
        r.stderr
    );
    assert!(top.join("hot.mon.100").is_file(), "{:?}", dir.listing());
    assert!(!dir.path().join("mon.out").exists(), "{:?}", dir.listing());
}

#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn a_forking_program_writes_a_file_per_process_and_prof_sums_them() {
    let root = irix_root();
    let dir = Scratch::new("irix-prof-fork");
    let prog = cc_p(&root, &dir, "forky", FORKS);
    let r = emu("run", &root, &dir, &[&prog]);
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    assert_eq!(r.stdout_text(), "child status 3\n");
    // The parent's file is mon.out, the child's forky.mon.<its pid>.
    let child = dir.path().join("forky.mon.101");
    assert!(child.is_file(), "{:?}", dir.listing());
    let parent = irix_prof(&root, &dir, &[&prog, "mon.out"]);
    let kid = irix_prof(&root, &dir, &[&prog, "forky.mon.101"]);
    let both = irix_prof(&root, &dir, &[&prog, "mon.out", "forky.mon.101"]);
    assert!(
        parent.get("parent_work").is_some_and(|&n| n > 0),
        "{parent:?}"
    );
    assert!(!parent.contains_key("child_work"), "{parent:?}");
    assert!(kid.get("child_work").is_some_and(|&n| n > 0), "{kid:?}");
    assert_eq!(both.get("parent_work"), parent.get("parent_work"));
    assert_eq!(both.get("child_work"), kid.get("child_work"));
    assert_eq!(both["TOTAL"], parent["TOTAL"] + kid["TOTAL"]);
}

/// prof(1): a program that sprocs writes one `progname.mon.PID` per
/// process (parent 100, member 101), and prof sums them.
#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn a_sprocing_program_writes_a_file_per_process_and_prof_sums_them() {
    let root = irix_root();
    let dir = Scratch::new("irix-prof-sproc");
    let prog = cc_p(&root, &dir, "sprocky", SPROCS);
    let r = emu("run", &root, &dir, &[&prog]);
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    assert_eq!(r.stdout_text(), "member status 3\n");
    let (parent, member) = ("sprocky.mon.100", "sprocky.mon.101");
    for f in [parent, member] {
        assert!(dir.path().join(f).is_file(), "{f}: {:?}", dir.listing());
    }
    let theirs = irix_prof(&root, &dir, &[&prog, parent]);
    let kid = irix_prof(&root, &dir, &[&prog, member]);
    let both = irix_prof(&root, &dir, &[&prog, parent, member]);
    assert!(
        theirs.get("parent_work").is_some_and(|&n| n > 0),
        "{theirs:?}"
    );
    assert!(kid.get("child_work").is_some_and(|&n| n > 0), "{kid:?}");
    assert_eq!(both["TOTAL"], theirs["TOTAL"] + kid["TOTAL"]);
    assert_eq!(
        theirs.get("child_work"),
        None,
        "the parent's file is its own"
    );
    assert_eq!(kid.get("parent_work"), None, "the member's file is its own");

    // The same run under irix-emu's outside profiler, which follows the
    // sproc member: the sum prof prints equals the outside profile.
    let gmon = dir.path().join("gmon.out").display().to_string();
    let r = emu("prof", &root, &dir, &["-o", &gmon, &prog]);
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    let ours = outside_flat(&r.stderr);
    let summed = irix_prof(&root, &dir, &[&prog, parent, member]);
    for name in ["parent_work", "child_work"] {
        assert_eq!(ours.get(name), summed.get(name), "{name}: {ours:?}");
    }
    // Program functions: the same ticks at the same PCs. libc.so.1's:
    // prof names its static functions (realfree) from libc's own symbols,
    // the outside profile by the nearest exported one, so only the totals
    // compare, and the outside profile never has fewer.
    let (mut libc_theirs, mut libc_ours) = (0, 0);
    for (name, &n) in summed.iter().filter(|(name, _)| *name != "TOTAL") {
        match ours.get(name) {
            Some(&m) => assert!(m.abs_diff(n) <= 1, "{name}: ours {m}, IRIX prof {n}"),
            None => libc_theirs += n,
        }
    }
    for (name, &m) in &ours {
        if name.ends_with("@libc.so.1") {
            libc_ours += m;
        }
    }
    assert!(libc_ours >= libc_theirs, "{ours:?} {summed:?}");
}

/// `prof -pixie`'s listing: instructions per procedure of the program
/// `name` (those whose file is `name:...`). A line is `cycles(%) cum% secs
/// instrns calls procedure(file)`, read from the end: below 10% the
/// percentage is printed `( 7.96)`, one more whitespace-separated field.
fn pixie_instructions(listing: &str, name: &str) -> BTreeMap<String, u64> {
    let file = format!("({name}:");
    listing
        .lines()
        .skip_while(|l| !l.contains("instrns    calls procedure(file)"))
        .filter(|l| l.contains(&file))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().rev().take(3).collect();
            let [procedure, _calls, instrns] = f[..] else {
                panic!("not a procedure line: {l}")
            };
            let procedure = procedure.split('(').next().unwrap_or_default();
            let instrns = instrns.parse().unwrap_or_else(|_| panic!("instrns in {l}"));
            (procedure.to_string(), instrns)
        })
        .collect()
}

/// `irix-emu prof --exact`'s instructions per function.
fn exact_instructions(stderr: &str) -> BTreeMap<String, u64> {
    stderr
        .lines()
        .skip_while(|l| !l.starts_with("Instructions retired per function"))
        .skip(3)
        .take_while(|l| !l.starts_with("irix-emu:"))
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            Some((f.get(1)?.to_string(), f.first()?.parse().ok()?))
        })
        .collect()
}

#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn pixie_counts_equal_the_exact_instruction_counts() {
    let root = irix_root();
    assert!(
        test_support::roots::has(&root, "usr/bin/pixie"),
        "IRIX_ROOT_53={} has no usr/bin/pixie",
        root.display()
    );
    let dir = Scratch::new("irix-pixie");
    dir.write("plain.c", SOURCE.as_bytes());
    let cc = root.join("usr/bin/cc").display().to_string();
    let r = emu("run", &root, &dir, &[&cc, "-O", "-o", "plain", "plain.c"]);
    assert_eq!(r.status, Status::Code(0), "cc: {}", r.stderr);
    let pixie = root.join("usr/bin/pixie").display().to_string();
    // pixie prog writes prog.pixie; the instrumented program needs an
    // instrumented libc.so.1, found through LD_LIBRARY_PATH.
    let pixie_run = |args: &[&str]| emu_within("run", &root, &dir, args, PIXIE_LIMIT);
    let r = pixie_run(&[&pixie, "plain"]);
    assert_eq!(r.status, Status::Code(0), "pixie: {}", r.stderr);
    let r = pixie_run(&[&pixie, "-noautopixie", "/usr/lib/libc.so.1"]);
    assert_eq!(r.status, Status::Code(0), "pixie libc: {}", r.stderr);
    let r = pixie_run(&["plain.pixie"]);
    assert_eq!(r.status, Status::Code(0), "plain.pixie: {}", r.stderr);
    assert!(
        dir.path().join("plain.Counts").is_file(),
        "{:?}",
        dir.listing()
    );
    let prof = root.join("usr/bin/prof").display().to_string();
    let r = pixie_run(&[&prof, "-pixie", "plain"]);
    assert_eq!(r.status, Status::Code(0), "prof -pixie: {}", r.stderr);
    let listing = r.stdout_text();
    let theirs = pixie_instructions(&listing, "plain");
    // The original program, every instruction counted by irix-emu.
    let gmon = dir.path().join("gmon.out").display().to_string();
    let prof_run = r;
    let exact = ["--exact", "-o", &gmon, "plain"];
    let r = emu_within("prof", &root, &dir, &exact, PIXIE_LIMIT);
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    let ours = exact_instructions(&r.stderr);
    for f in ["spin", "twice", "fill", "main"] {
        assert!(
            theirs.contains_key(f),
            "{f} in prof -pixie: {listing} (stderr {}) {:?}",
            prof_run.stderr,
            dir.listing()
        );
    }
    for (f, n) in &theirs {
        assert_eq!(ours.get(f), Some(n), "{f}: ours {ours:?}, pixie {theirs:?}");
    }
}
