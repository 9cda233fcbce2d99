//! Processes that talk, in programs built by SGI's cc and linked with
//! SGI's libc.so.1 from an IRIX 5.3 root: System V IPC through libc's
//! msgget/msgsnd/msgrcv/msgctl, semget/semop/semctl and
//! shmget/shmat/shmdt/shmctl (tests/sgi_cc/ipc_calls.c), and sockets
//! through libc's socketpair, socket, bind, listen, accept, connect,
//! send, recv, sendto, recvfrom and getsockname (tests/sgi_cc/socket_calls.c),
//! each run twice with the same output; and IRIX 5.3's own dbx, which
//! starts its process-control server dbxpcs and talks to it over a TCP
//! connection on the loopback address. Every test needs `IRIX_ROOT_53`
//! and is reported as ignored without it (test_support::roots).

use crate::common;
use crate::sgi_tools::{at, ok, root, sgi};

use std::collections::BTreeMap;
use std::sync::{Mutex, OnceLock};

use common::{repo_path, run_emu, Scratch};

/// The output of tests/sgi_cc/`name`.c built by SGI's cc and run under
/// irix-emu, once for every test; the second run must print the same.
fn output(name: &'static str) -> &'static str {
    static OUT: OnceLock<Mutex<BTreeMap<&'static str, &'static str>>> = OnceLock::new();
    let map = OUT.get_or_init(Default::default);
    let mut map = map.lock().unwrap();
    if let Some(out) = map.get(name) {
        return out;
    }
    let root = root();
    let dir = Scratch::new(&format!("sgi-{name}"));
    let source = format!("{name}.c");
    std::fs::copy(
        repo_path(&format!("tests/sgi_cc/{source}")),
        dir.path().join(&source),
    )
    .unwrap();
    let program = at(&dir, name);
    ok(
        sgi(
            &root,
            &dir,
            "usr/bin/cc",
            &["-o", &program, &at(&dir, &source)],
        ),
        "cc",
    );
    let first = ok(sgi(&root, &dir, &program, &[]), name);
    let second = ok(sgi(&root, &dir, &program, &[]), name);
    assert_eq!(first, second, "{name}: a second run prints the same");
    let out: &'static str = Box::leak(first.into_boxed_str());
    map.insert(name, out);
    out
}

/// The lines of `text` from the first starting with `from` up to (not
/// including) the first after it starting with `to`.
fn section<'a>(text: &'a str, from: &str, to: &str) -> Vec<&'a str> {
    text.lines()
        .skip_while(|l| !l.starts_with(from))
        .take_while(|l| !l.starts_with(to))
        .collect()
}

#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn sgi_libc_message_queues_behave_as_msgop_and_msgctl_describe() {
    // msgop(2): msgtyp 0, > 0 and < 0 select the first message, the first
    // of the type and the lowest type up to |msgtyp|; "[E2BIG] mtext is
    // greater than msgsz and (msgflg&MSG_NOERROR) is false"; "[ENOMSG] The
    // queue does not contain a message of the desired type and
    // (msgtyp&IPC_NOWAIT) is true"; a waiting msgrcv gets its message from
    // another process, or EIDRM when the queue is removed; msgget(2):
    // EEXIST for IPC_CREAT|IPC_EXCL on an existing key, ENOENT without
    // IPC_CREAT.
    assert_eq!(
        section(output("ipc_calls"), "msgget", "semget"),
        [
            "msgget IPC_PRIVATE: an identifier",
            "msgctl IPC_STAT: msg_qnum 3 msg_cbytes 14 lspid-is-me 1",
            "msgrcv msgtyp 1: type 1 \"one\" (4 bytes)",
            "msgrcv msgtyp -3: type 2 \"two\" (4 bytes)",
            "msgrcv of a longer message: -1 E2BIG",
            "msgrcv MSG_NOERROR: type 3 \"three\" (6 bytes)",
            "msgrcv IPC_NOWAIT on an empty queue: -1 ENOMSG",
            "msgrcv waiting for the child: type 7 \"from the child\" (15 bytes)",
            "msgctl IPC_RMID: 0",
            "msgrcv waiting when the queue is removed: -1 EIDRM",
            "msgget IPC_CREAT|IPC_EXCL of an existing key: -1 EEXIST",
            "msgget of a missing key: -1 ENOENT",
        ]
    );
}

#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn sgi_libc_semaphores_behave_as_semop_and_semctl_describe() {
    // semop(2): "[EAGAIN] The operation would result in suspension of the
    // calling process but (sem_flg&IPC_NOWAIT) is true"; a waiting semop
    // proceeds when another process raises the value, and gets EIDRM when
    // the set is removed; semctl(2): SETVAL, GETVAL, SETALL, GETALL,
    // GETNCNT; after IPC_RMID the identifier is invalid (EINVAL);
    // semget(2): EINVAL for nsems 0 of a new set.
    assert_eq!(
        section(output("ipc_calls"), "semget", "shmget"),
        [
            "semget IPC_PRIVATE, 2 semaphores: an identifier",
            "semctl SETVAL 1: 0",
            "semop -1: 0",
            "semctl GETVAL: 0",
            "semop -1 IPC_NOWAIT at 0: -1 EAGAIN",
            "semctl SETALL 4 5: 0",
            "semctl GETALL: 4 5",
            "semop waiting for the child's +1: 0",
            "semctl GETNCNT with the child waiting: 1",
            "semctl IPC_RMID: 0",
            "semop waiting when the set is removed: -1 EIDRM",
            "semop on the removed set: -1 EINVAL",
            "semget of 0 semaphores: -1 EINVAL",
        ]
    );
}

