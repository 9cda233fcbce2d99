//! Where system time went: each process's system calls with their counts,
//! errors and virtual system time (`prof --syscalls`), as strace -c tallies
//! them on Linux, rendered as text or JSON, and kept in a sidecar beside
//! gmon.out so that `report` shows them again.
//!
//! The sidecar, `GMON.syscalls`:
//!
//! ```text
//! irix-emu syscalls 1
//! cpu-hz 100000000
//! process 100 workload
//! call write 12 0 600
//! call (page faults) 0 0 4096
//! ```
//!
//! `process PID NAME` (the name is the rest of the line) starts a
//! process's rows; `call NAME CALLS ERRORS CYCLES` follows, NAME without
//! spaces except for the one row `(page faults)`: the memory work charged
//! between calls, so that a process's rows sum to its system time, the
//! `tms_stime` of times(2). Unknown lines are an error.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// First line of a sidecar.
pub const MAGIC: &str = "irix-emu syscalls 1";
/// The row of memory work charged outside any call.
pub const FAULTS: &str = "(page faults)";

/// One call's tally.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallRow {
    pub name: String,
    pub calls: u64,
    pub errors: u64,
    /// Virtual system time, in CPU cycles.
    pub cycles: u64,
}

/// One process's calls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessRows {
    pub pid: u32,
    pub name: String,
    pub calls: Vec<CallRow>,
}

impl ProcessRows {
    /// The rows most system time first, then most calls, then by name.
    pub fn sorted(&self) -> Vec<&CallRow> {
        let mut rows: Vec<&CallRow> = self.calls.iter().collect();
        rows.sort_by(|a, b| {
            b.cycles
                .cmp(&a.cycles)
                .then(b.calls.cmp(&a.calls))
                .then(a.name.cmp(&b.name))
        });
        rows
    }

    pub fn total_cycles(&self) -> u64 {
        self.calls.iter().map(|c| c.cycles).sum()
    }
}

/// Every process's calls and the clock that turns cycles into seconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SyscallProfile {
    pub cpu_hz: u64,
    pub processes: Vec<ProcessRows>,
}

impl SyscallProfile {
    fn seconds(&self, cycles: u64) -> f64 {
        cycles as f64 / self.cpu_hz.max(1) as f64
    }

    pub fn encode(&self) -> String {
        let mut s = format!("{MAGIC}\ncpu-hz {}\n", self.cpu_hz);
        for p in &self.processes {
            s += &format!("process {} {}\n", p.pid, p.name);
            for c in &p.calls {
                s += &format!("call {} {} {} {}\n", c.name, c.calls, c.errors, c.cycles);
            }
        }
        s
    }

