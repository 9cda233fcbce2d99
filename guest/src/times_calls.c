/* times_calls -- times(2) against its page: the return value is "the
 * elapsed real time, in clock ticks, from an arbitrary point in the past"
 * that "does not change from one invocation of times to another" (so the
 * difference of two calls around sginap(10) is the 10 ticks slept, or 11
 * when the clock crosses one more tick boundary during the calls
 * themselves); the process's own user and system times do not grow while
 * it sleeps; "times fails if: EFAULT buffer points to an illegal address"
 * (-1). Each result is printed as "name: value" or "name: -1 ERRNO"; the
 * expected output is in tests/all/syscalls.rs. */
#include <stdio.h>
#include <errno.h>
#include <unistd.h>

#define N_TIMES 1043

struct tms {
	long tms_utime;
	long tms_stime;
	long tms_cutime;
	long tms_cstime;
};

int main(void)
{
	struct tms a, b, c;
	long ra, rb, rc, r;

	ra = syscall(N_TIMES, &a);
	sginap(10);
	rb = syscall(N_TIMES, &b);
	printf("elapsed ticks across sginap(10): %ld\n", rb - ra);
	printf("user and system ticks while asleep: %ld %ld\n", b.tms_utime - a.tms_utime,
	       b.tms_stime - a.tms_stime);
	r = syscall(N_TIMES, (void *)8);
	if (r == -1)
		printf("times bad buffer: -1 %s\n", errno_name(errno));
	else
		printf("times bad buffer: %ld\n", r);
	rc = syscall(N_TIMES, &c);
	printf("the point does not move: %d\n", rc >= rb && rc - rb <= 1);
	printf("children: %ld %ld\n", c.tms_cutime, c.tms_cstime);
	return 0;
}
