//! Names of IRIX's system calls and syssgi requests, implemented or not,
//! so that a call irix-emu lacks is still named in its ENOSYS warning and
//! in --strace. The numbers are the o32 IRIX interface (1000 + the call's
//! number), as qemu-irix's table and SGI's published <sys/syssgi.h> give
//! them; the implemented ones are also in the tables in `syscalls`.

/// Every IRIX o32 system call number with a known name, sorted.
#[rustfmt::skip]
pub const CALLS: &[(u32, &str)] = &[
    (1001, "exit"), (1002, "fork"), (1003, "read"), (1004, "write"), (1005, "open"),
    (1006, "close"), (1008, "creat"), (1009, "link"), (1010, "unlink"), (1011, "execv"),
    (1012, "chdir"), (1013, "time"), (1015, "chmod"), (1016, "chown"), (1017, "brk"),
    (1018, "stat"), (1019, "lseek"), (1020, "getpid"), (1021, "mount"), (1022, "umount"),
    (1023, "setuid"), (1024, "getuid"), (1025, "stime"), (1026, "ptrace"), (1027, "alarm"),
    (1029, "pause"), (1030, "utime"), (1033, "access"), (1034, "nice"), (1035, "statfs"),
    (1036, "sync"), (1037, "kill"), (1038, "fstatfs"), (1039, "pgrpsys"), (1040, "syssgi"),
    (1041, "dup"), (1042, "pipe"), (1043, "times"), (1044, "profil"), (1045, "plock"),
    (1046, "setgid"), (1047, "getgid"), (1049, "msgsys"), (1050, "sysmips"), (1051, "acct"),
    (1052, "shmsys"), (1053, "semsys"), (1054, "ioctl"), (1055, "uadmin"), (1056, "sysmp"),
    (1057, "utssyssgi"), (1059, "execve"), (1060, "umask"), (1061, "chroot"), (1062, "fcntl"),
    (1063, "ulimit"), (1075, "getrlimit64"), (1076, "setrlimit64"), (1077, "nanosleep"),
    (1078, "lseek64"), (1079, "rmdir"), (1080, "mkdir"), (1081, "getdents"), (1082, "sginap"),
    (1083, "sgikopt"), (1084, "sysfs"), (1085, "getmsg"), (1086, "putmsg"), (1087, "poll"),
    (1088, "sigreturn"), (1089, "accept"), (1090, "bind"), (1091, "connect"),
    (1092, "gethostid"), (1093, "getpeername"), (1094, "getsockname"), (1095, "getsockopt"),
    (1096, "listen"), (1097, "recv"), (1098, "recvfrom"), (1099, "recvmsg"), (1100, "select"),
    (1101, "send"), (1102, "sendmsg"), (1103, "sendto"), (1104, "sethostid"),
    (1105, "setsockopt"), (1106, "shutdown"), (1107, "socket"), (1108, "gethostname"),
    (1109, "sethostname"), (1110, "getdomainname"), (1111, "setdomainname"), (1112, "truncate"),
    (1113, "ftruncate"), (1114, "rename"), (1115, "symlink"), (1116, "readlink"),
    (1119, "nfssvc"), (1120, "getfh"), (1121, "async_daemons"), (1122, "exportfs"),
    (1123, "setregid"), (1124, "setreuid"), (1125, "getitimer"), (1126, "setitimer"),
    (1127, "adjtime"), (1128, "gettimeofday"), (1129, "sproc"), (1130, "sgiprctl"),
    (1131, "procblk"), (1132, "sprocsp"), (1134, "mmap"), (1135, "munmap"), (1136, "mprotect"),
    (1137, "msync"), (1138, "madvise"), (1139, "pagelock"), (1140, "getpagesize"),
    (1141, "quotactl"), (1143, "BSDgetpgrp"), (1144, "BSDsetpgrp"), (1145, "vhangup"),
    (1146, "fsync"), (1147, "fchdir"), (1148, "getrlimit"), (1149, "setrlimit"),
    (1150, "cacheflush"), (1151, "cachectl"), (1152, "fchown"), (1153, "fchmod"),
    (1155, "socketpair"), (1156, "sysinfosgi"), (1157, "uname"), (1158, "xstat"),
    (1159, "lxstat"), (1160, "fxstat"), (1161, "xmknod"), (1162, "sigaction"),
    (1163, "sigpending"), (1164, "sigprocmask"), (1165, "sigsuspend"), (1166, "sigpoll"),
    (1167, "swapctl"), (1168, "getcontext"), (1169, "setcontext"), (1170, "waitid"),
    (1171, "sigstack"), (1172, "sigaltstack"), (1173, "sigsendset"), (1174, "statvfs"),
    (1175, "fstatvfs"), (1176, "getpmsg"), (1177, "putpmsg"), (1178, "lchown"),
    (1179, "priocntl"), (1180, "ksigqueue"), (1181, "readv"), (1182, "writev"),
    (1183, "truncate64"), (1184, "ftruncate64"), (1185, "mmap64"), (1186, "dmi"),
    (1187, "pread64"), (1188, "pwrite64"), (1189, "fdatasync"), (1190, "sgifastpath"),
    (1191, "attr_get"), (1192, "attr_getf"), (1193, "attr_set"), (1194, "attr_setf"),
    (1195, "attr_remove"), (1196, "attr_removef"), (1197, "attr_list"), (1198, "attr_listf"),
    (1199, "attr_multi"), (1200, "attr_multif"), (1201, "statvfs64"), (1202, "fstatvfs64"),
    (1203, "getmountid"), (1204, "nsproc"), (1205, "getdents64"), (1206, "afs_syscall"),
    (1207, "ngetdents"), (1208, "ngetdents64"), (1209, "sgi_sesmgr"), (1210, "pidsprocsp"),
    (1211, "rexec"), (1212, "timer_create"), (1213, "timer_delete"), (1214, "timer_settime"),
    (1215, "timer_gettime"), (1216, "timer_getoverrun"), (1217, "sched_rr_get_interval"),
    (1218, "sched_yield"), (1219, "sched_getscheduler"), (1220, "sched_setscheduler"),
    (1221, "sched_getparam"), (1222, "sched_setparam"), (1223, "usync_cntl"),
    (1224, "psema_cntl"), (1225, "restartreturn"), (1226, "sysget"), (1227, "xpg4_recvmsg"),
    (1228, "umfscall"), (1229, "nsproctid"), (1230, "rexec_complete"),
    (1231, "xpg4_sigaltstack"), (1232, "xpg4_select"), (1233, "xpg4_setregid"),
    (1234, "linkfollow"),
];