    pub fn parse(text: &str) -> Result<SyscallProfile, String> {
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, MAGIC)) => {}
            _ => return Err(format!("not a system-call profile (no '{MAGIC}' line)")),
        }
        let mut profile = SyscallProfile::default();
        for (i, line) in lines {
            let bad = || format!("line {}: cannot read '{line}'", i + 1);
            let num = |s: &str| s.parse::<u64>().map_err(|_| bad());
            if let Some(hz) = line.strip_prefix("cpu-hz ") {
                profile.cpu_hz = num(hz)?;
            } else if let Some(rest) = line.strip_prefix("process ") {
                let (pid, name) = rest.split_once(' ').ok_or_else(bad)?;
                profile.processes.push(ProcessRows {
                    pid: pid.parse().map_err(|_| bad())?,
                    name: name.to_string(),
                    calls: Vec::new(),
                });
            } else if let Some(rest) = line.strip_prefix("call ") {
                let mut w = rest.rsplitn(4, ' ');
                let (cycles, errors, calls, name) = (w.next(), w.next(), w.next(), w.next());
                let (Some(cycles), Some(errors), Some(calls), Some(name)) =
                    (cycles, errors, calls, name)
                else {
                    return Err(bad());
                };
                let process = profile.processes.last_mut().ok_or_else(bad)?;
                process.calls.push(CallRow {
                    name: name.to_string(),
                    calls: num(calls)?,
                    errors: num(errors)?,
                    cycles: num(cycles)?,
                });
            } else {
                return Err(bad());
            }
        }
        Ok(profile)
    }

    /// strace -c's table, one per process.
    pub fn render_text(&self, out: &mut dyn Write) -> io::Result<()> {
        const RULE: &str = "------ ----------- ----------- --------- --------- ----------------";
        for p in &self.processes {
            let total = p.total_cycles();
            writeln!(
                out,
                "\nSystem calls of process {} ({}), by virtual system time:\n",
                p.pid, p.name
            )?;
            writeln!(
                out,
                "% time     seconds  usecs/call     calls    errors syscall"
            )?;
            writeln!(out, "{RULE}")?;
            for c in p.sorted() {
                let share = 100.0 * c.cycles as f64 / total.max(1) as f64;
                let per_call = match c.calls {
                    0 => String::new(),
                    n => format!("{:.0}", 1e6 * self.seconds(c.cycles) / n as f64),
                };
                let errors = match c.errors {
                    0 => String::new(),
                    n => n.to_string(),
                };
                writeln!(
                    out,
                    "{share:6.2} {:11.6} {per_call:>11} {:>9} {errors:>9} {}",
                    self.seconds(c.cycles),
                    c.calls,
                    c.name
                )?;
            }
            writeln!(out, "{RULE}")?;
            let calls: u64 = p.calls.iter().map(|c| c.calls).sum();
            let errors: u64 = p.calls.iter().map(|c| c.errors).sum();
            writeln!(
                out,
                "100.00 {:11.6} {:>11} {calls:>9} {errors:>9} total",
                self.seconds(total),
                ""
            )?;
        }
        Ok(())
    }

    /// The same as JSON: `{"cpu_hz": N, "processes": [{"pid", "name",
    /// "seconds", "calls": [{"name", "calls", "errors", "cycles",
    /// "seconds"}]}]}`, each process's calls in the text's order.
    pub fn render_json(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "{{\"cpu_hz\": {}, \"processes\": [", self.cpu_hz)?;
        for (i, p) in self.processes.iter().enumerate() {
            let sep = if i + 1 < self.processes.len() {
                ","
            } else {
                ""
            };
            let calls: Vec<String> = p
                .sorted()
                .iter()
                .map(|c| {
                    format!(
                        "{{\"name\": {}, \"calls\": {}, \"errors\": {}, \"cycles\": {}, \"seconds\": {:.9}}}",
                        json_string(&c.name),
                        c.calls,
                        c.errors,
                        c.cycles,
                        self.seconds(c.cycles)
                    )
                })
                .collect();
            writeln!(
                out,
                "  {{\"pid\": {}, \"name\": {}, \"seconds\": {:.9}, \"calls\": [\n    {}\n  ]}}{sep}",
                p.pid,
                json_string(&p.name),
                self.seconds(p.total_cycles()),
                calls.join(",\n    ")
            )?;
        }
        writeln!(out, "]}}")
    }
}

/// A JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `GMON.syscalls`, beside the gmon.out it belongs to.
pub fn sidecar_path(gmon: &Path) -> PathBuf {
    let mut s = gmon.as_os_str().to_owned();
    s.push(".syscalls");
    PathBuf::from(s)
}

/// Reads the sidecar beside `gmon`: `Ok(None)` when there is none.
pub fn read_sidecar(gmon: &Path) -> Result<Option<SyscallProfile>, String> {
    let path = sidecar_path(gmon);
    match std::fs::read_to_string(&path) {
        Ok(text) => SyscallProfile::parse(&text)
            .map(Some)
            .map_err(|e| format!("{}: {e}", path.display())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: cannot read: {e}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> SyscallProfile {
        SyscallProfile {
            cpu_hz: 100_000_000,
            processes: vec![ProcessRows {
                pid: 100,
                name: "my prog".into(),
                calls: vec![
                    CallRow {
                        name: "open".into(),
                        calls: 2,
                        errors: 1,
                        cycles: 1000,
                    },
                    CallRow {
                        name: "write".into(),
                        calls: 10,
                        errors: 0,
                        cycles: 5000,
                    },
                    CallRow {
                        name: FAULTS.into(),
                        calls: 0,
                        errors: 0,
                        cycles: 4000,
                    },
                ],
            }],
        }
    }

    #[test]
    fn the_sidecar_round_trips() {
        let p = sample();
        assert_eq!(SyscallProfile::parse(&p.encode()), Ok(p));
        assert!(SyscallProfile::parse("irix-emu callgraph 1\n").is_err());
        assert!(SyscallProfile::parse(&format!("{MAGIC}\ncall x 1 2 3\n")).is_err());
    }

    #[test]
    fn the_table_is_sorted_by_time_and_totals_the_system_time() {
        let mut text = Vec::new();
        sample().render_text(&mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        let rows: Vec<&str> = text.lines().filter(|l| l.contains('.')).collect();
        assert_eq!(
            rows[0],
            " 50.00    0.000050           5        10           write"
        );
        assert_eq!(
            rows[1],
            " 40.00    0.000040                     0           (page faults)"
        );
        assert_eq!(
            rows[2],
            " 10.00    0.000010           5         2         1 open"
        );
        assert_eq!(
            rows[3],
            "100.00    0.000100                    12         1 total"
        );
    }
}
