//! A process's end: it becomes a zombie for its parent to collect, its
//! children go to init, and its parent gets SIGCHLD.

use super::{Kernel, Outcome, INIT_PID};
use crate::files::FdTable;
use crate::process::{ExitStatus, Process, RunState};
use crate::signals;

impl Kernel {
    /// A process has ended: it becomes a zombie for its parent, its
    /// children go to init, and the parent gets SIGCHLD.
    pub(super) fn exit_process(&mut self, p: &mut Process, status: ExitStatus) {
        p.state = RunState::Zombie(status);
        p.fds = FdTable::default(); // closes pipe ends so readers see EOF
        if Some(p.pid) == self.first && self.outcome.is_none() {
            self.outcome = Some(match status {
                ExitStatus::Exited(code) => Outcome::Exited(code),
                ExitStatus::Killed { signal, .. } => Outcome::Killed {
                    signal,
                    fault: None,
                },
            });
        }
        if let Some(g) = p.share_group {
            let members_left = self
                .procs
                .values()
                .any(|c| c.share_group == Some(g) && !matches!(c.state, RunState::Zombie(_)));
            if !members_left {
                self.share_groups.remove(&g);
            }
        }
        for child in self.procs.values_mut().filter(|c| c.ppid == p.pid) {
            child.ppid = INIT_PID;
        }
        // Zombies of an exiting process are reaped by init at once.
        self.procs
            .retain(|_, c| !(c.ppid == INIT_PID && matches!(c.state, RunState::Zombie(_))));
        if let Some(parent) = self.procs.get_mut(&p.ppid) {
            parent.signals.pending |= signals::bit(signals::SIGCHLD);
        }
    }
}
