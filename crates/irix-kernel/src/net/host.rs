//! The host side of an AF_INET socket when the run may reach the host's
//! network (`--net`): a host socket, always non-blocking on the host, that
//! carries what no socket of the run answers. A transfer it cannot make
//! now is `Io::WaitHost`: the caller waits as for a host FIFO, and the
//! scheduler waits in the host's poll(2) when nothing else can run
//! (`Kernel::wait_for_host`).
//!
//! The socket2 crate makes the host sockets: std::net has no way to bind
//! a socket before it connects or listens, nor to connect without
//! blocking, and both are needed here (a guest's bind comes before its
//! listen or connect; a connect must not stop the whole run).

use std::io::{ErrorKind, Read, Write};
use std::net::{Ipv4Addr, Shutdown, SocketAddr, SocketAddrV4, TcpListener, TcpStream, UdpSocket};
use std::os::fd::{AsRawFd, RawFd};

use socket2::{Domain, Protocol, SockAddr, Type};

use super::{Addr, SOCK_STREAM};
use crate::files::Io;
use crate::Errno;

/// What the host socket is now.
pub enum Host {
    /// Bound by bind(2), before listen(2) or connect(2).
    Bound(socket2::Socket),
    /// A stream connect(2) started and the host has not finished.
    Connecting(socket2::Socket),
    Stream(TcpStream),
    Listener(TcpListener),
    Datagram(UdpSocket),
}

/// The host's error as the guest's IRIX number.
pub fn errno(e: &std::io::Error) -> Errno {
    match e.raw_os_error() {
        Some(libc::ECONNREFUSED) => Errno::ECONNREFUSED,
        Some(libc::ECONNRESET) => Errno::ECONNRESET,
        Some(libc::ECONNABORTED) => Errno::ECONNABORTED,
        Some(libc::EPIPE) => Errno::EPIPE,
        Some(libc::ENETUNREACH) => Errno::ENETUNREACH,
        Some(libc::ENETDOWN) => Errno::ENETDOWN,
        Some(libc::EHOSTUNREACH) => Errno::EHOSTUNREACH,
        Some(libc::EHOSTDOWN) => Errno::EHOSTDOWN,
        Some(libc::ETIMEDOUT) => Errno::ETIMEDOUT,
        Some(libc::EADDRINUSE) => Errno::EADDRINUSE,
        Some(libc::EADDRNOTAVAIL) => Errno::EADDRNOTAVAIL,
        Some(libc::EACCES | libc::EPERM) => Errno::EACCES,
        Some(libc::EISCONN) => Errno::EISCONN,
        Some(libc::ENOTCONN) => Errno::ENOTCONN,
        Some(libc::EMSGSIZE) => Errno::EMSGSIZE,
        Some(libc::ENOBUFS | libc::ENOMEM) => Errno::ENOBUFS,
        Some(libc::EINPROGRESS) => Errno::EINPROGRESS,
        Some(libc::EALREADY) => Errno::EALREADY,
        Some(libc::EINVAL) => Errno::EINVAL,
        Some(libc::EMFILE | libc::ENFILE) => Errno::EMFILE,
        _ => Errno::EIO,
    }
}

/// The host's address for an AF_INET name.
fn sockaddr(ip: u32, port: u16) -> SockAddr {
    SockAddr::from(SocketAddrV4::new(Ipv4Addr::from(ip), port))
}

/// A host address as an AF_INET name (an IPv6 one, which no socket of
/// the run makes, as the unspecified address).
pub fn name(addr: SocketAddr) -> Addr {
    match addr {
        SocketAddr::V4(a) => Addr::Inet {
            ip: u32::from(*a.ip()),
            port: a.port(),
        },
        SocketAddr::V6(a) => Addr::Inet {
            ip: 0,
            port: a.port(),
        },
    }
}

fn new_socket(stype: u32) -> Result<socket2::Socket, Errno> {
    let (ty, proto) = if stype == SOCK_STREAM {
        (Type::STREAM, Protocol::TCP)
    } else {
        (Type::DGRAM, Protocol::UDP)
    };
    let s = socket2::Socket::new(Domain::IPV4, ty, Some(proto)).map_err(|e| errno(&e))?;
    s.set_nonblocking(true).map_err(|e| errno(&e))?;
    Ok(s)
}

