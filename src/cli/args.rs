//! Command-line options (clap).

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use cpu_mips::Engine;
use irix_kernel::profiling::Personality;

use gdb_stub::Listen;

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
    /// Run an IRIX program. (The text clap shows is `about`: a doc comment
    /// would need its brackets escaped for rustdoc, and clap would show
    /// the escapes.)
    #[command(
        about = "Run an IRIX program: irix-emu run [OPTIONS] PROGRAM [ARGS...]",
        long_about = None
    )]
    Run(RunArgs),
    /// Run a program with the kernel profiling it from outside; write gmon.out.
    Prof(ProfArgs),
    /// Report a profile of PROGRAM again: a gmon.out, or an IRIX mon.out.
    Report(ReportArgs),
    /// Print a shell completion script: irix-emu completions bash > FILE.
    Completions {
        /// The shell: bash, zsh, fish, elvish or powershell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print a manual page (roff): irix-emu man > irix-emu.1, or a
    /// command's own: irix-emu man run > irix-emu-run.1.
    Man {
        /// The command whose page to print (run, prof, report...).
        command: Option<String>,
    },
}

/// Options shared by run and prof.
#[derive(Args, Debug, Clone)]
pub struct MachineArgs {
    /// The host directory that is the guest's `/` (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Make a host directory visible in the guest at GUEST (default: the same
    /// absolute path); repeatable, the most specific bind wins.
    #[arg(long, value_name = "HOST[:GUEST]")]
    pub bind: Vec<OsString>,
    /// Set VAR=VALUE in the guest's environment (repeatable).
    #[arg(short = 'E', long = "env", value_name = "VAR=VALUE")]
    pub env: Vec<OsString>,
    /// Remove VAR from the guest's environment (repeatable).
    #[arg(short = 'U', long = "unset", value_name = "VAR")]
    pub unset: Vec<OsString>,
    /// -E and -U in command-line order (filled from the parser's indices).
    #[arg(skip)]
    pub env_edits: Vec<EnvEdit>,
    /// Print one line per system call to stderr.
    #[arg(long)]
    pub strace: bool,
    /// Print instructions, cycles, virtual and host seconds, host memory and guest MIPS at exit.
    #[arg(long)]
    pub stats: bool,
    /// Pipeline clock rate in MHz (virtual time = cycles / rate).
    #[arg(long, value_name = "MHZ", default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=4_000))]
    pub cpu_mhz: u64,
    /// How instructions execute: interp (one at a time, the reference),
    /// block (whole blocks at a time) or jit (hot blocks compiled to host
    /// code); every engine gives the same cycles, profiles and results.
    #[arg(long, value_name = "ENGINE", default_value_t = Engine::default(), value_parser = str::parse::<Engine>)]
    pub engine: Engine,
    /// Where the jit engine keeps compiled code from run to run, so a
    /// program starts with its hot code already compiled: a directory
    /// (made mode 0700; ./off for one named off), or off. Default:
    /// $XDG_CACHE_HOME/irix-emu, else ~/.cache/irix-emu.
    #[arg(long, value_name = "DIR|off", value_parser = str::parse::<JitCache>)]
    pub jit_cache: Option<JitCache>,
    /// Record each function the jit engine installs in DIR/jit-PID.dump,
    /// for Linux perf (perf record -k mono, then perf inject --jit): a
    /// profile then names compiled code by its guest address.
    #[arg(long, value_name = "DIR")]
    pub perf_jitdump: Option<PathBuf>,
    /// Stop the guest after N cycles of virtual time (exit status 124).
    #[arg(long, value_name = "N")]
    pub max_cycles: Option<u64>,
    /// Stop the guest after SECONDS of host (wall-clock) time (exit status 124).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub timeout: Option<std::time::Duration>,
    /// The memory budget of the whole run: every process's touched pages,
    /// page tables and kernel buffers, in bytes (K, M, G suffixes; default 1G).
    #[arg(long, value_name = "BYTES", value_parser = parse_size)]
    pub max_memory: Option<u64>,
    /// Wall-clock time at virtual time 0, in seconds since 1970.
    #[arg(long, value_name = "SECONDS")]
    pub epoch: Option<u32>,
    /// Let AF_INET sockets reach the host's network: a connect or send to
    /// an address no socket of the run holds goes to a host socket, and a
    /// bound port is bound on the host too. Such a run is not repeatable.
    #[arg(long)]
    pub net: bool,
    /// Whose rules the profiling calls follow: irix, solaris, darwin, aix or hpux.
    #[arg(long, value_name = "PERSONALITY", default_value_t = Personality::Irix, value_parser = str::parse::<Personality>)]
    pub personality: Personality,
    /// Wait for GDB on PORT (localhost), ADDR:PORT or unix:PATH before the
    /// first instruction, and serve it the first process.
    #[arg(long, value_name = "PORT|ADDR:PORT|unix:PATH", value_parser = str::parse::<Listen>)]
    pub gdb: Option<Listen>,
}

/// `--jit-cache`: a directory, or off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JitCache {
    Off,
    Dir(PathBuf),
}

impl std::str::FromStr for JitCache {
    type Err = String;
    fn from_str(s: &str) -> Result<JitCache, String> {
        match s {
            "off" => Ok(JitCache::Off),
            "" => Err("an empty directory name (give a directory, or off)".into()),
            dir => Ok(JitCache::Dir(PathBuf::from(dir))),
        }
    }
}

/// One edit of the guest environment, in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EnvEdit {
    Set(OsString),
    Unset(OsString),
}

