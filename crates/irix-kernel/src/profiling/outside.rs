//! The outside profiler (`irix-emu prof`): a host-side histogram ticked on
//! the user-time grid of each process running the profiled program,
//! independent of the guest's own profiling; with `prof --callgraph`, also
//! the program's [`CallGraph`].

use std::collections::BTreeMap;

use super::timeline::{Timeline, TimelineImage, TimelineSample};
use super::{CallGraph, HostProfile};
use crate::clock;
use crate::kernel::Kernel;
use crate::memory::MappedObject;
use crate::process::{Pid, Process};

/// The outside profiler (`irix-emu prof`): a host-side histogram ticked on
/// the user-time grid of each process running the profiled program: the
/// one it started, and the children it forks and the sproc members it
/// starts ("profiling remains on in both child and parent processes after
/// a fork(2) or a sproc(2)", IRIX sprofil(2), NOTES). Like profil, it ends
/// for a process when that process execs: the histogram's ranges (and the
/// report's symbols) belong to the program it was started on.
#[derive(Clone)]
pub struct OutsideProfile {
    /// The process the profile started on.
    pub pid: Pid,
    pub hist: HostProfile,
    pub interval: u64,
    /// The processes profiled now, each with the user-cycle count of its
    /// next tick.
    members: BTreeMap<Pid, u64>,
    /// The program's call graph (`prof --callgraph`), when asked for.
    pub callgraph: Option<CallGraph>,
    /// Ticks outside the program's text, per object holding the PC (the
    /// interpreter, each object SGI_ELFMAP mapped), per PC.
    pub elsewhere: Vec<(MappedObject, BTreeMap<u32, u64>)>,
    /// Ticks at PCs in no mapped object (a signal trampoline on the
    /// stack, the sproc exit stub), per PC.
    pub unmapped: BTreeMap<u32, u64>,
    /// Every tick in time order, with its process and stack (`prof
    /// --format firefox`), when asked for.
    pub timeline: Option<Timeline>,
}

impl Kernel {
    /// Profiles process `pid` from outside at `hz` into `hist`, and the
    /// processes it forks or starts with sproc (see [`OutsideProfile`]).
    pub fn set_outside_profile(&mut self, pid: Pid, hist: HostProfile, hz: u32) {
        let interval = clock::tick_interval(self.config.cpu_hz, hz);
        let now = self.procs.get(&pid).map_or(0, |p| p.user_cycles());
        self.outside = Some(OutsideProfile {
            pid,
            hist,
            interval,
            members: BTreeMap::from([(pid, clock::next_grid_point(now, interval))]),
            callgraph: None,
            elsewhere: Vec::new(),
            unmapped: BTreeMap::new(),
            timeline: None,
        });
    }

    /// Records every outside tick with its time and stack from now on,
    /// and the events between (see [`Timeline`]); `image` is the profiled
    /// program.
    pub fn record_timeline(&mut self, image: TimelineImage) {
        let now = self.now;
        let Some(o) = self.outside.as_ref() else {
            return;
        };
        let pids: Vec<(Pid, String)> = o
            .members
            .keys()
            .map(|&pid| {
                let name = self.procs.get(&pid).map(|p| p.name.clone());
                (pid, name.unwrap_or_default())
            })
            .collect();
        let timeline = Timeline::new(pids.into_iter(), image, now);
        if let Some(o) = self.outside.as_mut() {
            o.timeline = Some(timeline);
        }
    }

    /// The recorded timeline (see [`Kernel::record_timeline`]).
    pub fn take_timeline(&mut self) -> Option<Timeline> {
        self.outside.as_mut()?.timeline.take()
    }

    /// Tracks the calls and returns of the outside-profiled program too,
    /// in each of its processes (`cg` starts tracking the profiled ones).
    pub fn set_call_graph(&mut self, mut cg: CallGraph) {
        if let Some(o) = self.outside.as_mut() {
            for &pid in o.members.keys() {
                cg.start(pid);
            }
            o.callgraph = Some(cg);
        }
    }

