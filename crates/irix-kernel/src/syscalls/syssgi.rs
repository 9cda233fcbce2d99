//! syssgi(2), SGI's catch-all call: its requests are a table of the same
//! rows as the system calls, so --strace names them (`syssgi(SGI_SPROFIL,
//! ...)`) and the README lists their support. A request's handler gets its
//! own arguments (the request number dropped).

use super::Arg::*;
use super::{call, prof, Args, Ret, Support::Full, SysResult, Syscall};
use crate::abi::limits::{ARG_MAX, CHILD_MAX, OPEN_MAX, PAGE_SIZE};
use crate::abi::sgi::*;
use crate::kernel::Kernel;
use crate::process::Process;
use crate::Errno;

/// Every syssgi request irix-emu implements, sorted by number.
#[rustfmt::skip]
pub static TABLE: &[Syscall] = &[
    call(SGI_SYSID,   "SGI_SYSID",   &[Ptr], sysid, Full),
    call(SGI_SYSCONF, "SGI_SYSCONF", &[Int], sysconf, Full),
    call(SGI_SPROFIL, "SGI_SPROFIL", &[Ptr, Int, Ptr, Hex], prof::sprofil, Full),
];

/// The row for request `nr`, if irix-emu implements it.
pub fn lookup(nr: u32) -> Option<&'static Syscall> {
    super::find(TABLE, nr)
}

/// A request not in the table: ENOSYS, with a one-line warning (like an
/// unknown system call); nothing succeeds silently.
pub fn unknown_request(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    k.warn(&format!(
        "{}: unimplemented syssgi request {} at pc 0x{:08x}: ENOSYS",
        p.name,
        a.word(0),
        p.cpu.pc()
    ));
    Err(Errno::ENOSYS)
}

/// SGI_SYSID: a 16-byte system identifier, fixed like everything here.
fn sysid(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    p.mem.write_bytes(a.ptr(0), b"irix-emu\0\0\0\0\0\0\0\x01")?;
    Ok(Ret::Val(0))
}

/// SGI_SYSCONF(name): the values sysconf(3C) reports; EINVAL for names
/// irix-emu does not know.
fn sysconf(k: &mut Kernel, _p: &mut Process, a: &Args) -> SysResult {
    Ok(Ret::Val(match a.word(0) {
        SC_ARG_MAX => ARG_MAX as u32,
        SC_CHILD_MAX => CHILD_MAX,
        SC_CLK_TCK => k.config.tunables.hz,
        SC_OPEN_MAX => OPEN_MAX as u32,
        SC_PAGESIZE => PAGE_SIZE,
        _ => return Err(Errno::EINVAL),
    }))
}
