/* sig_timers -- alarm, the three interval timers, and sleeps a signal
 * interrupts, each result printed as "name: value" or "name: -1 ERRNO"
 * (through libc's indirect syscall(nr, ...)). Every time is virtual, so
 * the output is the same on every run: tests/kernel_signals.rs holds it
 * and runs the program twice. */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <signal.h>
#include <unistd.h>
#include <sys/wait.h>

/* IRIX numbers (IRIX's <sys.s>). */
#define N_GETPID 1020
#define N_ALARM 1027
#define N_PAUSE 1029
#define N_TIMES 1043
#define N_NANOSLEEP 1077
#define N_SGINAP 1082
#define N_GETITIMER 1125
#define N_SETITIMER 1126
#define N_GETTIMEOFDAY 1128

#define ITIMER_REAL 0
#define ITIMER_VIRTUAL 1
#define ITIMER_PROF 2
#define SIGVTALRM 28
#define SIGPROF 29

struct itimerval {
	long interval_sec, interval_usec;
	long value_sec, value_usec;
};

static volatile int caught[32];

static void handler(int sig)
{
	caught[sig]++;
}

static void catch(int sig, int flags)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
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

static long now_ms(void)
{
	long tv[2];
	syscall(N_GETTIMEOFDAY, tv);
	return tv[0] * 1000 + tv[1] / 1000;
}

/* User plus system clock ticks so far (times(2)). */
static long cpu_ticks(int with_system)
{
	long t[4];
	syscall(N_TIMES, t);
	return t[0] + (with_system ? t[1] : 0);
}

static void set_timer(int which, long value_us, long interval_us)
{
	struct itimerval it = {interval_us / 1000000, interval_us % 1000000, value_us / 1000000,
			       value_us % 1000000};
	syscall(N_SETITIMER, which, &it, 0);
}

static void alarms(void)
{
	catch(SIGALRM, 0);
	/* alarm(2): "send the signal SIGALRM to the calling process after
	 * the number of real time seconds specified by sec"; pause(2):
	 * "with a return value of -1 from pause and errno set to EINTR". */
	long t0 = now_ms();
	show("alarm 1", syscall(N_ALARM, 1));
	show("pause", syscall(N_PAUSE));
	printf("pause woke after %ld ms, SIGALRM caught %d\n", now_ms() - t0, caught[SIGALRM]);
	/* "alarm returns the amount of time previously remaining". */
	syscall(N_ALARM, 5);
	sginap(100);
	show("alarm 0 after 1 s of 5", syscall(N_ALARM, 0));
	/* "Alarm requests are not stacked; successive calls reset the alarm
	 * clock". */
	syscall(N_ALARM, 10);
	show("alarm 2 replacing 10", syscall(N_ALARM, 2));
	t0 = now_ms();
	syscall(N_PAUSE);
	printf("the second alarm came after %ld ms\n", now_ms() - t0);
	/* "alarm calls reset the itimer clock": it is ITIMER_REAL. */
	syscall(N_ALARM, 3);
	struct itimerval it;
	show("getitimer REAL after alarm 3", syscall(N_GETITIMER, ITIMER_REAL, &it));
	printf("it_value %ld.%06ld it_interval %ld.%06ld\n", it.value_sec, it.value_usec,
	       it.interval_sec, it.interval_usec);
	syscall(N_ALARM, 0);
}

static void real_timer(void)
{
	caught[SIGALRM] = 0;
	long t0 = now_ms();
	/* getitimer(2): "If it_interval is non-zero, it specifies a value to
	 * be used in reloading it_value when the timer expires". */
	set_timer(ITIMER_REAL, 100000, 100000);
	while (caught[SIGALRM] < 5)
		syscall(N_PAUSE);
	printf("ITIMER_REAL 100 ms x5 after %ld ms\n", now_ms() - t0);
	struct itimerval it, old;
	memset(&it, 0, sizeof it);
	show("setitimer 0 disarms", syscall(N_SETITIMER, ITIMER_REAL, &it, &old));
	printf("old it_interval %ld.%06ld\n", old.interval_sec, old.interval_usec);
	show("getitimer disarmed", syscall(N_GETITIMER, ITIMER_REAL, &it));
	printf("it_value %ld.%06ld\n", it.value_sec, it.value_usec);
	/* "Time values that are not a multiple of 1/HZ will be rounded up a
	 * multiple." */
	set_timer(ITIMER_REAL, 0, 0);
	struct itimerval odd = {0, 15001, 0, 250000};
	syscall(N_SETITIMER, ITIMER_REAL, &odd, 0);
	syscall(N_GETITIMER, ITIMER_REAL, &it);
	printf("15.001 ms interval reads %ld.%06ld\n", it.interval_sec, it.interval_usec);
	set_timer(ITIMER_REAL, 0, 0);
	struct itimerval bad = {0, 1000000, 1, 0};
	show("setitimer usec 1000000", syscall(N_SETITIMER, ITIMER_REAL, &bad, 0));
	show("setitimer which 3", syscall(N_SETITIMER, 3, &it, 0));
	show("getitimer which -1", syscall(N_GETITIMER, -1, &it));
	show("setitimer bad value", syscall(N_SETITIMER, ITIMER_REAL, (void *)8, 0));
	show("getitimer bad value", syscall(N_GETITIMER, ITIMER_REAL, (void *)8));
}

