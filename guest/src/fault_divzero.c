/* fault_divzero -- integer division by zero. gcc follows `div` with
 * `teq $divisor, $zero, 7` (its default -mcheck-zero-division); the trap
 * exception makes the kernel send SIGFPE (trap code 7 = divide by zero).
 * Expected output: "fault_divzero: 7 / 0\n", then death by signal 8
 * (SIGFPE); nothing after. */
#include <stdio.h>

int main(int argc, char **argv)
{
	volatile int num = 7;
	volatile int den = argc - 1; /* 0 when run without arguments */
	int q;
	printf("fault_divzero: %d / %d\n", num, den);
	q = num / den;
	printf("fault_divzero: quotient %d (no trap?)\n", q);
	return 1;
}
