//! The call-graph side of a profile (`prof --callgraph`): what a call
//! tracker measured, and the sidecar file that carries it from `prof` to
//! `report`.
//!
//! Contents
//! - [`CallProfile`], [`CallArcRecord`], [`ExactCost`]: the data.
//! - [`CallProfile::gmon_arcs`]: the arcs as gmon.out tag-1 records.
//! - [`sidecar_path`], [`CallProfile::encode`], [`CallProfile::parse`],
//!   [`write_sidecar`], [`read_sidecar`]: the sidecar.
//!
//! gmon.out can carry arcs (gprof reads them) but not the stack seen at
//! each sample, nor exact costs: gprof stops at an unknown record tag. So
//! those go to a sidecar text file beside it, `GMON.callgraph`:
//!
//! ```text
//! irix-emu callgraph 2
//! rate 100
//! cpu-hz 100000000
//! program 0x6c62272e07bb0142
//! arc 0x004001f0 0x00400400 call 1 52311 60432
//! stack 17 0x00400080 0x004001f0 0x00400410
//! exact 0x00400410 120 131
//! ```
//!
//! `arc SITE CALLEE call|signal CALLS INSTRUCTIONS CYCLES` (inclusive costs
//! while the callee's frame was on the stack); `stack COUNT PC...`: the call
//! sites from the outermost frame in, then the sampled PC; `exact PC
//! INSTRUCTIONS CYCLES`: retired at PC (only with `--exact`); `program ID`:
//! the profiled executable's [`program_identity`] (absent in files written
//! before it was recorded). Numbers are
//! decimal, addresses hex with `0x`. Unknown lines are an error.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::files::TempFiles;
use crate::gmon::{self, CallArc};

/// First line of a sidecar, before its format version.
pub const SIDECAR_MAGIC: &str = "irix-emu callgraph";
/// The format written: 2 added the `program` record.
pub const SIDECAR_VERSION: u32 = 2;

/// One arc with its counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallArcRecord {
    /// Address of the call instruction (for a signal: the interrupted PC).
    pub site: u32,
    /// The callee's entry (for a signal: the trampoline).
    pub callee: u32,
    /// Entered by signal delivery rather than a call.
    pub signal: bool,
    pub calls: u64,
    /// Inclusive instructions and cycles.
    pub instructions: u64,
    pub cycles: u64,
}

/// Instructions and cycles retired at one PC (`--exact`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct ExactCost {
    pub pc: u32,
    pub instructions: u64,
    pub cycles: u64,
}

/// Everything the call-graph reports need beyond the histograms.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CallProfile {
    /// Sampling rate of the stacks (the histogram's).
    pub rate_hz: u32,
    /// CPU clock, for turning cycles into seconds.
    pub cpu_hz: u64,
    pub arcs: Vec<CallArcRecord>,
    /// Sample counts per real stack: call sites outermost first, then the
    /// sampled PC. Sorted.
    pub stacks: Vec<(Vec<u32>, u64)>,
    /// Per-PC exact costs, sorted by PC; empty unless `--exact`.
    pub exact: Vec<ExactCost>,
    /// The [`program_identity`] of the program profiled (None in a file
    /// written before it was recorded).
    pub program: Option<u64>,
}

/// What tells one build of a program from another: FNV-1a (64 bits) of
/// the executable file's bytes. A report checks a sidecar's against the
/// program it is given, so a profile is never read with another build's
/// symbols.
pub fn program_identity(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// What is wrong with a sidecar file.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SidecarError {
    #[error("not an irix-emu call-graph file (first line {0:?})")]
    BadMagic(String),
    #[error("call-graph format {0}, newer than this irix-emu reads (up to {SIDECAR_VERSION})")]
    Newer(u32),
    #[error("line {line}: {what}")]
    BadLine { line: usize, what: String },
}

impl CallProfile {
    /// The call arcs as gmon.out records: from the call instruction to the
    /// callee's entry, with exact counts. Signal deliveries are left out (no
    /// instruction called the trampoline; gprof lists it as spontaneous).
    pub fn gmon_arcs(&self) -> Vec<CallArc> {
        self.arcs
            .iter()
            .filter(|a| !a.signal)
            .flat_map(|a| gmon::arc_records(a.site, a.callee, a.calls))
            .collect()
    }

    /// The sidecar text.
    pub fn encode(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{SIDECAR_MAGIC} {SIDECAR_VERSION}");
        let _ = writeln!(s, "rate {}", self.rate_hz);
        let _ = writeln!(s, "cpu-hz {}", self.cpu_hz);
        if let Some(id) = self.program {
            let _ = writeln!(s, "program {id:#018x}");
        }
        for a in &self.arcs {
            let _ = writeln!(
                s,
                "arc {:#010x} {:#010x} {} {} {} {}",
                a.site,
                a.callee,
                if a.signal { "signal" } else { "call" },
                a.calls,
                a.instructions,
                a.cycles
            );
        }
        for (stack, n) in &self.stacks {
            let _ = write!(s, "stack {n}");
            for pc in stack {
                let _ = write!(s, " {pc:#010x}");
            }
            s.push('\n');
        }
        for e in &self.exact {
            let _ = writeln!(s, "exact {:#010x} {} {}", e.pc, e.instructions, e.cycles);
        }
        s
    }

