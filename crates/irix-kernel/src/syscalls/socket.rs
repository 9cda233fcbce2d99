//! The socket calls (socket(2), socketpair(2), bind(2), listen(2),
//! accept(2), connect(2), send(2), recv(2), shutdown(2), getsockname(2),
//! getpeername(2), getsockopt(2)): AF_UNIX and loopback AF_INET sockets
//! between the run's processes, kept in the kernel (`crate::net`), and
//! with `--net` AF_INET sockets that reach the host's network too
//! (`crate::net::host`): a name a socket of the run holds is reached in
//! the kernel, any other address through a host socket.
//!
//! A call that must wait (accept with no connection, a receive with
//! nothing there, a send to a full buffer) blocks as a pipe transfer
//! does (on a host socket: as a host FIFO's transfer does), or fails with
//! EWOULDBLOCK (EAGAIN) on a socket made non-blocking with FIONBIO or
//! O_NONBLOCK.

use std::cell::RefCell;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::rc::Rc;

use super::{Args, Ret, SysResult};
use crate::files::{oflag, FileKind, Io, OpenFile};
use crate::kernel::Kernel;
use crate::net::addr::{INADDR_LOOPBACK, UNIX_PATH_MAX};
use crate::net::host::{self, Host};
use crate::net::{self, Addr, Conn, Key, Socket, AF_INET, AF_UNIX, SOCK_DGRAM, SOCK_STREAM};
use crate::process::Process;
use crate::vfs::Follow;
use crate::Errno;

/// SOCK_RAW: the super-user's (socket(2)).
const SOCK_RAW: u32 = 4;
/// Protocols (`<netinet/in.h>`).
const IPPROTO_TCP: u32 = 6;
const IPPROTO_UDP: u32 = 17;
/// Option levels and names (`<sys/socket.h>`, `<netinet/tcp.h>`).
pub const SOL_SOCKET: u32 = 0xffff;
const SO_ACCEPTCONN: u32 = 0x0002;
const SO_REUSEADDR: u32 = 0x0004;
const SO_KEEPALIVE: u32 = 0x0008;
/// The on/off options a socket keeps: SO_DEBUG, SO_REUSEADDR,
/// SO_KEEPALIVE, SO_DONTROUTE, SO_BROADCAST, SO_USELOOPBACK, SO_OOBINLINE,
/// SO_REUSEPORT.
const FLAG_OPTIONS: [u32; 8] = [0x1, 0x4, 0x8, 0x10, 0x20, 0x40, 0x100, 0x200];
const SO_LINGER: u32 = 0x0080;
const SO_SNDBUF: u32 = 0x1001;
const SO_RCVBUF: u32 = 0x1002;
const SO_ERROR: u32 = 0x1007;
const SO_TYPE: u32 = 0x1008;
const TCP_NODELAY: u32 = 1;
/// send(2)/recv(2) flags.
const MSG_OOB: u32 = 0x1;
const MSG_PEEK: u32 = 0x2;
/// The longest address a call reads.
const SOCKADDR_MAX: u32 = 2 + UNIX_PATH_MAX as u32;
/// The most bytes one send moves (a datagram's limit is the inbox).
const MAX_SEND: u32 = 1 << 20;

type SockRef = Rc<RefCell<Socket>>;

/// The socket open on `fd`: EBADF when none is open, ENOTSOCK for a file.
fn socket_of(p: &Process, fd: u32) -> Result<(Rc<RefCell<OpenFile>>, SockRef), Errno> {
    let file = p.fds.get(fd)?;
    let sock = match &file.borrow().kind {
        FileKind::Socket(s) => s.clone(),
        _ => return Err(Errno::ENOTSOCK),
    };
    Ok((file, sock))
}

/// A socket's domain and type from socket(2)'s arguments.
fn kind(domain: u32, stype: u32, protocol: u32) -> Result<(u16, u32), Errno> {
    let domain = match domain {
        1 => AF_UNIX,
        2 => AF_INET,
        _ => return Err(Errno::EAFNOSUPPORT),
    };
    match (stype, protocol) {
        (SOCK_RAW, _) => Err(Errno::EACCES),
        (SOCK_STREAM | SOCK_DGRAM, 0) => Ok((domain, stype)),
        (SOCK_STREAM, IPPROTO_TCP) | (SOCK_DGRAM, IPPROTO_UDP) if domain == AF_INET => {
            Ok((domain, stype))
        }
        _ => Err(Errno::EPROTONOSUPPORT),
    }
}

fn install(p: &mut Process, sock: Socket) -> Result<u32, Errno> {
    let file = OpenFile::host_less(FileKind::Socket(Rc::new(RefCell::new(sock))), oflag::O_RDWR);
    p.fds.install(file)
}

/// socket(domain, type, protocol): a new socket's descriptor.
pub fn socket(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (domain, stype) = kind(a.word(0), a.word(1), a.word(2))?;
    let mut sock = Socket::new(domain, stype);
    sock.net = k.config.net && domain == AF_INET;
    sock.charge(&k.budget, false)?;
    Ok(Ret::Val(install(p, sock)?))
}

