/* limit_fork -- the process limit (CHILD_MAX, sysconf(_SC_CHILD_MAX)).
 * "count": forks children that exit at once, never collecting them, until
 *   fork fails; prints how many and the errno, collects them all, forks one
 *   more (the slots are free again) and exits 0. Expected output:
 *     limit_fork: fork failed with EAGAIN after <N> children
 *     limit_fork: collected <N>
 *     limit_fork: fork after collecting: ok
 * "bomb": every process forks for ever (a fork bomb); the run ends at
 *   --max-cycles, with the process table full and memory bounded. */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/wait.h>

static int count(void)
{
	int n = 0, collected = 0, status;
	pid_t pid;
	for (;;) {
		pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid < 0)
			break;
		n++;
	}
	printf("limit_fork: fork failed with %s after %d children\n", errno_name(errno), n);
	while (wait(&status) > 0)
		collected++;
	printf("limit_fork: collected %d\n", collected);
	pid = fork();
	if (pid == 0)
		_exit(0);
	printf("limit_fork: fork after collecting: %s\n", pid > 0 ? "ok" : errno_name(errno));
	return pid > 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "bomb") == 0) {
		for (;;)
			fork();
	}
	return count();
}
