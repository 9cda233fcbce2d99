//! What a run is configured with.

use std::path::PathBuf;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Arc;

use crate::profiling::{Personality, Tunables};

/// Everything a run is configured with.
#[derive(Clone, Debug)]
pub struct KernelConfig {
    /// The host directory that is the guest's `/`.
    pub root: PathBuf,
    /// The guest's initial working directory (an absolute guest path).
    pub cwd: String,
    pub personality: Personality,
    pub tunables: Tunables,
    /// Pipeline clock rate (R4000: 100 MHz in an Indigo or Indy).
    pub cpu_hz: u64,
    /// How the CPU executes instructions (same results, different speed).
    pub engine: cpu_mips::Engine,
    /// Wall-clock seconds since 1970 at virtual time 0.
    pub epoch: u32,
    /// Stop the run after this many cycles of virtual time.
    pub max_cycles: Option<u64>,
    /// Stop the run when the host's clock passes this instant (`--timeout`),
    /// checked between time slices.
    pub host_deadline: Option<std::time::Instant>,
    /// The host asks the run to stop (irix-emu got SIGINT, SIGTERM or
    /// SIGHUP), checked between time slices like `host_deadline`.
    pub stop: Option<StopRequest>,
    /// The memory budget of the whole run, in bytes of host memory: every
    /// process's touched pages and page tables, zombies and kernel buffers.
    pub max_memory: u64,
    /// Print one line per system call to the log (stderr).
    pub strace: bool,
    /// Cycles charged as system time for each system call.
    pub syscall_cycles: u64,
    /// User cycles a process runs before the next one gets the CPU.
    pub quantum_cycles: u64,
    /// Where the compiled tier keeps compiled code from run to run, shared
    /// by every process (see `cpu_mips::TranslationStore`); `None`: nowhere.
    pub translations: Option<std::sync::Arc<cpu_mips::TranslationStore>>,
    /// Where every process's compiled functions are recorded for Linux
    /// `perf` (see `cpu_mips::PerfDump`); `None`: nowhere.
    pub perf_dump: Option<std::sync::Arc<cpu_mips::PerfDump>>,
    /// AF_INET sockets may reach the host's network (`--net`): what no
    /// socket of the run answers goes to a host socket. Such a run is not
    /// repeatable.
    pub net: bool,
}

/// 1996-01-01 00:00:00 UTC: the IRIX 5.3/6.2 era, as the default epoch.
pub const DEFAULT_EPOCH: u32 = 820_454_400;
/// A system call costs 500 cycles (5 us at 100 MHz) of system time: the
/// order of a trap, register save and return on an R4000 under IRIX. Not a
/// measurement of real hardware: a documented model parameter.
pub const DEFAULT_SYSCALL_CYCLES: u64 = 500;
/// The default memory budget: 1 GiB, half of what a 32-bit IRIX process
/// could address and several times an Indy's RAM, so any program of the
/// era fits while a runaway guest stops long before it troubles the host.
pub const DEFAULT_MAX_MEMORY: u64 = 1 << 30;
/// 10 ms at 100 MHz: one clock tick, like a UNIX time slice.
pub const DEFAULT_QUANTUM_CYCLES: u64 = 1_000_000;

impl Default for KernelConfig {
    fn default() -> Self {
        KernelConfig {
            root: PathBuf::from("."),
            cwd: "/".into(),
            personality: Personality::default(),
            tunables: Tunables::default(),
            cpu_hz: 100_000_000,
            engine: cpu_mips::Engine::default(),
            epoch: DEFAULT_EPOCH,
            max_cycles: None,
            host_deadline: None,
            stop: None,
            max_memory: DEFAULT_MAX_MEMORY,
            strace: false,
            syscall_cycles: DEFAULT_SYSCALL_CYCLES,
            quantum_cycles: DEFAULT_QUANTUM_CYCLES,
            translations: None,
            perf_dump: None,
            net: false,
        }
    }
}

/// A request, from outside the run, that it stop: the number of the host
/// signal that asked, shared between the thread that receives the signal
/// and the scheduler, which looks between time slices and ends the run
/// with [`Outcome::Interrupted`](super::Outcome::Interrupted). Unwinding
/// normally lets everything the run holds (the private scratch directory)
/// clean up after itself.
#[derive(Clone, Debug, Default)]
pub struct StopRequest(Arc<AtomicI32>);

impl StopRequest {
    /// No stop asked for yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks the run to stop because of host signal `signal` (1 and up);
    /// the first request is the one kept.
    pub fn request(&self, signal: i32) {
        let _ = self
            .0
            .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
    }

    /// The signal that asked for the stop, if any has.
    pub fn requested(&self) -> Option<i32> {
        match self.0.load(Ordering::SeqCst) {
            0 => None,
            s => Some(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_stop_request_is_kept() {
        let stop = StopRequest::new();
        assert_eq!(stop.requested(), None);
        let other_thread = stop.clone();
        other_thread.request(15);
        other_thread.request(2);
        assert_eq!(stop.requested(), Some(15));
    }
}
