//! Incrementing one counter in guest memory under a personality's rule.
//!
//! Contents: [`Bumped`], [`bump`].

use super::mapping::CounterWidth;
use super::memory::ProfMemory;
use super::personality::CounterRule;

/// The Solaris limit: "Once one of the counts reaches 32767 (the size of a
/// short int), profiling stops and no more data is collected." (solaris profil(2)).
pub const SOLARIS_COUNT_LIMIT: u16 = 32767;

/// What a counter update asks of the profiler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bumped {
    /// Counted; carry on.
    Counted,
    /// Solaris: a count reached 32767 (or was already there): stop profiling.
    Stop,
}

/// Increments the `width` counter at `addr` (read-modify-write) under `rule`.
/// `Err(())` = the update would fault.
pub fn bump(
    mem: &mut impl ProfMemory,
    addr: u32,
    width: CounterWidth,
    rule: CounterRule,
) -> Result<Bumped, ()> {
    match width {
        CounterWidth::U16 => {
            let v = mem.load16(addr)?;
            match rule {
                CounterRule::Wrap => mem.store16(addr, v.wrapping_add(1))?,
                CounterRule::Saturate => mem.store16(addr, v.saturating_add(1))?,
                CounterRule::StopAtShortMax => {
                    if v >= SOLARIS_COUNT_LIMIT {
                        return Ok(Bumped::Stop);
                    }
                    mem.store16(addr, v + 1)?;
                    if v + 1 >= SOLARIS_COUNT_LIMIT {
                        return Ok(Bumped::Stop);
                    }
                }
            }
        }
        CounterWidth::U32 => {
            let v = mem.load32(addr)?;
            let next = match rule {
                CounterRule::Saturate => v.saturating_add(1),
                CounterRule::Wrap | CounterRule::StopAtShortMax => v.wrapping_add(1),
            };
            mem.store32(addr, next)?;
        }
        CounterWidth::U64 => {
            let v = mem.load64(addr)?;
            let next = match rule {
                CounterRule::Saturate => v.saturating_add(1),
                CounterRule::Wrap | CounterRule::StopAtShortMax => v.wrapping_add(1),
            };
            mem.store64(addr, next)?;
        }
    }
    Ok(Bumped::Counted)
}
