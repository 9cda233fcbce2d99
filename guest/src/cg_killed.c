/* cg_killed -- killed by SIGSEGV three calls deep (no handler): the call
 * graph stays consistent although nothing returns. Calls (exact):
 * main -> outer 1, outer -> middle 1, middle -> inner 1, inner -> spin 1.
 * Dies by signal 11. */
#include "callgraph.h"

NOTAIL void inner(void)
{
	spin(200000);
	*(volatile int *)0 = 1;
}

NOTAIL void middle(void)
{
	inner();
}

NOTAIL void outer(void)
{
	middle();
}

NOTAIL int main(void)
{
	outer();
	return 0;
}
