//! Loading PROGRAM and starting a kernel for it: what `run` and `prof`
//! share, and where each way of failing gets its exit status.

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use cpu_mips::Observer;
use gdb_stub::{Debugged, GdbError, Listen, Listener};
use irix_kernel::kernel::{Kernel, KernelConfig, Outcome, DEFAULT_EPOCH, DEFAULT_MAX_MEMORY};
use irix_kernel::signals;
use irix_kernel::vfs::{Follow, Vfs};
use irix_kernel::{Errno, SpawnError};
use loader::{Executable, LoadOptions};

use profile_formats::files::{read_bounded, InputError};

use super::args::{EnvEdit, MachineArgs};
use super::{say, Failure};
use crate::exit;

/// The largest executable read: 512 MiB. Its segments must fit the 2 GiB
/// user address space, and no IRIX-era program, debug information
/// included, came near this.
pub const MAX_PROGRAM_BYTES: u64 = 512 << 20;

/// A loaded program and the kernel about to run it.
pub struct Launched {
    pub kernel: Kernel,
    pub exe: Executable,
    /// The file's bytes (for DWARF lines in reports).
    pub bytes: Vec<u8>,
    /// The name used in messages: the program path as given.
    pub name: String,
    pub pid: u32,
}

/// Reads and loads `program`: 127 when it does not exist, 126 when it is
/// not a runnable IRIX executable (not a regular file, larger than any real
/// executable, or refused by the loader).
pub fn load_program(program: &Path) -> Result<(Executable, Vec<u8>, String), Failure> {
    let name = program.display().to_string();
    let bytes = read_bounded(program, "executable", MAX_PROGRAM_BYTES).map_err(|e| {
        let status = if e.is_not_found() {
            exit::NOT_FOUND
        } else {
            exit::NOT_RUNNABLE
        };
        let message = match &e {
            InputError::Io(io) => io_message(io),
            other => other.to_string(),
        };
        Failure::new(status, format!("{name}: {message}"))
    })?;
    let exe = loader::load(&name, &bytes, &LoadOptions::PROGRAM)
        .map_err(|e| Failure::new(exit::NOT_RUNNABLE, e.to_string()))?;
    Ok((exe, bytes, name))
}

