//! Every number the guest sees, in one place: system call numbers, syssgi
//! requests, limits, flag values, signal numbers and errno values.
//!
//! Handlers and the tables import these names; nothing else in the kernel
//! spells a guest-visible number. Struct layouts (stat, sigcontext,
//! siginfo, utsname) stay beside the code that encodes them, with their
//! offsets documented there. The sources for each value are named beside
//! it and collected in `docs/abi.md`.

pub mod errno;
pub mod flags;
pub mod limits;
pub mod names;
pub mod prof;
pub mod sgi;
pub mod signal;
pub mod sys;

pub use errno::Errno;
