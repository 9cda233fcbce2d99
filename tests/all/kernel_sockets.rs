//! Sockets between the run's processes (crates/irix-kernel/src/net,
//! syscalls/socket.rs) on the committed guest programs net_unix and
//! net_inet (guest/src): each test is named after the sentence of
//! socket(2), socketpair(2), bind(2), listen(2), accept(2), connect(2) or
//! the other socket pages it holds the kernel to. Every program also runs
//! twice, with the same output and the same `prof --exact` profile.

use crate::common;

use std::collections::BTreeMap;
use std::sync::{Mutex, OnceLock};

use common::exited;

/// A program's output, run once in an empty directory (None: not built).
fn output(name: &'static str) -> Option<&'static str> {
    static OUT: OnceLock<Mutex<BTreeMap<&'static str, &'static str>>> = OnceLock::new();
    let map = OUT.get_or_init(Default::default);
    if let Some(out) = map.lock().unwrap().get(name) {
        return Some(out);
    }
    let r = common::run_guest(name)?;
    assert_eq!(r.status, exited(0), "{name}: stderr: {}", r.stderr);
    assert_eq!(r.stderr, "", "{name}");
    let out: &'static str = Box::leak(r.stdout_text().into_boxed_str());
    map.lock().unwrap().insert(name, out);
    Some(out)
}

/// The lines of `out` from the first that is `want[0]`, as many as `want`
/// holds.
fn section<'a>(out: &'a str, want: &[&str]) -> Vec<&'a str> {
    let lines: Vec<&str> = out.lines().collect();
    let start = lines.iter().position(|l| *l == want[0]).unwrap_or(0);
    lines[start..].iter().take(want.len()).copied().collect()
}

#[test]
fn socketpair_creates_a_pair_of_connected_sockets_that_are_indistinguishable() {
    // socketpair(2): "The socketpair call creates an unnamed pair of connected
    // sockets"; "The two sockets are indistinguishable." A datagram pair
    // keeps each message whole (a short receive loses the rest); only the
    // UNIX domain makes pairs (BUGS), and sv must be writable (EFAULT).
    let Some(out) = output("net_unix") else {
        return;
    };
    let want = [
        "socketpair stream: 0",
        "sv[1] reads 5 bytes: hello",
        "sv[0] reads 4 bytes: back",
        "socketpair datagram: 0",
        "a 2-byte recv of \"one\" gets 2: on (the rest is lost)",
        "the next datagram: 4: two!",
        "socketpair AF_INET: -1 EOPNOTSUPP",
        "socketpair to a bad address: -1 EFAULT",
    ];
    assert_eq!(section(out, &want), want);
}

#[test]
fn accept_extracts_the_first_connection_on_the_queue_of_pending_connections() {
    // accept(2): "Accept extracts the first connection on the queue of
    // pending connections, creates a new socket with the same properties
    // of s"; bind(2) names the socket with a path that is then a socket
    // node; a forked client's lines come back upper-cased, and the
    // server reads end of file when the client closes. EADDRINUSE for a
    // name in use; ECONNREFUSED once nothing listens.
    let Some(out) = output("net_unix") else {
        return;
    };
    let want = [
        "bind: 0",
        "the path is a socket: yes",
        "listen: 0",
        "client connect: 0",
        "accepted a connection: yes, peer name length 2",
        "client got: LINE 0",
        "client got: LINE 1",
        "client got: LINE 2",
        "server: read returned 0, the client closed",
        "bind of a name in use: -1 EADDRINUSE",
        "connect after the listener closed: -1 ECONNREFUSED",
    ];
    assert_eq!(section(out, &want), want);
}

#[test]
fn a_sigpipe_signal_is_raised_if_a_process_sends_on_a_broken_stream() {
    // socket(2): "A SIGPIPE signal is raised if a process sends on a broken
    // stream"; the send fails with EPIPE; reads see the data left, then
    // end of file.
    let Some(out) = output("net_unix") else {
        return;
    };
    let want = [
        "read of the data a closed peer left: 4",
        "read after that (end of file): 0",
        "write to the closed peer: -1 EPIPE",
        "send to the closed peer: -1 EPIPE",
        "SIGPIPE caught 2 times",
    ];
    assert_eq!(section(out, &want), want);
}

