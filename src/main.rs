//! irix-emu: run and profile IRIX MIPS programs. See the README for the
//! commands and their exit statuses.

use std::process::ExitCode;

use clap::Parser;
use irix_emu::cli::{self, args::Cli, args::Command, status};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version are not failures.
            let code = if e.use_stderr() {
                status::EMULATOR_FAILURE
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
