/* proc_kill_child -- kill(2) and waitpid(2)'s view of how a child ended
 * (waitsys siginfo: CLD_KILLED with the signal, or CLD_EXITED with the
 * status; libc/wait.c). Three children, one at a time: each blocks reading
 * a pipe whose write end the parent holds (so it cannot finish on its own
 * and needs no preemption to be "running"); the parent kills the first
 * with SIGKILL and the second with SIGTERM (default action: terminate), and
 * lets the third exit with status 7 by closing the pipe (it sees EOF).
 * Expected output (exit status 0):
 *   kill SIGKILL: 0
 *   child 1: killed by signal 9 (SIGKILL)
 *   kill SIGTERM: 0
 *   child 2: killed by signal 15 (SIGTERM)
 *   child 3: exited with status 7
 *   kill exited child: -1 ESRCH
 */
#include <stdio.h>
#include <errno.h>
#include <signal.h>
#include <unistd.h>
#include <sys/wait.h>

static pid_t start_blocked_child(int *write_end)
{
	int fds[2];
	char c;
	pid_t pid;
	if (pipe(fds) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		close(fds[1]);
		if (read(fds[0], &c, 1) == 0)
			_exit(7); /* EOF: the parent closed its end */
		_exit(1);
	}
	close(fds[0]);
	*write_end = fds[1];
	return pid;
}

static void report(int n, pid_t pid)
{
	int status;
	if (waitpid(pid, &status, 0) != pid) {
		printf("child %d: waitpid: %s\n", n, errno_name(errno));
		return;
	}
	if (WIFSIGNALED(status))
		printf("child %d: killed by signal %d (%s)\n", n, WTERMSIG(status),
		       signal_name(WTERMSIG(status)));
	else if (WIFEXITED(status))
		printf("child %d: exited with status %d\n", n, WEXITSTATUS(status));
	else
		printf("child %d: status 0x%x\n", n, status);
}

int main(void)
{
	int w, r;
	pid_t pid;

	pid = start_blocked_child(&w);
	r = kill(pid, SIGKILL);
	printf("kill SIGKILL: %d\n", r);
	report(1, pid);
	close(w);

	pid = start_blocked_child(&w);
	r = kill(pid, SIGTERM);
	printf("kill SIGTERM: %d\n", r);
	report(2, pid);
	close(w);

	pid = start_blocked_child(&w);
	close(w);
	report(3, pid);
	r = kill(pid, SIGTERM);
	printf("kill exited child: %d %s\n", r, r < 0 ? errno_name(errno) : "(no error)");
	return 0;
}
