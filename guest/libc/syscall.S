/* syscall.S -- system call stubs (both personalities; numbers in sysnr.h).
 *
 * Contents: SYSCALL() plain stubs; __syscall_error (sets errno, returns -1);
 * fork and pipe (second result in v1); the raw break.
 *
 * A stub is a leaf that never moves sp, so arguments 5+ that the C caller
 * stored at its sp+16.. are where the kernel reads them. Assembled in
 * reorder mode: the assembler fills the delay slots.
 */
#include "sysnr.h"

#define SYSCALL(name, nr) \
	.globl name; .ent name; .type name, @function; \
name:	li $2, nr; \
	syscall; \
	bnez $7, __syscall_error; \
	jr $31; \
	.end name

	.text
	.set reorder

/* a3 != 0: v0 is the positive errno. */
	.globl __syscall_error
	.ent __syscall_error
__syscall_error:
	la $8, errno
	sw $2, 0($8)
	li $2, -1
	jr $31
	.end __syscall_error

SYSCALL(_exit, SYS_exit)
SYSCALL(read, SYS_read)
SYSCALL(write, SYS_write)
SYSCALL(open, SYS_open)
SYSCALL(close, SYS_close)
SYSCALL(creat, SYS_creat)
SYSCALL(unlink, SYS_unlink)
SYSCALL(lseek, SYS_lseek)
SYSCALL(getpid, SYS_getpid)
SYSCALL(kill, SYS_kill)
/* Raw break: IRIX returns 0 or ENOMEM; Linux returns the new break. */
SYSCALL(__sys_brk, SYS_brk)

#if defined(GUEST_LINUX)
SYSCALL(__linux_stat, SYS_stat)
SYSCALL(__linux_fstat, SYS_fstat)
#endif

#if defined(GUEST_IRIX)
SYSCALL(chdir, SYS_chdir)
SYSCALL(dup, SYS_dup)
SYSCALL(execve, SYS_execve)
SYSCALL(sginap, SYS_sginap)
SYSCALL(gettimeofday, SYS_gettimeofday)
SYSCALL(profil, SYS_profil)
/* syssgi(request, a1, a2, a3, a4 at sp+16, a5 at sp+20) */
SYSCALL(__syssgi, SYS_syssgi)
SYSCALL(pcsample, SYS_pcsample)
/* sproc(entry, inh, arg): the kernel starts the member at entry(arg) */
SYSCALL(sproc, SYS_sproc)
/* syscall(nr, ...): IRIX's indirect call (1000): the number in a0, the
 * arguments shifted by one (a1..a3, then the caller's sp+16..). */
SYSCALL(syscall, 1000)
/* xstat(version, path, buf) / fxstat(version, fd, buf) */
SYSCALL(__xstat, SYS_xstat)
SYSCALL(__fxstat, SYS_fxstat)
/* sigaction(sig, act, oact, trampoline) */
SYSCALL(__sigaction, SYS_sigaction)
SYSCALL(sigprocmask, SYS_sigprocmask)
/* waitsys(idtype, id, info, options, rusage at sp+16) */
SYSCALL(waitsys, SYS_waitsys)

/* fork: parent gets v0 = child pid, v1 = 0; child gets v1 = 1 and libc
 * returns 0 (docs/abi.md). */
	.globl fork
	.ent fork
	.type fork, @function
fork:
	li $2, SYS_fork
	syscall
	bnez $7, __syscall_error
	beqz $3, 1f
	move $2, $0
1:	jr $31
	.end fork

/* pipe(fds): the two descriptors come back in v0 and v1. */
	.globl pipe
	.ent pipe
	.type pipe, @function
pipe:
	li $2, SYS_pipe
	syscall
	bnez $7, __syscall_error
	sw $2, 0($4)
	sw $3, 4($4)
	move $2, $0
	jr $31
	.end pipe
#endif
