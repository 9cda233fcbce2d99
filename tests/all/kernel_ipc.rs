//! System V IPC (crates/irix-kernel/src/ipc, syscalls/ipc.rs) on the
//! committed guest programs ipc_msg, ipc_sem, ipc_shm, ipc_shm_split and
//! ipc_shm_sproc (guest/src): each
//! test is named after the sentence of msgget(2), msgop(2), msgctl(2),
//! semget(2), semop(2), semctl(2), shmget(2), shmop(2) or shmctl(2) it
//! holds the kernel to. Every program also runs twice, and its output and
//! its `prof --exact` profile must be the same byte for byte: processes
//! that wait on each other do so on virtual time.

use crate::common;

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::sync::OnceLock;

use common::{exited, guest_program, lines, run_emu, Scratch};

/// The options every program runs with: the committed programs' directory
/// is the guest's /irix, so ipc_shm_split can exec itself by its argv[0].
fn bind_programs() -> Vec<OsString> {
    let mut bind = common::repo_path("guest/bin/irix").into_os_string();
    bind.push(":/irix");
    vec!["--bind".into(), bind]
}

/// A program's output, run once for all the tests (None: not built).
fn output(name: &'static str) -> Option<&'static str> {
    static OUT: OnceLock<std::sync::Mutex<BTreeMap<&'static str, &'static str>>> = OnceLock::new();
    let map = OUT.get_or_init(Default::default);
    if let Some(out) = map.lock().unwrap().get(name) {
        return Some(out);
    }
    let program = guest_program("irix", name)?;
    let dir = Scratch::new(name);
    let mut args = vec![OsString::from("run")];
    args.extend(bind_programs());
    args.push(program.into_os_string());
    let r = run_emu(args, dir.path());
    assert_eq!(r.status, exited(0), "{name}: stderr: {}", r.stderr);
    assert_eq!(r.stderr, "", "{name}");
    let out: &'static str = Box::leak(r.stdout_text().into_boxed_str());
    map.lock().unwrap().insert(name, out);
    Some(out)
}

/// The lines of `name`'s output that start with one of `prefixes`.
fn of(name: &'static str, prefixes: &[&str]) -> Option<Vec<&'static str>> {
    Some(lines(output(name)?, prefixes))
}

#[test]
fn msgrcv_suspends_until_a_message_of_the_desired_type_is_placed_on_the_queue() {
    // msgop(2): "If (msgflg&IPC_NOWAIT) is false, the calling process
    // suspends execution until [...] A message of the desired type is
    // placed on the queue." A producer child sends while the parent waits.
    let Some(got) = of("ipc_msg", &["consumer"]) else {
        return;
    };
    assert_eq!(
        got,
        [
            "consumer got type 1: item 1 (6 bytes)",
            "consumer got type 1: item 2 (6 bytes)",
            "consumer got type 1: item 3 (6 bytes)",
            "consumer got type 1: item 4 (6 bytes)",
            "consumer got type 1: item 5 (6 bytes)",
            "consumer got type 2: done (4 bytes)",
        ]
    );
}

#[test]
fn msgtyp_selects_the_first_message_the_first_of_its_type_or_the_lowest_type_up_to_its_absolute_value(
) {
    // msgop(2): "If msgtyp is 0, the first message on the queue is
    // received. If msgtyp is greater than 0, the first message of type
    // msgtyp is received. If msgtyp is less than 0, the first message of
    // the lowest type that is less than or equal to the absolute value of
    // msgtyp is received."
    let Some(got) = of("ipc_msg", &["msgtyp"]) else {
        return;
    };
    assert_eq!(
        got,
        [
            "msgtyp 2 receives type 2 \"two\"",
            "msgtyp -3 receives type 1 \"one\"",
            "msgtyp 0 receives type 3 \"three\"",
        ]
    );
}

#[test]
fn a_longer_message_is_e2big_unless_msg_noerror_truncates_it() {
    // msgop(2): "[E2BIG] The length of mtext is greater than msgsz and
    // (msgflg&MSG_NOERROR) is false"; "The received message is truncated
    // to msgsz bytes if it is larger than msgsz and (msgflg&MSG_NOERROR)
    // is true." And ENOMSG with IPC_NOWAIT when nothing matches.
    let Some(got) = of("ipc_msg", &["msgrcv", "with MSG_NOERROR"]) else {
        return;
    };
    assert_eq!(
        got,
        [
            "msgrcv of a 9-byte message into 3 bytes: -1 E2BIG",
            "with MSG_NOERROR: 3 bytes \"one\"",
            "msgrcv IPC_NOWAIT on an empty queue: -1 ENOMSG",
            "msgrcv IPC_NOWAIT of an absent type: -1 ENOMSG",
            "msgrcv of a negative size: -1 EINVAL",
            "msgrcv into a bad address: -1 EFAULT",
            "msgrcv waiting when SIGALRM is caught: -1 EINTR",
        ]
    );
}

#[test]
fn msgget_and_msgctl_keep_the_permissions_and_figures_of_intro_2() {
    // msgget(2): the creator's ids, "The low-order 9 bits of msg_perm.mode
    // are set to the low-order 9 bits of msgflg", "msg_qbytes is set to
    // the system limit"; msgsnd sets msg_lspid; EEXIST, EACCES, ENOENT.
    // msgctl(2): IPC_SET may lower msg_qbytes; raising it is EPERM.
    let Some(got) = of(
        "ipc_msg",
        &["IPC_STAT", "msgget", "IPC_SET", "now mode", "msgsnd past"],
    ) else {
        return;
    };
    assert_eq!(
        got,
        [
            "IPC_STAT: uid 100 gid 100 mode 0100640 key 0x1234 qnum 2 cbytes 8 qbytes 16384 lspid-is-me 1",
            "msgget of the same key: 100",
            "msgget with IPC_CREAT|IPC_EXCL of an existing key: -1 EEXIST",
            "msgget asking for more permission than the mode: -1 EACCES",
            "msgget of a key without a queue and no IPC_CREAT: -1 ENOENT",
            "IPC_SET lowering msg_qbytes to 8: 0",
            "now mode 0100600 qbytes 8",
            "msgsnd past msg_qbytes with IPC_NOWAIT: -1 EAGAIN",
            "IPC_SET raising msg_qbytes: -1 EPERM",
        ]
    );
}

#[test]
fn msgctl_ipc_rmid_removes_the_queue_and_a_waiting_msgrcv_gets_eidrm() {
    // msgctl(2): IPC_RMID "Remove the message queue identifier [...] from
    // the system"; msgop(2): "msqid is removed from the system. When this
    // occurs, errno is set to EIDRM". Afterwards the id is EINVAL.
    let Some(got) = of("ipc_msg", &["msgctl", "msgsnd to", "child's"]) else {
        return;
    };
    assert_eq!(
        got,
        [
            "msgctl IPC_RMID: 0",
            "msgctl of an unknown command: -1 EINVAL",
            "msgctl IPC_STAT to a bad address: -1 EFAULT",
            "msgctl IPC_RMID: 0",
            "msgsnd to the removed queue: -1 EINVAL",
            "msgctl of an identifier never made: -1 EINVAL",
            "child's waiting msgrcv: -1 EIDRM",
        ]
    );
}

#[test]
fn msgsnd_and_msgrcv_fail_as_msgop_lists() {
    // msgop(2): "[EINVAL] mtype is less than 1", "[EINVAL] msgsz is less
    // than zero or greater than the system-imposed limit", "[EFAULT] msgp
    // points to an illegal address"; a failed msgrcv receives nothing.
    let Some(got) = of(
        "ipc_msg",
        &["msgsnd ", "msgrcv of a neg", "msgrcv into", "the message"],
    ) else {
        return;
    };
    assert_eq!(
        got,
        [
            "msgsnd past msg_qbytes with IPC_NOWAIT: -1 EAGAIN",
            "msgsnd to the removed queue: -1 EINVAL",
            "msgsnd with mtype 0: -1 EINVAL",
            "msgsnd of a negative size: -1 EINVAL",
            "msgsnd of 16385 bytes (over MSGMAX): -1 EINVAL",
            "msgsnd of 16384 bytes: 0",
            "msgsnd from a bad address: -1 EFAULT",
            "msgrcv of a negative size: -1 EINVAL",
            "msgrcv into a bad address: -1 EFAULT",
            "the message is still there: msgrcv: 16384",
        ]
    );
}

#[test]
fn a_signal_that_is_to_be_caught_ends_a_waiting_msgrcv_or_semop_with_eintr() {
    // msgop(2): msgrcv suspends until "The calling process receives a
    // signal that is to be caught"; "If msgsnd or msgrcv return due to the
    // receipt of a signal, a value of -1 is returned to the calling
    // process and errno is set to EINTR". semop(2) likewise, and "the
    // value of semncnt associated with the specified semaphore is
    // decremented" (even with SA_RESTART). The alarm comes on virtual time:
    // with every process waiting, the clock moves on to it.
    let (Some(msg), Some(sem)) = (
        of("ipc_msg", &["msgrcv waiting"]),
        of("ipc_sem", &["semop waiting"]),
    ) else {
        return;
    };
    assert_eq!(msg, ["msgrcv waiting when SIGALRM is caught: -1 EINTR"]);
    assert_eq!(
        sem,
        ["semop waiting when SIGALRM is caught: -1 EINTR, semncnt after 0, 1 alarm"]
    );
}

#[test]
fn semop_protects_a_counter_that_four_processes_increment() {
    // semop(2): "If semval is less than the absolute value of sem_op and
    // (sem_flg&IPC_NOWAIT) is false, semop [...] suspends execution of the
    // calling process until [...] semval becomes greater than or equal to
    // the absolute value of sem_op": no increment is lost though each
    // process yields inside the critical section.
    let Some(got) = of("ipc_sem", &["four", "semaphore value"]) else {
        return;
    };
    assert_eq!(
        got,
        [
            "four processes, 25 increments each: counter 100",
            "semaphore value after: 1",
        ]
    );
}

#[test]
fn semop_is_performed_atomically_and_semncnt_and_semzcnt_count_the_waiters() {
    // semop(2): "semop is used to perform atomically an array of semaphore
    // operations"; semctl(2): GETNCNT "Return the value of semncnt",
    // GETZCNT "Return the value of semzcnt", GETPID "Return the value of
    // (int) sempid", GETALL/SETALL.
    let Some(got) = of(
        "ipc_sem",
        &[
            "while",
            "taker",
            "zero waiter",
            "GETALL",
            "GETVAL 0",
            "SETALL",
        ],
    ) else {
        return;
    };
    assert_eq!(
        got,
        [
            "while the taker waits: semval[0] 1 (nothing applied), semncnt[1] 1, semzcnt[0] 1",
            "taker: semop of both: 0",
            "zero waiter: semop(0) returned 0",
            "GETALL after: 0 0, GETPID is the taker: 1",
            "SETALL 7 9: 0",
            "GETVAL 0 7, GETVAL 1 9",
        ]
    );
}

#[test]
fn sem_undo_values_are_applied_when_the_process_exits() {
    // semop(2): "if (sem_flg&SEM_UNDO) is true, the absolute value of
    // sem_op is added to the calling process's semadj value [see exit(2)]":
    // exit(2) adds each semadj to its semaphore.
    let Some(got) = of("ipc_sem", &["child holds", "after the child", "without"]) else {
        return;
    };
    assert_eq!(
        got,
        [
            "child holds the semaphore: value 0, and exits",
            "after the child's exit, SEM_UNDO gave it back: value 1",
            "without SEM_UNDO it stays taken: value 0",
        ]
    );
}

#[test]
fn semget_semop_and_semctl_fail_as_their_pages_list() {
    // semget(2): EINVAL for nsems <= 0, over the limit or more than the
    // set has; EEXIST; ENOENT. semop(2): EAGAIN with IPC_NOWAIT, EFBIG for
    // sem_num, E2BIG for nsops, EFAULT, ERANGE; a waiter gets EIDRM when
    // the set is removed. semctl(2): ERANGE over the maximum, EINVAL for
    // semnum or cmd, EFAULT.
    let Some(got) = of(
        "ipc_sem",
        &[
            "IPC_STAT",
            "semget",
            "semop",
            "SETVAL",
            "GETVAL of",
            "semctl",
            "IPC_RMID",
            "child's",
        ],
    ) else {
        return;
    };
    assert_eq!(
        got,
        [
            "IPC_STAT: nsems 3 mode 0100600 key 0x5e4 uid 100",
            "semget of the key asking for 2 semaphores: 30",
            "semget of the key asking for 4: -1 EINVAL",
            "semget IPC_CREAT|IPC_EXCL: -1 EEXIST",
            "semget of a missing key: -1 ENOENT",
            "semget of 0 semaphores: -1 EINVAL",
            "semget of 26 semaphores (over SEMMSL): -1 EINVAL",
            "semop IPC_NOWAIT that would wait: -1 EAGAIN",
            "semop of sem_num 3 in a set of 3: -1 EFBIG",
            "semop of 11 operations (over SEMOPM): -1 E2BIG",
            "semop from a bad address: -1 EFAULT",
            "SETVAL 32768 (over SEMVMX): -1 ERANGE",
            "SETVAL 32767: 0",
            "semop past SEMVMX: -1 ERANGE",
            "GETVAL of semnum 3: -1 EINVAL",
            "semctl of an unknown command: -1 EINVAL",
            "IPC_STAT to a bad address: -1 EFAULT",
            "IPC_RMID: 0",
            "child's waiting semop: -1 EIDRM",
            "semop on the removed set: -1 EINVAL",
            "semop waiting when SIGALRM is caught: -1 EINTR, semncnt after 0, 1 alarm",
        ]
    );
}

#[test]
fn a_shared_segment_is_zeroed_and_seen_by_a_forked_child_and_a_second_attachment() {
    // shmget(2): "the contents of the shared memory segment are
    // initialized to zero"; shmop(2): shmat "attaches the shared memory
    // segment [...] to the data segment of the calling process"; fork
    // keeps the attachment, and both see one copy of the bytes.
    let Some(got) = of(
        "ipc_shm",
        &["a new", "child", "in the child", "parent sees"],
    ) else {
        return;
    };
    assert_eq!(
        got,
        [
            "a new segment reads as zeroes: yes",
            "child sees: parent wrote this",
            "child's second attachment sees the same bytes: parent wrote this",
            "in the child: shm_nattch 3",
            "parent sees: child wrote this and tail",
        ]
    );
}

#[test]
fn shmctl_ipc_stat_ipc_set_and_ipc_rmid_while_attached() {
    // shmget(2): "shm_segsz is set equal to the value of size"; shmctl(2):
    // IPC_SET changes the permission bits (a read-only segment cannot be
    // attached for writing: EACCES), SHM_LOCK is the super-user's (EPERM),
    // IPC_RMID removes the identifier while the memory stays attached
    // until shmdt.
    let Some(got) = of(
        "ipc_shm",
        &[
            "IPC_STAT",
            "IPC_SET",
            "shmat for",
            "shmat SHM",
            "shmctl SHM",
            "IPC_RMID",
            "still",
            "shmget of the removed",
            "shmdt",
        ],
    ) else {
        return;
    };
    assert_eq!(
        got,
        [
            "IPC_STAT: segsz 10000 nattch 1 cpid-is-me 1 lpid-is-child 1 mode 0100600 key 0x5a5a",
            "IPC_SET mode 0400: 0",
            "shmat for writing now: -1 EACCES",
            "shmat SHM_RDONLY works: 1",
            "shmctl SHM_LOCK: -1 EPERM",
            "IPC_RMID while attached: 0",
            "still attached after IPC_RMID: child wrote this",
            "shmget of the removed key: -1 ENOENT",
            "shmdt: 0",
            "shmdt again: -1 EINVAL",
            "shmdt of an address inside no segment: -1 EINVAL",
            "shmdt of the segment: 0",
        ]
    );
}

#[test]
fn shmat_rounds_with_shm_rnd_and_refuses_an_illegal_address() {
    // shmop(2): with SHM_RND "the segment is attached at the address given
    // by (shmaddr - (shmaddr modulus SHMLBA))"; "[EINVAL] shmaddr is not
    // equal to zero, (shmflg&SHM_RND) is false, and the value of shmaddr
    // is an illegal address".
    let Some(got) = of("ipc_shm", &["SHM_RND", "shmat at", "shmat over"]) else {
        return;
    };
    assert_eq!(
        got,
        [
            "SHM_RND rounds 0x38003039 down to SHMLBA: 0x38000000",
            "shmat at an unaligned address without SHM_RND: -1 EINVAL",
            "shmat over a mapped range: -1 EINVAL",
        ]
    );
}

#[test]
fn shmget_shmat_and_shmctl_fail_as_their_pages_list() {
    // shmget(2): "[EINVAL] size is less than the system-imposed minimum or
    // greater than the system-imposed maximum", "[EINVAL] [...] the size
    // of the segment associated with it is less than size", EEXIST,
    // ENOENT; shmop(2)/shmctl(2): EINVAL for an invalid id or command,
    // EFAULT for buf.
    let Some(got) = of("ipc_shm", &["shmget ", "shmat of", "shmctl "]) else {
        return;
    };
    assert_eq!(
        got,
        [
            "shmctl SHM_LOCK: -1 EPERM",
            "shmget of the removed key: -1 ENOENT",
            "shmget of size 0: -1 EINVAL",
            "shmget over SHMMAX: -1 EINVAL",
            "shmget of the key with a larger size: -1 EINVAL",
            "shmget IPC_CREAT|IPC_EXCL: -1 EEXIST",
            "shmget of a missing key: -1 ENOENT",
            "shmat of an invalid id: -1 EINVAL",
            "shmctl of an unknown command: -1 EINVAL",
            "shmctl IPC_STAT to a bad address: -1 EFAULT",
            "shmctl IPC_RMID: 0",
            "shmctl of the removed id: -1 EINVAL",
        ]
    );
}

#[test]
fn shmdt_detaches_every_page_of_the_segment_located_at_shmaddr_whatever_mprotect_did() {
    // shmop(2): shmdt "detaches from the calling process's data segment
    // the shared memory segment located at the address specified by
    // shmaddr"; "[EINVAL] [...] shmaddr is not the data segment start
    // address of a shared memory segment". mprotect cuts the attachment's
    // region in three, yet it is one attachment: shm_nattch "is the number
    // of processes that currently have this segment attached" (intro(2)).
    let Some(got) = of("ipc_shm_split", &["mprotect", "split"]) else {
        return;
    };
    assert_eq!(
        got,
        [
            "mprotect the middle page read-only: 0",
            "split: store to the read-only middle page faults",
            "split: shm_nattch after mprotect 1",
            "split: shmdt of the middle page: -1 EINVAL",
            "split: shmdt of the start: 0",
            "split: page 0 after shmdt: read faults",
            "split: page 1 after shmdt: read faults",
            "split: page 2 after shmdt: read faults",
            "split: shm_nattch after shmdt 0",
            "split: shmdt again: -1 EINVAL",
        ]
    );
}

#[test]
fn an_attachment_cut_by_munmap_lives_until_its_last_page_goes_and_shmdt_takes_only_its_own_pages() {
    // munmap(2) of part of an attachment leaves the rest attached (and
    // shmdt at the start removes it); munmap of every page ends the
    // attachment (shm_nattch falls, shmdt is EINVAL); a mapping made over
    // part of it is not the segment's and stays after shmdt.
    let Some(got) = of("ipc_shm_split", &["munmap"]) else {
        return;
    };
    assert_eq!(
        got,
        [
            "munmap the first page: 0",
            "munmap: shm_nattch with two pages left 1",
            "munmap: the last page still reads z",
            "munmap: shmdt of the start: 0",
            "munmap: last page after shmdt: read faults",
            "munmap: shm_nattch after shmdt 0",
            "munmap: shm_nattch after every page is unmapped 0",
            "munmap: shmdt of a wholly unmapped attachment: -1 EINVAL",
            "munmap: a private page mapped over the middle, shm_nattch 1",
            "munmap: shmdt with a page mapped over: 0",
            "munmap: the page mapped over stays: o",
            "munmap: the first page after shmdt: read faults",
        ]
    );
}

#[test]
fn fork_copies_the_attachments_and_exit_and_exec_drop_them() {
    // shmop(2) SEE ALSO exec(2), exit(2), fork(2): a forked child has the
    // segment attached too (shm_nattch 2, whatever the child's mprotect
    // does), its exit detaches it, and exec leaves the new image with no
    // attachment.
    let Some(got) = of("ipc_shm_split", &["fork", "exec"]) else {
        return;
    };
    assert_eq!(
        got,
        [
            "fork: shm_nattch in the child 2",
            "fork: shm_nattch after the child's mprotect 2",
            "fork: shm_nattch after the child exited 1",
            "exec: shm_nattch in the new image 1",
            "fork: shmdt in the parent: 0",
            "fork: shm_nattch at the end 0",
        ]
    );
}

#[test]
fn shmat_fails_with_emfile_past_the_system_imposed_limit_of_attached_segments() {
    // shmop(2): "[EMFILE] The number of shared memory segments attached to
    // the calling process would exceed the system-imposed limit"
    // (irix-emu's SHMSEG is 100, docs/ipc.md); a shmdt makes room again.
    let Some(got) = of("ipc_shm_split", &["limit"]) else {
        return;
    };
    assert_eq!(
        got,
        [
            "limit: shmat works 100 times, then fails with EMFILE",
            "limit: shm_nattch 100",
            "limit: shmdt of one: 0",
            "limit: shmat after it works: 1",
            "limit: shm_nattch after detaching all 0",
        ]
    );
}

#[test]
fn if_one_process_in_a_share_group_attaches_a_segment_all_processes_in_the_group_can_access_it() {
    // sproc(2), PR_SADDR: "If one process in a share group attaches to a
    // shared memory segment, all processes in the group can access that
    // segment." The group has one address space: an attachment is the
    // group's and counts once in shm_nattch, whichever member made it;
    // shm_cpid is the creator and shm_lpid "the process id of the last
    // process that performed a shmop(2) operation" (intro(2)).
    let Some(got) = of("ipc_shm_sproc", &["parent", "member", "first"]) else {
        return;
    };
    assert_eq!(
        got,
        [
            "parent, attached: shm_nattch 1 shm_cpid parent shm_lpid parent",
            "member: reads the parent's attachment: parent wrote this",
            "member, before attaching: shm_nattch 1 shm_cpid parent shm_lpid parent",
            "member: its own attachment is at another address: yes",
            "member: reads the same bytes there: parent wrote this",
            "member, after attaching: shm_nattch 2 shm_cpid parent shm_lpid me",
            "first member exited with status 0",
            "parent: reads what the member wrote: member wrote this",
            "parent: reaches the member's attachment: parent wrote this",
            "parent, after the member exited: shm_nattch 2 shm_cpid parent shm_lpid other",
            "parent: shmdt of the member's attachment: 0",
            "parent, after detaching it: shm_nattch 1 shm_cpid parent shm_lpid parent",
            "parent: its attachment faults after the member's shmdt",
            "parent, after the member's shmdt: shm_nattch 0 shm_cpid parent shm_lpid other",
            "parent, after the forked child exited: shm_nattch 1 shm_cpid parent shm_lpid parent",
        ]
    );
}

#[test]
fn a_share_group_member_detaches_for_the_group_and_its_fork_copies_the_attachments() {
    // A shmdt by one member detaches the segment from the group's one
    // address space; a fork by a member copies the space, attachments and
    // all (fork(2)), so shm_nattch is 2 while the child lives.
    let Some(got) = of("ipc_shm_sproc", &["second", "forked"]) else {
        return;
    };
    assert_eq!(
        got,
        [
            "second member: shmdt of the parent's attachment: 0",
            "second member exited with status 0",
            "forked child of the share group: shm_nattch 2 shm_cpid parent shm_lpid parent",
            "forked child exited with status 0",
        ]
    );
}

#[test]
fn every_ipc_program_prints_and_profiles_the_same_on_two_runs() {
    for name in [
        "ipc_msg",
        "ipc_sem",
        "ipc_shm",
        "ipc_shm_split",
        "ipc_shm_sproc",
    ] {
        common::profiles_the_same_twice_with(name, &bind_programs(), output(name));
    }
}

#[test]
fn strace_names_the_ipc_operations_and_their_control_commands() {
    // --strace shows msgsys, semsys and shmsys by the operation each call
    // makes (msgget, semop, shmat...) and the control commands of msgctl,
    // semctl and shmctl by name (IPC_STAT, SETVAL...).
    let Some(program) = guest_program("irix", "ipc_sem") else {
        return;
    };
    let dir = Scratch::new("ipc-strace");
    let r = run_emu(
        ["run".as_ref(), "--strace".as_ref(), program.as_os_str()],
        dir.path(),
    );
    assert_eq!(r.status, exited(0), "{}", r.stderr);
    let calls: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.contains("sys("))
        .take(4)
        .collect();
    assert_eq!(
        calls,
        [
            "[100] semsys(semget, 0, 0x1, 0x180, 0x0) = 0",
            "[100] shmsys(shmget, 0, 0x1000, 0x180) = 0",
            "[100] shmsys(shmat, 0, 0x0, 0x0) = 805306368",
            "[100] semsys(semctl, 0, 0x0, SETVAL, 0x1) = 0",
        ]
    );
    assert!(r
        .stderr
        .contains("[100] shmsys(shmctl, 0, IPC_RMID, 0x0) = 0"));
    assert!(r
        .stderr
        .contains("[100] semsys(semctl, 10, 0x1, GETNCNT, 0x0) = 1"));
}
