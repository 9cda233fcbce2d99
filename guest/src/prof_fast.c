/* prof_fast -- sprofil(2) with PROF_UINT | PROF_FAST: "forcing the system
 * to take samples once every millisecond", so the tick reported through
 * tvp is 1000 usec and the same work collects about ten times the ticks of
 * prof_sprofil. Same regions as prof_sprofil (prof_regions.h).
 * If the kernel restricts fast profiling (restrict_fastprof), sprofil
 * fails with EACCES: the program prints "sprofil: -1 EACCES" and exits 2.
 * Expected output shape:
 *   sprofil: 0
 *   tick: tv_sec 0 tv_usec 1000
 *   ... (as prof_sprofil) ...
 * exit status 0. */
#include "prof_regions.h"

int main(int argc, char **argv)
{
	unsigned mult = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
	return run_regions("prof_fast", PROF_UINT | PROF_FAST, 4000000u * mult);
}
