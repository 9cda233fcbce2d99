/* prof_regions.h -- the body shared by prof_sprofil and prof_fast:
 * sprofil(2) with two PROF_UINT regions at scale 0x10000 (one 32-bit
 * counter per instruction: "a 1-1 mapping of instructions to counters for
 * ... PROF_UINT and a pr_scale of 0x10000"), region 0 over hot_a and
 * region 1 over hot_b, plus an overflow bin last ("A text region with the
 * pr_off of 0 and pr_scale of 0x0002 will act as an overflow bin ... should
 * always be last"). tvp is non-NULL: "on return will contain the time
 * value corresponding to one clock tick". */
#include "prof_hot.h"
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <sys/profil.h>

static unsigned sum(const unsigned *c, unsigned n, unsigned *nonzero)
{
	unsigned i, t = 0;
	*nonzero = 0;
	for (i = 0; i < n; i++) {
		t += c[i];
		*nonzero += c[i] != 0;
	}
	return t;
}

static int run_regions(const char *name, unsigned flags, unsigned iters)
{
	struct prof p[3];
	struct timeval tv;
	unsigned size_a = addr(hot_b) - addr(hot_a);
	unsigned size_b = addr(hot_end) - addr(hot_b);
	unsigned *ca = calloc(size_a / 4, 4);
	unsigned *cb = calloc(size_b / 4, 4);
	unsigned overflow = 0, sa, sb, ta, tb, na, nb;
	int r;

	if (!ca || !cb) {
		printf("%s: out of memory\n", name);
		return 1;
	}
	p[0].pr_base = ca;
	p[0].pr_size = size_a;
	p[0].pr_off = addr(hot_a);
	p[0].pr_scale = 0x10000;
	p[1].pr_base = cb;
	p[1].pr_size = size_b;
	p[1].pr_off = addr(hot_b);
	p[1].pr_scale = 0x10000;
	p[2].pr_base = &overflow;
	p[2].pr_size = sizeof overflow;
	p[2].pr_off = 0;
	p[2].pr_scale = 2;
	tv.tv_sec = -1;
	tv.tv_usec = -1;
	r = sprofil(p, 3, &tv, flags);
	if (r < 0) {
		printf("sprofil: -1 %s\n", errno_name(errno));
		return 2;
	}
	printf("sprofil: %d\n", r);
	printf("tick: tv_sec %ld tv_usec %ld\n", tv.tv_sec, tv.tv_usec);
	printf("regions: hot_a %u bytes, hot_b %u bytes\n", size_a, size_b);
	sa = hot_a(iters);
	sb = hot_b(iters);
	profil((unsigned short *)0, 0, 0, 0); /* = sprofil with one region of scale 0: off */
	printf("checksums: %08x %08x\n", sa, sb);
	ta = sum(ca, size_a / 4, &na);
	tb = sum(cb, size_b / 4, &nb);
	printf("region 0 (hot_a): %u ticks in %u counters\n", ta, na);
	printf("region 1 (hot_b): %u ticks in %u counters\n", tb, nb);
	printf("overflow bin: %u ticks\n", overflow);
	printf("total: %u ticks\n", ta + tb + overflow);
	return 0;
}
