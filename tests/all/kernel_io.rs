//! The I/O calls: readv, writev, pread, pwrite, poll, select (also on a
//! pollable semaphore, guest/src/usema_poll.c) and the
//! terminal and descriptor ioctls, as guest/src/io_calls.c makes them
//! (through libc's indirect syscall). Each test checks the lines of the
//! man-page sentence it is named after; one checks the whole output, which
//! is the same on every run (poll and select wait in virtual time).

use crate::common;

use std::sync::OnceLock;

use common::{lines, run_guest, Run, Status};

fn io_calls() -> Option<&'static Run> {
    static RUN: OnceLock<Option<Run>> = OnceLock::new();
    RUN.get_or_init(|| run_guest("io_calls")).as_ref()
}

fn check(prefixes: &[&str], want: &[&str]) {
    let Some(run) = io_calls() else {
        return;
    };
    let text = run.stdout_text();
    assert_eq!(lines(&text, prefixes), want, "stderr: {}", run.stderr);
}

#[test]
fn the_program_exits_0_printing_every_line_in_order() {
    let Some(run) = io_calls() else {
        return;
    };
    assert_eq!(run.status, Status::Code(0), "stderr: {}", run.stderr);
    assert_eq!(run.stdout_text(), EXPECTED);
}

#[test]
fn readv_always_fills_one_buffer_completely_before_proceeding_to_the_next() {
    // read(2): "readv always fills one buffer completely before
    // proceeding to the next"; write(2): writev "gathers the output data
    // from the iovcnt buffers".
    check(
        &["writev gathers", "readv scatters", "readv buffers"],
        &[
            "writev gathers 3 buffers: 21",
            "readv scatters: 21",
            "readv buffers: [hell] [o, vec] [tored world]",
        ],
    );
}

#[test]
fn iovcnt_out_of_range_negative_lengths_and_overflowing_sums_are_einval() {
    // readv/writev: "EINVAL iovcnt was less than or equal to 0 or greater
    // than {IOV_MAX}", "An iov_len value in the iov array was negative",
    // "The sum of the iov_len values in the iov array overflowed a 32-bit
    // integer"; "EFAULT iov points outside the allocated address space".
    check(
        &[
            "readv iovcnt",
            "writev iovcnt",
            "writev negative",
            "writev total",
            "readv bad",
            "writev bad",
        ],
        &[
            "readv iovcnt 0: -1 EINVAL",
            "writev iovcnt -1: -1 EINVAL",
            "writev negative iov_len: -1 EINVAL",
            "writev total overflows: -1 EINVAL",
            "readv bad iov: -1 EFAULT",
            "readv bad iov_base: -1 EFAULT",
            "writev bad descriptor: -1 EBADF",
        ],
    );
}

#[test]
fn pread_and_pwrite_transfer_at_an_offset_without_moving_the_file_pointer() {
    check(
        &["pread", "pwrite"],
        &[
            "pread 8 at 7: 8",
            "pread read: [vectored]",
            "pread leaves the offset: 3",
            "pwrite at 0: 1",
            "pwrite leaves the offset: 3",
            "pread past the end: 0",
            "pread negative offset: -1 EINVAL",
            "pread after pwrite: 5",
            "pread read: [Jello]",
            "pread on a pipe: -1 ESPIPE",
            "pwrite on a pipe: -1 ESPIPE",
        ],
    );
}

#[test]
fn poll_sets_pollnval_for_a_descriptor_that_is_not_open_and_counts_ready_entries() {
    // poll(2): "POLLNVAL The specified fd value does not belong to an open
    // stream"; "If the value fd is less than zero, events is ignored and
    // revents is set to 0"; "A positive value indicates the total number
    // of file descriptors that has been selected".
    check(
        &["poll empty", "poll with", "poll revents"],
        &[
            "poll empty pipe: 2",
            "poll revents: 0 0x4 0x20",
            "poll with data: 2",
            "poll revents: 0x1 0x4 0",
            "poll revents: 0x11",
        ],
    );
}

#[test]
fn poll_waits_at_least_timeout_msec_in_virtual_time_and_returns_0() {
    // "If none of the defined events have occurred on any selected file
    // descriptor, poll waits at least timeout msec"; "A value of 0
    // indicates that the call timed out".
    check(
        &["poll times", "poll waited", "poll nfds", "poll bad"],
        &[
            "poll times out: 0",
            "poll waited 250 ms",
            "poll nfds too large: -1 EINVAL",
            "poll bad fds: -1 EFAULT",
        ],
    );
}

#[test]
fn poll_with_timeout_minus_1_blocks_until_a_requested_event_occurs() {
    // "If the value of timeout is -1, poll blocks until a requested event
    // occurs": a child writes after 30 ticks; POLLHUP once the writers are
    // gone ("a hangup has occurred").
    check(
        &["poll waits", "poll woke", "poll sees"],
        &[
            "poll waits for a writer: 1",
            "poll woke after 300 ms, revents 0x1",
            "poll sees the hang-up: 1",
        ],
    );
}

#[test]
fn select_returns_the_ready_descriptors_and_0_when_the_time_limit_expires() {
    // select(2): "The total number of ready descriptors in all the sets is
    // the return value"; "If the time limit expires then select returns
    // 0"; "EBADF One of the descriptor sets specified an invalid
    // descriptor"; "EINVAL The specified time limit is invalid".
    check(
        &["select"],
        &[
            "select empty pipe: 1",
            "select sets: 0 0x10",
            "select with data: 2",
            "select sets: 0x8 0x10",
            "select times out: 0",
            "select waited 1500 ms, set 0",
            "select closed descriptor: -1 EBADF",
            "select bad timeval: -1 EINVAL",
            "select negative nfds: -1 EINVAL",
        ],
    );
}

