//! [`Cpu::run`] and [`Cpu::step`]: where a run enters the tier its engine
//! names (see `Engine`). The interpreter (`interp`) is the reference; the
//! block tier (`block::run`) and the compiled tier (`jit::tier`) on top of it
//! leave exactly its state after every run.
//!
//! An observer that wants every instruction ([`Observer::RETIRES`]) is run
//! by the interpreter whatever the engine.

use crate::cpu::{Cpu, Engine};
use crate::{Exception, Memory, Observer, StopReason};

impl Cpu {
    /// Executes until the cycle counter reaches `deadline`
    /// ([`StopReason::Deadline`]; checked before the first instruction and
    /// after each one) or an instruction raises an exception
    /// ([`StopReason::Exception`]; that instruction had no effect and
    /// [`Cpu::pc`] names it, so running again re-executes it).
    pub fn run<M: Memory, O: Observer>(
        &mut self,
        mem: &mut M,
        obs: &mut O,
        deadline: u64,
    ) -> StopReason {
        let mut pages = std::mem::take(&mut self.code_pages);
        let blocks = self.config.engine != Engine::Interp && !O::RETIRES;
        let stop = if blocks {
            self.run_blocks(&mut pages, mem, obs, deadline)
        } else {
            // Without block boundaries to stop at, only a stop ends the loop.
            self.run_pages::<M, O, false>(&mut pages, mem, obs, deadline)
                .unwrap_or(StopReason::Deadline)
        };
        self.code_pages = pages;
        stop
    }

    /// Executes exactly one instruction (a nullified delay slot is part of
    /// its branch). `None` if it completed.
    pub fn step<M: Memory>(&mut self, mem: &mut M) -> Option<Exception> {
        match self.run(mem, &mut (), self.cycles + 1) {
            StopReason::Deadline => None,
            StopReason::Exception(e) => Some(e),
        }
    }
}