/// socketpair(d, type, protocol, sv): two connected sockets in sv[0] and
/// sv[1]. Only AF_UNIX makes pairs (socketpair(2), BUGS).
pub fn socketpair(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (domain, stype) = kind(a.word(0), a.word(1), a.word(2))?;
    if domain != AF_UNIX {
        return Err(Errno::EOPNOTSUPP);
    }
    let sv = a.ptr(3);
    p.mem.check_writable(sv, 8)?;
    let (mut x, mut y) = Socket::pair(domain, stype);
    x.charge(&k.budget, false)?;
    y.charge(&k.budget, false)?;
    let (x, y) = (Rc::new(RefCell::new(x)), Rc::new(RefCell::new(y)));
    if stype == SOCK_DGRAM {
        x.borrow_mut().conn = Conn::Peer(Rc::downgrade(&y));
        y.borrow_mut().conn = Conn::Peer(Rc::downgrade(&x));
    }
    let fx = p
        .fds
        .install(OpenFile::host_less(FileKind::Socket(x), oflag::O_RDWR))?;
    let fy = match p
        .fds
        .install(OpenFile::host_less(FileKind::Socket(y), oflag::O_RDWR))
    {
        Ok(fd) => fd,
        Err(e) => {
            p.fds.close(fx)?;
            return Err(e);
        }
    };
    p.mem.write_u32(sv, fx)?;
    p.mem.write_u32(sv + 4, fy)?;
    Ok(Ret::Val(0))
}

/// The address at `addr`, `len` bytes long, for a socket of `domain`:
/// EAFNOSUPPORT for another family.
fn read_addr(p: &Process, addr: u32, len: i32, domain: u16) -> Result<Addr, Errno> {
    if len < 0 || len as u32 > SOCKADDR_MAX + 16 {
        return Err(Errno::EINVAL);
    }
    let mut bytes = vec![0u8; len as usize];
    p.mem.read_bytes(addr, &mut bytes)?;
    if bytes.len() >= 2 && u16::from_be_bytes([bytes[0], bytes[1]]) != domain {
        return Err(Errno::EAFNOSUPPORT);
    }
    Addr::decode(&bytes)
}

/// Stores a name for getsockname, getpeername, accept and recvfrom: as
/// much as `*len` allows, and its whole length in `*len`.
fn write_name(p: &mut Process, addr: u32, len_at: u32, name: &[u8]) -> Result<(), Errno> {
    if addr == 0 {
        return Ok(());
    }
    let room = p.mem.read_u32(len_at)? as i32;
    if room < 0 {
        return Err(Errno::EINVAL);
    }
    let n = name.len().min(room as usize);
    p.mem.write_bytes(addr, &name[..n])?;
    p.mem.write_u32(len_at, name.len() as u32)
}

/// The name an AF_UNIX path has in the kernel's table (the identity of
/// the socket node there): ENOENT when nothing is there, ECONNREFUSED
/// when it is no socket.
fn node_key(k: &Kernel, p: &Process, path: &[u8]) -> Result<Key, Errno> {
    let (host, _) = k.vfs.resolve(&p.cwd, path, Follow::Yes)?;
    let meta = std::fs::metadata(host).map_err(|e| crate::files::io_errno(&e))?;
    if !meta.file_type().is_socket() {
        return Err(Errno::ECONNREFUSED);
    }
    Ok(Key::Node(meta.dev(), meta.ino()))
}

/// The name an address gives in the kernel's table, for a socket of type
/// `stype`: an AF_INET address outside the run is ENETUNREACH, or (None)
/// the host's to reach when the socket may (`net`).
fn target_key(
    k: &Kernel,
    p: &Process,
    to: &Addr,
    stype: u32,
    net: bool,
) -> Result<Option<Key>, Errno> {
    match to {
        Addr::Unix(path) => node_key(k, p, path).map(Some),
        Addr::Inet { ip, port } => {
            if !Addr::is_local(*ip) {
                return if net {
                    Ok(None)
                } else {
                    Err(Errno::ENETUNREACH)
                };
            }
            Ok(Some(Key::Port(stype, *port)))
        }
    }
}

/// The run's socket of type `stype` at `to`, if any (None also for an
/// address outside the run that the socket may reach on the host).
fn find_target(
    k: &mut Kernel,
    p: &Process,
    to: &Addr,
    stype: u32,
    net: bool,
) -> Result<Option<SockRef>, Errno> {
    Ok(target_key(k, p, to, stype, net)?
        .and_then(|key| k.names.find(key))
        .filter(|t| t.borrow().stype == stype))
}

/// The host address a guest's AF_INET address names: INADDR_ANY is this
/// machine, as 127.0.0.1.
fn host_ip(ip: u32) -> u32 {
    if ip == 0 {
        INADDR_LOOPBACK
    } else {
        ip
    }
}

/// Gives `sock` a host socket bound to `ip`:`port` (port 0: the host's
/// choice) and the name it got in the kernel's table too (`--net`).
fn bind_host(k: &mut Kernel, sock: &SockRef, ip: u32, port: u16) -> Result<(), Errno> {
    let (stype, reuse) = {
        let s = sock.borrow();
        (s.stype, s.opts.flags & SO_REUSEADDR != 0)
    };
    let (h, port) = host::bind(stype, ip, port, reuse)?;
    k.names.bind(Key::Port(stype, port), sock)?;
    let mut s = sock.borrow_mut();
    s.host = Some(h);
    s.local = Some(Addr::Inet { ip, port });
    drop(s);
    k.watch_host(sock);
    Ok(())
}

