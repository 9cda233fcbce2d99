/* sig_calls -- sigpending, sigsuspend, pause woken by another process,
 * sigaltstack and sigsendset, each result printed as "name: value" or
 * "name: -1 ERRNO" (through libc's indirect syscall(nr, ...)). The
 * expected output is in tests/kernel_signals.rs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <signal.h>
#include <unistd.h>
#include <sys/wait.h>

/* IRIX numbers (IRIX's <sys.s>) and syssgi's SGI_SIGALTSTACK. */
#define N_ALARM 1027
#define N_PAUSE 1029
#define N_SYSSGI 1040
#define N_SIGPENDING 1163
#define N_SIGSUSPEND 1165
#define N_SIGALTSTACK 1172
#define N_SIGSENDSET 1173
#define SGI_SIGALTSTACK 60

#define SS_ONSTACK 1
#define SS_DISABLE 2
#define SIGSTKSZ 8192

/* <sys/procset.h> */
#define P_PID 0
#define P_PGID 2
#define P_ALL 7
#define P_MYID (-1)
#define POP_DIFF 0
#define POP_AND 1
#define POP_OR 2

typedef struct {
	char *ss_sp;
	int ss_size;
	int ss_flags;
} stack_t;

typedef struct {
	int p_op;
	int p_lidtype;
	long p_lid;
	int p_ridtype;
	long p_rid;
} procset_t;

static volatile int caught[32];
static char *volatile handler_sp;
static volatile long handler_flags = -1, handler_change = -1;
static volatile int try_change = 1;

static void handler(int sig)
{
	caught[sig]++;
}

static void on_alt(int sig)
{
	char here;
	stack_t now;
	caught[sig]++;
	handler_sp = &here;
	syscall(N_SIGALTSTACK, 0, &now);
	handler_flags = now.ss_flags;
	if (try_change) {
		stack_t other = {0, SIGSTKSZ, 0};
		handler_change = syscall(N_SIGALTSTACK, &other, 0) == -1 ? errno : 0;
		try_change = 0;
	}
}

static void catch(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	sigaction(sig, &sa, 0);
}

static void show(const char *name, long r)
{
	if (r == -1)
		printf("%s: -1 %s\n", name, errno_name(errno));
	else
		printf("%s: %ld\n", name, r);
}

static int sigsend(int idtype, long id, int sig)
{
	procset_t ps = {POP_AND, idtype, id, P_ALL, P_MYID};
	return syscall(N_SIGSENDSET, &ps, sig);
}

static void pending_and_suspend(void)
{
	catch(SIGUSR1, handler, 0);
	catch(SIGALRM, handler, 0);
	sigset_t set, old, pend;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	kill(getpid(), SIGUSR1);
	/* sigpending(2): "returns the set of signals pending for the calling
	 * process (i.e., blocked from delivery)". */
	show("sigpending", syscall(N_SIGPENDING, &pend));
	printf("SIGUSR1 pending %d, SIGUSR2 pending %d, caught %d\n", sigismember(&pend, SIGUSR1),
	       sigismember(&pend, SIGUSR2), caught[SIGUSR1]);
	sigprocmask(SIG_SETMASK, &old, 0);
	printf("unblocked: caught %d\n", caught[SIGUSR1]);
	show("sigpending bad pointer", syscall(N_SIGPENDING, (void *)8));

	/* sigsuspend(2): "replaces the process's set of masked signals with
	 * the set pointed to by maskptr and then waits for a signal ...
	 * always terminates by being interrupted, returning -1 with errno set
	 * to EINTR", the original mask restored. */
	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	sigprocmask(SIG_BLOCK, &set, &old);
	syscall(N_ALARM, 1);
	sigset_t none;
	sigemptyset(&none);
	show("sigsuspend", syscall(N_SIGSUSPEND, &none));
	sigset_t after;
	sigprocmask(SIG_BLOCK, 0, &after);
	printf("SIGALRM caught %d, blocked again %d\n", caught[SIGALRM], sigismember(&after, SIGALRM));
	sigprocmask(SIG_SETMASK, &old, 0);
	show("sigsuspend bad pointer", syscall(N_SIGSUSPEND, (void *)8));

	/* pause(2) ended by another process's kill. */
	caught[SIGUSR1] = 0;
	pid_t parent = getpid();
	pid_t child = fork();
	if (child == 0) {
		sginap(20);
		kill(parent, SIGUSR1);
		_exit(0);
	}
	show("pause until the child's SIGUSR1", syscall(N_PAUSE));
	printf("SIGUSR1 caught %d\n", caught[SIGUSR1]);
	int status;
	waitpid(child, &status, 0);
}