    /// The program's call graph, while process `pid` is profiled (see
    /// [`CallGraph::with_tracker`] for its stack).
    pub(crate) fn call_graph(&mut self, pid: Pid) -> Option<&mut CallGraph> {
        self.outside
            .as_mut()
            .filter(|o| o.members.contains_key(&pid))
            .and_then(|o| o.callgraph.as_mut())
    }

    /// Ends call tracking (open frames closed) and hands the graph over.
    pub fn take_call_graph(&mut self) -> Option<CallGraph> {
        let mut cg = self.outside.as_mut()?.callgraph.take()?;
        cg.finish();
        Some(cg)
    }

    /// Whether process `pid` is profiled from outside now.
    pub(crate) fn outside_profiled(&self, pid: Pid) -> bool {
        self.outside
            .as_ref()
            .is_some_and(|o| o.members.contains_key(&pid))
    }

    /// fork or sproc by `parent`: a profiled parent's `child` runs the same
    /// program, so it is profiled too, on its own tick grid, with a copy
    /// of its parent's shadow stack (fork) or an empty one (an sproc
    /// member, which starts at its entry point).
    pub(crate) fn follow_outside_profile(&mut self, parent: Pid, child: &Process, forked: bool) {
        let Some(o) = self
            .outside
            .as_mut()
            .filter(|o| o.members.contains_key(&parent))
        else {
            return;
        };
        let next = clock::next_grid_point(child.user_cycles(), o.interval);
        o.members.insert(child.pid, next);
        if let Some(cg) = o.callgraph.as_mut() {
            if forked {
                cg.fork(parent, child.pid);
            } else {
                cg.start(child.pid);
            }
        }
    }

    /// exec or exit: the outside profile of this process ends (its call
    /// stack is closed where it stands). The timeline follows it on (see
    /// [`Kernel::timeline_exec`]).
    pub(crate) fn end_outside_profile(&mut self, pid: Pid) {
        if let Some(o) = self.outside.as_mut() {
            o.members.remove(&pid);
            if let Some(cg) = o.callgraph.as_mut() {
                cg.end(pid);
            }
        }
    }

    pub fn outside_profile(&self) -> Option<&OutsideProfile> {
        self.outside.as_ref()
    }

    /// The user-cycle count of `pid`'s next outside tick, of the profile or
    /// of the timeline alone (`u64::MAX`: none).
    pub(crate) fn outside_deadline(&self, pid: Pid) -> u64 {
        self.outside
            .as_ref()
            .and_then(|o| o.members.get(&pid).copied())
            .or_else(|| self.follower_deadline(pid))
            .unwrap_or(u64::MAX)
    }

    /// Takes every outside tick that has fallen due for `p`.
    pub(crate) fn outside_ticks(&mut self, p: &Process) {
        let now = p.user_cycles();
        let time = self.now;
        let Some(o) = self.outside.as_mut() else {
            return;
        };
        let Some(mut next) = o.members.get(&p.pid).copied() else {
            self.follower_ticks(p);
            return;
        };
        while now >= next {
            let pc = p.cpu.sample_pc();
            let stack = match o.callgraph.as_mut() {
                Some(cg) => cg.with_tracker(p.pid, |t| t.sample(pc)),
                None => None,
            };
            if let Some(t) = o.timeline.as_mut() {
                t.samples.push(TimelineSample {
                    pid: p.pid,
                    time,
                    stack: stack.unwrap_or_else(|| vec![pc]),
                    image: 0,
                });
            }
            if !o.hist.tick(pc) {
                o.tick_elsewhere(p, pc);
            }
            next += o.interval;
        }
        o.members.insert(p.pid, next);
    }
}

impl OutsideProfile {
    /// A tick outside the program: charged to the object holding `pc`.
    fn tick_elsewhere(&mut self, p: &Process, pc: u32) {
        let Some(object) = p.mem.object_at(pc) else {
            *self.unmapped.entry(pc).or_insert(0) += 1;
            return;
        };
        let slot = match self.elsewhere.iter().position(|(o, _)| o == object) {
            Some(i) => i,
            None => {
                self.elsewhere.push((object.clone(), BTreeMap::new()));
                self.elsewhere.len() - 1
            }
        };
        *self.elsewhere[slot].1.entry(pc).or_insert(0) += 1;
    }
}