/// Gives an unbound AF_INET socket a port of its own (before it sends or
/// connects), as the protocols do.
fn autobind(k: &mut Kernel, sock: &SockRef) -> Result<(), Errno> {
    let (domain, stype, bound, net) = {
        let s = sock.borrow();
        (s.domain, s.stype, s.local.is_some(), s.net)
    };
    if domain != AF_INET || bound {
        return Ok(());
    }
    if net {
        return bind_host(k, sock, 0, 0);
    }
    let port = k.names.ephemeral(stype)?;
    k.names.bind(Key::Port(stype, port), sock)?;
    sock.borrow_mut().local = Some(Addr::Inet {
        ip: INADDR_LOOPBACK,
        port,
    });
    Ok(())
}

/// bind(s, name, namelen) (bind(2)): EINVAL when already bound,
/// EADDRINUSE when the name is taken (an AF_UNIX path that exists),
/// EADDRNOTAVAIL for an AF_INET address not the run's, EACCES for a port
/// below 1024 (the super-user's).
pub fn bind(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (_, sock) = socket_of(p, a.fd(0))?;
    let domain = sock.borrow().domain;
    let addr = read_addr(p, a.ptr(1), a.int(2), domain)?;
    let (domain, stype) = {
        let s = sock.borrow();
        if s.local.is_some() {
            return Err(Errno::EINVAL);
        }
        (s.domain, s.stype)
    };
    if addr.family() != domain {
        return Err(Errno::EAFNOSUPPORT);
    }
    match &addr {
        Addr::Unix(path) => {
            let at = super::paths::place_bytes(k, p, path, Follow::No)?;
            if at.exists() {
                return Err(Errno::EADDRINUSE);
            }
            at.writable()?;
            make_socket_node(&at.host, 0o777 & !p.umask)?;
            let meta = std::fs::metadata(&at.host).map_err(|e| crate::files::io_errno(&e))?;
            k.names.bind(Key::Node(meta.dev(), meta.ino()), &sock)?;
            sock.borrow_mut().local = Some(addr);
        }
        Addr::Inet { ip, port } => {
            let net = sock.borrow().net;
            if !net && !Addr::is_local(*ip) {
                return Err(Errno::EADDRNOTAVAIL);
            }
            if *port != 0 && *port < 1024 && !p.ids.is_superuser() {
                return Err(Errno::EACCES);
            }
            if net {
                bind_host(k, &sock, *ip, *port)?;
                return Ok(Ret::Val(0));
            }
            let port = match *port {
                0 => k.names.ephemeral(stype)?,
                n => n,
            };
            k.names.bind(Key::Port(stype, port), &sock)?;
            sock.borrow_mut().local = Some(Addr::Inet { ip: *ip, port });
        }
    }
    Ok(Ret::Val(0))
}

/// Makes a socket node at `host` with permission bits `mode`.
fn make_socket_node(host: &std::path::Path, mode: u32) -> Result<(), Errno> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(host.as_os_str().as_bytes()).map_err(|_| Errno::EINVAL)?;
    // SAFETY: a valid NUL-terminated path; mknod reads it only.
    if unsafe { libc::mknod(c.as_ptr(), libc::S_IFSOCK | 0o600, 0) } != 0 {
        return Err(crate::files::io_errno(&std::io::Error::last_os_error()));
    }
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(host, std::fs::Permissions::from_mode(mode))
        .map_err(|e| crate::files::io_errno(&e))
}

/// listen(s, backlog) (listen(2)): EOPNOTSUPP for a datagram socket; an
/// unbound AF_INET socket gets a port, an unbound AF_UNIX one is EINVAL.
/// The backlog is kept between 1 and 5.
pub fn listen(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (_, sock) = socket_of(p, a.fd(0))?;
    if !sock.borrow().is_stream() {
        return Err(Errno::EOPNOTSUPP);
    }
    if sock.borrow().connected() || matches!(sock.borrow().host, Some(Host::Connecting(_))) {
        // Checked before the host socket is taken: a connecting socket
        // keeps its connect.
        return Err(Errno::EINVAL);
    }
    autobind(k, &sock)?;
    let mut s = sock.borrow_mut();
    if s.local.is_none() {
        return Err(Errno::EINVAL);
    }
    let backlog = (a.int(1).max(1) as usize).min(net::SOMAXCONN);
    if let Some(h) = s.host.take() {
        s.host = Some(h.listen(backlog)?);
    }
    match &mut s.conn {
        Conn::Listening { backlog: b, .. } => *b = backlog,
        c => {
            *c = Conn::Listening {
                backlog,
                pending: Default::default(),
            }
        }
    }
    Ok(Ret::Val(0))
}

