//! The profiling calls' flag values and struct sizes.

/// sprofil flags (glibc's copy of the IRIX header): 16-bit counters.
pub const PROF_USHORT: u32 = 0;
/// 32-bit counters.
pub const PROF_UINT: u32 = 1;
/// Sample every millisecond.
pub const PROF_FAST: u32 = 2;
/// HP-UX 64-bit counters: no public value; this project's choice.
pub const PROF_UINT64: u32 = 4;

/// `sizeof(struct prof)` on o32/n32: four 4-byte fields (docs/abi.md).
pub const PROF_STRUCT_SIZE: u32 = 16;
/// `sizeof(struct prof)` of AIX's array form: five 4-byte fields.
pub const AIX_PROF_STRUCT_SIZE: u32 = 20;
