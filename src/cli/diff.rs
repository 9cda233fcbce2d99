//! `irix-emu report --diff BASE PROGRAM FILE`: FILE compared with BASE,
//! function by function (`profile_formats::report::diff`), like pprof's
//! `-diff_base`.
//!
//! Each profile is read and checked against its own program (BASE's is
//! `--base-program`, PROGRAM by default), so two builds compare; functions
//! are matched by name. Profiles sampled at different rates, exact costs
//! counted at different clocks, and profiles without a function in common
//! are refused (status 125) rather than diffed into nonsense. `--format
//! pprof` writes the difference as `go tool pprof -diff_base` forms it.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use super::args::{Format, ReportArgs};
use super::launch::load_program;
use super::report::read_profile;
use super::Failure;
use crate::exit;
use crate::program;
use profile_formats::report::diff::{self, Costs};
use profile_formats::report::stacks::{function_costs, named_stacks, Functions};
use profile_formats::report::{self};

fn refused(message: impl std::fmt::Display) -> Failure {
    Failure::new(exit::EMULATOR_FAILURE, format!("report --diff: {message}"))
}

/// The costs by function name of the profile at `path`, of `program`.
fn costs_of(program: &Path, path: &Path, root: Option<&Path>) -> Result<Costs, Failure> {
    let (exe, bytes, name) = load_program(program)?;
    let p = read_profile(path, root, &exe, &bytes, &name)?;
    let symbols = program::functions_of(&exe);
    let entries =
        report::profile_with_objects(report::flat_profile(&p.hists, &symbols), &p.objects);
    let mut samples: BTreeMap<String, u64> = BTreeMap::new();
    for e in entries.iter().filter(|e| e.samples > 0) {
        *samples.entry(e.name.clone()).or_insert(0) += e.samples;
    }
    let upper = program::texts_of(&exe)
        .iter()
        .map(|t| u64::from(t.high))
        .chain(p.hists.iter().map(|h| u64::from(h.high_pc)))
        .max()
        .unwrap_or(0);
    let f = Functions::new(&symbols, upper);
    let by_name = |m: BTreeMap<_, u64>| -> BTreeMap<String, u64> {
        let mut out = BTreeMap::new();
        for (func, n) in m {
            *out.entry(f.name(func)).or_insert(0) += n;
        }
        out
    };
    let (inclusive, exact, stacks, cpu_hz) = match &p.call {
        Some(c) => {
            let named = named_stacks(c, &f);
            let inclusive = by_name(function_costs(&named).inclusive);
            let exact = (!c.exact.is_empty()).then(|| {
                let mut m: BTreeMap<String, (u64, u64)> = BTreeMap::new();
                for e in &c.exact {
                    let v = m.entry(f.name(f.of(e.pc))).or_insert((0, 0));
                    v.0 += e.instructions;
                    v.1 += e.cycles;
                }
                m
            });
            let mut stacks = BTreeMap::new();
            for (s, n) in named {
                let names: Vec<String> = s.iter().map(|&x| f.name(x)).collect();
                *stacks.entry(names).or_insert(0) += n;
            }
            (Some(inclusive), exact, stacks, Some(c.cpu_hz))
        }
        None => {
            let stacks = samples.iter().map(|(n, &s)| (vec![n.clone()], s)).collect();
            (None, None, stacks, None)
        }
    };
    Ok(Costs {
        rate_hz: p.rate,
        cpu_hz,
        samples,
        inclusive,
        exact,
        stacks,
    })
}

pub fn diff_report(args: &ReportArgs, base: &Path) -> Result<u8, Failure> {
    if !matches!(
        args.format,
        Format::Text | Format::Json | Format::Folded | Format::Pprof
    ) {
        return Err(refused(format!(
            "--format {:?} has no difference form (text, json, folded or pprof)",
            args.format
        )));
    }
    if args.lines || args.annotate.is_some() || args.svg.is_some() {
        return Err(refused("--lines, --annotate and --svg report one profile"));
    }
    let base_program = args.base_program.as_deref().unwrap_or(&args.program);
    let root = args.root.as_deref();
    let old = costs_of(base_program, base, root).map_err(|f| {
        if args.base_program.is_none() {
            f.hint(format!(
                "if {} is a profile of another build, name that program with --base-program",
                base.display()
            ))
        } else {
            f
        }
    })?;
    let new = costs_of(&args.program, &args.gmon, root)?;
    let shared = old.samples.keys().any(|k| new.samples.contains_key(k));
    if !shared && !old.samples.is_empty() && !new.samples.is_empty() {
        return Err(refused(format!(
            "{} and {} have no function in common: they are profiles of different programs",
            base.display(),
            args.gmon.display()
        )));
    }
    let d = diff::diff(&old, &new).map_err(refused)?;
    let name = args.program.display().to_string();
    let mut out = std::io::stdout().lock();
    let written = match args.format {
        Format::Json => diff::render_diff_json(&d, &name, &mut out),
        Format::Folded => diff::render_diff_folded(&d, &name, &mut out),
        Format::Pprof => {
            let stacks = d
                .stacks
                .iter()
                .map(|(s, c)| (s.clone(), (c.base, c.new)))
                .collect();
            let p = report::pprof::build_diff_profile(&stacks, d.rate_hz);
            report::pprof::render_pprof(&p, &mut out)
        }
        _ => diff::render_diff_text(&d, &name, &mut out),
    };
    match written.and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(exit::SIGNAL_BASE + 13),
        Err(e) => Err(Failure::new(exit::EMULATOR_FAILURE, e.to_string())),
        Ok(()) => Ok(0),
    }
}
