//! `irix-emu prof`: run a program with the kernel profiling its text from
//! outside, as if it had called sprofil with one PROF_UINT counter per
//! `--granularity` bytes, then write gmon.out and print the flat profile.
//!
//! `--exact` adds what no sampling kernel can: every retired cycle charged
//! to its PC through the interpreter's Observer hook, so the report shows
//! each function's sampled share beside its exact share.

use std::io::Write;

use crate::profile::{call_profile, exact_histograms, sampled_histograms};
use crate::program;
use cpu_mips::Observer;
use irix_kernel::profiling::{CallGraph, FunctionRange, HostProfile};
use profile_formats::callgraph::{self, CallProfile, ExactCost};

use super::args::{split_command, Format, ProfArgs};
use super::launch::{launch, outcome_status, run_kernel};
use super::output::{cannot_write, write_report, ProfileView};
use super::{interrupt, say, Failure};
use crate::exit;
use profile_formats::files::TempFiles;
use profile_formats::{gmon, report};

/// Cycles and instructions retired at each instruction of the text, for --exact.
pub struct ExactCycles {
    base: u32,
    cycles: Vec<u64>,
    instructions: Vec<u64>,
}

impl ExactCycles {
    /// Covers [low, high) with one slot per 4-byte instruction.
    pub fn new(low: u32, high: u32) -> Self {
        let n = ((high - low) / 4) as usize;
        ExactCycles {
            base: low,
            cycles: vec![0; n],
            instructions: vec![0; n],
        }
    }

    /// Every instruction that retired, with its counts, in address order.
    pub fn costs(&self) -> Vec<ExactCost> {
        self.cycles
            .iter()
            .zip(&self.instructions)
            .enumerate()
            .filter(|(_, (_, &n))| n > 0)
            .map(|(i, (&cycles, &instructions))| ExactCost {
                pc: self.base + 4 * i as u32,
                instructions,
                cycles,
            })
            .collect()
    }
}

impl Observer for ExactCycles {
    #[inline(always)]
    fn retire(&mut self, pc: u32, cycles: u64) {
        let i = (pc.wrapping_sub(self.base) >> 2) as usize;
        if let (Some(c), Some(n)) = (self.cycles.get_mut(i), self.instructions.get_mut(i)) {
            *c += cycles;
            *n += 1;
        }
    }
}

