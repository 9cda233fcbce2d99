/* net_rights -- passing descriptors over AF_UNIX sockets, as IRIX
 * recv(2) and send(2) describe sendmsg and recvmsg's access rights
 * (4.3BSD's msg_accrights and msg_accrightslen: an array of ints).
 *  1. A pipe's write end sent over a stream socketpair to a forked child,
 *     which writes through the descriptor it receives.
 *  2. A file's descriptor sent over a datagram socketpair: the receiver
 *     shares the open file and its offset.
 *  3. EBADF for a right that is no open descriptor; EOPNOTSUPP on AF_INET.
 *  4. Rights sent and never received are closed when the socket goes.
 *  5. A receiver whose descriptor table is full: EMFILE, and the message
 *     stays for a later recvmsg.
 *  6. A socket may not be sent over itself or to its peer (EINVAL: it
 *     would keep itself open), nor one with rights waiting in its queue.
 *  7. recvmsg with a NULL msg_accrights but a length: no room, so the
 *     data comes and the descriptors sent with it are closed.
 * Expected output: tests/all/kernel_sockets.rs. */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/wait.h>

#define SYS_recvmsg 1099
#define SYS_sendmsg 1102
#define SYS_socket 1107
#define SYS_socketpair 1155
#define SYS_lseek 1019

#define AF_UNIX 1
#define AF_INET 2
#define SOCK_DGRAM 1
#define SOCK_STREAM 2

struct iovec {
	void *iov_base;
	int iov_len;
};

struct msghdr {
	void *msg_name;
	int msg_namelen;
	struct iovec *msg_iov;
	int msg_iovlen;
	void *msg_accrights;
	int msg_accrightslen;
};

static void report(const char *what, long r)
{
	if (r < 0)
		printf("%s: -1 %s\n", what, r == -1 && errno == 122 ? "EOPNOTSUPP" : errno_name(errno));
	else
		printf("%s: %ld\n", what, r);
}

/* Sends `text` with `n` descriptors from `fds` as access rights. */
static long send_fds(int s, const char *text, int *fds, int n)
{
	struct iovec v;
	struct msghdr m;
	v.iov_base = (void *)text;
	v.iov_len = strlen(text);
	memset(&m, 0, sizeof m);
	m.msg_iov = &v;
	m.msg_iovlen = 1;
	m.msg_accrights = (void *)fds;
	m.msg_accrightslen = n * sizeof(int);
	return syscall(SYS_sendmsg, (long)s, &m, 0L);
}

/* Receives into buf; the descriptors that came go to fds (*n: how many). */
static long recv_fds(int s, char *buf, int len, int *fds, int *n)
{
	struct iovec v;
	struct msghdr m;
	long r;
	v.iov_base = buf;
	v.iov_len = len;
	memset(&m, 0, sizeof m);
	m.msg_iov = &v;
	m.msg_iovlen = 1;
	m.msg_accrights = (void *)fds;
	m.msg_accrightslen = *n * sizeof(int);
	r = syscall(SYS_recvmsg, (long)s, &m, 0L);
	*n = r < 0 ? 0 : m.msg_accrightslen / (int)sizeof(int);
	return r;
}

static void pipe_to_child(void)
{
	int sv[2], pfd[2], status, fds[1];
	char buf[64];
	long n;
	pid_t pid;
	report("socketpair stream", syscall(SYS_socketpair, (long)AF_UNIX, (long)SOCK_STREAM, 0L, sv));
	pipe(pfd);
	pid = fork();
	if (pid == 0) {
		int got[4], count = 4;
		close(sv[0]);
		close(pfd[0]);
		close(pfd[1]);
		n = recv_fds(sv[1], buf, sizeof buf, got, &count);
		printf("child: recvmsg %ld bytes \"%.*s\" and %d descriptor(s)\n", n, (int)n, buf, count);
		if (count == 1) {
			printf("child: the descriptor is new: %s\n", got[0] > 2 ? "yes" : "no");
			write(got[0], "written by the child through the passed pipe", 45);
			close(got[0]);
		}
		_exit(0);
	}
	close(sv[1]);
	fds[0] = pfd[1];
	report("parent: sendmsg with the pipe's write end", send_fds(sv[0], "take this", fds, 1));
	close(pfd[1]);
	n = read(pfd[0], buf, sizeof buf);
	printf("parent read from the pipe: %.*s\n", (int)n, buf);
	waitpid(pid, &status, 0);
	printf("parent: end of file once the child's copy is closed: %s\n", read(pfd[0], buf, sizeof buf) == 0 ? "yes" : "no");
	close(pfd[0]);
	close(sv[0]);
}

