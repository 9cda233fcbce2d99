/* callgraph.h -- shared by the cg_* programs (irix-emu): every function
 * they define stays a function of its own (no inlining, cloning or
 * interprocedural shortcuts), and NOTAIL also keeps every call a call (no
 * sibling-call or tail-recursion optimisation), so the call graph the
 * tests expect can be read off the source. */
#ifndef CALLGRAPH_H
#define CALLGRAPH_H

#define KEEP __attribute__((noipa))
#define NOTAIL __attribute__((noipa, optimize("no-optimize-sibling-calls")))

/* About 4 * n cycles of work the compiler cannot remove: at the 1 kHz
 * clock (prof --fast) spin(25000) is one sample. */
NOTAIL static unsigned spin(unsigned n)
{
	volatile unsigned x = 0;
	while (n--)
		x += n;
	return x;
}

#endif
