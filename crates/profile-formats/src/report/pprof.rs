//! pprof's profile.proto, gzipped: read by `go tool pprof` and Speedscope.
//!
//! Contents: [`render_pprof`], and the profile.proto messages irix-emu
//! writes (field numbers from github.com/google/pprof, proto/profile.proto).
//!
//! One sample per distinct real stack, valued in samples and in CPU
//! nanoseconds (samples x 10^9 / rate); locations are addresses, each with
//! the function that holds it, so pprof needs no symbolisation. A stack
//! lists the sampled PC first and the call sites after it, as the format
//! asks. When the program has DWARF line information, each location carries
//! its source line and each function its file and first line, so
//! `go tool pprof -list FUNCTION` shows annotated source.

use std::collections::BTreeMap;
use std::io::{self, Write};

use flate2::write::GzEncoder;
use flate2::Compression;
use prost::Message;

use crate::report::lines::{InlineFrame, SourceLine};
use crate::report::stacks::{Func, Functions};

#[derive(Clone, PartialEq, Message)]
pub struct Profile {
    #[prost(message, repeated, tag = "1")]
    pub sample_type: Vec<ValueType>,
    #[prost(message, repeated, tag = "2")]
    pub sample: Vec<Sample>,
    #[prost(message, repeated, tag = "3")]
    pub mapping: Vec<Mapping>,
    #[prost(message, repeated, tag = "4")]
    pub location: Vec<Location>,
    #[prost(message, repeated, tag = "5")]
    pub function: Vec<Function>,
    #[prost(string, repeated, tag = "6")]
    pub string_table: Vec<String>,
    #[prost(int64, tag = "10")]
    pub duration_nanos: i64,
    #[prost(message, optional, tag = "11")]
    pub period_type: Option<ValueType>,
    #[prost(int64, tag = "12")]
    pub period: i64,
    #[prost(int64, tag = "14")]
    pub default_sample_type: i64,
}

#[derive(Clone, PartialEq, Message)]
pub struct ValueType {
    #[prost(int64, tag = "1")]
    pub r#type: i64,
    #[prost(int64, tag = "2")]
    pub unit: i64,
}

#[derive(Clone, PartialEq, Message)]
pub struct Sample {
    #[prost(uint64, repeated, tag = "1")]
    pub location_id: Vec<u64>,
    #[prost(int64, repeated, tag = "2")]
    pub value: Vec<i64>,
    #[prost(message, repeated, tag = "3")]
    pub label: Vec<Label>,
}

#[derive(Clone, PartialEq, Message)]
pub struct Label {
    #[prost(int64, tag = "1")]
    pub key: i64,
    #[prost(int64, tag = "2")]
    pub str: i64,
}

#[derive(Clone, PartialEq, Message)]
pub struct Mapping {
    #[prost(uint64, tag = "1")]
    pub id: u64,
    #[prost(uint64, tag = "2")]
    pub memory_start: u64,
    #[prost(uint64, tag = "3")]
    pub memory_limit: u64,
    #[prost(uint64, tag = "4")]
    pub file_offset: u64,
    #[prost(int64, tag = "5")]
    pub filename: i64,
    #[prost(bool, tag = "7")]
    pub has_functions: bool,
    #[prost(bool, tag = "8")]
    pub has_filenames: bool,
    #[prost(bool, tag = "9")]
    pub has_line_numbers: bool,
    #[prost(bool, tag = "10")]
    pub has_inline_frames: bool,
}

#[derive(Clone, PartialEq, Message)]
pub struct Location {
    #[prost(uint64, tag = "1")]
    pub id: u64,
    #[prost(uint64, tag = "2")]
    pub mapping_id: u64,
    #[prost(uint64, tag = "3")]
    pub address: u64,
    #[prost(message, repeated, tag = "4")]
    pub line: Vec<Line>,
}

#[derive(Clone, PartialEq, Message)]
pub struct Line {
    #[prost(uint64, tag = "1")]
    pub function_id: u64,
    #[prost(int64, tag = "2")]
    pub line: i64,
}

