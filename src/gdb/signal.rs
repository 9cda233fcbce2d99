//! IRIX signal numbers to GDB's (the remote protocol numbers signals as GDB
//! does, which agrees with IRIX only from 1 to 15).

use gdbstub::common::Signal;
use irix_kernel::signals as irix;

/// GDB's number for IRIX signal `sig` (one GDB has no name for: its
/// "unknown signal", 143).
pub fn to_gdb(sig: u32) -> Signal {
    match sig {
        1..=15 => Signal(sig as u8),
        irix::SIGUSR1 => Signal::SIGUSR1,
        irix::SIGUSR2 => Signal::SIGUSR2,
        irix::SIGCHLD => Signal::SIGCHLD,
        irix::SIGPWR => Signal::SIGPWR,
        irix::SIGWINCH => Signal::SIGWINCH,
        irix::SIGURG => Signal::SIGURG,
        irix::SIGPOLL => Signal::SIGPOLL,
        irix::SIGSTOP => Signal::SIGSTOP,
        irix::SIGTSTP => Signal::SIGTSTP,
        irix::SIGCONT => Signal::SIGCONT,
        irix::SIGTTIN => Signal::SIGTTIN,
        irix::SIGTTOU => Signal::SIGTTOU,
        // IRIX's numbers for the timer and limit signals (sys/signal.h).
        28 => Signal::SIGVTALRM,
        29 => Signal::SIGPROF,
        30 => Signal::SIGXCPU,
        31 => Signal::SIGXFSZ,
        _ => Signal::UNKNOWN,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn irix_numbers_become_gdb_numbers() {
        assert_eq!(to_gdb(irix::SIGSEGV), Signal::SIGSEGV);
        assert_eq!(to_gdb(irix::SIGKILL), Signal::SIGKILL);
        assert_eq!(to_gdb(irix::SIGUSR1), Signal::SIGUSR1);
        assert_eq!(to_gdb(irix::SIGCHLD), Signal::SIGCHLD);
        assert_eq!(to_gdb(irix::SIGSTOP), Signal::SIGSTOP);
    }
}
