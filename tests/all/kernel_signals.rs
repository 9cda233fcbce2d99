//! The signal and timer calls: alarm, pause, sigsuspend, sigpending,
//! sigstack, sigaltstack, sigsend/sigsendset, getitimer/setitimer and the sleeps a
//! signal interrupts, as guest/src/sig_calls.c, sig_timers.c and sig_stack.c make them.
//! Every wait and timer runs on virtual time, so each program's output is
//! the same on every run: the timer program runs twice and both runs are
//! compared byte for byte. Each test is named after the man-page sentence
//! it checks.

use crate::common;

use std::sync::OnceLock;

use common::{lines, run_guest, Run, Status};

fn sig_calls() -> Option<&'static Run> {
    static RUN: OnceLock<Option<Run>> = OnceLock::new();
    RUN.get_or_init(|| run_guest("sig_calls")).as_ref()
}

/// sig_timers, run twice.
fn sig_timers() -> Option<&'static (Run, Run)> {
    static RUNS: OnceLock<Option<(Run, Run)>> = OnceLock::new();
    RUNS.get_or_init(|| Some((run_guest("sig_timers")?, run_guest("sig_timers")?)))
        .as_ref()
}

fn check(run: Option<&Run>, prefixes: &[&str], want: &[&str]) {
    let Some(run) = run else {
        return;
    };
    let text = run.stdout_text();
    assert_eq!(lines(&text, prefixes), want, "stderr: {}", run.stderr);
}

fn timers(prefixes: &[&str], want: &[&str]) {
    check(sig_timers().map(|r| &r.0), prefixes, want);
}

fn calls(prefixes: &[&str], want: &[&str]) {
    check(sig_calls(), prefixes, want);
}

#[test]
fn sig_calls_exits_0_printing_every_line_in_order() {
    let Some(run) = sig_calls() else {
        return;
    };
    assert_eq!(run.status, Status::Code(0), "stderr: {}", run.stderr);
    assert_eq!(run.stdout_text(), SIG_CALLS);
}

#[test]
fn sig_timers_prints_the_same_bytes_on_every_run_and_dies_of_its_last_alarm() {
    let Some((a, b)) = sig_timers() else {
        return;
    };
    assert_eq!(a.stdout, b.stdout);
    assert_eq!(a.stderr, b.stderr);
    assert_eq!(a.stdout_text(), SIG_TIMERS);
    // An alarm whose SIGALRM is not caught terminates the process.
    assert_eq!(a.status, Status::Code(128 + 14), "stderr: {}", a.stderr);
    assert!(
        a.stderr.contains("killed by SIGALRM"),
        "stderr: {}",
        a.stderr
    );
}

#[test]
fn pause_returns_minus_1_eintr_after_the_signal_catching_function() {
    // pause(2): "If the signal is caught by the calling process and control
    // is returned from the signal-catching function ... with a return
    // value of -1 from pause and errno set to EINTR"; alarm(2): SIGALRM
    // "after the number of real time seconds specified by sec".
    timers(
        &["alarm 1", "pause", "pause woke"],
        &[
            "alarm 1: 0",
            "pause: -1 EINTR",
            "pause woke after 1000 ms, SIGALRM caught 1",
        ],
    );
    calls(
        &["pause until", "SIGUSR1 caught 1"],
        &[
            "pause until the child's SIGUSR1: -1 EINTR",
            "SIGUSR1 caught 1",
        ],
    );
}

#[test]
fn alarm_returns_the_time_previously_remaining_and_successive_calls_reset_it() {
    // alarm(2): "alarm returns the amount of time previously remaining";
    // "Alarm requests are not stacked; successive calls reset the alarm
    // clock"; "alarm calls reset the itimer clock".
    timers(
        &[
            "alarm 0",
            "alarm 2",
            "the second",
            "getitimer REAL after",
            "it_value 2",
        ],
        &[
            "alarm 0 after 1 s of 5: 4",
            "alarm 2 replacing 10: 10",
            "the second alarm came after 2000 ms",
            "getitimer REAL after alarm 3: 0",
            "it_value 2.999948 it_interval 0.000000",
        ],
    );
}

#[test]
fn fork_sets_the_alarm_clock_of_a_new_process_to_0() {
    timers(&["child's alarm"], &["child's alarm clock: 0"]);
}

#[test]
fn it_interval_reloads_it_value_and_setting_it_value_to_0_disables_a_timer() {
    // getitimer(2): "If it_interval is non-zero, it specifies a value to be
    // used in reloading it_value when the timer expires. Setting it_value
    // to 0 disables a timer."
    timers(
        &[
            "ITIMER_REAL",
            "setitimer 0",
            "old it_interval",
            "getitimer disarmed",
            "it_value 0.",
        ],
        &[
            "ITIMER_REAL 100 ms x5 after 500 ms",
            "setitimer 0 disarms: 0",
            "old it_interval 0.100000",
            "getitimer disarmed: 0",
            "it_value 0.000000",
        ],
    );
}

