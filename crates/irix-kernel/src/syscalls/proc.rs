//! Process calls: exit, fork, execve, waitsys, kill, and the signal
//! dispositions (sigaction, sigprocmask).

use std::rc::Rc;

use super::{script, Args, Ret, SysResult};
use crate::abi::flags::{sigmask::*, wait::*};
use crate::abi::limits::{ARG_MAX, PATH_MAX};
use crate::kernel::Kernel;
use crate::memory::FileSource;
use crate::process::{ExitStatus, Process, RunState, WaitEvent};
use crate::signals::{self, NSIG, SIGKILL, SIGSTOP};
use crate::vfs::Follow;
use crate::{image, Errno};

/// exit(status): the low 8 bits are the status a parent sees.
pub fn exit(_k: &mut Kernel, _p: &mut Process, a: &Args) -> SysResult {
    Ok(Ret::Exit(ExitStatus::Exited(a.int(0) as u8)))
}

/// fork(): parent v0 = child pid, v1 = 0; child v1 = 1 (docs/abi.md).
pub fn fork(k: &mut Kernel, p: &mut Process, _a: &Args) -> SysResult {
    Ok(Ret::Pair(k.fork(p)?, 0))
}

/// sproc(entry, inh, arg): a share-group member: same address space, own
/// registers and a fresh stack, starting at entry(arg); when entry returns,
/// the member exits with its return value. The inh bits beyond sharing the
/// address space are not modelled: descriptors, directory and umask are
/// copied (as fork does), not shared. The parent gets the child's pid.
pub fn sproc(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let size = image::SPROC_STACK_SIZE;
    let stack = super::mem::find_free(p, size as u64)?;
    p.mem.map_anon(
        stack as u64,
        size as u64,
        crate::memory::Perms::R | crate::memory::Perms::W,
    )?;
    start_member(k, p, a.ptr(0), a.word(2), stack + size - 16)
}

/// sprocsp(entry, inh, arg, sp, len): sproc on a stack the caller supplies.
pub fn sprocsp(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (sp, len) = (a.ptr(3), a.size(4));
    if sp == 0 || len == 0 {
        return Err(Errno::EINVAL);
    }
    start_member(k, p, a.ptr(0), a.word(2), sp & !15)
}

fn start_member(k: &mut Kernel, p: &mut Process, entry: u32, arg: u32, sp: u32) -> SysResult {
    if !entry.is_multiple_of(4)
        || !p
            .mem
            .perms(entry)
            .is_some_and(|perm| perm.contains(crate::memory::Perms::X))
    {
        return Err(Errno::EFAULT);
    }
    image::install_sproc_stub(&mut p.mem)?;
    Ok(Ret::Val(k.sproc(
        p,
        entry,
        arg,
        sp,
        image::SPROC_EXIT_STUB,
    )?))
}

/// Reads a NULL-terminated vector of string pointers.
fn read_vector(p: &Process, mut addr: u32) -> Result<Vec<Vec<u8>>, Errno> {
    let mut out = Vec::new();
    let mut total = 0;
    if addr == 0 {
        return Ok(out);
    }
    loop {
        let ptr = p.mem.read_u32(addr)?;
        if ptr == 0 {
            return Ok(out);
        }
        let s = p.mem.read_cstr(ptr, ARG_MAX)?;
        total += s.len() + 1;
        if total > ARG_MAX {
            return Err(Errno::E2BIG);
        }
        out.push(s);
        addr = addr.checked_add(4).ok_or(Errno::EFAULT)?;
    }
}

/// Bytes of an executable exec reads to find its headers; the segments are
/// then mapped from the file page by page as they are touched.
const EXEC_HEAD: u64 = 64 << 10;

