/* limit_brk_loop -- moves the break up 512 MiB and back, touching one page
 * each time, 20,000 times: with pages made only when touched, each round
 * is a few microseconds of host work, and the system time it is charged
 * grows with what it does.
 * Expected output: "limit_brk_loop: 20000 rounds\n"; exit status 0. */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	int i;
	/* The kernel's break starts at the page after the bss. */
	char *base = (char *)(((unsigned long)sbrk(0) + 4095) & ~4095UL);
	for (i = 0; i < 20000; i++) {
		if (brk(base + (512 << 20)) != 0) {
			printf("limit_brk_loop: brk up failed at round %d\n", i);
			return 1;
		}
		base[(512 << 20) - 1] = 1;
		if (brk(base) != 0) {
			printf("limit_brk_loop: brk down failed at round %d\n", i);
			return 1;
		}
	}
	printf("limit_brk_loop: %d rounds\n", i);
	return 0;
}
