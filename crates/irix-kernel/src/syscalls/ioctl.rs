//! ioctl(2)'s requests of terminals and descriptors (termio(7)'s TCGETA
//! family and the termios TCGETS family, the window size, FIONREAD,
//! FIONBIO and a socket's SIOCATMARK). The terminal's settings are irix-emu's own copy (`crate::tty`);
//! the window size is the host terminal's unless the guest set one.

use std::cell::RefCell;
use std::os::fd::AsRawFd;
use std::rc::Rc;

use super::{Ret, SysResult};
use crate::abi::flags::ioctl::*;
use crate::files::{oflag, FileKind, OpenFile};
use crate::kernel::Kernel;
use crate::process::Process;
use crate::tty::{Termios, WinSize, TERMIOS_SIZE, TERMIO_SIZE};
use crate::Errno;

/// The window size when the host cannot tell: 24 rows of 80 columns.
const DEFAULT_WINSIZE: WinSize = WinSize {
    rows: 24,
    cols: 80,
    xpixel: 0,
    ypixel: 0,
};

/// Handles `request` on `file`. Terminal requests on anything but a
/// terminal are ENOTTY ("fildes is not associated with a device driver
/// that accepts control functions", how isatty tells); an unknown request
/// is ENOTTY on a file, EINVAL on a terminal ("request or arg is not valid
/// for this device"); EFAULT for a bad arg.
pub fn request(
    k: &mut Kernel,
    p: &mut Process,
    file: &Rc<RefCell<OpenFile>>,
    request: u32,
    arg: u32,
) -> SysResult {
    let tty = file.borrow().is_terminal();
    match request {
        FIONREAD => {
            let n = bytes_waiting(&file.borrow());
            p.mem.write_bytes(arg, &n.to_be_bytes())?;
        }
        SIOCATMARK => {
            let at = match &file.borrow().kind {
                FileKind::Socket(s) => s.borrow().at_mark(),
                _ => return Err(Errno::ENOTTY),
            };
            p.mem.write_u32(arg, u32::from(at))?;
        }
        FIONBIO => {
            let on = p.mem.read_u32(arg)? != 0;
            let mut f = file.borrow_mut();
            f.flags = if on {
                f.flags | oflag::O_NONBLOCK
            } else {
                f.flags & !(oflag::O_NONBLOCK | oflag::O_NDELAY)
            };
        }
        _ if !tty => return Err(Errno::ENOTTY),
        TCGETA => p.mem.write_bytes(arg, &k.tty.termios.encode_termio())?,
        TCGETS => p.mem.write_bytes(arg, &k.tty.termios.encode_termios())?,
        // The W and F forms wait for output to drain and flush input
        // first: the host terminal's output is already written, and its
        // input is not irix-emu's to flush.
        TCSETA | TCSETAW | TCSETAF => {
            let mut b = [0u8; TERMIO_SIZE];
            p.mem.read_bytes(arg, &mut b)?;
            k.tty.termios = k.tty.termios.with_termio(&b);
        }
        TCSETS | TCSETSW | TCSETSF => {
            let mut b = [0u8; TERMIOS_SIZE];
            p.mem.read_bytes(arg, &mut b)?;
            k.tty.termios = Termios::decode_termios(&b);
        }
        TIOCGWINSZ => {
            let size = k
                .tty
                .winsize
                .unwrap_or_else(|| host_winsize(&file.borrow()));
            p.mem.write_bytes(arg, &size.encode())?;
        }
        TIOCSWINSZ => {
            let mut b = [0u8; 8];
            p.mem.read_bytes(arg, &mut b)?;
            k.tty.winsize = Some(WinSize::decode(&b));
        }
        // Drain (and send a break), suspend or restart output, flush
        // queues: nothing is queued between irix-emu and the host.
        TCSBRK | TCXONC | TCFLSH => {}
        _ => return Err(Errno::EINVAL),
    }
    Ok(Ret::Val(0))
}

/// FIONREAD: bytes a read could return now. A pipe's buffer, a regular
/// file's bytes past the offset, a host stream's as the host counts them;
/// 0 for anything else.
fn bytes_waiting(f: &OpenFile) -> u32 {
    let n = match &f.kind {
        FileKind::PipeRead(pipe) => pipe.borrow().available() as u64,
        FileKind::Socket(s) => s.borrow().waiting() as u64,
        FileKind::Host(file) if file.metadata().is_ok_and(|m| m.is_file()) => {
            use std::io::Seek;
            let size = file.metadata().map_or(0, |m| m.len());
            let pos = (&*file).stream_position().unwrap_or(size);
            size.saturating_sub(pos)
        }
        FileKind::Host(file) | FileKind::Device(file) => {
            let mut n: libc::c_int = 0;
            // SAFETY: FIONREAD stores one int through the pointer, for a
            // descriptor `file` owns.
            let r = unsafe { libc::ioctl(file.as_raw_fd(), libc::FIONREAD, &mut n) };
            if r == 0 {
                n.max(0) as u64
            } else {
                0
            }
        }
        _ => 0,
    };
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The host terminal's window size (24 x 80 when it has none).
fn host_winsize(f: &OpenFile) -> WinSize {
    let (FileKind::Host(file) | FileKind::Device(file)) = &f.kind else {
        return DEFAULT_WINSIZE;
    };
    let mut ws = libc::winsize {
        ws_row: 0,
        ws_col: 0,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: TIOCGWINSZ stores one struct winsize through the pointer, for
    // a descriptor `file` owns.
    let r = unsafe { libc::ioctl(file.as_raw_fd(), libc::TIOCGWINSZ, &mut ws) };
    if r != 0 || ws.ws_row == 0 || ws.ws_col == 0 {
        return DEFAULT_WINSIZE;
    }
    WinSize {
        rows: ws.ws_row,
        cols: ws.ws_col,
        xpixel: ws.ws_xpixel,
        ypixel: ws.ws_ypixel,
    }
}
