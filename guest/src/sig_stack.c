/* sig_stack -- the 4.3BSD sigstack(2), as IRIX 5.3's libc makes it
 * (syssgi(SGI_SIGSTACK = 57, ss, oss)) and as system call 1171, each
 * result printed as "name: value" or "name: -1 ERRNO". A handler installed
 * with SA_ONSTACK (sigvec's SV_ONSTACK) runs on the signal stack; one
 * without it does not; oss reports the stack and whether the process is on
 * it; bad pointers are EFAULT and change nothing. The expected output is in
 * tests/all/kernel_signals.rs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <signal.h>
#include <unistd.h>

#define N_SYSSGI 1040
#define N_SIGSTACK 1171
#define SGI_SIGSTACK 57
#define STACK_BYTES 8192

struct sigstack {
	char *ss_sp;
	int ss_onstack;
};

static char *volatile handler_sp;
static volatile int handler_onstack = -1;

static long bsd_sigstack(const struct sigstack *ss, struct sigstack *oss)
{
	return syscall(N_SYSSGI, SGI_SIGSTACK, ss, oss);
}

static void on_stack(int sig)
{
	char here;
	struct sigstack now;
	handler_sp = &here;
	bsd_sigstack(0, &now);
	handler_onstack = now.ss_onstack;
}

static void catch(int sig, int flags)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stack;
	sa.sa_flags = flags;
	sigaction(sig, &sa, 0);
}

static void show(const char *name, long r)
{
	if (r == -1)
		printf("%s: -1 %s\n", name, errno_name(errno));
	else
		printf("%s: %ld\n", name, r);
}

int main(void)
{
	char *base = malloc(STACK_BYTES);
	struct sigstack ss, old;

	memset(&old, 0x55, sizeof old);
	show("sigstack query, none set", bsd_sigstack(0, &old));
	printf("ss_sp %ld, ss_onstack %d\n", (long)old.ss_sp, old.ss_onstack);

	/* "Signal stacks are not grown automatically": ss_sp is the top. */
	ss.ss_sp = base + STACK_BYTES;
	ss.ss_onstack = 0;
	show("sigstack", bsd_sigstack(&ss, 0));
	catch(SIGUSR1, SA_ONSTACK);
	kill(getpid(), SIGUSR1);
	printf("handler ran on the signal stack: %d, ss_onstack there %d\n",
	       handler_sp >= base && handler_sp < base + STACK_BYTES, handler_onstack);
	catch(SIGUSR1, 0);
	kill(getpid(), SIGUSR1);
	printf("without SA_ONSTACK on the signal stack: %d, ss_onstack there %d\n",
	       handler_sp >= base && handler_sp < base + STACK_BYTES, handler_onstack);

	show("sigstack query", bsd_sigstack(0, &old));
	printf("ss_sp is the top %d, ss_onstack %d\n", old.ss_sp == base + STACK_BYTES,
	       old.ss_onstack);

	/* "Sigstack will fail and the signal stack context will remain
	 * unchanged" for a bad ss or oss. */
	struct sigstack other = {base + 4096, 0};
	show("sigstack bad ss", bsd_sigstack((void *)8, 0));
	show("sigstack bad oss", bsd_sigstack(&other, (void *)8));
	bsd_sigstack(0, &old);
	printf("unchanged: %d\n", old.ss_sp == base + STACK_BYTES);

	/* The system call itself, returning the old stack and setting none. */
	struct sigstack none = {0, 0};
	show("system call sigstack", syscall(N_SIGSTACK, &none, &old));
	printf("old ss_sp is the top %d\n", old.ss_sp == base + STACK_BYTES);
	bsd_sigstack(0, &old);
	printf("after removing it: ss_sp %ld\n", (long)old.ss_sp);
	return 0;
}