/// syssgi request numbers with a known name, sorted.
#[rustfmt::skip]
pub const SYSSGI_REQUESTS: &[(u32, &str)] = &[
    (1, "SGI_SYSID"), (2, "SGI_BUFINFO"), (3, "SGI_TUNE_SET"), (4, "SGI_IDBG"),
    (5, "SGI_INVENT"), (6, "SGI_RDNAME"), (7, "SGI_SETLED"), (8, "SGI_SETNVRAM"),
    (9, "SGI_GETNVRAM"), (10, "SGI_SETKOPT"), (12, "SGI_QUERY_FTIMER"),
    (13, "SGI_QUERY_CYCLECNTR"), (20, "SGI_SETSID"), (21, "SGI_SETPGID"), (22, "SGI_SYSCONF"),
    (24, "SGI_PATHCONF"), (29, "SGI_TITIMER"), (30, "SGI_READB"), (31, "SGI_WRITEB"),
    (40, "SGI_SETGROUPS"), (41, "SGI_GETGROUPS"), (52, "SGI_SETTIMEOFDAY"),
    (53, "SGI_SETTIMETRIM"), (54, "SGI_GETTIMETRIM"), (55, "SGI_SPROFIL"), (56, "SGI_RUSAGE"),
    (57, "SGI_SIGSTACK"), (59, "SGI_NETPROC"), (60, "SGI_SIGALTSTACK"), (61, "SGI_BDFLUSHCNT"),
    (62, "SGI_SSYNC"), (63, "SGI_NFSCNVT"), (64, "SGI_GETPGID"), (65, "SGI_GETSID"),
    (66, "SGI_IOPROBE"), (67, "SGI_CONFIG"), (68, "SGI_ELFMAP"), (69, "SGI_MCONFIG"),
    (85, "SGI_PROC_ATTR_GET"), (86, "SGI_PROC_ATTR_SET"), (106, "SGI_SYMTAB"),
    (107, "SGI_SET_FP_PRECISE"), (108, "SGI_TOSSTSAVE"), (109, "SGI_FDHI"),
    (111, "SGI_SET_FP_PRESERVE"), (116, "SGI_GET_FP_PRECISE"), (129, "SGI_USE_FP_BCOPY"),
    (130, "SGI_GET_UST"), (131, "SGI_SPECULATIVE_EXEC"), (139, "SGI_CREATE_UUID"),
    (140, "SGI_NOFPE"), (141, "SGI_OLD_SOFTFP"), (165, "SGI_CYCLECNTR_SIZE"),
    (166, "SGI_QUERY_FASTTIMER"), (188, "SGI_RELEASE_NAME"), (189, "SGI_SYNCH_CACHE_HANDLER"),
];

/// The name of system call `nr`, if IRIX has one.
pub fn call_name(nr: u32) -> Option<&'static str> {
    lookup(CALLS, nr)
}

/// The name of syssgi request `nr`, if known.
pub fn syssgi_request_name(nr: u32) -> Option<&'static str> {
    lookup(SYSSGI_REQUESTS, nr)
}

fn lookup(table: &'static [(u32, &'static str)], nr: u32) -> Option<&'static str> {
    table
        .binary_search_by_key(&nr, |&(n, _)| n)
        .ok()
        .map(|i| table[i].1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted_and_name_what_the_kernel_implements_alike() {
        for t in [CALLS, SYSSGI_REQUESTS] {
            for w in t.windows(2) {
                assert!(w[0].0 < w[1].0, "{:?} before {:?}", w[0], w[1]);
            }
        }
        assert_eq!(call_name(1108), Some("gethostname"));
        assert_eq!(call_name(1015), Some("chmod"));
        assert_eq!(syssgi_request_name(68), Some("SGI_ELFMAP"));
        assert_eq!(call_name(1999), None);
    }
}
