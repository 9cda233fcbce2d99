/* sysnr.h -- system call numbers of the two guest personalities.
 *
 * GUEST_IRIX: IRIX o32, v0 = 1000 + n (docs/abi.md "System calls", cross-
 *   checked with NetBSD sys/compat/irix/syscalls.master); pcsample is the
 *   project's own number 2026 (Solaris' pcsample has no IRIX number).
 * GUEST_LINUX: Linux o32, v0 = 4000 + n (arch/mips/kernel/syscalls/
 *   syscall_o32.tbl). Only what the portable programs need: the Linux build
 *   is a differential oracle, not a product.
 * Both: a0-a3 then sp+16.. for arguments; on return a3 != 0 means error and
 * v0 holds the positive errno.
 */
#ifndef GUEST_SYSNR_H
#define GUEST_SYSNR_H

#if defined(GUEST_IRIX)
#define SYS_exit 1001
#define SYS_fork 1002
#define SYS_read 1003
#define SYS_write 1004
#define SYS_open 1005
#define SYS_close 1006
#define SYS_creat 1008
#define SYS_unlink 1010
#define SYS_chdir 1012
#define SYS_brk 1017
#define SYS_lseek 1019
#define SYS_getpid 1020
#define SYS_kill 1037
#define SYS_syssgi 1040
#define SYS_dup 1041
#define SYS_pipe 1042
#define SYS_profil 1044
#define SYS_execve 1059
#define SYS_sginap 1082
#define SYS_sigreturn 1088
#define SYS_gettimeofday 1128
#define SYS_xstat 1158
#define SYS_fxstat 1160
#define SYS_sigaction 1162
#define SYS_sigprocmask 1164
#define SYS_waitsys 1170
#define SYS_pcsample 2026
#define SYS_sproc 1129
#elif defined(GUEST_LINUX)
#define SYS_exit 4001
#define SYS_read 4003
#define SYS_write 4004
#define SYS_open 4005
#define SYS_close 4006
#define SYS_creat 4008
#define SYS_unlink 4010
#define SYS_lseek 4019
#define SYS_getpid 4020
#define SYS_kill 4037
#define SYS_brk 4045
#define SYS_stat 4106
#define SYS_fstat 4108
#else
#error "define GUEST_IRIX or GUEST_LINUX"
#endif

#endif