#[test]
fn fionread_counts_bytes_and_fionbio_makes_an_empty_pipe_read_eagain() {
    // read(2): "If some process has the pipe open for writing and
    // O_NONBLOCK is set, read returns -1 and sets errno to EAGAIN".
    check(
        &["ioctl FION", "FIONREAD:", "read empty"],
        &[
            "ioctl FIONREAD pipe: 0",
            "FIONREAD: 5",
            "ioctl FIONBIO on: 0",
            "read empty non-blocking pipe: -1 EAGAIN",
            "ioctl FIONBIO off: 0",
            "ioctl FIONREAD bad pointer: -1 EFAULT",
        ],
    );
}

#[test]
fn terminal_requests_on_a_descriptor_that_is_no_terminal_are_enotty() {
    // ioctl(2): "ENOTTY fildes is not associated with a device driver that
    // accepts control functions"; "EBADF fildes is not a valid open file
    // descriptor".
    check(
        &["ioctl TC", "ioctl TIOC", "ioctl bad"],
        &[
            "ioctl TCGETA on a pipe: -1 ENOTTY",
            "ioctl TCGETS on a pipe: -1 ENOTTY",
            "ioctl TIOCGWINSZ on a pipe: -1 ENOTTY",
            "ioctl bad descriptor: -1 EBADF",
        ],
    );
}

const EXPECTED: &str = "\
writev gathers 3 buffers: 21
readv scatters: 21
readv buffers: [hell] [o, vec] [tored world]
readv iovcnt 0: -1 EINVAL
writev iovcnt -1: -1 EINVAL
writev negative iov_len: -1 EINVAL
writev total overflows: -1 EINVAL
readv bad iov: -1 EFAULT
readv bad iov_base: -1 EFAULT
writev bad descriptor: -1 EBADF
pread 8 at 7: 8
pread read: [vectored]
pread leaves the offset: 3
pwrite at 0: 1
pwrite leaves the offset: 3
pread past the end: 0
pread negative offset: -1 EINVAL
pread after pwrite: 5
pread read: [Jello]
pread on a pipe: -1 ESPIPE
pwrite on a pipe: -1 ESPIPE
poll empty pipe: 2
poll revents: 0 0x4 0x20
poll with data: 2
poll revents: 0x1 0x4 0
poll times out: 0
poll waited 250 ms
poll nfds too large: -1 EINVAL
poll bad fds: -1 EFAULT
poll waits for a writer: 1
poll woke after 300 ms, revents 0x1
poll sees the hang-up: 1
poll revents: 0x11
select empty pipe: 1
select sets: 0 0x10
select with data: 2
select sets: 0x8 0x10
select times out: 0
select waited 1500 ms, set 0
select closed descriptor: -1 EBADF
select bad timeval: -1 EINVAL
select negative nfds: -1 EINVAL
ioctl FIONREAD pipe: 0
FIONREAD: 5
ioctl FIONBIO on: 0
read empty non-blocking pipe: -1 EAGAIN
ioctl FIONBIO off: 0
ioctl FIONREAD bad pointer: -1 EFAULT
ioctl TCGETA on a pipe: -1 ENOTTY
ioctl TCGETS on a pipe: -1 ENOTTY
ioctl TIOCGWINSZ on a pipe: -1 ENOTTY
ioctl bad descriptor: -1 EBADF
";

/// guest/src/usema_poll.c: a pollable semaphore's descriptor.
fn usema_poll() -> Option<&'static Run> {
    static RUN: OnceLock<Option<Run>> = OnceLock::new();
    RUN.get_or_init(|| run_guest("usema_poll")).as_ref()
}

const USEMA_POLL: &str = "\
open /dev/usemaclone: 1
ioctl UIOCABLOCK: 0
poll, queued: 0
poll until the child's UIOCAUNBLOCK: 1
revents POLLIN 1
select, granted: 1
readable 1
ioctl UIOCABLOCK again: 0
poll, queued again: 0
ioctl UIOCAUNBLOCK self: 0
poll, granted: 1
ioctl UIOCAUNBLOCK before the P: 0
ioctl UIOCABLOCK after an early V: 0
poll, granted at once: 1
ioctl UIOCAUNBLOCK of no process: -1 ESRCH
ioctl UIOCUNBLOCK of no process: -1 ESRCH
";

/// The pid an unblock names must be a process of the run, so the device
/// keeps nothing for pids a guest makes up (docs/usema.md).
#[test]
fn an_unblock_naming_no_process_of_the_run_is_esrch() {
    let Some(run) = usema_poll() else {
        return;
    };
    let out = run.stdout_text();
    assert!(
        out.contains("ioctl UIOCAUNBLOCK of no process: -1 ESRCH\n"),
        "{out}"
    );
    assert!(
        out.contains("ioctl UIOCUNBLOCK of no process: -1 ESRCH\n"),
        "{out}"
    );
}

#[test]
fn a_pollable_semaphore_is_acquired_by_polling_its_descriptor_for_pollin() {
    // usnewpollsema(3P): "Pollable semaphores never block the caller. If
    // the semaphore is unavailable when uspsema(3P) is called, the caller
    // is queued to receive the semaphore and returns immediately. To
    // actually acquire the semaphore the caller must issue a poll(2) or
    // select(2) on the file descriptor associated with the semaphore ...
    // The POLLIN event should be used with poll(2). The semaphore file
    // descriptor should be passed in as a read descriptor for select(2)."
    let Some(run) = usema_poll() else {
        return;
    };
    assert_eq!(run.status, Status::Code(0), "stderr: {}", run.stderr);
    assert_eq!(run.stdout_text(), USEMA_POLL);
}
