/* cg_fnptr -- calls through function pointers (jalr), for the call graph.
 * Calls (exact): main -> apply 10, apply -> add 4, apply -> sub 3,
 * apply -> mul 3 (ops[i % 3] for i = 0..9), main -> greet 1 (through a
 * pointer held in a volatile, so it stays an indirect call).
 * Prints "total = 62" then "hello from greet". */
#include <stdio.h>
#include "callgraph.h"

NOTAIL int add(int a, int b)
{
	spin(5000);
	return a + b;
}

NOTAIL int sub(int a, int b)
{
	spin(5000);
	return a - b;
}

NOTAIL int mul(int a, int b)
{
	spin(5000);
	return a * b;
}

NOTAIL int apply(int (*op)(int, int), int a, int b)
{
	return op(a, b);
}

NOTAIL void greet(void)
{
	printf("hello from greet\n");
}

int (*const ops[3])(int, int) = { add, sub, mul };

NOTAIL int main(void)
{
	void (*volatile hook)(void) = greet;
	int total = 0;
	for (int i = 0; i < 10; i++)
		total += apply(ops[i % 3], i, 2);
	printf("total = %d\n", total);
	hook();
	return 0;
}
