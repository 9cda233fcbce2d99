//! Where GDB connects: `--gdb PORT` (localhost only), `--gdb ADDR:PORT`
//! (the address named) or `--gdb unix:PATH` (a Unix-domain socket).

use std::net::{SocketAddr, TcpListener};
use std::os::unix::net::UnixListener;
use std::path::PathBuf;
use std::str::FromStr;

use gdbstub::conn::ConnectionExt;

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

/// A connection to GDB.
pub type Conn = Box<dyn ConnectionExt<Error = std::io::Error>>;

/// Binds, says where on stderr, and waits for GDB to connect.
pub fn accept(listen: &Listen) -> std::io::Result<Conn> {
    match listen {
        Listen::Tcp(addr) => {
            let l = TcpListener::bind(addr)?;
            crate::cli::say(format_args!(
                "waiting for GDB on {} (target remote {})",
                l.local_addr()?,
                l.local_addr()?
            ));
            let (stream, _) = l.accept()?;
            Ok(Box::new(stream))
        }
        Listen::Unix(path) => {
            // A stale socket from an earlier run is replaced; any other
            // file is left alone (bind then fails).
            if std::fs::metadata(path).is_ok_and(|m| {
                use std::os::unix::fs::FileTypeExt;
                m.file_type().is_socket()
            }) {
                let _ = std::fs::remove_file(path);
            }
            let l = UnixListener::bind(path)?;
            crate::cli::say(format_args!(
                "waiting for GDB on {} (target remote {})",
                path.display(),
                path.display()
            ));
            let accepted = l.accept();
            let _ = std::fs::remove_file(path);
            let (stream, _) = accepted?;
            Ok(Box::new(stream))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
