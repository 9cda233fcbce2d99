//! `irix-emu report PROGRAM GMON`: the flat profile of a gmon.out, as text
//! (like gprof -p, then the call graph like gprof -q when the file has
//! arcs), folded stacks, JSON, callgrind, pprof or speedscope; optionally
//! source lines, one function's annotated disassembly, and an SVG (a flame
//! graph when GMON.callgraph holds the real stacks, else the histogram).
//!
//! A truncated, foreign or mismatched gmon.out is refused with one line
//! and exit status 125 (`crate::exit::EMULATOR_FAILURE`).

use std::io::Write;

use super::args::{Format, ReportArgs};
use super::launch::load_program;
use super::output::{write_report, ProfileView};
use super::{say, Failure};
use crate::exit;
use crate::{callgraph, gmon, report};

fn bad_profile(message: impl std::fmt::Display) -> Failure {
    Failure::new(exit::EMULATOR_FAILURE, message.to_string())
}

pub fn report(args: &ReportArgs) -> Result<u8, Failure> {
    let (exe, bytes, name) = load_program(&args.program)?;
    let file = gmon::read_gmon(&args.gmon).map_err(bad_profile)?;
    file.check_against_texts(&name, &report::texts_of(&exe))
        .map_err(|e| bad_profile(e.in_file(&args.gmon)))?;
    let Some(rate) = file.rate_hz() else {
        return Err(bad_profile(format!(
            "{}: no histogram records (nothing was sampled)",
            args.gmon.display()
        )));
    };
    let hists = &file.histograms;
    let call = callgraph::read_sidecar(&args.gmon).map_err(bad_profile)?;
    if let Some(c) = &call {
        let sampled: u64 = hists.iter().map(gmon::HistRecord::total).sum();
        if c.rate_hz != rate || c.total_samples() != sampled {
            return Err(bad_profile(format!(
                "{}: does not belong to {} ({} samples at {} Hz, the histogram has {sampled} at {rate} Hz)",
                callgraph::sidecar_path(&args.gmon).display(),
                args.gmon.display(),
                c.total_samples(),
                c.rate_hz
            )));
        }
    }
    let symbols = report::functions_of(&exe);
    let texts = report::texts_of(&exe);
    let view = ProfileView {
        name: &name,
        elf: &bytes,
        symbols: &symbols,
        texts: &texts,
        hists,
        rate_hz: rate,
        arcs: &file.arcs,
        call: call.as_ref(),
    };
    let entries = report::flat_profile(hists, &symbols);
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
            Format::Json => report::render_json(&entries, rate, lines.as_deref(), &mut out)?,
            other => view.render(other, &mut out)?,
        }
        if let Some(function) = &args.annotate {
            let Some(f) = report::find_function(&symbols, function) else {
                return Err(std::io::Error::other(format!(
                    "{name}: no function named {function}"
                )));
            };
            let code = report::code_of(&exe, f);
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
        write_report(svg, |mut out| view.render_svg(&mut out))?;
    }
    Ok(0)
}
