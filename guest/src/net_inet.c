/* net_inet -- AF_INET sockets on the loopback address between the run's
 * processes, as IRIX socket(2), bind(2), listen(2), accept(2), connect(2),
 * send(2), recv(2) and the name and option calls describe them: no host
 * network is reached.
 *  1. A TCP echo server and a forked client on 127.0.0.1.
 *  2. UDP datagrams with their senders' addresses.
 *  3. select(2) on a listening socket; TCP_NODELAY.
 *  4. Addresses outside the run: ENETUNREACH; the other errors the pages
 *     list.
 * Expected output: tests/all/kernel_sockets.rs. */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/wait.h>

#define SYS_accept 1089
#define SYS_bind 1090
#define SYS_connect 1091
#define SYS_getpeername 1093
#define SYS_getsockname 1094
#define SYS_getsockopt 1095
#define SYS_listen 1096
#define SYS_recvfrom 1098
#define SYS_select 1100
#define SYS_sendto 1103
#define SYS_setsockopt 1105
#define SYS_socket 1107

#define AF_INET 2
#define SOCK_DGRAM 1
#define SOCK_STREAM 2
#define IPPROTO_TCP 6
#define TCP_NODELAY 1
#define ENOPROTOOPT 99
#define EAFNOSUPPORT 124
#define EADDRINUSE 125
#define EADDRNOTAVAIL 126
#define ENETUNREACH 128
#define EISCONN 133
#define ECONNREFUSED 146

struct sockaddr_in {
	unsigned short sin_family;
	unsigned short sin_port;
	unsigned int sin_addr;
	char sin_zero[8];
};