/// Opens `host` for exec: only a regular file can be executed (EACCES for
/// anything else, as IRIX's exec(2) gives for "not an ordinary file"; a
/// FIFO is refused before it is opened, so exec never blocks), and only
/// its head is read.
fn open_executable(
    host: &std::path::Path,
    guest: &str,
) -> Result<(loader::Executable, Rc<dyn FileSource>), Errno> {
    use std::io::Read;
    let io = |e: std::io::Error| crate::files::io_errno(&e);
    if !std::fs::metadata(host).map_err(io)?.is_file() {
        return Err(Errno::EACCES);
    }
    let file = std::fs::File::open(host).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(Errno::EACCES);
    }
    let mut head = Vec::new();
    (&file).take(EXEC_HEAD).read_to_end(&mut head).map_err(io)?;
    let exe = loader::load_headers(guest, &head, meta.len(), &loader::LoadOptions::PROGRAM)
        .map_err(|_| Errno::ENOEXEC)?;
    Ok((exe, Rc::new(file)))
}

/// EACCES unless `host` is a regular file with its owner's execute bit
/// (exec(2): "The new process file is not an ordinary file", "Execute
/// permission on the new process file is denied"; the guest owns its
/// files, see `owner`). A FIFO is refused here, before anything opens it,
/// so exec never blocks.
fn check_executable(host: &std::path::Path) -> Result<(), Errno> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::metadata(host).map_err(|e| crate::files::io_errno(&e))?;
    if !meta.is_file() || meta.permissions().mode() & 0o100 == 0 {
        return Err(Errno::EACCES);
    }
    Ok(())
}

/// The first `len` bytes of the file at `host` (fewer if it is shorter).
fn read_head(host: &std::path::Path, len: usize) -> Result<Vec<u8>, Errno> {
    use std::io::Read;
    let io = |e: std::io::Error| crate::files::io_errno(&e);
    let mut head = Vec::with_capacity(len);
    std::fs::File::open(host)
        .map_err(io)?
        .take(len as u64)
        .read_to_end(&mut head)
        .map_err(io)?;
    Ok(head)
}

/// execve(path, argv, envp): replaces the image, keeping the pid, the
/// descriptors (but close-on-exec ones) and ignored signals. "Profiling is
/// turned off when an exec(2) is executed" (sprofil(2)); pcsample too.
pub fn execve(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let path = p.mem.read_cstr(a.ptr(0), PATH_MAX)?;
    let argv = read_vector(p, a.ptr(1))?;
    let envp = read_vector(p, a.ptr(2))?;
    let (mut host, mut guest) = k.vfs.resolve(&p.cwd, &path, Follow::Yes)?;
    check_executable(&host)?;
    // An interpreter file runs its interpreter, resolved in the guest's
    // view like any exec path (exec(2); see `script`).
    let argv = match script::parse(&read_head(&host, script::HEAD)?)? {
        Some(line) => {
            let env_bytes = envp.iter().map(|e| e.len() + 1).sum();
            let argv = script::arguments(&line, &path, &argv, env_bytes)?;
            (host, guest) = k.vfs.resolve(&p.cwd, &line.path, Follow::Yes)?;
            check_executable(&host)?;
            argv
        }
        None => argv,
    };
    let (exe, file) = open_executable(&host, &guest)?;
    let interp = crate::dynamic::load_interpreter(&k.vfs, &p.cwd, &exe).map_err(|e| e.errno())?;
    let cpu_config = k.cpu_config(&exe);
    let img = image::build(
        &exe,
        Some(&file),
        interp.as_ref(),
        &argv,
        &envp,
        p.pid,
        cpu_config,
        &k.budget,
    )?;
    // The new image keeps the old one's user time: the process is the same.
    let user = p.user_cycles();
    k.leave_share_group(p);
    k.end_outside_profile(p.pid);
    p.cpu = img.cpu;
    p.cpu.set_translation_store(k.config.translations.clone());
    p.cpu.set_perf_dump(k.config.perf_dump.clone());
    p.cpu.add_cycles(user);
    p.mem = img.mem;
    p.brk = crate::process::Brk {
        start: img.brk,
        current: img.brk,
    };
    p.stack_limit = img.stack_limit;
    super::rlimit::apply_stack_limit(p)?;
    p.n32 = exe.is_n32();
    p.name = String::from_utf8_lossy(&path)
        .rsplit('/')
        .next()
        .unwrap_or_default()
        .to_string();
    for file in p.fds.exec() {
        k.release_locks(p.pid, &file.borrow());
    }
    p.signals.exec();
    p.prof.exec();
    p.execs += 1;
    p.syscalls_made = 0;
    k.timeline_exec(p, guest.as_bytes(), &exe);
    p.exec_path = Some(guest);
    k.reschedule_ticks(p);
    Ok(Ret::Jumped)
}

