//! The scheduler: round-robin time slices over the run queue until the
//! first process and all others have finished, a cycle limit, or a
//! deadlock.

use cpu_mips::{ExcCode, Observer, StopReason};

use super::{Kernel, Outcome};
use crate::process::{ExitStatus, Process, RunState};
use crate::signals;
use crate::syscalls::{self, Next};

/// What one time slice ended with.
pub(super) enum SliceEnd {
    Preempted,
    Blocked,
    /// Waiting on a host FIFO or device: a clock tick of virtual time
    /// passes before the call is tried again.
    WaitHost,
    /// A stop signal's default action: off the CPU until SIGCONT.
    Stopped,
    Exited(ExitStatus),
    CycleLimit,
}

impl Kernel {
    /// Runs until the first process has exited and every other process
    /// has finished too (or the cycle limit, or a deadlock).
    pub fn run(&mut self) -> Outcome {
        self.run_observed(&mut ())
    }

    /// As `run`, with `obs` seeing every instruction the outside-profiled
    /// process retires while its profile is active (until it execs).
    pub fn run_observed<O: Observer>(&mut self, obs: &mut O) -> Outcome {
        let mut idle_rounds = 0usize;
        while let Some(pid) = self.run_queue.pop_front() {
            if self
                .config
                .host_deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
            {
                self.run_queue.push_front(pid);
                self.outcome = Some(Outcome::TimeLimit);
                break;
            }
            let Some(mut p) = self.procs.remove(&pid) else {
                continue;
            };
            if p.state == RunState::Stopped {
                // Stopped processes take no CPU; SIGCONT (or SIGKILL)
                // makes one runnable again.
                let wake = signals::bit(signals::SIGCONT) | signals::bit(signals::SIGKILL);
                if p.signals.pending & wake == 0 {
                    self.procs.insert(pid, p);
                    self.run_queue.push_back(pid);
                    idle_rounds += 1;
                    if idle_rounds > self.run_queue.len() {
                        self.outcome.get_or_insert(Outcome::Deadlock);
                        break;
                    }
                    continue;
                }
                p.state = RunState::Runnable;
            }
            let was_blocked = p.state == RunState::Blocked;
            self.load_shared_memory(&mut p);
            let end = if Some(pid) == self.outside_pid() {
                self.run_slice(&mut p, obs)
            } else {
                self.run_slice(&mut p, &mut ())
            };
            self.park_shared_memory(&mut p);
            match end {
                SliceEnd::Preempted => {
                    p.state = RunState::Runnable;
                    idle_rounds = 0;
                }
                SliceEnd::Blocked => {
                    p.state = RunState::Blocked;
                    idle_rounds = if was_blocked { idle_rounds + 1 } else { 0 };
                }
                SliceEnd::WaitHost => {
                    p.state = RunState::Blocked;
                    idle_rounds = 0;
                    self.sleep(self.tick_cycles());
                }
                SliceEnd::Stopped => {
                    p.state = RunState::Stopped;
                    idle_rounds = 0;
                }
                SliceEnd::Exited(status) => {
                    idle_rounds = 0;
                    self.exit_process(p, status);
                    continue;
                }
                SliceEnd::CycleLimit => {
                    self.procs.insert(pid, p);
                    self.outcome = Some(Outcome::CycleLimit);
                    break;
                }
            }
            self.procs.insert(pid, p);
            self.run_queue.push_back(pid);
            if idle_rounds > self.run_queue.len() {
                // Every queued process retried its blocking call in a row
                // and none could proceed: nothing can ever wake them.
                self.outcome.get_or_insert(Outcome::Deadlock);
                break;
            }
        }
        self.outcome.clone().unwrap_or(Outcome::Deadlock)
    }

    /// Runs `p` for one quantum, handling its exceptions and ticks.
    fn run_slice<O: Observer>(&mut self, p: &mut Process, obs: &mut O) -> SliceEnd {
        let slice_end = p.user_cycles() + self.config.quantum_cycles;
        // An exec ends the outside profile: the observer must not see the
        // new image, so the slice ends there (the next one is unobserved).
        let observed = self.outside_pid() == Some(p.pid);
        loop {
            if let Some(end) = self.deliver_pending_signal(p) {
                return end;
            }
            let start = p.user_cycles();
            let limit = self
                .config
                .max_cycles
                .map_or(u64::MAX, |max| start + max.saturating_sub(self.now));
            if self.config.max_cycles.is_some_and(|max| self.now >= max) {
                return SliceEnd::CycleLimit;
            }
            let outside_next = self.outside_deadline(p.pid);
            let deadline = slice_end.min(p.next_tick).min(outside_next).min(limit);
            let instret = p.cpu.instructions();
            let stop = p.cpu.run(&mut p.mem, obs, deadline);
            let ran = p.user_cycles() - start;
            self.now += ran;
            self.stats.user_cycles += ran;
            self.stats.instructions += p.cpu.instructions() - instret;
            self.charge_memory_work(p);
            self.deliver_ticks(p);
            match stop {
                StopReason::Deadline => {
                    if self.config.max_cycles.is_some_and(|max| self.now >= max) {
                        return SliceEnd::CycleLimit;
                    }
                    if p.user_cycles() >= slice_end {
                        return SliceEnd::Preempted;
                    }
                }
                StopReason::Exception(e) if e.code == ExcCode::Sys => {
                    match syscalls::dispatch(self, p) {
                        Next::Continue if observed && self.outside_pid() != Some(p.pid) => {
                            return SliceEnd::Preempted;
                        }
                        Next::Continue => {}
                        Next::Block => return SliceEnd::Blocked,
                        Next::WaitHost => return SliceEnd::WaitHost,
                        Next::Exit(status) => return SliceEnd::Exited(status),
                    }
                }
                StopReason::Exception(e) => {
                    if let Some(end) = self.handle_fault(p, &e) {
                        return end;
                    }
                }
            }
        }
    }
}
