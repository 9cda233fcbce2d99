//! `--net`: AF_INET sockets of the run that reach the host's network
//! (crates/irix-kernel/src/net/host.rs), on the guest program net_host
//! (guest/src/net_host.c) talking to sockets this test makes on the
//! host's loopback address. Each test is named after what connect(2),
//! bind(2), listen(2), accept(2), send(2) or recv(2) says, now of a host
//! peer. Every host socket here accepts or answers a bounded number of
//! times with a timeout, and every irix-emu run is killed after
//! [`LIMIT`], so a regression fails instead of hanging.

use crate::common;

use std::io::{Read, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream, UdpSocket};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::{exited, Run, Scratch};

/// How long any one run or host wait may take.
const LIMIT: Duration = Duration::from_secs(30);

fn program() -> Option<PathBuf> {
    common::guest_program("irix", "net_host")
}

/// `irix-emu run [--net] net_host ARGS`, killed after LIMIT.
fn run(net: bool, args: &[&str]) -> Option<Run> {
    let program = program()?;
    let dir = Scratch::new("net_host");
    let mut all: Vec<std::ffi::OsString> = vec!["run".into()];
    if net {
        all.push("--net".into());
    }
    all.push("--strace".into());
    all.push(program.into());
    all.extend(args.iter().map(Into::into));
    let cmd = common::emu_command(all, dir.path());
    Some(test_support::process::run_command_within(cmd, LIMIT))
}

/// A port of the host's loopback address free a moment ago.
fn free_port(udp: bool) -> u16 {
    if udp {
        UdpSocket::bind((Ipv4Addr::LOCALHOST, 0))
            .unwrap()
            .local_addr()
            .unwrap()
            .port()
    } else {
        TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .unwrap()
            .local_addr()
            .unwrap()
            .port()
    }
}

/// Accepts ONE connection on `l` (or gives up after LIMIT: false) and
/// echoes what it reads until end of file.
fn echo_one(l: TcpListener) -> bool {
    l.set_nonblocking(true).unwrap();
    let start = Instant::now();
    let mut c = loop {
        match l.accept() {
            Ok((c, _)) => break c,
            Err(_) if start.elapsed() < LIMIT => std::thread::sleep(Duration::from_millis(10)),
            Err(_) => return false,
        }
    };
    c.set_nonblocking(false).unwrap();
    c.set_read_timeout(Some(LIMIT)).unwrap();
    let mut buf = [0u8; 256];
    while let Ok(n) = c.read(&mut buf) {
        if n == 0 || c.write_all(&buf[..n]).is_err() {
            break;
        }
    }
    true
}

/// A host TCP listener that accepts ONE connection (or gives up after
/// LIMIT) and echoes what it reads until end of file.
fn echo_server() -> (u16, std::thread::JoinHandle<bool>) {
    let l = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    let port = l.local_addr().unwrap().port();
    (port, std::thread::spawn(move || echo_one(l)))
}

/// As `echo_server`, but a host listener whose queue of pending
/// connections is full (backlog 0, one connection waiting) for its first
/// SLOW_ACCEPT: a connect to it cannot finish at once, as the host drops
/// its first attempts; it finishes once the listener takes the connection
/// waiting and then accepts the next one.
fn slow_echo_server() -> (u16, std::thread::JoinHandle<bool>) {
    use std::os::fd::AsRawFd;
    const SLOW_ACCEPT: Duration = Duration::from_secs(2);
    let l = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    // SAFETY: listen(2) on a descriptor `l` owns.
    assert_eq!(unsafe { libc::listen(l.as_raw_fd(), 0) }, 0);
    let port = l.local_addr().unwrap().port();
    let filler = TcpStream::connect((Ipv4Addr::LOCALHOST, port)).unwrap();
    let server = std::thread::spawn(move || {
        std::thread::sleep(SLOW_ACCEPT);
        let first = l.accept();
        drop((first, filler));
        echo_one(l)
    });
    (port, server)
}

fn stdout_lines(r: &Run) -> Vec<String> {
    r.stdout_text().lines().map(str::to_owned).collect()
}

