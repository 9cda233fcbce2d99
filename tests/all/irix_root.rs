//! Real IRIX programs from a user's IRIX root: SGI's IDO compilers, which
//! are dynamically linked (PT_INTERP /usr/lib/libc.so.1, which maps
//! /lib/rld with syssgi(SGI_ELFMAP)) and fork and exec their passes.
//!
//! These tests need SGI's files, which the repository never holds: they read
//! `IRIX_ROOT_53` and `IRIX_ROOT_71` (IRIX roots holding IDO 5.3 and 7.1:
//! usr/bin/cc, usr/lib/{cfe,uopt,ugen,as1,ld...}, usr/lib/libc.so.1,
//! lib/rld) and are ignored ("needs IRIX_ROOT_53") when the variable was
//! not set at build time (test_support::roots). The comparisons with
//! qemu-irix (the reference IRIX user-mode emulator) also need `QEMU_IRIX`,
//! the path of its `qemu-irix` binary.
//!
//! - `cc -c` with the default flags, -O2, -mips2 and the N64 decompilation
//!   flag set: the object files are byte-identical to qemu-irix's.
//! - `cc -o prog` (IDO 5.3) links a program that runs under irix-emu and
//!   prints what it prints under qemu-irix, with the same exit status.
//! - IRIX libc's semaphores (usinit, usnewsema, uspsema, usvsema) between
//!   sproc members sleep and wake through /dev/usemaclone.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{run_command, run_emu, Scratch, Status};

/// A C file using only what it declares (the IDO roots hold no headers).
const SOURCE: &str = r#"
int printf(const char *, ...);
struct point { int x, y; };
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static double mean(const int *v, int n) {
    double s = 0;
    int i;
    for (i = 0; i < n; i++) s += v[i];
    return s / n;
}
int table[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };
int main(int argc, char **argv) {
    struct point p;
    int i;
    p.x = argc; p.y = fib(12);
    for (i = 0; i < 10; i++) printf("fib(%d) = %d\n", i, fib(i));
    printf("mean %.3f point %d,%d args %d\n", mean(table, 8), p.x, p.y, argc);
    return 7;
}
"#;

/// The flag sets compared (the last is what N64 decompilation projects use).
const FLAG_SETS: &[&[&str]] = &[
    &["-c"],
    &["-c", "-O2"],
    &["-c", "-mips2"],
    &[
        "-c",
        "-Wab,-r4300_mul",
        "-non_shared",
        "-G",
        "0",
        "-Xcpluscomm",
        "-Xfullwarn",
        "-signed",
        "-nostdinc",
        "-mips2",
        "-O2",
    ],
];

/// The IRIX root in `var`, holding IDO's cc.
fn irix_root(var: &str) -> PathBuf {
    test_support::roots::path_from(var, &["usr/bin/cc"])
}

/// `irix-emu run --root ROOT --bind DIR ROOT/usr/bin/cc ARGS` in `dir`.
fn emu_cc(root: &Path, dir: &Scratch, args: &[&str]) -> common::Run {
    let cc = root.join("usr/bin/cc");
    let mut all: Vec<String> = vec![
        "run".into(),
        "--root".into(),
        root.display().to_string(),
        "--bind".into(),
        dir.path().display().to_string(),
        // IDO 7.1's cc takes the working directory from PWD, as a shell
        // would have set it.
        "-E".into(),
        format!("PWD={}", dir.path().display()),
        cc.display().to_string(),
    ];
    all.extend(args.iter().map(|s| s.to_string()));
    run_emu(all, dir.path())
}

/// `qemu-irix -silent -L ROOT ROOT/usr/bin/cc ARGS` in `dir`.
fn qemu_cc(qemu: &Path, root: &Path, dir: &Scratch, args: &[&str]) -> common::Run {
    let mut cmd = Command::new(qemu);
    cmd.arg("-silent")
        .arg("-L")
        .arg(root)
        .arg(root.join("usr/bin/cc"))
        .args(args)
        .current_dir(dir.path());
    run_command(cmd)
}