/// The text of an I/O error without Rust's "(os error N)" suffix.
pub fn io_message(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// The guest's environment: the host's, edited by -E and -U in command-line
/// order (as QEMU's user-mode emulators do), sorted by name so the start-up
/// stack does not depend on the host's ordering.
fn guest_env(m: &MachineArgs) -> Result<Vec<Vec<u8>>, Failure> {
    let mut env: Vec<(Vec<u8>, Vec<u8>)> = std::env::vars_os()
        .map(|(k, v)| (k.as_bytes().to_vec(), v.as_bytes().to_vec()))
        .collect();
    for edit in &m.env_edits {
        match edit {
            EnvEdit::Unset(name) => env.retain(|(k, _)| k != name.as_bytes()),
            EnvEdit::Set(setting) => {
                let bytes = setting.as_bytes();
                let Some(eq) = bytes.iter().position(|&b| b == b'=') else {
                    return Err(Failure::new(
                        exit::EMULATOR_FAILURE,
                        format!("-E {}: expected VAR=VALUE", setting.to_string_lossy()),
                    ));
                };
                let (k, v) = (&bytes[..eq], &bytes[eq + 1..]);
                env.retain(|(key, _)| key != k);
                env.push((k.to_vec(), v.to_vec()));
            }
        }
    }
    env.sort();
    Ok(env
        .into_iter()
        .map(|(mut k, v)| {
            k.push(b'=');
            k.extend(v);
            k
        })
        .collect())
}

/// How long past `--timeout` the run may take to stop on its own (it checks
/// between time slices) before the watchdog ends the process.
const WATCHDOG_GRACE: std::time::Duration = std::time::Duration::from_secs(5);

/// The backstop of `--timeout`: the kernel stops the run between time
/// slices, and no host call it makes can block, but should one ever hang,
/// this thread ends irix-emu with status 124 a little later.
fn start_watchdog(timeout: std::time::Duration) {
    std::thread::spawn(move || {
        std::thread::sleep(timeout + WATCHDOG_GRACE);
        super::say(format_args!(
            "stopped at the --timeout limit (the guest did not stop between time slices)"
        ));
        std::process::exit(i32::from(exit::CYCLE_LIMIT));
    });
}

/// The --bind values as (host directory, guest path) pairs. GUEST defaults
/// to the host directory's absolute path.
fn binds(m: &MachineArgs) -> Result<Vec<(PathBuf, String)>, Failure> {
    m.bind
        .iter()
        .map(|b| {
            let bytes = b.as_bytes();
            let (host, guest) = match bytes.iter().position(|&c| c == b':') {
                Some(i) => (
                    PathBuf::from(std::ffi::OsStr::from_bytes(&bytes[..i])),
                    Some(String::from_utf8_lossy(&bytes[i + 1..]).into_owned()),
                ),
                None => (PathBuf::from(b), None),
            };
            let absolute = host.canonicalize().map_err(|e| {
                Failure::new(
                    exit::EMULATOR_FAILURE,
                    format!("--bind {}: {}", host.display(), io_message(&e)),
                )
            })?;
            let guest = guest.unwrap_or_else(|| absolute.display().to_string());
            Ok((absolute, guest))
        })
        .collect()
}

/// The guest's file system: the root, the binds, private /tmp, /usr/tmp
/// and /var/tmp.
fn guest_vfs(config: &KernelConfig, m: &MachineArgs) -> Result<Vfs, Failure> {
    Vfs::with_binds(config.root.clone(), &binds(m)?, true)
        .map_err(|e| Failure::new(exit::EMULATOR_FAILURE, e.to_string()))
}

/// Builds the kernel configuration from the options.
fn config(m: &MachineArgs) -> Result<KernelConfig, Failure> {
    let root = match &m.root {
        Some(r) => r.clone(),
        None => std::env::current_dir().map_err(|e| {
            Failure::new(
                exit::EMULATOR_FAILURE,
                format!("current directory: {}", io_message(&e)),
            )
        })?,
    };
    let root = root.canonicalize().map_err(|e| {
        Failure::new(
            exit::EMULATOR_FAILURE,
            format!("--root {}: {}", root.display(), io_message(&e)),
        )
    })?;
    if !root.is_dir() {
        return Err(Failure::new(
            exit::EMULATOR_FAILURE,
            format!("--root {}: not a directory", root.display()),
        ));
    }
    Ok(KernelConfig {
        root,
        cwd: "/".into(),
        personality: m.personality,
        cpu_hz: m.cpu_mhz * 1_000_000,
        engine: m.engine,
        epoch: m.epoch.unwrap_or(DEFAULT_EPOCH),
        max_cycles: m.max_cycles,
        host_deadline: m.timeout.map(|t| {
            start_watchdog(t);
            std::time::Instant::now() + t
        }),
        max_memory: m.max_memory.unwrap_or(DEFAULT_MAX_MEMORY),
        strace: m.strace,
        net: m.net,
        translations: super::translations::open(m),
        perf_dump: perf_dump(m)?,
        ..KernelConfig::default()
    })
}

/// The dump `--perf-jitdump DIR` asks for, created (see
/// `cpu_mips::PerfDump`).
fn perf_dump(m: &MachineArgs) -> Result<Option<std::sync::Arc<cpu_mips::PerfDump>>, Failure> {
    let Some(dir) = &m.perf_jitdump else {
        return Ok(None);
    };
    match cpu_mips::PerfDump::create(dir) {
        Ok(dump) => Ok(Some(std::sync::Arc::new(dump))),
        Err(e) => Err(Failure::new(
            exit::EMULATOR_FAILURE,
            format!("--perf-jitdump {}: {e}", dir.display()),
        )),
    }
}

/// The guest path of PROGRAM when it lies inside the root or a bind (its
/// directory seen from the guest, then its own name, which may be a link):
/// the guest's argv[0], so programs that find their helpers from argv[0]
/// (SGI's nm, ar, size and strip wrappers) look in the guest. None for a
/// program outside what the guest sees (argv[0] is then PROGRAM as given).
fn guest_program_path(vfs: &Vfs, cwd: &str, program: &Path) -> Option<String> {
    let name = program.file_name()?;
    // PROGRAM as given, when the guest finds the same file by that name
    // (a relative path under the root, which is the current directory by
    // default): argv[0] is then what the user typed, as a shell passes it.
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if let Ok((host, _)) = vfs.resolve(cwd, program.as_os_str().as_bytes(), Follow::Yes) {
        if same(&host, program) {
            return Some(program.to_string_lossy().into_owned());
        }
    }
    let dir = match program.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.canonicalize().ok()?,
        _ => std::env::current_dir().ok()?.canonicalize().ok()?,
    };
    let guest_dir = vfs.guest_path_of(&dir)?;
    let sep = if guest_dir.ends_with('/') { "" } else { "/" };
    Some(format!("{guest_dir}{sep}{}", name.to_string_lossy()))
}

