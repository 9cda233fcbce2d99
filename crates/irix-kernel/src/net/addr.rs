//! Socket addresses as a guest passes them (IRIX's o32 layouts, without
//! BSD 4.4's length byte): `sockaddr_un` is a 16-bit family and up to 108
//! path bytes; `sockaddr_in` is the family, a port and an IPv4 address in
//! network order, and eight zero bytes (16 bytes).

use super::{AF_INET, AF_UNIX};
use crate::Errno;

/// Bytes of `sockaddr_in`; the most path bytes of `sockaddr_un`.
pub const SOCKADDR_IN_BYTES: usize = 16;
pub const UNIX_PATH_MAX: usize = 108;

/// INADDR_ANY and the loopback address (127.0.0.1).
pub const INADDR_ANY: u32 = 0;
pub const INADDR_LOOPBACK: u32 = 0x7f00_0001;

/// A socket's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Addr {
    /// An AF_UNIX path, as the guest gave it.
    Unix(Vec<u8>),
    /// An AF_INET address and port.
    Inet { ip: u32, port: u16 },
}

impl Addr {
    /// The address in the guest's `bytes` (its length is the caller's
    /// `namelen`): EINVAL when too short for its family, EAFNOSUPPORT for
    /// a family other than AF_UNIX and AF_INET.
    pub fn decode(bytes: &[u8]) -> Result<Addr, Errno> {
        if bytes.len() < 2 {
            return Err(Errno::EINVAL);
        }
        match u16::from_be_bytes([bytes[0], bytes[1]]) {
            AF_UNIX => {
                let path: Vec<u8> = bytes[2..].iter().copied().take_while(|&b| b != 0).collect();
                if path.is_empty() || path.len() > UNIX_PATH_MAX {
                    return Err(Errno::EINVAL);
                }
                Ok(Addr::Unix(path))
            }
            AF_INET if bytes.len() >= SOCKADDR_IN_BYTES => Ok(Addr::Inet {
                port: u16::from_be_bytes([bytes[2], bytes[3]]),
                ip: u32::from_be_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]),
            }),
            AF_INET => Err(Errno::EINVAL),
            _ => Err(Errno::EAFNOSUPPORT),
        }
    }

    pub fn family(&self) -> u16 {
        match self {
            Addr::Unix(_) => AF_UNIX,
            Addr::Inet { .. } => AF_INET,
        }
    }

    /// The structure's bytes (a path ends with its NUL).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = self.family().to_be_bytes().to_vec();
        match self {
            Addr::Unix(path) => {
                out.extend(path);
                out.push(0);
            }
            Addr::Inet { ip, port } => {
                out.extend(port.to_be_bytes());
                out.extend(ip.to_be_bytes());
                out.extend([0u8; 8]);
            }
        }
        out
    }

    /// What getsockname(2) gives for a socket without a name: the family
    /// alone for AF_UNIX, 0.0.0.0 port 0 for AF_INET.
    pub fn unnamed(domain: u16) -> Vec<u8> {
        match domain {
            AF_INET => Addr::Inet {
                ip: INADDR_ANY,
                port: 0,
            }
            .encode(),
            d => d.to_be_bytes().to_vec(),
        }
    }

    /// Is this AF_INET address one of the run's own (127.0.0.0/8 or
    /// INADDR_ANY)?
    pub fn is_local(ip: u32) -> bool {
        ip == INADDR_ANY || ip >> 24 == 127
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sockaddr_in_is_the_family_port_and_address_in_network_order() {
        let b = [0, 2, 0x1f, 0x90, 127, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0];
        let a = Addr::decode(&b).unwrap();
        assert_eq!(
            a,
            Addr::Inet {
                ip: INADDR_LOOPBACK,
                port: 8080
            }
        );
        assert_eq!(a.encode(), b);
        assert_eq!(Addr::decode(&b[..8]), Err(Errno::EINVAL));
    }

    #[test]
    fn a_sockaddr_un_is_the_family_and_a_path_up_to_its_nul() {
        let a = Addr::decode(b"\0\x01/tmp/s\0junk").unwrap();
        assert_eq!(a, Addr::Unix(b"/tmp/s".to_vec()));
        assert_eq!(a.encode(), b"\0\x01/tmp/s\0");
        assert_eq!(Addr::decode(b"\0\x01"), Err(Errno::EINVAL));
        assert_eq!(Addr::decode(b"\0\x09abc"), Err(Errno::EAFNOSUPPORT));
    }
}
