//! Sockets between the processes of one run (IRIX socket(2),
//! socketpair(2) and their kin): AF_UNIX on paths of the guest's file
//! system and AF_INET on the loopback address, stream and datagram, all
//! in the kernel. Without `--net` no host socket is ever made: the run
//! stays deterministic, and an address outside the run is unreachable.
//! With it (`KernelConfig::net`), an AF_INET socket also has a host side
//! (`host`) for what no socket of the run answers.
//!
//! A connected stream is two of the kernel's pipes (`crate::pipe`), one
//! each way: a socket reads from one and writes to the other, so end of
//! file, EPIPE and blocking behave as for pipes, and closing or shutting
//! down a direction is dropping that end of its pipe. A datagram socket
//! has an inbox of messages with their senders' addresses.
//!
//! Names: a bound AF_UNIX socket is a socket node made at its path (so
//! `ls` and stat see it, and the name stays until unlinked, as on IRIX)
//! and is found again by that node's identity; an AF_INET socket is found
//! by its type and port. The kernel's table of names ([`Names`]) holds
//! sockets weakly: a closed socket's name is free at once (there is no
//! TIME_WAIT).

pub mod addr;
pub mod host;

use std::cell::RefCell;
use std::collections::{BTreeMap, VecDeque};
use std::rc::{Rc, Weak};

pub use addr::Addr;

use crate::files::{FileKind, Io, OpenFile};
use crate::pipe::Pipe;
use crate::Errno;

/// Address families (`<sys/socket.h>`).
pub const AF_UNIX: u16 = 1;
pub const AF_INET: u16 = 2;
/// Socket types, numbered as SVR4 and IRIX number them (datagram first).
pub const SOCK_DGRAM: u32 = 1;
pub const SOCK_STREAM: u32 = 2;

/// How many connections a listening socket queues at most (listen(2):
/// "The backlog is currently limited (silently) to 5").
pub const SOMAXCONN: usize = 5;
/// Bytes a datagram inbox holds before senders wait.
pub const INBOX_BYTES: usize = crate::pipe::PIPE_CAPACITY;
/// What each queued datagram costs an inbox beyond its bytes (its
/// sender's name and bookkeeping, as a BSD socket buffer charges an mbuf
/// per record), so that empty datagrams fill an inbox too.
pub const DATAGRAM_OVERHEAD: usize = 32;
/// What a socket costs the run's memory budget (`--max-memory`) while it
/// is open: its receive buffer's capacity (a stream's incoming pipe, a
/// datagram socket's inbox), reserved when the socket is made, and a
/// small fixed cost for the socket itself.
pub const SOCKET_COST: u64 = INBOX_BYTES as u64 + 256;
/// The first port handed to a socket that binds port 0 or sends unbound
/// (IRIX's anonymous ports start at 1024).
pub const FIRST_EPHEMERAL: u16 = 1024;

/// A name in the kernel's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Key {
    /// An AF_UNIX socket node, by host device and inode.
    Node(u64, u64),
    /// An AF_INET port of a socket type.
    Port(u32, u16),
}

/// The options setsockopt(2) keeps.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// SOL_SOCKET's on/off options, by option bit (SO_REUSEADDR ...).
    pub flags: u32,
    pub sndbuf: u32,
    pub rcvbuf: u32,
    /// SO_LINGER's l_onoff and l_linger.
    pub linger: (u32, u32),
    pub nodelay: bool,
}

/// What a socket is connected to.
pub enum Conn {
    /// Not connected (a new, bound or datagram socket without a peer).
    None,
    /// listen(2) was called: connections wait here for accept(2).
    Listening {
        backlog: usize,
        pending: VecDeque<Rc<RefCell<Socket>>>,
    },
    /// A connected stream: what it reads (`rx`) and writes (`tx`).
    Stream {
        rx: Rc<RefCell<Pipe>>,
        tx: Rc<RefCell<Pipe>>,
        reading: bool,
        writing: bool,
    },
    /// A datagram socket's associated peer (connect(2), socketpair(2)).
    Peer(Weak<RefCell<Socket>>),
}

/// Access rights (sendmsg(2)'s msg_accrights): open files sent over an
/// AF_UNIX socket, each a descriptor the receiver gets a copy of.
pub type Rights = Vec<Rc<RefCell<OpenFile>>>;

/// A queue of rights sent on a stream and not received yet.
pub type RightsQueue = Rc<RefCell<VecDeque<Rights>>>;

/// Out-of-band data a stream socket received (send(2) MSG_OOB): the
/// urgent byte, kept apart from the stream, and the mark, where the
/// stream stood when it was sent.
#[derive(Default)]
pub struct Urgent {
    /// The urgent byte, until recv(MSG_OOB) takes it.
    byte: Option<u8>,
    /// Bytes of the stream before the mark, while there is one; 0: the
    /// read position is at the mark (SIOCATMARK).
    mark: Option<usize>,
}

/// Datagrams waiting to be received, with their senders and rights.
#[derive(Default)]
pub struct Inbox {
    messages: VecDeque<(Vec<u8>, Option<Addr>, Rights)>,
    /// What the queued datagrams cost: their bytes plus
    /// DATAGRAM_OVERHEAD each, kept as they come and go.
    charged: usize,
}

impl Inbox {
    fn cost(data: &[u8]) -> usize {
        data.len() + DATAGRAM_OVERHEAD
    }

    /// Queues a datagram, unless the inbox is full (an empty inbox takes
    /// any datagram a send allows).
    fn push(&mut self, data: &[u8], from: Option<Addr>, rights: Rights) -> bool {
        let cost = Inbox::cost(data);
        if self.charged + cost > INBOX_BYTES && !self.messages.is_empty() {
            return false;
        }
        self.charged += cost;
        self.messages.push_back((data.to_vec(), from, rights));
        true
    }

