//! `monitor` commands. GDB's own fork following needs a fork event naming
//! the child's pid and a per-process detach (`D;pid`); the protocol
//! library (gdbstub 0.7) has neither (its fork event names the one debugged
//! pid, its `D` ends the session whatever the pid; see the README), so the
//! stub follows forks itself:
//!
//! - `monitor follow-fork child`: at the traced process's next fork the
//!   stub switches to the child (the parent runs on undebugged);
//! - `monitor follow-fork parent`: stay with the parent (the default; the
//!   child runs undebugged, as under GDB's `detach-on-fork`);
//! - `monitor pid`: the IRIX pid of the process being debugged;
//! - `monitor cycles`: its cycle count and instructions retired (the
//!   virtual clock, which reverse execution restores exactly).

use cpu_mips::Observer;
use gdbstub::target::ext::monitor_cmd::{outputln, ConsoleOutput, MonitorCmd};

use super::target::{Debuggee, Fatal};

impl<O: Observer> MonitorCmd for Debuggee<'_, O> {
    fn handle_monitor_cmd(&mut self, cmd: &[u8], mut out: ConsoleOutput<'_>) -> Result<(), Fatal> {
        let cmd = String::from_utf8_lossy(cmd);
        let words: Vec<&str> = cmd.split_whitespace().collect();
        match words.as_slice() {
            ["follow-fork", "child"] => {
                self.state.follow_child = true;
                outputln!(out, "following the child at the next fork");
            }
            ["follow-fork", "parent"] => {
                self.state.follow_child = false;
                outputln!(out, "staying with the parent at forks");
            }
            ["pid"] => outputln!(out, "{}", self.state.pid),
            ["cycles"] => match self.kernel.debug_process(self.state.pid) {
                Some(p) => outputln!(
                    out,
                    "cycles {} instructions {}",
                    p.cpu.cycles(),
                    p.cpu.instructions()
                ),
                None => outputln!(out, "no process"),
            },
            _ => outputln!(
                out,
                "irix-emu monitor commands: follow-fork child|parent, pid, cycles"
            ),
        }
        Ok(())
    }
}
