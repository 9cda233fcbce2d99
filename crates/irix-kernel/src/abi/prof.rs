//! The profiling calls' flag values and struct sizes.

/// sprofil flags, the values IRIX 5.3's own profiling runtime (libprof,
/// linked by `cc -p`) passes: 1 with PROF_COUNTSIZE=2, 2 by default and
/// with PROF_COUNTSIZE=4, plus 4 with PROF_SAMPLING=1 (docs/mon-out.md).
/// sprofil(2)'s EINVAL for flags that do not "contain one of the values
/// (PROF_USHORT or PROF_UINT)" also needs PROF_USHORT to be a bit.
/// (glibc's copy of the header numbers them 0, 1, 2: not IRIX's.)
/// 16-bit counters.
pub const PROF_USHORT: u32 = 1;
/// 32-bit counters.
pub const PROF_UINT: u32 = 2;
/// Sample every millisecond.
pub const PROF_FAST: u32 = 4;
/// HP-UX 64-bit counters: no public value; this project's choice.
pub const PROF_UINT64: u32 = 8;

/// `sizeof(struct prof)` on o32/n32: four 4-byte fields (docs/abi.md).
pub const PROF_STRUCT_SIZE: u32 = 16;
/// `sizeof(struct prof)` of AIX's array form: five 4-byte fields.
pub const AIX_PROF_STRUCT_SIZE: u32 = 20;
