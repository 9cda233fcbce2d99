/* limit_big_bss -- a 1.6 GiB bss (p_memsz near 2 GiB) and a 256 MiB
 * heap, of which a few pages are touched: untouched memory costs the host
 * nothing. Expected output:
 *   limit_big_bss: first 1 last 2
 *   limit_big_bss: heap first 3 last 4
 * Exit status 0. */
#include <stdio.h>
#include <unistd.h>

#define BIG 0x68000000u
#define HEAP (256 << 20)

static char big[BIG];

int main(void)
{
	char *heap;
	big[0] = 1;
	big[BIG - 1] = 2;
	printf("limit_big_bss: first %d last %d\n", big[0], big[BIG - 1]);
	heap = sbrk(HEAP);
	if (heap == (char *)-1) {
		printf("limit_big_bss: sbrk failed\n");
		return 1;
	}
	heap[0] = 3;
	heap[HEAP - 1] = 4;
	printf("limit_big_bss: heap first %d last %d\n", heap[0], heap[HEAP - 1]);
	return 0;
}