/// The host file the guest would see at PROGRAM's path, when that is a
/// regular file other than the host's PROGRAM: PROGRAM is always a host
/// path (the host may have a /usr/bin/nm of its own), so a guest path given
/// as PROGRAM fails, and this names the file the user meant, for the hint.
fn guest_counterpart(vfs: &Vfs, cwd: &str, program: &Path) -> Option<PathBuf> {
    let (host, _) = vfs
        .resolve(cwd, program.as_os_str().as_bytes(), Follow::Yes)
        .ok()?;
    let same = match (host.canonicalize(), program.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    (host.is_file() && !same).then_some(host)
}

/// Loads PROGRAM and creates its process with `args` as argv[1..]. The
/// options are checked first, so a bad option is 125 whatever PROGRAM is.
pub fn launch(m: &MachineArgs, program: &Path, args: &[OsString]) -> Result<Launched, Failure> {
    let mut config = config(m)?;
    let vfs = guest_vfs(&config, m)?;
    // The guest starts in the host's current directory when the guest can
    // see it (in the root or a bind), else at the root.
    if let Some(cwd) = std::env::current_dir()
        .ok()
        .and_then(|c| c.canonicalize().ok())
        .and_then(|c| vfs.guest_path_of(&c))
    {
        config.cwd = cwd;
    }
    let env = guest_env(m)?;
    let (exe, bytes, name) =
        load_program(program).map_err(|f| match guest_counterpart(&vfs, &config.cwd, program) {
            Some(guest_file) if f.status == exit::NOT_FOUND || f.status == exit::NOT_RUNNABLE => f
                .hint(format!(
                    "PROGRAM is a host path; the guest's {} is {}",
                    program.display(),
                    guest_file.display()
                )),
            _ => f,
        })?;
    // Kept for finding what starting takes when the budget is too small.
    let trial = (config.clone(), vfs.clone());
    let mut kernel = Kernel::with_vfs(config, vfs);
    let guest_path = guest_program_path(kernel.vfs(), &kernel.config.cwd, program);
    // The absolute guest path, recorded as exec records it.
    let recorded = guest_path.as_ref().and_then(|g| {
        kernel
            .vfs()
            .resolve(&kernel.config.cwd, g.as_bytes(), Follow::No)
            .ok()
            .map(|(_, guest)| guest)
    });
    let mut argv = vec![guest_path.map_or_else(
        || program.as_os_str().as_bytes().to_vec(),
        String::into_bytes,
    )];
    argv.extend(args.iter().map(|a| a.as_bytes().to_vec()));
    let pid = kernel
        .spawn(&exe, &name, &argv, &env)
        .map_err(|e| match e {
            // A dynamic program whose interpreter is missing or unusable is not
            // runnable here (126), like an executable the kernel cannot load.
            SpawnError::Interp(_) => Failure::new(exit::NOT_RUNNABLE, format!("{name}: {e}")),
            SpawnError::Start(Errno::ENOMEM) => {
                let (config, vfs) = trial;
                let limit = config.max_memory;
                let starts = |kib: u64| {
                    let config = KernelConfig {
                        max_memory: kib << 10,
                        ..config.clone()
                    };
                    Kernel::with_vfs(config, vfs.clone())
                        .spawn(&exe, &name, &argv, &env)
                        .is_ok()
                };
                budget_too_small(&name, limit, smallest_budget(starts))
            }
            SpawnError::Start(_) => Failure::new(exit::EMULATOR_FAILURE, format!("{name}: {e}")),
        })?;
    if let Some(guest) = recorded {
        kernel
            .set_program_path(pid, guest)
            .map_err(|e| Failure::new(exit::EMULATOR_FAILURE, format!("{name}: {}", e.name())))?;
    }
    Ok(Launched {
        kernel,
        exe,
        bytes,
        name,
        pid,
    })
}

/// The smallest budget, in KiB, with which `starts` succeeds, searched up to
/// the default budget (none when even that is too small). The image
/// builder asks for headroom as it goes, so the answer is found by trying
/// rather than by adding up what a larger budget ended up holding.
fn smallest_budget(starts: impl Fn(u64) -> bool) -> Option<u64> {
    let (mut lo, mut hi) = (0, DEFAULT_MAX_MEMORY >> 10);
    if !starts(hi) {
        return None;
    }
    // Invariant: starts(hi), and lo is 0 or fails.
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if starts(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// `--max-memory LIMIT` cannot hold the new process: say so, with what
/// starting it takes when that could be measured (a run needs more as it
/// goes).
fn budget_too_small(name: &str, limit: u64, smallest_kib: Option<u64>) -> Failure {
    let failure = Failure::new(
        exit::EMULATOR_FAILURE,
        format!(
            "{name}: cannot start within --max-memory {limit} byte{}",
            if limit == 1 { "" } else { "s" }
        ),
    );
    match smallest_kib {
        Some(kib) => failure.hint(format!(
            "the smallest budget that starts it is --max-memory {kib}K; it may need more as it runs (the default is 1G)"
        )),
        None => failure.hint("not even the default budget (1G) starts it"),
    }
}

/// Runs the kernel to the end: straight through, or under GDB when `gdb`
/// names where to wait for it (saying where on stderr, and saying so when
/// GDB detaches and the program runs on).
pub fn run_kernel<O: Observer>(
    kernel: &mut Kernel,
    pid: u32,
    obs: &mut O,
    gdb: Option<&Listen>,
) -> Result<Outcome, Failure> {
    let Some(listen) = gdb else {
        return Ok(kernel.run_observed(obs));
    };
    let listening = |e: std::io::Error| Failure::new(exit::EMULATOR_FAILURE, format!("--gdb: {e}"));
    let listener = Listener::bind(listen).map_err(listening)?;
    let at = listener.address().map_err(listening)?;
    say(format_args!("waiting for GDB on {at} (target remote {at})"));
    match gdb_stub::debug(kernel, pid, obs, listener) {
        Ok(Debugged::Ended(outcome)) => Ok(outcome),
        Ok(Debugged::Detached { finished }) => {
            say(format_args!("GDB detached; the program runs on"));
            Ok(finished.unwrap_or_else(|| kernel.run_observed(obs)))
        }
        Err(GdbError::Accept(e)) => Err(listening(e)),
        Err(e) => Err(Failure::new(exit::EMULATOR_FAILURE, e.to_string())),
    }
}

/// The exit status for an outcome, and the line to print about it (none for
/// a normal exit).
pub fn outcome_status(name: &str, outcome: &Outcome) -> (u8, Option<String>) {
    match outcome {
        Outcome::Exited(code) => (*code, None),
        Outcome::Killed { signal, fault } => {
            let mut msg = format!("{name}: killed by {}", signals::name(*signal));
            if let Some(f) = fault {
                msg.push_str(&format!(" at pc 0x{:08x}", f.pc));
                if let Some(addr) = f.addr {
                    msg.push_str(&format!(" (address 0x{addr:08x})"));
                }
            }
            (exit::SIGNAL_BASE.saturating_add(*signal as u8), Some(msg))
        }
        Outcome::CycleLimit => (
            exit::CYCLE_LIMIT,
            Some(format!("{name}: stopped at the --max-cycles limit")),
        ),
        Outcome::TimeLimit => (
            exit::CYCLE_LIMIT,
            Some(format!("{name}: stopped at the --timeout limit")),
        ),
        Outcome::Interrupted { signal } => (
            super::interrupt::status(*signal),
            Some(format!(
                "{name}: stopped: irix-emu received {}",
                super::interrupt::signal_name(*signal)
            )),
        ),
        Outcome::LinuxProgram { nr } => (
            exit::NOT_RUNNABLE,
            Some(format!(
                "{name}: a Linux MIPS (o32) program, not an IRIX one (its first system call \
                 is Linux's {nr}): run it with qemu-mips"
            )),
        ),
        Outcome::Deadlock => (
            exit::EMULATOR_FAILURE,
            Some(format!(
                "{name}: deadlock: every remaining process is blocked and none can wake the others"
            )),
        ),
    }
}
