//! `irix-emu run`: run a program, pass its output through, exit as it did.

use std::time::Instant;

use super::args::RunArgs;
use super::launch::{launch, outcome_status};
use super::Failure;

/// Runs the program; Ok(status) is the guest's (or 128+N, 124).
pub fn run(args: &RunArgs) -> Result<u8, Failure> {
    let mut l = launch(&args.machine, &args.program, &args.args)?;
    let started = Instant::now();
    let outcome = l.kernel.run();
    let host = started.elapsed();
    let (status, line) = outcome_status(&l.name, &outcome);
    if let Some(line) = line {
        eprintln!("irix-emu: {line}");
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
    eprintln!("irix-emu: instructions    {}", s.instructions);
    eprintln!("irix-emu: cycles          {} user, {} system", s.user_cycles, s.sys_cycles);
    eprintln!("irix-emu: virtual seconds {:.6}", k.now() as f64 / hz);
    eprintln!("irix-emu: host seconds    {host_s:.6}");
    eprintln!("irix-emu: guest MIPS      {:.1}", s.instructions as f64 / host_s.max(1e-9) / 1e6);
}
