//! Processes: fork, pipes, exec, signals, kill and waitsys,
//! deadlock detection, times() of children, and determinism of
//! multi-process runs, on the committed IRIX guest programs.
//!
//! Contents (each test named for the sentence):
//! - a pipe pipeline of three processes produces the right output
//! - a SIGSEGV handler runs and returns; then the default action kills (139)
//! - killing a child is reported through waitsys
//! - no guest can make the emulator hang (proc_deadlock: 125 + message)
//! - two runs of a multi-process guest print identical output and profiles
//! - times() reports a waited-for child's times in cutime/cstime
//! - record locks exclude another process until the owner closes
//!
//! Scheduling is round-robin in pid order with 1,000,000-cycle slices
//! (README "Scheduling"), so the interleaving and every output are fixed.

use crate::common;

use common::{
    emu, exit, exited, field, guest, lines_with, Run, Scratch, Status, KILLED_BY_SIGSEGV,
};

/// `irix-emu run PROGRAM` from the repository root.
fn run(program: &str) -> Run {
    emu(&["run", &guest(program)])
}

#[test]
fn a_pipe_pipeline_of_three_processes_produces_the_right_output() {
    // producer writes 1..1000, the filter keeps multiples of 3 and squares
    // them, the consumer sums until EOF: 333 values, 9 x sum(k^2, k=1..333).
    let sum: u64 = (1..=333u64).map(|k| 9 * k * k).sum();
    assert_eq!(sum, 111_277_611);
    let r = run("proc_pipeline");
    assert_eq!(r.status, Status::Code(0), "stderr: {}", r.stderr);
    assert_eq!(r.stderr, "");
    assert_eq!(
        r.stdout_text(),
        format!(
            "consumer: 333 values, sum {sum}
parent: producer exited 0, filter exited 0, consumer exited 0
parent: expected 333 values, sum {sum}
"
        )
    );
}

#[test]
fn a_sigsegv_handler_runs_and_returns_then_the_default_action_kills() {
    // Part 1: the handler edits sc_pc past the faulting store and returns
    // through sigreturn; part 2: it leaves by siglongjmp (mask restored);
    // part 3: SIG_DFL, so the third fault kills the process: 128 + 11.
    let program = guest("proc_sigsegv_handler");
    let r = run("proc_sigsegv_handler");
    assert_eq!(
        r.stdout_text(),
        "part 1: faulting store at the label fault_store
handler: signal 11 (SIGSEGV), sc_pc at the faulting store: yes
part 1: resumed after the store, handler ran 1 time
part 2: faulting again
handler: signal 11, leaving by siglongjmp
part 2: recovered by siglongjmp, SIGSEGV blocked: no
part 3: default action, faulting once more
"
    );
    assert_eq!(r.status, Status::Code(KILLED_BY_SIGSEGV));
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{}", r.stderr);
    let prefix = format!("irix-emu: {program}: killed by SIGSEGV at pc 0x");
    assert!(lines[0].starts_with(&prefix), "{}", lines[0]);
    assert!(lines[0].ends_with(" (address 0x00000000)"), "{}", lines[0]);
}

#[test]
fn killing_a_child_is_reported_through_waitsys() {
    // waitsys's siginfo (CLD_KILLED + signal, CLD_EXITED + status) as libc's
    // waitpid status word; kill of a reaped child is ESRCH.
    let r = run("proc_kill_child");
    assert_eq!(r.status, Status::Code(0), "stderr: {}", r.stderr);
    assert_eq!(r.stderr, "");
    assert_eq!(
        r.stdout_text(),
        "kill SIGKILL: 0
child 1: killed by signal 9 (SIGKILL)
kill SIGTERM: 0
child 2: killed by signal 15 (SIGTERM)
child 3: exited with status 7
kill exited child: -1 ESRCH
"
    );
}

#[test]
fn no_guest_can_make_the_emulator_hang() {
    // proc_deadlock: parent and child each block reading a pipe only the
    // other could write. irix-emu must notice that no process can run and
    // stop with 125 (README: "a deadlock of guest processes") and one line.
    // (common::run_command's time limit turns a hang into a failure.)
    let program = guest("proc_deadlock");
    let r = run("proc_deadlock");
    assert_eq!(r.status, exited(exit::EMULATOR_FAILURE));
    assert_eq!(
        r.stdout_text(),
        "proc_deadlock: parent and child will both block reading pipes nobody writes\n"
    );
    assert_eq!(
        r.stderr,
        format!(
            "irix-emu: {program}: deadlock: every remaining process is blocked and none can wake the others\n"
        )
    );
}

