//! syssgi(2) request codes (IRIX <sys/syssgi.h>), the sysconf and pathconf
//! names they take (<unistd.h> _SC_*, _PC_*), and the commands of the other
//! SGI information calls: sysmp, prctl, sysinfo.

pub const SGI_SYSID: u32 = 1;
/// The hardware inventory: `syssgi(SGI_INVENT, SGI_INV_SIZEOF | SGI_INV_READ, buf, size)`.
pub const SGI_INVENT: u32 = 5;
pub const SGI_INV_SIZEOF: u32 = 1;
pub const SGI_INV_READ: u32 = 2;
/// The name of a process: `syssgi(SGI_RDNAME, pid, buf, len)`.
pub const SGI_RDNAME: u32 = 6;
/// Inventory classes and types (<sys/invent.h>): a processor, and its
/// board, CPU chip and FPU chip records.
pub const INV_PROCESSOR: u32 = 1;
pub const INV_CPUBOARD: u32 = 1;
pub const INV_CPUCHIP: u32 = 2;
pub const INV_FPUCHIP: u32 = 3;
/// The CPU board state of an Indigo R4000 (IP20). Doubt: the number is
/// from memory of <sys/invent.h>, which is not in the public headers we
/// could check.
pub const INV_IP20BOARD: u32 = 11;
/// setsid(2) and setpgid(2), as IRIX's libc makes them.
pub const SGI_SETSID: u32 = 20;
pub const SGI_SETPGID: u32 = 21;
pub const SGI_SYSCONF: u32 = 22;
/// pathconf(2)/fpathconf(2): `syssgi(SGI_PATHCONF, path or fd, name, which)`.
pub const SGI_PATHCONF: u32 = 24;
/// sprofil(2) is `syssgi(SGI_SPROFIL, profp, profcnt, tvp, flags)`.
pub const SGI_SPROFIL: u32 = 55;
/// sigstack(2) as IRIX 5.3's libc makes it: `syssgi(SGI_SIGSTACK, ss, oss)`.
pub const SGI_SIGSTACK: u32 = 57;
/// sigaltstack(2) as IRIX 5.3's libc makes it: `syssgi(SGI_SIGALTSTACK,
/// ss, oss)`.
pub const SGI_SIGALTSTACK: u32 = 60;
/// The supplementary groups: setgroups(2), getgroups(2).
pub const SGI_SETGROUPS: u32 = 40;
pub const SGI_GETGROUPS: u32 = 41;
/// getpgid(2) and getsid(2), as IRIX's libc makes them.
pub const SGI_GETPGID: u32 = 64;
pub const SGI_GETSID: u32 = 65;
/// Map an ELF object's PT_LOAD segments: `syssgi(SGI_ELFMAP, fd, phdrs, count)`.
pub const SGI_ELFMAP: u32 = 68;
/// "Toss any saved pregions".
pub const SGI_TOSSTSAVE: u32 = 108;
/// getdtablehi(3): the highest open descriptor plus one.
pub const SGI_FDHI: u32 = 109;
/// "Should bcopy/bzero use fp?" (IRIX 6's libc asks).
pub const SGI_USE_FP_BCOPY: u32 = 129;

