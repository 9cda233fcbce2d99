//! The IRIX system calls no other guest program uses, each called by
//! guest/src/sys_calls.c through libc's indirect syscall(nr, ...) (IRIX
//! 1000), so the indirect path is covered too. The program runs once, in
//! an empty scratch directory; each test below checks the lines of one
//! call ("name: value" or "name: -1 ERRNO").

use crate::common;

use std::sync::OnceLock;

use common::{guest_program, run_emu, Run, Scratch, Status};

/// The one run of sys_calls, and what it left in its directory.
struct Outcome {
    run: Run,
    stdout: String,
    left_behind: Vec<String>,
}

/// Runs guest/bin/irix/sys_calls once for all the tests (None: not built,
/// skipped).
fn outcome() -> Option<&'static Outcome> {
    static OUTCOME: OnceLock<Option<Outcome>> = OnceLock::new();
    OUTCOME
        .get_or_init(|| {
            let program = guest_program("irix", "sys_calls")?;
            let dir = Scratch::new("syscalls");
            let run = run_emu(["run".as_ref(), program.as_os_str()], dir.path());
            let stdout = run.stdout_text();
            Some(Outcome {
                run,
                stdout,
                left_behind: dir.names(),
            })
        })
        .as_ref()
}

/// Asserts that the lines sys_calls printed for `call` (those starting
/// "`call` " or "`call`:") are `want`, in that order.
fn check(call: &str, want: &[&str]) {
    let Some(o) = outcome() else {
        return;
    };
    let got: Vec<&str> = o
        .stdout
        .lines()
        .filter(|l| l.starts_with(&format!("{call}:")) || l.starts_with(&format!("{call} ")))
        .collect();
    assert_eq!(got, want, "stderr: {}", o.run.stderr);
}

#[test]
fn the_program_exits_0_printing_every_line_in_order() {
    let Some(o) = outcome() else {
        return;
    };
    assert_eq!(o.run.status, Status::Code(0), "stderr: {}", o.run.stderr);
    assert_eq!(o.stdout, EXPECTED);
}

#[test]
fn the_program_removes_what_it_created() {
    let Some(o) = outcome() else {
        return;
    };
    assert_eq!(o.left_behind, Vec::<String>::new());
}

#[test]
fn link_adds_a_name_and_refuses_an_existing_one() {
    check("link", &["link: 0", "link existing: -1 EEXIST"]);
}

#[test]
fn access_checks_modes_and_reports_a_missing_file() {
    check(
        "access",
        &["access R_OK|W_OK: 0", "access missing: -1 ENOENT"],
    );
}

#[test]
fn lxstat_fills_the_stat_and_refuses_an_unknown_version() {
    check(
        "lxstat",
        &["lxstat: 0, nlink 2, size 10", "lxstat version 4: -1 EINVAL"],
    );
}

#[test]
fn lseek64_returns_the_high_word() {
    check("lseek64", &["lseek64 hi: 0"]);
}

#[test]
fn dup_returns_the_lowest_free_descriptor() {
    check("dup", &["dup: 4"]);
}

#[test]
fn fcntl_reads_flags_duplicates_and_sets_close_on_exec() {
    check(
        "fcntl",
        &[
            "fcntl F_GETFL: 2",
            "fcntl F_DUPFD 10: 10",
            "fcntl F_SETFD: 0",
            "fcntl F_GETFD: 1",
        ],
    );
}

#[test]
fn ioctl_tcgeta_on_a_file_is_enotty() {
    check("ioctl", &["ioctl TCGETA on a file: -1 ENOTTY"]);
}

#[test]
fn umask_returns_the_old_mask() {
    // In decimal: 022 = 18, 027 = 23.
    check("umask", &["umask: 18", "umask again: 23"]);
}

#[test]
fn chdir_moves_and_reports_a_missing_directory() {
    check(
        "chdir",
        &["chdir missing: -1 ENOENT", "chdir ..: 0", "chdir back: 0"],
    );
}

#[test]
fn getuid_is_the_fixed_identity() {
    check("getuid", &["getuid: 100"]);
}

#[test]
fn getgid_is_the_fixed_identity() {
    check("getgid", &["getgid: 100"]);
}

/// getdtablehi(3): syssgi(SGI_FDHI) is the highest open descriptor plus
/// one (the F_DUPFD copy at 10 is the highest open then).
#[test]
fn syssgi_fdhi_is_the_highest_open_descriptor_plus_one() {
    check("fdhi", &["fdhi: 11"]);
}

#[test]
fn syssgi_sysconf_answers_clk_tck_pagesize_and_open_max() {
    check(
        "sysconf",
        &[
            "sysconf CLK_TCK: 100",
            "sysconf PAGESIZE: 4096",
            "sysconf OPEN_MAX: 200",
        ],
    );
}

#[test]
fn getpagesize_is_4096() {
    check("getpagesize", &["getpagesize: 4096"]);
}

#[test]
fn ulimit_reports_the_file_size_and_descriptor_limits() {
    check(
        "ulimit",
        &["ulimit GETFSIZE: 2147483647", "ulimit GDESLIM: 200"],
    );
}

#[test]
fn utssys_uname_names_the_irix_release() {
    check(
        "uname",
        &["uname: 0", "uname: IRIX irix-emu 5.3 11091812 IP20"],
    );
}

