//! syssgi(2), SGI's catch-all call: its requests are a table of the same
//! rows as the system calls, so --strace names them (`syssgi(SGI_SPROFIL,
//! ...)`) and the README lists their support. A request's handler gets its
//! own arguments (the request number dropped).

use super::Arg::*;
use super::Support::{Full, Partial};
use super::{call, conf, elfmap, ids, prof, sigwait, Args, Ret, SysResult, Syscall};
use crate::abi::sgi::*;
use crate::kernel::Kernel;
use crate::process::Process;
use crate::Errno;

/// Every syssgi request irix-emu implements, sorted by number.
#[rustfmt::skip]
pub static TABLE: &[Syscall] = &[
    call(SGI_SYSID,        "SGI_SYSID",        &[Ptr], sysid, Full),
    call(SGI_INVENT,       "SGI_INVENT",       &[Int, Ptr, Int], invent, Partial("the processor only: an R4000 board, CPU and FPU at --cpu-mhz")),
    call(SGI_RDNAME,       "SGI_RDNAME",       &[Int, Ptr, Int], rdname, Full),
    call(SGI_SETSID,       "SGI_SETSID",       &[], ids::setsid, Full),
    call(SGI_SETPGID,      "SGI_SETPGID",      &[Int, Int], ids::setpgid, Full),
    call(SGI_SYSCONF,      "SGI_SYSCONF",      &[Int], conf::sysconf, Full),
    call(SGI_PATHCONF,     "SGI_PATHCONF",     &[Hex, Int, Int], conf::pathconf, Full),
    call(SGI_SETGROUPS,    "SGI_SETGROUPS",    &[Int, Ptr], ids::setgroups, Full),
    call(SGI_GETGROUPS,    "SGI_GETGROUPS",    &[Int, Ptr], ids::getgroups, Full),
    call(SGI_SPROFIL,      "SGI_SPROFIL",      &[Ptr, Int, Ptr, Hex], prof::sprofil, Full),
    call(SGI_SIGSTACK,     "SGI_SIGSTACK",     &[Ptr, Ptr], sigwait::sigstack, Full),
    call(SGI_SIGALTSTACK,  "SGI_SIGALTSTACK",  &[Ptr, Ptr], sigwait::sigaltstack, Full),
    call(SGI_GETPGID,      "SGI_GETPGID",      &[Int], ids::getpgid, Full),
    call(SGI_GETSID,       "SGI_GETSID",       &[Int], ids::getsid, Full),
    call(SGI_ELFMAP,       "SGI_ELFMAP",       &[Fd, Ptr, Int], elfmap::sgi_elfmap, Full),
    call(SGI_TOSSTSAVE,    "SGI_TOSSTSAVE",    &[], tosstsave, Full),
    call(SGI_FDHI,         "SGI_FDHI",         &[], fdhi, Full),
    call(SGI_USE_FP_BCOPY, "SGI_USE_FP_BCOPY", &[], use_fp_bcopy, Full),
];

/// The row for request `nr`, if irix-emu implements it.
pub fn lookup(nr: u32) -> Option<&'static Syscall> {
    super::find(TABLE, nr)
}

/// A request not in the table: ENOSYS, with a one-line warning (like an
/// unknown system call); nothing succeeds silently.
pub fn unknown_request(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let nr = a.word(0);
    let shown =
        crate::abi::names::syssgi_request_name(nr).map_or_else(String::new, |n| format!(" ({n})"));
    k.warn(&format!(
        "{}: unimplemented syssgi request {nr}{shown} at pc 0x{:08x}: ENOSYS",
        p.name,
        p.cpu.pc()
    ));
    Err(Errno::ENOSYS)
}

/// The machine's 16-byte system identifier, fixed like everything here
/// (gethostid gives its last four bytes).
pub const SYSID: &[u8; 16] = b"irix-emu\0\0\0\0\0\0\0\x01";

/// SGI_SYSID: the system identifier.
fn sysid(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    p.mem.write_bytes(a.ptr(0), SYSID)?;
    Ok(Ret::Val(0))
}

/// SGI_TOSSTSAVE: "toss any saved pregions". IRIX can keep a program's text
/// regions after it exits to start the next run faster, and rld asks for
/// them to be dropped; irix-emu never keeps any, so there is nothing to
/// toss: 0.
fn tosstsave(_k: &mut Kernel, _p: &mut Process, _a: &Args) -> SysResult {
    Ok(Ret::Val(0))
}