/// Runs net_host with --net in `mode` against the host echo `server`
/// (`connect` or `nbconnect` to 127.0.0.1 with `message`), asserts that
/// the server was reached and the run exited 0, and gives its stdout lines
/// and the run.
fn against_host_echo(
    (port, server): (u16, std::thread::JoinHandle<bool>),
    mode: &str,
    message: &str,
) -> Option<(Vec<String>, Run, u16)> {
    let r = run(true, &[mode, "127.0.0.1", &port.to_string(), message])?;
    assert!(
        server.join().unwrap(),
        "the host listener got no connection"
    );
    assert_eq!(r.status, exited(0), "stderr: {}", r.stderr);
    Some((stdout_lines(&r), r, port))
}

#[test]
fn connect_with_net_reaches_a_host_listener_that_no_socket_of_the_run_holds() {
    // connect(2): "this call attempts to make a connection to another
    // socket ... specified by name"; with --net a name no socket of the
    // run holds is the host's. The echo comes back, poll(2) sees it,
    // shutdown(2) of sending is end of file for the host, which closes.
    let Some((lines, r, port)) = against_host_echo(echo_server(), "connect", "hello, host") else {
        return;
    };
    assert_eq!(
        lines,
        [
            "connect: 0",
            "peer: 127.0.0.1",
            "send: 11",
            "poll for the echo: 1",
            "readable: yes",
            "got back: hello, host",
            "shutdown for writing: 0",
            "then read: 0 (end of file)",
        ]
    );
    assert!(
        r.stderr.contains(&format!(
            "connect(3, {{AF_INET, 127.0.0.1:{port}}}, 16) = 0"
        )),
        "--strace shows the connect: {}",
        r.stderr
    );
}

#[test]
fn a_non_blocking_connect_completes_and_poll_for_writing_then_so_error_tell_so() {
    // connect(2): for a non-blocking socket whose connection "cannot be
    // completed immediately" the call is EINPROGRESS, and one may
    // "select(2) for completion by selecting the socket for writing"; SO_ERROR
    // then says how, and the socket is connected without a second connect.
    // listen(2) meanwhile is EINVAL and leaves the connect under way.
    let Some((lines, _, _)) = against_host_echo(slow_echo_server(), "nbconnect", "no waiting")
    else {
        return;
    };
    assert_eq!(
        lines,
        [
            "connect: -1 EINPROGRESS",
            "listen while connecting: -1 EINVAL",
            "poll for writing: 1",
            "writable: yes",
            "SO_ERROR: 0",
            "SO_ERROR value: 0",
            "getpeername: 0",
            "peer: 127.0.0.1",
            "send: 10",
            "got back: no waiting",
        ]
    );
}

#[test]
fn accept_with_net_returns_a_connection_made_from_the_host() {
    // bind(2) with --net binds the host's port too, so a host program can
    // connect; accept(2) "extracts the first connection on the queue of
    // pending connections" -- here one from outside the run.
    let port = free_port(false);
    let arg = port.to_string();
    let emu = std::thread::spawn(move || run(true, &["listen", &arg]));
    let start = Instant::now();
    let mut c = loop {
        match TcpStream::connect((Ipv4Addr::LOCALHOST, port)) {
            Ok(c) => break Some(c),
            Err(_) if start.elapsed() < LIMIT && !emu.is_finished() => {
                std::thread::sleep(Duration::from_millis(20))
            }
            Err(_) => break None,
        }
    };
    if let Some(c) = c.as_mut() {
        c.set_read_timeout(Some(LIMIT)).unwrap();
        c.write_all(b"hello from the host\n").unwrap();
        let mut got = String::new();
        c.read_to_string(&mut got).unwrap();
        assert_eq!(got, "HELLO FROM THE HOST\n");
    }
    let Some(r) = emu.join().unwrap() else {
        return;
    };
    assert!(c.is_some(), "could not connect: {}", r.stdout_text());
    assert_eq!(r.status, exited(0), "stderr: {}", r.stderr);
    assert_eq!(
        stdout_lines(&r),
        [
            "bind: 0",
            "listen: 0",
            "accept: a new descriptor",
            "accepted from: 127.0.0.1",
            "server got: hello from the host",
            "send back: 20",
        ]
    );
}

