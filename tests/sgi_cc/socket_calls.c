/* socket_calls -- compiled by SGI's IDO 5.3 cc and linked with SGI's
 * libc.so.1 (tests/all/irix_root_ipc.rs): sockets through libc's
 * socketpair, socket, bind, listen, accept, connect, send, recv, sendto,
 * recvfrom and getsockname, between the processes of one run, on AF_UNIX
 * and on AF_INET's loopback address, as socket(2), bind(2), connect(2)
 * and accept(2) describe them; one "name: value" line per check. The
 * IRIX 5.3 root holds no <sys/socket.h>, <sys/un.h> or <netinet/in.h>, so
 * the structures and constants are declared here with IRIX's values
 * (docs/abi.md). Errors print as "-1 NAME". */
#include <stdio.h>
#include <string.h>

extern int errno;

struct sockaddr_un { unsigned short family; char path[108]; };
struct sockaddr_in { unsigned short family, port; unsigned int addr; char zero[8]; };

int socketpair(int, int, int, int *), socket(int, int, int);
int bind(int, const void *, int), listen(int, int), accept(int, void *, int *);
int connect(int, const void *, int), getsockname(int, void *, int *);
int send(int, const void *, int, int), recv(int, void *, int, int);
int sendto(int, const void *, int, int, const void *, int);
int recvfrom(int, void *, int, int, void *, int *);
int read(int, void *, unsigned), write(int, const void *, unsigned), close(int);
int fork(void), wait(int *), unlink(const char *);
void _exit(int);

#define AF_UNIX 1
#define AF_INET 2
#define SOCK_DGRAM 1
#define SOCK_STREAM 2
#define LOOPBACK 0x7f000001

static const char *name(int e)
{
	switch (e) {
	case 2: return "ENOENT";
	case 22: return "EINVAL";
	case 98: return "EPROTOTYPE";
	case 120: return "EPROTONOSUPPORT";
	case 121: return "ESOCKTNOSUPPORT";
	case 122: return "EOPNOTSUPP";
	case 124: return "EAFNOSUPPORT";
	case 125: return "EADDRINUSE";
	case 146: return "ECONNREFUSED";
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

static struct sockaddr_in inet(unsigned int addr, int port)
{
	struct sockaddr_in s;
	memset(&s, 0, sizeof s);
	s.family = AF_INET;
	s.port = port; /* big-endian: network order already */
	s.addr = addr;
	return s;
}

static void pair(void)
{
	int sv[2];
	char buf[16];
	report("socketpair AF_UNIX SOCK_STREAM", socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	report("write on one end", write(sv[0], "ping", 5));
	report("read on the other", read(sv[1], buf, sizeof buf));
	printf("read: %s\n", buf);
	report("send back", send(sv[1], "pong", 5, 0));
	report("recv", recv(sv[0], buf, sizeof buf, 0));
	printf("recv: %s\n", buf);
	close(sv[0]);
	report("recv after the peer closed", recv(sv[1], buf, sizeof buf, 0));
	close(sv[1]);
	report("socketpair AF_INET", socketpair(AF_INET, SOCK_STREAM, 0, sv));
}

static void unix_stream(void)
{
	struct sockaddr_un a, got;
	int s = socket(AF_UNIX, SOCK_STREAM, 0), c, n, len, st;
	char buf[32];
	memset(&a, 0, sizeof a);
	a.family = AF_UNIX;
	strcpy(a.path, "ipc.sock");
	unlink(a.path);
	report("bind AF_UNIX ipc.sock", bind(s, &a, sizeof a));
	report("listen", listen(s, 5));
	len = sizeof got;
	report("getsockname", getsockname(s, &got, &len));
	printf("getsockname: family %d path %s\n", got.family, got.path);
	report("bind of a second socket to the same path", bind(socket(AF_UNIX, SOCK_STREAM, 0), &a, sizeof a));
	if (fork() == 0) {
		int k = socket(AF_UNIX, SOCK_STREAM, 0);
		if (connect(k, &a, sizeof a) != 0)
			printf("child connect: -1 %s\n", name(errno));
		send(k, "over a path", 12, 0);
		n = recv(k, buf, sizeof buf, 0);
		printf("child got back: %.*s\n", n, buf);
		_exit(0);
	}
	c = accept(s, 0, 0);
	printf("accept: %s\n", c >= 0 ? "a descriptor" : name(errno));
	n = recv(c, buf, sizeof buf, 0);
	printf("server got: %.*s\n", n, buf);
	send(c, "echo", 4, 0);
	wait(&st);
	close(c);
	close(s);
	unlink(a.path);
	strcpy(a.path, "nobody.sock");
	report("connect to a missing path", connect(socket(AF_UNIX, SOCK_STREAM, 0), &a, sizeof a));
}

static void inet_stream(void)
{
	struct sockaddr_in a = inet(LOOPBACK, 0), got, peer;
	int s = socket(AF_INET, SOCK_STREAM, 0), c, n, len, st;
	char buf[32];
	report("bind AF_INET 127.0.0.1 port 0", bind(s, &a, sizeof a));
	len = sizeof got;
	getsockname(s, &got, &len);
	printf("getsockname: family %d port %u address 0x%x length %d\n", got.family, got.port, got.addr, len);
	report("listen", listen(s, 5));
	if (fork() == 0) {
		int k = socket(AF_INET, SOCK_STREAM, 0);
		if (connect(k, &got, sizeof got) != 0)
			printf("child connect: -1 %s\n", name(errno));
		send(k, "over tcp", 8, 0);
		_exit(0);
	}
	len = sizeof peer;
	c = accept(s, &peer, &len);
	n = recv(c, buf, sizeof buf, 0);
	printf("accept: peer family %d address 0x%x, got: %.*s\n", peer.family, peer.addr, n, buf);
	wait(&st);
	close(c);
	close(s);
	a = inet(LOOPBACK, 7999);
	report("connect to a port nothing listens on", connect(socket(AF_INET, SOCK_STREAM, 0), &a, sizeof a));
	a = inet(LOOPBACK, 7001);
	s = socket(AF_INET, SOCK_STREAM, 0);
	bind(s, &a, sizeof a);
	report("bind of a second socket to the same port", bind(socket(AF_INET, SOCK_STREAM, 0), &a, sizeof a));
	close(s);
	report("socket(AF_INET, 99, 0)", socket(AF_INET, 99, 0));
	report("socket(AF_INET, SOCK_STREAM, 17)", socket(AF_INET, SOCK_STREAM, 17));
	report("socket(99, SOCK_STREAM, 0)", socket(99, SOCK_STREAM, 0));
}

static void inet_datagrams(void)
{
	struct sockaddr_in a = inet(LOOPBACK, 7002), from;
	int r = socket(AF_INET, SOCK_DGRAM, 0), s = socket(AF_INET, SOCK_DGRAM, 0), n, len;
	char buf[32];
	report("bind a datagram socket to 127.0.0.1:7002", bind(r, &a, sizeof a));
	report("sendto", sendto(s, "datagram", 8, 0, &a, sizeof a));
	len = sizeof from;
	n = recvfrom(r, buf, sizeof buf, 0, &from, &len);
	printf("recvfrom: %.*s from family %d address 0x%x port %u\n", n, buf, from.family, from.addr,
	       from.port);
	close(r);
	close(s);
}

int main(void)
{
	setbuf(stdout, 0); /* children print too, and leave by _exit */
	pair();
	unix_stream();
	inet_stream();
	inet_datagrams();
	printf("done\n");
	return 0;
}
