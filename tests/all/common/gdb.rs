//! Driving `irix-emu run --gdb` with a real GDB (Debian's gdb-multiarch)
//! in batch mode, and speaking the remote protocol by hand where batch GDB
//! cannot (an interrupt).

use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{emu_command, guest_program, require_tool, run_command, Run, Scratch};

pub const GDB: &str = "gdb-multiarch";

/// Waits until the emulator has bound its socket (it prints where first).
pub fn wait_for_socket(sock: &Path) {
    let started = Instant::now();
    while !sock.exists() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "irix-emu never listened on {}",
            sock.display()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Starts `irix-emu <command> --gdb unix:SOCK <extra> PROGRAM <args>` on a
/// thread; returns the socket path and the thread's handle.
pub fn start_emu(
    dir: &Scratch,
    command: &str,
    extra: &[&str],
    program: &Path,
    args: &[&str],
) -> (PathBuf, std::thread::JoinHandle<Run>) {
    let sock = dir.path().join("gdb.sock");
    let mut argv: Vec<String> = vec![
        command.into(),
        "--gdb".into(),
        format!("unix:{}", sock.display()),
    ];
    argv.extend(extra.iter().map(|s| s.to_string()));
    argv.push(program.display().to_string());
    argv.extend(args.iter().map(|s| s.to_string()));
    let cmd = emu_command(&argv, dir.path());
    let handle = std::thread::spawn(move || run_command(cmd));
    wait_for_socket(&sock);
    (sock, handle)
}

/// Runs GDB in batch mode: loads `program`, connects to `sock`, then runs
/// `commands`. Returns GDB's output (stdout and stderr).
pub fn gdb(dir: &Scratch, program: &Path, sock: &Path, commands: &str) -> String {
    // The guest's debug information names its sources relative to
    // guest/ (build.sh maps the build directory away, so the binary is the
    // same in every checkout): GDB finds them through `directory`.
    let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("guest");
    let setup = format!("directory {}", sources.display());
    gdb_run(dir, &[], &setup, program, sock, commands)
}

/// Runs GDB in batch mode with the command-line `options`: `setup`, then
/// loads `program`, connects to `sock` and runs `commands`. Returns GDB's
/// output (stdout and stderr).
pub fn gdb_run(
    dir: &Scratch,
    options: &[&str],
    setup: &str,
    program: &Path,
    sock: &Path,
    commands: &str,
) -> String {
    let script = format!(
        "set pagination off\nset confirm off\nset width 0\n{setup}\nfile {}\ntarget remote {}\n{commands}\n",
        program.display(),
        sock.display()
    );
    let path = dir.write("script.gdb", script.as_bytes());
    // One stream, so GDB's messages (stderr: monitor output, errors) stay
    // in order with its stdout.
    let mut cmd = std::process::Command::new("sh");
    cmd.arg("-c")
        .arg(format!(
            "exec {GDB} -nx -batch {} -x \"$0\" 2>&1",
            options.join(" ")
        ))
        .arg(&path);
    let run = run_command(cmd);
    format!("{}{}", run.stdout_text(), run.stderr)
}

/// One debugging session: the emulator's run and GDB's output.
pub fn session(
    command: &str,
    extra: &[&str],
    args: &[&str],
    commands: &str,
) -> Option<(Run, String)> {
    if !require_tool(GDB) {
        return None;
    }
    let program = guest_program("irix", "gdb_target")?;
    let dir = Scratch::new("gdb");
    let (sock, emu) = start_emu(&dir, command, extra, &program, args);
    let out = gdb(&dir, &program, &sock, commands);
    let run = emu.join().expect("irix-emu thread");
    Some((run, out))
}

pub fn assert_lines(out: &str, expected: &[&str]) {
    for line in expected {
        assert!(
            out.lines().any(|l| l.trim_end() == *line),
            "GDB's output lacks the line {line:?}:\n{out}"
        );
    }
}

/// Reads one `$...#xx` packet (acknowledging it), skipping acks.
pub fn read_packet<S: Read + Write>(s: &mut S) -> String {
    let mut byte = [0u8];
    loop {
        s.read_exact(&mut byte).expect("a reply");
        if byte[0] == b'$' {
            break;
        }
    }
    let mut body = Vec::new();
    loop {
        s.read_exact(&mut byte).expect("a reply");
        if byte[0] == b'#' {
            break;
        }
        body.push(byte[0]);
    }
    let mut sum = [0u8; 2];
    s.read_exact(&mut sum).expect("checksum");
    // The ack of a last reply (vKill's OK) may find the stub gone.
    let _ = s.write_all(b"+");
    String::from_utf8_lossy(&body).into_owned()
}

/// A connection to the stub at `sock`, for speaking the protocol by hand
/// (replies are awaited at most a minute). The socket file appears when
/// the stub binds, a moment before it listens: a refused connection is
/// tried again for up to a minute.
pub fn connect(sock: &Path) -> UnixStream {
    let started = Instant::now();
    let s = loop {
        match UnixStream::connect(sock) {
            Err(e)
                if e.kind() == std::io::ErrorKind::ConnectionRefused
                    && started.elapsed() < Duration::from_secs(60) =>
            {
                std::thread::sleep(Duration::from_millis(10));
            }
            other => break other.expect("connect"),
        }
    };
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    s
}

/// Sends one `$packet#xx`.
pub fn send_packet<S: Write>(s: &mut S, packet: &str) {
    let sum = packet.bytes().fold(0u8, |a, b| a.wrapping_add(b));
    write!(s, "${packet}#{sum:02x}").unwrap();
}

/// Sends one packet and reads the reply.
pub fn exchange<S: Read + Write>(s: &mut S, packet: &str) -> String {
    send_packet(s, packet);
    read_packet(s)
}

/// The undebugged run's plain.out and the debugged run's debugged.out, in
/// `dir`, are the same profile bit for bit.
pub fn assert_same_gmon(dir: &Scratch) {
    let a = std::fs::read(dir.path().join("plain.out")).unwrap();
    let b = std::fs::read(dir.path().join("debugged.out")).unwrap();
    assert!(a == b, "the debugged run's gmon.out differs");
}