#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn sgi_libc_shared_memory_behaves_as_shmop_and_shmctl_describe() {
    // shmget(2): "the contents of the shared memory segment are
    // initialized to zero", EEXIST, "[EINVAL] [...] the size of the
    // segment associated with it is less than size"; a forked child's
    // stores are the parent's; mprotect of one page leaves one attachment
    // (shm_nattch 1), shmdt of an address that is not its start is EINVAL
    // and shmdt of the start detaches it (shmop(2)).
    assert_eq!(
        section(output("ipc_calls"), "shmget", "done"),
        [
            "shmget and shmat: attached",
            "a new segment reads zero: 0",
            "the child's store is seen: child",
            "mprotect the second page read-only: 0",
            "shmctl IPC_STAT: shm_segsz 8192 shm_nattch 1 cpid-is-me 1",
            "shmget IPC_CREAT|IPC_EXCL of an existing key: -1 EEXIST",
            "shmget of a larger size: -1 EINVAL",
            "shmdt of the second page: -1 EINVAL",
            "shmdt: 0",
            "shm_nattch after shmdt: 0",
            "shmctl IPC_RMID: 0",
            "shmctl IPC_STAT of the removed id: -1 EINVAL",
        ]
    );
}

/// What tests/sgi_cc/socket_calls.c prints.
const SOCKET_CALLS: &str = "\
socketpair AF_UNIX SOCK_STREAM: 0
write on one end: 5
read on the other: 5
read: ping
send back: 5
recv: 5
recv: pong
recv after the peer closed: 0
socketpair AF_INET: -1 EOPNOTSUPP
bind AF_UNIX ipc.sock: 0
listen: 0
getsockname: 0
getsockname: family 1 path ipc.sock
bind of a second socket to the same path: -1 EADDRINUSE
accept: a descriptor
server got: over a path
child got back: echo
connect to a missing path: -1 ENOENT
bind AF_INET 127.0.0.1 port 0: 0
getsockname: family 2 port 1024 address 0x7f000001 length 16
listen: 0
accept: peer family 2 address 0x7f000001, got: over tcp
connect to a port nothing listens on: -1 ECONNREFUSED
bind of a second socket to the same port: -1 EADDRINUSE
socket(AF_INET, 99, 0): -1 EPROTONOSUPPORT
socket(AF_INET, SOCK_STREAM, 17): -1 EPROTONOSUPPORT
socket(99, SOCK_STREAM, 0): -1 EAFNOSUPPORT
bind a datagram socket to 127.0.0.1:7002: 0
sendto: 8
recvfrom: datagram from family 2 address 0x7f000001 port 1026
done
";

#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn sgi_libc_sockets_connect_the_processes_of_the_run() {
    // socketpair(2) (AF_INET: EOPNOTSUPP, as its BUGS say), an AF_UNIX
    // stream server on a path and an AF_INET one on 127.0.0.1 with a
    // forked client each, getsockname(2) of both (port 0 picks a port),
    // a UDP datagram with its sender; connect(2): "[ECONNREFUSED] The
    // attempt to connect was forcefully rejected", "[ENOENT]" for a
    // missing path; bind(2): EADDRINUSE; socket(2): "[EPROTONOSUPPORT] The
    // protocol type or the specified protocol is not supported within
    // this domain".
    assert_eq!(output("socket_calls"), SOCKET_CALLS);
}

#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn irix_dbx_reaches_its_server_dbxpcs_over_a_loopback_tcp_connection() {
    // IRIX 5.3's dbx forks and execs /usr/lib/dbxpcs, which binds port
    // 5000 and listens; dbx looks its host up (/etc/hosts: the root has
    // none, so the test binds one) and connects to it. Without the
    // connection dbx says "Connection fault"; with it dbx goes on to name
    // the executable, then finds no /proc to debug with (irix-emu has
    // none).
    let root = test_support::roots::irix_root_53(&["usr/bin/dbx", "usr/lib/dbxpcs", "lib/rld"]);
    let dir = Scratch::new("sgi-dbx");
    dir.write("etc/hosts", b"127.0.0.1 localhost irix-emu\n");
    let r = run_emu(
        [
            "run",
            "--root",
            &root.display().to_string(),
            "--bind",
            &format!("{}:/etc", at(&dir, "etc")),
            &root.join("usr/bin/dbx").display().to_string(),
            "/usr/bin/cc",
        ],
        dir.path(),
    );
    assert_eq!(r.status, common::exited(0), "{}", r.stderr);
    assert!(!r.stderr.contains("Connection fault"), "{}", r.stderr);
    let out = r.stdout_text();
    assert!(out.starts_with("dbx version 3.19"), "{out}");
    assert!(
        out.contains("Executable /usr/bin/cc"),
        "dbx went past connecting to dbxpcs: {out}"
    );
}
