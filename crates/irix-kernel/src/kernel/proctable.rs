//! The process table: creating processes (spawn, fork, sproc), share
//! groups' address spaces, and looking processes up.

use cpu_mips::{CpuConfig, Reg};
use loader::Executable;

use super::{Kernel, INIT_PID};
use crate::abi::limits::OPEN_MAX;
use crate::dynamic;
use crate::files::FdTable;
use crate::image;
use crate::memory::AddressSpace;
use crate::process::{Accounting, Brk, Pid, Process, RunState, Zombie};
use crate::profiling::ProfState;
use crate::rlimits::Limits;
use crate::signals::SignalState;
use crate::Errno;

/// Why [`Kernel::spawn`] could not create a process.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpawnError {
    /// The program's interpreter (PT_INTERP) is missing or unusable.
    #[error("{0}")]
    Interp(dynamic::InterpError),
    /// Building the image failed (out of memory, arguments too long).
    #[error("cannot start: {}", .0.name())]
    Start(Errno),
}

impl Kernel {
    pub(crate) fn cpu_config(&self, exe: &Executable) -> CpuConfig {
        CpuConfig {
            mode64: exe.is_n32(),
            clock_hz: self.config.cpu_hz,
            engine: self.config.engine,
            ..CpuConfig::default()
        }
    }

    /// Creates the first process (or another top-level one) from `exe`. A
    /// dynamic program's interpreter is looked up in the guest's file system
    /// first: [`SpawnError::Interp`] when it cannot be used.
    pub fn spawn(
        &mut self,
        exe: &Executable,
        name: &str,
        argv: &[Vec<u8>],
        envp: &[Vec<u8>],
    ) -> Result<Pid, SpawnError> {
        let interp = dynamic::load_interpreter(&self.vfs, &self.config.cwd, exe)
            .map_err(SpawnError::Interp)?;
        self.admit(0).map_err(SpawnError::Start)?;
        let pid = self.alloc_pid();
        let img = image::build(
            exe,
            None,
            interp.as_ref(),
            argv,
            envp,
            pid,
            self.cpu_config(exe),
            &self.budget,
        )
        .map_err(SpawnError::Start)?;
        let mut cpu = img.cpu;
        cpu.set_translation_store(self.config.translations.clone());
        cpu.set_perf_dump(self.config.perf_dump.clone());
        let p = Process {
            pid,
            ppid: INIT_PID,
            name: name.to_string(),
            cpu,
            mem: img.mem,
            fds: FdTable::with_host_stdio(),
            cwd: self.config.cwd.clone(),
            umask: 0o022,
            brk: Brk {
                start: img.brk,
                current: img.brk,
            },
            stack_limit: img.stack_limit,
            prof: ProfState::default(),
            acct: Accounting::default(),
            signals: SignalState::default(),
            state: RunState::Runnable,
            next_tick: u64::MAX,
            n32: exe.is_n32(),
            share_group: None,
            prda: None,
            execs: 0,
            exec_path: None,
            timers: Default::default(),
            wait: None,
            ids: crate::identity::Identity::first(pid),
            limits: Limits::new(OPEN_MAX as u64, image::STACK_MAX as u64),
            wait_event: None,
            xcpu_sent: None,
            syscalls_made: 0,
        };
        self.procs.insert(pid, p);
        self.run_queue.push_back(pid);
        self.first.get_or_insert(pid);
        Ok(pid)
    }

    /// Records `guest`, an absolute guest path, as the path of the program
    /// process `pid` runs: what exec records for the images it loads
    /// (`Process::exec_path`), for a spawned process whose program lies in
    /// the guest's view. ESRCH for no such process.
    pub fn set_program_path(&mut self, pid: Pid, guest: String) -> Result<(), Errno> {
        let p = self.procs.get_mut(&pid).ok_or(Errno::ESRCH)?;
        p.exec_path = Some(guest);
        Ok(())
    }

