/* prof_errors -- sprofil(2)'s error cases, each named after the man page:
 *   "[E2BIG] profcnt was less than or equal to 0, or greater than PROFIL_MAX"
 *   "[EFAULT] Either profp or tvp points to an illegal address"
 *   "[EINVAL] The overflow bin is not last in the list of specified
 *    regions, or flags does not contain one of the values (PROF_USHORT or
 *    PROF_UINT)"
 * Addresses 4 and 8 lie in the unmapped page 0. After each call, profiling
 * is switched off with profil(..., scale 0) in case a call succeeded.
 * Expected output (exit status 0):
 *   profcnt 0: -1 E2BIG
 *   profcnt -1: -1 E2BIG
 *   profcnt 1000000: -1 E2BIG
 *   bad profp: -1 EFAULT
 *   bad tvp: -1 EFAULT
 *   overflow bin not last: -1 EINVAL
 *   bad flags 0x100: -1 EINVAL
 *   valid call: 0 (no error)
 */
#include "prof_hot.h"
#include <stdio.h>
#include <errno.h>
#include <sys/profil.h>

static void report(const char *what, int r)
{
	printf("%s: %d %s\n", what, r, r < 0 ? errno_name(errno) : "(no error)");
	profil((unsigned short *)0, 0, 0, 0);
}

int main(void)
{
	static unsigned counters[64];
	static unsigned overflow;
	struct prof region, bad_order[2];
	struct timeval tv;

	region.pr_base = counters;
	region.pr_size = sizeof counters;
	region.pr_off = addr(hot_a);
	region.pr_scale = 0x10000;

	bad_order[0].pr_base = &overflow; /* overflow bin first: wrong */
	bad_order[0].pr_size = sizeof overflow;
	bad_order[0].pr_off = 0;
	bad_order[0].pr_scale = 2;
	bad_order[1] = region;

	report("profcnt 0", sprofil(&region, 0, &tv, PROF_UINT));
	report("profcnt -1", sprofil(&region, -1, &tv, PROF_UINT));
	report("profcnt 1000000", sprofil(&region, 1000000, &tv, PROF_UINT));
	report("bad profp", sprofil((struct prof *)4, 1, &tv, PROF_UINT));
	report("bad tvp", sprofil(&region, 1, (struct timeval *)8, PROF_UINT));
	report("overflow bin not last", sprofil(bad_order, 2, &tv, PROF_UINT));
	report("bad flags 0x100", sprofil(&region, 1, &tv, 0x100));
	report("valid call", sprofil(&region, 1, &tv, PROF_UINT));
	return 0;
}
