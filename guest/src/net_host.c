/* net_host -- AF_INET sockets that reach the host's network (irix-emu
 * --net): the calls of socket(2), connect(2), bind(2), listen(2),
 * accept(2), send(2), recv(2), poll(2) on sockets whose other end is a
 * host program.
 *   net_host connect A.B.C.D PORT MSG   TCP: send MSG, read the echo back
 *   net_host nbconnect A.B.C.D PORT MSG the same with a non-blocking
 *                                       connect: EINPROGRESS, poll for
 *                                       writing, SO_ERROR, then as above
 *   net_host listen PORT                TCP: accept ONE connection, read a
 *                                       line, send it back upper-cased
 *   net_host udp A.B.C.D PORT MSG       UDP: send MSG, receive one reply
 *   net_host udplisten PORT             UDP: receive one datagram, reply
 *                                       upper-cased to its sender
 * Without arguments it prints its usage and exits 2.
 * Expected output: tests/all/net_host.rs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

#define SYS_poll 1087
#define SYS_accept 1089
#define SYS_bind 1090
#define SYS_connect 1091
#define SYS_getpeername 1093
#define SYS_getsockname 1094
#define SYS_getsockopt 1095
#define SYS_fcntl 1062
#define SYS_listen 1096
#define SYS_recvfrom 1098
#define SYS_sendto 1103
#define SYS_shutdown 1106
#define SYS_socket 1107

#define AF_INET 2
#define SOCK_DGRAM 1
#define SOCK_STREAM 2
#define POLLIN 1
#define POLLOUT 4
#define SOL_SOCKET 0xffff
#define SO_ERROR 0x1007
#define F_SETFL 4
#define O_NONBLOCK 0x80

struct sockaddr_in {
	unsigned short sin_family;
	unsigned short sin_port;
	unsigned int sin_addr;
	char sin_zero[8];
};

struct pollfd {
	int fd;
	short events;
	short revents;
};

static const char *err(int e)
{
	switch (e) {
	case 124: return "EAFNOSUPPORT";
	case 125: return "EADDRINUSE";
	case 126: return "EADDRNOTAVAIL";
	case 128: return "ENETUNREACH";
	case 131: return "ECONNRESET";
	case 146: return "ECONNREFUSED";
	case 150: return "EINPROGRESS";
	case 148: return "EHOSTUNREACH";
	}
	return errno_name(e);
}

static long report(const char *what, long r)
{
	if (r < 0)
		printf("%s: -1 %s\n", what, err(errno));
	else
		printf("%s: %ld\n", what, r);
	return r;
}

/* "A.B.C.D" and a port as a sockaddr_in (big-endian: network order). */
static struct sockaddr_in inet(const char *dotted, const char *port)
{
	struct sockaddr_in s;
	unsigned int a = 0;
	int i;
	memset(&s, 0, sizeof s);
	for (i = 0; i < 4; i++) {
		a = a << 8 | (unsigned int)strtol(dotted, (char **)&dotted, 10);
		if (*dotted == '.')
			dotted++;
	}
	s.sin_family = AF_INET;
	s.sin_port = atoi(port);
	s.sin_addr = a;
	return s;
}

static void show(const char *what, struct sockaddr_in *s)
{
	unsigned int a = s->sin_addr;
	printf("%s: %u.%u.%u.%u\n", what, a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255);
}

static void upcase(char *b, long n)
{
	long i;
	for (i = 0; i < n; i++)
		if (b[i] >= 'a' && b[i] <= 'z')
			b[i] -= 'a' - 'A';
}

static int tcp_connect(char **argv)
{
	struct sockaddr_in to = inet(argv[2], argv[3]), peer;
	int s = syscall(SYS_socket, (long)AF_INET, (long)SOCK_STREAM, 0L), len = sizeof peer;
	long want = strlen(argv[4]), got = 0, n;
	char buf[256];
	struct pollfd pf;
	if (report("connect", syscall(SYS_connect, (long)s, &to, 16L)) < 0)
		return 1;
	syscall(SYS_getpeername, (long)s, &peer, &len);
	show("peer", &peer);
	report("send", write(s, argv[4], want));
	pf.fd = s;
	pf.events = POLLIN;
	pf.revents = 0;
	report("poll for the echo", syscall(SYS_poll, &pf, 1L, -1L));
	printf("readable: %s\n", pf.revents & POLLIN ? "yes" : "no");
	while (got < want && got < (long)sizeof buf) {
		n = read(s, buf + got, sizeof buf - got);
		if (n <= 0)
			break;
		got += n;
	}
	printf("got back: %.*s\n", (int)got, buf);
	report("shutdown for writing", syscall(SYS_shutdown, (long)s, 1L));
	printf("then read: %ld (end of file)\n", (long)read(s, buf, sizeof buf));
	close(s);
	return 0;
}

/* connect(2) on a non-blocking socket: EINPROGRESS, then poll(2) for
 * writing says it finished and SO_ERROR says how; the socket is then
 * connected for getpeername, write and read without another connect. */
