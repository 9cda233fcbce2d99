/* prof_hot.h -- the two hot functions the profiling programs measure, and
 * the text-range helpers. Included first by each prof_* / proc_* program,
 * so (with build.sh's -fno-toplevel-reorder) hot_a, hot_b and hot_end are
 * laid out in this order: hot_a's code is [hot_a, hot_b), hot_b's is
 * [hot_b, hot_end). */
#ifndef PROF_HOT_H
#define PROF_HOT_H

#define NOINLINE __attribute__((noinline, noclone, used))

/* Integer multiply loop (mult/mflo: long HI/LO latency on the R4000). */
NOINLINE unsigned hot_a(unsigned n)
{
	unsigned x = 1, s = 0;
	while (n--) {
		x = x * 1103515245u + 12345u;
		s += x >> 16;
	}
	return s;
}

/* Shift/xor loop (xorshift32): single-cycle ALU work only. */
NOINLINE unsigned hot_b(unsigned n)
{
	unsigned x = 0x12345678u, s = 0;
	while (n--) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		s += x;
	}
	return s;
}

/* Marks the end of hot_b. */
NOINLINE void hot_end(void)
{
}

/* Linker-provided bounds of .text (binutils' default MIPS script). */
extern char _ftext[], etext[];

static inline unsigned addr(const void *p)
{
	return (unsigned)p;
}

/* 'a' for hot_a, 'b' for hot_b, 'o' for any other pc. */
static inline char which_function(unsigned pc)
{
	if (pc >= addr(hot_a) && pc < addr(hot_b))
		return 'a';
	if (pc >= addr(hot_b) && pc < addr(hot_end))
		return 'b';
	return 'o';
}
#endif
