/* fault_overflow -- signed integer overflow in `add` (MIPS I "add" traps on
 * two's-complement overflow; gcc itself only emits addu): the Integer
 * Overflow exception makes the kernel send SIGFPE.
 * This is the SIGFPE program the differential test can use: qemu-mips 7.2
 * reports fault_divzero's `teq` trap as SIGTRAP (it does not pass the trap
 * code on), but raises SIGFPE for the overflow exception like Linux and
 * IRIX.
 * Expected output: "fault_overflow: 2147483647 + 1\n", then death by
 * signal 8 (SIGFPE); nothing after. */
#include <stdio.h>

static int trapping_add(int a, int b)
{
	int r;
	__asm__ volatile("add %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
	return r;
}

int main(void)
{
	volatile int a = 2147483647, b = 1;
	printf("fault_overflow: %d + %d\n", a, b);
	printf("fault_overflow: sum %d (no trap?)\n", trapping_add(a, b));
	return 1;
}
