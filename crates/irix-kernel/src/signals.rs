//! IRIX signals (SVR4 numbering) and how guest faults become them.
//!
//! Faults are synchronous signals. Without a handler the default action
//! applies: terminate (with a core for the fault signals), ignore, or stop.

use cpu_mips::{ExcCode, Exception};

pub use crate::abi::signal::*;

/// The signal name, for messages ("killed by SIGSEGV").
pub fn name(sig: u32) -> String {
    const NAMES: [&str; 32] = [
        "",
        "SIGHUP",
        "SIGINT",
        "SIGQUIT",
        "SIGILL",
        "SIGTRAP",
        "SIGABRT",
        "SIGEMT",
        "SIGFPE",
        "SIGKILL",
        "SIGBUS",
        "SIGSEGV",
        "SIGSYS",
        "SIGPIPE",
        "SIGALRM",
        "SIGTERM",
        "SIGUSR1",
        "SIGUSR2",
        "SIGCHLD",
        "SIGPWR",
        "SIGWINCH",
        "SIGURG",
        "SIGPOLL",
        "SIGSTOP",
        "SIGTSTP",
        "SIGCONT",
        "SIGTTIN",
        "SIGTTOU",
        "SIGVTALRM",
        "SIGPROF",
        "SIGXCPU",
        "SIGXFSZ",
    ];
    NAMES
        .get(sig as usize)
        .filter(|n| !n.is_empty())
        .map_or_else(|| format!("signal {sig}"), |n| n.to_string())
}

/// What a signal does when nobody catches it (SVR4 signal(5)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefaultAction {
    Terminate,
    /// Terminate with a core image (the status word's 0x80 bit).
    Core,
    Ignore,
    Stop,
    Continue,
}

pub fn default_action(sig: u32) -> DefaultAction {
    match sig {
        SIGQUIT | SIGILL | SIGTRAP | SIGABRT | SIGEMT | SIGFPE | SIGBUS | SIGSEGV | SIGSYS
        | SIGXCPU | SIGXFSZ => DefaultAction::Core,
        SIGCHLD | SIGPWR | SIGWINCH | SIGURG => DefaultAction::Ignore,
        SIGSTOP | SIGTSTP | SIGTTIN | SIGTTOU => DefaultAction::Stop,
        SIGCONT => DefaultAction::Continue,
        _ => DefaultAction::Terminate,
    }
}

/// A synchronous signal raised by a fault, with what to say about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FaultSignal {
    pub signal: u32,
    /// The faulting instruction (EPC).
    pub pc: u32,
    /// The bad address, for memory faults.
    pub addr: Option<u32>,
}

/// Maps a CPU exception (other than SYSCALL) to the signal IRIX sends. A
/// BREAK's code is the one the CPU decoded (never re-read from memory: EPC
/// names the branch when the BREAK sits in a delay slot).
pub fn fault_signal(e: &Exception) -> FaultSignal {
    let signal = match e.code {
        ExcCode::Mod | ExcCode::TlbL | ExcCode::TlbS => SIGSEGV,
        ExcCode::AdEL | ExcCode::AdES => SIGBUS,
        ExcCode::RI | ExcCode::CpU => SIGILL,
        ExcCode::Ov | ExcCode::Tr | ExcCode::FPE => SIGFPE,
        ExcCode::Bp => match e.break_code() {
            Some(BRK_OVERFLOW | BRK_DIVZERO) => SIGFPE,
            _ => SIGTRAP,
        },
        ExcCode::Sys => SIGSYS,
    };
    FaultSignal {
        signal,
        pc: e.epc,
        addr: e.bad_vaddr,
    }
}

/// A process's signal dispositions and pending set.
#[derive(Clone, Debug)]
pub struct SignalState {
    /// Per signal: the handler address (0 = SIG_DFL, 1 = SIG_IGN).
    pub handlers: [u32; NSIG as usize],
    /// Per signal: the sa_mask to block while its handler runs.
    pub handler_masks: [u64; NSIG as usize],
    /// Per signal: sa_flags.
    pub handler_flags: [u32; NSIG as usize],
    /// The libc trampoline passed to sigaction (its fourth argument).
    pub trampoline: u32,
    /// Blocked signals (bit n-1 for signal n).
    pub blocked: u64,
    /// Pending asynchronous signals (bit n-1 for signal n).
    pub pending: u64,
}

impl Default for SignalState {
    fn default() -> Self {
        SignalState {
            handlers: [SIG_DFL; NSIG as usize],
            handler_masks: [0; NSIG as usize],
            handler_flags: [0; NSIG as usize],
            trampoline: 0,
            blocked: 0,
            pending: 0,
        }
    }
}

pub fn bit(sig: u32) -> u64 {
    1u64 << (sig - 1)
}

impl SignalState {
    /// exec: caught signals revert to the default; ignored stay ignored.
    pub fn exec(&mut self) {
        for h in self.handlers.iter_mut() {
            if *h != SIG_IGN {
                *h = SIG_DFL;
            }
        }
        self.trampoline = 0;
    }

    /// The lowest pending signal that is not blocked (SIGKILL and SIGSTOP
    /// cannot be blocked).
    pub fn next_deliverable(&self) -> Option<u32> {
        let unblockable = bit(SIGKILL) | bit(SIGSTOP);
        let ready = self.pending & (!self.blocked | unblockable);
        (ready != 0).then(|| ready.trailing_zeros() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exc(code: ExcCode) -> Exception {
        Exception {
            code,
            epc: 0x400100,
            in_delay_slot: false,
            bad_vaddr: Some(0),
            ce: 0,
            code_field: None,
        }
    }

    #[test]
    fn faults_map_to_the_signals_irix_sends() {
        let table = [
            (ExcCode::TlbL, SIGSEGV),
            (ExcCode::TlbS, SIGSEGV),
            (ExcCode::Mod, SIGSEGV),
            (ExcCode::AdEL, SIGBUS),
            (ExcCode::AdES, SIGBUS),
            (ExcCode::RI, SIGILL),
            (ExcCode::Ov, SIGFPE),
            (ExcCode::Tr, SIGFPE),
            (ExcCode::FPE, SIGFPE),
            (ExcCode::Bp, SIGTRAP),
        ];
        for (code, sig) in table {
            assert_eq!(fault_signal(&exc(code)).signal, sig, "{code:?}");
        }
    }

    /// `break 7` / `break 6` (code field 7 << 10) as the CPU decoded them,
    /// in or out of a delay slot: EPC is never consulted.
    #[test]
    fn divide_by_zero_and_overflow_breaks_are_sigfpe_even_in_a_delay_slot() {
        for (code, in_delay_slot, sig) in [
            (BRK_DIVZERO, false, SIGFPE),
            (BRK_DIVZERO, true, SIGFPE),
            (BRK_OVERFLOW, true, SIGFPE),
            (5, true, SIGTRAP),
        ] {
            let e = Exception {
                code_field: Some(code << 10),
                in_delay_slot,
                ..exc(ExcCode::Bp)
            };
            assert_eq!(fault_signal(&e).signal, sig, "break {code}");
        }
    }

    #[test]
    fn sigkill_is_delivered_even_when_blocked() {
        let s = SignalState {
            blocked: !0,
            pending: bit(SIGKILL) | bit(SIGUSR1),
            ..Default::default()
        };
        assert_eq!(s.next_deliverable(), Some(SIGKILL));
    }
}
