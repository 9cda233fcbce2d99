/* cg_longjmp -- longjmp out of a recursion, three times, for the call
 * graph's resynchronisation.
 * Calls (exact): main -> run 3, run -> setjmp 3, run -> dive 3,
 * dive -> dive 15 (dive(5) down to dive(0)), dive -> longjmp 3,
 * run -> after 3, after -> spin 3, dive -> spin 18.
 * After each longjmp, `after` runs with run's frame on top of the real
 * stack: no dive frame may be left over. Prints "longjmp: 3 recoveries". */
#include <stdio.h>
#include <setjmp.h>
#include "callgraph.h"

static jmp_buf env;

NOTAIL void dive(int n)
{
	spin(3000);
	if (n > 0)
		dive(n - 1);
	else if (n == 0)
		longjmp(env, 1);
}

NOTAIL void after(void)
{
	spin(100000);
}

NOTAIL int run(void)
{
	if (setjmp(env) == 0) {
		dive(5);
		return 0; /* not reached */
	}
	after();
	return 1;
}

NOTAIL int main(void)
{
	int recovered = 0;
	for (int i = 0; i < 3; i++)
		recovered += run();
	printf("longjmp: %d recoveries\n", recovered);
	return 0;
}
