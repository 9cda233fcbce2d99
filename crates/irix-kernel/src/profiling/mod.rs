//! Execution-time profiling: profil(2), sprofil(2) with PROF_FAST, pcsample(2),
//! under five personalities, each following its own manual page (IRIX
//! sprofil(2), Solaris profil(2) and pcsample(2), Darwin profil(2), AIX
//! profil, HP-UX sprofil(2); docs/personalities.md), plus the host-side
//! histogram of `irix-emu prof`.
//!
//! # Contents
//! | module | what |
//! |---|---|
//! | [`personality`] | [`Personality`], its clock and counter rule |
//! | [`mapping`] | the pure PC -> counter function [`map_pc`], HP-UX's instructions per counter |
//! | [`regions`] | overlapping regions resolved into sorted ranges, binary-searched per tick |
//! | [`counters`] | one counter increment: wrap, saturate (HP-UX) or Solaris' 32767 stop |
//! | [`histogram`] | an installed profil/sprofil histogram and its tick |
//! | [`sprofil`] | sprofil's argument checks (E2BIG, EFAULT, EINVAL, EACCES) and `struct prof` |
//! | [`profil`] | profil per personality: Darwin's buffer check, AIX's array form |
//! | [`pcsample`] | pcsample's sample array |
//! | [`state`] | [`ProfState`]: one per process, the calls, tick, exec |
//! | [`host`] | [`HostProfile`] for the outside profiler |
//! | [`callgraph`] | [`CallGraph`]: the outside profiler's shadow stacks (one per thread), arcs and real stacks |
//! | [`memory`] | [`ProfMemory`] and [`VecMemory`] |
//! | [`syscalls`] | [`SyscallTally`]: each process's calls, errors and system time |
//!
//! # Documented choices (where the pages leave a gap)
//! - **PROFIL_MAX** ([`DEFAULT_PROFIL_MAX`] = 1024, tunable): no public source
//!   gives IRIX's value (docs/abi.md). 1024 regions is one per shared object with
//!   room for per-function regions of a large program, bounds what one call
//!   reads from the guest (16 KiB of `struct prof`) and keeps resolution
//!   (O(n log n)) and the tick (one binary search over at most 2n-1 ranges)
//!   cheap; the benchmark measures this size.
//! - **Overflow semantics**: a region only claims the PCs its counters cover.
//!   A PC past the end of the winning (largest-offset) region's buffer falls
//!   to the next lower region that covers it, and reaches the overflow bin
//!   only when no region covers it: it is then "outside the regions of text
//!   space specified" (irix sprofil(2)). glibc's sprofil does the same.
//!   A region turned off by a fault keeps its PCs (they are dropped).
//! - **PROF_UINT64** = [`PROF_UINT64`] = 8 (HP-UX only; the next free bit after
//!   IRIX's PROF_FAST = 4). PROF_UINT with PROF_UINT64 is EINVAL.
//! - **Darwin EFAULT**: profil with a nonzero scale checks, at the call, that
//!   every page of the buffer's whole 16-bit bins is readable and writable
//!   (load and store back, unchanged); if not it returns EFAULT and the
//!   earlier profiling ends ("profiling is terminated").
//! - **pcsample** is system call `abi::sys::PCSAMPLE` = 2026 in every personality
//!   (outside IRIX's 1000-1299 range; Solaris' own number is 26).
//! - **restrict_fastprof** defaults to false; `fast_hz` 0 means "the hardware
//!   does not support fast clock ticks" (PROF_FAST then EACCES too).
//! - A failing sprofil changes nothing; Darwin's EFAULT and AIX's fault on
//!   the struct array end profiling, as those pages say.
//! - IRIX/HP-UX profil is literally the one-member sprofil, so
//!   `profil(buf, size, 0, 2)` is a lone overflow bin. Under IRIX a scale
//!   of 2 at any offset counts every PC from the offset up in counter 0
//!   (irix profil(2), [`mapping`]).
//! - Solaris' 32767 stop applies to 16-bit counters; HP-UX saturates every
//!   counter (profil too); IRIX, Darwin and AIX wrap.
//! - AIX: scale 0x0001 counts every tick in counter 0 whatever the PC (a
//!   "noninterrupting core clock"); PC below the offset is not counted;
//!   array-form limits and errors are in [`profil::read_aix_array`].
//!
//! # Tick cost
//! Target: under 100 ns per tick at 512 regions. Measured with
//! `cargo bench -p irix-kernel --bench tick -- --warm-up-time 1 --measurement-time 3`
//! (criterion 0.8, bench profile, benches/tick.rs): one [`ProfState::tick`] per
//! iteration on a [`VecMemory`], n disjoint PROF_UINT regions at 1-1 scale,
//! PCs from a fixed xorshift sequence over their text; the 2-core machine
//! with nothing else running (a first run under other builds' load measured
//! about twice these). Criterion's estimate [low, mean, high]:
//!
//! | regions | ns per tick |
//! |---|---|
//! | 1 | 6.7 / 6.7 / 6.8 |
//! | 8 | 10.7 / 10.8 / 10.8 |
//! | 64 | 14.9 / 15.2 / 15.6 |
//! | 512 | 20.3 / 20.4 / 20.6 |
//! | 1024 (PROFIL_MAX) | 24.6 / 26.4 / 28.4 |
//!
//! The growth is the binary search (log2 of at most 2n-1 ranges) and cache
//! misses on the larger counter area, not a scan of the regions.