/// execv(path, argv): SVR4's exec without an environment; the new image
/// gets an empty one.
pub fn execv(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let mut words = *a.words();
    words[2] = 0;
    execve(k, p, &Args::new(words))
}

/// siginfo_t: 128 bytes (SI_MAXSZ), si_signo@0, si_code@4, si_errno@8,
/// si_pid@12, then for SIGCHLD: si_utime@16, si_status@20, si_stime@24
/// (the SVR4 MIPS layout).
const SIGINFO_SIZE: usize = 128;

/// The first of `candidates` (children, in pid order) that has exited.
fn exited_child(k: &Kernel, candidates: &[u32]) -> Option<(u32, ExitStatus)> {
    candidates
        .iter()
        .copied()
        .find_map(|c| Some((c, k.zombie(c)?.status)))
}

/// A child's user and system cycles, its own waited-for children's included
/// (what the parent's cutime/cstime gain when it is collected).
fn child_cycles(k: &Kernel, child: u32) -> (u64, u64) {
    k.zombie(child)
        .map_or((0, 0), |z| (z.user_cycles, z.sys_cycles))
}

/// Collects an exited child: it leaves the process table and its times go
/// to the parent's cutime/cstime.
fn collect(k: &mut Kernel, p: &mut Process, child: u32) {
    let (utime, stime) = child_cycles(k, child);
    k.reap(child);
    p.acct.child_user_cycles += utime;
    p.acct.child_sys_cycles += stime;
}

/// What waitsys found to report about a child.
enum Report {
    Exited(ExitStatus),
    Changed(WaitEvent),
}

/// The first of `candidates` (pid order) with something `options` asks
/// for: an exit (WEXITED), a stop (WSTOPPED), a continue (WCONTINUED).
fn reportable(k: &Kernel, candidates: &[u32], options: u32) -> Option<(u32, Report)> {
    candidates.iter().find_map(|&c| {
        if let Some(z) = k.zombie(c) {
            return (options & WEXITED != 0).then_some((c, Report::Exited(z.status)));
        }
        let event = k.procs.get(&c)?.wait_event?;
        let wanted = match event {
            WaitEvent::Stopped(_) => WSTOPPED,
            WaitEvent::Continued => WCONTINUED,
        };
        (options & wanted != 0).then_some((c, Report::Changed(event)))
    })
}

