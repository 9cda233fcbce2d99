/* limit_mmap_loop -- mmap 1 MiB, touch it, munmap it, 5,000 times: the
 * address space must be reused (5 GB in total, more than a 32-bit process
 * has). Then one 512 MiB anonymous mapping, never touched (half the default
 * memory budget: it costs a region entry).
 * Expected output:
 *   limit_mmap_loop: 5000 maps, every one at 0x30000000
 *   limit_mmap_loop: 512 MiB untouched: ok
 */
#include <stdio.h>
#include <errno.h>
#include <unistd.h>

#define SYS_mmap 1134
#define SYS_munmap 1135
#define PROT_RW 3
#define MAP_PRIVATE_ANON 0x102

static char *map(unsigned long len)
{
	return (char *)syscall(SYS_mmap, 0L, len, (long)PROT_RW, (long)MAP_PRIVATE_ANON, -1L, 0L);
}

int main(void)
{
	int i;
	char *first = 0, *p;
	for (i = 0; i < 5000; i++) {
		p = map(1 << 20);
		if (p == (char *)-1) {
			printf("limit_mmap_loop: map %d failed: %s\n", i, errno_name(errno));
			return 1;
		}
		if (i == 0)
			first = p;
		if (p != first) {
			printf("limit_mmap_loop: map %d at %p, not %p\n", i, p, first);
			return 1;
		}
		p[0] = 1;
		p[(1 << 20) - 1] = 2;
		if (syscall(SYS_munmap, p, 1L << 20) != 0) {
			printf("limit_mmap_loop: munmap failed: %s\n", errno_name(errno));
			return 1;
		}
	}
	printf("limit_mmap_loop: %d maps, every one at %p\n", i, first);
	p = map(512UL << 20);
	printf("limit_mmap_loop: 512 MiB untouched: %s\n", p == (char *)-1 ? errno_name(errno) : "ok");
	return 0;
}
