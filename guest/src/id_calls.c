/* id_calls -- identity, process groups and priorities as an unprivileged
 * user (uid 100, gid 100) sees them: setuid(2), setgid, setreuid(2),
 * getgroups(2), setgroups(2), pgrpsys (getpgrp, setpgrp, getsid, setsid,
 * getpgid, setpgid), nice(2), getpriority(2)/setpriority(2) through
 * schedctl (sysmp MP_SCHED), and uname(2)'s own number. Made with the raw
 * calls IRIX's libc makes (syscall(2) and syssgi(2)).
 * Expected output, exit status 0: see tests/kernel_proc.rs. */
#include <stdio.h>
#include <errno.h>
#include <unistd.h>
#include <sys/wait.h>

#define SYS_syssgi 1040
#define SYS_setuid 1023
#define SYS_getuid 1024
#define SYS_nice 1034
#define SYS_pgrpsys 1039
#define SYS_setgid 1046
#define SYS_sysmp 1056
#define SYS_setreuid 1124
#define SYS_uname 1157
#define SGI_SETSID 20
#define SGI_SETPGID 21
#define SGI_SETGROUPS 40
#define SGI_GETGROUPS 41
#define SGI_GETPGID 64
#define SGI_GETSID 65
#define MP_SCHED 13
#define RENICE_PROC 4
#define GETNICE_PROC 7

/* The result of a call: its value, or the errno's name. */
static void show(const char *what, long r)
{
	if (r < 0)
		printf("%s: %s\n", what, errno_name(errno));
	else
		printf("%s: %ld\n", what, r);
}

static long sgi(long req, long a, long b)
{
	return syscall(SYS_syssgi, req, a, b);
}

int main(void)
{
	long groups[4];
	char uts[5 * 257];
	int pid = getpid(), child, status, fds[2];
	char byte;

	show("setuid(100)", syscall(SYS_setuid, 100));
	show("setuid(0)", syscall(SYS_setuid, 0));
	show("setuid(-5)", syscall(SYS_setuid, -5));
	show("setgid(100)", syscall(SYS_setgid, 100));
	show("setgid(0)", syscall(SYS_setgid, 0));
	show("setreuid(-1, 100)", syscall(SYS_setreuid, -1, 100));
	show("setreuid(0, -1)", syscall(SYS_setreuid, 0, -1));
	show("getuid", syscall(SYS_getuid));
	show("getgroups(0)", sgi(SGI_GETGROUPS, 0, 0));
	show("getgroups(4)", sgi(SGI_GETGROUPS, 4, (long)groups));
	printf("group[0] = %ld\n", groups[0]);
	show("getgroups(4, bad pointer)", sgi(SGI_GETGROUPS, 4, 8));
	groups[0] = 0;
	show("setgroups(1)", sgi(SGI_SETGROUPS, 1, (long)groups));
	show("setgroups(-1)", sgi(SGI_SETGROUPS, -1, (long)groups));

	printf("getpgrp is the pid: %d\n", syscall(SYS_pgrpsys, 0) == pid);
	printf("getpgid(0) is the pid: %d\n", sgi(SGI_GETPGID, 0, 0) == pid);
	show("getpgid(99999)", sgi(SGI_GETPGID, 99999, 0));
	show("getsid(99999)", sgi(SGI_GETSID, 99999, 0));
	show("setsid as group leader", sgi(SGI_SETSID, 0, 0));
	show("setpgid(99999, 0)", sgi(SGI_SETPGID, 99999, 0));
	show("setpgid(0, -1)", sgi(SGI_SETPGID, 0, -1));

	pipe(fds);
	child = fork();
	if (child == 0) {
		read(fds[0], &byte, 1);
		printf("child: getpgrp is its pid: %d\n",
		       syscall(SYS_pgrpsys, 0) == getpid());
		show("child: setsid as a group leader", sgi(SGI_SETSID, 0, 0));
		_exit(0);
	}
	/* Before the child runs on: the parent moves it to a group of its own. */
	show("setpgid(child, child)", sgi(SGI_SETPGID, child, child));
	printf("getpgid(child) is the child: %d\n",
	       sgi(SGI_GETPGID, child, 0) == child);
	write(fds[1], "g", 1);
	waitpid(child, &status, 0);
	show("setpgid(child) after it exited", sgi(SGI_SETPGID, child, 0));

	child = fork();
	if (child == 0) {
		int me = getpid();
		printf("child 2: in the parent's group: %d\n",
		       syscall(SYS_pgrpsys, 0) == pid);
		printf("child 2: setsid gives its pid: %d\n",
		       sgi(SGI_SETSID, 0, 0) == me);
		printf("child 2: getsid(0) and getpgrp are its pid: %d\n",
		       sgi(SGI_GETSID, 0, 0) == me && syscall(SYS_pgrpsys, 0) == me);
		_exit(0);
	}
	waitpid(child, &status, 0);
	show("setpgid(exec'd or gone child)", sgi(SGI_SETPGID, child, 0));

	show("nice(5)", syscall(SYS_nice, 5));
	show("nice(-1)", syscall(SYS_nice, -1));
	show("nice(100)", syscall(SYS_nice, 41));
	show("nice(30)", syscall(SYS_nice, 30));
	show("getpriority(PRIO_PROCESS, 0)", syscall(SYS_sysmp, MP_SCHED, GETNICE_PROC, 0));
	show("setpriority(PRIO_PROCESS, 0, 10)", syscall(SYS_sysmp, MP_SCHED, RENICE_PROC, 0, 10));
	show("setpriority(PRIO_PROCESS, 0, 19)", syscall(SYS_sysmp, MP_SCHED, RENICE_PROC, 0, 19));
	show("getpriority(PRIO_PROCESS, 0)", syscall(SYS_sysmp, MP_SCHED, GETNICE_PROC, 0));
	show("getpriority(PRIO_PROCESS, 99999)", syscall(SYS_sysmp, MP_SCHED, GETNICE_PROC, 99999));

	show("uname", syscall(SYS_uname, (long)uts));
	printf("sysname %s release %s machine %s\n", uts, uts + 2 * 257, uts + 4 * 257);
	show("uname(bad pointer)", syscall(SYS_uname, 8));
	return 0;
}