#[test]
fn gethostid_is_the_sysid_and_the_machine_belongs_to_no_domain() {
    // gethostid: the low 32 bits of the identifier SGI_SYSID gives;
    // getdomainname: the empty name of a machine in no NIS domain,
    // NUL-terminated; EFAULT for a bad buffer.
    check("gethostid", &["gethostid: 1"]);
    check(
        "getdomainname",
        &[
            "getdomainname: 0",
            "getdomainname: \"\"",
            "getdomainname bad buffer: -1 EFAULT",
        ],
    );
}

#[test]
fn time_starts_at_the_default_epoch() {
    // 1996-01-01 00:00:00 UTC.
    check("time", &["time: 820454400"]);
}

#[test]
fn nanosleep_sleeps_and_refuses_a_bad_nanosecond_count() {
    check(
        "nanosleep",
        &[
            "nanosleep 1.5 s: 0",
            "nanosleep 2^31-1 s: 0",
            "nanosleep tv_nsec 1e9: -1 EINVAL",
        ],
    );
}

#[test]
fn sginap_sleeps_whole_ticks() {
    check("sginap", &["sginap 100 ticks: 0"]);
}

#[test]
fn gettimeofday_advances_with_virtual_sleep() {
    // nanosleep 1.5 s + sginap 100 ticks (1 s): 2 whole seconds.
    check("gettimeofday", &["gettimeofday: slept 2 s"]);
}

#[test]
fn times_counts_no_time_for_a_program_that_sleeps() {
    check("times", &["times: utime 0 stime 0"]);
}

#[test]
fn mmap_maps_anonymous_memory_and_private_and_shared_files() {
    check(
        "mmap",
        &[
            "mmap anonymous: ok",
            "mmap: read back x, zero-filled 0",
            "mmap private file: 0123456789",
            "mmap shared file: 0123456789",
        ],
    );
}

#[test]
fn mprotect_makes_a_mapping_read_only() {
    check("mprotect", &["mprotect read-only: 0"]);
}

#[test]
fn munmap_removes_a_mapping() {
    check("munmap", &["munmap: 0"]);
}

#[test]
fn an_unknown_system_call_is_enosys_with_one_warning() {
    check("unknown syscall", &["unknown syscall 1999: -1 ENOSYS"]);
    let Some(o) = outcome() else {
        return;
    };
    let warnings = o.run.stderr_lines();
    assert_eq!(warnings.len(), 1, "{}", o.run.stderr);
    assert!(
        warnings[0].contains(": unimplemented system call 1999 at pc 0x"),
        "{}",
        o.run.stderr
    );
}

#[test]
fn wait_returns_the_pid_and_status_word_then_echild() {
    // The old SVR4 wait: v0 = pid, v1 = status word.
    check(
        "wait",
        &[
            "wait: the child's pid yes, status 0x900",
            "wait without children: -1 ECHILD",
        ],
    );
}

const EXPECTED: &str = "\
link: 0
link existing: -1 EEXIST
access R_OK|W_OK: 0
access missing: -1 ENOENT
lxstat: 0, nlink 2, size 10
lxstat version 4: -1 EINVAL
lseek64 hi: 0
dup: 4
fcntl F_GETFL: 2
fcntl F_DUPFD 10: 10
fcntl F_SETFD: 0
fcntl F_GETFD: 1
ioctl TCGETA on a file: -1 ENOTTY
umask: 18
umask again: 23
chdir missing: -1 ENOENT
chdir ..: 0
chdir back: 0
getuid: 100
getgid: 100
sysconf CLK_TCK: 100
sysconf PAGESIZE: 4096
sysconf OPEN_MAX: 200
fdhi: 11
getpagesize: 4096
ulimit GETFSIZE: 2147483647
ulimit GDESLIM: 200
uname: 0
uname: IRIX irix-emu 5.3 11091812 IP20
gethostid: 1
getdomainname: 0
getdomainname: \"\"
getdomainname bad buffer: -1 EFAULT
time: 820454400
nanosleep 1.5 s: 0
sginap 100 ticks: 0
gettimeofday: slept 2 s
times: utime 0 stime 0
mmap anonymous: ok
mmap: read back x, zero-filled 0
mprotect read-only: 0
munmap: 0
mmap private file: 0123456789
mmap shared file: 0123456789
unknown syscall 1999: -1 ENOSYS
wait: the child's pid yes, status 0x900
wait without children: -1 ECHILD
nanosleep 2^31-1 s: 0
nanosleep tv_nsec 1e9: -1 EINVAL
";

/// guest/src/times_calls.c, run once.
fn times_calls() -> Option<&'static Run> {
    static RUN: OnceLock<Option<Run>> = OnceLock::new();
    RUN.get_or_init(|| common::run_guest("times_calls"))
        .as_ref()
}

#[test]
fn times_returns_the_elapsed_real_time_in_ticks_from_a_point_that_does_not_change() {
    // times(2) DIAGNOSTICS: "Upon successful completion, times returns the
    // elapsed real time, in clock ticks, from an arbitrary point in the
    // past ... This point does not change from one invocation of times to
    // another." Two calls around sginap(10) differ by the 10 ticks slept
    // (on the virtual clock the calls themselves take microseconds); the
    // process's own times do not grow while it sleeps; "times fails if:
    // EFAULT buffer points to an illegal address" with -1.
    let Some(run) = times_calls() else {
        return;
    };
    assert_eq!(run.status, Status::Code(0), "stderr: {}", run.stderr);
    assert_eq!(
        run.stdout_text(),
        "elapsed ticks across sginap(10): 10\n\
         user and system ticks while asleep: 0 0\n\
         times bad buffer: -1 EFAULT\n\
         the point does not move: 1\n\
         children: 0 0\n"
    );
}