#[test]
fn fionbio_enables_non_blocking_io_and_poll_sees_what_a_read_would_get() {
    // socket(2): "The FIONBIO i/o control (see ioctl(2)) or the FNDELAY
    // fcntl (see fcntl(2)) enable non-blocking I/O": an empty socket's
    // read is EWOULDBLOCK (EAGAIN). poll, FIONREAD and MSG_PEEK (recv(2))
    // see the bytes waiting; shutdown(2) of sending is end of file for the
    // peer, which can still send.
    let Some(out) = output("net_unix") else {
        return;
    };
    let want = [
        "read of an empty non-blocking socket: -1 EAGAIN",
        "recv of an empty O_NONBLOCK socket: -1 EAGAIN",
        "poll with nothing to read: 1",
        "revents: 0x4 0x0",
        "FIONREAD: 8",
        "poll after a write: 1",
        "revents: 0x5 0x0",
        "recv MSG_PEEK: 4",
        "recv after the peek: 8",
        "bytes: peekaboo",
        "shutdown sv[1] for writing: 0",
        "read on sv[0] after the peer's shutdown: 0",
        "sv[1] can still read: write on sv[0]: 2",
        "read on sv[1]: 2",
        "shutdown with how 3: -1 EINVAL",
    ];
    assert_eq!(section(out, &want), want);
}

#[test]
fn setsockopt_keeps_the_socket_options_and_getsockopt_reports_them() {
    // getsockopt(2): SO_TYPE "get the type of the socket", SO_ERROR, and the
    // options setsockopt sets (SO_REUSEADDR, SO_KEEPALIVE, SO_SNDBUF);
    // ENOPROTOOPT for an unknown option, EINVAL for a short optlen.
    let Some(out) = output("net_unix") else {
        return;
    };
    let want = [
        "SO_TYPE: 2 (length 4)",
        "setsockopt SO_REUSEADDR: 0",
        "setsockopt SO_KEEPALIVE: 0",
        "setsockopt SO_SNDBUF 4096: 0",
        "SO_SNDBUF: 4096",
        "SO_REUSEADDR: on",
        "SO_ERROR: 0",
        "setsockopt of an unknown option: -1 ENOPROTOOPT",
        "setsockopt with a short optlen: -1 EINVAL",
    ];
    assert_eq!(section(out, &want), want);
}

#[test]
fn datagram_sockets_send_to_correspondents_named_and_connect_names_the_peer() {
    // socket(2): "SOCK_DGRAM and SOCK_RAW sockets allow sending of datagrams
    // to correspondents named in send(2) calls"; connect(2): for
    // SOCK_DGRAM it "specifies the peer with which the socket is to be
    // associated". bind(2): EINVAL when already bound; getsockname(2),
    // getpeername(2) (ENOTCONN), EDESTADDRREQ without a destination.
    let Some(out) = output("net_unix") else {
        return;
    };
    let want = [
        "bind a datagram socket: 0",
        "bind it again: -1 EINVAL",
        "getsockname: family 1 path net_unix.sock",
        "getpeername of an unconnected socket: -1 ENOTCONN",
        "send without a destination: -1 EDESTADDRREQ",
        "sendto the bound path: 5",
        "recvfrom: 5",
        "from an unbound sender: name length 2 family 1",
        "listen on a datagram socket: -1 EOPNOTSUPP",
        "connect to it: 0",
        "write on the connected datagram socket: 1",
        "read it: 1",
    ];
    assert_eq!(section(out, &want), want);
}

