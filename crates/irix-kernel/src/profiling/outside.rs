//! The outside profiler (`irix-emu prof`): a host-side histogram ticked on
//! one process's user-time grid, independent of the guest's own profiling;
//! with `prof --callgraph`, also the process's [`CallGraph`].

use std::collections::BTreeMap;

use super::{CallGraph, HostProfile};
use crate::clock;
use crate::kernel::Kernel;
use crate::memory::MappedObject;
use crate::process::{Pid, Process};

/// The outside profiler (`irix-emu prof`): a host-side histogram ticked on
/// one process's user-time grid, independent of the guest's own profiling.
/// Like profil, it ends when that process execs: the histogram's ranges
/// (and the report's symbols) belong to the program it was started on.
#[derive(Clone)]
pub struct OutsideProfile {
    pub pid: Pid,
    pub hist: HostProfile,
    pub interval: u64,
    next: u64,
    /// False once the process has exec'd another program.
    pub active: bool,
    /// The call graph (`prof --callgraph`), when asked for.
    pub callgraph: Option<CallGraph>,
    /// Ticks outside the program's text, per object holding the PC (the
    /// interpreter, each object SGI_ELFMAP mapped), per PC.
    pub elsewhere: Vec<(MappedObject, BTreeMap<u32, u64>)>,
    /// Ticks at PCs in no mapped object (a signal trampoline on the
    /// stack, the sproc exit stub), per PC.
    pub unmapped: BTreeMap<u32, u64>,
}

impl Kernel {
    /// Profiles process `pid` from outside at `hz` into `hist`.
    pub fn set_outside_profile(&mut self, pid: Pid, hist: HostProfile, hz: u32) {
        let interval = clock::tick_interval(self.config.cpu_hz, hz);
        let now = self.procs.get(&pid).map_or(0, |p| p.user_cycles());
        self.outside = Some(OutsideProfile {
            pid,
            hist,
            interval,
            next: clock::next_grid_point(now, interval),
            active: true,
            callgraph: None,
            elsewhere: Vec::new(),
            unmapped: BTreeMap::new(),
        });
    }

    /// Tracks the outside-profiled process's calls and returns too.
    pub fn set_call_graph(&mut self, cg: CallGraph) {
        if let Some(o) = self.outside.as_mut() {
            o.callgraph = Some(cg);
        }
    }

    /// The call graph of process `pid`, while its outside profile is active.
    pub(crate) fn call_graph(&mut self, pid: Pid) -> Option<&mut CallGraph> {
        self.outside
            .as_mut()
            .filter(|o| o.active && o.pid == pid)
            .and_then(|o| o.callgraph.as_mut())
    }

    /// Ends call tracking (open frames closed) and hands the graph over.
    pub fn take_call_graph(&mut self) -> Option<CallGraph> {
        let mut cg = self.outside.as_mut()?.callgraph.take()?;
        cg.finish();
        Some(cg)
    }

    /// The process profiled from outside, while its profile is active.
    pub(crate) fn outside_pid(&self) -> Option<Pid> {
        self.outside.as_ref().filter(|o| o.active).map(|o| o.pid)
    }

    /// exec: the outside profile of this process ends.
    pub(crate) fn end_outside_profile(&mut self, pid: Pid) {
        if let Some(o) = self.outside.as_mut().filter(|o| o.pid == pid) {
            o.active = false;
        }
    }

    pub fn outside_profile(&self) -> Option<&OutsideProfile> {
        self.outside.as_ref()
    }

    /// The user-cycle count of `pid`'s next outside tick (`u64::MAX`: none).
    pub(crate) fn outside_deadline(&self, pid: Pid) -> u64 {
        self.outside
            .as_ref()
            .filter(|o| o.active && o.pid == pid)
            .map_or(u64::MAX, |o| o.next)
    }

    /// Takes every outside tick that has fallen due for `p`.
    pub(crate) fn outside_ticks(&mut self, p: &Process) {
        let now = p.user_cycles();
        if let Some(o) = self.outside.as_mut().filter(|o| o.active && o.pid == p.pid) {
            while now >= o.next {
                let pc = p.cpu.sample_pc();
                if let Some(cg) = o.callgraph.as_mut() {
                    cg.sample(pc);
                }
                if !o.hist.tick(pc) {
                    o.tick_elsewhere(p, pc);
                }
                o.next += o.interval;
            }
        }
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
