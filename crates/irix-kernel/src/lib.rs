//! The emulated IRIX kernel: processes, memory, system calls, the virtual
//! clock and execution-time profiling.
//!
//! Table of contents:
//! - `kernel`: the process table, scheduler and run loop (`Kernel::run`).
//! - `process`: one process's state (`identity`: its IDs, groups, process
//!   group, session and nice value; `rlimits`: its resource limits);
//!   `image`: building it from an ELF file;
//!   `dynamic`: the interpreter of a dynamic program, mapping ELF objects.
//! - `memory`: address spaces of regions whose pages exist once touched,
//!   and the run's one memory budget with the cost model of memory work;
//!   `vfs`: paths confined to --root and the --bind directories.
//! - `files`, `pipe`: descriptors and open files (host FIFOs and devices
//!   never block the emulator); `locks`: fcntl's record locks; `usema`:
//!   the semaphore device /dev/usemaclone that IRIX libc's semaphores use;
//!   `ipc`: System V message queues, semaphore sets and shared memory;
//!   `net`: AF_UNIX and loopback AF_INET sockets between the run's processes.
//! - `fuzzing`: the system-call layer as a fuzz target (fuzz/, tests).
//! - `syscalls`: the system call table (data) and its handlers by concern.
//! - `clock`: virtual time and the profiling tick; `profiling`: profil,
//!   sprofil, pcsample and the personalities' rules.
//! - `signals`: IRIX signal numbers, fault mapping, dispositions;
//!   `sigframe`: running handlers through libc's trampoline, sigreturn;
//!   `timers`: the interval timers and waiting calls' state.
//! - `tty`: the terminal settings the guest sees (termio(7)).
//!
//! # Measured
//! The profiling clock costs nothing per instruction: ticks are the run
//! loop's event deadline. `cargo bench --bench workload` (root package; the
//! compiled C workload, 12 M instructions, criterion, 2-core machine with
//! nothing else running) ran 73.5 / 71.1 ms without profiling and 72.5 /
//! 71.7 ms with PROF_FAST's 1000 Hz ticks in two runs: -1.3% and +0.9%,
//! within noise (target: under 2%). One tick's cost is in `profiling`.

pub mod abi;
pub mod clock;
pub mod dynamic;
pub mod files;
#[doc(hidden)]
pub mod fuzzing;
pub mod identity;
pub mod image;
pub mod ipc;
pub mod kernel;
pub mod locks;
pub mod memory;
pub mod net;
pub mod pipe;
pub mod process;
pub mod profiling;
pub mod rlimits;
pub mod sigframe;
pub mod signals;
pub mod syscalls;
pub mod timers;
pub mod tty;
pub mod usema;
pub mod vfs;

pub use abi::Errno;
pub use kernel::{
    DebugHook, Kernel, KernelConfig, Outcome, RunEnd, RunStats, Snapshot, SpawnError,
};
