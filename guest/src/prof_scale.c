/* prof_scale -- profil(2) with one of a fixed table of (scale, offset)
 * pairs, for comparing how each personality's page maps a PC to a counter:
 *   IRIX/Solaris: "the value of offset is subtracted from the current value
 *   of the program counter (pc), and the remainder is multiplied by scale"
 *   (byte offset = ((pc - offset) * scale) >> 16, counter = byte offset / 2);
 *   Darwin: "the number of the corresponding bin is given by the relation:
 *   [(pc - offset) / 2] * scale / 65536".
 * The two agree for even pc - offset but not for odd, hence mode 1's offset
 * one byte below hot_a.
 * Usage: prof_scale MODE   (one digit; the instruction path is the same
 * for every mode, so every mode's ticks fall on the same PCs):
 *   0: scale 0x8000, offset hot_a      (one counter per instruction)
 *   1: scale 0xffff, offset hot_a - 1  (odd remainders)
 *   2: scale 0x4000, offset hot_a      (8 bytes of text per counter)
 *   3: scale 0x0002, offset hot_a - 0x10000 (IRIX profil(2): the minimum
 *      scale "maps (by convention) the entire region starting with offset
 *      to the first counter"; the formula would put the hot loops, 64 KiB
 *      past the offset, in counter 1)
 * The buffer is 512 bytes (256 counters); ticks past it are not counted.
 * Runs hot_a then hot_b, turns profiling off, prints each nonzero counter
 * as "counter <index> <count>", then "total <T>". Expected output shape
 * (exit status 0):
 *   profil: 0, scale 0x8000, offset hot_a-0
 *   counter 7 12
 *   ...
 *   total 112
 */
#include "prof_hot.h"
#include <stdio.h>
#include <errno.h>
#include <sys/profil.h>

#define NCOUNTERS 256
#define ITERS 4000000u

static const struct {
	unsigned scale;
	unsigned below;
} modes[4] = {{0x8000, 0}, {0xffff, 1}, {0x4000, 0}, {0x0002, 0x10000}};

static unsigned short counters[NCOUNTERS];
/* Read through a volatile so gcc keeps the side-effect-free hot loops
 * between the two profil calls. */
static volatile unsigned iters = ITERS;

int main(int argc, char **argv)
{
	unsigned mode = argc > 1 ? (unsigned)(argv[1][0] - '0') % 4 : 0;
	unsigned i, total = 0;
	volatile unsigned sink;
	int r;

	r = profil(counters, sizeof counters, addr(hot_a) - modes[mode].below, modes[mode].scale);
	sink = hot_a(iters);
	sink = hot_b(iters);
	profil((unsigned short *)0, 0, 0, 0);
	printf("profil: %d, scale 0x%x, offset hot_a-%u\n", r, modes[mode].scale,
	       modes[mode].below);
	for (i = 0; i < NCOUNTERS; i++) {
		if (!counters[i])
			continue;
		printf("counter %u %u\n", i, counters[i]);
		total += counters[i];
	}
	printf("total %u\n", total);
	(void)sink;
	return 0;
}
