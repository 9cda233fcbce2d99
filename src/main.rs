//! irix-emu: run and profile IRIX MIPS programs. See the README for the
//! commands and their exit statuses.

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};
use irix_emu::cli::{self, args::Cli, args::Command};
use irix_emu::exit;

// Each guest process builds and drops thousands of blocks, each a few
// small boxed slices; glibc's malloc gave that memory back and faulted it
// in again (docs/performance.md, "The allocator").
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let parsed = Cli::command().try_get_matches().and_then(|m| {
        let mut cli = Cli::from_arg_matches(&m)?;
        // -E and -U apply in command-line order, which clap's per-option
        // lists lose: restore it from the parser's indices.
        match (&mut cli.command, m.subcommand()) {
            (Command::Run(a), Some((_, sub))) => a.machine.order_env_edits(sub),
            (Command::Prof(a), Some((_, sub))) => a.machine.order_env_edits(sub),
            _ => {}
        }
        Ok(cli)
    });
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    let result = match &cli.command {
        Command::Run(args) => cli::run::run(args),
        Command::Prof(args) => cli::prof::prof(args),
        Command::Report(args) => cli::report::report(args),
        Command::Completions { shell } => cli::generate::completions(*shell),
        Command::Man { command } => cli::generate::man(command.as_deref()),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(f) => {
            f.print();
            ExitCode::from(f.status)
        }
    }
}

/// A command line clap refused: --help and --version print as clap prints
/// them (status 0); anything else is one "irix-emu:" line, the first of
/// clap's message, and a hint naming the command's --help (status 125).
fn usage_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if !e.use_stderr()
        || matches!(
            e.kind(),
            ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
        )
    {
        let _ = e.print();
        let code = if e.use_stderr() {
            exit::EMULATOR_FAILURE
        } else {
            0
        };
        return ExitCode::from(code);
    }
    let text = e.render().to_string();
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("bad command line");
    let mut message = first.strip_prefix("error: ").unwrap_or(first).to_string();
    // "the following required arguments were not provided:" names them on
    // the next line: keep the one line whole.
    if message.ends_with(':') {
        if let Some(next) = lines.next() {
            message = format!("{message} {next}");
        }
    }
    let hint = format!("try '{} --help'", command_named());
    cli::Failure::new(exit::EMULATOR_FAILURE, message)
        .hint(hint)
        .print();
    ExitCode::from(exit::EMULATOR_FAILURE)
}

/// "irix-emu" and the command the arguments name, for a hint.
fn command_named() -> String {
    let commands = ["run", "prof", "report", "completions", "man"];
    std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .filter(|a| commands.contains(&a.as_str()))
        .map_or_else(|| "irix-emu".to_string(), |c| format!("irix-emu {c}"))
}
