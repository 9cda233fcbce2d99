/* cg_exit_deep -- exit(3) called three calls deep: the call graph stays
 * consistent although nothing returns. Calls (exact): main -> level1 1,
 * level1 -> level2 1, level2 -> level3 1, level3 -> spin 1,
 * level3 -> exit 1. Exits with status 3. */
#include <stdlib.h>
#include "callgraph.h"

NOTAIL void level3(void)
{
	spin(200000);
	exit(3);
}

NOTAIL void level2(void)
{
	level3();
}

NOTAIL void level1(void)
{
	level2();
}

NOTAIL int main(void)
{
	level1();
	return 0;
}
