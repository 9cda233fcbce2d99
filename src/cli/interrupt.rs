//! SIGINT, SIGTERM and SIGHUP sent to irix-emu while a program runs: the
//! run stops between time slices and unwinds normally, so the private
//! scratch directory (the guest's /tmp, /usr/tmp, /var/tmp) is removed by
//! its owner's `Drop`, and irix-emu exits with 128 + the signal's number
//! (README, "Exit statuses").
//!
//! The design keeps Rust out of signal-handler context altogether: [`catch`]
//! blocks the three signals in the calling thread before any other thread
//! starts (threads inherit the mask), and one thread of its own takes them
//! with sigwait(2) and sets the run's [`StopRequest`]; the scheduler looks
//! at it between time slices. No handler, no global, no self-pipe.
//!
//! Should the run not end within [`GRACE`] (irix-emu waiting for GDB to
//! connect, or for GDB's next packet), that thread removes the scratch
//! directory itself and exits with the same status.
//!
//! A signal ignored when irix-emu starts (`nohup` ignores SIGHUP) stays
//! ignored.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use irix_kernel::kernel::{Kernel, StopRequest};

use super::say;
use crate::exit;

/// The host signals that stop a run.
const STOPPING: [libc::c_int; 3] = [libc::SIGHUP, libc::SIGINT, libc::SIGTERM];

/// How long the run has, after the signal, to stop between time slices and
/// clean up on its own before the signal thread does it.
pub const GRACE: Duration = Duration::from_secs(2);

/// What the signal thread and the run share.
#[derive(Debug, Default)]
struct Shared {
    /// Set by the signal thread, read by the scheduler.
    stop: StopRequest,
    /// The scratch directory to remove if the run does not stop in time.
    scratch: OnceLock<PathBuf>,
    /// The run has ended (and is cleaning up on its own).
    ended: AtomicBool,
}

/// The stopping signals, caught for one run (see the module comment).
#[derive(Debug)]
pub struct Interrupts {
    shared: Arc<Shared>,
}

impl Interrupts {
    /// Makes `kernel`'s scheduler watch for the signals, and notes its
    /// scratch directory in case the run cannot stop in time.
    pub fn attach(&self, kernel: &mut Kernel) {
        kernel.config.stop = Some(self.shared.stop.clone());
        if let Some(dir) = kernel.vfs().scratch_path() {
            let _ = self.shared.scratch.set(dir.to_path_buf());
        }
    }

    /// The run is over: a signal from now on finds irix-emu finishing on
    /// its own, and the signal thread leaves it alone.
    pub fn run_ended(&self) {
        self.shared.ended.store(true, Ordering::SeqCst);
    }
}

/// The name of a stopping signal, for messages.
pub fn signal_name(signal: i32) -> String {
    match signal {
        libc::SIGHUP => "SIGHUP".into(),
        libc::SIGINT => "SIGINT".into(),
        libc::SIGTERM => "SIGTERM".into(),
        n => format!("signal {n}"),
    }
}

/// The exit status for a run stopped by host signal `signal`: 128 + signal.
pub fn status(signal: i32) -> u8 {
    exit::SIGNAL_BASE.saturating_add(u8::try_from(signal).unwrap_or(u8::MAX))
}

/// Blocks SIGHUP, SIGINT and SIGTERM (those not ignored) in this thread and
/// starts the thread that takes them. Call it before any other thread is
/// started, so they all inherit the mask.
pub fn catch() -> Interrupts {
    let shared = Arc::new(Shared::default());
    // SAFETY: sigset_t is plain data that sigemptyset initialises;
    // sigaction with a null new action only reads the current one.
    let set = unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for sig in STOPPING {
            let mut old: libc::sigaction = std::mem::zeroed();
            let ignored = libc::sigaction(sig, std::ptr::null(), &mut old) == 0
                && old.sa_sigaction == libc::SIG_IGN;
            if !ignored {
                libc::sigaddset(&mut set, sig);
            }
        }
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
        set
    };
    let waiter = Arc::clone(&shared);
    let started = std::thread::Builder::new()
        .name("irix-emu signals".into())
        .spawn(move || wait_for_signal(&set, &waiter));
    if started.is_err() {
        // Without the thread the signals would stay blocked: give them back.
        // SAFETY: as above; unblocking restores the default behaviour.
        unsafe {
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        }
    }
    Interrupts { shared }
}

/// The signal thread: waits for one of `set`, asks the run to stop, and
/// after [`GRACE`] ends irix-emu itself if the run has not ended.
fn wait_for_signal(set: &libc::sigset_t, shared: &Shared) {
    let signal = loop {
        let mut sig: libc::c_int = 0;
        // SAFETY: `set` is an initialised signal set; `sig` is written.
        if unsafe { libc::sigwait(set, &mut sig) } == 0 {
            break sig;
        }
    };
    shared.stop.request(signal);
    std::thread::sleep(GRACE);
    if shared.ended.load(Ordering::SeqCst) {
        return;
    }
    if let Some(dir) = shared.scratch.get() {
        let _ = std::fs::remove_dir_all(dir);
    }
    say(format_args!(
        "stopped by {} (the run did not stop between time slices)",
        signal_name(signal)
    ));
    std::process::exit(i32::from(status(signal)));
}