// The API the kernel implements fixes `Err(())` as "this access would fault".
#![allow(clippy::result_unit_err)]

pub mod callgraph;
pub mod counters;
pub mod guest;
pub mod histogram;
pub mod host;
pub mod mapping;
pub mod memory;
pub mod outside;
pub mod pcsample;
pub mod personality;
pub mod profil;
pub mod regions;
pub mod sprofil;
pub mod state;
pub mod syscalls;
pub mod timeline;

pub use callgraph::{ArcCost, ArcKey, ArcKind, CallGraph, FunctionRange, ShadowStack, Tracker};
pub use guest::GuestCounters;
pub use host::HostProfile;
pub use mapping::{
    instructions_per_counter, map_pc, text_range, CounterWidth, InsnRatio, Region, Slot,
};
pub use memory::{ProfMemory, VecMemory};
pub use outside::OutsideProfile;
pub use personality::{CounterRule, ParsePersonalityError, Personality, AIX_HZ};
pub use state::ProfState;
pub use syscalls::SyscallTally;
pub use timeline::{
    EventKind, Timeline, TimelineEvent, TimelineImage, TimelineSample, TimelineSpan,
};

pub use crate::abi::prof::*;

/// Default PROFIL_MAX (see "Documented choices").
pub const DEFAULT_PROFIL_MAX: u32 = 1024;
/// Default clock rate, HZ (docs/abi.md: sysconf(_SC_CLK_TCK) = 100).
pub const DEFAULT_HZ: u32 = crate::abi::limits::HZ;
/// PROF_FAST's rate: "forcing the system to take samples once every millisecond".
pub const DEFAULT_FAST_HZ: u32 = 1000;

/// Kernel tunables the profiler reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tunables {
    /// The clock rate, HZ (100).
    pub hz: u32,
    /// PROF_FAST's rate (1000); 0 = no fast clock (PROF_FAST gets EACCES).
    pub fast_hz: u32,
    /// PROFIL_MAX: the most regions one sprofil call takes ([`DEFAULT_PROFIL_MAX`]).
    pub profil_max: u32,
    /// restrict_fastprof: PROF_FAST gets EACCES (default false).
    pub restrict_fastprof: bool,
}

impl Tunables {
    /// The one sample-rate rule: PROF_FAST's fast clock when `fast`, else
    /// the personality's ordinary profiling clock (`Personality::clock_hz`:
    /// HZ, or AIX's 60).
    pub fn sample_hz(&self, p: Personality, fast: bool) -> u32 {
        if fast {
            self.fast_hz
        } else {
            p.clock_hz(self.hz)
        }
    }
}

impl Default for Tunables {
    fn default() -> Self {
        Tunables {
            hz: DEFAULT_HZ,
            fast_hz: DEFAULT_FAST_HZ,
            profil_max: DEFAULT_PROFIL_MAX,
            restrict_fastprof: false,
        }
    }
}