/// A host socket of type `stype` bound to `ip`:`port` (port 0: the host
/// picks one), with SO_REUSEADDR as the guest set it. Returns it with
/// the port it got.
pub fn bind(stype: u32, ip: u32, port: u16, reuse: bool) -> Result<(Host, u16), Errno> {
    let s = new_socket(stype)?;
    s.set_reuse_address(reuse).map_err(|e| errno(&e))?;
    s.bind(&sockaddr(ip, port)).map_err(|e| errno(&e))?;
    let port = s
        .local_addr()
        .ok()
        .and_then(|a| a.as_socket())
        .map_or(port, |a| a.port());
    let host = if stype == SOCK_STREAM {
        Host::Bound(s)
    } else {
        Host::Datagram(s.into())
    };
    Ok((host, port))
}

impl Host {
    pub fn fd(&self) -> RawFd {
        match self {
            Host::Bound(s) | Host::Connecting(s) => s.as_raw_fd(),
            Host::Stream(s) => s.as_raw_fd(),
            Host::Listener(s) => s.as_raw_fd(),
            Host::Datagram(s) => s.as_raw_fd(),
        }
    }

    /// The host's poll(2) answer now, without waiting, for `events`.
    pub fn poll(&self, events: i16) -> i16 {
        let mut pfd = libc::pollfd {
            fd: self.fd(),
            events,
            revents: 0,
        };
        // SAFETY: one valid pollfd for a descriptor this socket owns;
        // timeout 0.
        if unsafe { libc::poll(&mut pfd, 1, 0) } <= 0 {
            return 0;
        }
        pfd.revents
    }

    /// The name the host gave the socket.
    pub fn local(&self) -> Option<Addr> {
        let addr = match self {
            Host::Bound(s) | Host::Connecting(s) => s.local_addr().ok()?.as_socket()?,
            Host::Stream(s) => s.local_addr().ok()?,
            Host::Listener(s) => s.local_addr().ok()?,
            Host::Datagram(s) => s.local_addr().ok()?,
        };
        Some(name(addr))
    }

    /// listen(2) on a bound stream socket.
    pub fn listen(self, backlog: usize) -> Result<Host, Errno> {
        match self {
            Host::Bound(s) => {
                s.listen(backlog as i32).map_err(|e| errno(&e))?;
                Ok(Host::Listener(s.into()))
            }
            listening @ Host::Listener(_) => Ok(listening),
            _ => Err(Errno::EINVAL),
        }
    }

    /// Bytes a read could take now (FIONREAD): a stream's buffered
    /// bytes, a datagram socket's next datagram's length.
    pub fn waiting(&self) -> usize {
        let mut n: libc::c_int = 0;
        // SAFETY: FIONREAD writes one int to `n`.
        if unsafe { libc::ioctl(self.fd(), libc::FIONREAD, &mut n) } < 0 {
            return 0;
        }
        n.max(0) as usize
    }
}

/// Starts a stream connect to `ip`:`port` from `bound` (the socket bind(2)
/// made) or a new socket: the host socket, connected or connecting.
/// On an error the socket bind(2) made is given back with it, to stay
/// the guest socket's.
pub fn connect(bound: Option<Host>, ip: u32, port: u16) -> Result<Host, (Errno, Option<Host>)> {
    let s = match bound {
        Some(Host::Bound(s)) => s,
        Some(other) => return Err((Errno::EISCONN, Some(other))),
        None => new_socket(SOCK_STREAM).map_err(|e| (e, None))?,
    };
    match s.connect(&sockaddr(ip, port)) {
        Ok(()) => Ok(Host::Stream(s.into())),
        Err(e) if e.raw_os_error() == Some(libc::EINPROGRESS) => Ok(Host::Connecting(s)),
        Err(e) => Err((errno(&e), Some(Host::Bound(s)))),
    }
}

