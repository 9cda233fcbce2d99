//! The pieces of GDB remote-protocol packets: hex numbers and bytes,
//! thread ids in the multiprocess syntax, and the binary escaping of
//! replies ("Remote Protocol", sections "Overview" and "Packets" of GDB's
//! manual).
//!
//! A process of irix-emu has one thread, so a thread id is
//! `p<pid>.<pid>` (hex), as GDB sees a single-threaded process on Linux.

use irix_kernel::process::Pid;

/// A thread id as GDB sends it in `Hg`, `vCont` actions and `T`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreadId {
    /// `-1` or `p-1`: every process.
    All,
    /// `0` (any thread): the stub picks.
    Any,
    /// `p<pid>`, `p<pid>.<tid>`, `p<pid>.-1` or a bare `<tid>` (which,
    /// with one thread per process, is the pid).
    Process(Pid),
}

impl ThreadId {
    /// Parses the thread-id syntax; None when malformed.
    pub fn parse(s: &[u8]) -> Option<ThreadId> {
        let (pid, tid) = match s.strip_prefix(b"p") {
            Some(rest) => match rest.iter().position(|&b| b == b'.') {
                Some(dot) => (&rest[..dot], Some(&rest[dot + 1..])),
                None => (rest, None),
            },
            None => (s, None),
        };
        if pid == b"-1" {
            return Some(ThreadId::All);
        }
        if let Some(tid) = tid {
            if tid != b"-1" {
                hex_u64(tid)?;
            }
        }
        match hex_u64(pid)? {
            0 => Some(ThreadId::Any),
            n => Some(ThreadId::Process(u32::try_from(n).ok()?)),
        }
    }

    /// Whether this id names process `pid`.
    pub fn names(self, pid: Pid) -> bool {
        match self {
            ThreadId::All | ThreadId::Any => true,
            ThreadId::Process(p) => p == pid,
        }
    }
}

/// The thread id of process `pid`'s one thread.
pub fn thread_id(pid: Pid) -> String {
    format!("p{pid:x}.{pid:x}")
}

/// A hex number (no sign, no prefix); None when empty or malformed.
pub fn hex_u64(s: &[u8]) -> Option<u64> {
    if s.is_empty() || s.len() > 16 {
        return None;
    }
    u64::from_str_radix(std::str::from_utf8(s).ok()?, 16).ok()
}

/// `addr,len` as in `m` and `Z`.
pub fn addr_len(s: &[u8]) -> Option<(u32, usize)> {
    let comma = s.iter().position(|&b| b == b',')?;
    let addr = u32::try_from(hex_u64(&s[..comma])?).ok()?;
    let len = usize::try_from(hex_u64(&s[comma + 1..])?).ok()?;
    Some((addr, len))
}

/// Bytes as two lowercase hex digits each.
pub fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Hex digits back to bytes; None for an odd count or a non-digit.
pub fn from_hex(s: &[u8]) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    s.chunks_exact(2)
        .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok())
        .collect()
}

/// Binary data in a reply (`qXfer`): `$`, `#`, `}` and `*` are sent as
/// `}` and the byte XOR 0x20.
pub fn escape_binary(data: &[u8], out: &mut Vec<u8>) {
    for &b in data {
        if matches!(b, b'$' | b'#' | b'}' | b'*') {
            out.extend_from_slice(&[b'}', b ^ 0x20]);
        } else {
            out.push(b);
        }
    }
}

/// A packet's checksum: the sum of its bytes modulo 256.
pub fn checksum(body: &[u8]) -> u8 {
    body.iter().fold(0u8, |a, &b| a.wrapping_add(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_ids_in_every_form_gdb_sends() {
        assert_eq!(ThreadId::parse(b"p64.64"), Some(ThreadId::Process(100)));
        assert_eq!(ThreadId::parse(b"p64.-1"), Some(ThreadId::Process(100)));
        assert_eq!(ThreadId::parse(b"p64"), Some(ThreadId::Process(100)));
        assert_eq!(ThreadId::parse(b"p-1"), Some(ThreadId::All));
        assert_eq!(ThreadId::parse(b"-1"), Some(ThreadId::All));
        assert_eq!(ThreadId::parse(b"0"), Some(ThreadId::Any));
        assert_eq!(ThreadId::parse(b"65"), Some(ThreadId::Process(0x65)));
        assert_eq!(ThreadId::parse(b"pzz.1"), None);
        assert_eq!(ThreadId::parse(b""), None);
        assert_eq!(thread_id(100), "p64.64");
    }

    #[test]
    fn hex_and_binary_encodings() {
        assert_eq!(addr_len(b"400160,4"), Some((0x40_0160, 4)));
        assert_eq!(addr_len(b"400160"), None);
        assert_eq!(to_hex(b"/hi"), "2f6869");
        assert_eq!(from_hex(b"2f6869"), Some(b"/hi".to_vec()));
        assert_eq!(from_hex(b"2f6"), None);
        let mut out = Vec::new();
        escape_binary(b"a$#}*b", &mut out);
        assert_eq!(out, b"a}\x04}\x03}]}\x0ab");
        assert_eq!(checksum(b"c"), 0x63);
    }
}
