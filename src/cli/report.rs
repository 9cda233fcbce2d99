//! `irix-emu report PROGRAM FILE`: the flat profile of a gmon.out or of an
//! IRIX mon.out (told apart by content; docs/mon-out.md), as text (like
//! gprof -p, then the call graph like gprof -q when the file has arcs),
//! folded stacks, JSON, callgrind, pprof or speedscope; optionally source
//! lines, one function's annotated disassembly, and an SVG (a flame graph
//! when GMON.callgraph holds the real stacks, else the histogram).
//!
//! A truncated, foreign or mismatched gmon.out is refused with one line
//! and exit status 125 (`crate::exit::EMULATOR_FAILURE`).

use std::io::Write;

use super::args::{Format, ReportArgs};
use super::launch::load_program;
use super::output::{write_report, ProfileView};
use super::{say, Failure};
use crate::exit;
use crate::program;
use profile_formats::files::{read_bounded, InputError};
use profile_formats::{callgraph, gmon, monout, report};

fn bad_profile(message: impl std::fmt::Display) -> Failure {
    Failure::new(exit::EMULATOR_FAILURE, message.to_string())
}

/// What `report` read: the program's histograms, the shared objects'
/// samples (an IRIX mon.out has a segment per object; gmon.out has none).
pub(super) struct Profile {
    pub hists: Vec<gmon::HistRecord>,
    pub rate: u32,
    pub objects: Vec<report::ObjectSamples>,
    /// gmon.out's call arcs (none in a mon.out).
    pub arcs: Vec<gmon::CallArc>,
    /// The call-graph sidecar beside a gmon.out, when there is one.
    pub call: Option<callgraph::CallProfile>,
}

/// Reads the gmon.out or IRIX mon.out at `path` (told apart by their first
/// bytes), a profile of `exe` (named `name`); `root` is where a mon.out's
/// shared objects are read for their symbols.
pub(super) fn read_profile(
    path: &std::path::Path,
    root: Option<&std::path::Path>,
    exe: &loader::Executable,
    exe_bytes: &[u8],
    name: &str,
) -> Result<Profile, Failure> {
    // A regular file of gmon.out's size limit, whichever format it holds.
    let bytes = read_bounded(path, "gmon.out", gmon::MAX_GMON_BYTES).map_err(|e| {
        bad_profile(gmon::GmonFileError::Read {
            path: path.to_path_buf(),
            source: match e {
                InputError::Io(io) => io,
                other => std::io::Error::other(other.to_string()),
            },
        })
    })?;
    if monout::is_mon_out(&bytes) {
        let file = monout::parse_mon_out(&bytes)
            .map_err(|e| bad_profile(format!("{}: {e}", path.display())))?;
        return Ok(split_mon_out(file, exe, root));
    }
    let file = gmon::parse_gmon(&bytes).map_err(|e| bad_profile(e.in_file(path)))?;
    file.check_against_texts(name, &program::texts_of(exe))
        .map_err(|e| bad_profile(e.in_file(path)))?;
    let Some(rate) = file.rate_hz() else {
        return Err(bad_profile(format!(
            "{}: no histogram records (nothing was sampled)",
            path.display()
        )));
    };
    let hists = &file.histograms;
    let call = callgraph::read_sidecar(path).map_err(bad_profile)?;
    if let Some(c) = &call {
        let sampled: u64 = hists.iter().map(gmon::HistRecord::total).sum();
        if c.rate_hz != rate || c.total_samples() != sampled {
            return Err(bad_profile(format!(
                "{}: does not belong to {} ({} samples at {} Hz, the histogram has {sampled} at {rate} Hz)",
                callgraph::sidecar_path(path).display(),
                path.display(),
                c.total_samples(),
                c.rate_hz
            )));
        }
        // A build's profile read with another build's symbols would put
        // its samples in the wrong functions.
        if c.program
            .is_some_and(|id| id != callgraph::program_identity(exe_bytes))
        {
            return Err(bad_profile(format!(
                "{}: recorded from another program than {name} (another build of it?)",
                path.display()
            ))
            .hint("give the executable the profile was recorded from"));
        }
    }
    Ok(Profile {
        hists: file.histograms,
        rate,
        objects: Vec::new(),
        arcs: file.arcs,
        call,
    })
}

