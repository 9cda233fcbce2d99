/* sigtramp.S -- libc's signal trampoline (IRIX build only).
 *
 * sigaction(2) (IRIX 1162) takes this address as its fourth argument. The
 * convention this libc expects from the kernel (the old Linux IRIX
 * emulation, arch/mips/kernel/irixsig.c setup_irix_frame, did exactly
 * this; see guest/README.md "Signals"):
 *   pc = t9 = this trampoline;
 *   a0 = signal number, a1 = code (0, or a siginfo pointer for SA_SIGINFO),
 *   a2 = pointer to the struct sigcontext (IRIX layout, include/signal.h
 *        SC_*) the kernel saved on the user stack, a3 = the handler;
 *   sp = at or below the sigcontext (anything above sp is preserved).
 * The trampoline calls handler(a0, a1, a2) on a fresh 16-byte-aligned
 * frame, then issues sigreturn (IRIX 1088, NetBSD compat/irix
 * syscalls.master: sigreturn(scp, ucp, signo)) with a0 = a1 = the
 * sigcontext pointer and a2 = the signal number. sigreturn restores every
 * register, pc and the signal mask from the sigcontext, so the handler may
 * edit it (e.g. advance SC_PC past a faulting instruction). */
	.text
	.set noreorder
	.globl __sigtramp
	.ent __sigtramp
	.type __sigtramp, @function
__sigtramp:
	move $16, $6             /* s0 = sigcontext pointer */
	move $17, $4             /* s1 = signo */
	addiu $29, $29, -32
	li $8, -16
	and $29, $29, $8         /* o32 argument area, 16-byte aligned */
	move $25, $7
	jalr $25                 /* handler(signo, code, scp) */
	nop
	move $4, $16             /* scp */
	move $5, $16             /* ucp (= scp, as NetBSD's irix_sendsig) */
	move $6, $17             /* signo */
	li $2, 1088              /* sigreturn */
	syscall
	break 0                  /* sigreturn failed: trap */
	.end __sigtramp
