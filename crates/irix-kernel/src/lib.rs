//! The emulated IRIX kernel: processes, memory, system calls, the virtual
//! clock and execution-time profiling.
//!
//! Table of contents:
//! - `kernel`: the process table, scheduler and run loop (`Kernel::run`).
//! - `process`: one process's state; `image`: building it from an ELF file.
//! - `memory`: sparse paged address spaces; `vfs`: paths confined to --root.
//! - `files`, `pipe`: descriptors and open files.
//! - `syscalls`: the system call table (data) and its handlers by concern.
//! - `clock`: virtual time and the profiling tick; `profiling`: profil,
//!   sprofil, pcsample and the personalities' rules.
//! - `signals`: IRIX signal numbers, fault mapping, dispositions;
//!   `sigframe`: running handlers through libc's trampoline, sigreturn.

pub mod clock;
pub mod errno;
pub mod files;
pub mod image;
pub mod kernel;
pub mod memory;
pub mod pipe;
pub mod process;
pub mod profiling;
pub mod sigframe;
pub mod signals;
pub mod syscalls;
pub mod vfs;

pub use errno::Errno;
pub use kernel::{Kernel, KernelConfig, Outcome, RunStats};
