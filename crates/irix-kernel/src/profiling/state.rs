//! A process's profiling state and the calls that change it.
//!
//! Contents: [`ProfState`] with the system calls ([`ProfState::sprofil`],
//! [`ProfState::profil`], [`ProfState::pcsample`]), the clock tick
//! ([`ProfState::tick`], [`ProfState::tick_hz`], [`ProfState::is_active`])
//! and the lifetime rule ([`ProfState::exec`]; fork and sproc copy it: `Clone`).
//!
//! - "Each call to sprofil will disable any profiling enabled by previous
//!   sprofil calls" (irix); a profil call replaces the earlier state the same way.
//! - pcsample and profil/sprofil exclude each other, as on Solaris: a call
//!   that starts one (a histogram that can count, or nsamples > 0) stops the
//!   other. A call that only turns profiling off leaves the other alone.
//! - "Profiling is turned off when an exec(2) is executed, but remains on in
//!   both child and parent processes after a fork(2) or a sproc(2)" (irix);
//!   pcsample: "sampling continues across a call to fork(2), but is disabled
//!   by a call to one of the exec family of functions".

use super::histogram::{Histogram, TickOutcome};
use super::memory::ProfMemory;
use super::pcsample::Sampler;
use super::personality::Personality;
use super::profil::{self, ProfilRequest};
use super::sprofil::{self, tick_timeval};
use super::Tunables;
use crate::Errno;

/// One process's profiling: at most one of a histogram (profil, sprofil) and
/// a running pcsample invocation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProfState {
    /// The profil/sprofil histogram, if one is installed.
    histogram: Option<Histogram>,
    /// The latest pcsample invocation (`None`: pcsample never called since
    /// the process image started, so the next call returns 0).
    sampler: Option<Sampler>,
}

impl ProfState {
    /// sprofil(2): `syssgi(SGI_SPROFIL, profp, profcnt, tvp, flags)`. Returns 0,
    /// or the first error in the order E2BIG, EFAULT, EINVAL, EACCES (see
    /// [`sprofil`]); on error nothing changes.
    #[allow(clippy::too_many_arguments)]
    pub fn sprofil(
        &mut self,
        mem: &mut impl ProfMemory,
        p: Personality,
        t: &Tunables,
        profp: u32,
        profcnt: i32,
        tvp: u32,
        flags: u32,
    ) -> Result<u32, Errno> {
        let hist = sprofil::read_request(mem, p, t, profp, profcnt, tvp, flags)?;
        if tvp != 0 {
            sprofil::write_timeval(mem, tvp, tick_timeval(t.sample_hz(p, hist.fast())))?;
        }
        self.install(hist);
        Ok(0)
    }

    /// profil(2) under personality `p` (see [`profil`]): 0, or
    /// Darwin's EFAULT (profiling then ends) and AIX's array-form errors.
    #[allow(clippy::too_many_arguments)]
    pub fn profil(
        &mut self,
        mem: &mut impl ProfMemory,
        p: Personality,
        t: &Tunables,
        buf: u32,
        bufsiz: u32,
        offset: u32,
        scale: u32,
    ) -> Result<u32, Errno> {
        match profil::request(mem, p, t, buf, bufsiz, offset, scale) {
            Ok(ProfilRequest::Off) => {
                self.histogram = None;
                Ok(0)
            }
            Ok(ProfilRequest::Install(hist)) => {
                self.install(hist);
                Ok(0)
            }
            Err(e) => {
                if e.terminates {
                    self.histogram = None;
                }
                Err(e.errno)
            }
        }
    }

    /// pcsample(2): starts sampling into `samples[0..nsamples]` (nsamples 0:
    /// stops). Returns 0 the first time, then "the number of samples that were
    /// stored during the previous invocation"; EINVAL for a negative nsamples.
    pub fn pcsample(
        &mut self,
        _mem: &mut impl ProfMemory,
        _p: Personality,
        _t: &Tunables,
        samples: u32,
        nsamples: i32,
    ) -> Result<u32, Errno> {
        let capacity = u32::try_from(nsamples).map_err(|_| Errno::EINVAL)?;
        let previous = self.sampler.map_or(0, |s| s.stored);
        let sampler = Sampler::start(samples, capacity);
        if sampler.running {
            self.histogram = None;
        }
        self.sampler = Some(sampler);
        Ok(previous)
    }

    /// One clock tick taken in user mode at user PC `pc`.
    #[inline]
    pub fn tick(&mut self, mem: &mut impl ProfMemory, pc: u32) {
        if let Some(s) = self.sampler.as_mut() {
            s.tick(mem, pc);
        }
        if let Some(h) = self.histogram.as_mut() {
            if h.tick(mem, pc) == TickOutcome::StopAll {
                self.histogram = None;
            }
        }
    }

    /// The rate this process must be ticked at while active: `t.fast_hz`
    /// under PROF_FAST ("forcing the system to take samples once every
    /// millisecond"), 60 under AIX, else `t.hz`.
    pub fn tick_hz(&self, p: Personality, t: &Tunables) -> u32 {
        let fast = self
            .histogram
            .as_ref()
            .is_some_and(|h| h.fast() && h.is_active());
        t.sample_hz(p, fast)
    }

    /// Whether a tick has anything to do.
    pub fn is_active(&self) -> bool {
        self.histogram.as_ref().is_some_and(Histogram::is_active)
            || self.sampler.is_some_and(|s| s.running)
    }

    /// "Profiling is turned off when an exec(2) is executed": everything goes,
    /// including pcsample's count (the new image's first call returns 0).
    pub fn exec(&mut self) {
        *self = ProfState::default();
    }

    /// The installed histogram, for inspection (`None` when off).
    pub fn histogram(&self) -> Option<&Histogram> {
        self.histogram.as_ref()
    }

    /// The latest pcsample invocation, for inspection.
    pub fn sampler(&self) -> Option<&Sampler> {
        self.sampler.as_ref()
    }

    /// Installs a histogram in place of the earlier one; if it can count, it
    /// stops pcsample (keeping the count for pcsample's next return value).
    fn install(&mut self, hist: Histogram) {
        if hist.is_active() {
            if let Some(s) = self.sampler.as_mut() {
                s.running = false;
            }
        }
        self.histogram = Some(hist);
    }
}
