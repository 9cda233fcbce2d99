//! The system-call layer as a fuzz target: a one-process kernel whose
//! process makes the given calls with the given argument words, through
//! the same dispatch a guest's SYSCALL reaches. Used by the cargo-fuzz
//! target `syscalls` (fuzz/) and its stable proptest smoke test. Every
//! path stays inside `root`; virtual time bounds sleeps; nothing blocks.

use std::path::Path;

use cpu_mips::Reg;
use loader::{Executable, Perms as SegPerms, Segment};

use crate::kernel::{Kernel, KernelConfig};
use crate::syscalls::{self, Next};

/// One call: its number (v0, 1000 + n for IRIX) and eight argument words
/// (a0..a3, then the stack words at sp+16.. where o32 passes the rest).
#[derive(Clone, Copy, Debug)]
pub struct Call {
    pub nr: u32,
    pub args: [u32; 8],
}

/// A minimal program: one text page (`syscall` at the entry) and a data
/// page, so pointers into both are valid arguments as often as not.
fn program() -> Executable {
    let text = Segment {
        vaddr: 0x40_0000,
        mem_size: 0x1000,
        file_offset: 0,
        file_size: 4,
        data: vec![0, 0, 0, 0x0c],
        perms: SegPerms {
            read: true,
            write: false,
            exec: true,
        },
    };
    let data = Segment {
        vaddr: 0x1000_0000,
        mem_size: 0x2000,
        file_offset: 0,
        file_size: 16,
        data: b"/tmpfile\0hello\0\0".to_vec(),
        perms: SegPerms {
            read: true,
            write: true,
            exec: false,
        },
    };
    Executable {
        entry: 0x40_0000,
        segments: vec![text, data],
        ..Default::default()
    }
}

/// Runs `calls` in a fresh kernel rooted at `root` with a 64 MiB memory
/// budget. Stops early when the process exits.
pub fn run_calls(root: &Path, calls: &[Call]) {
    let config = KernelConfig {
        root: root.to_path_buf(),
        max_memory: 64 << 20,
        max_cycles: Some(1 << 40),
        ..KernelConfig::default()
    };
    let mut k = Kernel::new(config);
    k.set_log(Box::new(std::io::sink()));
    let Ok(pid) = k.spawn(&program(), "fuzz", &[b"fuzz".to_vec()], &[]) else {
        return;
    };
    // Never the host's own streams: a read of a terminal would wait.
    for (fd, write) in [(0, false), (1, true), (2, true)] {
        let null = std::fs::OpenOptions::new()
            .read(!write)
            .write(write)
            .open("/dev/null");
        let Ok(null) = null else {
            return;
        };
        let flags = if write { 1 } else { 0 };
        if k.set_host_fd(pid, fd, null, flags).is_err() {
            return;
        }
    }
    for call in calls {
        let Some(mut p) = k.procs.remove(&pid) else {
            return;
        };
        p.set_reg(Reg::V0, call.nr);
        for (r, &v) in [Reg::A0, Reg::A1, Reg::A2, Reg::A3].iter().zip(&call.args) {
            p.set_reg(*r, v);
        }
        let sp = p.reg(Reg::SP);
        for (i, &v) in call.args[4..].iter().enumerate() {
            let _ = p.mem.write_u32(sp.wrapping_add(16 + 4 * i as u32), v);
        }
        let next = syscalls::dispatch(&mut k, &mut p);
        // A call that jumped (execve, sigreturn) leaves the pc anywhere:
        // the next call starts from the SYSCALL again.
        p.cpu.set_pc(0x40_0000);
        k.procs.insert(pid, p);
        if matches!(next, Next::Exit(_)) {
            return;
        }
    }
}

/// Decodes fuzz bytes into calls: 4 bytes of number (folded into the
/// IRIX range 1000..1255 most of the time, else the project's 2026 or the
/// unassigned 2027),
/// then 8 argument words, each often snapped to a small value or a valid
/// pointer so the handlers get past their first checks.
pub fn calls_from_bytes(data: &[u8]) -> Vec<Call> {
    const POINTERS: [u32; 4] = [0x1000_0000, 0x1000_0009, 0x7fff_0000, 0x40_0000];
    data.chunks(36)
        .map(|c| {
            let word = |i: usize| {
                let b = |j: usize| c.get(i * 4 + j).copied().unwrap_or(0);
                u32::from_be_bytes([b(0), b(1), b(2), b(3)])
            };
            let raw = word(0);
            let nr = match raw >> 30 {
                0 => 2026 + (raw & 1),
                _ => 1000 + (raw & 0xff),
            };
            let mut args = [0u32; 8];
            for (i, a) in args.iter_mut().enumerate() {
                let w = word(i + 1);
                *a = match w >> 29 {
                    0 => w & 0xff,
                    1 => POINTERS[(w & 3) as usize] + (w >> 2 & 0xfff),
                    _ => w,
                };
            }
            Call { nr, args }
        })
        .collect()
}
