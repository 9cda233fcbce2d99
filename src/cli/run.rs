//! `irix-emu run`: run a program, pass its output through, exit as it did.

use std::time::Instant;

use super::args::{split_command, RunArgs};
use super::launch::{launch, outcome_status, run_kernel};
use super::{interrupt, say, Failure};

/// Runs the program; Ok(status) is the guest's (or 128+N, 124).
pub fn run(args: &RunArgs) -> Result<u8, Failure> {
    // Before any thread starts (launch may start the --timeout watchdog).
    let interrupts = interrupt::catch();
    let (program, guest_args) = split_command(&args.command)?;
    let mut l = launch(&args.machine, &program, guest_args)?;
    interrupts.attach(&mut l.kernel);
    let started = Instant::now();
    let outcome = run_kernel(&mut l.kernel, l.pid, &mut (), args.machine.gdb.as_ref());
    // The run is over before the cache is written: a signal during the
    // write ends irix-emu at once (see `interrupt`), removing its temporary.
    let _finishing = interrupts.run_ended();
    super::translations::flush(&mut l.kernel);
    let outcome = outcome?;
    let host = started.elapsed();
    let (status, line) = outcome_status(&l.name, &outcome);
    if let Some(line) = line {
        say(format_args!("{line}"));
    }
    if args.machine.stats {
        print_stats(&l.kernel, host);
    }
    Ok(status)
}

/// --stats: one line per figure on stderr.
pub fn print_stats(k: &irix_kernel::Kernel, host: std::time::Duration) {
    let s = k.stats();
    let hz = k.config.cpu_hz as f64;
    let host_s = host.as_secs_f64();
    say(format_args!("instructions    {}", s.instructions));
    say(format_args!(
        "cycles          {} user, {} system",
        s.user_cycles, s.sys_cycles
    ));
    say(format_args!("virtual seconds {:.6}", k.now() as f64 / hz));
    say(format_args!("host seconds    {host_s:.6}"));
    if let Some(kib) = peak_resident_kib() {
        say(format_args!("host memory     {kib} KiB peak resident"));
    }
    say(format_args!(
        "guest MIPS      {:.1}",
        s.instructions as f64 / host_s.max(1e-9) / 1e6
    ));
    let share = |n: u64| 100.0 * n as f64 / s.instructions.max(1) as f64;
    say(format_args!(
        "engine          {} ({:.1}% of instructions in whole blocks, {:.1}% compiled, \
         {} entries into compiled code, {} of them left at a page new to its view of memory)",
        k.config.engine,
        share(s.instructions_in_blocks),
        share(s.instructions_compiled),
        s.compiled_entries,
        s.view_faults
    ));
    if let Some(store) = &k.config.translations {
        let t = store.stats();
        say(format_args!(
            "jit cache       {} hits, {} misses ({} from heat), {} bytes read, {} bytes written ({})",
            t.hits,
            t.misses,
            t.heated,
            t.bytes_read,
            t.bytes_written,
            store.dir().display()
        ));
    }
}

/// The most host memory irix-emu has had resident (KiB): the high-water
/// mark of this process's own address space, `VmHWM` in Linux's
/// /proc/self/status. Unlike getrusage's `ru_maxrss`, it starts afresh at
/// exec, so it counts nothing of the process that started irix-emu. None
/// where the host does not say.
fn peak_resident_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().strip_suffix("kB"))
        .and_then(|v| v.trim().parse().ok())
}