#[test]
fn sendto_with_net_reaches_a_host_datagram_socket_and_recvfrom_gets_its_reply() {
    // send(2): sendto "may be used at any time" with a destination; with
    // --net a port no socket of the run holds is the host's. recv(2):
    // recvfrom fills in the sender's address -- the host's socket.
    let host = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    let port = host.local_addr().unwrap().port();
    host.set_read_timeout(Some(LIMIT)).unwrap();
    let server = std::thread::spawn(move || {
        let mut buf = [0u8; 64];
        let Ok((n, from)) = host.recv_from(&mut buf) else {
            return false;
        };
        let reply = buf[..n].to_ascii_uppercase();
        host.send_to(&reply, from).is_ok()
    });
    let Some(r) = run(
        true,
        &["udp", "127.0.0.1", &port.to_string(), "datagram out"],
    ) else {
        return;
    };
    assert!(server.join().unwrap(), "the host socket got no datagram");
    assert_eq!(r.status, exited(0), "stderr: {}", r.stderr);
    assert_eq!(
        stdout_lines(&r),
        [
            "sendto: 12",
            "recvfrom: 12",
            "reply: DATAGRAM OUT",
            "from: 127.0.0.1",
            "from the port sent to: yes",
        ]
    );
}

#[test]
fn a_datagram_socket_bound_with_net_receives_from_the_host_and_replies_to_its_sender() {
    // bind(2) with --net binds the host's UDP port; recvfrom(2) names the
    // host sender, and a sendto(2) to that name reaches it.
    let port = free_port(true);
    let arg = port.to_string();
    let emu = std::thread::spawn(move || run(true, &["udplisten", &arg]));
    let me = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    me.set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let start = Instant::now();
    let mut reply = None;
    // A datagram sent before the guest has bound is lost, as UDP loses
    // it: send again (a bounded number of times) until the reply comes.
    while reply.is_none() && start.elapsed() < LIMIT && !emu.is_finished() {
        me.send_to(b"ping over udp", (Ipv4Addr::LOCALHOST, port))
            .unwrap();
        let mut buf = [0u8; 64];
        if let Ok((n, _)) = me.recv_from(&mut buf) {
            reply = Some(buf[..n].to_vec());
        }
    }
    let Some(r) = emu.join().unwrap() else {
        return;
    };
    assert_eq!(reply.as_deref(), Some(&b"PING OVER UDP"[..]), "{r:?}");
    assert_eq!(r.status, exited(0), "stderr: {}", r.stderr);
    assert_eq!(
        stdout_lines(&r),
        [
            "bind: 0",
            "recvfrom: 13",
            "datagram: ping over udp",
            "from: 127.0.0.1",
            "reply: 13",
        ]
    );
}

#[test]
fn without_net_the_host_is_not_reached_connect_is_refused_on_loopback_and_unreachable_elsewhere() {
    // Without --net nothing leaves the run: on the loopback address with
    // no listener of the run connect(2) is ECONNREFUSED, even though a
    // host program listens on that port; any other address is
    // ENETUNREACH ("The network isn't reachable from this host").
    let host = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    let port = host.local_addr().unwrap().port().to_string();
    let Some(r) = run(false, &["connect", "127.0.0.1", &port, "x"]) else {
        return;
    };
    assert_eq!(r.status, exited(1), "stderr: {}", r.stderr);
    assert_eq!(stdout_lines(&r), ["connect: -1 ECONNREFUSED"]);
    host.set_nonblocking(true).unwrap();
    assert!(host.accept().is_err(), "the host listener was reached");
    let r = run(false, &["connect", "192.0.2.1", "80", "x"]).unwrap();
    assert_eq!(r.status, exited(1), "stderr: {}", r.stderr);
    assert_eq!(stdout_lines(&r), ["connect: -1 ENETUNREACH"]);
    let r = run(false, &["udp", "192.0.2.1", "80", "x"]).unwrap();
    assert_eq!(stdout_lines(&r), ["sendto: -1 ENETUNREACH"]);
}

#[test]
fn with_net_a_refused_host_connection_is_econnrefused() {
    // connect(2) ECONNREFUSED: "The attempt to connect was forcefully
    // rejected" -- the host's refusal, in IRIX's number.
    let port = free_port(false).to_string();
    let Some(r) = run(true, &["connect", "127.0.0.1", &port, "x"]) else {
        return;
    };
    assert_eq!(r.status, exited(1), "stderr: {}", r.stderr);
    assert_eq!(stdout_lines(&r), ["connect: -1 ECONNREFUSED"]);
}

#[test]
fn without_arguments_net_host_prints_its_usage_and_exits_2() {
    let Some(r) = run(false, &[]) else {
        return;
    };
    assert_eq!(r.status, exited(2));
    assert!(r.stdout_text().starts_with("usage: net_host connect"));
}