    pub(crate) fn alloc_pid(&mut self) -> Pid {
        let pid = self.next_pid;
        self.next_pid += 1;
        pid
    }

    /// Replaces descriptor `fd` of process `pid` with a host file (an
    /// embedder redirecting the guest's standard streams).
    pub fn set_host_fd(
        &mut self,
        pid: Pid,
        fd: u32,
        file: std::fs::File,
        flags: u32,
    ) -> Result<(), Errno> {
        let p = self.procs.get_mut(&pid).ok_or(Errno::ESRCH)?;
        let _ = p.fds.close(fd);
        match p.fds.install(crate::files::OpenFile::host(file, flags))? {
            got if got == fd => Ok(()),
            got => {
                let _ = p.fds.close(got);
                Err(Errno::EBADF)
            }
        }
    }

    /// fork: a copy of `parent` with a new pid; returns the child's pid.
    pub(crate) fn fork(&mut self, parent: &Process) -> Result<Pid, Errno> {
        self.admit(parent.mem.table_bytes())?;
        let pid = self.alloc_pid();
        let mut child = parent.clone();
        child.pid = pid;
        child.ppid = parent.pid;
        child.share_group = None; // a fork copies the address space
        child.acct = Accounting::default();
        child.signals.pending = 0;
        child.timers.fork();
        child.wait_event = None;
        child.xcpu_sent = None;
        // The child's PRDA holds its own pid.
        for addr in image::PRDA_PID {
            let _ = child.mem.poke_bytes(addr, &pid.to_be_bytes());
        }
        // Child: v0 = parent's pid (libc zeroes it), v1 = 1, a3 = 0, past
        // the SYSCALL; the parent's registers are written by dispatch.
        child.set_reg(Reg::V0, parent.pid);
        child.set_reg(Reg::V1, 1);
        child.set_reg(Reg::A3, 0);
        child.cpu.complete_exception_instruction();
        self.follow_outside_profile(parent.pid, &child, true);
        self.timeline_child(parent.pid, &child, false);
        self.procs.insert(pid, child);
        self.run_queue.push_back(pid);
        Ok(pid)
    }

    /// Every process of the run, zombies included, with the running one.
    pub(crate) fn process_count(&self) -> usize {
        self.procs.len() + self.zombies.len() + 1
    }

    /// Room for one more process (fork, sproc): EAGAIN at CHILD_MAX
    /// processes (the guest runs as one user, and a zombie counts until it
    /// is collected, as in UNIX), ENOMEM when the memory budget cannot hold
    /// the process and `table` bytes of page table. Charges the process.
    fn admit(&mut self, table: u64) -> Result<(), Errno> {
        if self.process_count() >= crate::abi::limits::CHILD_MAX as usize {
            return Err(Errno::EAGAIN);
        }
        if self.budget.available() < super::PROCESS_COST + table {
            return Err(Errno::ENOMEM);
        }
        self.budget.force(super::PROCESS_COST);
        Ok(())
    }

