//! `irix-emu completions SHELL` and `irix-emu man`: both generated from the
//! clap definition in `args`, so they list exactly the options the parser
//! takes.

use std::io::Write;

use clap::CommandFactory;

use super::args::Cli;
use super::Failure;
use crate::exit;

/// Writes SHELL's completion script for irix-emu to stdout.
pub fn completions(shell: clap_complete::Shell) -> Result<u8, Failure> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "irix-emu", &mut out);
    write_stdout(&out)
}

/// Writes a manual page to stdout: irix-emu(1), which lists the commands,
/// or with COMMAND that command's page, irix-emu-COMMAND(1).
pub fn man(command: Option<&str>) -> Result<u8, Failure> {
    let top = Cli::command();
    let page = match command {
        None => top,
        Some(name) => {
            let sub = top
                .get_subcommands()
                .find(|s| s.get_name() == name)
                .cloned()
                .ok_or_else(|| {
                    let names: Vec<&str> = top.get_subcommands().map(|s| s.get_name()).collect();
                    Failure::new(
                        exit::EMULATOR_FAILURE,
                        format!(
                            "man: no command '{name}' (the commands: {})",
                            names.join(", ")
                        ),
                    )
                })?;
            sub.name(format!("irix-emu-{name}"))
                .bin_name(format!("irix-emu {name}"))
        }
    };
    let title = command.map_or_else(|| "irix-emu".to_string(), |c| format!("irix-emu-{c}"));
    let mut out = Vec::new();
    clap_mangen::Man::new(page)
        .title(title)
        .render(&mut out)
        .map_err(|e| Failure::new(exit::EMULATOR_FAILURE, format!("man page: {e}")))?;
    write_stdout(&out)
}

fn write_stdout(bytes: &[u8]) -> Result<u8, Failure> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(bytes)
        .and_then(|()| stdout.flush())
        .map_err(|e| Failure::new(exit::EMULATOR_FAILURE, format!("stdout: {e}")))?;
    Ok(0)
}