/// accept(s, addr, addrlen) (accept(2)): the first pending connection,
/// as a new descriptor; the caller waits while there is none. Every
/// check comes before the connection leaves the queue: a bad `*addrlen`
/// (negative: EINVAL) or a full descriptor table (EMFILE) leaves it there
/// for a later accept, as BSD does.
pub fn accept(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (file, sock) = socket_of(p, a.fd(0))?;
    let (addr, len_at) = (a.ptr(1), a.ptr(2));
    if !sock.borrow().is_stream() {
        return Err(Errno::EOPNOTSUPP);
    }
    if addr != 0 {
        p.mem.check_writable(len_at, 4)?;
        let room = u32::try_from(p.mem.read_u32(len_at)? as i32).map_err(|_| Errno::EINVAL)?;
        p.mem.check_writable(addr, room.min(SOCKADDR_MAX))?;
    }
    let fds = &mut p.fds;
    let accepted = net::accept(&sock, |conn| {
        let name = {
            let c = conn.borrow();
            c.peer
                .as_ref()
                .map_or_else(|| Addr::unnamed(c.domain), Addr::encode)
        };
        let fd = fds.install(OpenFile::host_less(
            FileKind::Socket(conn.clone()),
            oflag::O_RDWR,
        ))?;
        Ok((fd, name, conn.clone()))
    })?;
    let Some((fd, name, conn)) = accepted else {
        if sock.borrow().on_host() {
            return super::vio::wait_host(&file.borrow());
        }
        return super::vio::would_block(&file.borrow());
    };
    if conn.borrow().host.is_some() {
        k.watch_host(&conn);
        // The host made the connection already: it is charged as it is.
        conn.borrow_mut().charge(&k.budget, true)?;
    }
    write_name(p, addr, len_at, &name)?;
    Ok(Ret::Val(fd))
}

/// connect(s, name, namelen) (connect(2)). A stream connects to a
/// listening socket at once (the connection waits in its queue for
/// accept); ECONNREFUSED when nothing listens there or its queue is full,
/// EISCONN when already connected. A datagram socket takes the address as
/// its peer. ENETUNREACH for an AF_INET address outside the run.
pub fn connect(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (file, sock) = socket_of(p, a.fd(0))?;
    let domain = sock.borrow().domain;
    let to = read_addr(p, a.ptr(1), a.int(2), domain)?;
    if let Some(r) = connecting(&file, &sock) {
        return r;
    }
    let (domain, stype, net) = {
        let s = sock.borrow();
        (s.domain, s.stype, s.net)
    };
    if to.family() != domain {
        return Err(Errno::EAFNOSUPPORT);
    }
    if stype == SOCK_STREAM && sock.borrow().connected() {
        return Err(Errno::EISCONN);
    }
    if matches!(sock.borrow().conn, Conn::Listening { .. }) {
        return Err(Errno::EOPNOTSUPP);
    }
    let target = find_target(k, p, &to, stype, net)?;
    let peer_name = match (&to, &target) {
        (Addr::Inet { ip, port }, _) => Addr::Inet {
            ip: if Addr::is_local(*ip) {
                INADDR_LOOPBACK
            } else {
                *ip
            },
            port: *port,
        },
        (_, Some(t)) => t.borrow().local.clone().unwrap_or(to.clone()),
        _ => to.clone(),
    };
    if stype == SOCK_DGRAM {
        let peer = match target {
            Some(t) => Rc::downgrade(&t),
            None if domain == AF_INET => std::rc::Weak::new(),
            None => return Err(Errno::ECONNREFUSED),
        };
        autobind(k, &sock)?;
        let mut s = sock.borrow_mut();
        s.conn = Conn::Peer(peer);
        s.peer = Some(peer_name);
        return Ok(Ret::Val(0));
    }
    let Some(listener) = target else {
        return match to {
            Addr::Inet { ip, port } if net => connect_host(k, &file, &sock, ip, port),
            _ => Err(Errno::ECONNREFUSED),
        };
    };
    {
        let l = listener.borrow();
        match &l.conn {
            Conn::Listening { backlog, pending } if pending.len() < *backlog => {}
            _ => return Err(Errno::ECONNREFUSED),
        }
    }
    autobind(k, &sock)?;
    let (mine, mut theirs) = Socket::pair(domain, SOCK_STREAM);
    theirs.charge(&k.budget, false)?;
    theirs.local = Some(peer_name.clone());
    theirs.peer = sock.borrow().local.clone();
    theirs.opts = listener.borrow().opts;
    {
        let mut mine = mine;
        let mut s = sock.borrow_mut();
        s.conn = std::mem::replace(&mut mine.conn, Conn::None);
        s.rights_in = Rc::clone(&mine.rights_in);
        s.rights_out = mine.rights_out.clone();
        s.urgent_in = Rc::clone(&mine.urgent_in);
        s.urgent_out = mine.urgent_out.clone();
        s.peer = Some(peer_name);
    }
    if let Conn::Listening { pending, .. } = &mut listener.borrow_mut().conn {
        pending.push_back(Rc::new(RefCell::new(theirs)));
    }
    Ok(Ret::Val(0))
}

/// A stream connect to `ip`:`port` on the host (`--net`): at once when
/// the host connects at once, else the caller waits for the host (or
/// gets EINPROGRESS on a non-blocking socket, as connect(2) says).
fn connect_host(
    k: &mut Kernel,
    file: &Rc<RefCell<OpenFile>>,
    sock: &SockRef,
    ip: u32,
    port: u16,
) -> SysResult {
    let bound = sock.borrow_mut().host.take();
    let was_bound = bound.is_some();
    let h = match host::connect(bound, host_ip(ip), port) {
        Ok(h) => h,
        Err((e, back)) => {
            // The socket bind(2) made stays the guest socket's.
            sock.borrow_mut().host = back.filter(|_| was_bound);
            return Err(e);
        }
    };
    {
        let mut s = sock.borrow_mut();
        s.peer = Some(Addr::Inet {
            ip: host_ip(ip),
            port,
        });
        s.host = Some(h);
    }
    k.watch_host(sock);
    match connecting(file, sock) {
        Some(Ok(Ret::WaitHost)) | Some(Err(Errno::EALREADY)) => {
            let f = file.borrow();
            if super::vio::wait_host(&f).is_err() {
                return Err(Errno::EINPROGRESS);
            }
            Ok(Ret::WaitHost)
        }
        Some(r) => r,
        None => Ok(Ret::Val(0)),
    }
}