/// The mon.out segments inside the program's text are the program's; every
/// other is a shared object, whose symbols come from its file under `root`
/// (the guest root the program ran in), when given.
fn split_mon_out(
    file: monout::MonOut,
    exe: &loader::Executable,
    root: Option<&std::path::Path>,
) -> Profile {
    let texts = exe.text_ranges();
    let mut hists = Vec::new();
    let mut objects = Vec::new();
    for seg in file.segments {
        let h = seg.hist;
        if texts
            .iter()
            .any(|&(lo, hi)| h.low_pc < hi && lo < h.high_pc)
        {
            hists.push(h);
            continue;
        }
        let symbols = match root {
            Some(root) if !seg.path.is_empty() => {
                program::object_functions(&root.join(seg.path.trim_start_matches('/')), h.low_pc)
            }
            _ => Vec::new(),
        };
        let name = if seg.name.is_empty() {
            seg.path.rsplit('/').next().unwrap_or_default().to_string()
        } else {
            seg.name
        };
        objects.push(report::ObjectSamples {
            name,
            path: seg.path,
            hists: vec![h],
            symbols,
        });
    }
    Profile {
        hists,
        rate: file.rate_hz,
        objects,
        arcs: Vec::new(),
        call: None,
    }
}

/// `report --syscalls`: the table `prof --syscalls` kept beside FILE.
fn syscall_report(args: &ReportArgs) -> Result<u8, Failure> {
    let path = profile_formats::syscalls::sidecar_path(&args.gmon);
    let profile = profile_formats::syscalls::read_sidecar(&args.gmon)
        .map_err(bad_profile)?
        .ok_or_else(|| {
            bad_profile(format!("{}: no system calls were recorded", path.display()))
                .hint("record them with: irix-emu prof --syscalls PROGRAM")
        })?;
    let mut out = std::io::stdout().lock();
    let written = match args.format {
        Format::Text => profile.render_text(&mut out),
        Format::Json => profile.render_json(&mut out),
        other => {
            return Err(bad_profile(format!(
                "report --syscalls: --format {other:?} is not a table format (text or json)"
            )))
        }
    };
    written
        .and_then(|()| out.flush())
        .map_err(|e| Failure::new(exit::EMULATOR_FAILURE, e.to_string()))?;
    Ok(0)
}

/// The first bytes of a file, for telling a program from a profile.
fn magic(path: &std::path::Path) -> [u8; 4] {
    use std::io::Read;
    let mut m = [0; 4];
    if let Ok(mut f) = std::fs::File::open(path) {
        let _ = f.read(&mut m);
    }
    m
}

/// `report FILE PROGRAM`, the arguments swapped: caught before either is
/// read as what it is not.
fn check_order(args: &ReportArgs) -> Result<(), Failure> {
    let elf = |m: [u8; 4]| m == *b"\x7fELF";
    let (first, second) = (magic(&args.program), magic(&args.gmon));
    if !elf(first) && elf(second) {
        return Err(Failure::new(
            exit::EMULATOR_FAILURE,
            format!(
                "report: {} is a program and {} is not: the arguments are the other way round",
                args.gmon.display(),
                args.program.display()
            ),
        )
        .hint(format!(
            "irix-emu report {} {}",
            args.gmon.display(),
            args.program.display()
        )));
    }
    Ok(())
}

