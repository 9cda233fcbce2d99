/* ipc_shm_split -- a shared memory attachment is one thing, however
 * mprotect(2) and munmap(2) cut the pages it mapped (shmop(2): shmdt
 * "detaches from the calling process's data segment the shared memory
 * segment located at the address specified by shmaddr"; intro(2):
 * shm_nattch "is the number of processes that currently have this segment
 * attached").
 *  1. mprotect makes the middle page of a 3-page attachment read-only:
 *     shm_nattch stays 1, shmdt of the start removes all three pages
 *     (each read faults after it), shm_nattch is 0, shmdt again EINVAL.
 *  2. munmap of the first page: the attachment lives on (shm_nattch 1),
 *     shmdt of its start removes the rest; munmap of every page ends an
 *     attachment (shm_nattch 0, shmdt EINVAL); a mapping made over part of
 *     an attachment stays after shmdt.
 *  3. fork copies the attachment (shm_nattch 2), a child's exit drops its
 *     copy, and exec drops the attachments of the process (the program
 *     execs itself with the argument "after-exec ID", which prints
 *     shm_nattch from the new image).
 *  4. shmop(2): "[EMFILE] The number of shared memory segments attached
 *     to the calling process would exceed the system-imposed limit"
 *     (irix-emu's SHMSEG, 100); a shmdt makes room again.
 * Expected output: tests/all/kernel_ipc.rs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <signal.h>
#include <setjmp.h>
#include <unistd.h>
#include <sys/wait.h>

#define SYS_shmsys 1052
#define SYS_mmap 1134
#define SYS_munmap 1135
#define SYS_mprotect 1136
#define IPC_PRIVATE 0
#define IPC_RMID 10
#define IPC_STAT 12
#define PROT_READ 1
#define PROT_RW 3
#define MAP_PRIVATE 2
#define MAP_FIXED 0x10
#define MAP_ANONYMOUS 0x100
#define PAGE 4096


struct shmid_ds {
	long uid, gid, cuid, cgid, mode, seq, key, pad[4];
	int segsz;
	char *amp;
	short lkcnt;
	char pad0[2];
	long lpid, cpid;
	unsigned long nattch, cnattch;
	long atime, pad1, dtime, pad2, ctime, pad3, pad4[4];
};

static long shmget(long key, long size, long flg) { return syscall(SYS_shmsys, 3L, key, size, flg); }
static char *shmat(long id, void *addr, long flg) { return (char *)syscall(SYS_shmsys, 0L, id, addr, flg); }
static long shmdt(void *addr) { return syscall(SYS_shmsys, 2L, addr); }
static long shmctl(long id, long cmd, void *buf) { return syscall(SYS_shmsys, 1L, id, cmd, buf); }
static long mprotect(void *addr, long len, long prot) { return syscall(SYS_mprotect, addr, len, prot); }
static long munmap(void *addr, long len) { return syscall(SYS_munmap, addr, len); }

static void report(const char *what, long r)
{
	if (r == -1)
		printf("%s: -1 %s\n", what, errno_name(errno));
	else
		printf("%s: %ld\n", what, r);
}

static unsigned long nattch(long id)
{
	struct shmid_ds ds;
	if (shmctl(id, IPC_STAT, &ds) == -1)
		return 999;
	return ds.nattch;
}

static sigjmp_buf env;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(env, 1);
}

/* "faults" if reading (or, with `store`, writing) *p raises SIGSEGV. */
static const char *access_of(volatile char *p, int store)
{
	if (sigsetjmp(env, 1) != 0)
		return "faults";
	if (store)
		*p = 'x';
	else
		(void)*p;
	return "works";
}

static void split_by_mprotect(void)
{
	long id = shmget(IPC_PRIVATE, 3 * PAGE, 0600);
	char *p = shmat(id, 0, 0);
	int i;
	for (i = 0; i < 3; i++)
		p[i * PAGE] = 'a' + i;
	report("mprotect the middle page read-only", mprotect(p + PAGE, PAGE, PROT_READ));
	printf("split: store to the read-only middle page %s\n", access_of(p + PAGE, 1));
	printf("split: shm_nattch after mprotect %lu\n", nattch(id));
	report("split: shmdt of the middle page", shmdt(p + PAGE));
	report("split: shmdt of the start", shmdt(p));
	for (i = 0; i < 3; i++)
		printf("split: page %d after shmdt: read %s\n", i, access_of(p + i * PAGE, 0));
	printf("split: shm_nattch after shmdt %lu\n", nattch(id));
	report("split: shmdt again", shmdt(p));
	shmctl(id, IPC_RMID, 0);
}