/// A stream connect the host has not finished (None: none is under way,
/// or it finished before): 0 once connected, the connection's error, a
/// wait for the host, or EALREADY on a non-blocking socket.
fn connecting(file: &Rc<RefCell<OpenFile>>, sock: &SockRef) -> Option<SysResult> {
    let mut s = sock.borrow_mut();
    let done = match &s.host {
        Some(Host::Connecting(h)) => host::finish_connect(h),
        Some(Host::Stream(_)) if s.local.is_none() => Ok(true),
        _ => return None,
    };
    match done {
        Ok(false) => {
            s.wait_host(libc::POLLOUT);
            drop(s);
            let f = file.borrow();
            Some(match super::vio::wait_host(&f) {
                Err(_) => Err(Errno::EALREADY),
                r => r,
            })
        }
        Ok(true) => {
            if let Some(Host::Connecting(h)) = s.host.take() {
                s.host = Some(Host::Stream(h.into()));
            }
            s.local = s.host.as_ref().and_then(Host::local);
            Some(Ok(Ret::Val(0)))
        }
        Err(e) => {
            s.host = None;
            s.peer = None;
            Some(Err(e))
        }
    }
}

/// send(s, msg, len, flags) = sendto without an address.
pub fn send(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    send_to(k, p, a.fd(0), a.ptr(1), a.size(2), a.word(3), None)
}

/// sendto(s, msg, len, flags, to, tolen).
pub fn sendto(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (_, sock) = socket_of(p, a.fd(0))?;
    let domain = sock.borrow().domain;
    let to = match a.ptr(4) {
        0 => None,
        at => Some(read_addr(p, at, a.int(5), domain)?),
    };
    send_to(k, p, a.fd(0), a.ptr(1), a.size(2), a.word(3), to)
}

/// send(2)'s common part: the bytes at `buf` go out as `send_data` says.
fn send_to(
    k: &mut Kernel,
    p: &mut Process,
    fd: u32,
    buf: u32,
    len: u32,
    flags: u32,
    to: Option<Addr>,
) -> SysResult {
    socket_of(p, fd)?;
    let mut data = vec![0u8; len.min(MAX_SEND) as usize];
    p.mem.read_bytes(buf, &mut data)?;
    send_data(k, p, fd, &data, flags, to, Vec::new())
}

/// A stream's bytes, or one datagram. EPIPE (and SIGPIPE) on a stream the
/// peer closed; MSG_OOB sends the last byte out of band (`Socket::send_oob`); EMSGSIZE for a
/// datagram larger than an inbox; EDESTADDRREQ for a datagram with
/// nowhere to go.
fn send_data(
    k: &mut Kernel,
    p: &mut Process,
    fd: u32,
    data: &[u8],
    flags: u32,
    to: Option<Addr>,
    rights: net::Rights,
) -> SysResult {
    let (file, sock) = socket_of(p, fd)?;
    let stream = sock.borrow().is_stream();
    if stream && !rights.is_empty() {
        let queue = sock.borrow().rights_out.upgrade();
        net::check_rights(&rights, queue.as_ref(), None)?;
    }
    let io = if flags & MSG_OOB != 0 {
        sock.borrow_mut().send_oob(data)
    } else if stream {
        let io = sock.borrow_mut().send_stream(data);
        if matches!(io, Ok(Io::Done(_))) && !rights.is_empty() {
            if let Some(q) = sock.borrow().rights_out.upgrade() {
                q.borrow_mut().push_back(rights);
            }
        }
        io
    } else {
        send_datagram(k, p, &sock, data, to, rights)
    };
    match io {
        Ok(Io::Done(n)) => Ok(Ret::Val(n as u32)),
        Ok(io) => super::vio::wait(&file.borrow(), &io),
        Err(Errno::EPIPE) => {
            p.signals.pending |= crate::signals::bit(crate::signals::SIGPIPE);
            Err(Errno::EPIPE)
        }
        Err(e) => Err(e),
    }
}

/// One datagram from `sock` to `to` or its peer. A datagram for an
/// AF_INET port no socket holds is lost, as UDP loses it; an AF_UNIX one
/// is ECONNREFUSED.
fn send_datagram(
    k: &mut Kernel,
    p: &Process,
    sock: &SockRef,
    data: &[u8],
    to: Option<Addr>,
    rights: net::Rights,
) -> Result<Io, Errno> {
    if data.len() > net::INBOX_BYTES {
        return Err(Errno::EMSGSIZE);
    }
    let (domain, stype, net) = {
        let s = sock.borrow();
        (s.domain, s.stype, s.net)
    };
    let (target, dest) = match &to {
        Some(to) => {
            if sock.borrow().connected() {
                return Err(Errno::EISCONN);
            }
            if to.family() != domain {
                return Err(Errno::EAFNOSUPPORT);
            }
            (find_target(k, p, to, stype, net)?, Some(to.clone()))
        }
        None => {
            let s = sock.borrow();
            match &s.conn {
                Conn::Peer(peer) => (peer.upgrade(), s.peer.clone()),
                _ => return Err(Errno::EDESTADDRREQ),
            }
        }
    };
    autobind(k, sock)?;
    let from = sender_name(&sock.borrow());
    match (target, dest) {
        (Some(t), _) => {
            if !rights.is_empty() {
                let inbox = Rc::clone(&t.borrow().inbox);
                net::check_rights(&rights, None, Some(&inbox))?;
            }
            Ok(net::deliver_rights(&t.borrow(), data, from, rights))
        }
        (None, Some(Addr::Inet { ip, port })) if net => {
            let mut s = sock.borrow_mut();
            let io = match &s.host {
                Some(Host::Datagram(h)) => host::send_to(h, data, host_ip(ip), port)?,
                _ => Io::Done(data.len()),
            };
            Ok(match io {
                Io::WaitHost => s.wait_host(libc::POLLOUT),
                io => io,
            })
        }
        (None, _) if domain == AF_INET => Ok(Io::Done(data.len())),
        (None, _) => Err(Errno::ECONNREFUSED),
    }
}

