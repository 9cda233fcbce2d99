//! System call numbers: the o32 IRIX table, where a call's number is
//! 1000 + its SVR4 number and 1000 itself is the indirect call (the number
//! in a0, the arguments shifted by one). Numbers past IRIX's range are
//! irix-emu's own, for calls other systems' manual pages specify.

pub const SYSCALL: u32 = 1000;
pub const EXIT: u32 = 1001;
/// SVR4's exec without an environment (the new image gets none).
pub const EXECV: u32 = 1011;
pub const FORK: u32 = 1002;
pub const READ: u32 = 1003;
pub const WRITE: u32 = 1004;
pub const OPEN: u32 = 1005;
pub const CLOSE: u32 = 1006;
/// The SVR4 wait that libc used before waitsys.
pub const WAIT: u32 = 1007;
pub const CREAT: u32 = 1008;
pub const LINK: u32 = 1009;
pub const UNLINK: u32 = 1010;
pub const CHDIR: u32 = 1012;
pub const TIME: u32 = 1013;
pub const CHMOD: u32 = 1015;
pub const CHOWN: u32 = 1016;
pub const BRK: u32 = 1017;
pub const LSEEK: u32 = 1019;
pub const GETPID: u32 = 1020;
pub const SETUID: u32 = 1023;
pub const GETUID: u32 = 1024;
pub const UTIME: u32 = 1030;
pub const ALARM: u32 = 1027;
pub const PAUSE: u32 = 1029;
pub const ACCESS: u32 = 1033;
/// statfs(path, buf, len, fstyp), SVR4's older file-system query.
pub const STATFS: u32 = 1035;
pub const SYNC: u32 = 1036;
pub const KILL: u32 = 1037;
pub const FSTATFS: u32 = 1038;
pub const NICE: u32 = 1034;
/// pgrpsys(cmd, ...): getpgrp 0, setpgrp 1, getsid 2, setsid 3, getpgid 4,
/// setpgid 5 (SVR4's commands).
pub const PGRPSYS: u32 = 1039;
pub const SYSSGI: u32 = 1040;
pub const DUP: u32 = 1041;
pub const PIPE: u32 = 1042;
pub const TIMES: u32 = 1043;
pub const PROFIL: u32 = 1044;
pub const SETGID: u32 = 1046;
pub const GETGID: u32 = 1047;
pub const IOCTL: u32 = 1054;
/// sysmp: multiprocessor control and information.
pub const MSGSYS: u32 = 1049;
pub const SHMSYS: u32 = 1052;
pub const SEMSYS: u32 = 1053;
pub const SYSMP: u32 = 1056;
pub const ACCEPT: u32 = 1089;
pub const BIND: u32 = 1090;
pub const CONNECT: u32 = 1091;
pub const GETPEERNAME: u32 = 1093;
pub const GETSOCKNAME: u32 = 1094;
pub const GETSOCKOPT: u32 = 1095;
pub const LISTEN: u32 = 1096;
pub const RECV: u32 = 1097;
pub const RECVFROM: u32 = 1098;
pub const RECVMSG: u32 = 1099;
pub const SEND: u32 = 1101;
pub const SENDMSG: u32 = 1102;
pub const SENDTO: u32 = 1103;
pub const SETSOCKOPT: u32 = 1105;
pub const SHUTDOWN: u32 = 1106;
pub const SOCKET: u32 = 1107;
pub const SOCKETPAIR: u32 = 1155;
pub const UTSSYS: u32 = 1057;
pub const EXECVE: u32 = 1059;
pub const UMASK: u32 = 1060;
pub const CHROOT: u32 = 1061;
pub const FCNTL: u32 = 1062;
pub const ULIMIT: u32 = 1063;
/// nanosleep(2): 77 in IRIX's <sys.s> (SYS_nanosleep), what libc.so.1's
/// nanosleep traps with.
pub const NANOSLEEP: u32 = 1077;
pub const GETRLIMIT64: u32 = 1075;
pub const SETRLIMIT64: u32 = 1076;
pub const LSEEK64: u32 = 1078;
pub const RMDIR: u32 = 1079;
pub const MKDIR: u32 = 1080;
pub const GETDENTS: u32 = 1081;
pub const SGINAP: u32 = 1082;
pub const SYSFS: u32 = 1084;
pub const POLL: u32 = 1087;
/// gethostname (BSD's, in IRIX's table).
pub const GETHOSTID: u32 = 1092;
pub const GETHOSTNAME: u32 = 1108;
pub const GETDOMAINNAME: u32 = 1110;
pub const TRUNCATE: u32 = 1112;
pub const FTRUNCATE: u32 = 1113;
pub const RENAME: u32 = 1114;
pub const SYMLINK: u32 = 1115;
pub const READLINK: u32 = 1116;
pub const GETITIMER: u32 = 1125;
pub const SETITIMER: u32 = 1126;
pub const SETREGID: u32 = 1123;
pub const SETREUID: u32 = 1124;
pub const SIGRETURN: u32 = 1088;
pub const SELECT: u32 = 1100;
pub const GETTIMEOFDAY: u32 = 1128;
pub const SPROC: u32 = 1129;
/// prctl (qemu-irix calls it sgiprctl).
pub const PRCTL: u32 = 1130;
pub const SPROCSP: u32 = 1132;
pub const MMAP: u32 = 1134;
pub const MUNMAP: u32 = 1135;
pub const MPROTECT: u32 = 1136;
pub const MSYNC: u32 = 1137;
pub const MADVISE: u32 = 1138;
pub const GETPAGESIZE: u32 = 1140;
pub const FSYNC: u32 = 1146;
pub const FCHDIR: u32 = 1147;
pub const CACHEFLUSH: u32 = 1150;
pub const CACHECTL: u32 = 1151;
pub const FCHOWN: u32 = 1152;
/// The 4.3BSD process-group calls IRIX's libc keeps as BSDgetpgrp(pid)
/// and BSDsetpgrp(pid, pgrp).
pub const BSDGETPGRP: u32 = 1143;
pub const BSDSETPGRP: u32 = 1144;
pub const GETRLIMIT: u32 = 1148;
pub const SETRLIMIT: u32 = 1149;
pub const FCHMOD: u32 = 1153;
/// sysinfo, SVR4's system-information strings (`sysinfosgi` in qemu-irix).
pub const SYSINFO: u32 = 1156;
/// uname(2)'s own number (IRIX's libc calls utssys instead).
pub const UNAME: u32 = 1157;
pub const XSTAT: u32 = 1158;
pub const LXSTAT: u32 = 1159;
pub const FXSTAT: u32 = 1160;
/// xmknod(version, path, mode, dev): mknod(2) and mkfifo(3C) (version 2).
pub const XMKNOD: u32 = 1161;
pub const SIGACTION: u32 = 1162;
pub const SIGPENDING: u32 = 1163;
pub const SIGPROCMASK: u32 = 1164;
pub const SIGSUSPEND: u32 = 1165;
pub const WAITSYS: u32 = 1170;
pub const STATVFS: u32 = 1174;
pub const FSTATVFS: u32 = 1175;
pub const LCHOWN: u32 = 1178;
/// truncate64(path, pad, hi, lo) and ftruncate64(fd, pad, hi, lo).
pub const TRUNCATE64: u32 = 1183;
pub const FTRUNCATE64: u32 = 1184;
/// The 4.3BSD sigstack(2) (IRIX 5.3's libc makes it as syssgi(SGI_SIGSTACK)).
pub const SIGSTACK: u32 = 1171;
pub const SIGALTSTACK: u32 = 1172;
pub const SIGSENDSET: u32 = 1173;
pub const READV: u32 = 1181;
pub const WRITEV: u32 = 1182;
/// pread(2)/pwrite(2) (SYS_pread 187, SYS_pwrite 188 in IRIX's <sys.s>):
/// (fd, buf, nbyte, offset), a 32-bit offset, as IRIX 5.3's libc calls them.
pub const PREAD: u32 = 1187;
pub const PWRITE: u32 = 1188;
/// ngetdents64: 64-bit directory entries with an end-of-directory flag.
pub const NGETDENTS64: u32 = 1208;
/// setregid with XPG4's rules (IRIX 6's libc): the same as setregid here.
pub const XPG4_SETREGID: u32 = 1233;
/// pcsample is Solaris' (number 26 there); irix-emu offers it in every
/// personality as 2000 + 26, outside IRIX's range.
pub const PCSAMPLE: u32 = 2026;
