/* fault_divzero_break -- integer division by zero checked the older way:
 * `div` with a `bnez` over `break 7` (what gcc -mdivide-breaks emits,
 * written out here since the build uses gcc's default `teq` check). The
 * breakpoint exception with code 7 (divide by zero) makes the kernel send
 * SIGFPE, as for fault_divzero's trap; other break codes give SIGTRAP.
 * Expected output: "fault_divzero_break: 7 / 0\n", then death by signal 8
 * (SIGFPE); nothing after. */
#include <stdio.h>

static int checked_div(int num, int den)
{
	int q;
	__asm__ volatile(".set push\n\t"
			 ".set noreorder\n\t"
			 "div $0, %1, %2\n\t"
			 "bnez %2, 1f\n\t"
			 "nop\n\t"
			 "break 7\n"
			 "1:\n\t"
			 "mflo %0\n\t"
			 ".set pop"
			 : "=r"(q)
			 : "r"(num), "r"(den));
	return q;
}

int main(int argc, char **argv)
{
	volatile int num = 7;
	volatile int den = argc - 1; /* 0 when run without arguments */
	printf("fault_divzero_break: %d / %d\n", num, den);
	printf("fault_divzero_break: quotient %d (no trap?)\n", checked_div(num, den));
	return 1;
}
