//! The emulated IRIX kernel: processes, memory, system calls, the virtual
//! clock and execution-time profiling.

pub mod errno;
pub mod profiling;

pub use errno::Errno;
