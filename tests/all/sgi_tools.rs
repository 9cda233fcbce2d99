//! SGI's own programs from an IRIX 5.3 root, started as a user starts them
//! (`irix-emu run --root R --bind DIR R/usr/bin/TOOL ...`): a C program
//! built by SGI's cc and linked with SGI's libc.so.1 that makes the calls
//! a portable program makes (tests/sgi_cc/libc_calls.c), the object tools
//! (ar, nm, size, dis, odump, stdump, elfdump, strip) on what cc made, and
//! the source tools (cb, ctrace, makedepend, patch). The wrappers in
//! usr/bin find their back ends through argv[0], which is the program's
//! guest path. Every test needs `IRIX_ROOT_53` and is reported as ignored
//! without it (test_support::roots).

use crate::common;

use std::path::{Path, PathBuf};

use common::{exited, repo_path, run_emu, Run, Scratch};

/// `irix-emu run --root ROOT --bind DIR ROOT/TOOL ARGS`, in DIR (bound at
/// its own path, so the guest's cwd and file names are DIR's).
pub(crate) fn sgi(root: &Path, dir: &Scratch, tool: &str, args: &[&str]) -> Run {
    let mut all = vec![
        "run".to_string(),
        "--root".into(),
        root.display().to_string(),
        "--bind".into(),
        dir.path().display().to_string(),
        if tool.starts_with('/') {
            tool.to_string()
        } else {
            root.join(tool).display().to_string()
        },
    ];
    all.extend(args.iter().map(|a| a.to_string()));
    run_emu(all, dir.path())
}

/// The run's stdout, after asserting it exited 0 with nothing on stderr.
pub(crate) fn ok(r: Run, what: &str) -> String {
    assert_eq!(r.status, exited(0), "{what}: {}", r.stderr);
    assert_eq!(r.stderr, "", "{what}");
    r.stdout_text()
}

/// The IRIX 5.3 root with IDO's cc and the tools these tests run.
pub(crate) fn root() -> PathBuf {
    test_support::roots::irix_root_53(&["usr/bin/cc", "usr/lib/libc.so.1", "lib/rld"])
}

/// DIR/NAME as a string, the same path in host and guest.
pub(crate) fn at(dir: &Scratch, name: &str) -> String {
    dir.path().join(name).display().to_string()
}

const LIBC_CALLS: &str = "\
mkdir: 0
mkdir again: -1 errno 17
write: 10
rmdir non-empty: -1 errno 17
link: 0
symlink: 0
readlink: 3 d/f
rename: 0
utime: 0
stat: 0
st_size 10 st_atime 1000000000 st_mtime 1000000001
truncate: 0
size after truncate: 4
rmdir: 0
poll empty pipe: 0
writev: 8
poll: 1 revents 1
select: 1 readable 1
readv: 8 abcd efgh
alarm: 0
pause: -1 errno 4 alarms 1
setitimer real: 0
interval timer: alarms 4
setitimer virtual: 0
virtual timer: 1
sigpending: SIGALRM 1 alarms 4
after unblocking: alarms 5
SIGSEGV: caught, longjmp back
waitpid: 1 status 0x300
sysconf CLK_TCK: 100 PAGESIZE: 4096
pathconf NAME_MAX: 255 PIPE_BUF: 10240
done
";

#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn a_program_built_by_sgi_cc_with_sgi_libc_passes_every_check_the_same_on_every_run() {
    // Directories, links, times and truncation (mkdir(2), rmdir(2):
    // "EEXIST The directory contains entries other than those for . and
    // ..", link(2), symlink(2), readlink(2), rename(2), utime(2),
    // truncate(2)); readv(2)/writev(2); poll(2) and select(2) on a pipe;
    // alarm(2) and pause(2) ("pause returns -1 with errno EINTR"), an
    // interval timer on ITIMER_REAL and one on ITIMER_VIRTUAL
    // (getitimer(2)); sigpending(2) of a blocked SIGALRM; a SIGSEGV
    // handler that longjmps; fork(2), exec(2) and waitpid; sysconf and
    // pathconf. Every wait is in virtual time, so two runs agree.
    let root = root();
    let dir = Scratch::new("sgi-libc-calls");
    std::fs::copy(
        repo_path("tests/sgi_cc/libc_calls.c"),
        dir.path().join("libc_calls.c"),
    )
    .unwrap();
    let program = at(&dir, "libc_calls");
    ok(
        sgi(
            &root,
            &dir,
            "usr/bin/cc",
            &["-o", &program, &at(&dir, "libc_calls.c")],
        ),
        "cc",
    );
    let first = ok(sgi(&root, &dir, &program, &[]), "libc_calls");
    assert_eq!(first, LIBC_CALLS);
    assert_eq!(
        ok(sgi(&root, &dir, &program, &[]), "libc_calls again"),
        first
    );
}