#[test]
fn two_runs_of_a_multi_process_guest_print_identical_output_and_identical_profiles() {
    for program in [
        "proc_fork_profil",
        "proc_pcsample_fork",
        "proc_pipeline",
        "proc_kill_child",
        "proc_times_child",
    ] {
        let (a, b) = (run(program), run(program));
        assert_eq!(a.status, Status::Code(0), "{program}: {}", a.stderr);
        assert_eq!(a.stdout, b.stdout, "{program}: stdout");
        assert_eq!(a.stderr, b.stderr, "{program}: stderr");
    }
    // The outside profile of a forking guest, twice.
    let dir = Scratch::new("proc-prof-twice");
    let outs = [dir.file("a.out"), dir.file("b.out")];
    let mut printed = Vec::new();
    for out in &outs {
        let r = emu(&["prof", "-o", out, &guest("proc_fork_profil")]);
        assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
        printed.push(r.stdout);
    }
    assert_eq!(printed[0], printed[1]);
    let (a, b) = (
        std::fs::read(&outs[0]).unwrap(),
        std::fs::read(&outs[1]).unwrap(),
    );
    assert!(!a.is_empty());
    assert_eq!(a, b, "gmon.out of two runs");
}

#[test]
fn times_reports_a_waited_for_child_in_cutime_and_cstime() {
    // SVR4 times(2): tms_cutime/tms_cstime are the user/system times of the
    // waited-for children. proc_times_child's child: hot_a for 3,000,000 x 17
    // cycles = 51 ticks of user time; 2,000 getpid() at 500 cycles of system
    // time each (README "Virtual time") = 1,000,000 cycles = 1 tick. Before
    // waitpid the parent's children's times are 0; after, they are the
    // child's own figures (or one more tick: the child's printf and exit
    // come after its times()).
    let r = run("proc_times_child");
    assert_eq!(r.status, Status::Code(0), "stderr: {}", r.stderr);
    let out = r.stdout_text();
    assert_eq!(
        out,
        "parent before wait: cutime 0 cstime 0
child: utime 51 stime 1
parent: child exited with status 0
parent after wait: cutime 51 cstime 1
"
    );
    let child = lines_with(&out, "child: ")[0];
    let after = lines_with(&out, "parent after wait: ")[0];
    let (u, s) = (field(child, "utime "), field(child, "stime "));
    assert!(
        (u..=u + 1).contains(&field(after, "cutime ")),
        "{child} / {after}"
    );
    assert!(
        (s..=s + 1).contains(&field(after, "cstime ")),
        "{child} / {after}"
    );
}

#[test]
fn sproc_members_share_the_address_space_and_the_profiling_buffer() {
    // sprofil(2): "remains on in both child and parent processes after a
    // fork(2) or a sproc(2)". The member shares the parent's address space,
    // so its global is visible to the parent and both processes' ticks land
    // in the one buffer: hot_a's (parent, 3,000,000 x 17 cycles = 51 ticks)
    // and hot_b's (member, 3,000,000 x 11 cycles = 33 ticks). The member's
    // entry returns 7, which the kernel's exit stub makes its status.
    let r = run("proc_sproc");
    assert_eq!(r.status, Status::Code(0), "stderr: {}", r.stderr);
    assert_eq!(
        r.stdout_text(),
        "proc_sproc: profil 0
member: running hot_b
parent: member exited with status 7
parent: member's value seen through the shared address space: yes
parent: ticks hot_a 51 hot_b 33 other 0
"
    );
}

#[test]
fn a_stopped_process_takes_no_cpu_until_sigcont() {
    // The default actions include stop: the child's SIGSTOP to itself takes
    // it off the CPU, so its "resumed" line can only follow the parent's
    // SIGCONT (were the stop ignored, the child would print first).
    let r = run("proc_stop_cont");
    assert_eq!(r.status, Status::Code(0), "stderr: {}", r.stderr);
    assert_eq!(
        r.stdout_text(),
        "parent: child has sent itself SIGSTOP; sending SIGCONT
child: resumed after SIGCONT
parent: child exited with status 5
"
    );
}

#[test]
fn record_locks_exclude_another_process_until_the_owner_closes() {
    // proc_locks (guest/src/proc_locks.c): F_ALLOCSP/F_FREESP size its
    // file; the parent's write lock on bytes 0-9 stops its child (F_GETLK
    // names it, F_SETLK is EAGAIN) until the parent closes the file, which
    // ends the child's F_SETLKW wait.
    let Some(program) = common::guest_program("irix", "proc_locks") else {
        return;
    };
    let dir = common::Scratch::new("proc-locks");
    let r = common::run_emu(["run".as_ref(), program.as_os_str()], dir.path());
    assert_eq!(r.status, Status::Code(0), "stderr: {}", r.stderr);
    assert_eq!(
        r.stdout_text(),
        "allocsp to 97568: 0
size 97568
allocsp shorter: 0
size 97568
freesp from 4096: 0
size 4096
parent write lock 0-9: 0
parent bad type: -1 EINVAL
parent negative length: -1 EINVAL
lock on a pipe: -1 EINVAL
child getlk: 0
child getlk: type 2 start 0 len 10 pid is parent 1
child write lock 5: -1 EAGAIN
child read lock 10-: 0
child getlk own lock: type 3
parent read lock 10: 0
parent write lock 10: -1 EAGAIN
parent unlocks 0-9 by closing: 0
child waits for 0-9: 0
child exit 0
unlink: 0
"
    );
    assert!(dir.names().is_empty(), "{:?}", dir.names());
}
