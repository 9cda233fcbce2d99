/* io_calls -- readv, writev, pread, pwrite, poll, select and the
 * descriptor and terminal ioctls, each result printed as "name: value" or
 * "name: -1 ERRNO" (through libc's indirect syscall(nr, ...)). Run in an
 * empty scratch directory with stdin, stdout and stderr not terminals;
 * creates and removes io_calls.tmp. The expected output is in
 * tests/kernel_io.rs. */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/wait.h>

/* IRIX numbers (IRIX's <sys.s>). */
#define N_IOCTL 1054
#define N_POLL 1087
#define N_SELECT 1100
#define N_READV 1181
#define N_WRITEV 1182
#define N_PREAD 1187
#define N_PWRITE 1188
#define N_GETTIMEOFDAY 1128

#define POLLIN 0x1
#define POLLOUT 0x4
#define POLLHUP 0x10
#define POLLNVAL 0x20
#define POLLRDNORM 0x40

#define TCGETA 0x5401
#define TCGETS 0x540d
#define TIOCGWINSZ 0x40087468
#define FIONREAD 0x4004667f
#define FIONBIO 0x8004667e

struct iovec {
	void *iov_base;
	long iov_len;
};

struct pollfd {
	int fd;
	short events;
	short revents;
};

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

static void vectors(void)
{
	int fd = open("io_calls.tmp", O_RDWR | O_CREAT | O_TRUNC, 0644);
	char a[] = "hello, ", b[] = "vectored ", c[] = "world";
	struct iovec out[3] = {{a, 7}, {b, 9}, {c, 5}};
	/* write(2): "writev performs the same action as write, but gathers
	 * the output data from the iovcnt buffers". */
	show("writev gathers 3 buffers", syscall(N_WRITEV, fd, out, 3));
	lseek(fd, 0, SEEK_SET);
	char x[4], y[6], z[32];
	memset(z, 0, sizeof z);
	struct iovec in[3] = {{x, 4}, {y, 6}, {z, 31}};
	/* read(2): "readv always fills one buffer completely before
	 * proceeding to the next". */
	show("readv scatters", syscall(N_READV, fd, in, 3));
	printf("readv buffers: [%.4s] [%.6s] [%s]\n", x, y, z);
	show("readv iovcnt 0", syscall(N_READV, fd, in, 0));
	show("writev iovcnt -1", syscall(N_WRITEV, fd, out, -1));
	struct iovec neg[1] = {{a, -1}};
	show("writev negative iov_len", syscall(N_WRITEV, fd, neg, 1));
	struct iovec big[2] = {{a, 0x7fffffff}, {b, 1}};
	show("writev total overflows", syscall(N_WRITEV, fd, big, 2));
	show("readv bad iov", syscall(N_READV, fd, (void *)8, 1));
	struct iovec bad[1] = {{(void *)8, 4}};
	lseek(fd, 0, SEEK_SET);
	show("readv bad iov_base", syscall(N_READV, fd, bad, 1));
	show("writev bad descriptor", syscall(N_WRITEV, 99, out, 1));

	/* pread/pwrite: at an offset, the file pointer unmoved. */
	lseek(fd, 3, SEEK_SET);
	char p[9];
	memset(p, 0, sizeof p);
	show("pread 8 at 7", syscall(N_PREAD, fd, p, 8, 7));
	printf("pread read: [%s]\n", p);
	show("pread leaves the offset", lseek(fd, 0, SEEK_CUR));
	show("pwrite at 0", syscall(N_PWRITE, fd, "J", 1, 0));
	show("pwrite leaves the offset", lseek(fd, 0, SEEK_CUR));
	show("pread past the end", syscall(N_PREAD, fd, p, 8, 100));
	show("pread negative offset", syscall(N_PREAD, fd, p, 8, -1));
	memset(p, 0, sizeof p);
	show("pread after pwrite", syscall(N_PREAD, fd, p, 5, 0));
	printf("pread read: [%s]\n", p);
	int fds[2];
	pipe(fds);
	show("pread on a pipe", syscall(N_PREAD, fds[0], p, 1, 0));
	show("pwrite on a pipe", syscall(N_PWRITE, fds[1], "x", 1, 0));
	close(fds[0]);
	close(fds[1]);
	close(fd);
	unlink("io_calls.tmp");
}

