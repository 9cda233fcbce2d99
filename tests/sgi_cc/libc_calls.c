/* libc_calls -- compiled by SGI's IDO 5.3 cc and linked with SGI's
 * libc.so.1 (tests/sgi_tools.rs), it makes the calls a portable program
 * makes and prints one line per check, "name: value". The IRIX 5.3 root
 * holds no <sys/...> headers (nor sgidefs.h, which stdlib.h and setjmp.h
 * include), so the few types and constants it needs are
 * declared here, with IRIX's values (docs/abi.md).
 * Started as "libc_calls child" it exits 3 (the fork+exec check). */
#include <stdio.h>
#include <string.h>

extern int errno;
struct iovec { void *iov_base; int iov_len; };
struct pollfd { int fd; short events; short revents; };
struct timeval { long tv_sec; long tv_usec; };
struct itimerval { struct timeval it_interval, it_value; };
struct utimbuf { long actime, modtime; };
typedef struct { unsigned int bits[4]; } sigset_t;
typedef void (*handler_t)(int);
typedef int jmp_buf[64]; /* IRIX's o32 jmp_buf is smaller: this is room enough */
int setjmp(jmp_buf);
void longjmp(jmp_buf, int), _exit(int);

int mkdir(const char *, int), rmdir(const char *), link(const char *, const char *);
int symlink(const char *, const char *), rename(const char *, const char *);
int readlink(const char *, char *, int), unlink(const char *), utime(const char *, struct utimbuf *);
int stat(const char *, void *), truncate(const char *, long), open(const char *, int, ...);
int close(int), pipe(int *), read(int, void *, unsigned), write(int, const void *, unsigned);
long lseek(int, long, int);
int readv(int, struct iovec *, int), writev(int, struct iovec *, int);
int poll(struct pollfd *, unsigned long, int);
int select(int, unsigned int *, unsigned int *, unsigned int *, struct timeval *);
unsigned alarm(unsigned);
int pause(void), setitimer(int, struct itimerval *, struct itimerval *);
int sigemptyset(sigset_t *), sigaddset(sigset_t *, int), sigismember(const sigset_t *, int);
int sigprocmask(int, sigset_t *, sigset_t *), sigpending(sigset_t *);
handler_t signal(int, handler_t);
int fork(void), execl(const char *, const char *, ...), waitpid(int, int *, int);
long sysconf(int), pathconf(const char *, int);

#define O_RDWR 2
#define O_CREAT 0x100
#define O_TRUNC 0x200
#define POLLIN 1
#define SIGSEGV 11
#define SIGALRM 14
#define SIGVTALRM 28
#define SIG_BLOCK 1
#define SIG_UNBLOCK 2
#define ITIMER_REAL 0
#define ITIMER_VIRTUAL 1
#define _SC_CLK_TCK 3
#define _SC_PAGESIZE 11
#define _PC_NAME_MAX 4
#define _PC_PIPE_BUF 6

static volatile int alarms, vtalarms;
static jmp_buf env;

static void on_alarm(int sig) { alarms++; signal(SIGALRM, on_alarm); }
static void on_vtalarm(int sig) { vtalarms++; }
static void on_segv(int sig) { longjmp(env, 1); }

static void files(void)
{
	char buf[64];
	char st[136];
	struct utimbuf times;
	int fd, n;

	printf("mkdir: %d\n", mkdir("d", 0755));
	printf("mkdir again: %d errno %d\n", mkdir("d", 0755), errno);
	fd = open("d/f", O_RDWR | O_CREAT | O_TRUNC, 0644);
	printf("write: %d\n", write(fd, "0123456789", 10));
	close(fd);
	printf("rmdir non-empty: %d errno %d\n", rmdir("d"), errno);
	printf("link: %d\n", link("d/f", "d/g"));
	printf("symlink: %d\n", symlink("d/f", "lnk"));
	n = readlink("lnk", buf, sizeof buf);
	printf("readlink: %d %.*s\n", n, n > 0 ? n : 0, buf);
	printf("rename: %d\n", rename("d/g", "d/h"));
	times.actime = 1000000000;
	times.modtime = 1000000001;
	printf("utime: %d\n", utime("d/h", &times));
	printf("stat: %d\n", stat("lnk", st));
	printf("st_size %ld st_atime %ld st_mtime %ld\n", *(long *)(st + 48),
	       *(long *)(st + 56), *(long *)(st + 64));
	printf("truncate: %d\n", truncate("d/f", 4));
	stat("d/f", st);
	printf("size after truncate: %ld\n", *(long *)(st + 48));
	unlink("lnk");
	unlink("d/f");
	unlink("d/h");
	printf("rmdir: %d\n", rmdir("d"));
}

