//! Waiting for the host (`--net`): when every process of the run waits
//! and some wait on host sockets, the run really blocks in the host's
//! poll(2) on the sockets those waits named, for at most one clock tick
//! of host time (10 ms at HZ 100) at a time. The scheduler then moves
//! virtual time on by one tick, as after every wait on the host, and the
//! waiting calls are made again. A stop request (SIGINT) is looked at
//! between slices, so it ends such a run within a tick.

use std::rc::Rc;

use super::Kernel;
use crate::net::Socket;

/// The longest single wait in the host's poll(2), in milliseconds: one
/// clock tick (HZ 100).
const HOST_WAIT_MS: i32 = 10;

impl Kernel {
    /// Keeps `sock` among the sockets the host wait looks at.
    pub(crate) fn watch_host(&mut self, sock: &Rc<std::cell::RefCell<Socket>>) {
        self.host_sockets.retain(|w| w.strong_count() > 0);
        if !self
            .host_sockets
            .iter()
            .any(|w| std::ptr::eq(w.as_ptr(), Rc::as_ptr(sock)))
        {
            self.host_sockets.push(Rc::downgrade(sock));
        }
    }

    /// Waits (up to a tick of host time) for one of the host sockets a
    /// waiting call named to be ready; returns at once when no call named
    /// one. Each socket's wanted events are cleared: the calls still
    /// waiting name them again when they are made again.
    pub(super) fn wait_for_host(&mut self) {
        self.host_sockets.retain(|w| w.strong_count() > 0);
        let mut fds = Vec::new();
        for sock in self.host_sockets.iter().filter_map(|w| w.upgrade()) {
            let Ok(mut s) = sock.try_borrow_mut() else {
                continue;
            };
            let wants = std::mem::take(&mut s.host_wants);
            if let (Some(h), true) = (&s.host, wants != 0) {
                fds.push(libc::pollfd {
                    fd: h.fd(),
                    events: wants,
                    revents: 0,
                });
            }
        }
        if fds.is_empty() {
            return;
        }
        // SAFETY: `fds` holds valid pollfds for descriptors the run's
        // sockets own, alive for the call; a bounded timeout.
        unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, HOST_WAIT_MS) };
    }
}