/// Compiles two small sources with SGI's cc: a.o (main calls add and mul)
/// and b.o (mul), in `dir`.
fn objects(root: &Path, dir: &Scratch) {
    dir.write(
        "a.c",
        b"int mul(int, int);\nint add(int a, int b) { return a + b; }\n\
          int main(void) { return add(2, mul(3, 4)); }\n",
    );
    dir.write("b.c", b"int mul(int a, int b) { return a * b; }\n");
    for name in ["a", "b"] {
        let (src, obj) = (at(dir, &format!("{name}.c")), at(dir, &format!("{name}.o")));
        ok(
            sgi(root, dir, "usr/bin/cc", &["-c", &src, "-o", &obj]),
            "cc -c",
        );
    }
}

#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn sgi_ar_builds_an_archive_cc_links_against_and_the_stripped_program_still_runs() {
    // usr/bin/ar is the wrapper: it runs argv[0]'s ../lib/ar.
    let root = root();
    let dir = Scratch::new("sgi-ar-wrapper");
    objects(&root, &dir);
    let archive = at(&dir, "libb.a");
    ok(
        sgi(
            &root,
            &dir,
            "usr/bin/ar",
            &["rc", &archive, &at(&dir, "b.o")],
        ),
        "ar rc",
    );
    assert_eq!(
        ok(sgi(&root, &dir, "usr/bin/ar", &["t", &archive]), "ar t"),
        "b.o\n"
    );
    let program = at(&dir, "prog");
    ok(
        sgi(
            &root,
            &dir,
            "usr/bin/cc",
            &[
                "-o",
                &program,
                &at(&dir, "a.o"),
                &format!("-L{}", dir.path().display()),
                "-lb",
            ],
        ),
        "cc -lb",
    );
    assert_eq!(sgi(&root, &dir, &program, &[]).status, exited(14));
    let size = || std::fs::metadata(&program).unwrap().len();
    let before = size();
    ok(sgi(&root, &dir, "usr/bin/strip", &[&program]), "strip");
    assert!(size() < before, "strip made the program smaller");
    assert_eq!(sgi(&root, &dir, &program, &[]).status, exited(14));
}

#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn sgi_nm_size_dis_odump_stdump_and_elfdump_read_the_objects_cc_made() {
    let root = root();
    let dir = Scratch::new("sgi-object-tools");
    objects(&root, &dir);
    let (a, b) = (at(&dir, "a.o"), at(&dir, "b.o"));
    let nm = ok(sgi(&root, &dir, "usr/bin/nm", &[&a]), "nm");
    for name in ["| add", "| main", "| mul"] {
        assert!(nm.contains(name), "nm lists {name}: {nm}");
    }
    let size = ok(sgi(&root, &dir, "usr/bin/size", &[&a]), "size");
    assert!(size.contains(".text"), "{size}");
    let dis = ok(sgi(&root, &dir, "usr/bin/dis", &[&b]), "dis");
    assert!(dis.contains("mul:"), "{dis}");
    assert!(dis.contains("multu\ta0,a1"), "{dis}");
    assert!(dis.contains("jr\tra"), "{dis}");
    let odump = ok(sgi(&root, &dir, "usr/bin/odump", &["-h", &b]), "odump -h");
    assert!(odump.contains(".text"), "{odump}");
    let stdump = ok(sgi(&root, &dir, "usr/bin/stdump", &[&b]), "stdump");
    assert!(stdump.contains("SYMBOLS TABLE"), "{stdump}");
    assert!(stdump.contains("mul"), "{stdump}");
    let elfdump = ok(
        sgi(&root, &dir, "usr/bin/elfdump", &["-h", &b]),
        "elfdump -h",
    );
    assert!(elfdump.contains(".text"), "{elfdump}");
}