static void io(void)
{
	char a[4], b[8];
	struct iovec out[2], in[2];
	struct pollfd pfd;
	struct timeval tv;
	unsigned int set[32];
	int fds[2];

	pipe(fds);
	pfd.fd = fds[0];
	pfd.events = POLLIN;
	printf("poll empty pipe: %d\n", poll(&pfd, 1, 0));
	out[0].iov_base = "abc";
	out[0].iov_len = 3;
	out[1].iov_base = "defgh";
	out[1].iov_len = 5;
	printf("writev: %d\n", writev(fds[1], out, 2));
	pfd.revents = 0;
	printf("poll: %d revents %d\n", poll(&pfd, 1, 1000), pfd.revents);
	memset(set, 0, sizeof set);
	set[fds[0] / 32] |= 1u << (fds[0] % 32);
	tv.tv_sec = 0;
	tv.tv_usec = 0;
	printf("select: %d readable %d\n", select(fds[0] + 1, set, 0, 0, &tv),
	       (set[fds[0] / 32] >> (fds[0] % 32)) & 1);
	in[0].iov_base = a;
	in[0].iov_len = 4;
	in[1].iov_base = b;
	in[1].iov_len = 8;
	printf("readv: %d %.4s %.4s\n", readv(fds[0], in, 2), a, b);
	close(fds[0]);
	close(fds[1]);
}

static void signals(void)
{
	struct itimerval it;
	sigset_t set, pending;
	volatile unsigned long spin;

	signal(SIGALRM, on_alarm);
	printf("alarm: %u\n", alarm(1));
	printf("pause: %d errno %d alarms %d\n", pause(), errno, alarms);

	memset(&it, 0, sizeof it);
	it.it_value.tv_usec = 50000;
	it.it_interval.tv_usec = 50000;
	printf("setitimer real: %d\n", setitimer(ITIMER_REAL, &it, 0));
	while (alarms < 4)
		pause();
	memset(&it, 0, sizeof it);
	setitimer(ITIMER_REAL, &it, 0);
	printf("interval timer: alarms %d\n", alarms);

	signal(SIGVTALRM, on_vtalarm);
	it.it_value.tv_usec = 20000;
	printf("setitimer virtual: %d\n", setitimer(ITIMER_VIRTUAL, &it, 0));
	for (spin = 0; !vtalarms; spin++)
		;
	printf("virtual timer: %d\n", vtalarms);

	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	sigprocmask(SIG_BLOCK, &set, 0);
	alarm(1);
	while (sigpending(&pending) == 0 && !sigismember(&pending, SIGALRM))
		;
	printf("sigpending: SIGALRM %d alarms %d\n", sigismember(&pending, SIGALRM), alarms);
	sigprocmask(SIG_UNBLOCK, &set, 0);
	printf("after unblocking: alarms %d\n", alarms);

	signal(SIGSEGV, on_segv);
	if (setjmp(env) == 0) {
		*(volatile int *)4 = 1;
		printf("SIGSEGV: not raised\n");
	} else {
		printf("SIGSEGV: caught, longjmp back\n");
	}
}

static void processes(const char *self)
{
	int status = -1;
	int pid = fork();

	if (pid == 0) {
		execl(self, self, "child", (char *)0);
		_exit(127);
	}
	printf("waitpid: %d status 0x%x\n", waitpid(pid, &status, 0) == pid, status);
	printf("sysconf CLK_TCK: %ld PAGESIZE: %ld\n", sysconf(_SC_CLK_TCK), sysconf(_SC_PAGESIZE));
	printf("pathconf NAME_MAX: %ld PIPE_BUF: %ld\n", pathconf(".", _PC_NAME_MAX),
	       pathconf(".", _PC_PIPE_BUF));
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "child") == 0)
		return 3;
	files();
	io();
	signals();
	processes(argv[0]);
	printf("done\n");
	return 0;
}