    /// The next datagram and its sender.
    pub fn front(&self) -> Option<(&Vec<u8>, &Option<Addr>)> {
        self.messages.front().map(|(m, from, _)| (m, from))
    }

    /// Takes the next datagram away, with its rights.
    fn pop(&mut self) -> Rights {
        match self.messages.pop_front() {
            Some((m, _, rights)) => {
                self.charged -= Inbox::cost(&m);
                rights
            }
            None => Vec::new(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }
}

/// One socket.
pub struct Socket {
    pub domain: u16,
    pub stype: u32,
    /// Its name, once bound.
    pub local: Option<Addr>,
    /// The peer's name (getpeername), once connected.
    pub peer: Option<Addr>,
    pub conn: Conn,
    pub inbox: Rc<RefCell<Inbox>>,
    pub opts: Options,
    /// A pending error for SO_ERROR.
    pub error: Option<Errno>,
    /// May reach the host's network (`--net`, AF_INET).
    pub net: bool,
    /// Its host socket, once it has one (`--net`).
    pub host: Option<host::Host>,
    /// The host poll(2) events a waiting call wants of `host` (cleared
    /// each time the scheduler waits on the host).
    pub host_wants: i16,
    /// Rights sent to this stream socket and not received yet, and the
    /// peer's queue, where this socket's rights go.
    pub rights_in: RightsQueue,
    pub rights_out: Weak<RefCell<VecDeque<Rights>>>,
    /// The rights of the datagram just received (`receive_rights`).
    taken: Rights,
    /// Out-of-band data this stream socket received, and its peer's.
    pub urgent_in: Rc<RefCell<Urgent>>,
    pub urgent_out: Weak<RefCell<Urgent>>,
    /// The budget SOCKET_COST was charged to, given back when it closes.
    charged: Option<Rc<crate::memory::Budget>>,
}

impl Socket {
    pub fn new(domain: u16, stype: u32) -> Socket {
        Socket {
            domain,
            stype,
            local: None,
            peer: None,
            conn: Conn::None,
            inbox: Rc::default(),
            opts: Options {
                sndbuf: INBOX_BYTES as u32,
                rcvbuf: INBOX_BYTES as u32,
                ..Options::default()
            },
            error: None,
            net: false,
            host: None,
            host_wants: 0,
            rights_in: Rc::default(),
            rights_out: Weak::new(),
            taken: Vec::new(),
            urgent_in: Rc::default(),
            urgent_out: Weak::new(),
            charged: None,
        }
    }

    /// Two sockets joined to each other (socketpair(2), and a stream
    /// connection's two ends).
    pub fn pair(domain: u16, stype: u32) -> (Socket, Socket) {
        let (mut a, mut b) = (Socket::new(domain, stype), Socket::new(domain, stype));
        if stype == SOCK_STREAM {
            let (ab, ba) = (
                Rc::new(RefCell::new(Pipe::new())),
                Rc::new(RefCell::new(Pipe::new())),
            );
            a.conn = Conn::Stream {
                rx: ba.clone(),
                tx: ab.clone(),
                reading: true,
                writing: true,
            };
            b.conn = Conn::Stream {
                rx: ab,
                tx: ba,
                reading: true,
                writing: true,
            };
            a.rights_out = Rc::downgrade(&b.rights_in);
            b.rights_out = Rc::downgrade(&a.rights_in);
            a.urgent_out = Rc::downgrade(&b.urgent_in);
            b.urgent_out = Rc::downgrade(&a.urgent_in);
        }
        (a, b)
    }

    /// Charges the socket's SOCKET_COST to `budget` (`force`: even past
    /// the limit, for a connection the host already made): ENOBUFS when
    /// the run's memory is used up (socket(2): "Insufficient buffer space
    /// is available"), that is when it would not leave the room a copy-out
    /// of its descriptor needs (`memory::COPY_RESERVE`).
    pub fn charge(&mut self, budget: &Rc<crate::memory::Budget>, force: bool) -> Result<(), Errno> {
        if self.charged.is_some() {
            return Ok(());
        }
        if force {
            budget.force(SOCKET_COST);
        } else if budget.available() < SOCKET_COST + crate::memory::COPY_RESERVE {
            return Err(Errno::ENOBUFS);
        } else {
            budget.force(SOCKET_COST);
        }
        self.charged = Some(budget.clone());
        Ok(())
    }

    pub fn is_stream(&self) -> bool {
        self.stype == SOCK_STREAM
    }

    pub fn connected(&self) -> bool {
        matches!(self.conn, Conn::Stream { .. } | Conn::Peer(_))
            || matches!(self.host, Some(host::Host::Stream(_)))
    }

    /// Only the host can end a wait on this socket (it has a host side
    /// that is listening, connecting, connected or receiving datagrams).
    pub fn on_host(&self) -> bool {
        !matches!(self.host, None | Some(host::Host::Bound(_)))
    }

    /// A call waits for `events` of the host socket: noted for the
    /// scheduler's poll(2), and `Io::WaitHost` returned.
    pub fn wait_host(&mut self, events: i16) -> Io {
        self.host_wants |= events;
        Io::WaitHost
    }

    /// Reads a connected stream (`peek`: without taking the bytes), or
    /// the next datagram, with its sender. ENOTCONN for an unconnected
    /// stream.
    pub fn receive(&mut self, out: &mut [u8], peek: bool) -> Result<(Io, Option<Addr>), Errno> {
        self.receive_rights(out, peek)
            .map(|(io, from, _)| (io, from))
    }

    /// The rights the next receive would get (recvmsg checks the
    /// receiver's descriptor table has room first).
    pub fn rights_waiting(&self) -> usize {
        if self.is_stream() {
            self.rights_in.borrow().front().map_or(0, Vec::len)
        } else {
            let inbox = self.inbox.borrow();
            inbox.messages.front().map_or(0, |(_, _, r)| r.len())
        }
    }

    /// As `receive`, with the rights that came with what it received: a
    /// datagram's own, or on a stream the first rights sent and not yet
    /// received (a receive that does not want them closes them). A peek
    /// takes none.
    pub fn receive_rights(
        &mut self,
        out: &mut [u8],
        peek: bool,
    ) -> Result<(Io, Option<Addr>, Rights), Errno> {
        let (io, from) = self.receive_data(out, peek)?;
        let rights = match io {
            Io::Done(_) if !peek && self.is_stream() => {
                self.rights_in.borrow_mut().pop_front().unwrap_or_default()
            }
            Io::Done(_) if !peek => std::mem::take(&mut self.taken),
            _ => Vec::new(),
        };
        Ok((io, from, rights))
    }

    /// A host connect started without waiting (connect(2)'s EINPROGRESS)
    /// looked at again: once the host finished it the socket is a
    /// connected stream, with its local name; when it failed the socket
    /// is unconnected again and the error waits for SO_ERROR. True while
    /// the host has still not finished.
    pub fn settle(&mut self) -> bool {
        let done = match &self.host {
            Some(host::Host::Connecting(h)) => host::finish_connect(h),
            _ => return false,
        };
        match done {
            Ok(false) => return true,
            Ok(true) => {
                if let Some(host::Host::Connecting(h)) = self.host.take() {
                    self.host = Some(host::Host::Stream(h.into()));
                }
                self.local = self.host.as_ref().and_then(host::Host::local);
            }
            Err(e) => {
                self.host = None;
                self.peer = None;
                self.error = Some(e);
            }
        }
        false
    }

    fn receive_data(&mut self, out: &mut [u8], peek: bool) -> Result<(Io, Option<Addr>), Errno> {
        if self.settle() {
            return Ok((self.wait_host(libc::POLLOUT), None));
        }
        if let Some(host::Host::Stream(s)) = &mut self.host {
            let io = host::read(s, out, peek)?;
            let peer = self.peer.clone();
            return Ok((self.waited(io, libc::POLLIN), peer));
        }
        if !self.is_stream() {
            let mut inbox = self.inbox.borrow_mut();
            let Some((msg, from)) = inbox.front() else {
                drop(inbox);
                if let Some(host::Host::Datagram(s)) = &self.host {
                    let (io, from) = host::recv_from(s, out, peek)?;
                    return Ok((self.waited(io, libc::POLLIN), from));
                }
                return Ok((Io::WouldBlock, None));
            };
            let n = msg.len().min(out.len());
            out[..n].copy_from_slice(&msg[..n]);
            let from = from.clone();
            if !peek {
                self.taken = inbox.pop();
            }
            return Ok((Io::Done(n), from));
        }
        let peer = self.peer.clone();
        match &self.conn {
            Conn::Stream { rx, reading, .. } => {
                if !*reading {
                    return Ok((Io::Done(0), peer));
                }
                // A read stops at the out-of-band mark.
                let mark = self.urgent_in.borrow().mark;
                let out = match mark {
                    Some(m) if m > 0 && m < out.len() => &mut out[..m],
                    _ => out,
                };
                let io = if peek {
                    rx.borrow().peek(out)
                } else {
                    rx.borrow_mut().read(out)
                };
                if let (Io::Done(n), Some(m), false) = (&io, mark, peek) {
                    let mut u = self.urgent_in.borrow_mut();
                    u.mark = match m {
                        0 if *n > 0 => None,
                        m => Some(m.saturating_sub(*n)),
                    };
                }
                Ok((io, peer))
            }
            _ => Err(Errno::ENOTCONN),
        }
    }

    /// Writes to a connected stream: EPIPE once the peer cannot read it
    /// (the caller raises SIGPIPE).
    pub fn send_stream(&mut self, data: &[u8]) -> Result<Io, Errno> {
        if self.settle() {
            return Ok(self.wait_host(libc::POLLOUT));
        }
        if let Some(host::Host::Stream(s)) = &mut self.host {
            let io = host::write(s, data)?;
            return Ok(self.waited(io, libc::POLLOUT));
        }
        match &self.conn {
            Conn::Stream { tx, writing, .. } => {
                if !*writing {
                    return Err(Errno::EPIPE);
                }
                tx.borrow_mut().write(data)
            }
            _ => Err(Errno::ENOTCONN),
        }
    }

    /// send(2) with MSG_OOB on a connected stream: the last byte of
    /// `data` is urgent, kept apart at the receiver with the mark where
    /// the stream then stands; the bytes before it go as any send's.
    /// EOPNOTSUPP for a datagram socket or a connection of the host's.
    pub fn send_oob(&mut self, data: &[u8]) -> Result<Io, Errno> {
        if !self.is_stream() || matches!(self.host, Some(host::Host::Stream(_))) {
            return Err(Errno::EOPNOTSUPP);
        }
        let Some((&urgent, before)) = data.split_last() else {
            return self.send_stream(data);
        };
        match self.send_stream(before)? {
            Io::Done(n) if n == before.len() => {}
            io => return Ok(io),
        }
        let queued = match &self.conn {
            Conn::Stream { tx, .. } => tx.borrow().available(),
            _ => 0,
        };
        if let Some(u) = self.urgent_out.upgrade() {
            let mut u = u.borrow_mut();
            u.byte = Some(urgent);
            u.mark = Some(queued);
        }
        Ok(Io::Done(data.len()))
    }

    /// recv(2) with MSG_OOB: the urgent byte (`peek`: leaving it). EINVAL
    /// when none is waiting, EOPNOTSUPP on a datagram socket or a
    /// connection of the host's.
    pub fn receive_oob(&mut self, out: &mut [u8], peek: bool) -> Result<Io, Errno> {
        if !self.is_stream() || matches!(self.host, Some(host::Host::Stream(_))) {
            return Err(Errno::EOPNOTSUPP);
        }
        let mut u = self.urgent_in.borrow_mut();
        let byte = u.byte.ok_or(Errno::EINVAL)?;
        let Some(first) = out.first_mut() else {
            return Ok(Io::Done(0));
        };
        *first = byte;
        if !peek {
            u.byte = None;
        }
        Ok(Io::Done(1))
    }

    /// SIOCATMARK: is the read position at the out-of-band mark?
    pub fn at_mark(&self) -> bool {
        self.urgent_in.borrow().mark == Some(0)
    }

    /// An urgent byte waits (poll's POLLPRI, select's exceptional
    /// condition).
    pub fn urgent(&self) -> bool {
        self.urgent_in.borrow().byte.is_some()
    }

    /// shutdown(2): `how` 0 stops receiving, 1 sending, 2 both. As in
    /// BSD, what the peer sends after receiving stopped is thrown away
    /// without an error (the peer sees EPIPE only once this socket is
    /// closed).
    pub fn shutdown(&mut self, how: u32) -> Result<(), Errno> {
        if let Some(host::Host::Stream(s)) = &self.host {
            if how > 2 {
                return Err(Errno::EINVAL);
            }
            return host::shutdown(s, how);
        }
        let Conn::Stream {
            rx,
            tx,
            reading,
            writing,
        } = &mut self.conn
        else {
            return if self.connected() {
                Ok(())
            } else {
                Err(Errno::ENOTCONN)
            };
        };
        if how > 2 {
            return Err(Errno::EINVAL);
        }
        if how != 1 && *reading {
            *reading = false;
            rx.borrow_mut().discard();
        }
        if how != 0 && *writing {
            *writing = false;
            tx.borrow_mut().writers -= 1;
        }
        Ok(())
    }

    /// Bytes a read could return now (FIONREAD): a stream's buffered
    /// bytes, or the next datagram's length.
    pub fn waiting(&self) -> usize {
        match (&self.conn, &self.host) {
            (Conn::Stream { rx, .. }, _) => rx.borrow().available(),
            (_, Some(h @ host::Host::Stream(_))) => h.waiting(),
            (_, Some(h @ host::Host::Datagram(_))) if self.inbox.borrow().is_empty() => h.waiting(),
            _ => self.inbox.borrow().front().map_or(0, |(m, _)| m.len()),
        }
    }

    /// A host transfer's outcome: a wait notes the events it waits for.
    fn waited(&mut self, io: Io, events: i16) -> Io {
        match io {
            Io::WaitHost => self.wait_host(events),
            io => io,
        }
    }

    /// poll(2)'s view of the host side, merged with the kernel's.
    fn host_readiness(&self, h: &host::Host, kernel: (bool, bool, bool)) -> (bool, bool, bool) {
        let bits = h.poll(libc::POLLIN | libc::POLLOUT);
        let (r, w, hup) = (
            bits & (libc::POLLIN | libc::POLLERR | libc::POLLHUP) != 0,
            bits & (libc::POLLOUT | libc::POLLERR) != 0,
            bits & libc::POLLHUP != 0,
        );
        match h {
            host::Host::Listener(_) => (kernel.0 || r, false, false),
            host::Host::Datagram(_) => (kernel.0 || r, true, false),
            host::Host::Stream(_) => (r, w, hup),
            host::Host::Connecting(_) => (false, w, false),
            host::Host::Bound(_) => kernel,
        }
    }

    /// poll(2)'s view: (readable, writable, hung up).
    pub fn readiness(&self) -> (bool, bool, bool) {
        if self.error.is_some() {
            // A failed connect: the call that follows gets the error.
            return (true, true, false);
        }
        let kernel = self.kernel_readiness();
        match &self.host {
            Some(h) => self.host_readiness(h, kernel),
            None => kernel,
        }
    }

    fn kernel_readiness(&self) -> (bool, bool, bool) {
        match &self.conn {
            Conn::Listening { pending, .. } => (!pending.is_empty(), false, false),
            Conn::Stream {
                rx,
                tx,
                reading,
                writing,
            } => {
                let (rx, tx) = (rx.borrow(), tx.borrow());
                let eof = rx.writers == 0 || !*reading;
                let broken = tx.readers == 0 || !*writing;
                (
                    rx.available() > 0 || eof,
                    !broken && tx.room() > 0,
                    eof && broken,
                )
            }
            _ if self.is_stream() => (false, false, false),
            _ => (!self.inbox.borrow().is_empty(), true, false),
        }
    }
}

impl Socket {
    /// Whether rights sent to this socket wait in its receive queue (or
    /// in a pending connection's, for a listening socket).
    pub fn holds_rights(&self) -> bool {
        let pending_hold = match &self.conn {
            Conn::Listening { pending, .. } => pending.iter().any(|p| p.borrow().holds_rights()),
            _ => false,
        };
        pending_hold
            || !self.taken.is_empty()
            || self.rights_in.borrow().iter().any(|r| !r.is_empty())
            || self
                .inbox
                .borrow()
                .messages
                .iter()
                .any(|(_, _, r)| !r.is_empty())
    }

    /// Whether rights put in `queue` (a stream end's) or `inbox` (a
    /// datagram socket's) would be queued to this socket itself, to its
    /// peer, or to a connection pending on it: sending this socket there
    /// would have it keep itself (or its peer) open.
    pub fn faces(&self, queue: Option<&RightsQueue>, inbox: Option<&Rc<RefCell<Inbox>>>) -> bool {
        if let Some(q) = queue {
            let pending_own = match &self.conn {
                Conn::Listening { pending, .. } => {
                    pending.iter().any(|p| Rc::ptr_eq(&p.borrow().rights_in, q))
                }
                _ => false,
            };
            if pending_own
                || Rc::ptr_eq(&self.rights_in, q)
                || self.rights_out.upgrade().is_some_and(|o| Rc::ptr_eq(&o, q))
            {
                return true;
            }
        }
        if let Some(inbox) = inbox {
            if Rc::ptr_eq(&self.inbox, inbox) {
                return true;
            }
            if let Conn::Peer(peer) = &self.conn {
                if let Some(peer) = peer.upgrade() {
                    if let Ok(peer) = peer.try_borrow() {
                        return Rc::ptr_eq(&peer.inbox, inbox);
                    }
                    // Borrowed: refused rather than guessed.
                    return true;
                }
            }
        }
        false
    }

    /// Takes away every right queued to this socket (and to the
    /// connections pending on it), to be closed by the caller.
    fn take_rights(&mut self) -> Rights {
        let mut all: Rights = self.rights_in.borrow_mut().drain(..).flatten().collect();
        for (_, _, r) in self.inbox.borrow_mut().messages.iter_mut() {
            all.append(r);
        }
        all.append(&mut self.taken);
        if let Conn::Listening { pending, .. } = &self.conn {
            for p in pending {
                if let Ok(mut p) = p.try_borrow_mut() {
                    all.append(&mut p.take_rights());
                }
            }
        }
        all
    }
}

/// Refuses (EINVAL) rights that would let a socket keep itself open: an
/// AF_UNIX socket that has rights waiting in its own receive queue (the
/// start of a cycle), or one sent to itself, to its peer, or to a
/// connection pending on it (`queue`: the receiving stream end's rights
/// queue; `inbox`: the receiving datagram socket's).
pub fn check_rights(
    rights: &Rights,
    queue: Option<&RightsQueue>,
    inbox: Option<&Rc<RefCell<Inbox>>>,
) -> Result<(), Errno> {
    for file in rights {
        if let FileKind::Socket(s) = &file.borrow().kind {
            let s = s.try_borrow().map_err(|_| Errno::EINVAL)?;
            if s.holds_rights() || s.faces(queue, inbox) {
                return Err(Errno::EINVAL);
            }
        }
    }
    Ok(())
}

/// Closes rights nobody will receive, without recursion: a socket among
/// them whose last reference this is gives up its own queued rights to
/// the same loop before it is dropped, so a long chain of sockets passed
/// inside sockets is closed one by one, never nested on the host stack.
fn close_rights(mut pending: Rights) {
    while let Some(file) = pending.pop() {
        if let Ok(cell) = Rc::try_unwrap(file) {
            let open = cell.into_inner();
            if let FileKind::Socket(s) = &open.kind {
                if Rc::strong_count(s) == 1 {
                    if let Ok(mut s) = s.try_borrow_mut() {
                        pending.append(&mut s.take_rights());
                    }
                }
            }
        }
    }
}

impl Drop for Socket {
    /// The last descriptor closed: both directions of a stream end, and
    /// the peer's writes fail with EPIPE from now on.
    fn drop(&mut self) {
        // Rights sent and never received are closed with the socket.
        close_rights(self.take_rights());
        if let Some(budget) = self.charged.take() {
            budget.release(SOCKET_COST);
        }
        let _ = self.shutdown(2);
        if let Conn::Stream { rx, .. } = &self.conn {
            let mut rx = rx.borrow_mut();
            rx.readers = rx.readers.saturating_sub(1);
        }
    }
}

/// accept(2)'s taking of the first pending connection: `install` gives
/// it a descriptor; when that fails (EMFILE) the connection stays first in
/// the queue, as BSD keeps it. None when nothing is pending; EINVAL when
/// the socket does not listen.
pub fn accept<R>(
    listener: &Rc<RefCell<Socket>>,
    install: impl FnOnce(&Rc<RefCell<Socket>>) -> Result<R, Errno>,
) -> Result<Option<R>, Errno> {
    let next = match &mut listener.borrow_mut().conn {
        Conn::Listening { pending, .. } => pending.pop_front(),
        _ => return Err(Errno::EINVAL),
    };
    let next = match next {
        Some(conn) => Some(conn),
        None => accept_host(listener)?,
    };
    let Some(conn) = next else {
        return Ok(None);
    };
    match install(&conn) {
        Ok(r) => Ok(Some(r)),
        Err(e) => {
            if let Conn::Listening { pending, .. } = &mut listener.borrow_mut().conn {
                pending.push_front(conn);
            }
            Err(e)
        }
    }
}

/// A connection from outside the run that the host listener has taken,
/// as a socket of the run (None while there is none).
fn accept_host(listener: &Rc<RefCell<Socket>>) -> Result<Option<Rc<RefCell<Socket>>>, Errno> {
    let mut l = listener.borrow_mut();
    let Some(host::Host::Listener(h)) = &l.host else {
        return Ok(None);
    };
    let (stream, from) = match h.accept() {
        Ok(got) => got,
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
            l.wait_host(libc::POLLIN);
            return Ok(None);
        }
        Err(e) => return Err(host::errno(&e)),
    };
    stream.set_nonblocking(true).map_err(|e| host::errno(&e))?;
    let mut s = Socket::new(AF_INET, SOCK_STREAM);
    s.net = true;
    s.opts = l.opts;
    s.peer = Some(host::name(from));
    s.local = stream.local_addr().ok().map(host::name);
    s.host = Some(host::Host::Stream(stream));
    Ok(Some(Rc::new(RefCell::new(s))))
}

/// Delivers a datagram to `to`'s inbox, as from `from`: WouldBlock while
/// the inbox is full.
pub fn deliver(to: &Socket, data: &[u8], from: Option<Addr>) -> Io {
    deliver_rights(to, data, from, Vec::new())
}

/// As `deliver`, with rights that travel with the datagram.
pub fn deliver_rights(to: &Socket, data: &[u8], from: Option<Addr>, rights: Rights) -> Io {
    if to.inbox.borrow_mut().push(data, from, rights) {
        Io::Done(data.len())
    } else {
        Io::WouldBlock
    }
}

/// write(2) on a socket: a connected stream's send, or a datagram to the
/// associated peer (EDESTADDRREQ without one; lost, as UDP loses it, when
/// an AF_INET peer is gone, ECONNREFUSED for AF_UNIX).
pub fn write(sock: &Rc<RefCell<Socket>>, data: &[u8]) -> Result<Io, Errno> {
    let mut s = sock.borrow_mut();
    if s.is_stream() {
        return s.send_stream(data);
    }
    if data.len() > INBOX_BYTES {
        return Err(Errno::EMSGSIZE);
    }
    let peer = match &s.conn {
        Conn::Peer(peer) => peer.upgrade(),
        _ => return Err(Errno::EDESTADDRREQ),
    };
    let from = match &s.local {
        Some(Addr::Inet { ip: 0, port }) => Some(Addr::Inet {
            ip: addr::INADDR_LOOPBACK,
            port: *port,
        }),
        other => other.clone(),
    };
    let domain = s.domain;
    if peer.is_none() {
        if let (Some(host::Host::Datagram(h)), Some(Addr::Inet { ip, port })) = (&s.host, &s.peer) {
            let io = host::send_to(h, data, *ip, *port)?;
            return Ok(s.waited(io, libc::POLLOUT));
        }
    }
    drop(s);
    match peer {
        Some(t) => Ok(deliver(&t.borrow(), data, from)),
        None if domain == AF_INET => Ok(Io::Done(data.len())),
        None => Err(Errno::ECONNREFUSED),
    }
}

/// The names of the run's bound sockets.
#[derive(Default)]
pub struct Names {
    bound: BTreeMap<Key, Weak<RefCell<Socket>>>,
    next_port: u16,
}

impl Names {
    /// The live socket named `key`.
    pub fn find(&mut self, key: Key) -> Option<Rc<RefCell<Socket>>> {
        let found = self.bound.get(&key)?.upgrade();
        if found.is_none() {
            self.bound.remove(&key);
        }
        found
    }

