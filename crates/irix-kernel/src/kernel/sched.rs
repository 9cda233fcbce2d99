//! The scheduler: round-robin time slices over the run queue until the
//! first process and all others have finished, a cycle limit, or a
//! deadlock.

use cpu_mips::{ExcCode, Observer, StopReason};

use super::debug::{DebugHook, Paused, RunEnd};
use super::{Kernel, Outcome, StopRequest};
use crate::process::{ExitStatus, Process, RunState, WaitEvent};
use crate::profiling::Tracker;
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
    /// A debugger stopped the process (the slice resumes later).
    DebugStop,
}

impl Kernel {
    /// Runs until the first process has exited and every other process
    /// has finished too (or the cycle limit, or a deadlock).
    pub fn run(&mut self) -> Outcome {
        self.run_observed(&mut ())
    }

    /// As `run`, with `obs` seeing every instruction the outside-profiled
    /// processes retire while their profile is active (each until it
    /// execs).
    pub fn run_observed<O: Observer>(&mut self, obs: &mut O) -> Outcome {
        loop {
            if let RunEnd::Finished(outcome) = self.run_debug(obs, &mut ()) {
                return outcome;
            }
        }
    }

    /// As `run_observed`, with a debugger's hook: returns at each stop
    /// it asks for and when the traced process ends. Calling it again
    /// resumes exactly where it returned.
    pub fn run_debug<O: Observer, D: DebugHook>(&mut self, obs: &mut O, dbg: &mut D) -> RunEnd {
        loop {
            let (pid, resumed) = match self.paused.take() {
                // The debugger now holds the interrupted process: its
                // slice is given up, it waits in the queue.
                Some(paused) if dbg.holds(paused.pid) => (paused.pid, None),
                Some(paused) => (paused.pid, Some(paused)),
                None => match self.run_queue.pop_front() {
                    Some(pid) => (pid, None),
                    None => break,
                },
            };
            if resumed.is_none()
                && self
                    .config
                    .host_deadline
                    .is_some_and(|d| std::time::Instant::now() >= d)
            {
                self.run_queue.push_front(pid);
                self.outcome = Some(Outcome::TimeLimit);
                break;
            }
            let stop = self.config.stop.as_ref().and_then(StopRequest::requested);
            if let (None, Some(signal)) = (&resumed, stop) {
                self.run_queue.push_front(pid);
                self.outcome = Some(Outcome::Interrupted { signal });
                break;
            }
            if resumed.is_none() && dbg.holds(pid) {
                // Held by the debugger: as a stopped process, no CPU.
                self.run_queue.push_back(pid);
                self.idle_rounds += 1;
                if self.idle_rounds > self.run_queue.len() {
                    if let Some(end) = self.stalled(dbg) {
                        return end;
                    }
                }
                continue;
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
                    self.idle_rounds += 1;
                    if self.idle_rounds > self.run_queue.len() {
                        if let Some(end) = self.stalled(dbg) {
                            return end;
                        }
                    }
                    continue;
                }
                p.state = RunState::Runnable;
                self.child_changed(&mut p, WaitEvent::Continued);
            }
            let (was_blocked, slice_end) = match resumed {
                Some(r) => (r.was_blocked, r.slice_end),
                None => (
                    p.state == RunState::Blocked,
                    p.user_cycles() + self.config.quantum_cycles,
                ),
            };
            if resumed.is_none() {
                // The slice boundary is a clock interrupt, and the return
                // from it (ERET) clears LLbit (R4000 User's Manual, LL):
                // an SC after another process ran fails, so memory shared
                // between processes keeps its atomic sequences atomic.
                p.cpu.clear_ll_bit();
            }
            self.load_shared_memory(&mut p);
            let calls_before = self.syscalls;
            let cycles_before = p.user_cycles();
            let end = if self.outside_profiled(pid) {
                self.run_slice(&mut p, slice_end, obs, dbg)
            } else {
                self.run_slice(&mut p, slice_end, &mut (), dbg)
            };
            self.park_shared_memory(&mut p);
            // A slice that handled system calls may have ended with one
            // (blocked, exited, exec'd): the debugger may stop after it.
            let stop_after = self.syscalls != calls_before;
            match end {
                SliceEnd::DebugStop => {
                    self.procs.insert(pid, p);
                    self.paused = Some(Paused {
                        pid,
                        slice_end,
                        was_blocked,
                    });
                    return RunEnd::DebugStop;
                }
                SliceEnd::Preempted => {
                    p.state = RunState::Runnable;
                    self.idle_rounds = 0;
                    self.host_rounds = 0;
                }
                SliceEnd::Blocked => {
                    p.state = RunState::Blocked;
                    // A waiting call that completed on its retry and let
                    // the process run on (until it waited again) is
                    // progress: only a retry that waits again at once is
                    // not.
                    let ran = p.user_cycles() != cycles_before;
                    self.idle_rounds = if was_blocked && !ran {
                        self.idle_rounds + 1
                    } else {
                        0
                    };
                    self.host_rounds = if was_blocked && !ran {
                        self.host_rounds + 1
                    } else {
                        0
                    };
                }
                SliceEnd::WaitHost => {
                    p.state = RunState::Blocked;
                    self.idle_rounds = 0;
                    self.host_rounds += 1;
                    if self.host_rounds > self.run_queue.len() {
                        // No queued process got further since each had
                        // its turn: wait for the host rather than spin.
                        self.host_rounds = 0;
                        self.wait_for_host();
                    }
                    self.sleep(self.tick_cycles());
                }
                SliceEnd::Stopped => {
                    p.state = RunState::Stopped;
                    self.idle_rounds = 0;
                    self.host_rounds = 0;
                }
                SliceEnd::Exited(status) => {
                    self.idle_rounds = 0;
                    self.host_rounds = 0;
                    self.exit_process(p, status);
                    if dbg.traces(pid) {
                        return RunEnd::TracedExited(pid, status);
                    }
                    if stop_after && dbg.after_syscall() {
                        return RunEnd::DebugStop;
                    }
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
            if stop_after && dbg.after_syscall() {
                return RunEnd::DebugStop;
            }
            if self.idle_rounds > self.run_queue.len() {
                // Every queued process retried its blocking call in a row
                // and none could proceed: only a timeout or an alarm can
                // wake them.
                if let Some(end) = self.stalled(dbg) {
                    return end;
                }
            }
        }
        RunEnd::Finished(self.outcome.clone().unwrap_or(Outcome::Deadlock))
    }

    /// No queued process can proceed: virtual time moves on to the next
    /// timeout or alarm if there is one (None: the run goes on), else a
    /// deadlock, unless the debugger holds one of them (then only the
    /// debugger can change that, and the run waits for it).
    fn stalled<D: DebugHook>(&mut self, dbg: &D) -> Option<RunEnd> {
        if self.run_queue.iter().any(|&pid| dbg.holds(pid)) {
            self.idle_rounds = 0;
            return Some(RunEnd::Held);
        }
        if self.skip_to_next_wakeup() {
            return None;
        }
        self.outcome.get_or_insert(Outcome::Deadlock);
        Some(RunEnd::Finished(
            self.outcome.clone().unwrap_or(Outcome::Deadlock),
        ))
    }

    /// Runs `p` for one quantum, handling its exceptions and ticks.
    fn run_slice<O: Observer, D: DebugHook>(
        &mut self,
        p: &mut Process,
        slice_end: u64,
        obs: &mut O,
        dbg: &mut D,
    ) -> SliceEnd {
        // An exec ends the outside profile: the observer must not see the
        // new image, so the slice ends there (the next one is unobserved).
        let observed = self.outside_profiled(p.pid);
        loop {
            self.fire_timers(p);
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
            if dbg.stop_here(p) {
                return SliceEnd::DebugStop;
            }
            let outside_next = self.outside_deadline(p.pid);
            let deadline = slice_end
                .min(p.next_tick)
                .min(self.timer_deadline(p))
                .min(outside_next)
                .min(limit)
                .min(self.cpu_limit_deadline(p))
                .min(dbg.deadline(p));
            let instret = p.cpu.instructions();
            let in_blocks = p.cpu.instructions_in_blocks();
            let compiled = p.cpu.instructions_compiled();
            let entries = p.cpu.compiled_entries();
            let view_faults = p.cpu.view_faults();
            let tracked = match self.call_graph(p.pid).filter(|_| observed) {
                Some(cg) => cg.with_tracker(p.pid, |t| run_tracked(p, obs, t, deadline)),
                None => None,
            };
            let stop = tracked.unwrap_or_else(|| p.cpu.run(&mut p.mem, obs, deadline));
            let ran = p.user_cycles() - start;
            self.now += ran;
            self.stats.user_cycles += ran;
            self.stats.instructions += p.cpu.instructions() - instret;
            self.stats.instructions_in_blocks += p.cpu.instructions_in_blocks() - in_blocks;
            self.stats.instructions_compiled += p.cpu.instructions_compiled() - compiled;
            self.stats.compiled_entries += p.cpu.compiled_entries() - entries;
            self.stats.view_faults += p.cpu.view_faults() - view_faults;
            self.charge_memory_work(p);
            self.deliver_ticks(p);
            self.check_cpu_limit(p);
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
                    if dbg.before_syscall(p) {
                        return SliceEnd::DebugStop;
                    }
                    let (next_pid, execs) = (self.next_pid, p.execs);
                    let next = syscalls::dispatch(self, p);
                    self.syscalls += 1;
                    self.check_cpu_limit(p);
                    if dbg.traces(p.pid) {
                        let forked = (next_pid..self.next_pid).filter(|c| {
                            self.procs
                                .get(c)
                                .is_some_and(|c| c.ppid == p.pid && c.share_group.is_none())
                        });
                        for child in forked {
                            dbg.forked(p.pid, child);
                        }
                        if p.execs != execs {
                            dbg.execed(p);
                        }
                    }
                    match next {
                        Next::Continue if observed && !self.outside_profiled(p.pid) => {
                            return SliceEnd::Preempted;
                        }
                        Next::Continue if dbg.after_syscall() => return SliceEnd::DebugStop,
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

/// `Cpu::run` with the call graph watching too. Kept out of line so that
/// the untracked run loop is compiled as it would be without call graphs.
#[inline(never)]
fn run_tracked<O: Observer>(
    p: &mut Process,
    obs: &mut O,
    cg: &mut Tracker<'_>,
    deadline: u64,
) -> StopReason {
    p.cpu.run(&mut p.mem, &mut (obs, cg), deadline)
}
