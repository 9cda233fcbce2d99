//! The command line: `irix-emu run`, `prof` and `report` (their exit
//! statuses are in `crate::exit`).
//!
//! - `args`: the clap definitions.
//! - `launch`: loading a program and starting the kernel (shared by run and prof).
//! - `run`, `prof`, `report`: the three commands; `diff`: `report --diff`.
//! - `generate`: `completions` and `man`, from the clap definition.
//! - `interrupt`: SIGINT, SIGTERM and SIGHUP stop a run cleanly (128 + N).
//! - `translations`: the jit engine's translation cache (`--jit-cache`).

pub mod args;
pub mod diff;
pub mod generate;
pub mod interrupt;
pub mod launch;
pub mod output;
pub mod prof;
pub mod report;
pub mod run;
pub mod translations;

/// Writes one "irix-emu: ..." line to stderr. Never panics: when stderr is
/// gone (a closed pipe) the message is dropped, as `eprintln!` would not.
pub fn say(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "irix-emu: {line}");
}

/// A failure that ends irix-emu with one line on stderr and a status, and
/// when there is something to try, a second line saying what.
#[derive(Debug)]
pub struct Failure {
    pub status: u8,
    pub message: String,
    /// What to try next ("try 'irix-emu run --help'"), if anything.
    pub hint: Option<String>,
}

impl Failure {
    pub fn new(status: u8, message: impl Into<String>) -> Self {
        Failure {
            status,
            message: message.into(),
            hint: None,
        }
    }

    /// The same failure, with a line saying what to try.
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Prints the failure: "irix-emu: MESSAGE", then "irix-emu: hint: HINT".
    pub fn print(&self) {
        say(format_args!("{}", self.message));
        if let Some(hint) = &self.hint {
            say(format_args!("hint: {hint}"));
        }
    }
}
