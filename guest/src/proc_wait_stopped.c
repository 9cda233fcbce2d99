/* proc_wait_stopped -- waitsys(2) reports a child stopped by a signal
 * (WSTOPPED: CLD_STOPPED and the signal) and continued by SIGCONT
 * (WCONTINUED: CLD_CONTINUED), once each, before its exit; and waitpid(0)
 * (P_PGID) finds the children of the caller's process group only.
 * Expected output, exit status 0: see tests/kernel_proc.rs. */
#include <stdio.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#define SYS_syssgi 1040
#define SGI_SETPGID 21

static void report(const char *what, int r, siginfo_t *si)
{
	if (r < 0) {
		printf("%s: %s\n", what, errno_name(errno));
		return;
	}
	printf("%s: code %d status %d child %s\n", what, si->si_code,
	       si->si_status, si->si_pid ? "named" : "none");
}

int main(void)
{
	siginfo_t si;
	int fds[2], r, status;
	char byte;
	pid_t pid, other;

	pipe(fds);
	pid = fork();
	if (pid == 0) {
		kill(getpid(), SIGSTOP);
		read(fds[0], &byte, 1);
		_exit(7);
	}
	memset(&si, 0, sizeof si);
	r = waitsys(P_PID, pid, &si, WSTOPPED, 0);
	report("WSTOPPED", r, &si);
	memset(&si, 0, sizeof si);
	r = waitsys(P_PID, pid, &si, WSTOPPED | WNOHANG, 0);
	report("WSTOPPED again (reported once)", r, &si);
	kill(pid, SIGCONT);
	memset(&si, 0, sizeof si);
	r = waitsys(P_PID, pid, &si, WCONTINUED, 0);
	report("WCONTINUED", r, &si);
	write(fds[1], "x", 1);
	memset(&si, 0, sizeof si);
	r = waitsys(P_PID, pid, &si, WEXITED | WSTOPPED | WCONTINUED, 0);
	report("WEXITED", r, &si);

	/* A child in a group of its own is not one of waitpid(0)'s. */
	other = fork();
	if (other == 0) {
		read(fds[0], &byte, 1);
		_exit(3);
	}
	syscall(SYS_syssgi, SGI_SETPGID, other, other);
	r = waitpid(0, &status, WNOHANG);
	printf("waitpid(0) with the only child in another group: %s\n",
	       r < 0 ? errno_name(errno) : "found one");
	memset(&si, 0, sizeof si);
	r = waitsys(P_PGID, other, &si, WEXITED | WNOHANG, 0);
	report("P_PGID of its group, before it exits", r, &si);
	write(fds[1], "y", 1);
	memset(&si, 0, sizeof si);
	r = waitsys(P_PGID, other, &si, WEXITED, 0);
	report("P_PGID of its group", r, &si);
	return 0;
}