    /// sproc: a new process sharing `parent`'s address space (forming a
    /// share group if it has none), with its own registers, starting at
    /// `entry(arg)` on the stack whose top is `sp`, returning into `ret`.
    pub(crate) fn sproc(
        &mut self,
        parent: &mut Process,
        entry: u32,
        arg: u32,
        sp: u32,
        ret: u32,
    ) -> Result<Pid, Errno> {
        self.admit(0)?;
        let pid = self.alloc_pid();
        let mem = std::mem::take(&mut parent.mem);
        let mut child = parent.clone();
        parent.mem = mem;
        let group = *parent.share_group.get_or_insert(parent.pid);
        child.share_group = Some(group);
        child.mem = AddressSpace::default(); // the group's, loaded when it runs
                                             // Its own PRDA: a copy of the parent's, holding its own pid.
        child.prda = parent.mem.copy_page(image::PRDA_ADDR).map(|mut prda| {
            for addr in image::PRDA_PID {
                prda.write((addr - image::PRDA_ADDR) as usize, &pid.to_be_bytes());
            }
            prda
        });
        self.share_groups
            .entry(group)
            .or_insert_with(|| (AddressSpace::default(), parent.pid));
        child.pid = pid;
        child.ppid = parent.pid;
        child.acct = Accounting::default();
        child.signals.pending = 0;
        child.timers.fork();
        child.wait_event = None;
        child.xcpu_sent = None;
        child.cpu.set_pc(entry);
        for (r, v) in [
            (Reg::A0, arg),
            (Reg::T9, entry),
            (Reg::SP, sp),
            (Reg::RA, ret),
        ] {
            child.set_reg(r, v);
        }
        self.follow_outside_profile(parent.pid, &child, false);
        self.timeline_child(parent.pid, &child, true);
        self.procs.insert(pid, child);
        self.run_queue.push_back(pid);
        Ok(pid)
    }

    /// A share-group member about to run takes the group's address space.
    /// If another member ran since, its stores may have changed code this
    /// CPU has decoded, and its LL/SC reservation is void.
    pub(crate) fn load_shared_memory(&mut self, p: &mut Process) {
        let Some((mem, last)) = p.share_group.and_then(|g| self.share_groups.get_mut(&g)) else {
            return;
        };
        std::mem::swap(&mut p.mem, mem);
        if let Some(prda) = p.prda.take() {
            p.mem.put_page(image::PRDA_ADDR, prda);
        }
        if *last != p.pid {
            p.cpu.flush_code_cache();
            p.cpu.clear_ll_bit();
            *last = p.pid;
        }
    }

    /// After its slice, a member gives the address space back to its group.
    pub(crate) fn park_shared_memory(&mut self, p: &mut Process) {
        if let Some((mem, _)) = p.share_group.and_then(|g| self.share_groups.get_mut(&g)) {
            p.prda = p.mem.take_page(image::PRDA_ADDR);
            std::mem::swap(&mut p.mem, mem);
        }
    }

    /// execve by a share-group member: the group keeps the address space,
    /// the process leaves with the image it is about to build.
    pub(crate) fn leave_share_group(&mut self, p: &mut Process) {
        if let Some(g) = p.share_group.take() {
            if let Some((mem, _)) = self.share_groups.get_mut(&g) {
                drop(p.mem.take_page(image::PRDA_ADDR)); // its own, not the group's
                *mem = std::mem::take(&mut p.mem);
            }
        }
    }

    pub(crate) fn process_mut(&mut self, pid: Pid) -> Option<&mut Process> {
        self.procs.get_mut(&pid)
    }

    /// Every process in the table that has not exited (the running one is
    /// not in the table during its slice).
    pub(crate) fn live_pids(&self) -> Vec<Pid> {
        self.procs.keys().copied().collect()
    }

    /// Children of `pid`, exited or not, in pid order.
    pub(crate) fn children_of(&self, pid: Pid) -> Vec<Pid> {
        let mut children: Vec<Pid> = self
            .procs
            .values()
            .filter(|c| c.ppid == pid)
            .map(|c| c.pid)
            .chain(
                self.zombies
                    .iter()
                    .filter(|(_, z)| z.ppid == pid)
                    .map(|(&c, _)| c),
            )
            .collect();
        children.sort_unstable();
        children
    }

    /// The zombie `pid`, if it has exited and not been collected.
    pub(crate) fn zombie(&self, pid: Pid) -> Option<&Zombie> {
        self.zombies.get(&pid)
    }

    /// Removes a zombie after its parent collected it.
    pub(crate) fn reap(&mut self, pid: Pid) -> Option<Zombie> {
        let z = self.zombies.remove(&pid)?;
        self.budget.release(super::ZOMBIE_COST);
        Some(z)
    }
}
