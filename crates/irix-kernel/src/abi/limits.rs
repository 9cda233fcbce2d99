//! System limits as the guest sees them (sysconf, ulimit, <limits.h>).

/// Bytes of argv + envp that execve takes. IRIX 5's <limits.h> says 5120;
/// IRIX 6 raised it to 20480. irix-emu reports and enforces the larger.
pub const ARG_MAX: usize = 20480;
/// Processes per user (sysconf(_SC_CHILD_MAX)).
pub const CHILD_MAX: u32 = 100;
/// Descriptors a process may hold (sysconf(_SC_OPEN_MAX)).
pub const OPEN_MAX: usize = 200;
/// The longest path name, with its NUL.
pub const PATH_MAX: usize = 1024;
/// Links followed in one path resolution before ELOOP (SVR4 MAXSYMLINKS).
pub const MAX_SYMLINKS: usize = 30;
/// Bytes in a page (IRIX on the R4000: 4096, getpagesize()).
pub const PAGE_SIZE: u32 = 4096;
/// The clock rate, HZ: sysconf(_SC_CLK_TCK) = 100.
pub const HZ: u32 = 100;
/// The highest user address plus one: kuseg ends at 0x8000_0000.
pub const USER_TOP: u64 = 0x8000_0000;
