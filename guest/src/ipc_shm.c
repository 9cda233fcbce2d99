/* ipc_shm -- System V shared memory, as IRIX shmget(2), shmop(2) and
 * shmctl(2) describe them (shmsys 1052: 0 shmat, 1 shmctl, 2 shmdt,
 * 3 shmget).
 *  1. A segment is zero when made; a forked child inherits the attachment
 *     and its stores are seen by the parent; a process that attaches the
 *     key itself sees the same bytes.
 *  2. shm_nattch, shm_segsz and the pids in IPC_STAT.
 *  3. SHM_RND, a fixed address, IPC_RMID while attached, shmdt.
 *  4. The errors the pages list.
 * Expected output: tests/all/kernel_ipc.rs. */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/wait.h>

#define SYS_shmsys 1052
#define IPC_PRIVATE 0
#define IPC_CREAT 01000
#define IPC_EXCL 02000
#define IPC_RMID 10
#define IPC_SET 11
#define IPC_STAT 12
#define SHM_RDONLY 010000
#define SHM_RND 020000
#define SHM_LOCK 3
#define SHMLBA (256 * 1024)

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

static void report(const char *what, long r)
{
	if (r == -1)
		printf("%s: -1 %s\n", what, errno_name(errno));
	else
		printf("%s: %ld\n", what, r);
}

static void shared_with_a_child(void)
{
	struct shmid_ds ds;
	long id = shmget(0x5a5a, 10000, IPC_CREAT | 0600);
	char *p = shmat(id, 0, 0);
	int status, zero = 1, i;
	pid_t pid;
	for (i = 0; i < 10000; i++)
		if (p[i])
			zero = 0;
	printf("a new segment reads as zeroes: %s\n", zero ? "yes" : "no");
	strcpy(p, "parent wrote this");
	pid = fork();
	if (pid == 0) {
		char *q;
		long again = shmget(0x5a5a, 0, 0);
		printf("child sees: %s\n", p);
		strcpy(p + 9999 - 5, "tail");
		q = shmat(again, 0, 0);
		printf("child's second attachment sees the same bytes: %s\n", q);
		shmctl(id, IPC_STAT, &ds);
		printf("in the child: shm_nattch %lu\n", ds.nattch);
		strcpy(q, "child wrote this");
		_exit(0);
	}
	waitpid(pid, &status, 0);
	printf("parent sees: %s and %s\n", p, p + 9999 - 5);
	shmctl(id, IPC_STAT, &ds);
	printf("IPC_STAT: segsz %d nattch %lu cpid-is-me %d lpid-is-child %d mode 0%lo key 0x%lx\n",
	       ds.segsz, ds.nattch, ds.cpid == getpid(), ds.lpid == pid, ds.mode, ds.key);
	ds.mode = 0400;
	report("IPC_SET mode 0400", shmctl(id, IPC_SET, &ds));
	report("shmat for writing now", (long)shmat(id, 0, 0));
	report("shmat SHM_RDONLY works", shmat(id, 0, SHM_RDONLY) != (char *)-1);
	report("shmctl SHM_LOCK", shmctl(id, SHM_LOCK, 0));
	report("IPC_RMID while attached", shmctl(id, IPC_RMID, 0));
	printf("still attached after IPC_RMID: %s\n", p);
	report("shmget of the removed key", shmget(0x5a5a, 0, 0));
	report("shmdt", shmdt(p));
	report("shmdt again", shmdt(p));
}

static void addresses(void)
{
	long id = shmget(IPC_PRIVATE, 4096, 0600);
	char *want = (char *)0x38000000 + 12345;
	char *at = shmat(id, want, SHM_RND);
	printf("SHM_RND rounds 0x%lx down to SHMLBA: 0x%lx\n", (long)want, (long)at);
	report("shmat at an unaligned address without SHM_RND", (long)shmat(id, want, 0));
	report("shmat over a mapped range", (long)shmat(id, at, 0));
	report("shmdt of an address inside no segment", shmdt(at + 4096));
	report("shmdt of the segment", shmdt(at));
	shmctl(id, IPC_RMID, 0);
}

static void errors(void)
{
	long id = shmget(0x77, 100, IPC_CREAT | 0600);
	struct shmid_ds ds;
	report("shmget of size 0", shmget(IPC_PRIVATE, 0, 0600));
	report("shmget over SHMMAX", shmget(IPC_PRIVATE, 0x7fffffff, 0600));
	report("shmget of the key with a larger size", shmget(0x77, 200, 0));
	report("shmget IPC_CREAT|IPC_EXCL", shmget(0x77, 100, IPC_CREAT | IPC_EXCL | 0600));
	report("shmget of a missing key", shmget(0x78, 100, 0));
	report("shmat of an invalid id", (long)shmat(4242, 0, 0));
	report("shmctl of an unknown command", shmctl(id, 99, &ds));
	report("shmctl IPC_STAT to a bad address", shmctl(id, IPC_STAT, (void *)16));
	report("shmctl IPC_RMID", shmctl(id, IPC_RMID, 0));
	report("shmctl of the removed id", shmctl(id, IPC_STAT, &ds));
}

int main(void)
{
	shared_with_a_child();
	addresses();
	errors();
	return 0;
}
