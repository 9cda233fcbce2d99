//! I/O multiplexing: poll(2) and select(2), over one notion of a
//! descriptor's readiness (`readiness`).
//!
//! Both wait in virtual time: on the kernel's own pipes a wait is a
//! `Ret::Block` that another process's transfer, a timeout or a signal
//! ends (and when every process waits, time jumps to the timeout); on a
//! host terminal, FIFO or device only the outside world can end it, so the
//! wait is polled a clock tick at a time (`Ret::WaitHost`). Timeouts are
//! rounded up to whole clock ticks (poll(2): "rounded up to the nearest
//! legal value available on that system").

use std::os::fd::AsRawFd;

use super::{Args, Ret, SysResult};
use crate::abi::limits::OPEN_MAX;
use crate::files::{FileKind, OpenFile};
use crate::kernel::Kernel;
use crate::process::Process;
use crate::timers::{round_to_ticks, OnSignal, Wait};
use crate::Errno;

/// poll(2) event bits (SVR4 <sys/poll.h>).
pub const POLLIN: u16 = 0x0001;
pub const POLLPRI: u16 = 0x0002;
pub const POLLOUT: u16 = 0x0004;
pub const POLLERR: u16 = 0x0008;
pub const POLLHUP: u16 = 0x0010;
pub const POLLNVAL: u16 = 0x0020;
pub const POLLRDNORM: u16 = 0x0040;
/// "POLLWRNORM The same as POLLOUT."
pub const POLLWRNORM: u16 = POLLOUT;

/// select(2)'s descriptor sets hold this many descriptors (IRIX's
/// FD_SETSIZE); fd_mask words are 32 bits, descriptor n at bit n % 32 of
/// word n / 32.
pub const FD_SETSIZE: u32 = 1024;

/// What a descriptor is ready for now: the poll bits that hold, and
/// whether only a party outside the run can change that (a host stream).
struct Ready {
    bits: u16,
    host: bool,
}

const READABLE: u16 = POLLIN | POLLRDNORM;
const WRITABLE: u16 = POLLOUT | POLLWRNORM;

/// Readiness of an open file. A regular file or directory is always ready
/// both ways (reading it never waits); a pipe is readable with data or
/// without writers (end of file, with POLLHUP), writable with room and
/// hung up without readers; a host stream (terminal, FIFO, device)
/// answers as the host's poll says; a semaphore device is readable for
/// process `pid` once an asynchronous unblock granted it the semaphore
/// (usnewpollsema(3P): "To actually acquire the semaphore the caller must
/// issue a poll(2) or select(2) on the file descriptor associated with the
/// semaphore ... The POLLIN event should be used with poll(2). The
/// semaphore file descriptor should be passed in as a read descriptor for
/// select(2).").
///
/// A socket with a host side (`--net`) answers as the host's poll says,
/// merged with what the run's own sockets did, and notes the `events`
/// asked of it for the scheduler's wait on the host.
fn readiness(f: &OpenFile, pid: crate::process::Pid, events: u16) -> Ready {
    let kernel = |bits| Ready { bits, host: false };
    match &f.kind {
        FileKind::PipeRead(p) => {
            let p = p.borrow();
            let mut bits = if p.available() > 0 { READABLE } else { 0 };
            if p.writers == 0 {
                bits |= READABLE | POLLHUP;
            }
            kernel(bits)
        }
        FileKind::PipeWrite(p) => {
            let p = p.borrow();
            kernel(if p.readers == 0 {
                POLLHUP
            } else if p.room() > 0 {
                WRITABLE
            } else {
                0
            })
        }
        FileKind::Dir { .. } => kernel(READABLE | WRITABLE),
        FileKind::Host(file) if file.metadata().is_ok_and(|m| m.is_file()) => {
            kernel(READABLE | WRITABLE)
        }
        FileKind::Host(file) | FileKind::Device(file) => Ready {
            bits: host_readiness(file),
            host: true,
        },
        FileKind::Usema(Some(sema)) if sema.granted(pid) => kernel(READABLE),
        FileKind::Usema(_) => kernel(0),
        FileKind::Socket(s) => {
            s.borrow_mut().settle();
            let (readable, writable, hup) = s.borrow().readiness();
            let on_host = s.borrow().on_host();
            if on_host {
                // POLLPRI always: a wait that named a host socket (even
                // for POLLPRI alone, events 0, or select's exceptfds only)
                // then sleeps on the host a tick instead of spinning.
                let mut wants = libc::POLLPRI;
                if events & READABLE != 0 {
                    wants |= libc::POLLIN;
                }
                if events & WRITABLE != 0 {
                    wants |= libc::POLLOUT;
                }
                s.borrow_mut().host_wants |= wants;
            }
            let mut bits = 0;
            if readable {
                bits |= READABLE;
            }
            if writable {
                bits |= WRITABLE;
            }
            if hup {
                bits |= POLLHUP;
            }
            if s.borrow().urgent() {
                bits |= POLLPRI;
            }
            Ready {
                bits,
                host: on_host,
            }
        }
    }
}

