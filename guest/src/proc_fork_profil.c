/* proc_fork_profil -- profiling across fork(2): "Profiling ... remains on
 * in both child and parent processes after a fork(2)" (sprofil(2) NOTES).
 * profil() over the whole text (scale 0x8000), then fork: the child runs
 * hot_a, stops profiling, prints its histogram's totals and exits 0; the
 * parent runs hot_b, stops profiling, waits for the child, then prints its
 * own totals. Each process has its own copy of the buffer after fork, so
 * the child's ticks land in the child's copy only.
 * Expected output shape (counts depend on the emulated clock; order fixed
 * because the parent prints only after waitpid):
 *   proc_fork_profil: profil 0
 *   child: ticks hot_a <A> hot_b <0> other <O> total <T>
 *   parent: child exited with status 0
 *   parent: ticks hot_a <a> hot_b <B> other <o> total <t>
 * (the child's hot_b count and the parent's hot_a count are 0 unless a
 * tick fell before the fork); exit status 0. */
#include "prof_hot.h"
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <unistd.h>
#include <sys/wait.h>
#include <sys/profil.h>

#define ITERS 3000000u

static void totals(const char *who, const unsigned short *bins, unsigned nbins)
{
	unsigned i, t[3] = {0, 0, 0};
	for (i = 0; i < nbins; i++) {
		char w = which_function(addr(_ftext) + 4 * i);
		t[w == 'a' ? 0 : w == 'b' ? 1 : 2] += bins[i];
	}
	printf("%s: ticks hot_a %u hot_b %u other %u total %u\n", who, t[0], t[1], t[2],
	       t[0] + t[1] + t[2]);
}

int main(void)
{
	unsigned nbins = (addr(etext) - addr(_ftext) + 3) / 4;
	unsigned short *bins = calloc(nbins, sizeof *bins);
	volatile unsigned sink;
	int r, status;
	pid_t pid;

	if (!bins)
		return 1;
	r = profil(bins, nbins * 2, addr(_ftext), 0x8000);
	printf("proc_fork_profil: profil %d\n", r);
	pid = fork();
	if (pid < 0) {
		printf("fork: %s\n", errno_name(errno));
		return 1;
	}
	if (pid == 0) {
		sink = hot_a(ITERS);
		profil((unsigned short *)0, 0, 0, 0);
		totals("child", bins, nbins);
		_exit(0);
	}
	sink = hot_b(ITERS);
	profil((unsigned short *)0, 0, 0, 0);
	if (waitpid(pid, &status, 0) != pid) {
		printf("waitpid: %s\n", errno_name(errno));
		return 1;
	}
	if (WIFEXITED(status))
		printf("parent: child %s with status %d\n", "exited", WEXITSTATUS(status));
	else
		printf("parent: child died by signal %d\n", WTERMSIG(status));
	totals("parent", bins, nbins);
	(void)sink;
	return 0;
}