#[test]
fn time_values_that_are_not_a_multiple_of_1_hz_are_rounded_up() {
    timers(&["15.001 ms"], &["15.001 ms interval reads 0.020000"]);
}

#[test]
fn bad_timers_and_times_are_einval_and_bad_addresses_efault() {
    // "[EFAULT] The value or ovalue structure specified a bad address";
    // "[EINVAL] A value structure specified a time was too large".
    timers(
        &[
            "setitimer usec",
            "setitimer which",
            "getitimer which",
            "setitimer bad",
            "getitimer bad",
        ],
        &[
            "setitimer usec 1000000: -1 EINVAL",
            "setitimer which 3: -1 EINVAL",
            "getitimer which -1: -1 EINVAL",
            "setitimer bad value: -1 EFAULT",
            "getitimer bad value: -1 EFAULT",
        ],
    );
}

#[test]
fn itimer_virtual_runs_only_when_the_process_is_executing() {
    // "The ITIMER_VIRTUAL timer decrements in process virtual time. It
    // runs only when the process is executing": 20 expiries of 10 ms are
    // 20 of the user ticks times() counts (the profiling clock's ticks),
    // and a sleep sends none.
    timers(
        &["ITIMER_VIRTUAL", "SIGVTALRM while"],
        &[
            "ITIMER_VIRTUAL 10 ms: 20 SIGVTALRM in 20 user ticks",
            "SIGVTALRM while asleep: 0",
        ],
    );
}

#[test]
fn itimer_prof_decrements_in_process_virtual_time_and_system_time() {
    // "The ITIMER_PROF timer decrements both in process virtual time and
    // when the system is running on behalf of the process": 20 expiries
    // over a loop of system calls; times() floors user and system ticks
    // apart, so it shows 19 for the 20 ticks of their sum.
    timers(
        &["ITIMER_PROF"],
        &["ITIMER_PROF 10 ms: 20 SIGPROF in 19 user+system ticks"],
    );
}

#[test]
fn an_interrupted_nanosleep_returns_eintr_and_the_time_remaining() {
    // nanosleep(2): "If, however, the process is interrupted prematurely by
    // a signal, it returns -1 ... If the rmtp argument is non-NULL, the
    // timespec structure referenced by it contains the amount of time
    // remaining"; sginap(2): "it returns the number of unexpired ticks".
    timers(
        &["nanosleep", "sginap"],
        &[
            "nanosleep 5 s, alarm 1 s: -1 EINTR",
            "nanosleep remaining 4009 ms",
            "sginap 500, alarm 1 s: 401",
        ],
    );
}

#[test]
fn a_caught_signal_interrupts_a_read_unless_its_handler_has_sa_restart() {
    // read(2): "EINTR A signal was caught during the read or readv system
    // call and no bytes had been read"; with SA_RESTART the read is made
    // again after the handler.
    timers(
        &["read"],
        &[
            "read empty pipe, alarm 1 s: -1 EINTR",
            "read, SA_RESTART alarm 1 s, writer at 2 s: 1",
            "read got 'r' after 1 SIGALRM",
        ],
    );
}

#[test]
fn sigpending_returns_the_signals_pending_and_blocked_from_delivery() {
    calls(
        &["sigpending", "SIGUSR1 pending", "unblocked"],
        &[
            "sigpending: 0",
            "SIGUSR1 pending 1, SIGUSR2 pending 0, caught 0",
            "unblocked: caught 1",
            "sigpending bad pointer: -1 EFAULT",
        ],
    );
}

#[test]
fn sigsuspend_always_terminates_by_being_interrupted_and_restores_the_mask() {
    // sigsuspend(2): "upon return the original set of masked signals is
    // restored after executing the handler(s)"; "sigsuspend always
    // terminates by being interrupted, returning -1 with errno set to
    // EINTR".
    calls(
        &["sigsuspend", "SIGALRM caught"],
        &[
            "sigsuspend: -1 EINTR",
            "SIGALRM caught 1, blocked again 1",
            "sigsuspend bad pointer: -1 EFAULT",
        ],
    );
}

