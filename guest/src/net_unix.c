/* net_unix -- AF_UNIX sockets between the run's processes, as IRIX
 * socket(2), socketpair(2), bind(2), listen(2), accept(2), connect(2),
 * send(2), recv(2), shutdown(2) and the name and option calls describe them.
 *  1. socketpair: a stream both ways, datagrams keeping their boundaries.
 *  2. An echo server bound to a path, a forked client connecting to it.
 *  3. A closed peer: end of file for reads, EPIPE and SIGPIPE for writes.
 *  4. Non-blocking sockets, poll, FIONREAD, shutdown, names, options.
 *  5. sendmsg and recvmsg gathering and scattering iovecs.
 *  6. The errors the pages list.
 * Run in an empty directory (makes and removes net_unix.sock).
 * Expected output: tests/all/kernel_sockets.rs. */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <sys/wait.h>
#include <sys/stat.h>

#define SYS_accept 1089
#define SYS_bind 1090
#define SYS_connect 1091
#define SYS_getpeername 1093
#define SYS_getsockname 1094
#define SYS_getsockopt 1095
#define SYS_listen 1096
#define SYS_recv 1097
#define SYS_recvfrom 1098
#define SYS_recvmsg 1099
#define SYS_sendmsg 1102
#define SYS_send 1101
#define SYS_sendto 1103
#define SYS_setsockopt 1105
#define SYS_shutdown 1106
#define SYS_socket 1107
#define SYS_socketpair 1155
#define SYS_ioctl 1054
#define SYS_poll 1087
#define SYS_fcntl 1062

#define AF_UNIX 1
#define AF_INET 2
#define SOCK_DGRAM 1
#define SOCK_STREAM 2
#define SOL_SOCKET 0xffff
#define SO_REUSEADDR 0x4
#define SO_KEEPALIVE 0x8
#define SO_SNDBUF 0x1001
#define SO_ERROR 0x1007
#define SO_TYPE 0x1008
#define MSG_PEEK 0x2
#define FIONREAD 0x4004667f
#define FIONBIO 0x8004667e
#define F_SETFL 4
#define O_NONBLOCK 0x80
#define POLLIN 1
#define POLLOUT 4
#define POLLHUP 0x10
#define ENOTSOCK 95
#define EDESTADDRREQ 96
#define ENOPROTOOPT 99
#define EOPNOTSUPP 122
#define EAFNOSUPPORT 124
#define EADDRINUSE 125
#define EISCONN 133
#define ENOTCONN 134
#define ECONNREFUSED 146
#define PATH "net_unix.sock"

struct sockaddr_un {
	unsigned short sun_family;
	char sun_path[108];
};

struct pollfd {
	int fd;
	short events, revents;
};

static const char *err(int e)
{
	switch (e) {
	case 120: return "EPROTONOSUPPORT";
	case ENOTSOCK: return "ENOTSOCK";
	case EDESTADDRREQ: return "EDESTADDRREQ";
	case ENOPROTOOPT: return "ENOPROTOOPT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EAFNOSUPPORT: return "EAFNOSUPPORT";
	case EADDRINUSE: return "EADDRINUSE";
	case EISCONN: return "EISCONN";
	case ENOTCONN: return "ENOTCONN";
	case ECONNREFUSED: return "ECONNREFUSED";
	}
	return errno_name(e);
}

static void report(const char *what, long r)
{
	if (r < 0)
		printf("%s: -1 %s\n", what, err(errno));
	else
		printf("%s: %ld\n", what, r);
}

static long sock(long d, long t) { return syscall(SYS_socket, d, t, 0L); }

static long addr_of(struct sockaddr_un *a, const char *path)
{
	memset(a, 0, sizeof *a);
	a->sun_family = AF_UNIX;
	strcpy(a->sun_path, path);
	return 2 + strlen(path);
}

static volatile int pipes_caught;
static void on_pipe(int sig) { pipes_caught++; (void)sig; }

