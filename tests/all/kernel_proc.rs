//! Processes and identity, by the IRIX 5.3 pages: setuid(2), setreuid(2),
//! getgroups(2), setgroups(2), the process-group calls (setsid(2),
//! setpgid(2), getsid(2), getpgid(2)), nice(2), getpriority(2), uname(2),
//! waitsys's stopped and continued children (wait(2)) and getrlimit(2)'s
//! limits, on the committed guest programs id_calls, proc_wait_stopped and
//! proc_limits, and exec(2)'s interpreter files on proc_exec_script
//! (guest/src). Each test is named after the sentence it
//! holds the kernel to, quoted in it.

use crate::common;

use common::{exited, repo_path, run_emu, Scratch, Status};

/// `guest/bin/irix/NAME` as an absolute path (the runs start in a scratch
/// directory, where the programs write their files).
fn guest(name: &str) -> String {
    repo_path(&format!("guest/bin/irix/{name}"))
        .display()
        .to_string()
}

fn run_in(dir: &Scratch, program: &str) -> common::Run {
    run_emu(["run", &guest(program)], dir.path())
}

/// The lines of `text` that start with one of `prefixes`, in order.
fn pick<'a>(text: &'a str, prefixes: &[&str]) -> Vec<&'a str> {
    text.lines()
        .filter(|l| prefixes.iter().any(|p| l.starts_with(p)))
        .collect()
}

fn id_calls() -> String {
    let dir = Scratch::new("id-calls");
    let r = run_in(&dir, "id_calls");
    assert_eq!(r.status, exited(0), "stderr: {}", r.stderr);
    assert_eq!(r.stderr, "");
    r.stdout_text()
}

#[test]
fn setuid_sets_the_effective_id_only_to_the_real_or_saved_one_without_privilege() {
    // setuid(2): "If the calling process does not have the super-user
    // privilege, but uid is either the real user ID or the saved user ID
    // of the calling process, the effective user ID is set to uid";
    // otherwise EPERM, and "EINVAL The uid or gid is out of range."
    // setreuid(2): "Unprivileged users may change the real user ID to the
    // effective user ID and vice-versa; only the super-user may make other
    // changes."
    let out = id_calls();
    assert_eq!(
        pick(&out, &["setuid", "setgid", "setreuid", "getuid"]),
        [
            "setuid(100): 0",
            "setuid(0): EPERM",
            "setuid(-5): EINVAL",
            "setgid(100): 0",
            "setgid(0): EPERM",
            "setreuid(-1, 100): 0",
            "setreuid(0, -1): EPERM",
            "getuid: 100",
        ]
    );
}

#[test]
fn getgroups_with_setlen_zero_counts_and_only_the_super_user_may_set_groups() {
    // getgroups(2): "if the setlen parameter is zero, getgroups returns the
    // number of supplemental group IDs ... [EFAULT] The argument gidset
    // specifies an invalid address." setgroups(2): "[EPERM] The caller is
    // not the super-user", "[EINVAL] The ngroups parameter is greater than
    // NGROUPS".
    let out = id_calls();
    assert_eq!(
        pick(&out, &["getgroups", "group[", "setgroups"]),
        [
            "getgroups(0): 1",
            "getgroups(4): 1",
            "group[0] = 100",
            "getgroups(4, bad pointer): EFAULT",
            "setgroups(1): EPERM",
            "setgroups(-1): EINVAL",
        ]
    );
}

#[test]
fn setsid_fails_for_a_process_group_leader_and_makes_others_lead_a_session() {
    // setsid(2): "EPERM The calling process is already a process group
    // leader"; otherwise "setsid sets the process group ID and session ID
    // of the calling process to the process ID of the calling process".
    // setpgid(2): "ESRCH pid does not match the process ID of the calling
    // process or of a child process", "EINVAL pgid is less than (pid_t) 0";
    // getpgid(2) and getsid(2): "ESRCH There is no process with a process
    // ID equal to pid".
    let out = id_calls();
    assert_eq!(
        pick(
            &out,
            &["getpgrp", "getpgid", "getsid", "setsid", "setpgid", "child"]
        ),
        [
            "getpgrp is the pid: 1",
            "getpgid(0) is the pid: 1",
            "getpgid(99999): ESRCH",
            "getsid(99999): ESRCH",
            "setsid as group leader: EPERM",
            "setpgid(99999, 0): ESRCH",
            "setpgid(0, -1): EINVAL",
            "setpgid(child, child): 0",
            "getpgid(child) is the child: 1",
            "child: getpgrp is its pid: 1",
            "child: setsid as a group leader: EPERM",
            "setpgid(child) after it exited: ESRCH",
            "child 2: in the parent's group: 1",
            "child 2: setsid gives its pid: 1",
            "child 2: getsid(0) and getpgrp are its pid: 1",
            "setpgid(exec'd or gone child): ESRCH",
        ]
    );
}