static int tcp_nbconnect(char **argv)
{
	struct sockaddr_in to = inet(argv[2], argv[3]), peer;
	int s = syscall(SYS_socket, (long)AF_INET, (long)SOCK_STREAM, 0L), len = sizeof peer;
	int val = -1, vlen = sizeof val;
	long want = strlen(argv[4]), got = 0, n;
	char buf[256];
	struct pollfd pf;
	syscall(SYS_fcntl, (long)s, (long)F_SETFL, (long)O_NONBLOCK);
	if (report("connect", syscall(SYS_connect, (long)s, &to, 16L)) < 0 && errno != 150)
		return 1;
	report("listen while connecting", syscall(SYS_listen, (long)s, 1L));
	pf.fd = s;
	pf.events = POLLOUT;
	pf.revents = 0;
	report("poll for writing", syscall(SYS_poll, &pf, 1L, -1L));
	printf("writable: %s\n", pf.revents & POLLOUT ? "yes" : "no");
	report("SO_ERROR", syscall(SYS_getsockopt, (long)s, (long)SOL_SOCKET, (long)SO_ERROR, &val, &vlen));
	printf("SO_ERROR value: %d\n", val);
	if (report("getpeername", syscall(SYS_getpeername, (long)s, &peer, &len)) == 0)
		show("peer", &peer);
	report("send", write(s, argv[4], want));
	pf.events = POLLIN;
	pf.revents = 0;
	while (got < want) {
		syscall(SYS_poll, &pf, 1L, -1L);
		n = read(s, buf + got, sizeof buf - got);
		if (n <= 0)
			break;
		got += n;
	}
	printf("got back: %.*s\n", (int)got, buf);
	close(s);
	return 0;
}

static int tcp_listen(char **argv)
{
	struct sockaddr_in me = inet("0.0.0.0", argv[2]), from;
	int s = syscall(SYS_socket, (long)AF_INET, (long)SOCK_STREAM, 0L), c, len = sizeof from;
	long n, got = 0;
	char buf[256];
	if (report("bind", syscall(SYS_bind, (long)s, &me, 16L)) < 0)
		return 1;
	report("listen", syscall(SYS_listen, (long)s, 1L));
	c = syscall(SYS_accept, (long)s, &from, &len);
	if (c < 0) {
		report("accept", c);
		return 1;
	}
	printf("accept: a new descriptor\n");
	show("accepted from", &from);
	while (got < (long)sizeof buf) {
		n = read(c, buf + got, sizeof buf - got);
		if (n <= 0)
			break;
		got += n;
		if (buf[got - 1] == '\n')
			break;
	}
	printf("server got: %.*s", (int)got, buf);
	upcase(buf, got);
	report("send back", write(c, buf, got));
	close(c);
	close(s);
	return 0;
}

static int udp_send(char **argv)
{
	struct sockaddr_in to = inet(argv[2], argv[3]), from;
	int s = syscall(SYS_socket, (long)AF_INET, (long)SOCK_DGRAM, 0L), len = sizeof from;
	char buf[256];
	long n;
	if (report("sendto", syscall(SYS_sendto, (long)s, argv[4], (long)strlen(argv[4]), 0L, &to, 16L)) < 0)
		return 1;
	n = report("recvfrom", syscall(SYS_recvfrom, (long)s, buf, (long)sizeof buf, 0L, &from, &len));
	if (n < 0)
		return 1;
	printf("reply: %.*s\n", (int)n, buf);
	show("from", &from);
	printf("from the port sent to: %s\n", from.sin_port == to.sin_port ? "yes" : "no");
	close(s);
	return 0;
}

static int udp_listen(char **argv)
{
	struct sockaddr_in me = inet("127.0.0.1", argv[2]), from;
	int s = syscall(SYS_socket, (long)AF_INET, (long)SOCK_DGRAM, 0L), len = sizeof from;
	char buf[256];
	long n;
	if (report("bind", syscall(SYS_bind, (long)s, &me, 16L)) < 0)
		return 1;
	n = report("recvfrom", syscall(SYS_recvfrom, (long)s, buf, (long)sizeof buf, 0L, &from, &len));
	if (n < 0)
		return 1;
	printf("datagram: %.*s\n", (int)n, buf);
	show("from", &from);
	upcase(buf, n);
	report("reply", syscall(SYS_sendto, (long)s, buf, n, 0L, &from, 16L));
	close(s);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "connect") == 0)
		return tcp_connect(argv);
	if (argc == 5 && strcmp(argv[1], "nbconnect") == 0)
		return tcp_nbconnect(argv);
	if (argc == 3 && strcmp(argv[1], "listen") == 0)
		return tcp_listen(argv);
	if (argc == 5 && strcmp(argv[1], "udp") == 0)
		return udp_send(argv);
	if (argc == 3 && strcmp(argv[1], "udplisten") == 0)
		return udp_listen(argv);
	printf("usage: net_host connect|nbconnect A.B.C.D PORT MSG | listen PORT | udp A.B.C.D PORT MSG | udplisten PORT\n");
	return 2;
}
