//! Support modules of the QEMU differential test (tests/all/qemu_diff.rs).
//!
//! Contents: `gen` (the random sequence generator), `program` (packing
//! sequences into one program), `elf` (its ELF image), `mem` (the
//! interpreter's guest memory), `report` (comparison and mismatch
//! reports). Instructions are encoded by test_support::mips.

pub mod elf;
pub mod gen;
pub mod mem;
pub mod program;
pub mod report;