#[test]
fn nice_returns_the_new_nice_value_minus_20_and_only_the_super_user_lowers_it() {
    // nice(2): "Upon successful completion, nice returns the new nice value
    // minus 20"; "A maximum nice value of 40 ... Requests for values above
    // or below these limits result in the nice value being set to the
    // corresponding limit"; "EPERM nice fails ... if incr is negative or
    // greater than 40". getpriority(2): "Only the super-user may lower
    // priorities" ([EACCES]); "[ESRCH] No process was located".
    let out = id_calls();
    assert_eq!(
        pick(&out, &["nice", "getpriority", "setpriority"]),
        [
            "nice(5): 5",
            "nice(-1): EPERM",
            "nice(100): EPERM",
            "nice(30): 20",
            "getpriority(PRIO_PROCESS, 0): 20",
            "setpriority(PRIO_PROCESS, 0, 10): EACCES",
            "setpriority(PRIO_PROCESS, 0, 19): EACCES",
            "getpriority(PRIO_PROCESS, 0): 20",
            "getpriority(PRIO_PROCESS, 99999): ESRCH",
        ]
    );
}

#[test]
fn uname_has_its_own_number_and_faults_on_a_bad_buffer() {
    // uname(2) stores the system's names in the structure it is given;
    // a bad pointer is EFAULT.
    let out = id_calls();
    assert_eq!(
        pick(&out, &["uname", "sysname"]),
        [
            "uname: 0",
            "sysname IRIX release 5.3 machine IP20",
            "uname(bad pointer): EFAULT",
        ]
    );
}

#[test]
fn waitsys_reports_a_stopped_and_a_continued_child_once_each() {
    // wait(2) (waitid): WSTOPPED waits for "any child that has stopped upon
    // receipt of a signal", WCONTINUED for "any child that was stopped and
    // has been continued"; P_PGID selects "any child with a process group
    // ID equal to id".
    let dir = Scratch::new("wait-stopped");
    let r = run_in(&dir, "proc_wait_stopped");
    assert_eq!(r.status, exited(0), "stderr: {}", r.stderr);
    assert_eq!(
        r.stdout_text(),
        "WSTOPPED: code 5 status 23 child named
WSTOPPED again (reported once): code 0 status 0 child none
WCONTINUED: code 6 status 25 child named
WEXITED: code 1 status 7 child named
waitpid(0) with the only child in another group: ECHILD
P_PGID of its group, before it exits: code 0 status 0 child none
P_PGID of its group: code 1 status 3 child named
"
    );
}

