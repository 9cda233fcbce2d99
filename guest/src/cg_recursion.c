/* cg_recursion -- direct and mutual recursion, for the call graph.
 * Calls (exact): main -> fib 1, fib -> fib 464 (fib(12): 465 calls in
 * all), main -> ping 1, ping -> pong 5, pong -> ping 4 (ping(9) down to
 * pong(0)). fib's leaves spin, so samples land deep in the recursion:
 * fib -> spin 233 (the calls with n < 2).
 * Prints "fib(12) = 144, ping(9) = 9". */
#include <stdio.h>
#include "callgraph.h"

NOTAIL unsigned fib(unsigned n)
{
	if (n < 2) {
		spin(2000);
		return n;
	}
	return fib(n - 1) + fib(n - 2);
}

NOTAIL unsigned pong(unsigned n);

NOTAIL unsigned ping(unsigned n)
{
	return n == 0 ? 0 : 1 + pong(n - 1);
}

NOTAIL unsigned pong(unsigned n)
{
	return n == 0 ? 0 : 1 + ping(n - 1);
}

NOTAIL int main(void)
{
	unsigned f = fib(12);
	unsigned p = ping(9);
	printf("fib(12) = %u, ping(9) = %u\n", f, p);
	return 0;
}