/// The host's answer for a stream, asked without waiting.
fn host_readiness(file: &std::fs::File) -> u16 {
    let mut pfd = libc::pollfd {
        fd: file.as_raw_fd(),
        events: libc::POLLIN | libc::POLLOUT,
        revents: 0,
    };
    // SAFETY: one valid pollfd for a descriptor `file` owns; timeout 0.
    if unsafe { libc::poll(&mut pfd, 1, 0) } <= 0 {
        return 0;
    }
    let mut bits = 0;
    for (host, guest) in [
        (libc::POLLIN, READABLE),
        (libc::POLLOUT, WRITABLE),
        (libc::POLLHUP, POLLHUP),
        (libc::POLLERR, POLLERR),
    ] {
        if pfd.revents & host != 0 {
            bits |= guest;
        }
    }
    bits
}

/// The end of a wait with a timeout of `cycles` (None: no timeout): the
/// first call records when it times out, each later one checks. Returns
/// true when the time is up.
fn timed_out(k: &Kernel, p: &mut Process, cycles: Option<u64>) -> bool {
    if let Some(wait) = p.wait {
        return wait.until.is_some_and(|t| k.now() >= t);
    }
    p.wait = Some(Wait {
        until: cycles.map(|c| k.now().saturating_add(round_to_ticks(c, k.tick_cycles()))),
        on_signal: OnSignal::Eintr,
        ..Default::default()
    });
    false
}

fn waiting(host: bool) -> SysResult {
    Ok(if host { Ret::WaitHost } else { Ret::Block })
}

/// poll(fds, nfds, timeout): each pollfd { int fd; short events; short
/// revents; } gets the requested events that hold, plus POLLHUP, POLLERR
/// and POLLNVAL (a descriptor that is not open) whenever they hold; a
/// negative fd gets 0. Returns how many entries have revents set, waiting
/// up to timeout milliseconds (-1: without limit) for one; 0 on a timeout.
/// "poll is not affected by the O_NDELAY and O_NONBLOCK flag". EINVAL for
/// nfds above the descriptor limit, EFAULT for a bad fds, EINTR when a
/// caught signal ends the wait.
pub fn poll(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (fds, nfds, timeout) = (a.ptr(0), a.word(1), a.int(2));
    if nfds as usize > OPEN_MAX {
        return Err(Errno::EINVAL);
    }
    let mut table = vec![0u8; nfds as usize * 8];
    p.mem.read_bytes(fds, &mut table)?;
    let mut ready = 0;
    let mut host = false;
    for entry in table.chunks_mut(8) {
        let fd = i32::from_be_bytes([entry[0], entry[1], entry[2], entry[3]]);
        let events = u16::from_be_bytes([entry[4], entry[5]]);
        let revents = if fd < 0 {
            0
        } else {
            match p.fds.get(fd as u32) {
                Err(_) => POLLNVAL,
                Ok(file) => {
                    let r = readiness(&file.borrow(), p.pid, events);
                    host |= r.host;
                    r.bits & (events | POLLHUP | POLLERR)
                }
            }
        };
        entry[6..8].copy_from_slice(&revents.to_be_bytes());
        ready += u32::from(revents != 0);
    }
    let limit = u64::try_from(timeout)
        .ok()
        .map(|ms| k.ns_to_cycles(ms as u128 * 1_000_000));
    if ready == 0 && timeout != 0 && !timed_out(k, p, limit) {
        return waiting(host);
    }
    p.mem.write_bytes(fds, &table)?;
    Ok(Ret::Val(ready))
}

