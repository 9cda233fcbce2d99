//! SIGINT, SIGTERM and SIGHUP sent to irix-emu while a program runs: the
//! run stops between time slices and unwinds normally, so the private
//! scratch directory (the guest's /tmp, /usr/tmp, /var/tmp) is removed by
//! its owner's `Drop`, and irix-emu exits with 128 + the signal's number
//! (README, "Exit statuses").
//!
//! The design keeps Rust out of signal-handler context altogether: [`catch`]
//! blocks the three signals in the calling thread before any other thread
//! starts (threads inherit the mask), and one thread of its own takes them
//! with sigwait(2), for as long as irix-emu lives, and sets the run's
//! [`StopRequest`]; the scheduler looks at it between time slices. No
//! handler, no global, no self-pipe.
//!
//! irix-emu ends at once, by the signal thread, with 128 + N when
//!
//! - the run has not stopped within [`GRACE`] of the first signal
//!   (irix-emu waiting for GDB to connect, or for GDB's next packet);
//! - a second signal comes before the run has stopped;
//! - a signal comes after the run has ended, while irix-emu writes its
//!   output (`prof`'s reports).
//!
//! Ending at once, it removes the scratch directory, the temporary files of
//! the outputs being written ([`TempFiles`]) and that of the translation
//! cache's pack being written (`TranslationStore::abandon`), so no output is
//! left half-written. Who cleans up is settled by one atomic state that only
//! changes by compare-and-swap: the signal thread takes over only while the
//! main thread has not begun its own final clean-up, and the main thread,
//! finding that the signal thread has taken over, waits for it to end the
//! process.
//!
//! A signal ignored when irix-emu starts (`nohup` ignores SIGHUP) stays
//! ignored.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{mpsc, Arc, OnceLock};
use std::time::{Duration, Instant};

use irix_kernel::kernel::{Kernel, StopRequest};
use profile_formats::files::TempFiles;

use crate::exit;

/// The host signals that stop a run.
const STOPPING: [libc::c_int; 3] = [libc::SIGHUP, libc::SIGINT, libc::SIGTERM];

/// How long the run has, after the signal, to stop between time slices and
/// clean up on its own before the signal thread does it.
pub const GRACE: Duration = Duration::from_secs(2);

/// How long the signal thread, ending irix-emu, waits for stderr to take
/// its message (the main thread may be blocked writing to a stderr nobody
/// reads).
const MESSAGE_WAIT: Duration = Duration::from_millis(200);

/// The run goes on (or has not started).
const RUNNING: u8 = 0;
/// The run is over; the main thread writes the output.
const ENDED: u8 = 1;
/// The main thread cleans up and returns: the signal thread leaves it be.
const FINISHING: u8 = 2;
/// The signal thread cleans up and ends irix-emu: the main thread waits.
const ENDING: u8 = 3;

/// What the signal thread and the run share.
#[derive(Debug, Default)]
struct Shared {
    /// Set by the signal thread, read by the scheduler.
    stop: StopRequest,
    /// The scratch directory to remove when ending at once.
    scratch: OnceLock<PathBuf>,
    /// The temporary files of the outputs being written.
    temps: TempFiles,
    /// The run's translation cache, whose pack being written is removed
    /// (held until irix-emu exits: `run` and `prof` flush it themselves,
    /// not by dropping it).
    translations: OnceLock<Arc<cpu_mips::TranslationStore>>,
    /// RUNNING, ENDED, FINISHING or ENDING.
    state: AtomicU8,
}

impl Shared {
    /// The main thread moves on to `to` (from any state but ENDING). If
    /// the signal thread has taken over, this thread waits for it to end
    /// the process.
    fn main_moves_to(&self, to: u8) {
        let mut now = self.state.load(Ordering::SeqCst);
        while now != ENDING {
            match self
                .state
                .compare_exchange(now, to, Ordering::SeqCst, Ordering::SeqCst)
            {
                Ok(_) => return,
                Err(seen) => now = seen,
            }
        }
        loop {
            std::thread::park();
        }
    }

    /// The signal thread takes over, unless the main thread is already
    /// finishing (or it has taken over before).
    fn take_over(&self) -> bool {
        let mut now = self.state.load(Ordering::SeqCst);
        while now == RUNNING || now == ENDED {
            match self
                .state
                .compare_exchange(now, ENDING, Ordering::SeqCst, Ordering::SeqCst)
            {
                Ok(_) => return true,
                Err(seen) => now = seen,
            }
        }
        false
    }
}

/// The stopping signals, caught for one run (see the module comment).
#[derive(Debug)]
pub struct Interrupts {
    shared: Arc<Shared>,
}

/// Held by the main thread from the end of the run while it writes its
/// output; dropped (before the kernel: declare it after) when only
/// cleaning up is left, after which signals leave irix-emu to finish.
#[derive(Debug)]
#[must_use = "the guard marks the output being written"]
pub struct Finishing<'a> {
    shared: &'a Shared,
}

impl Drop for Finishing<'_> {
    fn drop(&mut self) {
        self.shared.main_moves_to(FINISHING);
    }
}

