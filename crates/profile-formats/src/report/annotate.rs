//! `--annotate FUNCTION`: one function's disassembly with the samples of
//! each instruction.
//!
//! Contents
//! - [`find_function`]: look a function up by name.
//! - [`instruction_samples`]: the histograms charged to instructions.
//! - [`render_annotate`]: the listing.
//!
//! The disassembler is a closure (the CLI passes `cpu_mips::disassemble`),
//! so this module does not depend on the CPU crate. MIPS instructions are 4
//! bytes; a bin of 2 bytes (profil's scale 0x10000) gives each instruction
//! two bins, a bin of 8 bytes is shared by two instructions by bytes, as
//! bins are shared by functions (see [`crate::report::charge`]).

use std::io::{self, Write};

use crate::gmon::HistRecord;
use crate::report::charge::{charge, AddrRange};
use crate::report::text::{percent, seconds};
use crate::report::Symbol;

/// Bytes per MIPS instruction.
const INSN_BYTES: u64 = 4;

/// The symbol called `name` (the first one, if several share it).
pub fn find_function<'a>(symbols: &'a [Symbol], name: &str) -> Option<&'a Symbol> {
    symbols.iter().find(|s| s.name == name)
}

/// Samples per instruction of `code` ((address, word) pairs, ascending).
pub fn instruction_samples(hists: &[HistRecord], code: &[(u32, u32)]) -> Vec<u64> {
    let regions: Vec<AddrRange> = code
        .iter()
        .map(|&(pc, _)| AddrRange {
            start: u64::from(pc),
            end: u64::from(pc) + INSN_BYTES,
        })
        .collect();
    charge(hists, &regions).regions
}

/// Print `function`'s instructions (`code`: (address, word), ascending, as
/// read from the program's text) with their samples:
///
/// ```text
/// Annotation of f3 (0x004001a0-0x00400200): 600 samples, 6.00 seconds
///    samples       %   address  word      instruction
///        120   20.00  004001a0: 27bdffe8  addiu sp,sp,-24
/// ```
/// The percentage is of the function's samples. `disasm(word, pc)` gives
/// the instruction text.
pub fn render_annotate(
    function: &Symbol,
    code: &[(u32, u32)],
    hists: &[HistRecord],
    rate_hz: u32,
    disasm: impl Fn(u32, u32) -> String,
    out: &mut impl Write,
) -> io::Result<()> {
    let counts = instruction_samples(hists, code);
    let total = counts.iter().fold(0u64, |a, &c| a.saturating_add(c));
    let end = u64::from(function.addr) + u64::from(function.size);
    writeln!(
        out,
        "Annotation of {} ({:#010x}-{:#010x}): {} samples, {:.2} seconds",
        function.name,
        function.addr,
        end,
        total,
        seconds(total, rate_hz)
    )?;
    writeln!(out, "   samples       %   address  word      instruction")?;
    for (&(pc, word), &n) in code.iter().zip(&counts) {
        let count = if n == 0 {
            ".".to_string()
        } else {
            n.to_string()
        };
        let share = if n == 0 {
            String::new()
        } else {
            format!("{:.2}", percent(n, total))
        };
        writeln!(
            out,
            "{count:>10} {share:>7}  {pc:08x}: {word:08x}  {}",
            disasm(word, pc)
        )?;
    }
    Ok(())
}