#[derive(Clone, PartialEq, Message)]
pub struct Function {
    #[prost(uint64, tag = "1")]
    pub id: u64,
    #[prost(int64, tag = "2")]
    pub name: i64,
    #[prost(int64, tag = "3")]
    pub system_name: i64,
    #[prost(int64, tag = "4")]
    pub filename: i64,
    #[prost(int64, tag = "5")]
    pub start_line: i64,
}

/// The string table: index 0 is "" as the format requires.
#[derive(Default)]
struct Strings {
    table: Vec<String>,
    index: BTreeMap<String, i64>,
}

impl Strings {
    fn id(&mut self, s: &str) -> i64 {
        if self.table.is_empty() {
            self.table.push(String::new());
            self.index.insert(String::new(), 0);
        }
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        self.table.push(s.to_string());
        let i = (self.table.len() - 1) as i64;
        self.index.insert(s.to_string(), i);
        i
    }
}

/// A function table entry: a symbol of the program, or a function DWARF
/// says was inlined (named by DWARF, with its file).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
enum FunctionKey {
    Symbol(Func),
    Inlined(String, String),
    /// A function known by its name only (a difference of two builds).
    Named(String),
}

/// The string and function tables as they fill.
struct Tables {
    strings: Strings,
    function_ids: BTreeMap<FunctionKey, u64>,
    function: Vec<Function>,
}

impl Tables {
    fn add(&mut self, key: FunctionKey, name: &str, start: Option<&SourceLine>) -> u64 {
        if let Some(&id) = self.function_ids.get(&key) {
            return id;
        }
        let id = self.function.len() as u64 + 1;
        let name = self.strings.id(name);
        let (filename, start_line) = match start {
            Some(l) => (self.strings.id(&l.file), i64::from(l.line)),
            None => (0, 0),
        };
        self.function.push(Function {
            id,
            name,
            system_name: name,
            filename,
            start_line,
        });
        self.function_ids.insert(key, id);
        id
    }

    /// The program's function `f`: its file and first line are those of
    /// its entry address (`entry`), else of the address seen (`here`).
    fn symbol(
        &mut self,
        f: Func,
        functions: &Functions<'_>,
        entry: impl FnOnce() -> Option<SourceLine>,
        here: Option<&SourceLine>,
    ) -> u64 {
        let key = FunctionKey::Symbol(f);
        if let Some(&id) = self.function_ids.get(&key) {
            return id;
        }
        let start = entry().or_else(|| here.cloned());
        self.add(key, &functions.name(f), start.as_ref())
    }

    /// A function inlined at an address (its first line is not known: 0).
    fn inlined(&mut self, frame: &InlineFrame) -> u64 {
        let name = frame.function.as_deref().unwrap_or("??");
        let file = frame
            .line
            .as_ref()
            .map(|l| l.file.clone())
            .unwrap_or_default();
        let start = frame.line.as_ref().map(|l| SourceLine {
            file: l.file.clone(),
            line: 0,
        });
        self.add(
            FunctionKey::Inlined(name.to_string(), file),
            name,
            start.as_ref(),
        )
    }
}

