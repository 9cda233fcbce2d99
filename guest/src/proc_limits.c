/* proc_limits -- getrlimit(2)/setrlimit(2) and the limits the kernel
 * enforces: RLIMIT_NOFILE (EMFILE), RLIMIT_FSIZE (a write past it: SIGXFSZ,
 * then EFBIG while SIGXFSZ is ignored; a write across it stops at it),
 * RLIMIT_DATA (brk: ENOMEM), RLIMIT_CPU (SIGXCPU at the soft limit, on
 * virtual time) and its hard limit (SIGKILL), the hard limit's rules
 * (EINVAL, EPERM), and the 64-bit forms. Expected output, killed by
 * SIGKILL at 3 s of CPU time: see tests/kernel_proc.rs. */
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#define SYS_getrlimit64 1075
#define SYS_setrlimit64 1076
#define SYS_getrlimit 1148
#define SYS_setrlimit 1149
#define RLIMIT_CPU 0
#define RLIMIT_FSIZE 1
#define RLIMIT_DATA 2
#define RLIMIT_NOFILE 5
#define SIGXCPU 30
#define SIGXFSZ 31
#define EFBIG 27

struct rlimit { unsigned long cur, max; };
struct rlimit64 { unsigned long long cur, max; };

static volatile int xfsz, xcpu;
static void on_xfsz(int sig) { xfsz++; }
static void on_xcpu(int sig) { xcpu++; }

/* signal(2) over sigaction: the handler stays installed. */
static void on(int sig, sighandler_t h)
{
	struct sigaction sa;
	sa.sa_flags = 0;
	sa.sa_handler = h;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, 0);
}

static const char *err(void)
{
	return errno == EFBIG ? "EFBIG" : errno_name(errno);
}

static void show(const char *what, long r)
{
	if (r < 0)
		printf("%s: %s\n", what, err());
	else
		printf("%s: %ld\n", what, r);
}

int main(void)
{
	struct rlimit rl;
	struct rlimit64 rl64;
	int fd, i, last = -1;
	volatile unsigned long spin = 0;

	show("getrlimit(NOFILE)", syscall(SYS_getrlimit, RLIMIT_NOFILE, (long)&rl));
	printf("NOFILE %lu %lu\n", rl.cur, rl.max);
	show("getrlimit(FSIZE)", syscall(SYS_getrlimit, RLIMIT_FSIZE, (long)&rl));
	printf("FSIZE %lx %lx\n", rl.cur, rl.max);
	show("getrlimit(99)", syscall(SYS_getrlimit, 99, (long)&rl));
	show("getrlimit(bad pointer)", syscall(SYS_getrlimit, RLIMIT_NOFILE, 8));

	rl.cur = 6; rl.max = 100;
	show("setrlimit(NOFILE, 6, 100)", syscall(SYS_setrlimit, RLIMIT_NOFILE, (long)&rl));
	for (i = 0; i < 10; i++) {
		fd = open("/dev/null", O_RDONLY);
		if (fd < 0)
			break;
		last = fd;
	}
	printf("opened up to descriptor %d, then %s\n", last, err());
	rl.cur = 200; rl.max = 200;
	show("setrlimit(NOFILE) above the hard limit", syscall(SYS_setrlimit, RLIMIT_NOFILE, (long)&rl));
	rl.cur = 101; rl.max = 100;
	show("setrlimit(NOFILE) soft above hard", syscall(SYS_setrlimit, RLIMIT_NOFILE, (long)&rl));
	rl.cur = 100; rl.max = 100;
	show("setrlimit(NOFILE, 100, 100)", syscall(SYS_setrlimit, RLIMIT_NOFILE, (long)&rl));
	show("open now", open("/dev/null", O_RDONLY) > 0 ? 0 : -1);

	on(SIGXFSZ, on_xfsz);
	rl.cur = 10; rl.max = 0x7fffffff;
	show("setrlimit(FSIZE, 10)", syscall(SYS_setrlimit, RLIMIT_FSIZE, (long)&rl));
	fd = open("limits.out", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	show("write 6", write(fd, "abcdef", 6));
	show("write 6 across the limit", write(fd, "ghijkl", 6));
	show("write at the limit", write(fd, "m", 1));
	printf("SIGXFSZ caught %d time(s)\n", xfsz);
	on(SIGXFSZ, SIG_IGN);
	show("write at the limit, SIGXFSZ ignored", write(fd, "m", 1));
	printf("SIGXFSZ caught %d time(s)\n", xfsz);
	close(fd);

	rl.cur = 64 << 10; rl.max = 64 << 10;
	show("setrlimit(DATA, 64 KiB)", syscall(SYS_setrlimit, RLIMIT_DATA, (long)&rl));
	printf("sbrk(32 KiB) %s\n", sbrk(32 << 10) == (void *)-1 ? "failed" : "succeeded");
	printf("sbrk(64 KiB) %s\n", sbrk(64 << 10) == (void *)-1 ? err() : "succeeded");

	show("getrlimit64(FSIZE)", syscall(SYS_getrlimit64, RLIMIT_FSIZE, (long)&rl64));
	printf("FSIZE64 %llu %llx\n", rl64.cur, rl64.max);

	on(SIGXCPU, on_xcpu);
	rl64.cur = 1; rl64.max = 3;
	show("setrlimit64(CPU, 1, 3)", syscall(SYS_setrlimit64, RLIMIT_CPU, (long)&rl64));
	while (xcpu < 2)
		spin++;
	printf("SIGXCPU twice (at 1 s and 2 s of CPU time)\n");
	/* The hard limit ends the process: SIGKILL at 3 s. */
	on(SIGXCPU, SIG_IGN);
	for (;;)
		spin++;
}