/// The name a datagram carries as its sender's: a socket bound to
/// INADDR_ANY sends from the loopback address, the one that carries it.
fn sender_name(s: &Socket) -> Option<Addr> {
    match &s.local {
        Some(Addr::Inet { ip: 0, port }) => Some(Addr::Inet {
            ip: INADDR_LOOPBACK,
            port: *port,
        }),
        other => other.clone(),
    }
}

/// recv(s, buf, len, flags) = recvfrom without an address.
pub fn recv(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    recv_from(p, a.fd(0), a.ptr(1), a.size(2), a.word(3), 0, 0)
}

/// recvfrom(s, buf, len, flags, from, fromlen).
pub fn recvfrom(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    recv_from(
        p,
        a.fd(0),
        a.ptr(1),
        a.size(2),
        a.word(3),
        a.ptr(4),
        a.ptr(5),
    )
}

/// recv(2)'s common part: MSG_PEEK leaves what it reads; a datagram longer
/// than the buffer is cut, the rest lost.
fn recv_from(
    p: &mut Process,
    fd: u32,
    buf: u32,
    len: u32,
    flags: u32,
    from: u32,
    from_len: u32,
) -> SysResult {
    let (file, sock) = socket_of(p, fd)?;
    let len = len.min(MAX_SEND);
    p.mem.check_writable(buf, len)?;
    if flags & MSG_OOB != 0 {
        let mut byte = [0u8; 1];
        let want = (len as usize).min(1);
        let io = sock
            .borrow_mut()
            .receive_oob(&mut byte[..want], flags & MSG_PEEK != 0)?;
        let Io::Done(n) = io else {
            return super::vio::wait(&file.borrow(), &io);
        };
        p.mem.write_bytes(buf, &byte[..n])?;
        return Ok(Ret::Val(n as u32));
    }
    if from != 0 {
        p.mem.check_writable(from_len, 4)?;
    }
    let mut data = vec![0u8; receivable(&sock.borrow(), len as usize)];
    let (io, sender) = sock
        .borrow_mut()
        .receive(&mut data, flags & MSG_PEEK != 0)?;
    let n = match io {
        Io::Done(n) => n,
        io => return super::vio::wait(&file.borrow(), &io),
    };
    p.mem.write_bytes(buf, &data[..n])?;
    let domain = sock.borrow().domain;
    let name = sender.map_or_else(|| Addr::unnamed(domain), |a| a.encode());
    write_name(p, from, from_len, &name)?;
    Ok(Ret::Val(n as u32))
}

/// The buffer a receive of at most `len` bytes needs now: no more than
/// what is waiting (one byte, to tell waiting from end of file, while
/// nothing is), so a receive that waits and is made again allocates
/// almost nothing each time.
///
/// A host datagram socket's next datagram may not be counted yet (FIONREAD
/// can say 0 just before it arrives): the buffer is the caller's length
/// (at most a UDP datagram's), so the datagram is never cut short.
fn receivable(s: &Socket, len: usize) -> usize {
    if matches!(s.host, Some(Host::Datagram(_))) && s.inbox.borrow().is_empty() {
        return len.min(MAX_DATAGRAM);
    }
    s.waiting().max(1).min(len)
}

/// The largest UDP datagram's payload, and more.
const MAX_DATAGRAM: usize = 1 << 16;

/// shutdown(s, how) (shutdown(2)): 0 no more receives, 1 no more sends,
/// 2 neither.
pub fn shutdown(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (_, sock) = socket_of(p, a.fd(0))?;
    sock.borrow_mut().shutdown(a.word(1))?;
    Ok(Ret::Val(0))
}

/// getsockname(s, name, namelen) (getsockname(2)).
pub fn getsockname(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (_, sock) = socket_of(p, a.fd(0))?;
    sock.borrow_mut().settle();
    let name = {
        let s = sock.borrow();
        s.local
            .as_ref()
            .map_or_else(|| Addr::unnamed(s.domain), Addr::encode)
    };
    p.mem.check_writable(a.ptr(2), 4)?;
    write_name(p, a.ptr(1), a.ptr(2), &name)?;
    Ok(Ret::Val(0))
}