static void pairs(void)
{
	int sv[2];
	char buf[32];
	long n;
	report("socketpair stream", syscall(SYS_socketpair, (long)AF_UNIX, (long)SOCK_STREAM, 0L, sv));
	write(sv[0], "hello", 5);
	write(sv[1], "back", 4);
	n = read(sv[1], buf, sizeof buf);
	printf("sv[1] reads %ld bytes: %.*s\n", n, (int)n, buf);
	n = read(sv[0], buf, sizeof buf);
	printf("sv[0] reads %ld bytes: %.*s\n", n, (int)n, buf);
	close(sv[0]);
	close(sv[1]);
	report("socketpair datagram", syscall(SYS_socketpair, (long)AF_UNIX, (long)SOCK_DGRAM, 0L, sv));
	syscall(SYS_send, (long)sv[0], "one", 3L, 0L);
	syscall(SYS_send, (long)sv[0], "two!", 4L, 0L);
	n = syscall(SYS_recv, (long)sv[1], buf, 2L, 0L);
	printf("a 2-byte recv of \"one\" gets %ld: %.*s (the rest is lost)\n", n, (int)n, buf);
	n = syscall(SYS_recv, (long)sv[1], buf, 32L, 0L);
	printf("the next datagram: %ld: %.*s\n", n, (int)n, buf);
	close(sv[0]);
	close(sv[1]);
	report("socketpair AF_INET", syscall(SYS_socketpair, (long)AF_INET, (long)SOCK_STREAM, 0L, sv));
	report("socketpair to a bad address", syscall(SYS_socketpair, (long)AF_UNIX, (long)SOCK_STREAM, 0L, (void *)16));
}

static void echo_server(void)
{
	struct sockaddr_un a, peer;
	long len = addr_of(&a, PATH);
	int s = sock(AF_UNIX, SOCK_STREAM), c, status, i, plen;
	struct stat st;
	pid_t pid;
	char buf[64];
	report("bind", syscall(SYS_bind, (long)s, &a, len));
	stat(PATH, &st);
	printf("the path is a socket: %s\n", ((st.st_mode & 0170000) == 0140000) ? "yes" : "no");
	report("listen", syscall(SYS_listen, (long)s, 5L));
	pid = fork();
	if (pid == 0) {
		int t = sock(AF_UNIX, SOCK_STREAM);
		long n;
		report("client connect", syscall(SYS_connect, (long)t, &a, len));
		for (i = 0; i < 3; i++) {
			char msg[16];
			sprintf(msg, "line %d", i);
			write(t, msg, strlen(msg));
			n = read(t, buf, sizeof buf);
			printf("client got: %.*s\n", (int)n, buf);
		}
		close(t);
		_exit(0);
	}
	plen = sizeof peer;
	c = syscall(SYS_accept, (long)s, &peer, &plen);
	printf("accepted a connection: %s, peer name length %d\n", c >= 0 ? "yes" : "no", plen);
	for (;;) {
		long n = read(c, buf, sizeof buf);
		if (n <= 0) {
			printf("server: read returned %ld, the client closed\n", n);
			break;
		}
		for (i = 0; i < n; i++)
			if (buf[i] >= 'a' && buf[i] <= 'z')
				buf[i] -= 32;
		write(c, buf, n);
	}
	waitpid(pid, &status, 0);
	close(c);
	{
		int t = sock(AF_UNIX, SOCK_STREAM);
		report("bind of a name in use", syscall(SYS_bind, (long)t, &a, len));
		close(t);
	}
	close(s);
	{
		int t = sock(AF_UNIX, SOCK_STREAM);
		report("connect after the listener closed", syscall(SYS_connect, (long)t, &a, len));
		close(t);
	}
	unlink(PATH);
}

static void closed_peer(void)
{
	int sv[2];
	char buf[8];
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_pipe;
	sigaction(SIGPIPE, &sa, 0);
	syscall(SYS_socketpair, (long)AF_UNIX, (long)SOCK_STREAM, 0L, sv);
	write(sv[1], "last", 4);
	close(sv[1]);
	report("read of the data a closed peer left", read(sv[0], buf, sizeof buf));
	report("read after that (end of file)", read(sv[0], buf, sizeof buf));
	report("write to the closed peer", write(sv[0], "x", 1));
	report("send to the closed peer", syscall(SYS_send, (long)sv[0], "x", 1L, 0L));
	printf("SIGPIPE caught %d times\n", pipes_caught);
	close(sv[0]);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGPIPE, &sa, 0);
}

