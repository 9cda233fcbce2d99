//! An installed profil/sprofil histogram and its clock tick.
//!
//! Contents: [`ProfEntry`] (one region with its guest buffer), [`Histogram`]
//! ([`Histogram::new`] resolves the regions once; [`Histogram::tick`] counts
//! one tick), [`TickOutcome`].
//!
//! Sources: irix sprofil(2) NOTES: "Profiling is turned off for the specified
//! region of text space if a pr_base update would cause a memory fault." A
//! region turned off keeps its text space: later ticks there are dropped,
//! not handed to a lower region or the overflow bin (the page turns the
//! *region of text space* off). The overflow bin: "Any PC value not
//! previously matched or outside the regions of text space specified is
//! considered to match this text region and the first counter of the
//! specified pr_base is incremented."

use super::counters::{bump, Bumped};
use super::mapping::{map_pc, text_range, CounterWidth, Region, Slot};
use super::memory::ProfMemory;
use super::personality::{CounterRule, Personality};
use super::regions::{Claim, RangeTable};

/// One region and the guest address of its counters (`pr_base`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProfEntry {
    /// pr_base: the first counter's guest address.
    pub base: u32,
    /// The text region and its mapping parameters.
    pub region: Region,
}

/// A region being counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Counted {
    entry: ProfEntry,
    /// False once a counter update faulted (or it never had a counter).
    live: bool,
}

/// The overflow bin: every PC no region claims counts in its first counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct OverflowBin {
    base: u32,
    width: CounterWidth,
    live: bool,
}

/// What the caller must do after a tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TickOutcome {
    /// Nothing more.
    Continue,
    /// Profiling stops for good (Solaris' 32767 rule).
    StopAll,
}

/// The state profil/sprofil install: regions resolved into a range table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Histogram {
    personality: Personality,
    rule: CounterRule,
    /// PROF_FAST: tick at the fast clock.
    fast: bool,
    regions: Vec<Counted>,
    table: RangeTable,
    overflow: Option<OverflowBin>,
    /// Live regions plus a live overflow bin: zero means nothing to do.
    live: usize,
}

impl Histogram {
    /// Installs `entries` (array order) and an optional overflow bin
    /// (`(pr_base, pr_size)`, counters of the entries' width `width`).
    pub fn new(
        p: Personality,
        entries: &[ProfEntry],
        overflow: Option<(u32, u32)>,
        width: CounterWidth,
        fast: bool,
    ) -> Histogram {
        let claims: Vec<Option<Claim>> = entries
            .iter()
            .map(|e| {
                text_range(p, &e.region).map(|(start, end)| Claim {
                    offset: e.region.offset,
                    start,
                    end,
                })
            })
            .collect();
        let regions: Vec<Counted> = entries
            .iter()
            .zip(&claims)
            .map(|(&entry, claim)| Counted {
                entry,
                live: claim.is_some(),
            })
            .collect();
        let overflow = overflow.map(|(base, size)| OverflowBin {
            base,
            width,
            live: size >= width.bytes(),
        });
        let live = regions.iter().filter(|r| r.live).count()
            + usize::from(overflow.is_some_and(|o| o.live));
        Histogram {
            personality: p,
            rule: p.counter_rule(),
            fast,
            regions,
            table: RangeTable::resolve(&claims),
            overflow,
            live,
        }
    }

    /// Whether any region (or the overflow bin) can still count.
    pub fn is_active(&self) -> bool {
        self.live > 0
    }

    /// PROF_FAST was given.
    pub fn fast(&self) -> bool {
        self.fast
    }

    /// Counts one tick at user PC `pc`.
    #[inline]
    pub fn tick(&mut self, mem: &mut impl ProfMemory, pc: u32) -> TickOutcome {
        let (addr, width) = match self.table.lookup(pc) {
            Some(id) => {
                let Some(r) = self.regions.get(id as usize).filter(|r| r.live) else {
                    return TickOutcome::Continue;
                };
                let region = r.entry.region;
                // The table only holds PCs whose slot is a counter (text_range).
                let Slot::Counter(i) = map_pc(self.personality, &region, pc) else {
                    return TickOutcome::Continue;
                };
                (
                    r.entry.base.checked_add(i * region.width.bytes()),
                    region.width,
                )
            }
            None => match self.overflow {
                Some(o) if o.live => (Some(o.base), o.width),
                _ => return TickOutcome::Continue,
            },
        };
        let result = match addr {
            Some(addr) => bump(mem, addr, width, self.rule),
            None => Err(()),
        };
        match result {
            Ok(Bumped::Counted) => TickOutcome::Continue,
            Ok(Bumped::Stop) => {
                self.stop_all();
                TickOutcome::StopAll
            }
            Err(()) => {
                self.turn_off(pc);
                TickOutcome::Continue
            }
        }
    }

    /// Turns off the region (or overflow bin) that counts `pc`, after a fault.
    fn turn_off(&mut self, pc: u32) {
        let slot = match self.table.lookup(pc) {
            Some(id) => self.regions.get_mut(id as usize).map(|r| &mut r.live),
            None => self.overflow.as_mut().map(|o| &mut o.live),
        };
        if let Some(live) = slot {
            if std::mem::replace(live, false) {
                self.live -= 1;
            }
        }
    }

    fn stop_all(&mut self) {
        self.regions.iter_mut().for_each(|r| r.live = false);
        if let Some(o) = self.overflow.as_mut() {
            o.live = false;
        }
        self.live = 0;
    }
}
