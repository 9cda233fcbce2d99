/* ipc_shm_sproc -- a shared memory segment in an sproc share group.
 * sproc(2), PR_SADDR: "If one process in a share group attaches to a
 * shared memory segment, all processes in the group can access that
 * segment." The group has one address space, so an attachment is the
 * group's: irix-emu counts it once in shm_nattch, whichever member made
 * it, and a shmdt by any member detaches it for all (docs/ipc.md).
 *  1. The parent attaches, then sprocs a member: the member reads and
 *     writes the segment at the parent's address; shm_nattch is 1,
 *     shm_cpid and shm_lpid are the parent.
 *  2. The member attaches the segment again on its own: shm_nattch 2,
 *     shm_lpid the member; after the member exits, the parent reaches the
 *     member's attachment and shm_nattch is still 2; the parent's shmdt
 *     of it makes shm_nattch 1 and shm_lpid the parent.
 *  3. A second member detaches the parent's attachment: the parent's
 *     read of it faults and shm_nattch is 0.
 *  4. A fork by a share-group member copies the group's attachments
 *     (shm_nattch + 1 while the child lives).
 * Expected output: tests/all/kernel_ipc.rs. */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <signal.h>
#include <setjmp.h>
#include <unistd.h>
#include <sys/wait.h>
#include <sys/prctl.h>

#define SYS_shmsys 1052
#define IPC_PRIVATE 0
#define IPC_RMID 10
#define IPC_STAT 12

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

static long shmat_id(long id) { return syscall(SYS_shmsys, 0L, id, 0L, 0L); }
static long shmdt(void *addr) { return syscall(SYS_shmsys, 2L, addr); }
static long shmctl(long id, long cmd, void *buf) { return syscall(SYS_shmsys, 1L, id, cmd, buf); }

static long id;
static char *parents, *members;
static pid_t parent;

static void report(const char *what, long r)
{
	if (r == -1)
		printf("%s: -1 %s\n", what, errno_name(errno));
	else
		printf("%s: %ld\n", what, r);
}

/* shm_nattch, and who shm_cpid and shm_lpid name ("parent", "me",
 * "other"). */
static const char *who(long pid)
{
	return pid == parent ? "parent" : pid == getpid() ? "me" : "other";
}

static void stat_line(const char *what)
{
	struct shmid_ds ds;
	if (shmctl(id, IPC_STAT, &ds) == -1) {
		printf("%s: IPC_STAT %s\n", what, errno_name(errno));
		return;
	}
	printf("%s: shm_nattch %lu shm_cpid %s shm_lpid %s\n", what, ds.nattch, who(ds.cpid),
	       who(ds.lpid));
}

static int first_member(void *arg)
{
	long at;
	(void)arg;
	printf("member: reads the parent's attachment: %s\n", parents);
	strcpy(parents + 64, "member wrote this");
	stat_line("member, before attaching");
	at = shmat_id(id);
	if (at == -1) {
		printf("member: shmat: %s\n", errno_name(errno));
		return 1;
	}
	members = (char *)at;
	printf("member: its own attachment is at another address: %s\n",
	       members != parents ? "yes" : "no");
	printf("member: reads the same bytes there: %s\n", members);
	stat_line("member, after attaching");
	return 0;
}

static int second_member(void *arg)
{
	(void)arg;
	report("second member: shmdt of the parent's attachment", shmdt(parents));
	return 0;
}

static sigjmp_buf env;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(env, 1);
}

static void wait_for(pid_t pid, const char *what)
{
	int status;
	if (pid < 0) {
		printf("%s: %s\n", what, errno_name(errno));
		return;
	}
	waitpid(pid, &status, 0);
	printf("%s exited with status %d\n", what, WEXITSTATUS(status));
}

int main(void)
{
	struct sigaction sa;
	pid_t pid;

	parent = getpid();
	sa.sa_flags = 0;
	sa.sa_handler = on_segv;
	sigemptyset(&sa.sa_mask);
	sa.sa_resv[0] = sa.sa_resv[1] = 0;
	sigaction(SIGSEGV, &sa, (struct sigaction *)0);

	id = syscall(SYS_shmsys, 3L, (long)IPC_PRIVATE, 8192L, 0600L);
	parents = (char *)shmat_id(id);
	strcpy(parents, "parent wrote this");
	stat_line("parent, attached");

	wait_for(sproc(first_member, PR_SALL, 0), "first member");
	printf("parent: reads what the member wrote: %s\n", parents + 64);
	printf("parent: reaches the member's attachment: %s\n", members);
	stat_line("parent, after the member exited");
	report("parent: shmdt of the member's attachment", shmdt(members));
	stat_line("parent, after detaching it");

	wait_for(sproc(second_member, PR_SALL, 0), "second member");
	if (sigsetjmp(env, 1) == 0)
		printf("parent: its attachment still reads %c (wrong)\n", parents[0]);
	else
		printf("parent: its attachment faults after the member's shmdt\n");
	stat_line("parent, after the member's shmdt");

	parents = (char *)shmat_id(id);
	pid = fork();
	if (pid == 0) {
		stat_line("forked child of the share group");
		_exit(0);
	}
	wait_for(pid, "forked child");
	stat_line("parent, after the forked child exited");
	shmdt(parents);
	shmctl(id, IPC_RMID, 0);
	return 0;
}