#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn sgi_cb_ctrace_makedepend_and_patch_rewrite_sources() {
    let root = root();
    let dir = Scratch::new("sgi-source-tools");
    dir.write("a.c", b"int add(int a, int b) { return a + b; }\n");
    let cb = ok(sgi(&root, &dir, "usr/bin/cb", &[&at(&dir, "a.c")]), "cb");
    assert_eq!(cb, "int add(int a, int b) { \n\treturn a + b; \n}\n");
    let traced = ok(
        sgi(&root, &dir, "usr/bin/ctrace", &[&at(&dir, "a.c")]),
        "ctrace",
    );
    assert!(traced.starts_with("#define CTRACE 1\n"), "{traced}");
    assert!(traced.contains("return a + b;"), "{traced}");

    dir.write("m.c", b"#include \"m.h\"\n");
    dir.write("m.h", b"int x;\n");
    dir.write("Makefile", b"all:\n");
    ok(
        sgi(
            &root,
            &dir,
            "usr/bin/X11/makedepend",
            &["-f", &at(&dir, "Makefile"), &at(&dir, "m.c")],
        ),
        "makedepend",
    );
    let makefile = std::fs::read_to_string(dir.path().join("Makefile")).unwrap();
    assert!(
        makefile.starts_with("all:\n# DO NOT DELETE\n"),
        "{makefile}"
    );
    assert!(makefile.contains("m.o: "), "{makefile}");

    // A context diff: this patch predates unified ones.
    dir.write("p.txt", b"hello\nworld\n");
    dir.write(
        "p.diff",
        b"*** p.txt\n--- p.txt\n***************\n*** 1,2 ****\n  hello\n  world\n\
          --- 1,3 ----\n  hello\n+ there\n  world\n",
    );
    let r = sgi(
        &root,
        &dir,
        "usr/bin/X11/patch",
        &[&at(&dir, "p.txt"), &at(&dir, "p.diff")],
    );
    assert_eq!(r.status, exited(0), "patch: {}", r.stderr);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("p.txt")).unwrap(),
        "hello\nthere\nworld\n"
    );
}

/// A C++ program: classes, a constructor and iostream output.
const HELLO_C: &str = "\
#include <iostream.h>
class Greeter {
public:
    Greeter(const char *w) : who(w) {}
    void greet() const { cout << \"hello, \" << who << endl; }
private:
    const char *who;
};
int main() { Greeter g(\"world\"); g.greet(); return 0; }
";

#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn sgi_cc_for_cplusplus_builds_a_program_that_runs_with_sgi_libc_and_libcpp() {
    // SGI's C++ compiler (IDO C++ 4.0's c++_dev: usr/bin/CC, the driver
    // wrapper, which runs the EDG front end /usr/lib/DCC/edgcpfe, the usual
    // back end, and links against libC), and the program it builds running
    // on SGI's libC.so.1 and libc.so.1 (docs/irix-tools.md says what the
    // root needs). Skipped, visibly, when the root lacks C++.
    let root = root();
    let needs = [
        "usr/bin/CC",
        "usr/lib/DCC/edgcpfe",
        "usr/include/CC/iostream.h",
        "usr/lib/libC.so.1",
    ];
    if let Some(missing) = needs.iter().find(|f| !root.join(f).exists()) {
        assert!(
            std::env::var_os("IRIX_EMU_REQUIRE_TOOLS").is_none(),
            "IRIX_ROOT_53 lacks {missing} (SGI's C++: docs/irix-tools.md)"
        );
        eprintln!("SKIP: IRIX_ROOT_53 lacks {missing} (SGI's C++: docs/irix-tools.md)");
        return;
    }
    let dir = Scratch::new("sgi-cplusplus");
    std::fs::write(dir.path().join("hello.C"), HELLO_C).unwrap();
    let program = at(&dir, "hello");
    ok(
        sgi(
            &root,
            &dir,
            "usr/bin/CC",
            &["-o", &program, &at(&dir, "hello.C")],
        ),
        "CC",
    );
    assert_eq!(
        ok(sgi(&root, &dir, &program, &[]), "hello"),
        "hello, world\n"
    );
}
