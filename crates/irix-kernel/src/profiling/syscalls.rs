//! Where system time goes (`irix-emu prof --syscalls`): per process, each
//! system call's count, errors and the virtual system time the kernel
//! charged it, as strace -c tallies them on Linux. A call that blocks is
//! counted once, when it completes. Memory work charged between calls (the
//! page faults of user loads and stores) has a row of its own,
//! [`FAULTS`], so that a process's rows sum to its system time, the
//! `tms_stime` of times(2).

use std::collections::BTreeMap;

use crate::process::Pid;

/// The row of memory work charged outside any call.
pub const FAULTS: &str = "(page faults)";

/// One call's tally in one process.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CallTally {
    pub calls: u64,
    pub errors: u64,
    /// Virtual system time charged to the call, in CPU cycles.
    pub sys_cycles: u64,
}

/// One process's tallies, by call name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProcessTally {
    /// The command name (as ps shows it) at the process's last call: an
    /// exec renames it.
    pub name: String,
    pub calls: BTreeMap<String, CallTally>,
}

impl ProcessTally {
    /// The process's system time in all, in cycles.
    pub fn sys_cycles(&self) -> u64 {
        self.calls.values().map(|t| t.sys_cycles).sum()
    }
}

/// Every process's tallies, by pid.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SyscallTally {
    pub processes: BTreeMap<Pid, ProcessTally>,
}

impl SyscallTally {
    /// Counts one finished call (or, with `call` = [`FAULTS`], memory work).
    pub fn record(&mut self, pid: Pid, name: &str, call: &str, failed: bool, cycles: u64) {
        let process = self.processes.entry(pid).or_default();
        if process.name != name {
            process.name = name.to_string();
        }
        let tally = process.calls.entry(call.to_string()).or_default();
        if call != FAULTS {
            tally.calls += 1;
            tally.errors += u64::from(failed);
        }
        tally.sys_cycles += cycles;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_rows_sum_to_its_system_time() {
        let mut t = SyscallTally::default();
        t.record(100, "prog", "write", false, 30);
        t.record(100, "prog", "write", false, 30);
        t.record(100, "prog", "open", true, 20);
        t.record(100, "prog", FAULTS, false, 7);
        let p = &t.processes[&100];
        assert_eq!(
            p.calls["write"],
            CallTally {
                calls: 2,
                errors: 0,
                sys_cycles: 60
            }
        );
        assert_eq!(
            p.calls["open"],
            CallTally {
                calls: 1,
                errors: 1,
                sys_cycles: 20
            }
        );
        assert_eq!(
            p.calls[FAULTS],
            CallTally {
                calls: 0,
                errors: 0,
                sys_cycles: 7
            }
        );
        assert_eq!(p.sys_cycles(), 87);
    }
}
