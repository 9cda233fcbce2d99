//! What a debugger needs from the run loop: a hook consulted before the
//! traced process executes on, which may stop the whole machine between two
//! instructions, and a way to resume exactly where it stopped.
//!
//! A stop costs no virtual time and changes no scheduling decision: the
//! interrupted time slice is remembered (`Kernel::paused`) and resumed with
//! the same end, and a hook's deadline only splits the CPU's run into
//! shorter pieces at instruction boundaries, where the kernel's own
//! deadlines (ticks, quantum, cycle limit) are checked exactly as before.

use std::collections::{BTreeMap, VecDeque};

use crate::memory::AddressSpace;
use crate::process::{ExitStatus, Pid, Process};
use crate::Errno;

use super::{Kernel, Outcome};

/// A debugger's view of the run loop. `()` is "no debugger".
pub trait DebugHook {
    /// Whether the debugger follows process `pid`: hears of its forks,
    /// execs and end.
    fn traces(&self, pid: Pid) -> bool;
    /// Whether the debugger holds `pid` stopped: it is not scheduled (an
    /// interrupted time slice of it is given up) until released.
    fn holds(&self, _pid: Pid) -> bool {
        false
    }
    /// Called before process `p` executes the instruction at its PC (and
    /// again after each piece of its run): true stops the machine.
    fn stop_here(&mut self, p: &Process) -> bool;
    /// The cycle count of `p` at which its run must come back to
    /// `stop_here` (`u64::MAX`: no limit of the debugger's own).
    fn deadline(&self, p: &Process) -> u64;
    /// A traced process forked `child` (fork, not sproc: the child has its
    /// own address space; it is in the process table).
    fn forked(&mut self, _parent: Pid, _child: Pid) {}
    /// A traced process has exec'd (its new image is in place).
    fn execed(&mut self, _p: &Process) {}
    /// Process `p` (any process) is about to have its system call handled
    /// (its PC names the SYSCALL, which has had no effect yet): true stops
    /// the machine there instead, and running again re-executes it.
    fn before_syscall(&mut self, _p: &Process) -> bool {
        false
    }
    /// A system call of any process has been handled: true stops the
    /// machine just after it (mid-slice, or between slices when the call
    /// ended the slice).
    fn after_syscall(&mut self) -> bool {
        false
    }
}

/// The whole machine at one instant, for a debugger to go back to: every
/// process (copy-on-write memory), the run queue, the clock, the profiles.
/// Open files are shared with the live kernel, not copied (or left out,
/// [`Kernel::snapshot_without_files`]): a debugger that restores a
/// snapshot must not re-execute a system call (see
/// [`DebugHook::before_syscall`]) until it is back at the live machine.
#[derive(Clone)]
pub struct Snapshot {
    vfs: crate::vfs::Vfs,
    procs: BTreeMap<Pid, Process>,
    zombies: BTreeMap<Pid, crate::process::Zombie>,
    run_queue: VecDeque<Pid>,
    next_pid: Pid,
    now: u64,
    first: Option<Pid>,
    outcome: Option<Outcome>,
    outside: Option<crate::profiling::OutsideProfile>,
    share_groups: BTreeMap<Pid, (AddressSpace, Pid)>,
    locks: crate::locks::RecordLocks,
    stats: super::RunStats,
    paused: Option<Paused>,
    idle_rounds: usize,
    syscalls: u64,
}

impl Snapshot {
    /// Every address space it holds: its processes' and its share
    /// groups'.
    fn spaces_mut(&mut self) -> impl Iterator<Item = &mut AddressSpace> {
        self.procs
            .values_mut()
            .map(|p| &mut p.mem)
            .chain(self.share_groups.values_mut().map(|(mem, _)| mem))
    }

    /// System calls handled before this instant.
    pub fn syscalls(&self) -> u64 {
        self.syscalls
    }

    /// A process at this instant.
    pub fn process(&self, pid: Pid) -> Option<&Process> {
        self.procs.get(&pid)
    }
}

impl DebugHook for () {
    #[inline(always)]
    fn traces(&self, _pid: Pid) -> bool {
        false
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
    /// A traced process ended (the rest of the machine may run on).
    TracedExited(Pid, ExitStatus),
    /// Nothing can run but processes the debugger holds: running again
    /// without releasing one returns here again.
    Held,
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
    /// The machine now (call it only between two `run_debug` calls).
    pub fn snapshot(&self) -> Snapshot {
        // Copying address spaces charges the copy as the guest's work (a
        // fork's cost): a debugger's copy must not, so the work pending
        // before it is all that stays pending.
        let pending = self.budget.take_work();
        let s = self.snapshot_uncharged();
        self.budget.take_work();
        self.budget.add_work(pending);
        s
    }

    fn snapshot_uncharged(&self) -> Snapshot {
        let mut s = Snapshot {
            vfs: self.vfs.clone(),
            procs: self.procs.clone(),
            zombies: self.zombies.clone(),
            run_queue: self.run_queue.clone(),
            next_pid: self.next_pid,
            now: self.now,
            first: self.first,
            outcome: self.outcome.clone(),
            outside: self.outside.clone(),
            share_groups: self.share_groups.clone(),
            locks: self.locks.clone(),
            stats: self.stats,
            paused: self.paused,
            idle_rounds: self.idle_rounds,
            syscalls: self.syscalls,
        };
        // A snapshot's copies of shared memory attachments are no
        // process's: they count in shm_nattch only once restored.
        for mem in s.spaces_mut() {
            mem.uncount_attachments();
        }
        s
    }

    /// The machine now without its processes' open files, for a history
    /// that re-executes only instructions: a snapshot holding open files
    /// would keep pipe ends open (their reader and writer counts fall when
    /// the last reference goes) after the live processes closed them.
    pub fn snapshot_without_files(&self) -> Snapshot {
        let mut s = self.snapshot();
        for p in s.procs.values_mut() {
            p.fds = crate::files::FdTable::default();
        }
        s
    }

    /// Puts the machine back to `s`.
    pub fn restore(&mut self, s: &Snapshot) {
        let pending = self.budget.take_work();
        let s = s.clone();
        self.budget.take_work();
        self.budget.add_work(pending);
        self.vfs = s.vfs;
        self.procs = s.procs;
        self.zombies = s.zombies;
        self.run_queue = s.run_queue;
        self.next_pid = s.next_pid;
        self.now = s.now;
        self.first = s.first;
        self.outcome = s.outcome;
        self.outside = s.outside;
        self.share_groups = s.share_groups;
        for p in self.procs.values_mut() {
            p.mem.count_attachments();
        }
        for (mem, _) in self.share_groups.values_mut() {
            mem.count_attachments();
        }
        self.locks = s.locks;
        self.stats = s.stats;
        self.paused = s.paused;
        self.idle_rounds = s.idle_rounds;
        self.syscalls = s.syscalls;
    }

    /// System calls handled so far (by every process).
    pub fn syscalls(&self) -> u64 {
        self.syscalls
    }

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

    /// The ELF objects mapped into `pid`'s address space besides the
    /// program (the interpreter, each object SGI_ELFMAP mapped), in
    /// mapping order.
    pub fn debug_objects(&self, pid: Pid) -> &[crate::memory::MappedObject] {
        self.debug_memory(pid).map_or(&[], |m| m.objects())
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