/// getpeername(s, name, namelen) (getpeername(2)): ENOTCONN when the
/// socket is not connected.
pub fn getpeername(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (_, sock) = socket_of(p, a.fd(0))?;
    sock.borrow_mut().settle();
    let name = {
        let s = sock.borrow();
        if !s.connected() {
            return Err(Errno::ENOTCONN);
        }
        s.peer
            .as_ref()
            .map_or_else(|| Addr::unnamed(s.domain), Addr::encode)
    };
    p.mem.check_writable(a.ptr(2), 4)?;
    write_name(p, a.ptr(1), a.ptr(2), &name)?;
    Ok(Ret::Val(0))
}

/// getsockopt(s, level, optname, optval, optlen) (getsockopt(2)): the
/// options setsockopt keeps, SO_TYPE, SO_ERROR (cleared by reading) and
/// SO_ACCEPTCONN; ENOPROTOOPT for any other.
pub fn getsockopt(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (_, sock) = socket_of(p, a.fd(0))?;
    let (level, name, val, len_at) = (a.word(1), a.word(2), a.ptr(3), a.ptr(4));
    let mut s = sock.borrow_mut();
    s.settle();
    let bytes: Vec<u8> = match (level, name) {
        (SOL_SOCKET, SO_TYPE) => s.stype.to_be_bytes().to_vec(),
        (SOL_SOCKET, SO_ERROR) => s
            .error
            .take()
            .map_or(0, Errno::number)
            .to_be_bytes()
            .to_vec(),
        (SOL_SOCKET, SO_SNDBUF) => s.opts.sndbuf.to_be_bytes().to_vec(),
        (SOL_SOCKET, SO_RCVBUF) => s.opts.rcvbuf.to_be_bytes().to_vec(),
        (SOL_SOCKET, SO_LINGER) => {
            [s.opts.linger.0.to_be_bytes(), s.opts.linger.1.to_be_bytes()].concat()
        }
        (SOL_SOCKET, SO_ACCEPTCONN) => {
            let on = matches!(s.conn, Conn::Listening { .. });
            (if on { SO_ACCEPTCONN } else { 0 }).to_be_bytes().to_vec()
        }
        (SOL_SOCKET, f) if FLAG_OPTIONS.contains(&f) => (s.opts.flags & f).to_be_bytes().to_vec(),
        (IPPROTO_TCP, TCP_NODELAY) if s.domain == AF_INET && s.is_stream() => {
            u32::from(s.opts.nodelay).to_be_bytes().to_vec()
        }
        _ => return Err(Errno::ENOPROTOOPT),
    };
    drop(s);
    let room = p.mem.read_u32(len_at)? as i32;
    if room < 0 {
        return Err(Errno::EINVAL);
    }
    let n = bytes.len().min(room as usize);
    p.mem.write_bytes(val, &bytes[..n])?;
    p.mem.write_u32(len_at, n as u32)?;
    Ok(Ret::Val(0))
}

/// setsockopt(s, level, optname, optval, optlen) (setsockopt(2)):
/// SO_REUSEADDR, SO_KEEPALIVE and the other on/off options are kept
/// (there is no TIME_WAIT to reuse past and no idle connection to probe),
/// SO_SNDBUF and SO_RCVBUF are kept and reported (the buffers stay 10240
/// bytes), SO_LINGER is kept, TCP_NODELAY is kept (nothing is delayed:
/// each send is at the peer at once). EINVAL for a short optlen,
/// ENOPROTOOPT for an unknown option.
pub fn setsockopt(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (_, sock) = socket_of(p, a.fd(0))?;
    let (level, name, val, len) = (a.word(1), a.word(2), a.ptr(3), a.int(4));
    let need = if (level, name) == (SOL_SOCKET, SO_LINGER) {
        8
    } else {
        4
    };
    if len < need {
        return Err(Errno::EINVAL);
    }
    let v = p.mem.read_u32(val)?;
    let mut s = sock.borrow_mut();
    match (level, name) {
        (SOL_SOCKET, SO_SNDBUF | SO_RCVBUF) if v as i32 <= 0 => return Err(Errno::EINVAL),
        (SOL_SOCKET, SO_SNDBUF) => s.opts.sndbuf = v,
        (SOL_SOCKET, SO_RCVBUF) => s.opts.rcvbuf = v,
        (SOL_SOCKET, SO_LINGER) => s.opts.linger = (v, p.mem.read_u32(val + 4)?),
        (SOL_SOCKET, f) if FLAG_OPTIONS.contains(&f) => {
            s.opts.flags = if v != 0 {
                s.opts.flags | f
            } else {
                s.opts.flags & !f
            };
        }
        (IPPROTO_TCP, TCP_NODELAY) if s.domain == AF_INET && s.is_stream() => {
            s.opts.nodelay = v != 0
        }
        _ => return Err(Errno::ENOPROTOOPT),
    }
    if let Some(Host::Stream(h)) = &s.host {
        // What changes a host connection's behaviour goes to it too.
        let h = socket2::SockRef::from(h);
        let _ = match (level, name) {
            (IPPROTO_TCP, TCP_NODELAY) => h.set_tcp_nodelay(v != 0),
            (SOL_SOCKET, SO_KEEPALIVE) => h.set_keepalive(v != 0),
            _ => Ok(()),
        };
    }
    Ok(Ret::Val(0))
}

/// Bytes of IRIX's `struct msghdr` (4.3BSD's: msg_name, msg_namelen,
/// msg_iov, msg_iovlen, msg_accrights, msg_accrightslen).
const MSGHDR_BYTES: usize = 24;

