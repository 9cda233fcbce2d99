/* mem_hints -- the calls that tell the kernel how memory is held, each
 * against its IRIX 5.3 page: cacheflush(2), cachectl(2), madvise(2).
 * Code written into an executable mapping runs, is rewritten, and after
 * cacheflush(ICACHE) the new code runs. One "call what: result" line per
 * check ("-1 ERRNO" on failure); tests/kernel_memory.rs holds the text. */
#include <stdio.h>
#include <errno.h>
#include <unistd.h>

#define SYS_mmap 1134
#define SYS_madvise 1138
#define SYS_cacheflush 1150
#define SYS_cachectl 1151
#define PROT_RWX 7
#define MAP_PRIVATE 2
#define MAP_ANONYMOUS 0x100
#define MADV_DONTNEED 4
#define ICACHE 1
#define DCACHE 2
#define BCACHE 3
#define CACHEABLE 0
#define UNCACHEABLE 1
#define UNMAPPED 0x1000 /* below every program's text */

static void show(const char *what, long r)
{
	if (r == -1)
		printf("%s: -1 %s\n", what, errno_name(errno));
	else
		printf("%s: %ld\n", what, r);
}

/* `jr ra` with `addiu v0, zero, n` in its delay slot: a function
 * returning n. */
static void write_return(unsigned *code, int n)
{
	code[0] = 0x03e00008;
	code[1] = 0x24020000 | (unsigned)(n & 0xffff);
}

int main(void)
{
	unsigned *code = (unsigned *)syscall(SYS_mmap, 0, 8192, PROT_RWX,
					     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *data = (char *)code + 4096;
	int (*fn)(void) = (int (*)(void))code;

	if ((long)code == -1) {
		show("mmap", -1);
		return 1;
	}
	write_return(code, 11);
	show("cacheflush ICACHE", syscall(SYS_cacheflush, code, 8, ICACHE));
	printf("code returns %d\n", fn());
	write_return(code, 22);
	show("cacheflush BCACHE", syscall(SYS_cacheflush, code, 8, BCACHE));
	printf("rewritten code returns %d\n", fn());
	show("cacheflush DCACHE", syscall(SYS_cacheflush, data, 4096, DCACHE));
	show("cacheflush cache 4", syscall(SYS_cacheflush, code, 8, 4));
	show("cacheflush unmapped", syscall(SYS_cacheflush, UNMAPPED, 8, BCACHE));
	show("cacheflush past the mapping", syscall(SYS_cacheflush, data, 8192, BCACHE));
	show("cacheflush negative nbytes", syscall(SYS_cacheflush, code, -8, ICACHE));

	show("cachectl UNCACHEABLE", syscall(SYS_cachectl, code, 8192, UNCACHEABLE));
	printf("uncacheable code returns %d\n", fn());
	show("cachectl CACHEABLE", syscall(SYS_cachectl, code, 8192, CACHEABLE));
	show("cachectl op 2", syscall(SYS_cachectl, code, 4096, 2));
	show("cachectl unaligned addr", syscall(SYS_cachectl, data + 4, 4096, CACHEABLE));
	show("cachectl nbytes 100", syscall(SYS_cachectl, code, 100, CACHEABLE));
	show("cachectl unmapped", syscall(SYS_cachectl, UNMAPPED, 4096, CACHEABLE));

	data[0] = 'k';
	show("madvise MADV_DONTNEED", syscall(SYS_madvise, data, 4096, MADV_DONTNEED));
	printf("contents kept: %c\n", data[0]);
	show("madvise behavior 0", syscall(SYS_madvise, data, 4096, 0));
	show("madvise unmapped", syscall(SYS_madvise, UNMAPPED, 4096, MADV_DONTNEED));
	return 0;
}
