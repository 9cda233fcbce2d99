/* signal.c -- sigaction with libc's trampoline, sigset helpers,
 * sigsetjmp/siglongjmp's mask half (guest libc, IRIX build only).
 * The trampoline's calling convention is in sigtramp.S and guest/README.md. */
#include <signal.h>
#include <setjmp.h>
#include <errno.h>

extern int __sigaction(int sig, const struct sigaction *act, struct sigaction *oact,
		       void (*tramp)(void));
extern void __sigtramp(void);

int sigaction(int sig, const struct sigaction *act, struct sigaction *oact)
{
	return __sigaction(sig, act, oact, __sigtramp);
}

static int valid(int sig)
{
	if (sig < 1 || sig > 128) {
		errno = EINVAL;
		return 0;
	}
	return 1;
}

int sigemptyset(sigset_t *s)
{
	int i;
	for (i = 0; i < 4; i++)
		s->__sigbits[i] = 0;
	return 0;
}

int sigfillset(sigset_t *s)
{
	int i;
	for (i = 0; i < 4; i++)
		s->__sigbits[i] = ~0u;
	return 0;
}

int sigaddset(sigset_t *s, int sig)
{
	if (!valid(sig))
		return -1;
	s->__sigbits[(sig - 1) / 32] |= 1u << ((sig - 1) % 32);
	return 0;
}

int sigdelset(sigset_t *s, int sig)
{
	if (!valid(sig))
		return -1;
	s->__sigbits[(sig - 1) / 32] &= ~(1u << ((sig - 1) % 32));
	return 0;
}

int sigismember(const sigset_t *s, int sig)
{
	if (!valid(sig))
		return -1;
	return (s->__sigbits[(sig - 1) / 32] >> ((sig - 1) % 32)) & 1;
}

/* jmp_buf word 24 = savemask, words 25-28 = the mask (include/setjmp.h). */
int __sigsetjmp_save(int *env, int savemask)
{
	(void)savemask;
	sigprocmask(SIG_BLOCK, (const sigset_t *)0, (sigset_t *)(env + 25));
	return 0;
}

void siglongjmp(sigjmp_buf env, int val)
{
	if (env[24])
		sigprocmask(SIG_SETMASK, (const sigset_t *)(env + 25), (sigset_t *)0);
	longjmp(env, val);
}
