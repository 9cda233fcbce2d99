/* fault_segv -- a store through a NULL pointer: the process dies by SIGSEGV
 * (a TLB miss on address 0, which no segment maps).
 * Expected output: "fault_segv: storing to address 0\n", then death by
 * signal 11 (SIGSEGV); nothing after. */
#include <stdio.h>

int main(void)
{
	volatile int *p = (volatile int *)0;
	printf("fault_segv: storing to address 0\n");
	*p = 42;
	printf("fault_segv: still alive (wrong)\n");
	return 1;
}
