//! Where GDB connects: `--gdb PORT` (localhost only), `--gdb ADDR:PORT`
//! (the address named) or `--gdb unix:PATH` (a Unix-domain socket), and
//! the packet framing on that connection.

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::PathBuf;
use std::str::FromStr;

use super::packet::checksum;

/// A parsed `--gdb` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Listen {
    Tcp(SocketAddr),
    Unix(PathBuf),
}

impl FromStr for Listen {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        if let Some(path) = s.strip_prefix("unix:") {
            if path.is_empty() {
                return Err("unix: needs a socket path".into());
            }
            return Ok(Listen::Unix(PathBuf::from(path)));
        }
        if let Ok(port) = s.parse::<u16>() {
            return Ok(Listen::Tcp(SocketAddr::from(([127, 0, 0, 1], port))));
        }
        s.parse::<SocketAddr>()
            .map(Listen::Tcp)
            .map_err(|_| format!("'{s}' is not PORT, ADDR:PORT or unix:PATH"))
    }
}

/// The byte stream GDB is on.
enum Stream {
    Tcp(TcpStream),
    Unix(UnixStream),
}

impl Stream {
    fn set_nonblocking(&self, on: bool) -> io::Result<()> {
        match self {
            Stream::Tcp(s) => s.set_nonblocking(on),
            Stream::Unix(s) => s.set_nonblocking(on),
        }
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.read(buf),
            Stream::Unix(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.write(buf),
            Stream::Unix(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stream::Tcp(s) => s.flush(),
            Stream::Unix(s) => s.flush(),
        }
    }
}

/// What GDB sent.
#[derive(Debug, PartialEq, Eq)]
pub enum Incoming {
    /// A packet's body (between `$` and `#`), its checksum verified.
    Packet(Vec<u8>),
    /// The interrupt byte (Ctrl-C, 0x03) outside a packet.
    Interrupt,
}

/// A connection to GDB: the packet framing (`$body#sum`, the `+`/`-`
/// acknowledgements until `QStartNoAckMode`, the interrupt byte).
pub struct Conn {
    stream: Stream,
    /// Bytes received and not yet framed.
    buf: VecDeque<u8>,
    /// Acknowledge packets (until GDB turns it off).
    acks: bool,
}

/// The longest packet accepted: far more than GDB sends (it keeps to the
/// `PacketSize` the stub announces).
const MAX_PACKET: usize = 1 << 20;

/// The error a connection GDB closed reads as.
fn closed() -> io::Error {
    io::Error::new(io::ErrorKind::UnexpectedEof, "GDB closed the connection")
}

impl Conn {
    fn new(stream: Stream) -> Conn {
        Conn {
            stream,
            buf: VecDeque::new(),
            acks: true,
        }
    }

    /// Stops acknowledging packets (after replying to `QStartNoAckMode`).
    pub fn no_acks(&mut self) {
        self.acks = false;
    }

    /// One more byte, waiting for it.
    fn byte(&mut self) -> io::Result<u8> {
        if self.buf.is_empty() {
            let mut chunk = [0u8; 4096];
            let n = loop {
                match self.stream.read(&mut chunk) {
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    r => break r?,
                }
            };
            if n == 0 {
                return Err(closed());
            }
            self.buf.extend(&chunk[..n]);
        }
        Ok(self.buf.pop_front().expect("a byte was buffered"))
    }

    /// Waits for the next packet or interrupt; a packet with a bad
    /// checksum is refused (`-`) and GDB sends it again.
    pub fn read(&mut self) -> io::Result<Incoming> {
        loop {
            match self.byte()? {
                0x03 => return Ok(Incoming::Interrupt),
                b'$' => {}
                // Acknowledgements and line noise between packets.
                _ => continue,
            }
            let mut body = Vec::new();
            loop {
                match self.byte()? {
                    b'#' => break,
                    _ if body.len() == MAX_PACKET => {
                        return Err(io::Error::new(
                            io::ErrorKind::InvalidData,
                            "a packet longer than GDB ever sends",
                        ))
                    }
                    b => body.push(b),
                }
            }
            let sum = [self.byte()?, self.byte()?];
            let good = std::str::from_utf8(&sum)
                .ok()
                .and_then(|s| u8::from_str_radix(s, 16).ok())
                == Some(checksum(&body));
            if self.acks {
                self.send_raw(if good { b"+" } else { b"-" })?;
            }
            if good || !self.acks {
                return Ok(Incoming::Packet(body));
            }
        }
    }

