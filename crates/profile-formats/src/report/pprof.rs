//! pprof's profile.proto, gzipped: read by `go tool pprof` and Speedscope.
//!
//! Contents: [`render_pprof`], and the profile.proto messages irix-emu
//! writes (field numbers from github.com/google/pprof, proto/profile.proto).
//!
//! One sample per distinct real stack, valued in samples and in CPU
//! nanoseconds (samples x 10^9 / rate); locations are addresses, each with
//! the function that holds it, so pprof needs no symbolisation. A stack
//! lists the sampled PC first and the call sites after it, as the format
//! asks.

use std::collections::BTreeMap;
use std::io::{self, Write};

use flate2::write::GzEncoder;
use flate2::Compression;
use prost::Message;

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

/// Builds the profile: `stacks` are (call sites outermost first, then the
/// sampled PC) with counts; `text` is the program's text range.
pub fn build_profile(
    stacks: &[(Vec<u32>, u64)],
    functions: &Functions<'_>,
    program: &str,
    text: (u32, u32),
    rate_hz: u32,
) -> Profile {
    let mut strings = Strings::default();
    let samples_id = strings.id("samples");
    let sample_type = vec![
        ValueType {
            r#type: samples_id,
            unit: strings.id("count"),
        },
        ValueType {
            r#type: strings.id("cpu"),
            unit: strings.id("nanoseconds"),
        },
    ];
    let period = 1_000_000_000i64 / i64::from(rate_hz.max(1));
    let mapping = Mapping {
        id: 1,
        memory_start: u64::from(text.0),
        memory_limit: u64::from(text.1),
        file_offset: 0,
        filename: strings.id(program),
        has_functions: true,
    };
    let mut function_ids: BTreeMap<Func, u64> = BTreeMap::new();
    let mut function = Vec::new();
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
                    let f = functions.of(pc);
                    let fid = match function_ids.get(&f) {
                        Some(&id) => id,
                        None => {
                            let id = function.len() as u64 + 1;
                            let name = strings.id(&functions.name(f));
                            function.push(Function {
                                id,
                                name,
                                system_name: name,
                                filename: 0,
                            });
                            function_ids.insert(f, id);
                            id
                        }
                    };
                    let id = location.len() as u64 + 1;
                    location.push(Location {
                        id,
                        mapping_id: 1,
                        address: u64::from(pc),
                        line: vec![Line {
                            function_id: fid,
                            line: 0,
                        }],
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
        });
    }
    Profile {
        period_type: Some(ValueType {
            r#type: strings.id("cpu"),
            unit: strings.id("nanoseconds"),
        }),
        period,
        duration_nanos: (total as i64).saturating_mul(period),
        default_sample_type: samples_id,
        sample_type,
        sample,
        mapping: vec![mapping],
        location,
        function,
        string_table: std::mem::take(&mut strings.table),
    }
}

/// Writes the profile, gzipped, to `out`.
pub fn render_pprof(profile: &Profile, out: &mut impl Write) -> io::Result<()> {
    let mut gz = GzEncoder::new(out, Compression::default());
    gz.write_all(&profile.encode_to_vec())?;
    gz.finish()?;
    Ok(())
}