static void partial_munmap(void)
{
	long id = shmget(IPC_PRIVATE, 3 * PAGE, 0600);
	char *p = shmat(id, 0, 0), *q, *over;
	p[2 * PAGE] = 'z';
	report("munmap the first page", munmap(p, PAGE));
	printf("munmap: shm_nattch with two pages left %lu\n", nattch(id));
	printf("munmap: the last page still reads %c\n", p[2 * PAGE]);
	report("munmap: shmdt of the start", shmdt(p));
	printf("munmap: last page after shmdt: read %s\n", access_of(p + 2 * PAGE, 0));
	printf("munmap: shm_nattch after shmdt %lu\n", nattch(id));

	q = shmat(id, 0, 0);
	munmap(q, PAGE);
	munmap(q + PAGE, 2 * PAGE);
	printf("munmap: shm_nattch after every page is unmapped %lu\n", nattch(id));
	report("munmap: shmdt of a wholly unmapped attachment", shmdt(q));

	q = shmat(id, 0, 0);
	over = (char *)syscall(SYS_mmap, q + PAGE, (long)PAGE, (long)PROT_RW,
			       (long)(MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS), -1L, 0L);
	over[0] = 'o';
	printf("munmap: a private page mapped over the middle, shm_nattch %lu\n", nattch(id));
	report("munmap: shmdt with a page mapped over", shmdt(q));
	printf("munmap: the page mapped over stays: %c\n", *over);
	printf("munmap: the first page after shmdt: read %s\n", access_of(q, 0));
	shmctl(id, IPC_RMID, 0);
}

static void fork_and_exec(char *self)
{
	long id = shmget(IPC_PRIVATE, 2 * PAGE, 0600);
	char *p = shmat(id, 0, 0), idtext[16];
	char *argv[4];
	int status;
	pid_t pid;
	pid = fork();
	if (pid == 0) {
		printf("fork: shm_nattch in the child %lu\n", nattch(id));
		mprotect(p, PAGE, PROT_READ);
		printf("fork: shm_nattch after the child's mprotect %lu\n", nattch(id));
		_exit(0); /* without shmdt: exit detaches */
	}
	waitpid(pid, &status, 0);
	printf("fork: shm_nattch after the child exited %lu\n", nattch(id));

	pid = fork();
	if (pid == 0) {
		sprintf(idtext, "%ld", id);
		argv[0] = self;
		argv[1] = "after-exec";
		argv[2] = idtext;
		argv[3] = 0;
		execve(self, argv, environ);
		printf("execve: %s\n", errno_name(errno));
		_exit(1);
	}
	waitpid(pid, &status, 0);
	report("fork: shmdt in the parent", shmdt(p));
	printf("fork: shm_nattch at the end %lu\n", nattch(id));
	shmctl(id, IPC_RMID, 0);
}

static void attach_limit(void)
{
	long id = shmget(IPC_PRIVATE, PAGE, 0600);
	char *at[128];
	int n = 0, i;
	while (n < 128 && (at[n] = shmat(id, 0, 0)) != (char *)-1)
		n++;
	printf("limit: shmat works %d times, then fails with %s\n", n, errno_name(errno));
	printf("limit: shm_nattch %lu\n", nattch(id));
	report("limit: shmdt of one", shmdt(at[0]));
	at[0] = shmat(id, 0, 0);
	report("limit: shmat after it works", at[0] != (char *)-1);
	for (i = 0; i < n; i++)
		shmdt(at[i]);
	printf("limit: shm_nattch after detaching all %lu\n", nattch(id));
	shmctl(id, IPC_RMID, 0);
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	if (argc == 3 && strcmp(argv[1], "after-exec") == 0) {
		printf("exec: shm_nattch in the new image %lu\n", nattch(atoi(argv[2])));
		return 0;
	}
	sa.sa_flags = 0;
	sa.sa_handler = on_segv;
	sigemptyset(&sa.sa_mask);
	sa.sa_resv[0] = sa.sa_resv[1] = 0;
	sigaction(SIGSEGV, &sa, (struct sigaction *)0);
	split_by_mprotect();
	partial_munmap();
	fork_and_exec(argv[0]);
	attach_limit();
	return 0;
}
