/* cg_tailcall -- tail calls (j and jr through a register), for the call
 * graph. dispatch and via_pointer end in a jump, not a call, so the real
 * stack goes main -> leaf_a directly, and the arc is counted from main's
 * call site, as gprof's mcount would see it.
 * Calls (exact): main -> dispatch 10, main -> leaf_a 5 + 2 = 7,
 * main -> leaf_b 5, main -> via_pointer 2. dispatch and via_pointer call
 * nothing. Prints "tail: 795". */
#include <stdio.h>
#include "callgraph.h"

NOTAIL int leaf_a(int x)
{
	spin(20000);
	return x + 100;
}

NOTAIL int leaf_b(int x)
{
	spin(20000);
	return x + 10;
}

KEEP int dispatch(int x)
{
	if (x & 1)
		return leaf_a(x);
	return leaf_b(x);
}

KEEP int via_pointer(int (*f)(int), int x)
{
	return f(x);
}

NOTAIL int main(void)
{
	int sum = 0;
	for (int i = 0; i < 10; i++)
		sum += dispatch(i);
	sum += via_pointer(leaf_a, 0) + via_pointer(leaf_a, 0);
	printf("tail: %d\n", sum);
	return 0;
}