static void alternate_stack(void)
{
	char *base = malloc(SIGSTKSZ);
	stack_t ss = {base + SIGSTKSZ - 1, SIGSTKSZ, 0}, old;
	/* sigaltstack(2): "ss_sp field should be adjusted for the direction
	 * of growth" (the page's example adds SIGSTKSZ - 1 to the base). */
	show("sigaltstack", syscall(N_SIGALTSTACK, &ss, &old));
	printf("before: flags %d\n", old.ss_flags);
	catch(SIGUSR2, on_alt, SA_ONSTACK);
	kill(getpid(), SIGUSR2);
	printf("handler ran on the alternate stack: %d\n",
	       handler_sp >= base && handler_sp < base + SIGSTKSZ);
	printf("in the handler: flags %ld (SS_ONSTACK), changing it: %s\n", handler_flags,
	       errno_name(handler_change));
	/* Without SA_ONSTACK the handler runs on the normal stack. */
	catch(SIGUSR2, on_alt, 0);
	kill(getpid(), SIGUSR2);
	printf("without SA_ONSTACK on the alternate stack: %d\n",
	       handler_sp >= base && handler_sp < base + SIGSTKSZ);
	show("sigaltstack query", syscall(N_SIGALTSTACK, 0, &old));
	printf("ss_size %d, ss_sp is the top %d, flags %d\n", old.ss_size,
	       old.ss_sp == base + SIGSTKSZ - 1, old.ss_flags);
	stack_t small = {base + 99, 100, 0};
	show("sigaltstack smaller than MINSIGSTKSZ", syscall(N_SIGALTSTACK, &small, 0));
	stack_t flags = {base, SIGSTKSZ, 4};
	show("sigaltstack bad flags", syscall(N_SIGALTSTACK, &flags, 0));
	show("sigaltstack bad ss", syscall(N_SIGALTSTACK, (void *)8, 0));
	stack_t off = {0, 0, SS_DISABLE};
	/* IRIX 5.3's libc makes the call as syssgi(SGI_SIGALTSTACK, ...). */
	show("syssgi SGI_SIGALTSTACK disable", syscall(N_SYSSGI, SGI_SIGALTSTACK, &off, 0));
	syscall(N_SIGALTSTACK, 0, &old);
	printf("after: flags %d\n", old.ss_flags);
	free(base);
}

static void send_sets(void)
{
	caught[SIGUSR1] = 0;
	/* sigsend(2): "If idtype is P_PID, sig is sent to the process with
	 * process ID id"; "If id is P_MYID, the value of id is taken from the
	 * calling process". */
	show("sigsend P_PID self", sigsend(P_PID, getpid(), SIGUSR1));
	show("sigsend P_PID P_MYID", sigsend(P_PID, P_MYID, SIGUSR1));
	printf("SIGUSR1 caught %d\n", caught[SIGUSR1]);
	show("sigsend null signal", sigsend(P_PID, getpid(), 0));
	pid_t child = fork();
	if (child == 0) {
		for (;;)
			syscall(N_PAUSE);
	}
	show("sigsend SIGTERM to the child", sigsend(P_PID, child, SIGTERM));
	int status;
	waitpid(child, &status, 0);
	printf("child killed by signal %d\n", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	/* The difference of the run's group and the caller: nobody else. */
	procset_t others = {POP_DIFF, P_PGID, P_MYID, P_PID, P_MYID};
	show("sigsendset group minus self", syscall(N_SIGSENDSET, &others, SIGUSR1));
	procset_t both = {POP_OR, P_PID, P_MYID, P_PID, 99999};
	show("sigsendset self or 99999", syscall(N_SIGSENDSET, &both, 0));
	show("sigsend no such process", sigsend(P_PID, 99999, SIGUSR1));
	show("sigsend bad signal", sigsend(P_PID, getpid(), 100));
	show("sigsend bad idtype", sigsend(42, 0, SIGUSR1));
	show("sigsend SIGKILL to process 1", sigsend(P_PID, 1, SIGKILL));
	procset_t badop = {9, P_PID, P_MYID, P_ALL, 0};
	show("sigsendset bad operation", syscall(N_SIGSENDSET, &badop, SIGUSR1));
	show("sigsendset bad pointer", syscall(N_SIGSENDSET, (void *)8, SIGUSR1));
}

int main(void)
{
	pending_and_suspend();
	alternate_stack();
	send_sets();
	return 0;
}