#[test]
fn a_handler_with_sa_onstack_runs_on_the_alternate_signal_stack() {
    // sigaltstack(2): "If the process is not currently executing on the
    // signal stack, the system arranges a switch to the alternate signal
    // stack for the duration of the signal handler's execution";
    // "SS_ONSTACK The process is currently executing on the alternate
    // signal stack. Attempts to modify the alternate signal stack while
    // the process is executing on it will fail" (EPERM).
    calls(
        &[
            "sigaltstack: ",
            "before",
            "handler ran",
            "in the handler",
            "without SA_ONSTACK",
        ],
        &[
            "sigaltstack: 0",
            "before: flags 2",
            "handler ran on the alternate stack: 1",
            "in the handler: flags 1 (SS_ONSTACK), changing it: EPERM",
            "without SA_ONSTACK on the alternate stack: 0",
        ],
    );
}

#[test]
fn sigaltstack_reports_and_refuses_as_its_page_says() {
    // "ENOMEM The size of the alternate stack area is less than
    // MINSIGSTKSZ"; "EINVAL ... contains invalid flags"; "EFAULT Either ss
    // or oss points outside the process's allocated address space";
    // "SS_DISABLE The alternate signal stack is currently disabled".
    calls(
        &[
            "sigaltstack query",
            "ss_size",
            "sigaltstack smaller",
            "sigaltstack bad",
            "syssgi",
            "after",
        ],
        &[
            "sigaltstack query: 0",
            "ss_size 8192, ss_sp is the top 1, flags 0",
            "sigaltstack smaller than MINSIGSTKSZ: -1 ENOMEM",
            "sigaltstack bad flags: -1 EINVAL",
            "sigaltstack bad ss: -1 EFAULT",
            "syssgi SGI_SIGALTSTACK disable: 0",
            "after: flags 2",
        ],
    );
}

#[test]
fn sigsend_sends_to_the_processes_idtype_and_id_name() {
    // sigsend(2): "If idtype is P_PID, sig is sent to the process with
    // process ID id"; "If id is P_MYID, the value of id is taken from the
    // calling process"; "If sig is zero (the null signal), error checking
    // is performed but no signal is actually sent".
    calls(
        &[
            "sigsend P_PID",
            "SIGUSR1 caught 2",
            "sigsend null",
            "sigsend SIGTERM",
            "child killed",
        ],
        &[
            "sigsend P_PID self: 0",
            "sigsend P_PID P_MYID: 0",
            "SIGUSR1 caught 2",
            "sigsend null signal: 0",
            "sigsend SIGTERM to the child: 0",
            "child killed by signal 15",
        ],
    );
}

#[test]
fn sigsendset_combines_two_sets_and_fails_as_its_page_says() {
    // "POP_DIFF set difference: processes in left set and not in right
    // set"; "POP_OR set union"; "ESRCH No process can be found"; "EINVAL
    // sig is not a valid signal number"; "EINVAL idtype is not a valid
    // idtype field"; "EPERM sig is SIGKILL, idtype is P_PID and id is 1";
    // "EFAULT psp points outside the process's allocated address space".
    calls(
        &["sigsendset", "sigsend no", "sigsend bad", "sigsend SIGKILL"],
        &[
            "sigsendset group minus self: -1 ESRCH",
            "sigsendset self or 99999: 0",
            "sigsend no such process: -1 ESRCH",
            "sigsend bad signal: -1 EINVAL",
            "sigsend bad idtype: -1 EINVAL",
            "sigsend SIGKILL to process 1: -1 EPERM",
            "sigsendset bad operation: -1 EINVAL",
            "sigsendset bad pointer: -1 EFAULT",
        ],
    );
}

const SIG_CALLS: &str = "\
sigpending: 0
SIGUSR1 pending 1, SIGUSR2 pending 0, caught 0
unblocked: caught 1
sigpending bad pointer: -1 EFAULT
sigsuspend: -1 EINTR
SIGALRM caught 1, blocked again 1
sigsuspend bad pointer: -1 EFAULT
pause until the child's SIGUSR1: -1 EINTR
SIGUSR1 caught 1
sigaltstack: 0
before: flags 2
handler ran on the alternate stack: 1
in the handler: flags 1 (SS_ONSTACK), changing it: EPERM
without SA_ONSTACK on the alternate stack: 0
sigaltstack query: 0
ss_size 8192, ss_sp is the top 1, flags 0
sigaltstack smaller than MINSIGSTKSZ: -1 ENOMEM
sigaltstack bad flags: -1 EINVAL
sigaltstack bad ss: -1 EFAULT
syssgi SGI_SIGALTSTACK disable: 0
after: flags 2
sigsend P_PID self: 0
sigsend P_PID P_MYID: 0
SIGUSR1 caught 2
sigsend null signal: 0
sigsend SIGTERM to the child: 0
child killed by signal 15
sigsendset group minus self: -1 ESRCH
sigsendset self or 99999: 0
sigsend no such process: -1 ESRCH
sigsend bad signal: -1 EINVAL
sigsend bad idtype: -1 EINVAL
sigsend SIGKILL to process 1: -1 EPERM
sigsendset bad operation: -1 EINVAL
sigsendset bad pointer: -1 EFAULT
";

