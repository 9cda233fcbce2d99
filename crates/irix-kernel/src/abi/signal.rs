//! Signal numbers (SVR4 numbering, as IRIX's <sys/signal.h>), the
//! dispositions' special values, and the BREAK codes that ask for SIGFPE.

pub const SIGHUP: u32 = 1;
pub const SIGINT: u32 = 2;
pub const SIGQUIT: u32 = 3;
pub const SIGILL: u32 = 4;
pub const SIGTRAP: u32 = 5;
pub const SIGABRT: u32 = 6;
pub const SIGEMT: u32 = 7;
pub const SIGFPE: u32 = 8;
pub const SIGKILL: u32 = 9;
pub const SIGBUS: u32 = 10;
pub const SIGSEGV: u32 = 11;
pub const SIGSYS: u32 = 12;
pub const SIGPIPE: u32 = 13;
pub const SIGALRM: u32 = 14;
pub const SIGTERM: u32 = 15;
pub const SIGUSR1: u32 = 16;
pub const SIGUSR2: u32 = 17;
pub const SIGCHLD: u32 = 18;
pub const SIGPWR: u32 = 19;
pub const SIGWINCH: u32 = 20;
pub const SIGURG: u32 = 21;
pub const SIGPOLL: u32 = 22;
pub const SIGSTOP: u32 = 23;
pub const SIGTSTP: u32 = 24;
pub const SIGCONT: u32 = 25;
pub const SIGTTIN: u32 = 26;
pub const SIGTTOU: u32 = 27;
pub const SIGVTALRM: u32 = 28;
pub const SIGPROF: u32 = 29;
/// RLIMIT_CPU's and RLIMIT_FSIZE's signals (getrlimit(2)).
pub const SIGXCPU: u32 = 30;
pub const SIGXFSZ: u32 = 31;
/// Signals are 1..=NSIG-1 (IRIX has 64 slots; 1..32 are the classic ones).
pub const NSIG: u32 = 65;

pub const SIG_DFL: u32 = 0;
pub const SIG_IGN: u32 = 1;

/// BREAK codes the MIPS compilers use for integer divide by zero (7) and
/// overflow (6): IRIX delivers SIGFPE for these, SIGTRAP for the rest.
pub const BRK_OVERFLOW: u32 = 6;
pub const BRK_DIVZERO: u32 = 7;
