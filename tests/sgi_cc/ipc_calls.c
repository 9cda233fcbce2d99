/* ipc_calls -- compiled by SGI's IDO 5.3 cc and linked with SGI's
 * libc.so.1 (tests/all/irix_root_ipc.rs): System V IPC through libc's
 * msgget/msgsnd/msgrcv/msgctl, semget/semop/semctl and
 * shmget/shmat/shmdt/shmctl, as msgop(2), semop(2), shmop(2) and their
 * get and ctl pages describe them, one "name: value" line per check. The
 * IRIX 5.3 root holds no <sys/ipc.h>, <sys/msg.h>, <sys/sem.h> or
 * <sys/shm.h>, so the structures and constants are declared here with
 * IRIX's values (docs/abi.md, docs/ipc.md). Errors print as "-1 NAME". */
#include <stdio.h>
#include <string.h>

extern int errno;

struct ipc_perm { long uid, gid, cuid, cgid, mode, seq, key, pad[4]; };
struct msqid_ds {
	struct ipc_perm perm;
	void *first, *last;
	unsigned long cbytes, qnum, qbytes;
	long lspid, lrpid, stime, pad1, rtime, pad2, ctime, pad3, pad4[4];
};
struct shmid_ds {
	struct ipc_perm perm;
	int segsz;
	void *amp;
	short lkcnt;
	char pad0[2];
	long lpid, cpid;
	unsigned long nattch, cnattch;
	long atime, pad1, dtime, pad2, ctime, pad3, pad4[4];
};
struct sembuf { unsigned short num; short op; short flg; };
struct message { long type; char text[32]; };

int msgget(long, int), msgsnd(int, const void *, unsigned, int);
int msgrcv(int, void *, unsigned, long, int), msgctl(int, int, struct msqid_ds *);
int semget(long, int, int), semop(int, struct sembuf *, unsigned), semctl(int, int, int, ...);
int shmget(long, int, int), shmdt(void *), shmctl(int, int, struct shmid_ds *);
void *shmat(int, void *, int);
int fork(void), wait(int *), getpid(void), mprotect(void *, unsigned, int);
long sginap(long);
void _exit(int);

#define IPC_PRIVATE 0
#define IPC_CREAT 01000
#define IPC_EXCL 02000
#define IPC_NOWAIT 04000
#define IPC_RMID 10
#define IPC_SET 11
#define IPC_STAT 12
#define MSG_NOERROR 010000
#define GETNCNT 3
#define GETVAL 5
#define GETALL 6
#define SETVAL 8
#define SETALL 9
#define SEM_UNDO 010000
#define PROT_READ 1

static const char *name(int e)
{
	switch (e) {
	case 2: return "ENOENT";
	case 7: return "E2BIG";
	case 11: return "EAGAIN";
	case 13: return "EACCES";
	case 17: return "EEXIST";
	case 22: return "EINVAL";
	case 35: return "ENOMSG";
	case 36: return "EIDRM";
	}
	return "another errno";
}

static void report(const char *what, long r)
{
	if (r == -1)
		printf("%s: -1 %s\n", what, name(errno));
	else
		printf("%s: %ld\n", what, r);
}

static void send(int q, long type, const char *text)
{
	struct message m;
	m.type = type;
	strcpy(m.text, text);
	if (msgsnd(q, &m, strlen(text) + 1, 0) != 0)
		printf("msgsnd %s: -1 %s\n", text, name(errno));
}

static void receive(const char *what, int q, long type, int flags)
{
	struct message m;
	int n = msgrcv(q, &m, sizeof m.text, type, flags);
	if (n < 0)
		printf("%s: -1 %s\n", what, name(errno));
	else
		printf("%s: type %ld \"%s\" (%d bytes)\n", what, m.type, m.text, n);
}

static void messages(void)
{
	struct msqid_ds ds;
	struct message m;
	int q = msgget(IPC_PRIVATE, 0600), keyed, st;
	printf("msgget IPC_PRIVATE: %s\n", q >= 0 ? "an identifier" : name(errno));
	send(q, 2, "two");
	send(q, 1, "one");
	send(q, 3, "three");
	msgctl(q, IPC_STAT, &ds);
	printf("msgctl IPC_STAT: msg_qnum %lu msg_cbytes %lu lspid-is-me %d\n", ds.qnum, ds.cbytes,
	       ds.lspid == getpid());
	receive("msgrcv msgtyp 1", q, 1, 0);
	receive("msgrcv msgtyp -3", q, -3, 0);
	m.type = 0;
	report("msgrcv of a longer message", msgrcv(q, &m, 2, 0, 0));
	receive("msgrcv MSG_NOERROR", q, 0, MSG_NOERROR);
	receive("msgrcv IPC_NOWAIT on an empty queue", q, 0, IPC_NOWAIT);
	if (fork() == 0) {
		send(q, 7, "from the child");
		_exit(0);
	}
	receive("msgrcv waiting for the child", q, 7, 0);
	wait(&st);
	if (fork() == 0) {
		receive("msgrcv waiting when the queue is removed", q, 0, 0);
		_exit(0);
	}
	sginap(10); /* the child waits in msgrcv meanwhile */
	report("msgctl IPC_RMID", msgctl(q, IPC_RMID, 0));
	wait(&st);
	keyed = msgget(0x5301, IPC_CREAT | 0600);
	report("msgget IPC_CREAT|IPC_EXCL of an existing key", msgget(0x5301, IPC_CREAT | IPC_EXCL | 0600));
	report("msgget of a missing key", msgget(0x5302, 0600));
	msgctl(keyed, IPC_RMID, 0);
}

