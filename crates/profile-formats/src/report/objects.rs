//! Profiles across shared objects: samples outside the program, attributed
//! to the object that held the PC and the function within it.
//!
//! Contents
//! - [`ObjectSamples`]: one object's histograms and symbols.
//! - [`ObjectTotal`], [`object_totals`]: samples per object.
//! - [`profile_with_objects`]: the program's flat profile and every
//!   object's functions in one list, named `function@object`.
//! - [`render_object_totals`]: the per-object table of the text report.
//!
//! Naming: a function of the program keeps its name; one of another object
//! is `function@object`, where object is the object's file name
//! (`printf@libc.so.1`). A stretch without symbols is its address range
//! with the same suffix.

use std::io::{self, Write};

use crate::gmon::HistRecord;
use crate::report::flat::{flat_profile, sort_entries, total_samples};
use crate::report::text::percent;
use crate::report::{FlatEntry, Symbol};

/// One shared object (or the dynamic loader) that held sampled PCs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectSamples {
    /// Its file name ("libc.so.1"): the suffix of its functions' names.
    pub name: String,
    /// Its path in the guest ("/usr/lib/libc.so.1").
    pub path: String,
    /// Samples over its text, at its run-time addresses.
    pub hists: Vec<HistRecord>,
    /// Its functions at their run-time addresses (.symtab, else .dynsym);
    /// empty when the object could not be read.
    pub symbols: Vec<Symbol>,
}

/// Samples charged to one object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectTotal {
    pub name: String,
    pub path: String,
    pub samples: u64,
}

/// The totals per object, the program first (named `program`, path as
/// given), then the objects in the order given; PCs in no object at all
/// count as `unmapped` when there are any.
pub fn object_totals(
    program: (&str, &str),
    program_entries: &[FlatEntry],
    objects: &[ObjectSamples],
    unmapped: u64,
) -> Vec<ObjectTotal> {
    let mut totals = vec![ObjectTotal {
        name: program.0.to_string(),
        path: program.1.to_string(),
        samples: total_samples(program_entries),
    }];
    totals.extend(objects.iter().map(|o| ObjectTotal {
        name: o.name.clone(),
        path: o.path.clone(),
        samples: o.hists.iter().map(HistRecord::total).sum(),
    }));
    if unmapped > 0 {
        totals.push(ObjectTotal {
            name: "[unmapped]".into(),
            path: String::new(),
            samples: unmapped,
        });
    }
    totals
}

/// The program's entries and every object's, one list sorted like the flat
/// profile (samples, most first).
pub fn profile_with_objects(program: Vec<FlatEntry>, objects: &[ObjectSamples]) -> Vec<FlatEntry> {
    let mut all = program;
    for o in objects {
        all.extend(
            flat_profile(&o.hists, &o.symbols)
                .into_iter()
                .map(|e| FlatEntry {
                    name: format!("{}@{}", e.name, o.name),
                    ..e
                }),
        );
    }
    sort_entries(&mut all);
    all
}

/// ```text
/// Samples per object:
///
///      %    samples  object
///  90.00        900  hot
///  10.00        100  libc.so.1 (/usr/lib/libc.so.1)
/// ```
pub fn render_object_totals(totals: &[ObjectTotal], out: &mut impl Write) -> io::Result<()> {
    let all = totals.iter().fold(0u64, |a, t| a.saturating_add(t.samples));
    writeln!(out, "\nSamples per object:\n")?;
    writeln!(out, "{:>6} {:>10}  object", "%", "samples")?;
    for t in totals {
        let path = if t.path.is_empty() || t.path == t.name {
            String::new()
        } else {
            format!(" ({})", t.path)
        };
        writeln!(
            out,
            "{:6.2} {:10}  {}{path}",
            percent(t.samples, all),
            t.samples,
            t.name
        )?;
    }
    Ok(())
}
