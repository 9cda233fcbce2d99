//! Exit statuses of irix-emu itself; otherwise it exits with the guest's
//! own status. The values are those QEMU's user-mode emulators and
//! timeout(1) taught users to expect (README, "Exit statuses").

/// The guest hit --max-cycles (as timeout(1) reports a time-out).
pub const CYCLE_LIMIT: u8 = 124;
/// Any other failure of the emulator: bad option, I/O error, deadlock...
pub const EMULATOR_FAILURE: u8 = 125;
/// PROGRAM exists but is not a runnable IRIX executable.
pub const NOT_RUNNABLE: u8 = 126;
/// PROGRAM does not exist.
pub const NOT_FOUND: u8 = 127;
/// A guest killed by signal N exits with 128 + N.
pub const SIGNAL_BASE: u8 = 128;