/// One of select's descriptor sets: the words of the first `nfds`
/// descriptors (None for a NULL pointer).
fn read_set(p: &Process, addr: u32, nfds: u32) -> Result<Option<Vec<u32>>, Errno> {
    if addr == 0 {
        return Ok(None);
    }
    let words = nfds.div_ceil(32) as usize;
    let mut b = vec![0u8; words * 4];
    p.mem.read_bytes(addr, &mut b)?;
    Ok(Some(
        b.chunks(4)
            .map(|w| u32::from_be_bytes([w[0], w[1], w[2], w[3]]))
            .collect(),
    ))
}

fn write_set(p: &mut Process, addr: u32, set: &[u32]) -> Result<(), Errno> {
    let bytes: Vec<u8> = set.iter().flat_map(|w| w.to_be_bytes()).collect();
    p.mem.write_bytes(addr, &bytes)
}

/// select(nfds, readfds, writefds, exceptfds, timeout): replaces each set
/// with the descriptors among its first nfds that are ready for reading
/// (data, end of file, or an error to report), writing (a write would not
/// wait) or have an exceptional condition (a stream socket with an urgent
/// byte waiting, send(2) MSG_OOB); returns how many bits are set, waiting up to the
/// timeval at timeout (NULL: without limit) for one; 0 on a timeout. EBADF
/// for a set descriptor that is not open, EINVAL for nfds outside
/// 0..=FD_SETSIZE or a bad time, EFAULT for a bad pointer, EINTR (the sets
/// unmodified) when a caught signal ends the wait.
pub fn select(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let nfds = a.int(0);
    if !(0..=FD_SETSIZE as i32).contains(&nfds) {
        return Err(Errno::EINVAL);
    }
    let nfds = nfds as u32;
    let addrs = [a.ptr(1), a.ptr(2), a.ptr(3)];
    let mut sets = Vec::with_capacity(3);
    for addr in addrs {
        sets.push(read_set(p, addr, nfds)?);
    }
    let limit = match a.ptr(4) {
        0 => None,
        tv => {
            let sec = p.mem.read_u32(tv)? as i32;
            let usec = p.mem.read_u32(tv.wrapping_add(4))? as i32;
            if sec < 0 || !(0..1_000_000).contains(&usec) {
                return Err(Errno::EINVAL);
            }
            Some(k.ns_to_cycles(sec as u128 * 1_000_000_000 + usec as u128 * 1000))
        }
    };
    let wanted = [
        READABLE | POLLHUP | POLLERR,
        WRITABLE | POLLHUP | POLLERR,
        POLLPRI,
    ];
    let mut out: Vec<Option<Vec<u32>>> = sets
        .iter()
        .map(|s| s.as_ref().map(|w| vec![0; w.len()]))
        .collect();
    let mut ready = 0;
    let mut host = false;
    for fd in 0..nfds {
        let (word, bit) = ((fd / 32) as usize, 1u32 << (fd % 32));
        let asked: Vec<usize> = (0..3)
            .filter(|&i| sets[i].as_ref().is_some_and(|s| s[word] & bit != 0))
            .collect();
        if asked.is_empty() {
            continue;
        }
        let events = asked.iter().fold(0, |e, &i| e | wanted[i]);
        let r = readiness(&p.fds.get(fd)?.borrow(), p.pid, events);
        host |= r.host;
        for i in asked {
            if r.bits & wanted[i] != 0 {
                if let Some(o) = out[i].as_mut() {
                    o[word] |= bit;
                }
                ready += 1;
            }
        }
    }
    if ready == 0 && limit != Some(0) && !timed_out(k, p, limit) {
        return waiting(host);
    }
    for (addr, set) in addrs.iter().zip(&out) {
        if let Some(set) = set {
            write_set(p, *addr, set)?;
        }
    }
    Ok(Ret::Val(ready))
}