impl MachineArgs {
    /// Orders the -E and -U values by where they stood on the command line
    /// (clap keeps each option's values in its own list).
    pub fn order_env_edits(&mut self, m: &clap::ArgMatches) {
        let sets = m
            .indices_of("env")
            .into_iter()
            .flatten()
            .zip(self.env.iter().cloned().map(EnvEdit::Set));
        let unsets = m
            .indices_of("unset")
            .into_iter()
            .flatten()
            .zip(self.unset.iter().cloned().map(EnvEdit::Unset));
        let mut edits: Vec<(usize, EnvEdit)> = sets.chain(unsets).collect();
        edits.sort_by_key(|(i, _)| *i);
        self.env_edits = edits.into_iter().map(|(_, e)| e).collect();
    }
}

/// PROGRAM and the guest's arguments, from a command's trailing values
/// (clap requires at least one; an empty list is still an error, not a panic).
pub fn split_command(command: &[OsString]) -> Result<(PathBuf, &[OsString]), super::Failure> {
    match command.split_first() {
        Some((program, args)) => Ok((PathBuf::from(program), args)),
        None => Err(super::Failure::new(
            crate::exit::EMULATOR_FAILURE,
            "missing PROGRAM",
        )),
    }
}

#[derive(Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub machine: MachineArgs,
    /// The IRIX executable, then the guest's arguments: everything from
    /// PROGRAM on belongs to the guest, options included.
    #[arg(value_name = "PROGRAM [ARGS]", required = true, num_args = 1.., trailing_var_arg = true)]
    pub command: Vec<OsString>,
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
    /// Also charge every retired cycle to its PC and compare with the
    /// samples; implies --callgraph, whose sidecar keeps the exact figures
    /// for `report`.
    #[arg(long)]
    pub exact: bool,
    /// Track every call and return: gmon.out gets call arcs, the stack at
    /// each sample goes to FILE.callgraph beside it, and the report a call
    /// graph. Implied by --svg and by every --format but text and json.
    #[arg(long)]
    pub callgraph: bool,
    /// Report format (written to stderr, or to --report FILE).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write the report to FILE (atomically) instead of stderr; pprof needs it.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Draw a flame graph of the real stacks as a self-contained SVG file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Count each process's system calls, errors and virtual system time
    /// (like strace -c): printed after the profile, kept in FILE.syscalls.
    #[arg(long)]
    pub syscalls: bool,
    /// The IRIX executable, then the guest's arguments: everything from
    /// PROGRAM on belongs to the guest, options included.
    #[arg(value_name = "PROGRAM [ARGS]", required = true, num_args = 1.., trailing_var_arg = true)]
    pub command: Vec<OsString>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The flat profile (like gprof -p), and the call graph when there is one.
    Text,
    /// One line per distinct stack and its samples (flamegraph.pl, inferno).
    Folded,
    /// The flat profile as JSON.
    Json,
    /// callgrind format (callgrind_annotate, KCachegrind).
    Callgrind,
    /// pprof's profile.proto, gzipped (go tool pprof, Speedscope).
    Pprof,
    /// Speedscope's JSON.
    Speedscope,
    /// The Firefox Profiler's JSON: every process on one virtual time
    /// axis, with real stacks (prof only: the timeline is not kept).
    Firefox,
}

impl Format {
    /// Formats about stacks and calls: `prof` tracks calls for them.
    pub fn wants_call_graph(self) -> bool {
        !matches!(self, Format::Text | Format::Json)
    }
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
    /// Draw a self-contained SVG file: a flame graph of the real stacks
    /// when GMON.callgraph exists, else the histogram.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Print only the system-call table that `prof --syscalls` kept beside
    /// FILE (as text, or with --format json as JSON).
    #[arg(long)]
    pub syscalls: bool,
    /// Compare FILE with the profile BASE (a gmon.out or mon.out of the same
    /// program, or of an older build of it: see --base-program): per
    /// function the change in samples, inclusive samples and exact
    /// instructions and cycles, as text, json, folded (a differential
    /// flame graph's input) or pprof (as go tool pprof -diff_base forms it).
    #[arg(long, value_name = "BASE")]
    pub diff: Option<PathBuf>,
    /// The program BASE is a profile of, when it is another build than
    /// PROGRAM (default: PROGRAM).
    #[arg(long, value_name = "PROGRAM", requires = "diff")]
    pub base_program: Option<PathBuf>,
    /// The guest root the program ran in: where the shared objects named in
    /// an IRIX mon.out are read for their symbols.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// The profiled executable (for its symbols).
    pub program: PathBuf,
    /// The profile: a gmon.out or an IRIX mon.out (told apart by content).
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
        .ok_or_else(|| format!("'{s}' is not a size in bytes (e.g. 65536, 64K, 16M)"))
        .and_then(|n| match n {
            0 => Err("a budget of 0 bytes holds nothing: give a size above zero (e.g. 64K, 16M; the default is 1G)".to_string()),
            n => Ok(n),
        })
}

fn parse_seconds(s: &str) -> Result<std::time::Duration, String> {
    s.parse::<f64>()
        .ok()
        .filter(|n| n.is_finite() && *n > 0.0 && *n <= 1e9)
        .map(std::time::Duration::from_secs_f64)
        .ok_or_else(|| format!("'{s}' is not a number of seconds (e.g. 10, 0.5)"))
}

fn parse_granularity(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(n) if (4..=1 << 17).contains(&n) && n.is_power_of_two() => Ok(n),
        _ => Err(format!("'{s}' is not a power of two from 4 to 131072")),
    }
}