/// Builds the profile: `stacks` are (call sites outermost first, then the
/// sampled PC) with counts; `text` is the program's text range;
/// `frames_of` gives the inlined functions and source lines at an address,
/// innermost first, as [`crate::report::source_frames`] does (none for a
/// program without DWARF line information).
pub fn build_profile(
    stacks: &[(Vec<u32>, u64)],
    functions: &Functions<'_>,
    program: &str,
    text: (u32, u32),
    rate_hz: u32,
    frames_of: &dyn Fn(u32) -> Vec<InlineFrame>,
) -> Profile {
    let mut strings = Strings::default();
    let (sample_type, period_type, period, samples_id) = value_types(&mut strings, rate_hz);
    let mut mapping = Mapping {
        id: 1,
        memory_start: u64::from(text.0),
        memory_limit: u64::from(text.1),
        file_offset: 0,
        filename: strings.id(program),
        has_functions: true,
        has_filenames: false,
        has_line_numbers: false,
        has_inline_frames: false,
    };
    let mut tables = Tables {
        strings,
        function_ids: BTreeMap::new(),
        function: Vec::new(),
    };
    let mut location_ids: BTreeMap<u32, u64> = BTreeMap::new();
    let mut location = Vec::new();
    let mut sample = Vec::new();
    let mut total = 0u64;
    for (stack, n) in stacks {
        let n = *n;
        let mut ids = Vec::with_capacity(stack.len());
        for &pc in stack.iter().rev() {
            let id = match location_ids.get(&pc) {
                Some(&id) => id,
                None => {
                    let mut frames = frames_of(pc);
                    // The last frame is the code's own function: the
                    // symbol table names it, as in the rest of the report.
                    let outer = frames.pop();
                    let mut line: Vec<Line> = frames
                        .into_iter()
                        .map(|inl| Line {
                            function_id: tables.inlined(&inl),
                            line: inl.line.map_or(0, |l| i64::from(l.line)),
                        })
                        .collect();
                    let here = outer.and_then(|o| o.line);
                    let f = functions.of(pc);
                    let entry = || frames_of(functions.range(f).0).pop().and_then(|o| o.line);
                    line.push(Line {
                        function_id: tables.symbol(f, functions, entry, here.as_ref()),
                        line: here.as_ref().map_or(0, |l| i64::from(l.line)),
                    });
                    if here.is_some() {
                        mapping.has_filenames = true;
                        mapping.has_line_numbers = true;
                        mapping.has_inline_frames = true;
                    }
                    let id = location.len() as u64 + 1;
                    location.push(Location {
                        id,
                        mapping_id: 1,
                        address: u64::from(pc),
                        line,
                    });
                    location_ids.insert(pc, id);
                    id
                }
            };
            ids.push(id);
        }
        total += n;
        sample.push(Sample {
            location_id: ids,
            value: vec![n as i64, (n as i64).saturating_mul(period)],
            label: Vec::new(),
        });
    }
    Profile {
        period_type: Some(period_type),
        period,
        duration_nanos: (total as i64).saturating_mul(period),
        default_sample_type: samples_id,
        sample_type,
        sample,
        mapping: vec![mapping],
        location,
        function: tables.function,
        string_table: std::mem::take(&mut tables.strings.table),
    }
}

/// The sample types and period both kinds of profile share, their ids in
/// `strings`: (sample_type, period_type, period, the "samples" id).
fn value_types(strings: &mut Strings, rate_hz: u32) -> (Vec<ValueType>, ValueType, i64, i64) {
    let samples = strings.id("samples");
    let count = strings.id("count");
    let cpu = strings.id("cpu");
    let nanoseconds = strings.id("nanoseconds");
    let cpu_ns = ValueType {
        r#type: cpu,
        unit: nanoseconds,
    };
    let types = vec![
        ValueType {
            r#type: samples,
            unit: count,
        },
        cpu_ns.clone(),
    ];
    (
        types,
        cpu_ns,
        1_000_000_000i64 / i64::from(rate_hz.max(1)),
        samples,
    )
}

/// A difference of two profiles as one profile, the way `go tool pprof
/// -diff_base` forms it: the base's samples negated and labelled
/// `pprof::base=true`, the new profile's as they are. `stacks` are function
/// names, root first, with their samples in the base and in the new
/// profile; locations are functions (two builds share no addresses).
pub fn build_diff_profile(stacks: &BTreeMap<Vec<String>, (u64, u64)>, rate_hz: u32) -> Profile {
    let mut strings = Strings::default();
    let (sample_type, period_type, period, samples_id) = value_types(&mut strings, rate_hz);
    let base_key = strings.id("pprof::base");
    let base_true = strings.id("true");
    let mut tables = Tables {
        strings,
        function_ids: BTreeMap::new(),
        function: Vec::new(),
    };
    let mut location = Vec::new();
    let mut location_ids: BTreeMap<String, u64> = BTreeMap::new();
    let mut sample = Vec::new();
    for (stack, &(base, new)) in stacks {
        let ids: Vec<u64> = stack
            .iter()
            .rev()
            .map(|name| {
                if let Some(&id) = location_ids.get(name) {
                    return id;
                }
                let function_id = tables.add(FunctionKey::Named(name.clone()), name, None);
                let id = location.len() as u64 + 1;
                location.push(Location {
                    id,
                    mapping_id: 0,
                    address: 0,
                    line: vec![Line {
                        function_id,
                        line: 0,
                    }],
                });
                location_ids.insert(name.clone(), id);
                id
            })
            .collect();
        for (n, label) in [
            (
                -(base as i64),
                vec![Label {
                    key: base_key,
                    str: base_true,
                }],
            ),
            (new as i64, Vec::new()),
        ] {
            if n != 0 {
                sample.push(Sample {
                    location_id: ids.clone(),
                    value: vec![n, n.saturating_mul(period)],
                    label,
                });
            }
        }
    }
    Profile {
        period_type: Some(period_type),
        period,
        duration_nanos: 0,
        default_sample_type: samples_id,
        sample_type,
        sample,
        mapping: Vec::new(),
        location,
        function: tables.function,
        string_table: std::mem::take(&mut tables.strings.table),
    }
}

