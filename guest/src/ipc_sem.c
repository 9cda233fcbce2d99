/* ipc_sem -- System V semaphores, as IRIX semget(2), semop(2) and
 * semctl(2) describe them (semsys 1053: 0 semctl, 1 semget, 2 semop).
 *  1. A counter in a shared segment, incremented by four forked processes
 *     inside a semaphore-protected critical section that yields the CPU.
 *  2. semop is atomic over its array; semncnt and semzcnt count waiters.
 *  3. SEM_UNDO: a process that exits holding the semaphore gives it back.
 *  4. GETALL/SETALL, IPC_STAT, IPC_RMID (a waiter sees EIDRM), and the
 *     errors the pages list.
 *  5. A caught signal ends a waiting semop with EINTR, SA_RESTART or not.
 * Expected output: tests/all/kernel_ipc.rs. */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <signal.h>
#include <sys/wait.h>

#define SYS_semsys 1053
#define SYS_shmsys 1052
#define IPC_PRIVATE 0
#define IPC_CREAT 01000
#define IPC_EXCL 02000
#define IPC_NOWAIT 04000
#define IPC_RMID 10
#define IPC_STAT 12
#define SEM_UNDO 010000
#define GETNCNT 3
#define GETPID 4
#define GETVAL 5
#define GETALL 6
#define GETZCNT 7
#define SETVAL 8
#define SETALL 9
#define EIDRM 36

struct sembuf {
	short sem_num, sem_op, sem_flg;
};

struct semid_ds {
	long uid, gid, cuid, cgid, mode, seq, key, pad[4];
	void *base;
	unsigned short nsems;
	long otime, pad1, ctime, pad2, pad3[4];
};

static long semget(long key, long n, long flg) { return syscall(SYS_semsys, 1L, key, n, flg); }
static long semop(long id, struct sembuf *ops, long n) { return syscall(SYS_semsys, 2L, id, ops, n); }
static long semctl(long id, long num, long cmd, long arg)
{
	return syscall(SYS_semsys, 0L, id, num, cmd, arg);
}

static void report(const char *what, long r)
{
	if (r < 0)
		printf("%s: -1 %s\n", what, errno == EIDRM ? "EIDRM" : errno_name(errno));
	else
		printf("%s: %ld\n", what, r);
}

static long op1(long id, int num, int op, int flg)
{
	struct sembuf b;
	b.sem_num = num;
	b.sem_op = op;
	b.sem_flg = flg;
	return semop(id, &b, 1);
}

static void counter(void)
{
	long sem = semget(IPC_PRIVATE, 1, 0600);
	long shm = syscall(SYS_shmsys, 3L, 0L, 4096L, 0600L);
	volatile int *count = (volatile int *)syscall(SYS_shmsys, 0L, shm, 0L, 0L);
	int i, k, status;
	semctl(sem, 0, SETVAL, 1);
	for (k = 0; k < 4; k++) {
		if (fork() == 0) {
			for (i = 0; i < 25; i++) {
				int seen;
				op1(sem, 0, -1, SEM_UNDO);
				seen = *count;
				sginap(0); /* give the others a chance at the section */
				*count = seen + 1;
				op1(sem, 0, 1, SEM_UNDO);
			}
			_exit(0);
		}
	}
	for (k = 0; k < 4; k++)
		wait(&status);
	printf("four processes, 25 increments each: counter %d\n", *count);
	printf("semaphore value after: %ld\n", semctl(sem, 0, GETVAL, 0));
	semctl(sem, 0, IPC_RMID, 0);
	syscall(SYS_shmsys, 1L, shm, (long)IPC_RMID, 0L);
}

static void atomic_and_counts(void)
{
	long id = semget(IPC_PRIVATE, 2, 0600);
	struct sembuf both[2] = {{0, -1, 0}, {1, -1, 0}};
	unsigned short vals[2];
	int status;
	pid_t taker, zero;
	semctl(id, 0, SETVAL, 1);
	taker = fork();
	if (taker == 0) {
		long r = semop(id, both, 2);
		printf("taker: semop of both: %ld\n", r);
		_exit(0);
	}
	zero = fork();
	if (zero == 0) {
		long r = op1(id, 0, 0, 0);
		printf("zero waiter: semop(0) returned %ld\n", r);
		_exit(0);
	}
	sginap(2);
	printf("while the taker waits: semval[0] %ld (nothing applied), semncnt[1] %ld, semzcnt[0] %ld\n",
	       semctl(id, 0, GETVAL, 0), semctl(id, 1, GETNCNT, 0), semctl(id, 0, GETZCNT, 0));
	op1(id, 1, 1, 0);
	waitpid(taker, &status, 0);
	waitpid(zero, &status, 0);
	semctl(id, 0, GETALL, (long)vals);
	printf("GETALL after: %u %u, GETPID is the taker: %d\n", vals[0], vals[1],
	       semctl(id, 1, GETPID, 0) == taker);
	vals[0] = 7;
	vals[1] = 9;
	report("SETALL 7 9", semctl(id, 0, SETALL, (long)vals));
	printf("GETVAL 0 %ld, GETVAL 1 %ld\n", semctl(id, 0, GETVAL, 0), semctl(id, 1, GETVAL, 0));
	semctl(id, 0, IPC_RMID, 0);
}

