//! IRIX signal numbers in GDB's numbering (the remote protocol numbers
//! signals as GDB's include/gdb/signals.def does, which agrees with IRIX
//! only from 1 to 15).

use irix_kernel::signals as irix;

/// GDB's numbers for the signals the stub reports by name.
pub const SIGINT: u8 = 2;
pub const SIGTRAP: u8 = 5;
pub const SIGKILL: u8 = 9;
/// GDB's "unknown signal".
pub const UNKNOWN: u8 = 143;

/// GDB's number for IRIX signal `sig` (one GDB has no name for: its
/// "unknown signal").
pub fn to_gdb(sig: u32) -> u8 {
    match sig {
        1..=15 => sig as u8,
        irix::SIGUSR1 => 30,
        irix::SIGUSR2 => 31,
        irix::SIGCHLD => 20,
        irix::SIGPWR => 32,
        irix::SIGWINCH => 28,
        irix::SIGURG => 16,
        irix::SIGPOLL => 33,
        irix::SIGSTOP => 17,
        irix::SIGTSTP => 18,
        irix::SIGCONT => 19,
        irix::SIGTTIN => 21,
        irix::SIGTTOU => 22,
        // IRIX's numbers for the timer and limit signals (sys/signal.h).
        28 => 26, // SIGVTALRM
        29 => 27, // SIGPROF
        30 => 24, // SIGXCPU
        31 => 25, // SIGXFSZ
        _ => UNKNOWN,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn irix_numbers_become_gdb_numbers() {
        assert_eq!(to_gdb(irix::SIGSEGV), 11);
        assert_eq!(to_gdb(irix::SIGKILL), SIGKILL);
        assert_eq!(to_gdb(irix::SIGUSR1), 30);
        assert_eq!(to_gdb(irix::SIGCHLD), 20);
        assert_eq!(to_gdb(irix::SIGSTOP), 17);
        assert_eq!(to_gdb(99), UNKNOWN);
    }
}