/// Compiles SOURCE with each flag set under both emulators and compares.
fn objects_match_qemu_irix(var: &str) {
    let root = irix_root(var);
    let qemu = test_support::roots::qemu_irix();
    let dir = Scratch::new("ido");
    dir.write("prog.c", SOURCE.as_bytes());
    for flags in FLAG_SETS {
        let mut ours_args = flags.to_vec();
        ours_args.extend(["prog.c", "-o", "ours.o"]);
        let r = emu_cc(&root, &dir, &ours_args);
        assert_eq!(
            r.status,
            Status::Code(0),
            "{var} cc {flags:?}: {}",
            r.stderr
        );
        let mut theirs_args = flags.to_vec();
        theirs_args.extend(["prog.c", "-o", "theirs.o"]);
        let q = qemu_cc(&qemu, &root, &dir, &theirs_args);
        assert_eq!(
            q.status,
            Status::Code(0),
            "qemu-irix {flags:?}: {}",
            q.stderr
        );
        let ours = std::fs::read(dir.path().join("ours.o")).expect("irix-emu's object");
        let theirs = std::fs::read(dir.path().join("theirs.o")).expect("qemu-irix's object");
        assert!(ours.starts_with(b"\x7fELF"), "{flags:?}: not an ELF object");
        let first_difference = ours
            .iter()
            .zip(&theirs)
            .position(|(a, b)| a != b)
            .or((ours.len() != theirs.len()).then_some(ours.len().min(theirs.len())));
        assert_eq!(
            first_difference,
            None,
            "{var} cc {flags:?}: objects differ ({} vs {} bytes)",
            ours.len(),
            theirs.len()
        );
    }
}

#[test]
#[cfg_attr(
    not(all(irix_root_53, qemu_irix)),
    ignore = "needs IRIX_ROOT_53 and QEMU_IRIX"
)]
fn ido_5_3_cc_c_objects_are_byte_identical_to_qemu_irix() {
    objects_match_qemu_irix("IRIX_ROOT_53");
}

#[test]
#[cfg_attr(
    not(all(irix_root_71, qemu_irix)),
    ignore = "needs IRIX_ROOT_71 and QEMU_IRIX"
)]
fn ido_7_1_cc_c_objects_are_byte_identical_to_qemu_irix() {
    objects_match_qemu_irix("IRIX_ROOT_71");
}

/// Links SOURCE with IDO 5.3's `cc -o prog` and runs it under irix-emu
/// with the argument "one": its output must be fib's table and the mean,
/// its status 7.
fn link_and_run(root: &Path, dir: &Scratch) -> (PathBuf, common::Run) {
    dir.write("prog.c", SOURCE.as_bytes());
    let r = emu_cc(root, dir, &["prog.c", "-o", "prog"]);
    assert_eq!(r.status, Status::Code(0), "cc -o prog: {}", r.stderr);
    assert_eq!(r.stderr, "", "cc -o prog is silent");
    let prog = dir.path().join("prog");
    let ours = run_emu(
        [
            "run",
            "--root",
            &root.display().to_string(),
            &prog.display().to_string(),
            "one",
        ],
        dir.path(),
    );
    let expected_start = "fib(0) = 0\nfib(1) = 1\nfib(2) = 1\n";
    assert!(
        ours.stdout_text().starts_with(expected_start),
        "{}",
        ours.stdout_text()
    );
    assert!(
        ours.stdout_text()
            .ends_with("fib(9) = 34\nmean 3.875 point 2,144 args 2\n"),
        "{}",
        ours.stdout_text()
    );
    assert_eq!(ours.status, Status::Code(7));
    (prog, ours)
}

#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn ido_5_3_cc_links_a_program_that_runs() {
    let root = irix_root("IRIX_ROOT_53");
    link_and_run(&root, &Scratch::new("ido-link"));
}

#[test]
#[cfg_attr(
    not(all(irix_root_53, qemu_irix)),
    ignore = "needs IRIX_ROOT_53 and QEMU_IRIX"
)]
fn ido_5_3_cc_links_a_program_that_runs_as_under_qemu_irix() {
    let root = irix_root("IRIX_ROOT_53");
    let dir = Scratch::new("ido-link");
    let (prog, ours) = link_and_run(&root, &dir);
    let qemu = test_support::roots::qemu_irix();
    let mut cmd = Command::new(qemu);
    cmd.arg("-silent")
        .arg("-L")
        .arg(&root)
        .arg(&prog)
        .arg("one")
        .current_dir(dir.path());
    let theirs = run_command(cmd);
    assert_eq!(ours.stdout, theirs.stdout);
    assert_eq!(ours.status, theirs.status);
}

