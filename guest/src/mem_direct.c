/* mem_direct -- memory that changes under hot code. The jit engine lets
 * compiled loops reach guest pages directly and keeps those pages from one
 * run of the CPU to the next; every change of mapping, sharing or
 * permission between two runs must be seen. Each part runs the same hot
 * loops (thousands of iterations, so that they are compiled) before and
 * after a system call that changes the page under them.
 * Part 1: munmap, then mmap at the same address: the new page reads zero.
 * Part 2: fork: the child's stores stay the child's (copy-on-write) and
 *   the parent's stores after the fork stay the parent's.
 * Part 3: mprotect read-only: the same store loop now faults (SIGSEGV).
 * Expected output:
 *   part 1: sum before munmap 8386560, after a new mmap 0
 *   part 2: child saw 8386560, wrote 7s: sum 28672
 *   part 2: parent after the child: sum 8386560, then wrote 3s: sum 12288
 *   part 3: read-only page reads 12288
 *   part 3: SIGSEGV on the store
 */
#include <stdio.h>
#include <signal.h>
#include <setjmp.h>
#include <unistd.h>
#include <sys/wait.h>

#define SYS_mmap 1134
#define SYS_munmap 1135
#define SYS_mprotect 1136
#define PROT_READ 1
#define PROT_RW 3
#define MAP_PRIVATE_ANON_FIXED 0x112
#define WORDS 4096 /* four pages */

static unsigned *const page = (unsigned *)0x30000000;
static sigjmp_buf env;

static int map_fixed(void)
{
	long p = syscall(SYS_mmap, (long)page, WORDS * 4L, (long)PROT_RW,
			 (long)MAP_PRIVATE_ANON_FIXED, -1L, 0L);
	return p == (long)page;
}

/* The hot loops: each runs thousands of times a call. */
static void fill_index(volatile unsigned *p)
{
	int i;
	for (i = 0; i < WORDS; i++)
		p[i] = i;
}

static void fill(volatile unsigned *p, unsigned v, int n)
{
	int i;
	for (i = 0; i < n; i++)
		p[i] = v;
}

static unsigned sum(volatile unsigned *p)
{
	unsigned s = 0;
	int i;
	for (i = 0; i < WORDS; i++)
		s += p[i];
	return s;
}

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(env, 1);
}

int main(void)
{
	unsigned before;
	int status;
	pid_t child;
	struct sigaction sa;

	if (!map_fixed())
		return 1;
	fill_index(page);
	before = sum(page);
	syscall(SYS_munmap, (long)page, WORDS * 4L);
	if (!map_fixed())
		return 1;
	printf("part 1: sum before munmap %u, after a new mmap %u\n", before, sum(page));

	fill_index(page);
	child = fork();
	if (child == 0) {
		before = sum(page);
		fill(page, 7, WORDS);
		printf("part 2: child saw %u, wrote 7s: sum %u\n", before, sum(page));
		_exit(0);
	}
	waitpid(child, &status, 0);
	before = sum(page);
	fill(page, 3, WORDS);
	printf("part 2: parent after the child: sum %u, then wrote 3s: sum %u\n", before, sum(page));

	syscall(SYS_mprotect, (long)page, WORDS * 4L, (long)PROT_READ);
	printf("part 3: read-only page reads %u\n", sum(page));
	sa.sa_flags = 0;
	sa.sa_handler = on_segv;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, 0);
	if (sigsetjmp(env, 1) == 0) {
		fill(page, 5, 1);
		printf("part 3: the store went through\n");
		return 1;
	}
	printf("part 3: SIGSEGV on the store\n");
	return 0;
}
