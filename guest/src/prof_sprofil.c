/* prof_sprofil -- sprofil(2) with PROF_UINT: two regions (hot_a, hot_b) at
 * scale 0x10000 and an overflow bin last; see prof_regions.h.
 * Usage: prof_sprofil [multiplier]  (default 1: 4,000,000 iterations each).
 * Expected output shape (tick counts depend on the emulated clock):
 *   sprofil: 0
 *   tick: tv_sec 0 tv_usec 10000        (HZ = 100)
 *   regions: hot_a <n> bytes, hot_b <m> bytes
 *   checksums: <a> <b>
 *   region 0 (hot_a): <A> ticks in <k> counters
 *   region 1 (hot_b): <B> ticks in <l> counters
 *   overflow bin: <O> ticks
 *   total: <A+B+O> ticks
 * exit status 0. */
#include "prof_regions.h"

int main(int argc, char **argv)
{
	unsigned mult = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
	return run_regions("prof_sprofil", PROF_UINT, 4000000u * mult);
}
