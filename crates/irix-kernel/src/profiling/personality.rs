//! Which system's manual page the profiling calls follow.
//!
//! Contents: [`Personality`] (parsing, display), [`ParsePersonalityError`],
//! and the per-personality rules that are not part of the PC-to-counter
//! mapping itself: the profiling clock ([`Personality::clock_hz`]) and what a
//! counter does when it is full ([`CounterRule`]).

use std::fmt;
use std::str::FromStr;

/// The profiling clock of AIX: "After this call, the user's program counter
/// (pc) is examined 60 times a second." (aix profil).
pub const AIX_HZ: u32 = 60;

/// The system whose manual page decides where the pages disagree
/// (docs/personalities.md). IRIX is the default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Personality {
    /// irix-sprofil.2.txt: sprofil(2), profil(2) as its one-region case.
    #[default]
    Irix,
    /// solaris-pcsample-profil.2.txt: profil(2) with the 32767 stop, pcsample(2).
    Solaris,
    /// darwin-profil.2.txt: the `[(pc - offset) / 2] * scale / 65536` bins.
    Darwin,
    /// aix-profil.txt: 60 Hz, 16-bit scale, the array-of-struct form.
    Aix,
    /// hpux-sprofil.2.txt: PROF_UINT64 and saturating counters.
    Hpux,
}

/// `FromStr` failure: the name is none of irix, solaris, darwin, aix, hpux.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown personality {0:?} (expected irix, solaris, darwin, aix or hpux)")]
pub struct ParsePersonalityError(pub String);

impl Personality {
    /// Every personality, in documentation order.
    pub const ALL: [Personality; 5] = [
        Personality::Irix,
        Personality::Solaris,
        Personality::Darwin,
        Personality::Aix,
        Personality::Hpux,
    ];

    /// The lower-case name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Personality::Irix => "irix",
            Personality::Solaris => "solaris",
            Personality::Darwin => "darwin",
            Personality::Aix => "aix",
            Personality::Hpux => "hpux",
        }
    }

    /// The ordinary profiling clock rate: `hz` (the HZ tunable), except AIX
    /// whose page fixes 60 samples a second.
    pub fn clock_hz(self, hz: u32) -> u32 {
        match self {
            Personality::Aix => AIX_HZ,
            _ => hz,
        }
    }

    /// What incrementing a full counter does under this personality.
    pub fn counter_rule(self) -> CounterRule {
        match self {
            // hpux sprofil(2): "... is incremented, unless that would result in overflow."
            Personality::Hpux => CounterRule::Saturate,
            // solaris profil(2): "Once one of the counts reaches 32767 (the size of
            // a short int), profiling stops and no more data is collected."
            Personality::Solaris => CounterRule::StopAtShortMax,
            // IRIX, Darwin and AIX say nothing: counters wrap at their width (BSD).
            Personality::Irix | Personality::Darwin | Personality::Aix => CounterRule::Wrap,
        }
    }
}

/// What a counter update does at the top of the counter's range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterRule {
    /// Wrap around at the counter's width (IRIX, Darwin, AIX).
    Wrap,
    /// Stay at the maximum (HP-UX: "unless that would result in overflow").
    Saturate,
    /// Solaris: a 16-bit count that reaches 32767 stops all profiling; wider
    /// counters (PROF_UINT through sprofil) wrap.
    StopAtShortMax,
}

impl fmt::Display for Personality {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Personality {
    type Err = ParsePersonalityError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Personality::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| ParsePersonalityError(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_from_str_and_display() {
        for p in Personality::ALL {
            assert_eq!(p.to_string().parse::<Personality>(), Ok(p));
        }
    }

    #[test]
    fn unknown_name_is_an_error() {
        assert_eq!(
            "vms".parse::<Personality>(),
            Err(ParsePersonalityError("vms".into()))
        );
    }

    #[test]
    fn default_is_irix() {
        assert_eq!(Personality::default(), Personality::Irix);
    }
}
