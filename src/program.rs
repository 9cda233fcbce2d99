//! What the reports need from the loader's [`loader::Executable`]: the
//! loader's symbols and segments as [`profile_formats`] types.
//!
//! Contents
//! - [`functions_of`]: the text symbols as report [`Symbol`]s.
//! - [`texts_of`]: the executable segments as ranges, for
//!   [`GmonFile::check_against_texts`](profile_formats::gmon::GmonFile::check_against_texts).
//! - [`code_of`]: a function's instruction words, for `--annotate`.

use loader::Executable;

use profile_formats::gmon::PcRange;
use profile_formats::report::Symbol;

/// Functions and text labels (STT_FUNC, and STT_NOTYPE in executable
/// sections); objects are left out, since no PC is ever inside one.
pub fn functions_of(exe: &Executable) -> Vec<Symbol> {
    text_symbols(exe.symbols.iter().filter(|s| s.kind.is_text()))
}

/// Loader symbols as report [`Symbol`]s.
pub fn text_symbols<'a>(symbols: impl IntoIterator<Item = &'a loader::Symbol>) -> Vec<Symbol> {
    symbols
        .into_iter()
        .map(|s| Symbol {
            name: s.name.clone(),
            addr: s.addr,
            size: s.size,
        })
        .collect()
}

/// The executable segments' address ranges.
pub fn texts_of(exe: &Executable) -> Vec<PcRange> {
    exe.text_ranges()
        .into_iter()
        .map(|(low, high)| PcRange { low, high })
        .collect()
}

/// `(address, word)` for each whole big-endian instruction of `function`
/// present in an executable segment's file bytes (a size of 0 gives none:
/// pass a symbol whose size has been filled in).
pub fn code_of(exe: &Executable, function: &Symbol) -> Vec<(u32, u32)> {
    let start = u64::from(function.addr);
    let end = start + u64::from(function.size);
    let Some(seg) = exe
        .segments
        .iter()
        .find(|s| s.perms.exec && s.contains(function.addr))
    else {
        return Vec::new();
    };
    (start..end)
        .step_by(4)
        .filter_map(|pc| {
            let off = usize::try_from(pc - u64::from(seg.vaddr)).ok()?;
            let b = seg.data.get(off..off.checked_add(4)?)?;
            Some((pc as u32, u32::from_be_bytes([b[0], b[1], b[2], b[3]])))
        })
        .collect()
}

/// The text symbols of a shared object loaded so that its lowest executable
/// segment starts at `runtime_low` (each symbol moved by the same amount).
pub fn functions_at(exe: &Executable, runtime_low: u32) -> Vec<Symbol> {
    let linked_low = exe.text_ranges().iter().map(|r| r.0).min().unwrap_or(0);
    let bias = runtime_low.wrapping_sub(linked_low);
    functions_of(exe)
        .into_iter()
        .map(|s| Symbol {
            addr: s.addr.wrapping_add(bias),
            ..s
        })
        .collect()
}

/// The text symbols of the ELF object at `host_path`, placed as
/// [`functions_at`] says; empty when it cannot be read or loaded.
pub fn object_functions(host_path: &std::path::Path, runtime_low: u32) -> Vec<Symbol> {
    let Ok(bytes) = std::fs::read(host_path) else {
        return Vec::new();
    };
    let name = host_path.display().to_string();
    match loader::load(&name, &bytes, &loader::LoadOptions::INTERPRETER) {
        Ok(exe) => functions_at(&exe, runtime_low),
        Err(_) => Vec::new(),
    }
}
