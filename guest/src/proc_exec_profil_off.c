/* proc_exec_profil_off -- exec(2) turns profiling off, shown from inside:
 * "Profiling is turned off when an exec(2) is executed" (sprofil(2) NOTES;
 * profil(2) on Solaris likewise) and, for pcsample, sampling "is disabled
 * by a call to one of the exec family of functions" (pcsample(2)).
 *
 * Stage 1 (no argument or "profil"; or "pcsample"): profil() over the
 * text into the static array `bins` (or pcsample() into the static array
 * `samples`: the two exclude each other), a hot loop that fills it, then
 * execve() of itself (argv[0]) with the argument "after-exec".
 * Stage 2: the same program image, so `bins` and `samples` are at the same
 * addresses as in stage 1 (printed in both stages), freshly zeroed by the
 * loader. If the kernel kept stage 1's profiling state across exec, the
 * same hot loop would write ticks into them. Then, as a control, stage 2
 * turns profil on itself over the same array and the loop counts again.
 * Expected output (exit status 0; tick counts deterministic, > 0):
 *   stage 1: profil 0, bins at 0x..., samples at 0x...    (or pcsample 0)
 *   stage 1: <N> ticks in bins, 0 samples before exec     (or 0 ticks, <M> samples)
 *   stage 2: bins at 0x..., samples at 0x...
 *   stage 2: 0 ticks in bins, 0 samples after the same loop
 *   stage 2: profil again: <K> ticks
 * If execve fails: "stage 1: execve: <ERRNO>" and exit status 127. */
#include "prof_hot.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/profil.h>

#define ITERS 1000000u
/* One 16-bit counter per instruction (scale 0x8000) for 64 KiB of text. */
#define NBINS 16384
#define SLOTS 64

static unsigned short bins[NBINS];
static unsigned long samples[SLOTS];

static unsigned bin_ticks(void)
{
	unsigned i, t = 0;
	for (i = 0; i < NBINS; i++)
		t += bins[i];
	return t;
}

static unsigned stored_samples(void)
{
	unsigned i, n = 0;
	for (i = 0; i < SLOTS; i++)
		n += samples[i] != 0;
	return n;
}

/* Read through a volatile so gcc cannot merge or move the calls of the
 * side-effect-free hot_a (it would otherwise reuse one result for both). */
static volatile unsigned iters = ITERS;

/* Stage 1: `how` is "profil" or "pcsample". */
static int stage1(const char *prog, const char *how)
{
	volatile unsigned sink;
	char *next_argv[3];
	long r;

	if (strcmp(how, "pcsample") == 0)
		r = pcsample(samples, SLOTS);
	else
		r = profil(bins, sizeof bins, addr(_ftext), 0x8000);
	printf("stage 1: %s %ld, bins at 0x%08x, samples at 0x%08x\n", how, r, addr(bins),
	       addr(samples));
	sink = hot_a(iters);
	printf("stage 1: %u ticks in bins, %u samples before exec\n", bin_ticks(),
	       stored_samples());
	(void)sink;
	next_argv[0] = (char *)prog;
	next_argv[1] = "after-exec";
	next_argv[2] = NULL;
	execve(prog, next_argv, environ);
	printf("stage 1: execve: %s\n", errno_name(errno));
	return 127;
}

int main(int argc, char **argv)
{
	volatile unsigned sink;

	if (argc < 2 || strcmp(argv[1], "after-exec") != 0)
		return stage1(argv[0], argc > 1 ? argv[1] : "profil");
	printf("stage 2: bins at 0x%08x, samples at 0x%08x\n", addr(bins), addr(samples));
	sink = hot_a(iters);
	printf("stage 2: %u ticks in bins, %u samples after the same loop\n", bin_ticks(),
	       stored_samples());
	profil(bins, sizeof bins, addr(_ftext), 0x8000);
	sink = hot_a(iters);
	profil((unsigned short *)0, 0, 0, 0);
	printf("stage 2: profil again: %u ticks\n", bin_ticks());
	(void)sink;
	return 0;
}
