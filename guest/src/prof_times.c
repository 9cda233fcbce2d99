/* prof_times -- the clock sentence at guest level: "times() reports
 * utime/stime in ticks consistent with this, so the sum of all counters of
 * a profile whose regions (with an overflow bin) cover every PC equals the
 * user ticks that times() reports over the same interval" (README, "The
 * clock tick").
 *
 * sprofil(2) with one PROF_UINT region over hot_a..hot_end at scale 0x10000
 * ("a 1-1 mapping of instructions to counters for ... PROF_UINT and a
 * pr_scale of 0x10000") and an overflow bin last ("A text region with the
 * pr_off of 0 and pr_scale of 0x0002 will act as an overflow bin. Any PC
 * value not previously matched or outside the regions ... is considered to
 * match this text region"), so every PC is counted somewhere: hot_a and
 * hot_b in the region, main's loop and libc's memset in the overflow bin.
 *
 * The interval: times(&ta); sprofil on; times(&tb); work; times(&tc);
 * profiling off; times(&td). A tick between ta and tb (or tc and td) would
 * fall on one side of the switch only, so the program prints those two
 * gaps; with both 0 the profile covers exactly the ticks from tb to tc.
 * Usage: prof_times [rounds]   (default 8).
 * Expected output (exit status 0; the tick counts are deterministic):
 *   sprofil: 0
 *   gaps: before 0 after 0
 *   region: <R> ticks, overflow bin: <O> ticks
 *   counters <R+O> utime_ticks <tc - tb>
 *   equal: yes
 */
#include "prof_hot.h"
#include "times_call.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/profil.h>

#define BUF_BYTES (1 << 20) /* about 1.3 M cycles: at least one tick per memset */

/* Read through a volatile so gcc cannot hoist the side-effect-free hot_a
 * and hot_b out of the loop (their argument would be loop-invariant). */
static volatile unsigned iters = 200000;

int main(int argc, char **argv)
{
	unsigned rounds = argc > 1 ? (unsigned)atoi(argv[1]) : 8;
	unsigned size = addr(hot_end) - addr(hot_a);
	unsigned *counters = calloc(size / 4, 4);
	unsigned char *buf = malloc(BUF_BYTES);
	unsigned overflow = 0, region = 0, i;
	volatile unsigned sink = 0;
	struct prof p[2];
	struct tms ta, tb, tc, td;
	long utime;
	int r;

	if (!counters || !buf) {
		printf("prof_times: out of memory\n");
		return 1;
	}
	p[0].pr_base = counters;
	p[0].pr_size = size;
	p[0].pr_off = addr(hot_a);
	p[0].pr_scale = 0x10000;
	p[1].pr_base = &overflow;
	p[1].pr_size = sizeof overflow;
	p[1].pr_off = 0;
	p[1].pr_scale = 2;

	times(&ta);
	r = sprofil(p, 2, (struct timeval *)0, PROF_UINT);
	times(&tb);
	for (i = 0; i < rounds; i++) {
		sink += hot_a(iters);
		sink += hot_b(iters);
		memset(buf, (int)i, BUF_BYTES);
	}
	times(&tc);
	profil((unsigned short *)0, 0, 0, 0);
	times(&td);

	if (r < 0) {
		printf("sprofil: -1 %s\n", errno_name(errno));
		return 2;
	}
	printf("sprofil: %d\n", r);
	printf("gaps: before %ld after %ld\n", tb.tms_utime - ta.tms_utime,
	       td.tms_utime - tc.tms_utime);
	for (i = 0; i < size / 4; i++)
		region += counters[i];
	utime = tc.tms_utime - tb.tms_utime;
	printf("region: %u ticks, overflow bin: %u ticks\n", region, overflow);
	printf("counters %u utime_ticks %ld\n", region + overflow, utime);
	printf("equal: %s\n", (long)(region + overflow) == utime ? "yes" : "no");
	(void)sink;
	return 0;
}
