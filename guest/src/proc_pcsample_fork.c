/* proc_pcsample_fork -- pcsample(2) across fork(2): "Like profil(),
 * sampling continues across a call to fork(2)". pcsample with 256 slots,
 * then fork: the child runs hot_a, stops sampling (pcsample(NULL, 0)
 * returns the count stored), classifies its samples and exits 0; the
 * parent runs hot_b, stops, waits for the child, then prints its own.
 * Expected output shape (counts depend on the emulated clock):
 *   proc_pcsample_fork: pcsample 0
 *   child: <n> samples: hot_a <A> hot_b <B> other <O>
 *   parent: child exited with status 0
 *   parent: <m> samples: hot_a <a> hot_b <b> other <o>
 * exit status 0. */
#include "prof_hot.h"
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <unistd.h>
#include <sys/wait.h>
#include <sys/profil.h>

#define SLOTS 256
#define ITERS 2000000u

static unsigned long samples[SLOTS];

static void report(const char *who, long n)
{
	long i;
	unsigned t[3] = {0, 0, 0};
	for (i = 0; i < n && i < SLOTS; i++) {
		char w = which_function((unsigned)samples[i]);
		t[w == 'a' ? 0 : w == 'b' ? 1 : 2]++;
	}
	printf("%s: %ld samples: hot_a %u hot_b %u other %u\n", who, n, t[0], t[1], t[2]);
}

int main(void)
{
	volatile unsigned sink;
	long r;
	int status;
	pid_t pid;

	r = pcsample(samples, SLOTS);
	printf("proc_pcsample_fork: pcsample %ld\n", r);
	pid = fork();
	if (pid < 0) {
		printf("fork: %s\n", errno_name(errno));
		return 1;
	}
	if (pid == 0) {
		sink = hot_a(ITERS);
		report("child", pcsample((unsigned long *)0, 0));
		_exit(0);
	}
	sink = hot_b(ITERS);
	r = pcsample((unsigned long *)0, 0);
	if (waitpid(pid, &status, 0) != pid) {
		printf("waitpid: %s\n", errno_name(errno));
		return 1;
	}
	if (WIFEXITED(status))
		printf("parent: child exited with status %d\n", WEXITSTATUS(status));
	else
		printf("parent: child died by signal %d\n", WTERMSIG(status));
	report("parent", r);
	(void)sink;
	return 0;
}
