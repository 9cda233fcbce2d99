/* cg_sproc -- an sproc share-group member, for the call graph: the member
 * has a shadow stack of its own, starting empty at its entry point, while
 * the parent's stays as it was.
 * main -> sproc starts member(arg); the member runs member_work (leaf
 * three times) and returns into the exit stub. The parent runs
 * parent_work (leaf twice), waits, then calls parent_tail. Each leaf spins
 * for more than a time slice, so the two take turns on their own stacks
 * in one address space.
 * Calls (exact): main -> sproc 1, member -> member_work 1 (member itself
 * is called by no function: the kernel starts it), member_work -> leaf 3,
 * main -> parent_work 1, parent_work -> leaf 2, leaf -> spin 5,
 * main -> waitpid 1, main -> parent_tail 1, parent_tail -> spin 1.
 * Expected output (exit status 0):
 *   parent: member exited with status 7 */
#include <stdio.h>
#include <errno.h>
#include <unistd.h>
#include <sys/wait.h>
#include <sys/prctl.h>
#include "cg_turns.h"

NOTAIL unsigned member_work(void)
{
	return leaf() + leaf() + leaf();
}

NOTAIL static int member(void *arg)
{
	member_work();
	return 7;
}

NOTAIL void parent_tail(void)
{
	spin(LEAF_SPIN);
}

NOTAIL int main(void)
{
	int status;
	pid_t pid = sproc(member, PR_SALL, (void *)0);

	if (pid < 0) {
		printf("sproc: %s\n", errno_name(errno));
		return 1;
	}
	parent_work();
	if (waitpid(pid, &status, 0) != pid) {
		printf("waitpid: %s\n", errno_name(errno));
		return 1;
	}
	printf("parent: member exited with status %d\n", WEXITSTATUS(status));
	parent_tail();
	return 0;
}