static void polling(void)
{
	int fds[2];
	pipe(fds);
	struct pollfd pf[3] = {{fds[0], POLLIN, 0}, {fds[1], POLLOUT, 0}, {99, POLLIN, 0}};
	/* poll(2): "POLLNVAL The specified fd value does not belong to an
	 * open stream". */
	show("poll empty pipe", syscall(N_POLL, pf, 3, 0));
	printf("poll revents: %#x %#x %#x\n", pf[0].revents, pf[1].revents, pf[2].revents);
	pf[2].fd = -1;
	write(fds[1], "abc", 3);
	show("poll with data", syscall(N_POLL, pf, 3, 0));
	printf("poll revents: %#x %#x %#x\n", pf[0].revents, pf[1].revents, pf[2].revents);
	char buf[8];
	read(fds[0], buf, 3);
	/* "If none of the defined events have occurred ... poll waits at
	 * least timeout msec": 250 ms of virtual time, rounded to ticks. */
	long t0 = now_ms();
	show("poll times out", syscall(N_POLL, pf, 1, 250));
	printf("poll waited %ld ms\n", now_ms() - t0);
	show("poll nfds too large", syscall(N_POLL, pf, 100000, 0));
	show("poll bad fds", syscall(N_POLL, (void *)8, 1, 0));

	/* A child writes after 30 ticks: poll with no timeout (-1) waits
	 * for it; other processes run meanwhile. */
	pid_t child = fork();
	if (child == 0) {
		sginap(30);
		write(fds[1], "x", 1);
		_exit(0);
	}
	t0 = now_ms();
	show("poll waits for a writer", syscall(N_POLL, pf, 1, -1));
	printf("poll woke after %ld ms, revents %#x\n", now_ms() - t0, pf[0].revents);
	int status;
	waitpid(child, &status, 0);
	read(fds[0], buf, 1);
	close(fds[1]);
	show("poll sees the hang-up", syscall(N_POLL, pf, 1, 0));
	printf("poll revents: %#x\n", pf[0].revents);
	close(fds[0]);

	pipe(fds);
	unsigned long rd[1] = {1ul << fds[0]}, wr[1] = {1ul << fds[1]};
	long tv[2] = {0, 0};
	/* select(2): "The total number of ready descriptors in all the sets
	 * is the return value". */
	show("select empty pipe", syscall(N_SELECT, fds[1] + 1, rd, wr, 0, tv));
	printf("select sets: %#lx %#lx\n", rd[0], wr[0]);
	write(fds[1], "y", 1);
	rd[0] = 1ul << fds[0];
	wr[0] = 1ul << fds[1];
	show("select with data", syscall(N_SELECT, fds[1] + 1, rd, wr, 0, tv));
	printf("select sets: %#lx %#lx\n", rd[0], wr[0]);
	read(fds[0], buf, 1);
	rd[0] = 1ul << fds[0];
	tv[0] = 1;
	tv[1] = 500000;
	t0 = now_ms();
	show("select times out", syscall(N_SELECT, fds[0] + 1, rd, 0, 0, tv));
	printf("select waited %ld ms, set %#lx\n", now_ms() - t0, rd[0]);
	unsigned long two[2] = {0, 1ul << (50 - 32)};
	show("select closed descriptor", syscall(N_SELECT, 51, two, 0, 0, tv));
	tv[1] = 1000000;
	show("select bad timeval", syscall(N_SELECT, 1, 0, 0, 0, tv));
	show("select negative nfds", syscall(N_SELECT, -1, 0, 0, 0, 0));
	close(fds[0]);
	close(fds[1]);
}

static void ioctls(void)
{
	int fds[2];
	pipe(fds);
	int n = -1;
	write(fds[1], "12345", 5);
	show("ioctl FIONREAD pipe", syscall(N_IOCTL, fds[0], FIONREAD, &n));
	printf("FIONREAD: %d\n", n);
	char buf[8];
	read(fds[0], buf, 5);
	int on = 1;
	show("ioctl FIONBIO on", syscall(N_IOCTL, fds[0], FIONBIO, &on));
	/* read(2): an empty pipe with a writer and O_NONBLOCK: EAGAIN. */
	show("read empty non-blocking pipe", read(fds[0], buf, 1));
	on = 0;
	show("ioctl FIONBIO off", syscall(N_IOCTL, fds[0], FIONBIO, &on));
	show("ioctl FIONREAD bad pointer", syscall(N_IOCTL, fds[0], FIONREAD, (void *)8));
	char t[64];
	show("ioctl TCGETA on a pipe", syscall(N_IOCTL, fds[0], TCGETA, t));
	show("ioctl TCGETS on a pipe", syscall(N_IOCTL, fds[0], TCGETS, t));
	show("ioctl TIOCGWINSZ on a pipe", syscall(N_IOCTL, fds[0], TIOCGWINSZ, t));
	show("ioctl bad descriptor", syscall(N_IOCTL, 99, FIONREAD, &n));
	close(fds[0]);
	close(fds[1]);
}

int main(void)
{
	vectors();
	polling();
	ioctls();
	return 0;
}