#[test]
fn sendmsg_gathers_and_recvmsg_scatters_the_iovecs() {
    // recv(2): "The recvmsg call uses a msghdr structure to minimize the
    // number of directly supplied parameters"; "recvmsg will always fill
    // an area completely before proceeding to the next". A message
    // without access rights gives back an accrightslen of 0; one with a
    // descriptor is sent (net_rights receives them).
    let Some(out) = output("net_unix") else {
        return;
    };
    let want = [
        "sendmsg of two iovecs: 8",
        "recvmsg: 8 bytes, \"gath\" then \"ered\", accrightslen 0",
        "sendmsg passing a descriptor: 6",
        "sendmsg with no iovecs: 0",
    ];
    assert_eq!(section(out, &want), want);
}

#[test]
fn the_socket_calls_fail_as_their_pages_list() {
    // bind(2): ENOTSOCK for a file, EAFNOSUPPORT, EFAULT; connect(2):
    // ECONNREFUSED for a path that is no socket, ENOENT for a missing one;
    // accept(2) on a socket not listening; socket(2): EAFNOSUPPORT,
    // EPROTONOSUPPORT, SOCK_RAW "available only to the super-user" (EACCES);
    // EBADF.
    let Some(out) = output("net_unix") else {
        return;
    };
    let want = [
        "bind on a file: -1 ENOTSOCK",
        "connect to a path that is no socket: -1 ECONNREFUSED",
        "connect to a missing path: -1 ENOENT",
        "bind to an AF_INET address: -1 EAFNOSUPPORT",
        "bind from a bad address: -1 EFAULT",
        "accept on a socket not listening: -1 EINVAL",
        "socket of family 99: -1 EAFNOSUPPORT",
        "socket of type 9: -1 EPROTONOSUPPORT",
        "socket SOCK_RAW: -1 EACCES",
        "getsockopt on a closed descriptor: -1 EBADF",
    ];
    assert_eq!(section(out, &want), want);
}

#[test]
fn a_stream_socket_connects_on_the_loopback_address_and_exchanges_bytes() {
    // socket(2): "Sockets of type SOCK_STREAM are full-duplex byte
    // streams"; accept(2): "It is possible to select(2) a socket for the
    // purposes of doing an accept by selecting it for read"; an unbound
    // client gets port 1024, the first anonymous port; EISCONN for a second
    // connect (connect(2): "stream sockets may successfully connect only
    // once").
    let Some(out) = output("net_inet") else {
        return;
    };
    let want = [
        "bind 127.0.0.1:7000: 0",
        "listen: 0",
        "client connect: 0",
        "client's own name: 127.0.0.1 port 1024",
        "client TCP_NODELAY: 0",
        "select for the connection: 1",
        "the listening socket is readable: yes",
        "accepted from: 127.0.0.1 port 1024",
        "the accepted socket's name: 127.0.0.1 port 7000",
        "its peer: 127.0.0.1 port 1024",
        "server got: ping over tcp",
        "client got back: ping over tcp",
        "client connects again: -1 EISCONN",
    ];
    assert_eq!(section(out, &want), want);
}

#[test]
fn an_address_in_use_is_eaddrinuse_and_a_closed_sockets_port_is_free() {
    // bind(2): "[EADDRINUSE] The specified address is already in use";
    // connect(2): "[ECONNREFUSED] The attempt to connect was forcefully
    // rejected" when nothing listens; there is no TIME_WAIT.
    let Some(out) = output("net_inet") else {
        return;
    };
    let want = [
        "a second bind of port 7000: -1 EADDRINUSE",
        "connect with no listener: -1 ECONNREFUSED",
        "bind of port 7000 once it is closed: 0",
    ];
    assert_eq!(section(out, &want), want);
}

#[test]
fn datagrams_are_received_with_their_return_address() {
    // socket(2): "Datagrams are generally received with recvfrom(2), which
    // returns the next datagram with its return address." Port 0 takes
    // the next anonymous port; a datagram to a port nobody holds is lost;
    // a connected datagram socket refuses another address (EISCONN).
    let Some(out) = output("net_inet") else {
        return;
    };
    let want = [
        "bind UDP 127.0.0.1:9000: 0",
        "bind UDP port 0: 0",
        "port 0 became: 0.0.0.0 port 1025",
        "received 10 bytes \"datagram 0\"; from: 127.0.0.1 port 1025",
        "received 10 bytes \"datagram 1\"; from: 127.0.0.1 port 1025",
        "received 10 bytes \"datagram 2\"; from: 127.0.0.1 port 1025",
        "sendto a port nobody holds (lost, as UDP loses it): 4",
        "connect the UDP socket: 0",
        "sendto on it with an address: -1 EISCONN",
        "write on it: 9",
        "read it: 9",
    ];
    assert_eq!(section(out, &want), want);
}

