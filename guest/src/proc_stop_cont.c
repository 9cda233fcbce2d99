/* proc_stop_cont -- the stop and continue default actions. The child
 * writes a byte to a pipe, then sends itself SIGSTOP; the parent, woken by
 * the byte, reports, sends SIGCONT and waits. If the stop were ignored the
 * child would print "resumed" before the parent's line; stopped, it can
 * only print after SIGCONT.
 * Expected output, exit status 0:
 *   parent: child has sent itself SIGSTOP; sending SIGCONT
 *   child: resumed after SIGCONT
 *   parent: child exited with status 5 */
#include <stdio.h>
#include <errno.h>
#include <signal.h>
#include <unistd.h>
#include <sys/wait.h>

int main(void)
{
	int fds[2], status;
	char byte;
	pid_t pid;

	if (pipe(fds) != 0) {
		printf("pipe: %s\n", errno_name(errno));
		return 1;
	}
	pid = fork();
	if (pid == 0) {
		write(fds[1], "s", 1);
		kill(getpid(), SIGSTOP);
		printf("child: resumed after SIGCONT\n");
		_exit(5);
	}
	read(fds[0], &byte, 1);
	printf("parent: child has sent itself SIGSTOP; sending SIGCONT\n");
	kill(pid, SIGCONT);
	waitpid(pid, &status, 0);
	printf("parent: child exited with status %d\n", WEXITSTATUS(status));
	return 0;
}