/// waitsys(idtype, id, info, options, rusage): SVR4 waitid, as wait(2)
/// describes it. idtype P_PID (that child), P_PGID (the children in
/// process group id), P_ALL. Reports an exited child (WEXITED, collecting
/// it unless WNOWAIT), a child stopped by a signal (WSTOPPED: CLD_STOPPED
/// with the signal) or continued by SIGCONT (WCONTINUED: CLD_CONTINUED);
/// each stop or continue is reported once. Blocks until there is one
/// unless WNOHANG (then 0 and a zeroed siginfo); ECHILD without such
/// children; EINVAL for bad options or idtype.
pub fn waitsys(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (idtype, id, info, options) = (a.word(0), a.word(1), a.ptr(2), a.word(3));
    if options & (WEXITED | WTRAPPED | WSTOPPED | WCONTINUED) == 0
        || options & !(WEXITED | WTRAPPED | WSTOPPED | WCONTINUED | WNOHANG | WNOWAIT) != 0
    {
        return Err(Errno::EINVAL);
    }
    let group_of = |c: u32| {
        k.procs
            .get(&c)
            .map(|o| o.ids.pgid)
            .or_else(|| k.zombie(c).map(|z| z.pgid))
    };
    let candidates: Vec<_> = match idtype {
        P_ALL => k.children_of(p.pid),
        P_PGID => k
            .children_of(p.pid)
            .into_iter()
            .filter(|&c| group_of(c) == Some(id))
            .collect(),
        P_PID => k
            .children_of(p.pid)
            .into_iter()
            .filter(|&c| c == id)
            .collect(),
        _ => return Err(Errno::EINVAL),
    };
    if candidates.is_empty() {
        return Err(Errno::ECHILD);
    }
    let Some((child, report)) = reportable(k, &candidates, options) else {
        if options & WNOHANG != 0 {
            if info != 0 {
                p.mem.write_bytes(info, &[0; SIGINFO_SIZE])?;
            }
            return Ok(Ret::Val(0));
        }
        return Ok(Ret::Block);
    };
    let (code, value) = match report {
        Report::Exited(ExitStatus::Exited(c)) => (CLD_EXITED, c as u32),
        Report::Exited(ExitStatus::Killed {
            signal,
            core: false,
        }) => (CLD_KILLED, signal),
        Report::Exited(ExitStatus::Killed { signal, core: true }) => (CLD_DUMPED, signal),
        Report::Changed(WaitEvent::Stopped(signal)) => (CLD_STOPPED, signal),
        Report::Changed(WaitEvent::Continued) => (CLD_CONTINUED, signals::SIGCONT),
    };
    let (utime, stime) = match report {
        Report::Exited(_) => child_cycles(k, child),
        Report::Changed(_) => k
            .procs
            .get(&child)
            .map_or((0, 0), |c| (c.user_cycles(), c.acct.sys_cycles)),
    };
    if info != 0 {
        let mut si = [0u8; SIGINFO_SIZE];
        let mut put = |off: usize, v: u32| si[off..off + 4].copy_from_slice(&v.to_be_bytes());
        put(0, signals::SIGCHLD);
        put(4, code);
        put(12, child);
        put(16, k.cycles_to_ticks(utime) as u32);
        put(20, value);
        put(24, k.cycles_to_ticks(stime) as u32);
        p.mem.write_bytes(info, &si)?;
    }
    if options & WNOWAIT == 0 {
        match report {
            Report::Exited(_) => collect(k, p, child),
            Report::Changed(_) => {
                if let Some(c) = k.process_mut(child) {
                    c.wait_event = None;
                }
            }
        }
    }
    Ok(Ret::Val(0))
}

/// wait(): the pre-waitsys SVR4 form libc's wait() used: blocks until any
/// child has exited, then v0 = its pid, v1 = its wait status word
/// (exit code << 8, or the signal | 0x80 for a core); ECHILD without
/// children.
pub fn wait(k: &mut Kernel, p: &mut Process, _a: &Args) -> SysResult {
    let children = k.children_of(p.pid);
    if children.is_empty() {
        return Err(Errno::ECHILD);
    }
    let Some((child, status)) = exited_child(k, &children) else {
        return Ok(Ret::Block);
    };
    collect(k, p, child);
    Ok(Ret::Pair(child, status.wait_status()))
}

/// kill(pid, sig), by kill(2): pid > 0 is that process; 0 every process
/// in the caller's process group; -1 every process the caller may signal
/// (all of the run's: they are all the guest user's); below -1 every
/// process in group -pid. ESRCH when none is found; sig 0 only checks.
pub fn kill(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (pid, sig) = (a.int(0), a.word(1));
    if sig >= NSIG {
        return Err(Errno::EINVAL);
    }
    // Every live process with its group, the caller first.
    let all: Vec<(u32, u32)> = std::iter::once((p.pid, p.ids.pgid))
        .chain(k.procs.values().map(|o| (o.pid, o.ids.pgid)))
        .collect();
    let in_group = |g: u32| {
        all.iter()
            .filter(|&&(_, pg)| pg == g)
            .map(|&(t, _)| t)
            .collect()
    };
    let targets: Vec<u32> = match pid {
        1.. => vec![pid as u32],
        0 => in_group(p.ids.pgid),
        -1 => all.iter().map(|&(t, _)| t).collect(),
        _ => in_group(pid.unsigned_abs()),
    };
    let mut found = false;
    for t in targets {
        let target = if t == p.pid {
            Some(&mut *p)
        } else {
            k.process_mut(t)
        };
        let Some(target) = target else {
            continue;
        };
        found = true;
        if sig != 0 {
            target.signals.pending |= signals::bit(sig);
            if target.state == RunState::Blocked && sig == SIGKILL {
                target.state = RunState::Runnable;
            }
        }
    }
    if found {
        Ok(Ret::Val(0))
    } else {
        Err(Errno::ESRCH)
    }
}

