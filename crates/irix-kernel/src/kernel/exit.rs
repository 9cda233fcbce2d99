//! A process's end: what is left is a zombie (its status and times) for
//! its parent to collect, its children go to init, and its parent gets
//! SIGCHLD.

use super::{Kernel, Outcome, INIT_PID};
use crate::process::{ExitStatus, Process, Zombie};
use crate::signals;

impl Kernel {
    /// A process has ended: everything it held is freed (memory,
    /// descriptors, so readers of its pipes see end of file), a zombie
    /// remains if its parent is alive to collect it, its children go to
    /// init, and the parent gets SIGCHLD.
    pub(super) fn exit_process(&mut self, p: Process, status: ExitStatus) {
        if Some(p.pid) == self.first && self.outcome.is_none() {
            self.outcome = Some(match status {
                ExitStatus::Exited(code) => Outcome::Exited(code),
                ExitStatus::Killed { signal, .. } => Outcome::Killed {
                    signal,
                    fault: None,
                },
            });
        }
        self.timeline_exit(p.pid, status);
        self.end_outside_profile(p.pid);
        self.locks.exited(p.pid);
        self.ipc.exited(p.pid);
        self.usemas.exited(p.pid);
        if let Some(g) = p.share_group {
            if !self.procs.values().any(|c| c.share_group == Some(g)) {
                self.share_groups.remove(&g);
            }
        }
        for child in self.procs.values_mut().filter(|c| c.ppid == p.pid) {
            child.ppid = INIT_PID;
        }
        // Zombies of an exiting process are reaped by init at once.
        let orphans: Vec<_> = self
            .zombies
            .iter()
            .filter(|(_, z)| z.ppid == p.pid)
            .map(|(&pid, _)| pid)
            .collect();
        for pid in orphans {
            self.reap(pid);
        }
        if let Some(parent) = self.procs.get_mut(&p.ppid) {
            parent.signals.pending |= signals::bit(signals::SIGCHLD);
            self.zombies.insert(p.pid, Zombie::of(&p, status));
            self.budget.force(super::ZOMBIE_COST);
        }
        self.budget.release(super::PROCESS_COST);
    }
}
