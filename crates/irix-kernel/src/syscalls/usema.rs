//! The semaphore devices' system calls (usema(7M); the devices are in
//! `crate::usema`): opening them, and their ioctl requests.

use super::{Ret, SysResult};
use crate::files::{oflag, FileKind, OpenFile};
use crate::kernel::Kernel;
use crate::process::Process;
use crate::usema::{
    Block, Usema, UIOCABLOCK, UIOCATTACHSEMA, UIOCAUNBLOCK, UIOCBLOCK, UIOCNOIBLOCK, UIOCUNBLOCK,
};
use crate::Errno;

/// The semaphore devices (IRIX usema(7M)): each open of the clone device
/// makes a new semaphore, whatever the root holds at that path; the other
/// attaches to an existing one.
const USEMACLONE: &str = "/dev/usemaclone";
const USEMA: &str = "/dev/usema";

/// Does the guest path name one of the semaphore devices?
pub(super) fn is_device(guest: &str) -> bool {
    guest == USEMACLONE || guest == USEMA
}

/// open("/dev/usemaclone" or "/dev/usema", O_RDWR): a semaphore device.
pub(super) fn open(k: &mut Kernel, p: &mut Process, flags: u32, guest: String) -> SysResult {
    if flags & oflag::O_ACCMODE != oflag::O_RDWR {
        return Err(Errno::EACCES);
    }
    let sema = (guest == USEMACLONE).then(|| k.usemas.clone_device());
    let mut file = OpenFile::host_less(FileKind::Usema(sema), flags);
    file.path = Some(guest);
    Ok(Ret::Val(p.fds.install(file)?))
}

/// A request to a semaphore device, `sema` (None: /dev/usema, which
/// only attaches), see `usema.rs`: v0 = 0 or the attached descriptor, or
/// the caller blocks until released. UIOCBLOCK's argument (0 or -1 from
/// IRIX 5.3's libc) is not interpreted; UIOCUNBLOCK's and UIOCAUNBLOCK's
/// is the pid to release, which must be a process of the run (ESRCH
/// otherwise, docs/usema.md). Unknown requests: EINVAL.
pub(super) fn ioctl(
    k: &mut Kernel,
    p: &mut Process,
    sema: Option<&Usema>,
    request: u32,
    arg: u32,
) -> SysResult {
    match (request, sema) {
        (UIOCATTACHSEMA, _) => {
            let found = k.usemas.find(p.mem.read_u32(arg)?).ok_or(Errno::EINVAL)?;
            let file = OpenFile::host_less(FileKind::Usema(Some(found)), oflag::O_RDWR);
            Ok(Ret::Val(p.fds.install(file)?))
        }
        (UIOCBLOCK | UIOCNOIBLOCK, Some(sema)) => match sema.block(p.pid) {
            Block::Pass => Ok(Ret::Val(0)),
            Block::Sleep => Ok(Ret::Block),
        },
        (UIOCUNBLOCK, Some(sema)) => {
            sema.unblock(live_process(k, p, arg)?);
            Ok(Ret::Val(0))
        }
        // A pollable semaphore (usnewpollsema(3P)): "Pollable semaphores
        // never block the caller"; the caller acquires the semaphore by
        // polling the descriptor (`poll::readiness`).
        (UIOCABLOCK, Some(sema)) => {
            sema.block_async(p.pid);
            Ok(Ret::Val(0))
        }
        (UIOCAUNBLOCK, Some(sema)) => {
            sema.unblock_async(live_process(k, p, arg)?);
            Ok(Ret::Val(0))
        }
        _ => Err(Errno::EINVAL),
    }
}

/// The pid an unblock names, if it is a process of the run (the caller, or
/// any other that has not ended): ESRCH, "no such process", otherwise. So
/// the semaphores keep unblocks only for processes that exist, and forget
/// them when the process exits (`Usemas::exited`).
fn live_process(k: &Kernel, p: &Process, arg: u32) -> Result<u32, Errno> {
    if arg == p.pid || k.procs.contains_key(&arg) {
        Ok(arg)
    } else {
        Err(Errno::ESRCH)
    }
}
