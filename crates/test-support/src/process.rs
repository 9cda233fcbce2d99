//! Running a program to its end with a time limit, both output streams
//! captured: a hang becomes a test failure, never a stuck test run.
//!
//! Contents: [`TIME_LIMIT`], [`Status`], [`Run`], [`run_command`],
//! [`run_command_within`].

use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Wall-clock limit for one process. The programs the tests run end in
/// seconds; the limit only turns a hang into a failure.
pub const TIME_LIMIT: Duration = Duration::from_secs(120);

/// How a process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// It exited with this status.
    Code(i32),
    /// A signal killed it (qemu-mips dies by the guest's fatal signal).
    Signal(i32),
}

impl Status {
    /// The status a shell would report: 128 + N for death by signal N.
    pub fn shell(self) -> i32 {
        match self {
            Status::Code(c) => c,
            Status::Signal(n) => 128 + n,
        }
    }
}

/// What a finished process printed and how it ended.
#[derive(Debug)]
pub struct Run {
    pub status: Status,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Run {
    /// stdout as text (anything not UTF-8 shows as U+FFFD).
    pub fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// The lines of stderr.
    pub fn stderr_lines(&self) -> Vec<&str> {
        self.stderr.lines().collect()
    }
}

/// Runs `cmd` to completion (stdin empty), capturing stdout and stderr;
/// kills it and panics after [`TIME_LIMIT`].
pub fn run_command(cmd: Command) -> Run {
    run_command_within(cmd, TIME_LIMIT)
}

/// As [`run_command`], with another wall-clock limit (for the few steps,
/// such as a real IRIX tool's run, that take minutes on a loaded machine).
pub fn run_command_within(mut cmd: Command, limit: Duration) -> Run {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let shown = format!("{cmd:?}");
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {shown}: {e}"));
    // Both pipes are drained on their own threads so a chatty child never
    // blocks on a full pipe while we wait for it.
    let mut out = child.stdout.take().expect("stdout is piped");
    let mut err = child.stderr.take().expect("stderr is piped");
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        out.read_to_end(&mut v).map(|_| v)
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        err.read_to_end(&mut v).map(|_| v)
    });
    let started = Instant::now();
    let exit = loop {
        match child.try_wait() {
            Ok(Some(exit)) => break exit,
            Ok(None) if started.elapsed() > limit => {
                // Best effort: the panic below is the report.
                child.kill().ok();
                child.wait().ok();
                panic!("{shown} still running after {limit:?}: killed");
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => panic!("waiting for {shown}: {e}"),
        }
    };
    let read = |r: std::thread::JoinHandle<std::io::Result<Vec<u8>>>, name: &str| {
        r.join()
            .expect("reader thread")
            .unwrap_or_else(|e| panic!("reading the {name} of {shown}: {e}"))
    };
    let stdout = read(out_reader, "stdout");
    let stderr = read(err_reader, "stderr");
    let status = match (exit.code(), exit.signal()) {
        (Some(code), _) => Status::Code(code),
        (None, Some(sig)) => Status::Signal(sig),
        (None, None) => panic!("{shown}: neither an exit status nor a signal"),
    };
    Run {
        status,
        stdout,
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    }
}