    /// Parses sidecar text; every malformed line is an error naming it.
    pub fn parse(text: &str) -> Result<Self, SidecarError> {
        let mut lines = text.lines().enumerate();
        let first = lines.next().map_or("", |(_, l)| l);
        let version = first
            .strip_prefix(SIDECAR_MAGIC)
            .and_then(|v| v.strip_prefix(' '))
            .and_then(|v| v.parse::<u32>().ok())
            .filter(|&v| v >= 1)
            .ok_or_else(|| SidecarError::BadMagic(first.chars().take(40).collect()))?;
        if version > SIDECAR_VERSION {
            return Err(SidecarError::Newer(version));
        }
        let mut p = CallProfile::default();
        for (i, line) in lines {
            let bad = |what: &str| SidecarError::BadLine {
                line: i + 1,
                what: what.to_string(),
            };
            let mut words = line.split_ascii_whitespace();
            let addr = |w: &mut std::str::SplitAsciiWhitespace<'_>| {
                w.next()
                    .and_then(|t| t.strip_prefix("0x"))
                    .and_then(|t| u32::from_str_radix(t, 16).ok())
                    .ok_or_else(|| bad("expected an address (0x...)"))
            };
            let num = |w: &mut std::str::SplitAsciiWhitespace<'_>| {
                w.next()
                    .and_then(|t| t.parse::<u64>().ok())
                    .ok_or_else(|| bad("expected a number"))
            };
            match words.next() {
                None => continue,
                Some("rate") => {
                    p.rate_hz =
                        u32::try_from(num(&mut words)?).map_err(|_| bad("rate too large"))?
                }
                Some("cpu-hz") => p.cpu_hz = num(&mut words)?,
                Some("program") => {
                    p.program = Some(
                        words
                            .next()
                            .and_then(|t| t.strip_prefix("0x"))
                            .and_then(|t| u64::from_str_radix(t, 16).ok())
                            .ok_or_else(|| bad("expected the program's identity (0x...)"))?,
                    )
                }
                Some("arc") => {
                    let site = addr(&mut words)?;
                    let callee = addr(&mut words)?;
                    let signal = match words.next() {
                        Some("call") => false,
                        Some("signal") => true,
                        _ => return Err(bad("expected call or signal")),
                    };
                    p.arcs.push(CallArcRecord {
                        site,
                        callee,
                        signal,
                        calls: num(&mut words)?,
                        instructions: num(&mut words)?,
                        cycles: num(&mut words)?,
                    });
                }
                Some("stack") => {
                    let n = num(&mut words)?;
                    let mut stack = Vec::new();
                    while words.clone().next().is_some() {
                        stack.push(addr(&mut words)?);
                    }
                    if stack.is_empty() {
                        return Err(bad("a stack needs at least the sampled PC"));
                    }
                    p.stacks.push((stack, n));
                }
                Some("exact") => p.exact.push(ExactCost {
                    pc: addr(&mut words)?,
                    instructions: num(&mut words)?,
                    cycles: num(&mut words)?,
                }),
                Some(other) => return Err(bad(&format!("unknown record {other:?}"))),
            }
            if words.next().is_some() {
                return Err(bad("unexpected text at the end"));
            }
        }
        p.stacks.sort();
        p.exact.sort();
        Ok(p)
    }

    /// Total samples over all stacks.
    pub fn total_samples(&self) -> u64 {
        self.stacks.iter().map(|(_, n)| n).sum()
    }
}

/// The sidecar beside a gmon.out: `GMON.callgraph`.
pub fn sidecar_path(gmon: &Path) -> PathBuf {
    let mut s = gmon.as_os_str().to_owned();
    s.push(".callgraph");
    PathBuf::from(s)
}

/// Writes the sidecar atomically (its temporary file noted in `temps`).
pub fn write_sidecar(temps: &TempFiles, path: &Path, p: &CallProfile) -> std::io::Result<()> {
    temps.write_atomically(path, p.encode().as_bytes())
}

/// Reads the sidecar beside `gmon`: `Ok(None)` when there is none.
pub fn read_sidecar(gmon: &Path) -> Result<Option<CallProfile>, String> {
    let path = sidecar_path(gmon);
    match std::fs::read_to_string(&path) {
        Ok(text) => CallProfile::parse(&text)
            .map(Some)
            .map_err(|e| format!("{}: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: cannot read: {e}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sidecar_round_trips() {
        let p = CallProfile {
            rate_hz: 100,
            cpu_hz: 100_000_000,
            arcs: vec![CallArcRecord {
                site: 0x400100,
                callee: 0x400200,
                signal: false,
                calls: 3,
                instructions: 40,
                cycles: 50,
            }],
            stacks: vec![(vec![0x400100, 0x400204], 7)],
            exact: vec![ExactCost {
                pc: 0x400204,
                instructions: 9,
                cycles: 12,
            }],
            program: Some(program_identity(b"\x7fELF")),
        };
        assert_eq!(CallProfile::parse(&p.encode()), Ok(p));
    }

    #[test]
    fn version_1_files_are_read_and_a_newer_version_is_named() {
        let old = CallProfile::parse("irix-emu callgraph 1\nrate 100\nstack 3 0x00400000\n")
            .expect("a version 1 file");
        assert_eq!((old.rate_hz, old.program), (100, None));
        assert_eq!(
            CallProfile::parse("irix-emu callgraph 3\nrate 100\n"),
            Err(SidecarError::Newer(3))
        );
        assert!(matches!(
            CallProfile::parse("irix-emu callgraph x\n"),
            Err(SidecarError::BadMagic(_))
        ));
    }

    #[test]
    fn a_program_identity_is_fnv_1a_of_the_file() {
        // FNV-1a's published test vectors: the empty input and "a".
        assert_eq!(program_identity(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(program_identity(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn sidecar_errors_name_the_line() {
        let e = CallProfile::parse("irix-emu callgraph 1\nrate 100\nstack 3\n");
        assert_eq!(
            e,
            Err(SidecarError::BadLine {
                line: 3,
                what: "a stack needs at least the sampled PC".into()
            })
        );
        assert!(matches!(
            CallProfile::parse("gmon"),
            Err(SidecarError::BadMagic(_))
        ));
    }
}
