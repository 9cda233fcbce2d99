/* prof_profil -- profil(2) over the program's own text.
 *
 * profil(buf, bufsiz, _ftext, 0x8000): with scale 0x8000 each 16-bit
 * counter covers 4 bytes of text, i.e. one instruction ("scale ... is the
 * reciprocal of the number of bytes in a subdivision, per byte of
 * histogram buffer": 2 bytes of buffer per 4 bytes of text). Runs hot_a
 * (multiply loop) then hot_b (shift/xor loop), turns profiling off with
 * scale 0 ("Profiling is turned off by giving a scale value of 0 or 1"),
 * and prints every nonzero bin as "+offset count" (offset in bytes from
 * _ftext), then the per-function and overall totals.
 * Usage: prof_profil [multiplier]  (default 1: 4,000,000 iterations each).
 * Expected output shape (counts depend on the emulated clock):
 *   profil: 0
 *   text: <size> bytes, <n> bins; hot_a at +0x..., hot_b at +0x...
 *   checksums: <a> <b>
 *   +0x00070 12
 *   ...
 *   ticks: hot_a <A> hot_b <B> other <O> total <T>
 * with A and B > 0 and A + B + O = T; exit status 0. */
#include "prof_hot.h"
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <sys/profil.h>

#define ITERS 4000000u

int main(int argc, char **argv)
{
	unsigned mult = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
	unsigned text = addr(etext) - addr(_ftext);
	unsigned nbins = (text + 3) / 4;
	unsigned short *bins = calloc(nbins, sizeof *bins);
	unsigned i, sa, sb, ta = 0, tb = 0, to = 0;
	int r;

	if (!bins) {
		printf("prof_profil: out of memory\n");
		return 1;
	}
	r = profil(bins, nbins * 2, addr(_ftext), 0x8000);
	printf("profil: %d%s%s\n", r, r < 0 ? " " : "", r < 0 ? errno_name(errno) : "");
	printf("text: %u bytes, %u bins; hot_a at +0x%x, hot_b at +0x%x\n", text, nbins,
	       addr(hot_a) - addr(_ftext), addr(hot_b) - addr(_ftext));
	sa = hot_a(ITERS * mult);
	sb = hot_b(ITERS * mult);
	profil((unsigned short *)0, 0, 0, 0);
	printf("checksums: %08x %08x\n", sa, sb);
	for (i = 0; i < nbins; i++) {
		unsigned pc = addr(_ftext) + 4 * i;
		if (!bins[i])
			continue;
		printf("+0x%05x %u\n", 4 * i, bins[i]);
		switch (which_function(pc)) {
		case 'a':
			ta += bins[i];
			break;
		case 'b':
			tb += bins[i];
			break;
		default:
			to += bins[i];
		}
	}
	printf("ticks: hot_a %u hot_b %u other %u total %u\n", ta, tb, to, ta + tb + to);
	return 0;
}