/* Spins until `n` signals `sig` have come; returns the loop count. */
static long spin(int sig, int n, int with_syscalls)
{
	long loops = 0;
	while (caught[sig] < n) {
		loops++;
		if (with_syscalls)
			syscall(N_GETPID);
	}
	return loops;
}

static void cpu_timers(void)
{
	/* "The ITIMER_VIRTUAL timer decrements in process virtual time. It
	 * runs only when the process is executing." */
	catch(SIGVTALRM, 0);
	long u0 = cpu_ticks(0);
	set_timer(ITIMER_VIRTUAL, 10000, 10000);
	spin(SIGVTALRM, 20, 0);
	set_timer(ITIMER_VIRTUAL, 0, 0);
	printf("ITIMER_VIRTUAL 10 ms: 20 SIGVTALRM in %ld user ticks\n", cpu_ticks(0) - u0);
	/* "The ITIMER_PROF timer decrements both in process virtual time and
	 * when the system is running on behalf of the process." */
	catch(SIGPROF, 0);
	long c0 = cpu_ticks(1);
	set_timer(ITIMER_PROF, 10000, 10000);
	spin(SIGPROF, 20, 1);
	set_timer(ITIMER_PROF, 0, 0);
	printf("ITIMER_PROF 10 ms: 20 SIGPROF in %ld user+system ticks\n", cpu_ticks(1) - c0);
	/* A sleeping process uses no virtual time: 30 ticks of sleep with
	 * a 10 ms ITIMER_VIRTUAL armed send nothing. */
	caught[SIGVTALRM] = 0;
	set_timer(ITIMER_VIRTUAL, 10000, 10000);
	sginap(30);
	set_timer(ITIMER_VIRTUAL, 0, 0);
	printf("SIGVTALRM while asleep: %d\n", caught[SIGVTALRM]);
}

static void interrupted_sleeps(void)
{
	/* nanosleep(2): "If, however, the process is interrupted prematurely
	 * by a signal, it returns -1 ... the timespec structure referenced by
	 * it contains the amount of time remaining". */
	long req[2] = {5, 0}, rem[2] = {-1, -1};
	syscall(N_ALARM, 1);
	show("nanosleep 5 s, alarm 1 s", syscall(N_NANOSLEEP, req, rem));
	printf("nanosleep remaining %ld ms\n", rem[0] * 1000 + rem[1] / 1000000);
	/* sginap(2): "it returns the number of unexpired ticks". */
	syscall(N_ALARM, 1);
	show("sginap 500, alarm 1 s", syscall(N_SGINAP, 500));
	/* read(2): "EINTR A signal was caught during the read". */
	int fds[2];
	pipe(fds);
	char c;
	syscall(N_ALARM, 1);
	show("read empty pipe, alarm 1 s", read(fds[0], &c, 1));
	/* With SA_RESTART the read is made again after the handler and ends
	 * when a child writes, 2 s later. */
	catch(SIGALRM, SA_RESTART);
	caught[SIGALRM] = 0;
	pid_t child = fork();
	if (child == 0) {
		sginap(200);
		write(fds[1], "r", 1);
		_exit(0);
	}
	syscall(N_ALARM, 1);
	show("read, SA_RESTART alarm 1 s, writer at 2 s", read(fds[0], &c, 1));
	printf("read got '%c' after %d SIGALRM\n", c, caught[SIGALRM]);
	int status;
	waitpid(child, &status, 0);
	close(fds[0]);
	close(fds[1]);
	/* alarm(2): "fork sets the alarm clock of a new process to 0". */
	syscall(N_ALARM, 7);
	child = fork();
	if (child == 0) {
		printf("child's alarm clock: %ld\n", syscall(N_ALARM, 0));
		_exit(0);
	}
	waitpid(child, &status, 0);
	syscall(N_ALARM, 0);
}

int main(void)
{
	alarms();
	real_timer();
	cpu_timers();
	interrupted_sleeps();
	/* An alarm whose SIGALRM is not caught ends the process. */

	{
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sigaction(SIGALRM, &sa, 0);
	}
	syscall(N_ALARM, 1);
	for (;;)
		syscall(N_PAUSE);
}