const SIG_TIMERS: &str = "\
alarm 1: 0
pause: -1 EINTR
pause woke after 1000 ms, SIGALRM caught 1
alarm 0 after 1 s of 5: 4
alarm 2 replacing 10: 10
the second alarm came after 2000 ms
getitimer REAL after alarm 3: 0
it_value 2.999948 it_interval 0.000000
ITIMER_REAL 100 ms x5 after 500 ms
setitimer 0 disarms: 0
old it_interval 0.100000
getitimer disarmed: 0
it_value 0.000000
15.001 ms interval reads 0.020000
setitimer usec 1000000: -1 EINVAL
setitimer which 3: -1 EINVAL
getitimer which -1: -1 EINVAL
setitimer bad value: -1 EFAULT
getitimer bad value: -1 EFAULT
ITIMER_VIRTUAL 10 ms: 20 SIGVTALRM in 20 user ticks
ITIMER_PROF 10 ms: 20 SIGPROF in 19 user+system ticks
SIGVTALRM while asleep: 0
nanosleep 5 s, alarm 1 s: -1 EINTR
nanosleep remaining 4009 ms
sginap 500, alarm 1 s: 401
read empty pipe, alarm 1 s: -1 EINTR
read, SA_RESTART alarm 1 s, writer at 2 s: 1
read got 'r' after 1 SIGALRM
child's alarm clock: 0
";

fn sig_stack() -> Option<&'static Run> {
    static RUN: OnceLock<Option<Run>> = OnceLock::new();
    RUN.get_or_init(|| run_guest("sig_stack")).as_ref()
}

fn stack(prefixes: &[&str], want: &[&str]) {
    check(sig_stack(), prefixes, want);
}

#[test]
fn sig_stack_exits_0_printing_every_line_in_order() {
    let Some(run) = sig_stack() else {
        return;
    };
    assert_eq!(run.status, Status::Code(0), "stderr: {}", run.stderr);
    assert_eq!(run.stdout_text(), SIG_STACK);
}

#[test]
fn sigstack_specifies_a_signal_stack_on_which_to_deliver_signals() {
    // sigstack(2): "If ss is non-zero, it specifies a signal stack on which
    // to deliver signals"; "When a signal's action indicates its handler
    // should execute on the signal stack ... the system arranges a switch
    // to the signal stack for the duration of the signal handler's
    // execution" -- and only then.
    stack(
        &["sigstack:", "handler ran", "without SA_ONSTACK"],
        &[
            "sigstack: 0",
            "handler ran on the signal stack: 1, ss_onstack there 1",
            "without SA_ONSTACK on the signal stack: 0, ss_onstack there 0",
        ],
    );
}

#[test]
fn sigstack_returns_the_current_signal_stack_state_in_oss() {
    // sigstack(2): "If oss is non-zero, the current signal stack state is
    // returned" (none set: ss_sp 0; ss_onstack 1 only while on it).
    stack(
        &["sigstack query", "ss_sp", "old ss_sp", "after removing"],
        &[
            "sigstack query, none set: 0",
            "ss_sp 0, ss_onstack 0",
            "sigstack query: 0",
            "ss_sp is the top 1, ss_onstack 0",
            "old ss_sp is the top 1",
            "after removing it: ss_sp 0",
        ],
    );
}

#[test]
fn sigstack_fails_with_efault_and_the_context_remains_unchanged() {
    // sigstack(2): "Sigstack will fail and the signal stack context will
    // remain unchanged if ... [EFAULT] Either ss or oss points to memory
    // that is not a valid part of the process address space."
    stack(
        &["sigstack bad", "unchanged", "system call"],
        &[
            "sigstack bad ss: -1 EFAULT",
            "sigstack bad oss: -1 EFAULT",
            "unchanged: 1",
            "system call sigstack: 0",
        ],
    );
}

const SIG_STACK: &str = "\
sigstack query, none set: 0
ss_sp 0, ss_onstack 0
sigstack: 0
handler ran on the signal stack: 1, ss_onstack there 1
without SA_ONSTACK on the signal stack: 0, ss_onstack there 0
sigstack query: 0
ss_sp is the top 1, ss_onstack 0
sigstack bad ss: -1 EFAULT
sigstack bad oss: -1 EFAULT
unchanged: 1
system call sigstack: 0
old ss_sp is the top 1
after removing it: ss_sp 0
";