    /// Gives `sock` the name `key`; EADDRINUSE when a live socket has it.
    pub fn bind(&mut self, key: Key, sock: &Rc<RefCell<Socket>>) -> Result<(), Errno> {
        if self.find(key).is_some() {
            return Err(Errno::EADDRINUSE);
        }
        self.bound.insert(key, Rc::downgrade(sock));
        Ok(())
    }

    /// A free port of socket type `stype`, counting up from
    /// FIRST_EPHEMERAL (the same ports on every run).
    pub fn ephemeral(&mut self, stype: u32) -> Result<u16, Errno> {
        for _ in 0..=u16::MAX {
            let port = self.next_port.max(FIRST_EPHEMERAL);
            self.next_port = port.checked_add(1).unwrap_or(FIRST_EPHEMERAL);
            if self.find(Key::Port(stype, port)).is_none() {
                return Ok(port);
            }
        }
        Err(Errno::EADDRINUSE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sockets_of_a_pair_are_indistinguishable_and_each_reads_what_the_other_writes() {
        let (mut a, mut b) = Socket::pair(AF_UNIX, SOCK_STREAM);
        assert!(matches!(a.send_stream(b"ping"), Ok(Io::Done(4))));
        assert!(matches!(b.send_stream(b"pong!"), Ok(Io::Done(5))));
        let mut buf = [0u8; 8];
        assert!(matches!(b.receive(&mut buf, false), Ok((Io::Done(4), _))));
        assert_eq!(&buf[..4], b"ping");
        assert!(matches!(a.receive(&mut buf, true), Ok((Io::Done(5), _))));
        assert_eq!(a.waiting(), 5, "a peek leaves the bytes");
    }

    #[test]
    fn closing_one_end_is_end_of_file_for_the_other_and_epipe_for_its_writes() {
        let (a, mut b) = Socket::pair(AF_UNIX, SOCK_STREAM);
        drop(a);
        let mut buf = [0u8; 4];
        assert!(matches!(b.receive(&mut buf, false), Ok((Io::Done(0), _))));
        assert_eq!(b.send_stream(b"x").err(), Some(Errno::EPIPE));
        assert_eq!(b.readiness(), (true, false, true));
    }

    #[test]
    fn shutdown_of_writing_is_end_of_file_for_the_peer_only() {
        let (mut a, mut b) = Socket::pair(AF_UNIX, SOCK_STREAM);
        a.shutdown(1).unwrap();
        assert_eq!(a.send_stream(b"x").err(), Some(Errno::EPIPE));
        let mut buf = [0u8; 4];
        assert!(matches!(b.receive(&mut buf, false), Ok((Io::Done(0), _))));
        assert!(matches!(b.send_stream(b"ok"), Ok(Io::Done(2))));
        assert_eq!(a.shutdown(3).err(), Some(Errno::EINVAL));
    }

    #[test]
    fn data_arriving_after_shutdown_of_receiving_is_discarded_without_an_error() {
        let (mut a, mut b) = Socket::pair(AF_UNIX, SOCK_STREAM);
        assert!(matches!(b.send_stream(b"early"), Ok(Io::Done(5))));
        a.shutdown(0).unwrap();
        for _ in 0..3 {
            let big = vec![7u8; INBOX_BYTES];
            assert!(matches!(b.send_stream(&big), Ok(Io::Done(n)) if n == INBOX_BYTES));
        }
        assert!(b.readiness().1, "the peer can still send");
        let mut buf = [0u8; 8];
        assert!(matches!(a.receive(&mut buf, false), Ok((Io::Done(0), _))));
        assert_eq!(a.waiting(), 0);
        drop(a);
        assert_eq!(b.send_stream(b"x").err(), Some(Errno::EPIPE));
    }

    #[test]
    fn a_closed_sockets_name_is_free_at_once_and_ports_count_up_from_1024() {
        let mut names = Names::default();
        let s = Rc::new(RefCell::new(Socket::new(AF_INET, SOCK_STREAM)));
        names.bind(Key::Port(SOCK_STREAM, 7), &s).unwrap();
        let t = Rc::new(RefCell::new(Socket::new(AF_INET, SOCK_STREAM)));
        assert_eq!(
            names.bind(Key::Port(SOCK_STREAM, 7), &t),
            Err(Errno::EADDRINUSE)
        );
        drop(s);
        names.bind(Key::Port(SOCK_STREAM, 7), &t).unwrap();
        assert_eq!(names.ephemeral(SOCK_STREAM), Ok(1024));
        assert_eq!(names.ephemeral(SOCK_STREAM), Ok(1025));
    }

    #[test]
    fn a_connection_accept_could_not_give_a_descriptor_stays_first_in_the_queue() {
        let listener = Rc::new(RefCell::new(Socket::new(AF_UNIX, SOCK_STREAM)));
        let (first, second) = Socket::pair(AF_UNIX, SOCK_STREAM);
        let (first, second) = (Rc::new(RefCell::new(first)), Rc::new(RefCell::new(second)));
        listener.borrow_mut().conn = Conn::Listening {
            backlog: SOMAXCONN,
            pending: [first.clone(), second].into(),
        };
        assert_eq!(
            accept(&listener, |_| Err::<(), _>(Errno::EMFILE)),
            Err(Errno::EMFILE)
        );
        let got = accept(&listener, |c| Ok(c.clone())).unwrap().unwrap();
        assert!(Rc::ptr_eq(&got, &first));
        assert!(accept(&listener, |_| Ok(())).unwrap().is_some());
        assert_eq!(accept(&listener, |_| Ok(())), Ok(None));
    }

    #[test]
    fn rights_sent_on_a_stream_come_with_the_next_receive_and_close_with_the_socket() {
        use crate::files::{oflag, FileKind};
        let (mut a, mut b) = Socket::pair(AF_UNIX, SOCK_STREAM);
        let pipe = Rc::new(RefCell::new(crate::pipe::Pipe::new()));
        let end = Rc::new(RefCell::new(OpenFile::host_less(
            FileKind::PipeWrite(pipe.clone()),
            oflag::O_WRONLY,
        )));
        assert!(matches!(a.send_stream(b"x"), Ok(Io::Done(1))));
        a.rights_out
            .upgrade()
            .unwrap()
            .borrow_mut()
            .push_back(vec![end.clone()]);
        assert_eq!(b.rights_waiting(), 1);
        let mut buf = [0u8; 4];
        let (io, _, rights) = b.receive_rights(&mut buf, false).unwrap();
        assert!(matches!(io, Io::Done(1)));
        assert!(Rc::ptr_eq(&rights[0], &end));
        a.rights_out
            .upgrade()
            .unwrap()
            .borrow_mut()
            .push_back(rights);
        drop(end);
        assert_eq!(pipe.borrow().writers, 1, "the queued right holds the file");
        drop(b);
        assert_eq!(pipe.borrow().writers, 0, "closed with the receiving socket");
    }

    fn socket_file(s: Socket) -> (Rc<RefCell<Socket>>, Rc<RefCell<OpenFile>>) {
        use crate::files::oflag;
        let s = Rc::new(RefCell::new(s));
        let f = OpenFile::host_less(FileKind::Socket(s.clone()), oflag::O_RDWR);
        (s, Rc::new(RefCell::new(f)))
    }

    #[test]
    fn a_socket_sent_over_itself_or_to_its_peer_is_refused_with_einval() {
        let (a, b) = Socket::pair(AF_UNIX, SOCK_STREAM);
        let ((a, fa), (_b, fb)) = (socket_file(a), socket_file(b));
        let queue = a.borrow().rights_out.upgrade().unwrap();
        // socketpair(sv); sendmsg(sv[0], rights={sv[1]}): sv[1] would hold itself.
        assert_eq!(
            check_rights(&vec![fb.clone()], Some(&queue), None),
            Err(Errno::EINVAL)
        );
        // sendmsg(sv[0], rights={sv[0]}): sv[0] would be held by its peer.
        assert_eq!(
            check_rights(&vec![fa.clone()], Some(&queue), None),
            Err(Errno::EINVAL)
        );
        // A datagram socket sent to itself or to its peer.
        let (d, e) = Socket::pair(AF_UNIX, SOCK_DGRAM);
        let ((d, fd), (e, fe)) = (socket_file(d), socket_file(e));
        d.borrow_mut().conn = Conn::Peer(Rc::downgrade(&e));
        e.borrow_mut().conn = Conn::Peer(Rc::downgrade(&d));
        let inbox = e.borrow().inbox.clone();
        assert_eq!(
            check_rights(&vec![fe.clone()], None, Some(&inbox)),
            Err(Errno::EINVAL)
        );
        assert_eq!(
            check_rights(&vec![fd.clone()], None, Some(&inbox)),
            Err(Errno::EINVAL)
        );
        // Another pair's end is fine.
        let (x, _y) = Socket::pair(AF_UNIX, SOCK_STREAM);
        let (_x, fx) = socket_file(x);
        assert_eq!(check_rights(&vec![fx], Some(&queue), None), Ok(()));
    }

    #[test]
    fn a_socket_with_rights_waiting_in_its_queue_is_refused_so_no_cycle_forms() {
        let (a, b) = Socket::pair(AF_UNIX, SOCK_STREAM);
        let ((a, _fa), (b, fb)) = (socket_file(a), socket_file(b));
        let (c, d) = Socket::pair(AF_UNIX, SOCK_STREAM);
        let ((c, _fc), (_d, fd)) = (socket_file(c), socket_file(d));
        // d goes into b's queue; then b (holding d) may not go into d's.
        let to_b = a.borrow().rights_out.upgrade().unwrap();
        assert_eq!(check_rights(&vec![fd.clone()], Some(&to_b), None), Ok(()));
        to_b.borrow_mut().push_back(vec![fd.clone()]);
        assert!(b.borrow().holds_rights());
        let to_d = c.borrow().rights_out.upgrade().unwrap();
        assert_eq!(
            check_rights(&vec![fb], Some(&to_d), None),
            Err(Errno::EINVAL)
        );
    }

    #[test]
    fn a_long_chain_of_sockets_passed_inside_sockets_closes_without_deep_recursion() {
        // Pair i's receiving end holds pair i+1's, 200000 deep: dropping the
        // first closes them all, one by one.
        let (a0, b0) = Socket::pair(AF_UNIX, SOCK_STREAM);
        let first = b0;
        let mut queue = a0.rights_out.upgrade().unwrap();
        let mut senders = vec![a0];
        let pipe = Rc::new(RefCell::new(crate::pipe::Pipe::new()));
        for _ in 0..200_000 {
            let (a, b) = Socket::pair(AF_UNIX, SOCK_STREAM);
            let next = a.rights_out.upgrade().unwrap();
            let (_, fb) = socket_file(b);
            queue.borrow_mut().push_back(vec![fb]);
            queue = next;
            drop(a);
        }
        let end = OpenFile::host_less(
            FileKind::PipeWrite(pipe.clone()),
            crate::files::oflag::O_WRONLY,
        );
        queue
            .borrow_mut()
            .push_back(vec![Rc::new(RefCell::new(end))]);
        drop(queue);
        senders.clear();
        assert_eq!(pipe.borrow().writers, 1, "the last socket holds the pipe");
        drop(first);
        assert_eq!(pipe.borrow().writers, 0, "the whole chain was closed");
    }

    #[test]
    fn a_socket_is_charged_to_the_budget_while_it_lives_and_refused_past_it() {
        let budget = crate::memory::Budget::new(SOCKET_COST + crate::memory::COPY_RESERVE);
        let mut s = Socket::new(AF_UNIX, SOCK_DGRAM);
        s.charge(&budget, false).unwrap();
        assert_eq!(budget.used(), SOCKET_COST);
        let mut t = Socket::new(AF_UNIX, SOCK_DGRAM);
        assert_eq!(t.charge(&budget, false), Err(Errno::ENOBUFS));
        drop(s);
        assert_eq!(budget.used(), 0);
        t.charge(&budget, false).unwrap();
    }

    #[test]
    fn datagrams_keep_their_boundaries_and_senders() {
        let s = Socket::new(AF_INET, SOCK_DGRAM);
        let from = Some(Addr::Inet {
            ip: 0x7f00_0001,
            port: 1024,
        });
        assert!(matches!(deliver(&s, b"one", from.clone()), Io::Done(3)));
        assert!(matches!(deliver(&s, b"second", None), Io::Done(6)));
        let mut s = s;
        let mut buf = [0u8; 16];
        let (io, got) = s.receive(&mut buf, false).unwrap();
        assert!(matches!(io, Io::Done(3)));
        assert_eq!(got, from);
        assert_eq!(s.waiting(), 6);
    }

    #[test]
    fn empty_datagrams_fill_an_inbox_that_is_never_read_and_a_receive_makes_room() {
        let mut s = Socket::new(AF_UNIX, SOCK_DGRAM);
        let mut sent = 0;
        while matches!(deliver(&s, b"", None), Io::Done(0)) {
            sent += 1;
            assert!(
                sent <= INBOX_BYTES,
                "an inbox took empty datagrams without end"
            );
        }
        assert_eq!(sent, INBOX_BYTES / DATAGRAM_OVERHEAD);
        let mut buf = [0u8; 4];
        assert!(matches!(s.receive(&mut buf, false), Ok((Io::Done(0), _))));
        assert!(matches!(deliver(&s, b"", None), Io::Done(0)));
        assert!(matches!(deliver(&s, b"", None), Io::WouldBlock));
    }
}
