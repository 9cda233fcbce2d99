/* prof_pcsample -- pcsample(2) (Solaris semantics; project syscall 2026):
 * "passed an array samples containing nsamples pointer-sized elements ...
 * storing unadulterated values in the array on each clock tick", "stops
 * writing to the array when it is full", "sampling can be stopped by a
 * subsequent call to pcsample() with the nsamples argument set to 0",
 * "always returns 0 the first time it is called. On subsequent calls, it
 * returns the number of samples that were stored during the previous
 * invocation".
 * Runs hot_a then hot_b with 128 slots, stops, prints both return values,
 * the first 8 samples relative to the function they fall in, and how many
 * samples fell in each function.
 * Expected output shape (exit status 0):
 *   pcsample(128 slots): 0
 *   checksums: <a> <b>
 *   pcsample(stop): <n>          (0 < n <= 128)
 *   sample[0] = hot_a+0x24
 *   ...
 *   samples: hot_a <A> hot_b <B> other <O>
 */
#include "prof_hot.h"
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <sys/profil.h>

#define SLOTS 128

int main(int argc, char **argv)
{
	static unsigned long samples[SLOTS];
	unsigned mult = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
	long r0, r1, i;
	unsigned sa, sb, na = 0, nb = 0, no = 0;

	r0 = pcsample(samples, SLOTS);
	printf("pcsample(%d slots): %ld%s%s\n", SLOTS, r0, r0 < 0 ? " " : "",
	       r0 < 0 ? errno_name(errno) : "");
	sa = hot_a(2000000u * mult);
	sb = hot_b(2000000u * mult);
	r1 = pcsample((unsigned long *)0, 0);
	printf("checksums: %08x %08x\n", sa, sb);
	printf("pcsample(stop): %ld\n", r1);
	for (i = 0; i < r1 && i < SLOTS; i++) {
		unsigned pc = (unsigned)samples[i];
		char w = which_function(pc);
		if (w == 'a')
			na++;
		else if (w == 'b')
			nb++;
		else
			no++;
		if (i >= 8)
			continue;
		if (w == 'a')
			printf("sample[%ld] = hot_a+0x%x\n", i, pc - addr(hot_a));
		else if (w == 'b')
			printf("sample[%ld] = hot_b+0x%x\n", i, pc - addr(hot_b));
		else
			printf("sample[%ld] = 0x%08x (other)\n", i, pc);
	}
	printf("samples: hot_a %u hot_b %u other %u\n", na, nb, no);
	return 0;
}