static void undo(void)
{
	long id = semget(IPC_PRIVATE, 1, 0600);
	int status;
	semctl(id, 0, SETVAL, 1);
	if (fork() == 0) {
		op1(id, 0, -1, SEM_UNDO);
		printf("child holds the semaphore: value %ld, and exits\n", semctl(id, 0, GETVAL, 0));
		_exit(0);
	}
	wait(&status);
	printf("after the child's exit, SEM_UNDO gave it back: value %ld\n", semctl(id, 0, GETVAL, 0));
	if (fork() == 0) {
		op1(id, 0, -1, 0);
		_exit(0);
	}
	wait(&status);
	printf("without SEM_UNDO it stays taken: value %ld\n", semctl(id, 0, GETVAL, 0));
	semctl(id, 0, IPC_RMID, 0);
}

static void control_and_errors(void)
{
	struct semid_ds ds;
	struct sembuf many[11];
	long id = semget(0x5e4, 3, IPC_CREAT | 0600);
	int i, status;
	pid_t pid;
	semctl(id, 0, IPC_STAT, (long)&ds);
	printf("IPC_STAT: nsems %u mode 0%lo key 0x%lx uid %ld\n", ds.nsems, ds.mode, ds.key, ds.uid);
	report("semget of the key asking for 2 semaphores", semget(0x5e4, 2, 0));
	report("semget of the key asking for 4", semget(0x5e4, 4, 0));
	report("semget IPC_CREAT|IPC_EXCL", semget(0x5e4, 3, IPC_CREAT | IPC_EXCL | 0600));
	report("semget of a missing key", semget(0x5e5, 1, 0600));
	report("semget of 0 semaphores", semget(IPC_PRIVATE, 0, 0600));
	report("semget of 26 semaphores (over SEMMSL)", semget(IPC_PRIVATE, 26, 0600));
	report("semop IPC_NOWAIT that would wait", op1(id, 0, -1, IPC_NOWAIT));
	report("semop of sem_num 3 in a set of 3", op1(id, 3, 1, 0));
	for (i = 0; i < 11; i++) {
		many[i].sem_num = 0;
		many[i].sem_op = 1;
		many[i].sem_flg = 0;
	}
	report("semop of 11 operations (over SEMOPM)", semop(id, many, 11));
	report("semop from a bad address", semop(id, (struct sembuf *)16, 1));
	report("SETVAL 32768 (over SEMVMX)", semctl(id, 0, SETVAL, 32768));
	report("SETVAL 32767", semctl(id, 0, SETVAL, 32767));
	report("semop past SEMVMX", op1(id, 0, 1, 0));
	report("GETVAL of semnum 3", semctl(id, 3, GETVAL, 0));
	report("semctl of an unknown command", semctl(id, 0, 99, 0));
	report("IPC_STAT to a bad address", semctl(id, 0, IPC_STAT, 16));
	pid = fork();
	if (pid == 0) {
		long r = op1(id, 1, -1, 0);
		printf("child's waiting semop: %ld %s\n", r, r < 0 ? (errno == EIDRM ? "EIDRM" : errno_name(errno)) : "");
		_exit(0);
	}
	sginap(2);
	report("IPC_RMID", semctl(id, 0, IPC_RMID, 0));
	waitpid(pid, &status, 0);
	report("semop on the removed set", op1(id, 0, 1, 0));
}

static volatile int alarms;
static void on_alarm(int sig) { alarms++; (void)sig; }

static void interrupted(void)
{
	long id = semget(IPC_PRIVATE, 1, 0600), r;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, 0);
	syscall(1027L, 1L); /* alarm(1) */
	r = op1(id, 0, -1, 0);
	printf("semop waiting when SIGALRM is caught: %ld %s, semncnt after %ld, %d alarm\n", r,
	       r < 0 ? errno_name(errno) : "", semctl(id, 0, GETNCNT, 0), alarms);
	semctl(id, 0, IPC_RMID, 0);
}

int main(void)
{
	counter();
	atomic_and_counts();
	undo();
	control_and_errors();
	interrupted();
	return 0;
}
