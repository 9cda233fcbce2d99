/* proc_sproc -- sproc(2): a share-group member shares the address space,
 * and profiling "remains on in both child and parent processes after a
 * fork(2) or a sproc(2)" (sprofil(2) NOTES).
 * profil() over the whole text, then sproc: the member runs hot_b, stores
 * a value in a global and returns 7; the parent runs hot_a, waits, then
 * reads the member's global (visible: one address space) and stops
 * profiling. Unlike fork, the buffer is shared, so it holds both
 * processes' ticks: hot_a's from the parent, hot_b's from the member.
 * Expected output (counts from the emulated clock, deterministic):
 *   proc_sproc: profil 0
 *   member: running hot_b
 *   parent: member exited with status 7
 *   parent: member's value seen through the shared address space: yes
 *   parent: ticks hot_a <A> hot_b <B> other <O>  (A > 0 and B > 0)
 * exit status 0. */
#include "prof_hot.h"
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <unistd.h>
#include <sys/wait.h>
#include <sys/prctl.h>
#include <sys/profil.h>

#define ITERS 3000000u

static volatile unsigned member_value;

static int member(void *arg)
{
	printf("member: running hot_b\n");
	member_value = hot_b(ITERS) ^ (unsigned)arg;
	return 7;
}

int main(void)
{
	unsigned nbins = (addr(etext) - addr(_ftext) + 3) / 4;
	unsigned short *bins = calloc(nbins, sizeof *bins);
	unsigned i, t[3] = {0, 0, 0}, expect;
	volatile unsigned sink;
	int r, status;
	pid_t pid;

	if (!bins)
		return 1;
	r = profil(bins, nbins * 2, addr(_ftext), 0x8000);
	printf("proc_sproc: profil %d\n", r);
	pid = sproc(member, PR_SALL, (void *)0x5a5a);
	if (pid < 0) {
		printf("sproc: %s\n", errno_name(errno));
		return 1;
	}
	sink = hot_a(ITERS);
	if (waitpid(pid, &status, 0) != pid) {
		printf("waitpid: %s\n", errno_name(errno));
		return 1;
	}
	profil((unsigned short *)0, 0, 0, 0);
	printf("parent: member exited with status %d\n", WEXITSTATUS(status));
	expect = hot_b(ITERS) ^ 0x5a5a;
	printf("parent: member's value seen through the shared address space: %s\n",
	       member_value == expect ? "yes" : "no");
	for (i = 0; i < nbins; i++) {
		char w = which_function(addr(_ftext) + 4 * i);
		t[w == 'a' ? 0 : w == 'b' ? 1 : 2] += bins[i];
	}
	printf("parent: ticks hot_a %u hot_b %u other %u\n", t[0], t[1], t[2]);
	(void)sink;
	return 0;
}