/// SGI_USE_FP_BCOPY: "should bcopy/bzero use fp?". 0 (no) keeps libc's
/// integer copy loops, the answer for an R4000 (the floating-point loops pay
/// off on later processors).
fn use_fp_bcopy(_k: &mut Kernel, _p: &mut Process, _a: &Args) -> SysResult {
    Ok(Ret::Val(0))
}

/// Bytes of one o32 `inventory_t`: a next pointer, class, type,
/// controller, unit and state, one word each.
const INVENTORY_SIZE: u32 = 24;

/// The machine's inventory records `(class, type, controller, unit, state)`:
/// one R4000 processor, as hinv(1) would list it. The board record's
/// controller is the clock in MHz (`--cpu-mhz`); the chips' states are the
/// CPU's PRId and the FPU's implementation/revision register, the values
/// the emulated CPU itself reports (cpu_mips `PRID_R4000`, `FIR_R4000`).
fn inventory(k: &Kernel) -> [[u32; 5]; 3] {
    let mhz = (k.config.cpu_hz / 1_000_000) as u32;
    [
        [INV_PROCESSOR, INV_CPUBOARD, mhz, 0, INV_IP20BOARD],
        [INV_PROCESSOR, INV_CPUCHIP, 0, 0, cpu_mips::cp0::PRID_R4000],
        [
            INV_PROCESSOR,
            INV_FPUCHIP,
            0,
            0,
            cpu_mips::fpu::fcsr::FIR_R4000 & 0xffff,
        ],
    ]
}

/// SGI_INVENT(SGI_INV_SIZEOF | SGI_INV_READ, buf, size): the hardware
/// inventory. SIZEOF gives the size of one record; READ copies as many
/// whole records as fit in `size` bytes (next pointers 0) and returns the
/// bytes copied.
fn invent(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    match a.word(0) {
        SGI_INV_SIZEOF => Ok(Ret::Val(INVENTORY_SIZE)),
        SGI_INV_READ => {
            let fit = (a.word(2) / INVENTORY_SIZE) as usize;
            let mut bytes = Vec::new();
            for r in inventory(k).iter().take(fit) {
                bytes.extend_from_slice(&0u32.to_be_bytes());
                for w in r {
                    bytes.extend_from_slice(&w.to_be_bytes());
                }
            }
            p.mem.write_bytes(a.ptr(1), &bytes)?;
            Ok(Ret::Val(bytes.len() as u32))
        }
        _ => Err(Errno::EINVAL),
    }
}

/// SGI_RDNAME(pid, buf, len): the name of process `pid` as `ps` shows it
/// (the last component of its program's guest path, at most [`PSCOMSIZ`] bytes,
/// as SVR4 keeps u_comm), NUL-terminated and cut to `len` bytes; returns
/// the length copied without the NUL. ESRCH for no such process. The
/// pc-sampling runtime names an sproc member's profile `./NAME.mon.PID`
/// with it.
fn rdname(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let pid = a.word(0);
    let named = if pid == p.pid {
        &*p
    } else {
        k.procs.get(&pid).ok_or(Errno::ESRCH)?
    };
    // The guest's path of the program where the kernel knows it, not the
    // host's.
    let path = named.exec_path.as_ref().unwrap_or(&named.name);
    let name: String = path
        .rsplit('/')
        .next()
        .unwrap_or_default()
        .chars()
        .take(PSCOMSIZ)
        .collect();
    let len = a.word(2) as usize;
    if len == 0 {
        return Ok(Ret::Val(0));
    }
    let mut bytes: Vec<u8> = name.into_bytes();
    bytes.truncate(len - 1);
    let n = bytes.len() as u32;
    bytes.push(0);
    p.mem.write_bytes(a.ptr(1), &bytes)?;
    Ok(Ret::Val(n))
}

/// SGI_FDHI: the highest open descriptor plus one, what getdtablehi(3)
/// returns (IRIX libc's usinit asks it where to put its semaphore's
/// descriptor).
fn fdhi(_k: &mut Kernel, p: &mut Process, _a: &Args) -> SysResult {
    Ok(Ret::Val(p.fds.high_water()))
}

/// The longest command name a process keeps (SVR4's PSCOMSIZ).
const PSCOMSIZ: usize = 32;
