/* ipc_msg -- System V message queues, as IRIX msgget(2), msgop(2) and
 * msgctl(2) describe them (msgsys 1049: 0 msgget, 1 msgctl, 2 msgrcv,
 * 3 msgsnd).
 *  1. A producer child sends numbered messages, the parent consumes them;
 *     a receiver blocked on an empty queue wakes when a message comes.
 *  2. msgrcv's type selection (0, positive, negative), MSG_NOERROR.
 *  3. msgctl IPC_STAT, IPC_SET, IPC_RMID; a waiter sees EIDRM.
 *  4. Each error the pages list; a caught signal ends a waiting msgrcv
 *     with EINTR.
 * Expected output: tests/all/kernel_ipc.rs. */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <signal.h>
#include <sys/wait.h>

#define SYS_msgsys 1049
#define IPC_PRIVATE 0
#define IPC_CREAT 01000
#define IPC_EXCL 02000
#define IPC_NOWAIT 04000
#define IPC_RMID 10
#define IPC_SET 11
#define IPC_STAT 12
#define MSG_NOERROR 010000
#define ENOMSG 35
#define EIDRM 36

struct msqid_ds {
	long uid, gid, cuid, cgid, mode, seq, key, pad[4];
	void *first, *last;
	unsigned long cbytes, qnum, qbytes;
	long lspid, lrpid, stime, pad1, rtime, pad2, ctime, pad3;
	short cv, qnum_cv;
	long pad4[3];
};

struct mymsg {
	long mtype;
	char mtext[64];
};

static long msgget(long key, long flg) { return syscall(SYS_msgsys, 0L, key, flg); }
static long msgctl(long id, long cmd, void *buf) { return syscall(SYS_msgsys, 1L, id, cmd, buf); }
static long msgrcv(long id, void *p, long sz, long typ, long flg)
{
	return syscall(SYS_msgsys, 2L, id, p, sz, typ, flg);
}
static long msgsnd(long id, const void *p, long sz, long flg)
{
	return syscall(SYS_msgsys, 3L, id, p, sz, flg);
}

static const char *err(int e)
{
	if (e == ENOMSG)
		return "ENOMSG";
	if (e == EIDRM)
		return "EIDRM";
	return errno_name(e);
}

static void report(const char *what, long r)
{
	if (r < 0)
		printf("%s: -1 %s\n", what, err(errno));
	else
		printf("%s: %ld\n", what, r);
}

static long send_text(long id, long type, const char *text, long flg)
{
	struct mymsg m;
	m.mtype = type;
	strcpy(m.mtext, text);
	return msgsnd(id, &m, strlen(text), flg);
}

static void producer_consumer(void)
{
	long id = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	struct mymsg m;
	int i, status;
	pid_t pid = fork();
	if (pid == 0) {
		char text[16];
		for (i = 1; i <= 5; i++) {
			sprintf(text, "item %d", i);
			send_text(id, 1, text, 0);
			sginap(1);
		}
		send_text(id, 2, "done", 0);
		_exit(0);
	}
	for (;;) {
		long n = msgrcv(id, &m, sizeof m.mtext, 0, 0);
		m.mtext[n] = 0;
		printf("consumer got type %ld: %s (%ld bytes)\n", m.mtype, m.mtext, n);
		if (m.mtype == 2)
			break;
	}
	waitpid(pid, &status, 0);
	report("msgctl IPC_RMID", msgctl(id, IPC_RMID, 0));
}

static void selection(void)
{
	long id = msgget(IPC_PRIVATE, 0600);
	struct mymsg m;
	long n;
	send_text(id, 3, "three", 0);
	send_text(id, 1, "one", 0);
	send_text(id, 2, "two", 0);
	send_text(id, 1, "one again", 0);
	n = msgrcv(id, &m, 64, 2, 0);
	printf("msgtyp 2 receives type %ld \"%.*s\"\n", m.mtype, (int)n, m.mtext);
	n = msgrcv(id, &m, 64, -3, 0);
	printf("msgtyp -3 receives type %ld \"%.*s\"\n", m.mtype, (int)n, m.mtext);
	n = msgrcv(id, &m, 64, 0, 0);
	printf("msgtyp 0 receives type %ld \"%.*s\"\n", m.mtype, (int)n, m.mtext);
	report("msgrcv of a 9-byte message into 3 bytes", msgrcv(id, &m, 3, 0, 0));
	n = msgrcv(id, &m, 3, 0, MSG_NOERROR);
	printf("with MSG_NOERROR: %ld bytes \"%.*s\"\n", n, (int)n, m.mtext);
	report("msgrcv IPC_NOWAIT on an empty queue", msgrcv(id, &m, 64, 0, IPC_NOWAIT));
	report("msgrcv IPC_NOWAIT of an absent type", (send_text(id, 5, "five", 0),
		msgrcv(id, &m, 64, 4, IPC_NOWAIT)));
	msgctl(id, IPC_RMID, 0);
}

