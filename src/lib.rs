//! irix-emu's command line as a library: the glue between the crates that
//! do the work. `cli` parses the command line and runs `run`, `prof` and
//! `report`; [`profile`] turns the kernel's measurements into
//! [`profile_formats`] types and [`program`] turns the loader's symbols
//! into report symbols.
//!
//! The modules depend one way: `cli` uses `profile`, `program` and
//! `exit`; those use only the crates below them (profile-formats, the
//! kernel, the loader), and the GDB stub is its own crate, driven by `cli`.

pub mod cli;
pub mod exit;
#[doc(hidden)]
pub mod fuzzing;
pub mod profile;
pub mod program;