    /// Reads what has arrived without waiting; an error when the
    /// connection is closed or broken.
    fn fill(&mut self) -> io::Result<()> {
        self.stream.set_nonblocking(true)?;
        let mut chunk = [0u8; 4096];
        let got = self.stream.read(&mut chunk);
        self.stream.set_nonblocking(false)?;
        match got {
            Ok(0) => Err(closed()),
            Ok(n) => {
                self.buf.extend(&chunk[..n]);
                Ok(())
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Whether GDB has sent something (without waiting). A closed or
    /// broken connection counts as something: `poll` reports the error.
    pub fn pending(&mut self) -> bool {
        self.buf.is_empty() && self.fill().is_err() || !self.buf.is_empty()
    }

    /// What GDB sent while the program ran, without waiting: acks and
    /// noise are dropped (None when nothing else came).
    pub fn poll(&mut self) -> io::Result<Option<Incoming>> {
        if self.buf.is_empty() {
            self.fill()?;
        }
        while let Some(&b) = self.buf.front() {
            match b {
                0x03 => {
                    self.buf.pop_front();
                    return Ok(Some(Incoming::Interrupt));
                }
                b'$' => return self.read().map(Some),
                _ => {
                    self.buf.pop_front();
                }
            }
        }
        Ok(None)
    }

    /// Sends one packet with `body` (already escaped where binary).
    pub fn send(&mut self, body: &[u8]) -> io::Result<()> {
        let mut framed = Vec::with_capacity(body.len() + 4);
        framed.push(b'$');
        framed.extend_from_slice(body);
        framed.extend_from_slice(format!("#{:02x}", checksum(body)).as_bytes());
        self.send_raw(&framed)
    }

    fn send_raw(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.stream.write_all(bytes)?;
        self.stream.flush()
    }
}

/// A bound `--gdb` address, GDB not yet connected.
pub enum Listener {
    Tcp(TcpListener),
    Unix(UnixListener, PathBuf),
}

impl Listener {
    /// Binds where `listen` says. A stale Unix socket from an earlier run is
    /// replaced; any other file is left alone (binding then fails).
    pub fn bind(listen: &Listen) -> io::Result<Listener> {
        match listen {
            Listen::Tcp(addr) => Ok(Listener::Tcp(TcpListener::bind(addr)?)),
            Listen::Unix(path) => {
                if std::fs::metadata(path).is_ok_and(|m| {
                    use std::os::unix::fs::FileTypeExt;
                    m.file_type().is_socket()
                }) {
                    let _ = std::fs::remove_file(path);
                }
                Ok(Listener::Unix(UnixListener::bind(path)?, path.clone()))
            }
        }
    }

    /// Where GDB should connect, as `target remote` takes it (the port the
    /// system chose when `--gdb` asked for port 0).
    pub fn address(&self) -> io::Result<String> {
        match self {
            Listener::Tcp(l) => Ok(l.local_addr()?.to_string()),
            Listener::Unix(_, path) => Ok(path.display().to_string()),
        }
    }

    /// Waits for GDB to connect. A Unix socket's file is removed once GDB
    /// is on (or the wait failed).
    pub fn accept(self) -> io::Result<Conn> {
        match self {
            Listener::Tcp(l) => {
                let (stream, _) = l.accept()?;
                let _ = stream.set_nodelay(true);
                Ok(Conn::new(Stream::Tcp(stream)))
            }
            Listener::Unix(l, path) => {
                let accepted = l.accept();
                let _ = std::fs::remove_file(&path);
                let (stream, _) = accepted?;
                Ok(Conn::new(Stream::Unix(stream)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair() -> (Conn, UnixStream) {
        let (a, b) = UnixStream::pair().unwrap();
        (Conn::new(Stream::Unix(a)), b)
    }

    #[test]
    fn packets_are_checked_acknowledged_and_framed() {
        let (mut conn, mut gdb) = pair();
        gdb.write_all(b"+$g#67$g#00$?#3f\x03").unwrap();
        assert_eq!(conn.read().unwrap(), Incoming::Packet(b"g".to_vec()));
        // The bad checksum is refused; GDB would send it again.
        assert_eq!(conn.read().unwrap(), Incoming::Packet(b"?".to_vec()));
        assert_eq!(conn.read().unwrap(), Incoming::Interrupt);
        conn.send(b"OK").unwrap();
        let mut got = [0u8; 9];
        gdb.read_exact(&mut got).unwrap();
        assert_eq!(&got, b"+-+$OK#9a");
    }

    #[test]
    fn polling_drops_acks_and_finds_the_interrupt() {
        let (mut conn, mut gdb) = pair();
        assert_eq!(conn.poll().unwrap(), None);
        assert!(!conn.pending());
        gdb.write_all(b"++").unwrap();
        assert!(conn.pending());
        assert_eq!(conn.poll().unwrap(), None);
        gdb.write_all(b"+\x03").unwrap();
        assert_eq!(conn.poll().unwrap(), Some(Incoming::Interrupt));
        drop(gdb);
        assert!(conn.pending());
        assert!(conn.poll().is_err());
        assert!(conn.read().is_err());
    }

    #[test]
    fn a_bare_port_is_localhost_only() {
        assert_eq!(
            "1234".parse::<Listen>(),
            Ok(Listen::Tcp("127.0.0.1:1234".parse().unwrap()))
        );
        assert_eq!(
            "0.0.0.0:99".parse::<Listen>(),
            Ok(Listen::Tcp("0.0.0.0:99".parse().unwrap()))
        );
        assert_eq!(
            "unix:/tmp/s".parse::<Listen>(),
            Ok(Listen::Unix("/tmp/s".into()))
        );
        assert!("unix:".parse::<Listen>().is_err());
        assert!("host".parse::<Listen>().is_err());
    }
}