#[test]
fn an_address_outside_the_run_is_unreachable() {
    // connect(2): "[ENETUNREACH] The network isn't reachable from this
    // host": irix-emu reaches no host network. bind(2): EADDRNOTAVAIL for
    // an address not this machine's, EACCES for a port below 1024;
    // EINVAL for a short address, EAFNOSUPPORT for another family,
    // ENOPROTOOPT for a TCP option on a UDP socket.
    let Some(out) = output("net_inet") else {
        return;
    };
    let want = [
        "connect to 192.0.2.1:80: -1 ENETUNREACH",
        "sendto 192.0.2.1:80: -1 ENETUNREACH",
        "bind to 10.1.2.3 (not this machine's): -1 EADDRNOTAVAIL",
        "bind to port 80 (the super-user's): -1 EACCES",
        "bind with a short address: -1 EINVAL",
        "connect with an AF_UNIX address: -1 EAFNOSUPPORT",
        "TCP_NODELAY on a UDP socket: -1 ENOPROTOOPT",
    ];
    assert_eq!(section(out, &want), want);
}

#[test]
fn every_socket_program_prints_and_profiles_the_same_on_two_runs() {
    for name in ["net_unix", "net_inet", "net_rights", "net_oob"] {
        common::profiles_the_same_twice(name, output(name));
    }
}

#[test]
fn access_rights_are_currently_limited_to_file_descriptors_each_the_size_of_an_int() {
    // recv(2): "Access rights are opaque data ... currently limited to
    // file descriptors, which each occupy the size of an int". A pipe's
    // write end sent over a stream pair to a forked child is a new
    // descriptor there, through which the child writes to the parent; a
    // file sent over a datagram pair shares its open file, offset and
    // all, with the sender's descriptor.
    let Some(out) = output("net_rights") else {
        return;
    };
    let want = [
        "socketpair stream: 0",
        "parent: sendmsg with the pipe's write end: 9",
        "child: recvmsg 9 bytes \"take this\" and 1 descriptor(s)",
        "child: the descriptor is new: yes",
        "parent read from the pipe: written by the child through the passed pipe",
        "parent: end of file once the child's copy is closed: yes",
        "sendmsg a file over a datagram pair: 4",
        "recvmsg: 4 bytes, 1 descriptor(s)",
        "read through the new descriptor: first ",
        "the sender's descriptor shares the offset: second",
    ];
    assert_eq!(section(out, &want), want);
}

#[test]
fn sendmsg_fails_with_ebadf_for_a_right_that_is_no_descriptor_and_unreceived_rights_close_with_the_socket(
) {
    // send(2) [EBADF] "An invalid descriptor was specified" -- here one in
    // the access rights; AF_INET carries no rights (EOPNOTSUPP). Rights
    // sent and never received are closed when the socket goes, so the
    // pipe whose write end they held reads end of file. A receiver whose
    // descriptor table is full gets EMFILE and the message stays queued.
    let Some(out) = output("net_rights") else {
        return;
    };
    let want = [
        "sendmsg with a right that is no descriptor: -1 EBADF",
        "sendmsg with rights on AF_INET: -1 EOPNOTSUPP",
        "sendmsg a pipe's write end, never received: 4",
        "the pipe reads end of file once the sockets are closed: yes",
    ];
    assert_eq!(section(out, &want), want);
    let want = [
        "recvmsg with a full descriptor table: -1 EMFILE",
        "after one close: 4 bytes \"full\", 1 descriptor(s), at the freed slot: yes",
    ];
    assert_eq!(section(out, &want), want);
}

