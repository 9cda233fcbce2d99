/* proc_sigsegv_handler -- SIGSEGV handlers through sigaction(2), libc's
 * trampoline and sigreturn (conventions: libc/sigtramp.S, guest/README.md
 * "Signals").
 * Part 1 (return through sigreturn): the handler checks that the
 *   sigcontext's pc is the faulting store, advances it by 4 and returns;
 *   the trampoline's sigreturn resumes after the store.
 * Part 2 (longjmp-style recovery): a second handler siglongjmp()s out of
 *   the fault; sigsetjmp(env, 1) saved the mask, so SIGSEGV (blocked while
 *   its handler runs) is unblocked again afterwards.
 * Part 3: the default action again (SIG_DFL), and a last fault kills the
 *   process with SIGSEGV.
 * Expected output, then death by signal 11:
 *   part 1: faulting store at the label fault_store
 *   handler: signal 11 (SIGSEGV), sc_pc at the faulting store: yes
 *   part 1: resumed after the store, handler ran 1 time
 *   part 2: faulting again
 *   handler: signal 11, leaving by siglongjmp
 *   part 2: recovered by siglongjmp, SIGSEGV blocked: no
 *   part 3: default action, faulting once more
 */
#include <stdio.h>
#include <signal.h>
#include <setjmp.h>
#include <errno.h>

extern char fault_store[]; /* the label of the faulting instruction */

static volatile int handler_runs;
static sigjmp_buf env;

/* One store to address 0, not in a delay slot, at a global label. */
static void store_to_null(void)
{
	__asm__ volatile(".set push\n\t.set noreorder\n\t"
			 "nop\n\t"
			 ".globl fault_store\n"
			 "fault_store:\n\t"
			 "sw $0, 0($0)\n\t"
			 "nop\n\t"
			 ".set pop"
			 ::: "memory");
}

/* SVR4 handler arguments: (signo, code, struct sigcontext *). */
static void resume_handler(int sig, int code, char *scp)
{
	unsigned *pc_lo = (unsigned *)(scp + SC_PC + 4); /* low word of the u64 */
	(void)code;
	handler_runs++;
	printf("handler: signal %d (%s), sc_pc at the faulting store: %s\n", sig, signal_name(sig),
	       *pc_lo == (unsigned)fault_store ? "yes" : "no");
	*pc_lo += 4;
}

static void jump_handler(int sig)
{
	printf("handler: signal %d, leaving by siglongjmp\n", sig);
	siglongjmp(env, 1);
}

static int install(sighandler_t h)
{
	struct sigaction sa;
	sa.sa_flags = 0;
	sa.sa_handler = h;
	sigemptyset(&sa.sa_mask);
	sa.sa_resv[0] = sa.sa_resv[1] = 0;
	if (sigaction(SIGSEGV, &sa, (struct sigaction *)0) < 0) {
		printf("sigaction: %s\n", errno_name(errno));
		return -1;
	}
	return 0;
}

int main(void)
{
	sigset_t cur;

	if (install((sighandler_t)(void (*)(void))resume_handler) < 0)
		return 1;
	printf("part 1: faulting store at the label fault_store\n");
	store_to_null();
	printf("part 1: resumed after the store, handler ran %d time%s\n", handler_runs,
	       handler_runs == 1 ? "" : "s");

	if (install(jump_handler) < 0)
		return 1;
	if (sigsetjmp(env, 1) == 0) {
		printf("part 2: faulting again\n");
		store_to_null();
		printf("part 2: store did not fault (wrong)\n");
	} else {
		sigprocmask(SIG_BLOCK, (sigset_t *)0, &cur);
		printf("part 2: recovered by siglongjmp, SIGSEGV blocked: %s\n",
		       sigismember(&cur, SIGSEGV) ? "yes" : "no");
	}

	if (install(SIG_DFL) < 0)
		return 1;
	printf("part 3: default action, faulting once more\n");
	store_to_null();
	printf("part 3: survived (wrong)\n");
	return 1;
}