pub fn prof(args: &ProfArgs) -> Result<u8, Failure> {
    if args.format == Format::Pprof && args.report.is_none() {
        return Err(Failure::new(
            exit::EMULATOR_FAILURE,
            "prof: --format pprof is binary: name its file with --report FILE",
        ));
    }
    // Before any thread starts (launch may start the --timeout watchdog).
    let interrupts = interrupt::catch();
    let temps = interrupts.temp_files();
    // The output file is created (as a temporary beside it) before the
    // guest runs: a profile that cannot be written fails now, not after.
    let output = gmon::GmonOutput::create(temps, &args.output)
        .map_err(|e| Failure::new(exit::EMULATOR_FAILURE, e.to_string()))?;
    for extra in [&args.report, &args.svg].into_iter().flatten() {
        check_output_dir(extra)?;
    }
    // --exact's figures live in the call-graph sidecar, so that `report`
    // has them too: it tracks calls as --callgraph does.
    let tracking =
        args.callgraph || args.exact || args.svg.is_some() || args.format.wants_call_graph();
    let (program, guest_args) = split_command(&args.command)?;
    let mut l = launch(&args.machine, &program, guest_args)?;
    interrupts.attach(&mut l.kernel);
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
    if args.format == Format::Firefox {
        l.kernel
            .record_timeline(irix_kernel::profiling::TimelineImage::of(
                l.name.clone(),
                &l.exe,
            ));
    }

    let (low, high) = (
        ranges.iter().map(|r| r.0).min().unwrap_or(0),
        ranges.iter().map(|r| r.1).max().unwrap_or(0),
    );
    let symbols = program::functions_of(&l.exe);
    if tracking {
        let (regions, kept) = report::charge::function_regions(&symbols, u64::from(high));
        let functions: Vec<FunctionRange> = regions
            .iter()
            .zip(kept)
            .map(|(r, _)| FunctionRange {
                start: r.start as u32,
                end: r.end.min(u64::from(u32::MAX)) as u32,
            })
            .collect();
        l.kernel.set_call_graph(CallGraph::new(&functions));
    }
    if args.syscalls {
        l.kernel.tally_syscalls();
    }
    let started = std::time::Instant::now();
    let gdb = args.machine.gdb.as_ref();
    let ran = if args.exact {
        let mut obs = ExactCycles::new(low, high);
        run_kernel(&mut l.kernel, l.pid, &mut obs, gdb).map(|outcome| (outcome, Some(obs)))
    } else {
        run_kernel(&mut l.kernel, l.pid, &mut (), gdb).map(|outcome| (outcome, None))
    };
    // Dropped before the kernel: a signal while the output (the translation
    // cache's pack too) is written ends irix-emu at once, removing the
    // scratch directory and temporaries.
    let _finishing = interrupts.run_ended();
    super::translations::flush(&mut l.kernel);
    let (outcome, exact) = ran?;
    let host = started.elapsed();
    let (code, line) = outcome_status(&l.name, &outcome);
    if let Some(line) = line {
        say(format_args!("{line}"));
    }

    let call = l.kernel.take_call_graph().map(|cg| {
        let costs = exact.as_ref().map(ExactCycles::costs).unwrap_or_default();
        call_profile(&cg, hz, l.kernel.config.cpu_hz, costs, &l.bytes)
    });
    let recorded = l.kernel.take_timeline();
    let Some(outside) = l.kernel.outside_profile() else {
        return Err(Failure::new(
            exit::EMULATOR_FAILURE,
            "prof: the profile was lost",
        ));
    };
    let hists = sampled_histograms(&outside.hist, hz);
    let arcs = call
        .as_ref()
        .map(CallProfile::gmon_arcs)
        .unwrap_or_default();
    output
        .commit_with_arcs(&hists, &arcs)
        .map_err(|e| Failure::new(exit::EMULATOR_FAILURE, e.to_string()))?;
    write_or_remove_sidecar(temps, &args.output, call.as_ref())?;
    let syscalls = l
        .kernel
        .syscall_tally()
        .map(|t| syscall_profile(t, l.kernel.config.cpu_hz));
    write_or_remove_syscalls(temps, &args.output, syscalls.as_ref())?;

    let texts = program::texts_of(&l.exe);
    let timeline = recorded.map(|t| {
        if t.events_dropped > 0 {
            say(format_args!(
                "the timeline kept its first {} events; {} later ones are not in it",
                t.events.len(),
                t.events_dropped
            ));
        }
        let f = report::stacks::Functions::new(&symbols, u64::from(high));
        crate::profile::firefox_timeline(&t, &f, &l.name, l.kernel.config.cpu_hz, hz)
    });
    let view = ProfileView {
        name: &l.name,
        elf: &l.bytes,
        symbols: &symbols,
        texts: &texts,
        hists: &hists,
        rate_hz: hz,
        arcs: &arcs,
        call: call.as_ref(),
        timeline: timeline.as_ref(),
    };
    if let Some(svg) = &args.svg {
        write_report(temps, svg, |mut out| view.render_svg(&mut out))?;
        say(format_args!("flame graph written to {}", svg.display()));
    }
    if !matches!(args.format, Format::Text | Format::Json) || args.report.is_some() {
        match &args.report {
            Some(path) => {
                write_report(temps, path, |out| view.render(args.format, out))?;
                say(format_args!(
                    "{} report written to {}",
                    format_name(args.format),
                    path.display()
                ));
            }
            None => view
                .render(args.format, &mut std::io::stderr().lock())
                .map_err(|e| {
                    Failure::new(exit::EMULATOR_FAILURE, format!("writing the report: {e}"))
                })?,
        }
        if args.machine.stats {
            super::run::print_stats(&l.kernel, host);
        }
        return Ok(code);
    }
    let objects = objects_of(&l.kernel, outside, hz);
    let unmapped: u64 = outside.unmapped.values().sum();
    let mut err = std::io::stderr().lock();
    // Instructions retired per function of the program (the counts
    // IRIX's prof -pixie reports), then cycles per bin.
    let instructions = exact.as_ref().map(|obs| {
        let per_insn = exact_histograms(obs.base, &obs.instructions, 4, 1);
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
    if args.format == Format::Text {
        // The flat profile's seconds are the tick's, on the virtual clock:
        // say so, and what the host took, before a reader compares them.
        // (The host's time has a line of its own, as in --stats, so runs
        // compare equal without it.)
        let _ = writeln!(
            err,
            "irix-emu: the seconds below are virtual time: ticks of the {hz} Hz clock on a {} MHz R4000\n\
             irix-emu: host seconds    {:.2} (what the host took)",
            l.kernel.config.cpu_hz / 1_000_000,
            host.as_secs_f64()
        );
    }
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
            if view.has_call_graph() {
                writeln!(err)?;
                view.render_call_graph(&mut err)?;
            }
            Ok(())
        }),
        // Text's and JSON's are the only formats left here (the view
        // rendered the others above); JSON carries every object.
        _ => report::render_json_with_objects(&entries, hz, None, &totals, &mut err),
    };
    written
        .map_err(|e| Failure::new(exit::EMULATOR_FAILURE, format!("writing the report: {e}")))?;
    if let Some(s) = &syscalls {
        s.render_text(&mut err).map_err(|e| {
            Failure::new(exit::EMULATOR_FAILURE, format!("writing the report: {e}"))
        })?;
    }
    let _ = writeln!(
        err,
        "irix-emu: {} samples at {hz} Hz ({} outside the text) written to {}",
        outside.hist.total(),
        outside.hist.outside(),
        args.output.display()
    );
    let _ = writeln!(
        err,
        "irix-emu: next: irix-emu report {} {}  (--format json|callgrind|pprof|speedscope, --svg flame.svg; \
         with --callgraph, a call graph)",
        program.display(),
        args.output.display()
    );
    if args.machine.stats {
        super::run::print_stats(&l.kernel, host);
    }
    Ok(code)
}