#[test]
fn resource_limits_are_enforced_as_getrlimit_describes() {
    // getrlimit(2): RLIMIT_NOFILE: "Functions that attempt to create new
    // file descriptors beyond this limit will fail with errno set to
    // EMFILE." RLIMIT_FSIZE: "A process which attempts to exceed this limit
    // will fail with ... SIGXFSZ. If the process is holding or ignoring
    // SIGXFSZ, continued attempts ... will fail with errno set to EFBIG."
    // RLIMIT_DATA: "A brk(2) which attempts to exceed this limit will fail
    // with errno set to ENOMEM." RLIMIT_CPU: "SIGXCPU is sent to a process
    // which exceeds this limit" (then each second; SIGKILL at the hard
    // limit). "[EINVAL] ... the new rlim_cur exceeds the new rlim_max.
    // [EPERM] if the limit specified to setrlimit would have raised the
    // maximum limit value and the caller is not the super-user."
    let dir = Scratch::new("limits");
    let r = run_in(&dir, "proc_limits");
    assert_eq!(r.status, Status::Code(128 + 9), "stderr: {}", r.stderr);
    assert!(r.stderr.ends_with("killed by SIGKILL\n"), "{}", r.stderr);
    assert_eq!(
        r.stdout_text(),
        "getrlimit(NOFILE): 0
NOFILE 200 200
getrlimit(FSIZE): 0
FSIZE 7fffffff 7fffffff
getrlimit(99): EINVAL
getrlimit(bad pointer): EFAULT
setrlimit(NOFILE, 6, 100): 0
opened up to descriptor 5, then EMFILE
setrlimit(NOFILE) above the hard limit: EPERM
setrlimit(NOFILE) soft above hard: EINVAL
setrlimit(NOFILE, 100, 100): 0
open now: 0
setrlimit(FSIZE, 10): 0
write 6: 6
write 6 across the limit: 4
write at the limit: EFBIG
SIGXFSZ caught 1 time(s)
write at the limit, SIGXFSZ ignored: EFBIG
SIGXFSZ caught 1 time(s)
setrlimit(DATA, 64 KiB): 0
sbrk(32 KiB) succeeded
sbrk(64 KiB) ENOMEM
getrlimit64(FSIZE): 0
FSIZE64 10 7fffffffffffffff
setrlimit64(CPU, 1, 3): 0
SIGXCPU twice (at 1 s and 2 s of CPU time)
"
    );
    assert_eq!(
        std::fs::read(dir.path().join("limits.out")).unwrap(),
        b"abcdefghij"
    );
}

#[test]
fn the_cpu_limit_kills_at_the_same_cycle_on_every_run() {
    // RLIMIT_CPU counts virtual time: the hard limit's SIGKILL falls at
    // the same instruction every run, so --stats' user cycles agree.
    let cycles = |name: &str| {
        let dir = Scratch::new(name);
        let r = run_emu(["run", "--stats", &guest("proc_limits")], dir.path());
        common::user_cycles(&r.stderr)
    };
    let (a, b) = (cycles("limits-a"), cycles("limits-b"));
    assert_eq!(a, b);
    // 3 s at 100 MHz, less the system time charged for the calls.
    assert!(a > 290_000_000 && a <= 300_000_000, "{a}");
}

/// Runs proc_exec_script from inside a scratch root (its cwd), so its
/// argv[0] is the guest path it writes into its interpreter files.
fn exec_script() -> (common::Run, Vec<String>) {
    let dir = Scratch::new("exec-script");
    let program = dir.path().join("proc_exec_script");
    std::fs::copy(guest("proc_exec_script"), &program).unwrap();
    let root = dir.path().display().to_string();
    let r = run_emu(
        ["run", "--root", &root, &program.display().to_string()],
        dir.path(),
    );
    (r, dir.names())
}

#[test]
fn an_interpreter_file_runs_its_interpreter_with_pathname_arg_then_the_callers_arguments() {
    // exec(2): "An interpreter file begins with a line of the form
    // #! pathname [arg] ... The pathname specified in the interpreter file
    // is passed as arg0 to the interpreter. If arg was specified in the
    // interpreter file, it is passed as arg1 to the interpreter. The
    // remaining arguments to the interpreter are arg0 through argn of the
    // originally exec'd file", the file's own path standing for its arg0;
    // "Any tabs in arg are converted to spaces."
    let (r, left) = exec_script();
    assert_eq!(r.status, exited(0), "stderr: {}", r.stderr);
    assert_eq!(
        r.stdout_text(),
        "\
interp: argv[0] = /proc_exec_script
interp: argv[1] = -a b
interp: argv[2] = ./s_arg
interp: argv[3] = one
interp: argv[4] = two
with_arg: exit 7
interp: argv[0] = /proc_exec_script
interp: argv[1] = s_bare
interp: argv[2] = one
interp: argv[3] = two
bare: exit 7
long_line: execve E2BIG
not_executable: execve EACCES
missing_interpreter: execve ENOENT
nested: execve ENOEXEC
no_pathname: execve ENOEXEC
done
"
    );
    // "E2BIG The number of bytes in the first line of an interpreter file
    // is greater than 256 bytes"; "EACCES Execute permission on the new
    // process file is denied"; it removed every file it made.
    assert_eq!(left, ["proc_exec_script"]);
}