#[test]
fn a_socket_sent_over_itself_or_holding_rights_is_einval_so_no_socket_keeps_itself_open() {
    // recv(2)'s access rights are descriptors; a socket among them that
    // would land in its own receive queue (or its peer's), or that holds
    // rights itself, would keep itself open after its last close: EINVAL.
    let Some(out) = output("net_rights") else {
        return;
    };
    let want = [
        "sendmsg a socket to itself: -1 EINVAL",
        "sendmsg a socket over itself to its peer: -1 EINVAL",
        "sendmsg another pair's end: 3",
        "sendmsg a socket holding rights: -1 EINVAL",
    ];
    assert_eq!(section(out, &want), want);
}

#[test]
fn recvmsg_with_a_null_msg_accrights_has_no_room_for_rights_and_installs_none() {
    // recv(2): msg_accrights is where access rights are received; a NULL
    // one (whatever msg_accrightslen says) has room for none, so the data
    // comes and the descriptor sent with it is closed, never installed.
    let Some(out) = output("net_rights") else {
        return;
    };
    let want = [
        "recvmsg with a NULL msg_accrights and a length: 4 bytes \"kept\", accrightslen 0",
        "the descriptor sent was closed, not installed: yes",
    ];
    assert_eq!(section(out, &want), want);
}

#[test]
fn msg_oob_sends_out_of_band_data_on_a_stream_and_reads_stop_at_the_mark() {
    // send(2): "The flag MSG_OOB is used to send out-of-band data on
    // sockets that support this notion (e.g., SOCK_STREAM)": the last
    // byte sent is urgent, kept apart from the stream; a read stops at
    // the mark, where SIOCATMARK then answers 1; recv(2) with MSG_OOB
    // takes the byte (MSG_PEEK leaves it), EINVAL when none waits; poll
    // shows POLLPRI meanwhile. Datagram sockets have no such notion.
    let Some(out) = output("net_oob") else {
        return;
    };
    let want = [
        "recv MSG_OOB with none sent: -1 EINVAL",
        "send \"de!\" with MSG_OOB: 3",
        "poll: POLLPRI yes",
        "at the mark before reading: 0",
        "a read stops at the mark: abcde",
        "at the mark now: 1",
        "recv MSG_OOB|MSG_PEEK: 1",
        "recv MSG_OOB: 1 byte: !",
        "recv MSG_OOB again: -1 EINVAL",
        "the rest, without the urgent byte: fg",
        "at the mark after it: 0",
        "send MSG_OOB on a datagram socket: -1 EOPNOTSUPP",
    ];
    assert_eq!(section(out, &want), want);
}

/// `irix-emu run [--net] net_oob inet`'s output (None: not built).
fn oob_inet(net: bool) -> Option<String> {
    let program = common::guest_program("irix", "net_oob")?;
    let dir = common::Scratch::new("net_oob_inet");
    let mut args: Vec<std::ffi::OsString> = vec!["run".into()];
    if net {
        args.push("--net".into());
    }
    args.push(program.into());
    args.push("inet".into());
    let cmd = common::emu_command(args, dir.path());
    let r = test_support::process::run_command_within(cmd, std::time::Duration::from_secs(30));
    assert_eq!(r.status, exited(0), "stderr: {}", r.stderr);
    Some(r.stdout_text())
}

#[test]
fn the_last_byte_of_a_msg_oob_send_is_urgent_on_an_inet_connection_of_the_run_with_net_too() {
    // send(2): MSG_OOB sends "out-of-band" data on sockets that support
    // it, as SOCK_STREAM does; an AF_INET connection between two sockets
    // of the run is one of the run's own under --net as without it.
    let Some(without) = oob_inet(false) else {
        return;
    };
    assert!(
        without.contains("urgent byte: !\nread before the mark: 2\ndata: xy"),
        "without --net: {without}"
    );
    assert_eq!(oob_inet(true).unwrap(), without, "the same with --net");
}