pub fn report(args: &ReportArgs) -> Result<u8, Failure> {
    check_order(args)?;
    // A binary format is for a file or a pipe, never a terminal (the same
    // rule as prof's).
    if args.format == Format::Pprof && std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        return Err(Failure::new(
            exit::EMULATOR_FAILURE,
            "report: --format pprof is binary (gzip) and stdout is a terminal",
        )
        .hint("redirect it: irix-emu report --format pprof PROGRAM FILE > profile.pb.gz"));
    }
    if args.syscalls {
        return syscall_report(args);
    }
    if args.format == Format::Firefox && args.diff.is_none() {
        return Err(Failure::new(
            exit::EMULATOR_FAILURE,
            "report: --format firefox needs the timeline of a run, which a profile file does not keep",
        )
        .hint("record it with: irix-emu prof --format firefox --report FILE PROGRAM"));
    }
    if let Some(base) = &args.diff {
        return super::diff::diff_report(args, base);
    }
    let (exe, bytes, name) = load_program(&args.program)?;
    let Profile {
        hists,
        rate,
        objects,
        arcs,
        call,
    } = read_profile(&args.gmon, args.root.as_deref(), &exe, &bytes, &name)?;
    let hists = &hists;
    let symbols = program::functions_of(&exe);
    // --annotate's function is looked up before anything is printed.
    let annotated = match &args.annotate {
        Some(function) => Some(report::find_function(&symbols, function).ok_or_else(|| {
            Failure::new(
                exit::EMULATOR_FAILURE,
                format!("{name}: no function named {function}"),
            )
            .hint(format!(
                "irix-emu report {} {} lists the functions that have samples",
                args.program.display(),
                args.gmon.display()
            ))
        })?),
        None => None,
    };
    let texts = program::texts_of(&exe);
    let view = ProfileView {
        name: &name,
        elf: &bytes,
        symbols: &symbols,
        texts: &texts,
        hists,
        rate_hz: rate,
        arcs: &arcs,
        call: call.as_ref(),
        timeline: None,
    };
    let program_entries = report::flat_profile(hists, &symbols);
    let totals = if objects.is_empty() {
        Vec::new()
    } else {
        let path = args.program.display().to_string();
        let short = path.rsplit('/').next().unwrap_or_default().to_string();
        report::object_totals((&short, &path), &program_entries, &objects, 0)
    };
    let entries = report::profile_with_objects(program_entries, &objects);
    let lines = if args.lines {
        match report::line_profile(&bytes, hists) {
            Some(l) => Some(l),
            None => {
                say(format_args!(
                    "{name}: no DWARF line information; --lines ignored"
                ));
                None
            }
        }
    } else {
        None
    };

    let mut out = std::io::stdout().lock();
    let written = (|| -> std::io::Result<()> {
        match args.format {
            Format::Text => {
                report::render_text(&entries, rate, &mut out)?;
                if !totals.is_empty() {
                    report::render_object_totals(&totals, &mut out)?;
                }
                if let Some(lines) = &lines {
                    report::render_lines_text(
                        lines,
                        report::total_samples(&entries),
                        rate,
                        &mut out,
                    )?;
                }
                if view.has_call_graph() {
                    writeln!(out)?;
                    view.render_call_graph(&mut out)?;
                }
            }
            Format::Json => report::render_json_with_objects(
                &entries,
                rate,
                lines.as_deref(),
                &totals,
                &mut out,
            )?,
            // Without real stacks, folded lines are the flat profile's,
            // shared objects' functions included.
            Format::Folded if call.is_none() => {
                report::render_folded(&entries, Some(&name), &mut out)?
            }
            other => view.render(other, &mut out)?,
        }
        if args.format == Format::Text {
            if let Some(s) = profile_formats::syscalls::read_sidecar(&args.gmon)
                .map_err(std::io::Error::other)?
            {
                s.render_text(&mut out)?;
            }
        }
        if let Some(f) = annotated {
            let code = program::code_of(&exe, f);
            writeln!(out)?;
            report::render_annotate(f, &code, hists, rate, cpu_mips::disassemble, &mut out)?;
        }
        out.flush()
    })();
    match written {
        // The reader went away (`report ... | head`): stop quietly, with the
        // status a C tool killed by SIGPIPE would have.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(exit::SIGNAL_BASE + 13),
        Err(e) => return Err(Failure::new(exit::EMULATOR_FAILURE, e.to_string())),
        Ok(()) => {}
    }

    if let Some(svg) = &args.svg {
        // `report` catches no signals: its temporaries need no one else.
        let temps = profile_formats::files::TempFiles::default();
        write_report(&temps, svg, |mut out| view.render_svg(&mut out))?;
        say(format_args!("flame graph written to {}", svg.display()));
    }
    Ok(0)
}
