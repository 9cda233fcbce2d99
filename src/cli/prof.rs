//! `irix-emu prof`: run a program with the kernel profiling its text from
//! outside, as if it had called sprofil with one PROF_UINT counter per
//! `--granularity` bytes, then write gmon.out and print the flat profile.
//!
//! `--exact` adds what no sampling kernel can: every retired cycle charged
//! to its PC through the interpreter's Observer hook, so the report shows
//! each function's sampled share beside its exact share.

use std::io::Write;

use crate::profile::{exact_histograms, sampled_histograms};
use cpu_mips::Observer;
use irix_kernel::profiling::HostProfile;

use super::args::{split_command, ProfArgs};
use super::launch::{launch, outcome_status};
use super::{say, Failure};
use crate::exit;
use crate::gdb::run_kernel;
use crate::gmon;
use crate::report;

/// Cycles retired at each instruction of the text, for --exact.
pub struct ExactCycles {
    base: u32,
    cycles: Vec<u64>,
}

impl ExactCycles {
    /// Covers [low, high) with one slot per 4-byte instruction.
    pub fn new(low: u32, high: u32) -> Self {
        ExactCycles {
            base: low,
            cycles: vec![0; ((high - low) / 4) as usize],
        }
    }
}

impl Observer for ExactCycles {
    #[inline(always)]
    fn retire(&mut self, pc: u32, cycles: u64) {
        if let Some(slot) = self
            .cycles
            .get_mut((pc.wrapping_sub(self.base) >> 2) as usize)
        {
            *slot += cycles;
        }
    }
}

pub fn prof(args: &ProfArgs) -> Result<u8, Failure> {
    // The output file is created (as a temporary beside it) before the
    // guest runs: a profile that cannot be written fails now, not after.
    let output = gmon::GmonOutput::create(&args.output)
        .map_err(|e| Failure::new(exit::EMULATOR_FAILURE, e.to_string()))?;
    let (program, guest_args) = split_command(&args.command)?;
    let mut l = launch(&args.machine, &program, guest_args)?;
    let ranges = l.exe.text_ranges();
    if ranges.is_empty() {
        return Err(Failure::new(
            exit::NOT_RUNNABLE,
            format!("{}: no executable segment to profile", l.name),
        ));
    }
    let hz = l
        .kernel
        .config
        .tunables
        .sample_hz(l.kernel.config.personality, args.fast);
    l.kernel
        .set_outside_profile(l.pid, HostProfile::new(&ranges, args.granularity), hz);

    let (low, high) = (
        ranges.iter().map(|r| r.0).min().unwrap_or(0),
        ranges.iter().map(|r| r.1).max().unwrap_or(0),
    );
    let started = std::time::Instant::now();
    let gdb = args.machine.gdb.as_ref();
    let (outcome, exact) = if args.exact {
        let mut obs = ExactCycles::new(low, high);
        let outcome = run_kernel(&mut l.kernel, l.pid, &mut obs, gdb)?;
        (outcome, Some(obs))
    } else {
        (run_kernel(&mut l.kernel, l.pid, &mut (), gdb)?, None)
    };
    let host = started.elapsed();
    let (code, line) = outcome_status(&l.name, &outcome);
    if let Some(line) = line {
        say(format_args!("{line}"));
    }

    let Some(outside) = l.kernel.outside_profile() else {
        return Err(Failure::new(
            exit::EMULATOR_FAILURE,
            "prof: the profile was lost",
        ));
    };
    let hists = sampled_histograms(&outside.hist, hz);
    output
        .commit(&hists)
        .map_err(|e| Failure::new(exit::EMULATOR_FAILURE, e.to_string()))?;

    let symbols = report::functions_of(&l.exe);
    let mut err = std::io::stderr().lock();
    let written = match &exact {
        Some(obs) => {
            let exact = exact_histograms(
                obs.base,
                &obs.cycles,
                args.granularity,
                l.kernel.config.cpu_hz,
            );
            let entries = report::flat_profile_with_exact(&hists, &exact, &symbols);
            report::render_text(&entries, hz, &mut err).and_then(|_| {
                writeln!(err)?;
                report::render_exact_comparison(&entries, &mut err)
            })
        }
        None => report::render_text(&report::flat_profile(&hists, &symbols), hz, &mut err),
    };
    written
        .map_err(|e| Failure::new(exit::EMULATOR_FAILURE, format!("writing the report: {e}")))?;
    let _ = writeln!(
        err,
        "irix-emu: {} samples at {hz} Hz ({} outside the text) written to {}",
        outside.hist.total(),
        outside.hist.outside(),
        args.output.display()
    );
    if args.machine.stats {
        super::run::print_stats(&l.kernel, host);
    }
    Ok(code)
}
