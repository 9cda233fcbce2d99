/* cg_signal -- signal handlers in the call graph: one entered and left
 * through the trampoline and sigreturn, one left by siglongjmp.
 * Calls (exact): main -> trigger 2, trigger -> kill 2, __sigtramp ->
 * on_usr1 2, on_usr1 -> work 2, main -> recover 1, recover -> sigsetjmp 1,
 * recover -> fault 1, __sigtramp -> on_segv 1, on_segv -> siglongjmp 1,
 * main -> later 1. `later` runs with main's frame on top of the real
 * stack (both signal frames gone). Prints "signals: 2 usr1, 1 segv". */
#include <stdio.h>
#include <signal.h>
#include <setjmp.h>
#include <unistd.h>
#include "callgraph.h"

static volatile int usr1_count, segv_count;
static sigjmp_buf env;

NOTAIL void work(void)
{
	spin(50000);
}

NOTAIL void on_usr1(int sig)
{
	usr1_count++;
	work();
}

NOTAIL void on_segv(int sig)
{
	segv_count++;
	siglongjmp(env, 1);
}

NOTAIL void trigger(void)
{
	kill(getpid(), SIGUSR1);
}

NOTAIL void fault(void)
{
	*(volatile int *)0 = 1;
}

NOTAIL void recover(void)
{
	if (sigsetjmp(env, 1) == 0)
		fault();
}

NOTAIL void later(void)
{
	spin(100000);
}

static void handle(int sig, void (*h)(int))
{
	struct sigaction sa = { 0 };
	sa.sa_handler = h;
	sigaction(sig, &sa, 0);
}

NOTAIL int main(void)
{
	handle(SIGUSR1, on_usr1);
	handle(SIGSEGV, on_segv);
	trigger();
	trigger();
	recover();
	later();
	printf("signals: %d usr1, %d segv\n", usr1_count, segv_count);
	return 0;
}
