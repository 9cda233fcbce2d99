//! The integration tests of the command line: one test binary (one link, not
//! one per file), one module per former test file. `cargo test --test all
//! NAME::` runs one module; a new test file is a module listed here.
//!
//! Shared: `common` (running irix-emu, the guest programs, exit statuses,
//! GDB sessions) and `report_fixtures` (histograms and symbols for the
//! report tests).

mod common;
mod report_fixtures;

mod callgraph;
mod docs_links;
mod dso_profile;
mod dynamic;
mod engines;
mod firefox_timeline;
mod first_contact;
mod fuzz_smoke;
mod gdb;
mod gdb_fork;
mod gmon_format;
mod guest_binaries;
mod guest_profiling;
mod host_signals;
mod irix_prof;
mod irix_root;
mod irix_root_ipc;
mod jit_cache;
mod kernel_files;
mod kernel_io;
mod kernel_ipc;
mod kernel_memory;
mod kernel_proc;
mod kernel_signals;
mod kernel_sockets;
mod limits;
mod malformed_elf;
mod mon_out;
mod net_host;
mod perf_jitdump;
mod processes;
mod prof_command;
mod qemu_guest_diff;
mod report_diff;
mod report_elf;
mod report_flat;
mod report_formats;
mod run_errors;
mod run_from_root;
mod run_programs;
mod sandbox;
mod sgi_tools;
mod shared_memory;
mod syscall_profile;
mod syscalls;
