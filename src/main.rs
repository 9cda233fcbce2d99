//! irix-emu: run and profile IRIX MIPS programs. See the README for the
//! commands and their exit statuses.

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};
use irix_emu::cli::{self, args::Cli, args::Command};
use irix_emu::exit;

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
        Err(e) => {
            // --help and --version are not failures.
            let code = if e.use_stderr() {
                exit::EMULATOR_FAILURE
            } else {
                0
            };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match &cli.command {
        Command::Run(args) => cli::run::run(args),
        Command::Prof(args) => cli::prof::prof(args),
        Command::Report(args) => cli::report::report(args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(f) => {
            cli::say(format_args!("{}", f.message));
            ExitCode::from(f.status)
        }
    }
}