/// A connecting socket, looked at again: `Ok(false)` while the host has
/// not finished, `Ok(true)` once connected, or the connection's error.
pub fn finish_connect(s: &socket2::Socket) -> Result<bool, Errno> {
    let mut pfd = libc::pollfd {
        fd: s.as_raw_fd(),
        events: libc::POLLOUT,
        revents: 0,
    };
    // SAFETY: one valid pollfd for a descriptor `s` owns; timeout 0.
    if unsafe { libc::poll(&mut pfd, 1, 0) } <= 0 {
        return Ok(false);
    }
    match s.take_error() {
        Ok(Some(e)) | Err(e) => Err(errno(&e)),
        Ok(None) => Ok(true),
    }
}

/// The outcome of a host transfer: WouldBlock is a wait on the host.
fn transfer(r: std::io::Result<usize>) -> Result<Io, Errno> {
    match r {
        Ok(n) => Ok(Io::Done(n)),
        Err(e) if e.kind() == ErrorKind::WouldBlock => Ok(Io::WaitHost),
        Err(e) if e.kind() == ErrorKind::Interrupted => Ok(Io::WaitHost),
        Err(e) => Err(errno(&e)),
    }
}

/// Reads a host stream (`peek`: leaving the bytes).
pub fn read(s: &mut TcpStream, out: &mut [u8], peek: bool) -> Result<Io, Errno> {
    if peek {
        transfer(s.peek(out))
    } else {
        transfer(s.read(out))
    }
}

/// Writes a host stream (std sends with MSG_NOSIGNAL: a broken stream is
/// EPIPE, and the caller raises SIGPIPE in the guest, not the host).
pub fn write(s: &mut TcpStream, data: &[u8]) -> Result<Io, Errno> {
    transfer(s.write(data))
}

/// The next datagram of a host socket, with its sender.
pub fn recv_from(s: &UdpSocket, out: &mut [u8], peek: bool) -> Result<(Io, Option<Addr>), Errno> {
    let r = if peek {
        s.peek_from(out)
    } else {
        s.recv_from(out)
    };
    match r {
        Ok((n, from)) => Ok((Io::Done(n), Some(name(from)))),
        Err(e) => transfer(Err(e)).map(|io| (io, None)),
    }
}

/// One datagram to `ip`:`port` from a host socket.
pub fn send_to(s: &UdpSocket, data: &[u8], ip: u32, port: u16) -> Result<Io, Errno> {
    transfer(s.send_to(data, SocketAddrV4::new(Ipv4Addr::from(ip), port)))
}

/// shutdown(2) of a host stream.
pub fn shutdown(s: &TcpStream, how: u32) -> Result<(), Errno> {
    let how = match how {
        0 => Shutdown::Read,
        1 => Shutdown::Write,
        _ => Shutdown::Both,
    };
    match s.shutdown(how) {
        Ok(()) => Ok(()),
        Err(e) if e.raw_os_error() == Some(libc::ENOTCONN) => Ok(()),
        Err(e) => Err(errno(&e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_errors_become_irix_numbers() {
        let e = std::io::Error::from_raw_os_error(libc::ECONNREFUSED);
        assert_eq!(errno(&e), Errno::ECONNREFUSED);
        assert_eq!(errno(&e).number(), 146);
        let e = std::io::Error::from_raw_os_error(libc::EHOSTUNREACH);
        assert_eq!(errno(&e).number(), 148);
    }

    #[test]
    fn a_bound_host_stream_listens_and_takes_a_host_connection() {
        let (host, port) = bind(SOCK_STREAM, 0x7f00_0001, 0, true).unwrap();
        assert!(port != 0);
        let Host::Listener(l) = host.listen(1).unwrap() else {
            panic!("not listening");
        };
        let _c = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        let mut got = None;
        for _ in 0..200 {
            match l.accept() {
                Ok(c) => {
                    got = Some(c);
                    break;
                }
                Err(_) => std::thread::sleep(std::time::Duration::from_millis(5)),
            }
        }
        assert!(got.is_some(), "no connection accepted");
    }
}