static const char *err(int e)
{
	switch (e) {
	case 120: return "EPROTONOSUPPORT";
	case ENOPROTOOPT: return "ENOPROTOOPT";
	case EAFNOSUPPORT: return "EAFNOSUPPORT";
	case EADDRINUSE: return "EADDRINUSE";
	case EADDRNOTAVAIL: return "EADDRNOTAVAIL";
	case ENETUNREACH: return "ENETUNREACH";
	case EISCONN: return "EISCONN";
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

static struct sockaddr_in inet(unsigned int a, unsigned int b, unsigned int c, unsigned int d, int port)
{
	struct sockaddr_in s;
	memset(&s, 0, sizeof s);
	s.sin_family = AF_INET;
	s.sin_port = port; /* big-endian: network order already */
	s.sin_addr = a << 24 | b << 16 | c << 8 | d;
	return s;
}

static void show(const char *what, struct sockaddr_in *s)
{
	unsigned int a = s->sin_addr;
	printf("%s: %u.%u.%u.%u port %u\n", what, a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255, s->sin_port);
}

static long sock(long t) { return syscall(SYS_socket, (long)AF_INET, t, 0L); }

static void tcp_echo(void)
{
	struct sockaddr_in a = inet(127, 0, 0, 1, 7000), got;
	int s = sock(SOCK_STREAM), c, glen, status, one = 1;
	unsigned int readfds;
	char buf[64];
	pid_t pid;
	report("bind 127.0.0.1:7000", syscall(SYS_bind, (long)s, &a, 16L));
	report("listen", syscall(SYS_listen, (long)s, 2L));
	pid = fork();
	if (pid == 0) {
		int t = sock(SOCK_STREAM);
		long n;
		report("client connect", syscall(SYS_connect, (long)t, &a, 16L));
		glen = sizeof got;
		syscall(SYS_getsockname, (long)t, &got, &glen);
		show("client's own name", &got);
		report("client TCP_NODELAY", syscall(SYS_setsockopt, (long)t, (long)IPPROTO_TCP, (long)TCP_NODELAY, &one, 4L));
		write(t, "ping over tcp", 13);
		n = read(t, buf, sizeof buf);
		printf("client got back: %.*s\n", (int)n, buf);
		report("client connects again", syscall(SYS_connect, (long)t, &a, 16L));
		close(t);
		_exit(0);
	}
	readfds = 1u << s;
	report("select for the connection", syscall(SYS_select, (long)(s + 1), &readfds, 0L, 0L, 0L));
	printf("the listening socket is readable: %s\n", readfds & (1u << s) ? "yes" : "no");
	glen = sizeof got;
	c = syscall(SYS_accept, (long)s, &got, &glen);
	show("accepted from", &got);
	glen = sizeof got;
	syscall(SYS_getsockname, (long)c, &got, &glen);
	show("the accepted socket's name", &got);
	glen = sizeof got;
	syscall(SYS_getpeername, (long)c, &got, &glen);
	show("its peer", &got);
	{
		long n = read(c, buf, sizeof buf);
		printf("server got: %.*s\n", (int)n, buf);
		write(c, buf, n);
	}
	waitpid(pid, &status, 0);
	close(c);
	{
		int t = sock(SOCK_STREAM);
		report("a second bind of port 7000", syscall(SYS_bind, (long)t, &a, 16L));
		close(t);
	}
	close(s);
	{
		int t = sock(SOCK_STREAM);
		report("connect with no listener", syscall(SYS_connect, (long)t, &a, 16L));
		report("bind of port 7000 once it is closed", syscall(SYS_bind, (long)t, &a, 16L));
		close(t);
	}
}

static void udp(void)
{
	struct sockaddr_in a = inet(127, 0, 0, 1, 9000), from, any = inet(0, 0, 0, 0, 0), nobody = inet(127, 0, 0, 1, 9999);
	int s = sock(SOCK_DGRAM), t = sock(SOCK_DGRAM), flen, i;
	char buf[64];
	report("bind UDP 127.0.0.1:9000", syscall(SYS_bind, (long)s, &a, 16L));
	report("bind UDP port 0", syscall(SYS_bind, (long)t, &any, 16L));
	flen = sizeof from;
	syscall(SYS_getsockname, (long)t, &from, &flen);
	show("port 0 became", &from);
	for (i = 0; i < 3; i++) {
		char msg[16];
		sprintf(msg, "datagram %d", i);
		syscall(SYS_sendto, (long)t, msg, (long)strlen(msg), 0L, &a, 16L);
	}
	for (i = 0; i < 3; i++) {
		long n;
		flen = sizeof from;
		n = syscall(SYS_recvfrom, (long)s, buf, 64L, 0L, &from, &flen);
		printf("received %ld bytes \"%.*s\"; ", n, (int)n, buf);
		show("from", &from);
	}
	report("sendto a port nobody holds (lost, as UDP loses it)",
	       syscall(SYS_sendto, (long)t, "lost", 4L, 0L, &nobody, 16L));
	report("connect the UDP socket", syscall(SYS_connect, (long)t, &a, 16L));
	report("sendto on it with an address", syscall(SYS_sendto, (long)t, "x", 1L, 0L, &a, 16L));
	report("write on it", write(t, "via write", 9));
	report("read it", read(s, buf, 64));
	close(s);
	close(t);
}

static void unreachable_and_errors(void)
{
	struct sockaddr_in far = inet(192, 0, 2, 1, 80), mine = inet(10, 1, 2, 3, 5000), low = inet(0, 0, 0, 0, 80);
	int s = sock(SOCK_STREAM), u = sock(SOCK_DGRAM), val, vlen;
	report("connect to 192.0.2.1:80", syscall(SYS_connect, (long)s, &far, 16L));
	report("sendto 192.0.2.1:80", syscall(SYS_sendto, (long)u, "x", 1L, 0L, &far, 16L));
	report("bind to 10.1.2.3 (not this machine's)", syscall(SYS_bind, (long)s, &mine, 16L));
	report("bind to port 80 (the super-user's)", syscall(SYS_bind, (long)s, &low, 16L));
	report("bind with a short address", syscall(SYS_bind, (long)s, &low, 8L));
	report("connect with an AF_UNIX address", (((unsigned short *)&far)[0] = 1,
		syscall(SYS_connect, (long)s, &far, 16L)));
	vlen = sizeof val;
	report("TCP_NODELAY on a UDP socket", syscall(SYS_getsockopt, (long)u, (long)IPPROTO_TCP, (long)TCP_NODELAY, &val, &vlen));
	close(s);
	close(u);
}

int main(void)
{
	tcp_echo();
	udp();
	unreachable_and_errors();
	return 0;
}
