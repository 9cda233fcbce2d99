//! Profile reports: what `irix-emu report PROGRAM GMON` prints.
//!
//! Contents (one file per concern)
//! - [`charge`]: splitting histogram bins over named address ranges (shared by all).
//! - [`flat`]: the flat profile ([`flat_profile`], [`flat_profile_with_exact`]).
//! - [`text`]: gprof -p style text ([`render_text`]) and the sampled-vs-exact
//!   comparison ([`render_exact_comparison`]).
//! - [`folded`]: folded stacks for flame-graph tools ([`render_folded`]).
//! - [`json`]: JSON for scripts ([`render_json`]).
//! - [`svg`]: the histogram drawn as a self-contained SVG ([`render_svg`]).
//! - [`diff`]: two profiles of one program compared, function by function
//!   ([`diff::diff`], rendered as text, JSON or differential folded stacks).
//! - [`firefox`]: a timeline of processes for the Firefox Profiler.
//! - [`annotate`]: one function's disassembly with per-instruction counts
//!   ([`render_annotate`]).
//! - [`lines`]: DWARF source lines through addr2line ([`source_lines`],
//!   [`source_frames`] with inlined functions, [`line_profile`],
//!   [`render_lines_text`]).
//! - [`objects`]: samples in shared objects, `function@object` names and
//!   per-object totals ([`profile_with_objects`], [`render_object_totals`]).
//! - Call graphs (`prof --callgraph`): [`stacks`] (PCs to functions, costs
//!   from real stacks), [`graph`] (gprof -q style text), [`flame`] (flame
//!   graph SVG), [`callgrind`], [`pprof`] (profile.proto, gzipped) and
//!   [`speedscope`] (JSON); the command line's `ProfileView` assembles them
//!   from a profile.
//!
//! Seconds are samples / rate_hz throughout (the histogram's rate). A bin that
//! straddles two functions is split between them in proportion to the bytes it
//! covers in each, as gprof's hist_assign_samples does, except that counts stay
//! whole: the shares are rounded cumulatively so they always add up to the bin.

pub mod annotate;
pub mod callgrind;
pub mod charge;
pub mod diff;
pub mod firefox;
pub mod flame;
pub mod flat;
pub mod folded;
pub mod graph;
pub mod json;
pub mod lines;
pub mod objects;
pub mod pprof;
pub mod speedscope;
pub mod stacks;
pub mod svg;
pub mod text;

pub use annotate::{find_function, render_annotate};
pub use flat::{flat_profile, flat_profile_with_exact, total_samples};
pub use folded::{render_folded, render_folded_stacks};
pub use json::{render_json, render_json_with_objects};
pub use lines::{
    line_profile, render_lines_text, source_frames, source_lines, InlineFrame, LineEntry,
    SourceLine,
};
pub use objects::{
    object_totals, profile_with_objects, render_object_totals, ObjectSamples, ObjectTotal,
};
pub use svg::render_svg;
pub use text::{render_exact_comparison, render_text};

/// A function from the program's symbol table (the CLI converts the loader's
/// symbols). `size` 0 means "unknown": the function then runs to the next
/// symbol, or to the end of the profiled range for the last one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub addr: u32,
    pub size: u32,
}

/// One line of the flat profile: a function, or an unsymbolised stretch named
/// by its range ("0x00400a00-0x00400a40").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlatEntry {
    pub name: String,
    /// First address of the function or stretch.
    pub start: u32,
    /// One past its last address (saturated at 0xffffffff).
    pub end: u32,
    /// Sampled ticks charged to it.
    pub samples: u64,
    /// Retired cycles charged to it (`--exact`), when measured.
    pub exact_cycles: Option<u64>,
}
