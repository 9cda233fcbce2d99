//! `monitor` commands (GDB's `qRcmd`):
//!
//! - `monitor pid`: the IRIX pid of the focused process (the one of the
//!   last stop);
//! - `monitor cycles`: its cycle count and instructions retired (the
//!   virtual clock, which reverse execution restores exactly).
//!
//! Forks are followed by GDB itself (`set follow-fork-mode`, `set
//! detach-on-fork`), from the stub's fork events.

use cpu_mips::Observer;

use super::session::Session;

impl<O: Observer> Session<'_, O> {
    /// The output of `monitor cmd`, one line.
    pub fn monitor(&mut self, cmd: &str) -> String {
        let words: Vec<&str> = cmd.split_whitespace().collect();
        match words.as_slice() {
            ["pid"] => format!("{}\n", self.state.pid),
            ["cycles"] => match self.kernel.debug_process(self.state.pid) {
                Some(p) => format!(
                    "cycles {} instructions {}\n",
                    p.cpu.cycles(),
                    p.cpu.instructions()
                ),
                None => "no process\n".into(),
            },
            _ => "irix-emu monitor commands: pid, cycles\n".into(),
        }
    }
}