static void file_over_datagrams(void)
{
	int sv[2], f, fds[1], got[2], count = 2;
	char buf[64];
	long n;
	syscall(SYS_socketpair, (long)AF_UNIX, (long)SOCK_DGRAM, 0L, sv);
	f = open("passed.txt", O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(f, "first second", 12);
	syscall(SYS_lseek, (long)f, 0L, 0L);
	fds[0] = f;
	report("sendmsg a file over a datagram pair", send_fds(sv[0], "file", fds, 1));
	n = recv_fds(sv[1], buf, sizeof buf, got, &count);
	printf("recvmsg: %ld bytes, %d descriptor(s)\n", n, count);
	n = read(got[0], buf, 6);
	printf("read through the new descriptor: %.*s\n", (int)n, buf);
	n = read(f, buf, sizeof buf);
	printf("the sender's descriptor shares the offset: %.*s\n", (int)n, buf);
	close(got[0]);
	close(f);
	close(sv[0]);
	close(sv[1]);
}

static void errors(void)
{
	int sv[2], bad[1] = {99}, inet, pfd[2], fds[1];
	char buf[8];
	syscall(SYS_socketpair, (long)AF_UNIX, (long)SOCK_STREAM, 0L, sv);
	report("sendmsg with a right that is no descriptor", send_fds(sv[0], "x", bad, 1));
	inet = syscall(SYS_socket, (long)AF_INET, (long)SOCK_DGRAM, 0L);
	fds[0] = 0;
	report("sendmsg with rights on AF_INET", send_fds(inet, "x", fds, 1));
	close(inet);
	/* Rights never received go with the socket. */
	pipe(pfd);
	fds[0] = pfd[1];
	report("sendmsg a pipe's write end, never received", send_fds(sv[0], "lost", fds, 1));
	close(pfd[1]);
	close(sv[0]);
	close(sv[1]);
	printf("the pipe reads end of file once the sockets are closed: %s\n",
	       read(pfd[0], buf, sizeof buf) == 0 ? "yes" : "no");
	close(pfd[0]);
}

static void full_table(void)
{
	int sv[2], fds[1], got[1], count = 1, last = -1, d;
	char buf[16];
	long n;
	syscall(SYS_socketpair, (long)AF_UNIX, (long)SOCK_STREAM, 0L, sv);
	fds[0] = 1;
	send_fds(sv[0], "full", fds, 1);
	while ((d = dup(0)) >= 0)
		last = d;
	n = recv_fds(sv[1], buf, sizeof buf, got, &count);
	report("recvmsg with a full descriptor table", n);
	close(last);
	count = 1;
	n = recv_fds(sv[1], buf, sizeof buf, got, &count);
	printf("after one close: %ld bytes \"%.*s\", %d descriptor(s), at the freed slot: %s\n", n,
	       (int)n, buf, count, count == 1 && got[0] == last ? "yes" : "no");
}

static void no_cycles(void)
{
	int sv[2], tv[2], fds[1];
	syscall(SYS_socketpair, (long)AF_UNIX, (long)SOCK_STREAM, 0L, sv);
	syscall(SYS_socketpair, (long)AF_UNIX, (long)SOCK_STREAM, 0L, tv);
	fds[0] = sv[1];
	report("sendmsg a socket to itself", send_fds(sv[0], "self", fds, 1));
	fds[0] = sv[0];
	report("sendmsg a socket over itself to its peer", send_fds(sv[0], "peer", fds, 1));
	fds[0] = tv[1];
	report("sendmsg another pair's end", send_fds(sv[0], "tv1", fds, 1));
	fds[0] = sv[1];
	report("sendmsg a socket holding rights", send_fds(tv[0], "back", fds, 1));
	close(sv[0]);
	close(sv[1]);
	close(tv[0]);
	close(tv[1]);
}

static void null_rights(void)
{
	int sv[2], fds[1], fd, d;
	char buf[16];
	struct iovec v;
	struct msghdr m;
	long n;
	syscall(SYS_socketpair, (long)AF_UNIX, (long)SOCK_STREAM, 0L, sv);
	fd = dup(0);
	close(fd);
	fds[0] = 1;
	send_fds(sv[0], "kept", fds, 1);
	v.iov_base = buf;
	v.iov_len = sizeof buf;
	memset(&m, 0, sizeof m);
	m.msg_iov = &v;
	m.msg_iovlen = 1;
	m.msg_accrightslen = 99;
	n = syscall(SYS_recvmsg, (long)sv[1], &m, 0L);
	printf("recvmsg with a NULL msg_accrights and a length: %ld bytes \"%.*s\", accrightslen %d\n",
	       n, (int)(n < 0 ? 0 : n), buf, m.msg_accrightslen);
	d = dup(0);
	printf("the descriptor sent was closed, not installed: %s\n", d == fd ? "yes" : "no");
	close(d);
	close(sv[0]);
	close(sv[1]);
}

int main(void)
{
	pipe_to_child();
	file_over_datagrams();
	errors();
	no_cycles();
	null_rights();
	full_table();
	return 0;
}
