//! Running a guest's signal handler, and returning from it.
//!
//! The frame is IRIX's `struct sigcontext` (856 bytes; layout from NetBSD's
//! sys/compat/irix/irix_signal.h `irix_sigcontext`, as guest/README.md §5
//! gives it), saved on the user stack. The handler is entered through the
//! trampoline libc passed to sigaction, as the old Linux IRIX emulation
//! (arch/mips/kernel/irixsig.c, setup_irix_frame) did: pc = t9 =
//! trampoline, a0 = signal, a1 = code, a2 = &sigcontext, a3 = handler,
//! sp = &sigcontext. The trampoline calls the handler and then sigreturn
//! (IRIX 1088, a0 = &sigcontext), which restores everything from the frame,
//! so a handler may edit it (skip a faulting instruction by advancing sc_pc).

use crate::abi::flags::sigmask::{SA_NODEFER, SA_ONSTACK, SA_RESETHAND};
use crate::memory::AddressSpace;
use crate::process::Process;
use crate::signals::{self, SignalState};
use crate::Errno;
use cpu_mips::Reg;

/// sigcontext offsets (bytes). 64-bit slots are big-endian.
const SC_REGMASK: u32 = 0;
const SC_STATUS: u32 = 4;
const SC_PC: u32 = 8;
const SC_REGS: u32 = 16;
const SC_FPREGS: u32 = 272;
const SC_OWNEDFP: u32 = 528;
const SC_FPC_CSR: u32 = 532;
const SC_MDHI: u32 = 544;
const SC_MDLO: u32 = 552;
const SC_CAUSE: u32 = 560;
const SC_BADVADDR: u32 = 568;
const SC_SIGSET: u32 = 584;
pub const SC_SIZE: u32 = 856;

/// Why a frame is being built: a fault carries its cause and address.
#[derive(Clone, Copy, Debug, Default)]
pub struct Cause {
    pub exc_code: u32,
    pub bad_vaddr: u32,
}

/// Does `sig` have a handler to run (not SIG_DFL or SIG_IGN), and a
/// trampoline to run it through?
pub fn is_caught(s: &SignalState, sig: u32) -> bool {
    s.handlers[sig as usize] > signals::SIG_IGN && s.trampoline != 0
}

/// Saves the process's context on its stack and enters the handler of
/// `sig` through the trampoline. EFAULT if the stack cannot take the frame
/// (the caller then kills the process, as a kernel does).
pub fn enter_handler(p: &mut Process, sig: u32, cause: Cause) -> Result<(), Errno> {
    let s = sig as usize;
    let handler = p.signals.handlers[s];
    let resume = p.cpu.sample_pc();
    let flags = p.signals.handler_flags[s];
    let sp = (frame_base(p, flags).wrapping_sub(SC_SIZE)) & !15;
    // The mask the handler's return restores: the one sigsuspend replaced
    // while it waited, else the current one.
    let saved_mask = p.signals.suspend_mask.take().unwrap_or(p.signals.blocked);
    let mut sc = vec![0u8; SC_SIZE as usize];
    let put32 = |sc: &mut [u8], off: u32, v: u32| {
        sc[off as usize..off as usize + 4].copy_from_slice(&v.to_be_bytes())
    };
    let put64 = |sc: &mut [u8], off: u32, v: u64| {
        sc[off as usize..off as usize + 8].copy_from_slice(&v.to_be_bytes())
    };
    put32(&mut sc, SC_REGMASK, !1); // every register but $zero is saved
    put32(&mut sc, SC_STATUS, p.cpu.cp0.status);
    put64(&mut sc, SC_PC, resume as i32 as i64 as u64);
    for r in 0..32 {
        put64(&mut sc, SC_REGS + 8 * r as u32, p.cpu.gpr[r]);
        put64(&mut sc, SC_FPREGS + 8 * r as u32, p.cpu.fpu.fpr[r]);
    }
    put32(&mut sc, SC_OWNEDFP, 1);
    put32(&mut sc, SC_FPC_CSR, p.cpu.fpu.fcsr);
    put64(&mut sc, SC_MDHI, p.cpu.hi);
    put64(&mut sc, SC_MDLO, p.cpu.lo);
    put64(&mut sc, SC_CAUSE, (cause.exc_code << 2) as u64);
    put64(&mut sc, SC_BADVADDR, cause.bad_vaddr as i32 as i64 as u64);
    put32(&mut sc, SC_SIGSET, saved_mask as u32);
    put32(&mut sc, SC_SIGSET + 4, (saved_mask >> 32) as u32);
    write_frame(&mut p.mem, sp, &sc)?;

    p.signals.blocked |= p.signals.handler_masks[s];
    if flags & SA_NODEFER == 0 {
        p.signals.blocked |= signals::bit(sig);
    }
    if flags & SA_RESETHAND != 0 {
        p.signals.handlers[s] = signals::SIG_DFL;
    }
    let tramp = p.signals.trampoline;
    p.set_reg(Reg::A0, sig);
    p.set_reg(Reg::A1, 0);
    p.set_reg(Reg::A2, sp);
    p.set_reg(Reg::A3, handler);
    p.set_reg(Reg::T9, tramp);
    p.set_reg(Reg::SP, sp);
    p.cpu.set_pc(tramp);
    Ok(())
}

/// Where the handler's frame goes: the alternate signal stack when the
/// handler was installed with SA_ONSTACK, one is set, and the process is
/// not already running on it (sigaltstack(2)); else the current stack.
fn frame_base(p: &Process, flags: u32) -> u32 {
    let sp = p.reg(Reg::SP);
    match p.signals.altstack {
        Some(alt) if flags & SA_ONSTACK != 0 && !alt.contains(sp) => alt.top(),
        _ => sp,
    }
}

fn write_frame(mem: &mut AddressSpace, sp: u32, sc: &[u8]) -> Result<(), Errno> {
    mem.write_bytes(sp, sc)
}

/// sigreturn(scp): restores the context saved at `scp`, including the pc
/// and the signal mask.
pub fn sigreturn(p: &mut Process, scp: u32) -> Result<(), Errno> {
    let mut sc = vec![0u8; SC_SIZE as usize];
    p.mem.read_bytes(scp, &mut sc)?;
    let get32 = |off: u32| {
        u32::from_be_bytes(
            sc[off as usize..off as usize + 4]
                .try_into()
                .unwrap_or([0; 4]),
        )
    };
    let get64 = |off: u32| {
        u64::from_be_bytes(
            sc[off as usize..off as usize + 8]
                .try_into()
                .unwrap_or([0; 8]),
        )
    };
    for r in 1..32 {
        p.cpu.gpr[r] = get64(SC_REGS + 8 * r as u32);
    }
    for r in 0..32 {
        p.cpu.fpu.fpr[r] = get64(SC_FPREGS + 8 * r as u32);
    }
    p.cpu.fpu.fcsr = get32(SC_FPC_CSR);
    p.cpu.hi = get64(SC_MDHI);
    p.cpu.lo = get64(SC_MDLO);
    let unblockable = signals::bit(signals::SIGKILL) | signals::bit(signals::SIGSTOP);
    p.signals.blocked =
        (get32(SC_SIGSET) as u64 | (get32(SC_SIGSET + 4) as u64) << 32) & !unblockable;
    p.cpu.set_pc(get64(SC_PC) as u32);
    Ok(())
}