static void nonblocking_and_poll(void)
{
	int sv[2], on = 1, avail = -1, val, vlen;
	char buf[16];
	struct pollfd pf[2];
	syscall(SYS_socketpair, (long)AF_UNIX, (long)SOCK_STREAM, 0L, sv);
	syscall(SYS_ioctl, (long)sv[0], (long)FIONBIO, &on);
	report("read of an empty non-blocking socket", read(sv[0], buf, sizeof buf));
	syscall(SYS_fcntl, (long)sv[1], (long)F_SETFL, (long)O_NONBLOCK);
	report("recv of an empty O_NONBLOCK socket", syscall(SYS_recv, (long)sv[1], buf, 16L, 0L));
	pf[0].fd = sv[0];
	pf[0].events = POLLIN | POLLOUT;
	pf[1].fd = sv[1];
	pf[1].events = POLLIN;
	report("poll with nothing to read", syscall(SYS_poll, pf, 2L, 0L));
	printf("revents: 0x%x 0x%x\n", pf[0].revents, pf[1].revents);
	write(sv[1], "peekaboo", 8);
	syscall(SYS_ioctl, (long)sv[0], (long)FIONREAD, &avail);
	printf("FIONREAD: %d\n", avail);
	report("poll after a write", syscall(SYS_poll, pf, 2L, 0L));
	printf("revents: 0x%x 0x%x\n", pf[0].revents, pf[1].revents);
	report("recv MSG_PEEK", syscall(SYS_recv, (long)sv[0], buf, 4L, (long)MSG_PEEK));
	report("recv after the peek", syscall(SYS_recv, (long)sv[0], buf, 16L, 0L));
	printf("bytes: %.8s\n", buf);
	report("shutdown sv[1] for writing", syscall(SYS_shutdown, (long)sv[1], 1L));
	report("read on sv[0] after the peer's shutdown", read(sv[0], buf, sizeof buf));
	report("sv[1] can still read: write on sv[0]", write(sv[0], "ok", 2));
	report("read on sv[1]", read(sv[1], buf, sizeof buf));
	report("shutdown with how 3", syscall(SYS_shutdown, (long)sv[1], 3L));
	vlen = sizeof val;
	syscall(SYS_getsockopt, (long)sv[0], (long)SOL_SOCKET, (long)SO_TYPE, &val, &vlen);
	printf("SO_TYPE: %d (length %d)\n", val, vlen);
	val = 1;
	report("setsockopt SO_REUSEADDR", syscall(SYS_setsockopt, (long)sv[0], (long)SOL_SOCKET, (long)SO_REUSEADDR, &val, 4L));
	report("setsockopt SO_KEEPALIVE", syscall(SYS_setsockopt, (long)sv[0], (long)SOL_SOCKET, (long)SO_KEEPALIVE, &val, 4L));
	val = 4096;
	report("setsockopt SO_SNDBUF 4096", syscall(SYS_setsockopt, (long)sv[0], (long)SOL_SOCKET, (long)SO_SNDBUF, &val, 4L));
	vlen = sizeof val;
	syscall(SYS_getsockopt, (long)sv[0], (long)SOL_SOCKET, (long)SO_SNDBUF, &val, &vlen);
	printf("SO_SNDBUF: %d\n", val);
	vlen = sizeof val;
	syscall(SYS_getsockopt, (long)sv[0], (long)SOL_SOCKET, (long)SO_REUSEADDR, &val, &vlen);
	printf("SO_REUSEADDR: %s\n", val ? "on" : "off");
	vlen = sizeof val;
	syscall(SYS_getsockopt, (long)sv[0], (long)SOL_SOCKET, (long)SO_ERROR, &val, &vlen);
	printf("SO_ERROR: %d\n", val);
	report("setsockopt of an unknown option", syscall(SYS_setsockopt, (long)sv[0], (long)SOL_SOCKET, 0x7777L, &val, 4L));
	report("setsockopt with a short optlen", syscall(SYS_setsockopt, (long)sv[0], (long)SOL_SOCKET, (long)SO_KEEPALIVE, &val, 2L));
	close(sv[0]);
	close(sv[1]);
}

struct iovec {
	void *base;
	long len;
};

struct msghdr {
	void *name;
	int namelen;
	struct iovec *iov;
	int iovlen;
	void *accrights;
	int accrightslen;
};