/// sysconf names (<sys/unistd.h> _SC_*). IRIX 5.3's header is not in the
/// public IDO set; the numbers are those of IRIX 6's <sys/unistd.h>, which
/// IRIX 5.3's libc.so.1 agrees with (its sysconf answers 6 to 23 itself
/// and passes the rest to SGI_SYSCONF).
pub const SC_ARG_MAX: u32 = 1;
pub const SC_CHILD_MAX: u32 = 2;
pub const SC_CLK_TCK: u32 = 3;
pub const SC_NGROUPS_MAX: u32 = 4;
pub const SC_OPEN_MAX: u32 = 5;
pub const SC_JOB_CONTROL: u32 = 6;
pub const SC_SAVED_IDS: u32 = 7;
pub const SC_VERSION: u32 = 8;
pub const SC_PASS_MAX: u32 = 9;
pub const SC_LOGNAME_MAX: u32 = 10;
pub const SC_PAGESIZE: u32 = 11;
pub const SC_XOPEN_VERSION: u32 = 12;
pub const SC_NACLS_MAX: u32 = 13;
pub const SC_NPROC_CONF: u32 = 14;
pub const SC_NPROC_ONLN: u32 = 15;
pub const SC_STREAM_MAX: u32 = 16;
pub const SC_TZNAME_MAX: u32 = 17;
/// 18, 19 and 22 are gaps in IRIX 6's list, where its asynchronous I/O
/// names were before they moved to 64-68. Doubt: which of 18 and 19 is
/// _SC_AIO_LISTIO_MAX and which _SC_AIO_MAX is inferred from the order
/// IRIX 6 kept (66, 67); IRIX 5.3's libc answers 18 with 4 and 19 with 255.
pub const SC_AIO_LISTIO_MAX: u32 = 18;
pub const SC_AIO_MAX: u32 = 19;
pub const SC_RTSIG_MAX: u32 = 20;
pub const SC_SIGQUEUE_MAX: u32 = 21;
pub const SC_ASYNCHRONOUS_IO: u32 = 22;
pub const SC_REALTIME_SIGNALS: u32 = 23;
pub const SC_PRIORITIZED_IO: u32 = 24;
/// Trusted IRIX's options: access control lists, audit, information
/// labels, mandatory access control (the one the IDO compilers ask),
/// capabilities, IP security options.
pub const SC_ACL: u32 = 25;
pub const SC_AUDIT: u32 = 26;
pub const SC_INF: u32 = 27;
pub const SC_MAC: u32 = 28;
pub const SC_CAP: u32 = 29;
pub const SC_IP_SECOPTS: u32 = 30;
/// Bits in a kernel pointer: 32 or 64.
pub const SC_KERN_POINTERS: u32 = 31;

/// pathconf names (<sys/unistd.h> _PC_*; pathconf(2) lists 1 to 9).
pub const PC_LINK_MAX: u32 = 1;
pub const PC_MAX_CANON: u32 = 2;
pub const PC_MAX_INPUT: u32 = 3;
pub const PC_NAME_MAX: u32 = 4;
pub const PC_PATH_MAX: u32 = 5;
pub const PC_PIPE_BUF: u32 = 6;
pub const PC_CHOWN_RESTRICTED: u32 = 7;
pub const PC_NO_TRUNC: u32 = 8;
pub const PC_VDISABLE: u32 = 9;
/// SGI_PATHCONF's third argument: what the first names.
pub const PATHCONF_PATH: u32 = 1;
pub const PATHCONF_FD: u32 = 2;

/// sysmp commands (<sys/sysmp.h>).
pub const MP_NPROCS: u32 = 1;
pub const MP_NAPROCS: u32 = 2;
/// schedctl(2) is sysmp(MP_SCHED, cmd, ...) in IRIX's libc.
pub const MP_SCHED: u32 = 13;
pub const MP_PGSIZE: u32 = 14;

/// prctl options (<sys/prctl.h>).
pub const PR_MAXPROCS: u32 = 1;
pub const PR_ISBLOCKED: u32 = 2;
pub const PR_MAXPPROCS: u32 = 5;
pub const PR_GETNSHARE: u32 = 14;

/// sysinfo commands (SVR4 <sys/systeminfo.h>); the "set" ones start at 257.
pub const SI_SYSNAME: u32 = 1;
pub const SI_HOSTNAME: u32 = 2;
pub const SI_RELEASE: u32 = 3;
pub const SI_VERSION: u32 = 4;
pub const SI_MACHINE: u32 = 5;
pub const SI_ARCHITECTURE: u32 = 6;
pub const SI_HW_PROVIDER: u32 = 8;
pub const SI_SET_FIRST: u32 = 257;