static void control(void)
{
	struct msqid_ds ds;
	long id = msgget(0x1234, IPC_CREAT | 0640);
	send_text(id, 1, "abc", 0);
	send_text(id, 1, "defgh", 0);
	msgctl(id, IPC_STAT, &ds);
	printf("IPC_STAT: uid %ld gid %ld mode 0%lo key 0x%lx qnum %lu cbytes %lu qbytes %lu lspid-is-me %d\n",
	       ds.uid, ds.gid, ds.mode, ds.key, ds.qnum, ds.cbytes, ds.qbytes, ds.lspid == getpid());
	report("msgget of the same key", msgget(0x1234, 0));
	report("msgget with IPC_CREAT|IPC_EXCL of an existing key", msgget(0x1234, IPC_CREAT | IPC_EXCL | 0600));
	report("msgget asking for more permission than the mode", msgget(0x1234, 0666));
	report("msgget of a key without a queue and no IPC_CREAT", msgget(0x4321, 0600));
	ds.qbytes = 8;
	ds.mode = 0600;
	report("IPC_SET lowering msg_qbytes to 8", msgctl(id, IPC_SET, &ds));
	msgctl(id, IPC_STAT, &ds);
	printf("now mode 0%lo qbytes %lu\n", ds.mode, ds.qbytes);
	report("msgsnd past msg_qbytes with IPC_NOWAIT", send_text(id, 1, "x", IPC_NOWAIT));
	ds.qbytes = 100000;
	report("IPC_SET raising msg_qbytes", msgctl(id, IPC_SET, &ds));
	report("msgctl of an unknown command", msgctl(id, 99, &ds));
	report("msgctl IPC_STAT to a bad address", msgctl(id, IPC_STAT, (void *)16));
	report("msgctl IPC_RMID", msgctl(id, IPC_RMID, 0));
	report("msgsnd to the removed queue", send_text(id, 1, "x", 0));
	report("msgctl of an identifier never made", msgctl(99999, IPC_STAT, &ds));
}

static void errors(void)
{
	long id = msgget(IPC_PRIVATE, 0600);
	struct mymsg m;
	static char big[16385 + 4];
	report("msgsnd with mtype 0", (m.mtype = 0, msgsnd(id, &m, 1, 0)));
	report("msgsnd of a negative size", (m.mtype = 1, msgsnd(id, &m, -1, 0)));
	((long *)big)[0] = 1;
	report("msgsnd of 16385 bytes (over MSGMAX)", msgsnd(id, big, 16385, 0));
	report("msgsnd of 16384 bytes", msgsnd(id, big, 16384, IPC_NOWAIT));
	report("msgsnd from a bad address", msgsnd(id, (void *)16, 4, 0));
	report("msgrcv of a negative size", msgrcv(id, &m, -1, 0, 0));
	report("msgrcv into a bad address", msgrcv(id, (void *)16, 16384, 0, 0));
	report("the message is still there: msgrcv", msgrcv(id, big, 16384, 0, 0));
	msgctl(id, IPC_RMID, 0);
}

static void removed_while_waiting(void)
{
	long id = msgget(IPC_PRIVATE, 0600);
	struct mymsg m;
	int status;
	pid_t pid = fork();
	if (pid == 0) {
		long r = msgrcv(id, &m, 64, 0, 0);
		printf("child's waiting msgrcv: %ld %s\n", r, r < 0 ? err(errno) : "");
		_exit(0);
	}
	sginap(2);
	msgctl(id, IPC_RMID, 0);
	waitpid(pid, &status, 0);
}

static void on_alarm(int sig) { (void)sig; }

static void interrupted(void)
{
	long id = msgget(IPC_PRIVATE, 0600), r;
	struct mymsg m;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, 0);
	syscall(1027L, 1L); /* alarm(1) */
	r = msgrcv(id, &m, 64, 0, 0);
	printf("msgrcv waiting when SIGALRM is caught: %ld %s\n", r, r < 0 ? err(errno) : "");
	msgctl(id, IPC_RMID, 0);
}

int main(void)
{
	producer_consumer();
	selection();
	control();
	errors();
	removed_while_waiting();
	interrupted();
	return 0;
}