impl Interrupts {
    /// Makes `kernel`'s scheduler watch for the signals, and notes its
    /// scratch directory in case irix-emu must end at once.
    pub fn attach(&self, kernel: &mut Kernel) {
        kernel.config.stop = Some(self.shared.stop.clone());
        if let Some(dir) = kernel.vfs().scratch_path() {
            let _ = self.shared.scratch.set(dir.to_path_buf());
        }
        if let Some(store) = &kernel.config.translations {
            let _ = self.shared.translations.set(Arc::clone(store));
        }
    }

    /// The temporary files of the outputs, removed if irix-emu must end
    /// at once: write every output through them.
    pub fn temp_files(&self) -> &TempFiles {
        &self.shared.temps
    }

    /// The run is over: from now on a signal ends irix-emu at once, until
    /// the returned guard is dropped.
    pub fn run_ended(&self) -> Finishing<'_> {
        self.shared.main_moves_to(ENDED);
        Finishing {
            shared: &self.shared,
        }
    }
}

impl Drop for Interrupts {
    fn drop(&mut self) {
        // Returning without a run (launch failed): the same hand-over.
        self.shared.main_moves_to(FINISHING);
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
        .spawn(move || take_signals(&set, &waiter));
    if started.is_err() {
        // Without the thread the signals would stay blocked: give them back.
        // SAFETY: as above; unblocking restores the default behaviour.
        unsafe {
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        }
    }
    Interrupts { shared }
}

/// The signal thread: the first signal asks the run to stop; the run's
/// not stopping within [`GRACE`], a second signal, or a signal after the
/// run has ended ends irix-emu at once.
fn take_signals(set: &libc::sigset_t, shared: &Shared) {
    // The first signal and the end of its grace, while the run may stop.
    let mut grace: Option<(i32, Instant)> = None;
    loop {
        match next_signal(set, grace.map(|(_, until)| until)) {
            Some(signal) => {
                let running = shared.state.load(Ordering::SeqCst) == RUNNING;
                if running && grace.is_none() {
                    shared.stop.request(signal);
                    grace = Some((signal, Instant::now() + GRACE));
                } else if running {
                    end_now(shared, signal, "a second signal before the run stopped");
                } else {
                    end_now(shared, signal, "after the run ended");
                }
            }
            None => {
                let Some((signal, _)) = grace.take() else {
                    continue;
                };
                if shared.state.load(Ordering::SeqCst) == RUNNING {
                    end_now(shared, signal, "the run did not stop between time slices");
                }
            }
        }
    }
}

/// The next of `set`'s signals, or None once `until` has passed.
fn next_signal(set: &libc::sigset_t, until: Option<Instant>) -> Option<i32> {
    loop {
        let Some(until) = until else {
            let mut sig: libc::c_int = 0;
            // SAFETY: `set` is an initialised signal set; `sig` is written.
            if unsafe { libc::sigwait(set, &mut sig) } == 0 {
                return Some(sig);
            }
            continue;
        };
        let left = until.saturating_duration_since(Instant::now());
        let timeout = libc::timespec {
            tv_sec: libc::time_t::try_from(left.as_secs()).unwrap_or(libc::time_t::MAX),
            tv_nsec: libc::c_long::from(left.subsec_nanos()),
        };
        // SAFETY: `set` and `timeout` are initialised; a null siginfo is
        // allowed.
        let sig = unsafe { libc::sigtimedwait(set, std::ptr::null_mut(), &timeout) };
        if sig > 0 {
            return Some(sig);
        }
        if std::io::Error::last_os_error().raw_os_error() == Some(libc::EAGAIN) {
            return None;
        }
        // EINTR: wait for what is left.
    }
}

/// Ends irix-emu now with 128 + `signal`, removing the scratch directory
/// and the outputs' temporary files first, unless the main thread is
/// already finishing on its own.
fn end_now(shared: &Shared, signal: i32, why: &str) {
    if !shared.take_over() {
        return;
    }
    shared.temps.remove_all();
    if let Some(store) = shared.translations.get() {
        store.abandon();
    }
    if let Some(dir) = shared.scratch.get() {
        let _ = std::fs::remove_dir_all(dir);
    }
    tell(format!(
        "irix-emu: stopped by {} ({why})\n",
        signal_name(signal)
    ));
    std::process::exit(i32::from(status(signal)));
}

/// Writes `text` to stderr without its lock (the main thread may hold it,
/// writing a report) and waits at most [`MESSAGE_WAIT`] for it to be taken
/// (nobody may be reading).
fn tell(text: String) {
    let (done, written) = mpsc::channel();
    let writer = std::thread::Builder::new()
        .name("irix-emu message".into())
        .spawn(move || {
            let mut rest = text.as_bytes();
            while !rest.is_empty() {
                // SAFETY: writes from a live buffer of `rest.len()` bytes.
                let n = unsafe { libc::write(2, rest.as_ptr().cast(), rest.len()) };
                match usize::try_from(n) {
                    Ok(n) if n > 0 => rest = &rest[n..],
                    _ if std::io::Error::last_os_error().kind()
                        == std::io::ErrorKind::Interrupted => {}
                    _ => break,
                }
            }
            let _ = done.send(());
        });
    if writer.is_ok() {
        let _ = written.recv_timeout(MESSAGE_WAIT);
    }
}
