/* limit_stack_copyout -- the kernel writing into stack pages the program
 * never touched grows the stack as a store there would.
 * 1. gettimeofday into a buffer 1 MiB down the stack, never touched:
 *    "limit_stack_copyout: gettimeofday into fresh stack: ok"
 * 2. 400 nested signal handlers (SA_NODEFER; each raises the next), each
 *    frame an 856-byte sigcontext and the handler's own frame, well past
 *    the first 128 KiB of stack:
 *    "limit_stack_copyout: nested handlers: 400"
 * Exit status 0. */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <signal.h>
#include <unistd.h>
#include <sys/time.h>

#define DEPTH 400

static volatile int depth;

static int fresh_stack_gettimeofday(void)
{
	volatile char big[1 << 20];
	/* big[0] is the lowest address: 1 MiB below anything touched. */
	struct timeval *tv = (struct timeval *)&big[0];
	if (gettimeofday(tv, 0) != 0)
		return errno;
	return tv->tv_sec > 0 ? 0 : -1;
}

static void nest(int sig)
{
	volatile char frame[256];
	frame[0] = (char)sig;
	if (++depth < DEPTH)
		kill(getpid(), SIGUSR1);
	(void)frame[0];
}

int main(void)
{
	struct sigaction sa;
	int r = fresh_stack_gettimeofday();
	printf("limit_stack_copyout: gettimeofday into fresh stack: %s\n", r == 0 ? "ok" : errno_name(r));
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = nest;
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGUSR1, &sa, 0);
	kill(getpid(), SIGUSR1);
	printf("limit_stack_copyout: nested handlers: %d\n", depth);
	return r == 0 && depth == DEPTH ? 0 : 1;
}
