//! Support modules of the QEMU differential test (tests/qemu_diff.rs).
//!
//! Contents: `encode` (instruction encoders), `gen` (the random sequence
//! generator), `program` (packing sequences into one program), `elf` (the
//! ELF writer), `mem` (the interpreter's guest memory), `report`
//! (comparison and mismatch reports).

pub mod elf;
pub mod encode;
pub mod gen;
pub mod mem;
pub mod program;
pub mod report;