/// `cc -c -g` stores the host name and the source's full path in .mdebug:
/// libc's getcwd walks up through `..` with getdents, across the bind and
/// the private /tmp, so the guest's working directory must list correctly.
fn cc_g_records_the_guest_host_name_and_path(var: &str) {
    let root = irix_root(var);
    let dir = Scratch::new("ido-g");
    dir.write("prog.c", SOURCE.as_bytes());
    let r = emu_cc(&root, &dir, &["-c", "-g", "prog.c"]);
    assert_eq!(r.status, Status::Code(0), "{var} cc -c -g: {}", r.stderr);
    let object = std::fs::read(dir.path().join("prog.o")).expect("prog.o");
    let wanted = format!("irix-emu:{}/prog.c", dir.path().display());
    assert!(
        object.windows(wanted.len()).any(|w| w == wanted.as_bytes()),
        "{var}: .mdebug lacks {wanted}: {:?}",
        String::from_utf8_lossy(&object)
            .split('\0')
            .filter(|s| s.contains("prog.c"))
            .collect::<Vec<_>>()
    );
}

#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn ido_5_3_cc_g_records_the_guest_host_name_and_path() {
    cc_g_records_the_guest_host_name_and_path("IRIX_ROOT_53");
}

#[test]
#[cfg_attr(not(irix_root_71), ignore = "needs IRIX_ROOT_71")]
fn ido_7_1_cc_g_records_the_guest_host_name_and_path() {
    cc_g_records_the_guest_host_name_and_path("IRIX_ROOT_71");
}

#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn cc_without_a_bind_cannot_see_host_files() {
    // The source file lies outside the root and nothing binds it: cc (its
    // cfe) must fail to open it, like any file outside a chroot.
    let root = irix_root("IRIX_ROOT_53");
    let dir = Scratch::new("ido-nobind");
    dir.write("prog.c", SOURCE.as_bytes());
    let cc = root.join("usr/bin/cc");
    let r = run_emu(
        [
            "run",
            "--root",
            &root.display().to_string(),
            &cc.display().to_string(),
            "-c",
            "prog.c",
        ],
        dir.path(),
    );
    assert_ne!(r.status, Status::Code(0), "{}", r.stderr);
    assert!(!dir.path().join("prog.o").exists());
}

/// IRIX libc's semaphores between sproc members (usinit's arena mapped
/// MAP_SHARED from /tmp, the /dev/usemaclone device): usnewsema(3P) with a
/// count of 0, so each uspsema(3P) puts its caller to sleep until the other
/// process's usvsema(3P) releases it. The two processes take strict turns,
/// whatever the scheduler's slices (the member blocks in the device first:
/// the parent works before its first usvsema).
const SEMAPHORES: &str = r#"
int printf(const char *, ...);
void *usinit(const char *);
void *usnewsema(void *, int);
int uspsema(void *);
int usvsema(void *);
int sproc(void (*)(void *), unsigned, void *);
int wait(int *);
void exit(int);
static void *ping, *pong;
static volatile int turns;
static void member(void *arg) {
    int k;
    for (k = 0; k < 3; k++) {
        uspsema(ping);
        turns++;
        printf("member %d\n", k);
        usvsema(pong);
    }
    exit(0);
}
int main(void) {
    void *arena = usinit("/tmp/sema.arena");
    int k, st;
    if (arena == 0) return 1;
    ping = usnewsema(arena, 0);
    pong = usnewsema(arena, 0);
    if (sproc(member, 0x7f, 0) < 0) return 2;
    for (k = 0; k < 3; k++) {
        volatile int i, s = 0;
        for (i = 0; i < 200000; i++) s += i;
        printf("parent %d\n", k);
        usvsema(ping);
        uspsema(pong);
    }
    wait(&st);
    printf("turns %d status %d\n", turns, st);
    return 0;
}
"#;

#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn usema_semaphores_put_an_sproc_member_to_sleep_until_released() {
    let root = irix_root("IRIX_ROOT_53");
    let dir = Scratch::new("ido-usema");
    dir.write("sema.c", SEMAPHORES.as_bytes());
    let r = emu_cc(&root, &dir, &["sema.c", "-o", "sema"]);
    assert_eq!(r.status, Status::Code(0), "cc -o sema: {}", r.stderr);
    let prog = dir.path().join("sema");
    let r = run_emu(
        [
            "run",
            "--root",
            &root.display().to_string(),
            &prog.display().to_string(),
        ],
        dir.path(),
    );
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    assert_eq!(r.stderr, "", "no unimplemented call on the way");
    assert_eq!(
        r.stdout_text(),
        "parent 0\nmember 0\nparent 1\nmember 1\nparent 2\nmember 2\nturns 3 status 0\n"
    );
}