/// A msghdr's words.
fn read_msghdr(p: &Process, at: u32) -> Result<[u32; 6], Errno> {
    let mut b = [0u8; MSGHDR_BYTES];
    p.mem.read_bytes(at, &mut b)?;
    let mut w = [0u32; 6];
    for (i, word) in w.iter_mut().enumerate() {
        *word = u32::from_be_bytes(b[4 * i..4 * i + 4].try_into().expect("4 bytes"));
    }
    Ok(w)
}

/// A msghdr's iovecs: none is allowed (an empty datagram), otherwise as
/// readv(2) reads them.
fn iovecs(p: &Process, iov: u32, count: u32) -> Result<Vec<super::vio::IoVec>, Errno> {
    match count {
        0 => Ok(Vec::new()),
        n => super::vio::read_iovecs(p, iov, n as i32),
    }
}

/// The most descriptors one message carries.
const MAX_RIGHTS: u32 = 64;

/// The open files of the descriptors in a msghdr's access rights (an
/// array of ints, `len` bytes at `at`): EBADF for one that is not open,
/// EINVAL for a length that is no whole number of ints or more than
/// MAX_RIGHTS of them.
fn read_rights(p: &Process, at: u32, len: u32) -> Result<net::Rights, Errno> {
    if !len.is_multiple_of(4) || len / 4 > MAX_RIGHTS {
        return Err(Errno::EINVAL);
    }
    (0..len / 4)
        .map(|i| p.fds.get(p.mem.read_u32(at + 4 * i)?))
        .collect()
}

/// sendmsg(s, msg, flags) (send(2)): the iovecs' bytes gathered, to
/// msg_name when given, with the access rights in msg_accrights: on an
/// AF_UNIX socket, descriptors (ints) whose open files the receiver's
/// recvmsg gets new descriptors for (recv(2): access rights "are
/// currently limited to file descriptors, which each occupy the size of
/// an int"). EBADF for a right that is no open descriptor; EOPNOTSUPP for
/// rights on an AF_INET socket.
pub fn sendmsg(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (_, sock) = socket_of(p, a.fd(0))?;
    let [name, namelen, iov, iovlen, rights_at, rightslen] = read_msghdr(p, a.ptr(1))?;
    let rights = match rightslen {
        0 => Vec::new(),
        _ if sock.borrow().domain != AF_UNIX => return Err(Errno::EOPNOTSUPP),
        n => read_rights(p, rights_at, n)?,
    };
    let domain = sock.borrow().domain;
    let to = match name {
        0 => None,
        at => Some(read_addr(p, at, namelen as i32, domain)?),
    };
    let mut data = Vec::new();
    for v in iovecs(p, iov, iovlen)? {
        let start = data.len();
        data.resize(start + v.len as usize, 0);
        p.mem.read_bytes(v.base, &mut data[start..])?;
    }
    send_data(k, p, a.fd(0), &data, a.word(2), to, rights)
}

/// recvmsg(s, msg, flags) (recv(2)): what a receive gets, scattered over
/// the iovecs; the sender's name in msg_name (msg_namelen updated); the
/// access rights that came with it as new descriptors in msg_accrights
/// (msg_accrightslen: the bytes stored; rights past the buffer's room are
/// closed). When the descriptor table has no room for them all, EMFILE,
/// and the message stays for a later receive.
pub fn recvmsg(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (file, sock) = socket_of(p, a.fd(0))?;
    let (msg, flags) = (a.ptr(1), a.word(2));
    if flags & MSG_OOB != 0 {
        return Err(Errno::EOPNOTSUPP);
    }
    let [name, _, iov, iovlen, rights_at, rights_room] = read_msghdr(p, msg)?;
    let vecs = iovecs(p, iov, iovlen)?;
    for v in &vecs {
        p.mem.check_writable(v.base, v.len)?;
    }
    let peek = flags & MSG_PEEK != 0;
    // A NULL msg_accrights has room for no rights, whatever its length
    // says (nothing is installed that could not be reported).
    let wanted = match rights_at {
        0 => 0,
        _ => (rights_room as i32).max(0) as usize / 4,
    };
    if !peek && sock.borrow().rights_waiting().min(wanted) > p.fds.room() {
        return Err(Errno::EMFILE);
    }
    if wanted > 0 {
        p.mem.check_writable(rights_at, wanted as u32 * 4)?;
    }
    let total: usize = vecs.iter().map(|v| v.len as usize).sum();
    let mut data = vec![0u8; receivable(&sock.borrow(), total.min(MAX_SEND as usize))];
    let (io, sender, rights) = sock.borrow_mut().receive_rights(&mut data, peek)?;
    let n = match io {
        Io::Done(n) => n,
        io => return super::vio::wait(&file.borrow(), &io),
    };
    let mut stored = 0u32;
    for file in rights.into_iter().take(wanted) {
        let fd = p.fds.install_file(file)?;
        p.mem.write_u32(rights_at + stored, fd)?;
        stored += 4;
    }
    let mut at = 0;
    for v in &vecs {
        let take = (n - at).min(v.len as usize);
        p.mem.write_bytes(v.base, &data[at..at + take])?;
        at += take;
    }
    let domain = sock.borrow().domain;
    let named = sender.map_or_else(|| Addr::unnamed(domain), |a| a.encode());
    write_name(p, name, msg + 4, &named)?;
    p.mem.write_u32(msg + 20, stored)?;
    Ok(Ret::Val(n as u32))
}