static void messages(void)
{
	int sv[2], fds[1] = {0};
	char a[4], b[16];
	struct iovec out[2] = {{"gather", 6}, {"ed", 2}}, in[2] = {{a, 4}, {b, 16}};
	struct msghdr m;
	long n;
	syscall(SYS_socketpair, (long)AF_UNIX, (long)SOCK_DGRAM, 0L, sv);
	memset(&m, 0, sizeof m);
	m.iov = out;
	m.iovlen = 2;
	report("sendmsg of two iovecs", syscall(SYS_sendmsg, (long)sv[0], &m, 0L));
	memset(&m, 0, sizeof m);
	m.iov = in;
	m.iovlen = 2;
	m.accrightslen = 99;
	n = syscall(SYS_recvmsg, (long)sv[1], &m, 0L);
	printf("recvmsg: %ld bytes, \"%.4s\" then \"%.*s\", accrightslen %d\n", n, a, (int)n - 4, b, m.accrightslen);
	memset(&m, 0, sizeof m);
	m.iov = out;
	m.iovlen = 1;
	m.accrights = fds;
	m.accrightslen = sizeof fds;
	report("sendmsg passing a descriptor", syscall(SYS_sendmsg, (long)sv[0], &m, 0L));
	m.iovlen = 0;
	m.accrightslen = 0;
	report("sendmsg with no iovecs", syscall(SYS_sendmsg, (long)sv[0], &m, 0L));
	close(sv[0]);
	close(sv[1]);
}

static void names_and_errors(void)
{
	struct sockaddr_un a, got;
	int s = sock(AF_UNIX, SOCK_DGRAM), t = sock(AF_UNIX, SOCK_DGRAM), fd, glen;
	long len = addr_of(&a, PATH);
	char buf[32];
	int from_len;
	report("bind a datagram socket", syscall(SYS_bind, (long)s, &a, len));
	report("bind it again", syscall(SYS_bind, (long)s, &a, len));
	glen = sizeof got;
	syscall(SYS_getsockname, (long)s, &got, &glen);
	printf("getsockname: family %d path %s\n", got.sun_family, got.sun_path);
	report("getpeername of an unconnected socket", syscall(SYS_getpeername, (long)s, &got, &glen));
	report("send without a destination", syscall(SYS_send, (long)t, "x", 1L, 0L));
	report("sendto the bound path", syscall(SYS_sendto, (long)t, "dgram", 5L, 0L, &a, len));
	from_len = sizeof got;
	memset(&got, 0, sizeof got);
	report("recvfrom", syscall(SYS_recvfrom, (long)s, buf, 32L, 0L, &got, &from_len));
	printf("from an unbound sender: name length %d family %d\n", from_len, got.sun_family);
	report("listen on a datagram socket", syscall(SYS_listen, (long)s, 1L));
	report("connect to it", syscall(SYS_connect, (long)t, &a, len));
	report("write on the connected datagram socket", write(t, "w", 1));
	report("read it", read(s, buf, 32));
	close(s);
	close(t);
	unlink(PATH);
	fd = open("net_unix.file", O_CREAT | O_WRONLY, 0600);
	report("bind on a file", syscall(SYS_bind, (long)fd, &a, len));
	report("connect to a path that is no socket", (addr_of(&got, "net_unix.file"),
		syscall(SYS_connect, (long)(s = sock(AF_UNIX, SOCK_STREAM)), &got, 2L + 13)));
	close(fd);
	unlink("net_unix.file");
	report("connect to a missing path", syscall(SYS_connect, (long)s, &a, len));
	report("bind to an AF_INET address", (((unsigned short *)&got)[0] = AF_INET,
		syscall(SYS_bind, (long)s, &got, 16L)));
	report("bind from a bad address", syscall(SYS_bind, (long)s, (void *)16, len));
	report("accept on a socket not listening", syscall(SYS_accept, (long)s, 0L, 0L));
	close(s);
	report("socket of family 99", sock(99, SOCK_STREAM));
	report("socket of type 9", sock(AF_UNIX, 9));
	report("socket SOCK_RAW", sock(AF_INET, 4));
	report("getsockopt on a closed descriptor", syscall(SYS_getsockopt, (long)s, (long)SOL_SOCKET, (long)SO_TYPE, buf, &glen));
}

int main(void)
{
	pairs();
	echo_server();
	closed_peer();
	nonblocking_and_poll();
	messages();
	names_and_errors();
	return 0;
}
