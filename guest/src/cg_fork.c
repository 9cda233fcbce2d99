/* cg_fork -- fork, for the call graph: each process has its own shadow
 * stack, and the child returns through a copy of its parent's frames.
 * main -> run, which spins, then forks. The child runs child_work (leaf
 * three times), returns from run and, back in main, calls child_tail and
 * exits; the parent runs parent_work (leaf twice), waits for the child,
 * returns from run and calls parent_tail. Each leaf spins for more than a
 * time slice, so the two processes take turns while both are inside run:
 * a single stack would see the child's returns pop the parent's frames.
 * Calls (exact, both processes together): main -> run 1 (the child's copy
 * of the frame is not a call), run -> spin 1, run -> fork 1,
 * run -> child_work 1, child_work -> leaf 3, run -> parent_work 1,
 * parent_work -> leaf 2, leaf -> spin 5, run -> waitpid 1,
 * main -> child_tail 1, main -> parent_tail 1, child_tail -> spin 1,
 * parent_tail -> spin 1.
 * Expected output (exit status 0):
 *   child: done
 *   parent: child exited with status 0 */
#include <stdio.h>
#include <errno.h>
#include <unistd.h>
#include <sys/wait.h>
#include "cg_turns.h"

NOTAIL unsigned child_work(void)
{
	return leaf() + leaf() + leaf();
}

/* 1 in the child, 0 in the parent, -1 if fork fails. */
NOTAIL int run(void)
{
	int status;
	pid_t pid;

	spin(LEAF_SPIN); /* before the fork: the parent's work alone */
	pid = fork();

	if (pid < 0) {
		printf("fork: %s\n", errno_name(errno));
		return -1;
	}
	if (pid == 0) {
		child_work();
		return 1;
	}
	parent_work();
	if (waitpid(pid, &status, 0) != pid) {
		printf("waitpid: %s\n", errno_name(errno));
		return -1;
	}
	printf("parent: child exited with status %d\n", WEXITSTATUS(status));
	return 0;
}

NOTAIL void child_tail(void)
{
	spin(LEAF_SPIN);
	printf("child: done\n");
}

NOTAIL void parent_tail(void)
{
	spin(LEAF_SPIN);
}

NOTAIL int main(void)
{
	int r = run();

	if (r < 0)
		return 1;
	if (r == 1)
		child_tail();
	else
		parent_tail();
	return 0;
}
