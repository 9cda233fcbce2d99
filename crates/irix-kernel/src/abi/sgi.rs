//! syssgi(2) request codes (IRIX <sys/syssgi.h>) and the sysconf names
//! SGI_SYSCONF takes (<unistd.h> _SC_* values).

pub const SGI_SYSID: u32 = 1;
pub const SGI_SYSCONF: u32 = 22;
/// sprofil(2) is `syssgi(SGI_SPROFIL, profp, profcnt, tvp, flags)`.
pub const SGI_SPROFIL: u32 = 55;

pub const SC_ARG_MAX: u32 = 1;
pub const SC_CHILD_MAX: u32 = 2;
pub const SC_CLK_TCK: u32 = 3;
pub const SC_OPEN_MAX: u32 = 5;
pub const SC_PAGESIZE: u32 = 11;