static void semaphores(void)
{
	struct sembuf op;
	unsigned short all[2];
	int s = semget(IPC_PRIVATE, 2, 0600), st;
	printf("semget IPC_PRIVATE, 2 semaphores: %s\n", s >= 0 ? "an identifier" : name(errno));
	report("semctl SETVAL 1", semctl(s, 0, SETVAL, 1));
	op.num = 0, op.op = -1, op.flg = 0;
	report("semop -1", semop(s, &op, 1));
	report("semctl GETVAL", semctl(s, 0, GETVAL));
	op.flg = IPC_NOWAIT;
	report("semop -1 IPC_NOWAIT at 0", semop(s, &op, 1));
	all[0] = 4, all[1] = 5;
	report("semctl SETALL 4 5", semctl(s, 0, SETALL, all));
	all[0] = all[1] = 0;
	semctl(s, 0, GETALL, all);
	printf("semctl GETALL: %u %u\n", all[0], all[1]);
	semctl(s, 0, SETVAL, 0);
	if (fork() == 0) {
		op.num = 0, op.op = 1, op.flg = 0;
		semop(s, &op, 1);
		_exit(0);
	}
	op.num = 0, op.op = -1, op.flg = 0;
	report("semop waiting for the child's +1", semop(s, &op, 1));
	wait(&st);
	if (fork() == 0) {
		op.num = 1, op.op = -10, op.flg = 0;
		semctl(s, 1, SETVAL, 0);
		report("semop waiting when the set is removed", semop(s, &op, 1));
		_exit(0);
	}
	while (semctl(s, 1, GETNCNT) != 1)
		;
	report("semctl GETNCNT with the child waiting", semctl(s, 1, GETNCNT));
	report("semctl IPC_RMID", semctl(s, 0, IPC_RMID));
	wait(&st);
	op.num = 0, op.op = 1, op.flg = 0;
	report("semop on the removed set", semop(s, &op, 1));
	report("semget of 0 semaphores", semget(IPC_PRIVATE, 0, 0600));
}

static void shared_memory(void)
{
	struct shmid_ds ds;
	int m = shmget(0x5303, 8192, IPC_CREAT | 0600), st;
	char *p = shmat(m, 0, 0);
	printf("shmget and shmat: %s\n", p != (char *)-1 ? "attached" : name(errno));
	printf("a new segment reads zero: %d\n", p[0] + p[8191]);
	strcpy(p, "parent");
	if (fork() == 0) {
		strcpy(p + 4096, "child");
		_exit(0);
	}
	wait(&st);
	printf("the child's store is seen: %s\n", p + 4096);
	report("mprotect the second page read-only", mprotect(p + 4096, 4096, PROT_READ));
	shmctl(m, IPC_STAT, &ds);
	printf("shmctl IPC_STAT: shm_segsz %d shm_nattch %lu cpid-is-me %d\n", ds.segsz, ds.nattch,
	       ds.cpid == getpid());
	report("shmget IPC_CREAT|IPC_EXCL of an existing key", shmget(0x5303, 8192, IPC_CREAT | IPC_EXCL | 0600));
	report("shmget of a larger size", shmget(0x5303, 9000, 0600));
	report("shmdt of the second page", shmdt(p + 4096));
	report("shmdt", shmdt(p));
	shmctl(m, IPC_STAT, &ds);
	printf("shm_nattch after shmdt: %lu\n", ds.nattch);
	report("shmctl IPC_RMID", shmctl(m, IPC_RMID, 0));
	report("shmctl IPC_STAT of the removed id", shmctl(m, IPC_STAT, &ds));
}

int main(void)
{
	setbuf(stdout, 0); /* children print too, and leave by _exit */
	messages();
	semaphores();
	shared_memory();
	printf("done\n");
	return 0;
}
