//! Command-line options (clap).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use irix_kernel::profiling::Personality;

#[derive(Parser, Debug)]
#[command(
    name = "irix-emu",
    version,
    about = "Run and profile IRIX MIPS programs on a cycle-level R4000 emulator"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run an IRIX program: irix-emu run [OPTIONS] PROGRAM [ARGS...]
    Run(RunArgs),
    /// Run a program with the kernel profiling it from outside; write gmon.out.
    Prof(ProfArgs),
    /// Print the flat profile of a gmon.out for PROGRAM.
    Report(ReportArgs),
}

/// Options shared by run and prof.
#[derive(Args, Debug, Clone)]
pub struct MachineArgs {
    /// The host directory that is the guest's `/` (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Set VAR=VALUE in the guest's environment (repeatable).
    #[arg(short = 'E', long = "env", value_name = "VAR=VALUE")]
    pub env: Vec<String>,
    /// Remove VAR from the guest's environment (repeatable).
    #[arg(short = 'U', long = "unset", value_name = "VAR")]
    pub unset: Vec<String>,
    /// Print one line per system call to stderr.
    #[arg(long)]
    pub strace: bool,
    /// Print instructions, cycles, virtual and host seconds and guest MIPS at exit.
    #[arg(long)]
    pub stats: bool,
    /// Pipeline clock rate in MHz (virtual time = cycles / rate).
    #[arg(long, value_name = "MHZ", default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=4_000))]
    pub cpu_mhz: u64,
    /// Stop the guest after N cycles of virtual time (exit status 124).
    #[arg(long, value_name = "N")]
    pub max_cycles: Option<u64>,
    /// Limit each guest process's memory, in bytes (K, M, G suffixes allowed).
    #[arg(long, value_name = "BYTES", value_parser = parse_size)]
    pub max_memory: Option<u64>,
    /// Wall-clock time at virtual time 0, in seconds since 1970.
    #[arg(long, value_name = "SECONDS")]
    pub epoch: Option<u32>,
    /// Whose rules the profiling calls follow.
    #[arg(long, value_enum, default_value_t = PersonalityArg::Irix)]
    pub personality: PersonalityArg,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PersonalityArg {
    Irix,
    Solaris,
    Darwin,
    Aix,
    Hpux,
}

impl From<PersonalityArg> for Personality {
    fn from(p: PersonalityArg) -> Self {
        match p {
            PersonalityArg::Irix => Personality::Irix,
            PersonalityArg::Solaris => Personality::Solaris,
            PersonalityArg::Darwin => Personality::Darwin,
            PersonalityArg::Aix => Personality::Aix,
            PersonalityArg::Hpux => Personality::Hpux,
        }
    }
}

#[derive(Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub machine: MachineArgs,
    /// The IRIX executable.
    pub program: PathBuf,
    /// Arguments for the guest (everything after PROGRAM).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub args: Vec<String>,
}

#[derive(Args, Debug)]
pub struct ProfArgs {
    #[command(flatten)]
    pub machine: MachineArgs,
    /// Where to write the profile.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "FILE",
        default_value = "gmon.out"
    )]
    pub output: PathBuf,
    /// Bytes of text per histogram bin (a power of two, at least 4: one
    /// counter per instruction).
    #[arg(long, value_name = "BYTES", default_value_t = 4, value_parser = parse_granularity)]
    pub granularity: u32,
    /// Sample every millisecond (PROF_FAST) instead of every clock tick.
    #[arg(long)]
    pub fast: bool,
    /// Also charge every retired cycle to its PC and compare with the samples.
    #[arg(long)]
    pub exact: bool,
    /// The IRIX executable.
    pub program: PathBuf,
    /// Arguments for the guest (everything after PROGRAM).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub args: Vec<String>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Folded,
    Json,
}

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Add source lines (needs DWARF line info in PROGRAM).
    #[arg(long)]
    pub lines: bool,
    /// Print FUNCTION's disassembly with per-instruction sample counts.
    #[arg(long, value_name = "FUNCTION")]
    pub annotate: Option<String>,
    /// Draw the histogram as a self-contained SVG file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// The profiled executable (for its symbols).
    pub program: PathBuf,
    /// The profile.
    pub gmon: PathBuf,
}

fn parse_size(s: &str) -> Result<u64, String> {
    let (digits, mult) = match s.char_indices().last() {
        Some((i, 'K' | 'k')) => (&s[..i], 1u64 << 10),
        Some((i, 'M' | 'm')) => (&s[..i], 1 << 20),
        Some((i, 'G' | 'g')) => (&s[..i], 1 << 30),
        _ => (s, 1),
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(mult))
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("'{s}' is not a size in bytes (e.g. 65536, 64K, 16M)"))
}

fn parse_granularity(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(n) if (4..=1 << 17).contains(&n) && n.is_power_of_two() => Ok(n),
        _ => Err(format!("'{s}' is not a power of two from 4 to 131072")),
    }
}
