//! The command line: `irix-emu run`, `prof` and `report`, with the exit
//! statuses QEMU's user-mode emulators and timeout(1) taught users to expect.
//!
//! - `args`: the clap definitions.
//! - `launch`: loading a program and starting the kernel (shared by run and prof).
//! - `run`, `prof`, `report`: the three commands.

pub mod args;
pub mod launch;
pub mod prof;
pub mod report;
pub mod run;

/// Exit statuses of irix-emu itself (the guest's own status otherwise).
pub mod status {
    /// The guest hit --max-cycles or --timeout (as timeout(1) reports a time-out).
    pub const CYCLE_LIMIT: u8 = 124;
    /// Any other failure of the emulator: bad option, I/O error, deadlock...
    pub const EMULATOR_FAILURE: u8 = 125;
    /// PROGRAM exists but is not a runnable IRIX executable.
    pub const NOT_RUNNABLE: u8 = 126;
    /// PROGRAM does not exist.
    pub const NOT_FOUND: u8 = 127;
    /// A guest killed by signal N exits with 128 + N.
    pub const SIGNAL_BASE: u8 = 128;
}

/// Writes one "irix-emu: ..." line to stderr. Never panics: when stderr is
/// gone (a closed pipe) the message is dropped, as `eprintln!` would not.
pub fn say(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "irix-emu: {line}");
}

/// A failure that ends irix-emu with one line on stderr and a status.
#[derive(Debug)]
pub struct Failure {
    pub status: u8,
    pub message: String,
}

impl Failure {
    pub fn new(status: u8, message: impl Into<String>) -> Self {
        Failure {
            status,
            message: message.into(),
        }
    }
}