/// IRIX struct sigaction: { int sa_flags; void (*sa_handler)(); sigset_t
/// sa_mask (4 words); int sa_resv[2]; } = 32 bytes (SVR4 MIPS order).
const SIGACTION_SIZE: usize = 32;

/// sigaction(sig, act, oact, trampoline).
pub fn sigaction(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (sig, act, oact, tramp) = (a.word(0), a.ptr(1), a.ptr(2), a.ptr(3));
    if sig == 0 || sig >= NSIG {
        return Err(Errno::EINVAL);
    }
    let s = sig as usize;
    let old = {
        let mut b = [0u8; SIGACTION_SIZE];
        b[0..4].copy_from_slice(&p.signals.handler_flags[s].to_be_bytes());
        b[4..8].copy_from_slice(&p.signals.handlers[s].to_be_bytes());
        b[8..12].copy_from_slice(&(p.signals.handler_masks[s] as u32).to_be_bytes());
        b[12..16].copy_from_slice(&((p.signals.handler_masks[s] >> 32) as u32).to_be_bytes());
        b
    };
    if act != 0 {
        let mut b = [0u8; SIGACTION_SIZE];
        p.mem.read_bytes(act, &mut b)?;
        let word = |o: usize| u32::from_be_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
        let handler = word(4);
        if (sig == SIGKILL || sig == SIGSTOP) && handler != signals::SIG_DFL {
            return Err(Errno::EINVAL);
        }
        p.signals.handler_flags[s] = word(0);
        p.signals.handlers[s] = handler;
        p.signals.handler_masks[s] = word(8) as u64 | (word(12) as u64) << 32;
        if tramp != 0 {
            p.signals.trampoline = tramp;
        }
    }
    if oact != 0 {
        p.mem.write_bytes(oact, &old)?;
    }
    Ok(Ret::Val(0))
}

/// sigprocmask(how, set, oset): SIG_BLOCK 1, SIG_UNBLOCK 2, SIG_SETMASK 3
/// (SVR4); sigset_t is four words, signal n at bit n-1 of word 0/1.
pub fn sigprocmask(_k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    let (how, set, oset) = (a.word(0), a.ptr(1), a.ptr(2));
    let old = p.signals.blocked;
    if set != 0 {
        let lo = p.mem.read_u32(set)? as u64;
        let hi = p.mem.read_u32(set.wrapping_add(4))? as u64;
        let mask = (lo | hi << 32) & !(signals::bit(SIGKILL) | signals::bit(SIGSTOP));
        p.signals.blocked = match how {
            SIG_BLOCK => old | mask,
            SIG_UNBLOCK => old & !mask,
            SIG_SETMASK => mask,
            _ => return Err(Errno::EINVAL),
        };
    }
    if oset != 0 {
        let mut b = [0u8; 16];
        b[0..4].copy_from_slice(&(old as u32).to_be_bytes());
        b[4..8].copy_from_slice(&((old >> 32) as u32).to_be_bytes());
        p.mem.write_bytes(oset, &b)?;
    }
    Ok(Ret::Val(0))
}

/// sigreturn(scp, ucp, signo): back from a handler, to the context saved
/// in the sigcontext at scp (see `sigframe`).
pub fn sigreturn(k: &mut Kernel, p: &mut Process, a: &Args) -> SysResult {
    crate::sigframe::sigreturn(p, a.ptr(0))?;
    if let Some(cg) = k.call_graph(p.pid) {
        cg.with_tracker(p.pid, |t| t.sigreturn());
    }
    Ok(Ret::Jumped)
}