/// Writes the profile, gzipped, to `out`.
pub fn render_pprof(profile: &Profile, out: &mut impl Write) -> io::Result<()> {
    let mut gz = GzEncoder::new(out, Compression::default());
    gz.write_all(&profile.encode_to_vec())?;
    gz.finish()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Symbol;

    fn line(file: &str, line: u32) -> Option<SourceLine> {
        Some(SourceLine {
            file: file.to_string(),
            line,
        })
    }

    fn string(p: &Profile, i: i64) -> &str {
        &p.string_table[i as usize]
    }

    #[test]
    fn a_location_lists_its_inlined_functions_innermost_first_then_the_symbol() {
        let symbols = [
            Symbol {
                name: "main".into(),
                addr: 0x400100,
                size: 0x40,
            },
            Symbol {
                name: "spin".into(),
                addr: 0x400140,
                size: 0x40,
            },
        ];
        let functions = Functions::new(&symbols, 0x400180);
        // 0x400150 is twice() inlined into spin(); 0x400110 is main's call.
        let frames_of = |pc: u32| match pc {
            0x400150 => vec![
                InlineFrame {
                    function: Some("twice".into()),
                    line: line("a.c", 5),
                },
                InlineFrame {
                    function: Some("spin".into()),
                    line: line("a.c", 12),
                },
            ],
            0x400140 => vec![InlineFrame {
                function: Some("spin".into()),
                line: line("a.c", 9),
            }],
            0x400110 => vec![InlineFrame {
                function: Some("main".into()),
                line: line("a.c", 17),
            }],
            _ => Vec::new(),
        };
        let p = build_profile(
            &[(vec![0x400110, 0x400150], 7)],
            &functions,
            "a",
            (0x400100, 0x400180),
            100,
            &frames_of,
        );
        let leaf = &p.location[p.sample[0].location_id[0] as usize - 1];
        let named: Vec<(&str, &str, i64, i64)> = leaf
            .line
            .iter()
            .map(|l| {
                let f = &p.function[l.function_id as usize - 1];
                (
                    string(&p, f.name),
                    string(&p, f.filename),
                    f.start_line,
                    l.line,
                )
            })
            .collect();
        // spin's first line is its entry address's (9); main's entry has
        // no line, so main's is the call site's.
        assert_eq!(named, [("twice", "a.c", 0, 5), ("spin", "a.c", 9, 12)]);
        let caller = &p.location[p.sample[0].location_id[1] as usize - 1];
        let main = &p.function[caller.line[0].function_id as usize - 1];
        assert_eq!((string(&p, main.name), main.start_line), ("main", 17));
        assert!(p.mapping[0].has_line_numbers && p.mapping[0].has_inline_frames);
    }

    #[test]
    fn without_line_information_locations_name_their_function_at_line_0() {
        let symbols = [Symbol {
            name: "main".into(),
            addr: 0x400100,
            size: 0x40,
        }];
        let functions = Functions::new(&symbols, 0x400140);
        let p = build_profile(
            &[(vec![0x400104], 3)],
            &functions,
            "a",
            (0x400100, 0x400140),
            100,
            &|_| Vec::new(),
        );
        assert_eq!(p.location[0].line.len(), 1);
        assert_eq!(p.location[0].line[0].line, 0);
        assert_eq!(p.function[0].filename, 0);
        assert!(!p.mapping[0].has_filenames && !p.mapping[0].has_line_numbers);
    }
}
