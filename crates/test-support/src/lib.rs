//! What irix-emu's tests share, so that each is written once.
//!
//! Contents:
//! - [`elf`]: an ELF32 MIPS executable writer (header, program headers,
//!   segment bytes, optional section headers and symbols).
//! - [`mips`]: an instruction encoder (the R4000 formats, opcode tables and
//!   one function per instruction the tests write).
//! - [`tools`]: the rule for outside tools and built files: skip with a
//!   visible line, or fail when `IRIX_EMU_REQUIRE_TOOLS=1`.
//! - [`golden`]: golden files, rewritten with `IRIX_EMU_BLESS=1`.
//! - [`roots`]: the rule for tests that need an IRIX root or qemu-irix:
//!   ignored ("needs IRIX_ROOT_53") unless the variable was set at build time.
//! - [`process`]: running a program with a time limit, both streams captured.
//! - [`Scratch`]: a temporary directory (the `tempfile` crate) with the few
//!   file helpers the tests ask for; [`names_in`] lists a directory.

pub mod elf;
pub mod golden;
pub mod mips;
pub mod process;
pub mod roots;
mod scratch;
pub mod tools;

pub use scratch::{names_in, Scratch};
