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

use super::args::{split_command, Format, ProfArgs};
use super::launch::{launch, outcome_status};
use super::{say, Failure};
use crate::exit;
use crate::gmon;
use crate::report;

/// Cycles retired at each instruction of the text, and how many times each
/// instruction retired, for --exact.
pub struct ExactCycles {
    base: u32,
    cycles: Vec<u64>,
    retired: Vec<u64>,
}

impl ExactCycles {
    /// Covers [low, high) with one slot per 4-byte instruction.
    pub fn new(low: u32, high: u32) -> Self {
        let slots = ((high - low) / 4) as usize;
        ExactCycles {
            base: low,
            cycles: vec![0; slots],
            retired: vec![0; slots],
        }
    }
}

impl Observer for ExactCycles {
    #[inline(always)]
    fn retire(&mut self, pc: u32, cycles: u64) {
        let i = (pc.wrapping_sub(self.base) >> 2) as usize;
        if let (Some(slot), Some(count)) = (self.cycles.get_mut(i), self.retired.get_mut(i)) {
            *slot += cycles;
            *count += 1;
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
    let (outcome, exact) = if args.exact {
        let mut obs = ExactCycles::new(low, high);
        let outcome = l.kernel.run_observed(&mut obs);
        (outcome, Some(obs))
    } else {
        (l.kernel.run(), None)
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
    let objects = objects_of(&l.kernel, outside, hz);
    let unmapped: u64 = outside.unmapped.values().sum();
    let mut err = std::io::stderr().lock();
    // Instructions retired per function of the program (the counts
    // IRIX's prof -pixie reports), then cycles per bin.
    let instructions = exact.as_ref().map(|obs| {
        let per_insn = exact_histograms(obs.base, &obs.retired, 4, 1);
        report::flat_profile(&per_insn, &symbols)
    });
    let exact = exact.map(|obs| {
        exact_histograms(
            obs.base,
            &obs.cycles,
            args.granularity,
            l.kernel.config.cpu_hz,
        )
    });
    let program_entries = match &exact {
        Some(exact) => report::flat_profile_with_exact(&hists, exact, &symbols),
        None => report::flat_profile(&hists, &symbols),
    };
    let totals = if objects.is_empty() && unmapped == 0 {
        Vec::new()
    } else {
        let path = program.display().to_string();
        let name = path.rsplit('/').next().unwrap_or_default().to_string();
        report::object_totals((&name, &path), &program_entries, &objects, unmapped)
    };
    let entries = report::profile_with_objects(program_entries, &objects);
    let written = match args.format {
        Format::Text => report::render_text(&entries, hz, &mut err).and_then(|_| {
            if !totals.is_empty() {
                report::render_object_totals(&totals, &mut err)?;
            }
            if exact.is_some() {
                writeln!(err)?;
                report::render_exact_comparison(&entries, &mut err)?;
            }
            if let Some(instructions) = &instructions {
                render_instructions(instructions, &mut err)?;
            }
            Ok(())
        }),
        Format::Json => report::render_json_with_objects(&entries, hz, None, &totals, &mut err),
        Format::Folded => report::render_folded(&entries, Some(&l.name), &mut err),
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

/// `--exact`: the instructions each function of the program retired, most
/// first (what a basic-block counter such as IRIX's pixie measures).
fn render_instructions(entries: &[report::FlatEntry], out: &mut impl Write) -> std::io::Result<()> {
    writeln!(out, "\nInstructions retired per function (exact)\n")?;
    writeln!(out, "   instructions  name")?;
    for e in entries {
        writeln!(out, "{:15}  {}", e.samples, e.name)?;
    }
    Ok(())
}

/// The shared objects (and the interpreter) that held sampled PCs, each with
/// one 4-byte bin per instruction over its text and its own symbols
/// (.symtab, else .dynsym) read from the guest's file system.
fn objects_of(
    kernel: &irix_kernel::Kernel,
    outside: &irix_kernel::profiling::OutsideProfile,
    rate_hz: u32,
) -> Vec<report::ObjectSamples> {
    outside
        .elsewhere
        .iter()
        .map(|(object, pcs)| {
            let hists: Vec<gmon::HistRecord> = object
                .text
                .iter()
                .map(|&(low, high)| {
                    let mut bins = vec![0u64; (high.saturating_sub(low) / 4) as usize];
                    for (&pc, &n) in pcs.range(low..high) {
                        if let Some(b) = bins.get_mut(((pc - low) / 4) as usize) {
                            *b += n;
                        }
                    }
                    gmon::HistRecord {
                        low_pc: low,
                        high_pc: low + bins.len() as u32 * 4,
                        rate_hz,
                        bins,
                    }
                })
                .collect();
            let low = object.text.iter().map(|t| t.0).min().unwrap_or(0);
            let symbols = kernel
                .host_path(&object.path)
                .map(|host| report::object_functions(&host, low))
                .unwrap_or_default();
            report::ObjectSamples {
                name: object
                    .path
                    .rsplit('/')
                    .next()
                    .unwrap_or_default()
                    .to_string(),
                path: object.path.clone(),
                hists,
                symbols,
            }
        })
        .collect()
}
