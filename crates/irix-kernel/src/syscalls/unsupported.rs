//! The IRIX system calls irix-emu answers without running code: those it
//! refuses on purpose, with the errno an unprivileged IRIX process (uid
//! 100) gets from each call's page, and those not implemented yet
//! (ENOSYS, with a warning). With `TABLE` in `mod.rs` they make the whole
//! truth about IRIX's numbers; the README's summary lists every row here.
//!
//! The numbers are IRIX's o32 ones (`abi::names::CALLS`, where a test
//! checks each row's name), kept here rather than in `abi::sys` because no
//! handler uses them.

use super::Arg::*;
use super::{missing, refused, Syscall};
use crate::Errno::{EPERM, ESRCH};

/// Sorted by number; no number is also in `super::TABLE`.
#[rustfmt::skip]
pub static TABLE: &[Syscall] = &[
    missing(1018, "stat",          &[Str, Ptr], "the pre-xstat stat; IRIX's libc calls xstat"),
    refused(1021, "mount",         &[Str, Str, Hex, Str, Ptr, Int], EPERM, "mount(2): only the super-user mounts; the guest's file system is --root and --bind"),
    refused(1022, "umount",        &[Str], EPERM, "umount(2): only the super-user unmounts"),
    refused(1025, "stime",         &[Ptr], EPERM, "stime(2): only the super-user sets the clock; the guest's clock is virtual (--epoch)"),
    refused(1026, "ptrace",        &[Int, Int, Hex, Hex], ESRCH, "ptrace(2): no guest process can be traced from inside the guest, as for a child that never asked to be; debug with --gdb"),
    refused(1045, "plock",         &[Int], EPERM, "plock(2): locking a process in memory needs the super-user"),
    missing(1050, "sysmips",       &[Int, Hex, Hex, Hex], "sysmips(2)'s MIPS-specific commands"),
    refused(1051, "acct",          &[Str], EPERM, "acct(2): turning process accounting on or off needs the super-user"),
    refused(1055, "uadmin",        &[Int, Int, Hex], EPERM, "uadmin(2): system administration needs the super-user"),
    missing(1083, "sgikopt",       &[Str, Ptr, Int], "sgikopt(2)'s kernel option strings"),
    missing(1085, "getmsg",        &[Fd, Ptr, Ptr, Ptr], "STREAMS messages (getmsg(2))"),
    missing(1086, "putmsg",        &[Fd, Ptr, Ptr, Hex], "STREAMS messages (putmsg(2))"),
    refused(1104, "sethostid",     &[Int], EPERM, "only the super-user sets the host id"),
    refused(1109, "sethostname",   &[Str, Int], EPERM, "only the super-user names the host"),
    refused(1111, "setdomainname", &[Str, Int], EPERM, "only the super-user names the domain"),
    refused(1119, "nfssvc",        &[Fd], EPERM, "serving NFS needs the super-user"),
    refused(1120, "getfh",         &[Str, Ptr], EPERM, "NFS file handles are the super-user's"),
    refused(1121, "async_daemons", &[], EPERM, "NFS daemons are the super-user's"),
    refused(1122, "exportfs",      &[Str, Ptr], EPERM, "exporting file systems needs the super-user"),
    refused(1127, "adjtime",       &[Ptr, Ptr], EPERM, "adjtime(2): only the super-user adjusts the clock; the guest's clock is virtual"),
    missing(1131, "procblk",       &[Int, Int, Int], "blockproc(2), unblockproc(2) and setblockproccnt(2)"),
    refused(1139, "pagelock",      &[Hex, Int, Int], EPERM, "locking pages in memory needs the super-user"),
    missing(1141, "quotactl",      &[Int, Str, Int, Ptr], "disk quotas"),
    refused(1145, "vhangup",       &[], EPERM, "vhangup(2): irix-emu never revokes the host's terminal"),
    missing(1166, "sigpoll",       &[Ptr, Ptr, Ptr], "sigpoll, waiting for a signal with a timeout"),
    refused(1167, "swapctl",       &[Int, Ptr], EPERM, "swapctl(2): adding or removing swap needs the super-user; irix-emu has no swap to report either"),
    missing(1168, "getcontext",    &[Ptr], "getcontext(2) (libc's setjmp does not use it)"),
    missing(1169, "setcontext",    &[Ptr], "setcontext(2)"),
    missing(1176, "getpmsg",       &[Fd, Ptr, Ptr, Ptr, Ptr], "STREAMS messages"),
    missing(1177, "putpmsg",       &[Fd, Ptr, Ptr, Int, Hex], "STREAMS messages"),
    missing(1179, "priocntl",      &[Int, Ptr, Int, Ptr], "scheduling classes"),
    missing(1180, "ksigqueue",     &[Int, Int, Hex], "queued signals"),
    missing(1185, "mmap64",        &[Hex, Int, Hex, Hex, Fd, Int, Int], "mmap with a 64-bit offset"),
    missing(1186, "dmi",           &[Int, Hex, Hex, Hex], "the data management interface"),
    missing(1190, "sgifastpath",   &[Int, Hex, Hex], "IRIX 6's fast-path calls"),
    missing(1191, "attr_get",      &[Str, Str, Ptr, Ptr, Hex], "extended attributes"),
    missing(1192, "attr_getf",     &[Fd, Str, Ptr, Ptr, Hex], "extended attributes"),
    missing(1193, "attr_set",      &[Str, Str, Ptr, Int, Hex], "extended attributes"),
    missing(1194, "attr_setf",     &[Fd, Str, Ptr, Int, Hex], "extended attributes"),
    missing(1195, "attr_remove",   &[Str, Str, Hex], "extended attributes"),
    missing(1196, "attr_removef",  &[Fd, Str, Hex], "extended attributes"),
    missing(1197, "attr_list",     &[Str, Ptr, Int, Hex, Ptr], "extended attributes"),
    missing(1198, "attr_listf",    &[Fd, Ptr, Int, Hex, Ptr], "extended attributes"),
    missing(1199, "attr_multi",    &[Str, Ptr, Int, Hex], "extended attributes"),
    missing(1200, "attr_multif",   &[Fd, Ptr, Int, Hex], "extended attributes"),
    missing(1203, "getmountid",    &[Str, Ptr], "IRIX 6's mount ids"),
    missing(1204, "nsproc",        &[Hex, Hex, Hex, Ptr, Int], "IRIX 6's nsproc"),
    missing(1205, "getdents64",    &[Fd, Ptr, Int], "64-bit directory entries without the end flag (ngetdents64 has them)"),
    missing(1206, "afs_syscall",   &[Int, Hex, Hex, Hex], "AFS"),
    missing(1207, "ngetdents",     &[Fd, Ptr, Int, Ptr], "32-bit directory entries with the end flag"),
    missing(1209, "sgi_sesmgr",    &[Int, Hex, Hex], "the session manager of Trusted IRIX"),
    missing(1210, "pidsprocsp",    &[Hex, Hex, Hex, Hex, Int, Int], "IRIX 6's pidsprocsp"),
    missing(1211, "rexec",         &[Int, Str, Ptr, Ptr], "remote exec on a cell"),
    missing(1212, "timer_create",  &[Int, Ptr, Ptr], "POSIX timers (IRIX 6)"),
    missing(1213, "timer_delete",  &[Int], "POSIX timers (IRIX 6)"),
    missing(1214, "timer_settime", &[Int, Hex, Ptr, Ptr], "POSIX timers (IRIX 6)"),
    missing(1215, "timer_gettime", &[Int, Ptr], "POSIX timers (IRIX 6)"),
    missing(1216, "timer_getoverrun", &[Int], "POSIX timers (IRIX 6)"),
    missing(1217, "sched_rr_get_interval", &[Int, Ptr], "POSIX scheduling (IRIX 6)"),
    missing(1218, "sched_yield",   &[], "POSIX scheduling (IRIX 6; sginap(0) yields)"),
    missing(1219, "sched_getscheduler", &[Int], "POSIX scheduling (IRIX 6)"),
    missing(1220, "sched_setscheduler", &[Int, Int, Ptr], "POSIX scheduling (IRIX 6)"),
    missing(1221, "sched_getparam", &[Int, Ptr], "POSIX scheduling (IRIX 6)"),
    missing(1222, "sched_setparam", &[Int, Ptr], "POSIX scheduling (IRIX 6)"),
    missing(1223, "usync_cntl",    &[Int, Ptr], "IRIX 6's user synchronisation"),
    missing(1224, "psema_cntl",    &[Int, Ptr, Hex, Hex], "IRIX 6's POSIX semaphores"),
    missing(1225, "restartreturn", &[], "IRIX 6's restartable calls"),
    missing(1226, "sysget",        &[Int, Ptr, Int, Hex, Ptr], "IRIX 6's sysget"),
    missing(1227, "xpg4_recvmsg",  &[Fd, Ptr, Hex], "recvmsg with XPG4's msghdr (4.4BSD's layout); recvmsg itself is implemented"),
    missing(1228, "umfscall",      &[Hex, Hex, Hex], "IRIX 6's user-mode file systems"),
    missing(1229, "nsproctid",     &[Hex, Hex, Hex, Ptr, Int, Int], "IRIX 6's nsproctid"),
    missing(1230, "rexec_complete", &[Hex, Hex, Hex], "remote exec on a cell"),
    missing(1234, "linkfollow",    &[Str, Str], "IRIX 6's linkfollow"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_row_has_irix_own_name_for_its_number() {
        for row in TABLE {
            assert_eq!(
                crate::abi::names::call_name(row.nr),
                Some(row.name),
                "number {}",
                row.nr
            );
        }
    }
}
