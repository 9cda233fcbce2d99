//! Profile files and the reports drawn from them, with no emulator inside:
//! histograms, arcs and symbols in, bytes out.
//!
//! - [`gmon`]: gmon.out, the file GNU gprof reads (histograms and call arcs).
//! - [`monout`]: IRIX mon.out, the file a `cc -p` program writes at exit.
//! - [`callgraph`]: the call-graph sidecar beside gmon.out (real stacks,
//!   inclusive and exact costs).
//! - [`report`]: the reports (text, folded, JSON, callgrind, pprof,
//!   speedscope, SVG, Firefox Profiler), each from [`report::Symbol`]s and
//!   histograms, and the difference of two profiles ([`report::diff`]).
//! - [`syscalls`]: each process's system calls, errors and system time
//!   (`prof --syscalls`), and their sidecar beside gmon.out.
//! - [`files`]: reading an input file with a bound, writing an output
//!   atomically.
//!
//! Deliberately absent: anything that runs a guest or knows the kernel.
//! The command line converts the kernel's measurements and the loader's
//! symbols into these types.

pub mod callgraph;
pub mod files;
pub mod gmon;
pub mod monout;
pub mod report;
pub mod syscalls;
