/* proc_times_child -- times(2)'s children's times: tms_cutime and
 * tms_cstime hold the user and system time of the children the process has
 * waited for (SVR4 times(2); IRIX's sprofil(2) SEE ALSO names times(2) as
 * the clock's other view). The child burns user time in hot_a and system
 * time in 2,000 getpid() calls (each system call costs 500 cycles of system
 * time: README "Virtual time"), reports its own times() and exits; the
 * parent reports times() before and after waiting for it.
 * Expected output (exit status 0; order fixed: the parent prints "before"
 * as soon as fork returns, and the rest only after waitpid):
 *   parent before wait: cutime 0 cstime 0
 *   child: utime <U> stime <S>
 *   parent: child exited with status 0
 *   parent after wait: cutime <U or U+1> cstime <S or S+1>
 * (the child's few instructions and system calls after its times() may
 * cross one more tick). */
#include "prof_hot.h"
#include "times_call.h"
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <unistd.h>
#include <sys/wait.h>

#define ITERS 3000000u
#define SYSCALLS 2000

/* Read through a volatile so gcc keeps the side-effect-free hot_a where
 * it is written. */
static volatile unsigned iters = ITERS;

int main(void)
{
	struct tms t;
	volatile unsigned sink;
	int i, status;
	pid_t pid = fork();

	if (pid < 0) {
		printf("fork: %s\n", errno_name(errno));
		return 1;
	}
	if (pid == 0) {
		sink = hot_a(iters);
		for (i = 0; i < SYSCALLS; i++)
			getpid();
		times(&t);
		printf("child: utime %ld stime %ld\n", t.tms_utime, t.tms_stime);
		(void)sink;
		_exit(0);
	}
	times(&t);
	printf("parent before wait: cutime %ld cstime %ld\n", t.tms_cutime, t.tms_cstime);
	if (waitpid(pid, &status, 0) != pid) {
		printf("waitpid: %s\n", errno_name(errno));
		return 1;
	}
	printf("parent: child exited with status %d\n", WEXITSTATUS(status));
	times(&t);
	printf("parent after wait: cutime %ld cstime %ld\n", t.tms_cutime, t.tms_cstime);
	return 0;
}
