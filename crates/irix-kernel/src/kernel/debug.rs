//! What a debugger needs from the run loop: a hook consulted before the
//! traced process executes on, which may stop the whole machine between two
//! instructions, and a way to resume exactly where it stopped.
//!
//! A stop costs no virtual time and changes no scheduling decision: the
//! interrupted time slice is remembered (`Kernel::paused`) and resumed with
//! the same end, and a hook's deadline only splits the CPU's run into
//! shorter pieces at instruction boundaries, where the kernel's own
//! deadlines (ticks, quantum, cycle limit) are checked exactly as before.

use crate::memory::AddressSpace;
use crate::process::{ExitStatus, Pid, Process};
use crate::Errno;

use super::{Kernel, Outcome};

/// A debugger's view of the run loop. `()` is "no debugger".
pub trait DebugHook {
    /// The process the debugger follows, if any.
    fn traced(&self) -> Option<Pid>;
    /// Called before the traced process executes the instruction at its
    /// PC (and again after each piece of its run): true stops the machine.
    fn stop_here(&mut self, p: &Process) -> bool;
    /// The cycle count of the traced process at which its run must come
    /// back to `stop_here` (`u64::MAX`: no limit of the debugger's own).
    fn deadline(&self, p: &Process) -> u64;
    /// The traced process forked `child` (it is in the process table).
    fn forked(&mut self, _parent: Pid, _child: Pid) {}
}

impl DebugHook for () {
    #[inline(always)]
    fn traced(&self) -> Option<Pid> {
        None
    }
    #[inline(always)]
    fn stop_here(&mut self, _p: &Process) -> bool {
        false
    }
    #[inline(always)]
    fn deadline(&self, _p: &Process) -> u64 {
        u64::MAX
    }
}

/// Why [`Kernel::run_debug`] returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// The hook stopped the traced process; running again resumes it.
    DebugStop,
    /// The traced process ended (the rest of the machine may run on).
    TracedExited(ExitStatus),
    /// The run is over.
    Finished(Outcome),
}

/// A time slice interrupted by a debugger stop.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Paused {
    pub pid: Pid,
    pub slice_end: u64,
    pub was_blocked: bool,
}

impl Kernel {
    /// A process, for a debugger (none once it has been reaped).
    pub fn debug_process(&self, pid: Pid) -> Option<&Process> {
        self.procs.get(&pid)
    }

    /// A process's registers, for a debugger.
    pub fn debug_process_mut(&mut self, pid: Pid) -> Option<&mut Process> {
        self.procs.get_mut(&pid)
    }

    /// Reads `pid`'s memory as a debugger does: as many bytes as are
    /// readable from `addr` on (fewer at the first unmapped page).
    pub fn debug_read(&self, pid: Pid, addr: u32, buf: &mut [u8]) -> usize {
        let Some(mem) = self.debug_memory(pid) else {
            return 0;
        };
        if mem.read_bytes(addr, buf).is_ok() {
            return buf.len();
        }
        let mut n = 0;
        while n < buf.len() {
            let Some(a) = addr.checked_add(n as u32) else {
                break;
            };
            if mem.read_bytes(a, &mut buf[n..n + 1]).is_err() {
                break;
            }
            n += 1;
        }
        n
    }

    /// Writes `pid`'s memory as a debugger does (text included, whatever
    /// the page permissions), dropping the decoded code of every process
    /// that runs in that address space. Fails when a byte is unmapped.
    pub fn debug_write(&mut self, pid: Pid, addr: u32, data: &[u8]) -> Result<(), Errno> {
        let group = self.procs.get(&pid).ok_or(Errno::ESRCH)?.share_group;
        let mem = match group.and_then(|g| self.share_groups.get_mut(&g)) {
            Some((mem, _)) => mem,
            None => &mut self.procs.get_mut(&pid).ok_or(Errno::ESRCH)?.mem,
        };
        let mut probe = vec![0; data.len()];
        mem.read_bytes(addr, &mut probe)?;
        mem.poke_bytes(addr, data)?;
        for p in self.procs.values_mut() {
            if p.pid == pid || (group.is_some() && p.share_group == group) {
                p.cpu.invalidate_code(addr, data.len() as u32);
            }
        }
        Ok(())
    }

    /// The address space `pid` runs in: its group's while a share-group
    /// member is off the CPU, else its own.
    fn debug_memory(&self, pid: Pid) -> Option<&AddressSpace> {
        let p = self.procs.get(&pid)?;
        match p.share_group.and_then(|g| self.share_groups.get(&g)) {
            Some((mem, _)) => Some(mem),
            None => Some(&p.mem),
        }
    }
}
