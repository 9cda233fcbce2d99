/* wait.c -- waitpid/wait over waitsys(2) (IRIX 1170; guest libc, IRIX
 * build only).
 *
 * waitsys(idtype, id, siginfo *info, options, rusage *) as in NetBSD
 * sys/compat/irix/syscalls.master; it returns 0 and describes the child in
 * *info (NetBSD irix_sys_waitsys / irix_setinfo): si_signo = SIGCHLD,
 * si_code = CLD_EXITED (si_status = exit status), CLD_KILLED or CLD_DUMPED
 * (si_status = signal), CLD_STOPPED; si_pid = the child. With WNOHANG and
 * no child ready it returns 0 with si_pid = 0. Offsets in sys/wait.h.
 */
#include <sys/wait.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

pid_t waitpid(pid_t pid, int *status, int options)
{
	siginfo_t info;
	int idtype, opts = WEXITED | WTRAPPED, st;
	long id;
	if (pid > 0) {
		idtype = P_PID;
		id = pid;
	} else if (pid == -1) {
		idtype = P_ALL;
		id = 0;
	} else if (pid == 0) {
		/* The caller's process group: getpgrp() is pgrpsys(0). */
		idtype = P_PGID;
		id = syscall(1039, 0);
	} else {
		idtype = P_PGID;
		id = -pid;
	}
	if (options & WNOHANG)
		opts |= WNOHANG;
	memset(&info, 0, sizeof info);
	if (waitsys(idtype, id, &info, opts, (void *)0) < 0)
		return -1;
	if (info.si_pid == 0)
		return 0;
	switch (info.si_code) {
	case CLD_EXITED:
		st = (info.si_status & 0xff) << 8;
		break;
	case CLD_KILLED:
		st = info.si_status & 0x7f;
		break;
	case CLD_DUMPED:
		st = (info.si_status & 0x7f) | 0x80;
		break;
	default: /* CLD_STOPPED, CLD_TRAPPED, CLD_CONTINUED */
		st = ((info.si_status & 0xff) << 8) | 0x7f;
		break;
	}
	if (status)
		*status = st;
	return info.si_pid;
}

pid_t wait(int *status)
{
	return waitpid(-1, status, 0);
}