/// A format's name as the options spell it.
fn format_name(format: Format) -> String {
    use clap::ValueEnum;
    format
        .to_possible_value()
        .map_or_else(|| format!("{format:?}"), |v| v.get_name().to_string())
}

/// The kernel's tally as the format keeps it.
fn syscall_profile(
    tally: &irix_kernel::profiling::SyscallTally,
    cpu_hz: u64,
) -> profile_formats::syscalls::SyscallProfile {
    profile_formats::syscalls::SyscallProfile {
        cpu_hz,
        processes: tally
            .processes
            .iter()
            .map(|(&pid, p)| profile_formats::syscalls::ProcessRows {
                pid,
                name: p.name.clone(),
                calls: p
                    .calls
                    .iter()
                    .map(|(name, t)| profile_formats::syscalls::CallRow {
                        name: name.clone(),
                        calls: t.calls,
                        errors: t.errors,
                        cycles: t.sys_cycles,
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// Writes the system-call sidecar beside gmon.out, or removes a stale one.
fn write_or_remove_syscalls(
    temps: &TempFiles,
    gmon: &std::path::Path,
    syscalls: Option<&profile_formats::syscalls::SyscallProfile>,
) -> Result<(), Failure> {
    let path = profile_formats::syscalls::sidecar_path(gmon);
    let result = match syscalls {
        Some(s) => temps.write_atomically(&path, s.encode().as_bytes()),
        None => match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        },
    };
    result.map_err(|e| cannot_write(&path, &e))
}

/// Writes the call-graph sidecar beside gmon.out, or removes a stale one
/// (a profile without call tracking must not be read with old stacks).
fn write_or_remove_sidecar(
    temps: &TempFiles,
    gmon: &std::path::Path,
    call: Option<&CallProfile>,
) -> Result<(), Failure> {
    let path = callgraph::sidecar_path(gmon);
    let result = match call {
        Some(c) => callgraph::write_sidecar(temps, &path, c),
        None => match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        },
    };
    result.map_err(|e| cannot_write(&path, &e))
}

/// Refuses a --report or --svg file whose directory does not exist before
/// the guest runs, so a long run is not wasted on output that cannot be
/// written.
fn check_output_dir(output: &std::path::Path) -> Result<(), Failure> {
    let dir = match output.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    if dir.is_dir() {
        Ok(())
    } else {
        Err(Failure::new(
            exit::EMULATOR_FAILURE,
            format!(
                "{}: cannot write: {} is not a directory",
                output.display(),
                dir.display()
            ),
        ))
    }
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
                .map(|host| program::object_functions(&host, low))
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
