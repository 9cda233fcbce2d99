//! ELF loader for IRIX MIPS executables (ELF32, big-endian, EM_MIPS).
//!
//! Contents:
//! - [`load`], [`LoadOptions`]: parse and validate an executable image.
//! - [`executable`]: [`Executable`], [`Segment`], [`Perms`], [`Symbol`].
//! - [`error`]: [`LoadError`] (one-line messages naming file, field, value),
//!   [`FlagError`], [`ProgramHeaderError`], [`LoadWarning`].
//! - [`mips`]: MIPS ELF constants, [`Abi`], the e_flags decoder.
//! - [`load_headers`]: the same from a file's first bytes, as exec reads it.
//! - [`layout`]: the addresses IRIX reserves (stack, PRDA) that no segment
//!   may cover.
//! - `header`, `segments`, `symbols`, `gp`: the steps of [`load`].
//!
//! The loader never panics on any byte string: every offset and size is
//! bounds-checked here before goblin decodes the structures, and strings
//! are read here, not by goblin.
//!
//! Deliberately not done: 64-bit ELF, little-endian MIPS, relocatable
//! objects (shared objects only with [`LoadOptions::allow_shared`], for a
//! program interpreter such as IRIX's libc.so.1), MIPS IV and later ISAs, MIPS16/microMIPS, vendor
//! extensions, relocation or dynamic linking (a PT_INTERP is reported, see
//! [`LoadOptions::allow_interp`]), p_align checks (the kernel copies).

pub mod error;
pub mod executable;
mod gp;
mod header;
pub mod layout;
pub mod mips;
mod segments;
mod symbols;

pub use error::{FlagError, LoadError, LoadWarning, ProgramHeaderError};
pub use executable::{Executable, Perms, Segment, Symbol, SymbolKind};
pub use mips::Abi;

/// How permissive [`load`] is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LoadOptions {
    /// Accept a PT_INTERP (returned in [`Executable::interp`]) instead of
    /// failing with [`LoadError::Dynamic`]. For a kernel that can load IRIX's
    /// own rld from a user-supplied root.
    pub allow_interp: bool,
    /// Accept a shared object (ET_DYN) as well as an executable: how a
    /// kernel loads a program's interpreter (IRIX's `/usr/lib/libc.so.1` is
    /// a shared object with an entry point). [`Executable::shared`] says
    /// which it was.
    pub allow_shared: bool,
}

impl LoadOptions {
    /// A program the kernel runs directly: no interpreter, no shared object.
    pub const STATIC: LoadOptions = LoadOptions {
        allow_interp: false,
        allow_shared: false,
    };
    /// A program that may name an interpreter (dynamically linked).
    pub const PROGRAM: LoadOptions = LoadOptions {
        allow_interp: true,
        allow_shared: false,
    };
    /// A program interpreter: an executable or a shared object, which may
    /// not itself name an interpreter.
    pub const INTERPRETER: LoadOptions = LoadOptions {
        allow_interp: false,
        allow_shared: true,
    };
}

/// Parses and validates the executable image `bytes`. `name` is the file
/// name as the user gave it; every error message starts with it.
pub fn load(name: &str, bytes: &[u8], opts: &LoadOptions) -> Result<Executable, LoadError> {
    let mut exe = load_headers(name, bytes, bytes.len() as u64, opts)?;
    let header = header::check_header(name, bytes, opts.allow_shared)?;
    let sections = symbols::read_sections(name, bytes, &header);
    exe.symbols = sections.symbols;
    exe.gp_value = exe.gp_value.or(sections.section_gp).or(sections.symbol_gp);
    exe.warnings = sections.warnings;
    Ok(exe)
}

/// What an exec needs of the executable whose first bytes are `head` and
/// whose size is `file_size`, read without the rest of the file: the ELF
/// header, program headers, interpreter path and MIPS register information
/// must lie in `head` (they open the file in every real executable), the
/// segments are checked against `file_size` and their [`Segment::data`] is
/// left empty for the caller to map from the file, and there are no symbols.
pub fn load_headers(
    name: &str,
    head: &[u8],
    file_size: u64,
    opts: &LoadOptions,
) -> Result<Executable, LoadError> {
    let header = header::check_header(name, head, opts.allow_shared)?;
    let layout = segments::read_layout(head, file_size.max(head.len() as u64), &header).map_err(
        |error| LoadError::ProgramHeaders {
            file: name.to_string(),
            error,
        },
    )?;
    if let Some(interp) = &layout.interp {
        if !opts.allow_interp {
            return Err(LoadError::Dynamic {
                file: name.to_string(),
                interp: interp.clone(),
            });
        }
    }
    Ok(Executable {
        shared: header.shared,
        abi: header.decoded.abi,
        isa_level: header.decoded.isa_level,
        entry: header.e_entry,
        segments: layout.segments,
        interp: layout.interp,
        symbols: Vec::new(),
        gp_value: layout.gp_value,
        phdr_vaddr: layout.phdr_vaddr,
        phent: header.e_phentsize,
        phnum: header.e_phnum,
        e_flags: header.e_flags,
        warnings: Vec::new(),
    })
}
