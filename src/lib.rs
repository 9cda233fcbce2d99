//! irix-emu's command-line front end as a library: the `run`, `prof` and
//! `report` commands, the gmon.out and IRIX mon.out formats and the profile reports.

pub mod callgraph;
pub mod cli;
pub mod exit;
#[doc(hidden)]
pub mod fuzzing;
pub mod gdb;
pub mod gmon;
pub mod input;
pub mod monout;
pub mod profile;
pub mod report;
pub mod syscalls;
