/* net_oob -- out-of-band data on a stream socketpair, as send(2) and
 * recv(2) describe MSG_OOB: the last byte of a MSG_OOB send is urgent and
 * kept apart; reads stop at the mark; SIOCATMARK tells when the read
 * position is there; poll(2) shows POLLPRI while the urgent byte waits;
 * recv(MSG_OOB) with none waiting is EINVAL; datagrams have none.
 *   net_oob inet   the same urgent byte on an AF_INET connection between
 *                  two sockets of the run on the loopback address (under
 *                  --net too, where such sockets also hold host ports)
 * Expected output: tests/all/kernel_sockets.rs. */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

#define SYS_ioctl 1054
#define SYS_poll 1087
#define SYS_recv 1097
#define SYS_send 1101
#define SYS_socketpair 1155
#define SYS_accept 1089
#define SYS_bind 1090
#define SYS_connect 1091
#define SYS_getsockname 1094
#define SYS_listen 1096
#define SYS_socket 1107
#define AF_INET 2

#define AF_UNIX 1
#define SOCK_DGRAM 1
#define SOCK_STREAM 2
#define MSG_OOB 0x1
#define MSG_PEEK 0x2
#define SIOCATMARK 0x40047307
#define POLLIN 0x1
#define POLLPRI 0x2

struct pollfd {
	int fd;
	short events;
	short revents;
};

static void report(const char *what, long r)
{
	if (r < 0)
		printf("%s: -1 %s\n", what, errno == 122 ? "EOPNOTSUPP" : errno_name(errno));
	else
		printf("%s: %ld\n", what, r);
}

static int at_mark(int s)
{
	int at = -1;
	syscall(SYS_ioctl, (long)s, (long)SIOCATMARK, &at);
	return at;
}

struct sockaddr_in {
	unsigned short sin_family;
	unsigned short sin_port;
	unsigned int sin_addr;
	char sin_zero[8];
};

/* A loopback AF_INET connection inside the run: the urgent byte goes
 * apart as on a socketpair. */
static int inet_oob(void)
{
	struct sockaddr_in me;
	int l = syscall(SYS_socket, (long)AF_INET, (long)SOCK_STREAM, 0L), c, a, len = sizeof me;
	char buf[32];
	memset(&me, 0, sizeof me);
	me.sin_family = AF_INET;
	me.sin_addr = 0x7f000001;
	report("bind to 127.0.0.1", syscall(SYS_bind, (long)l, &me, 16L));
	syscall(SYS_getsockname, (long)l, &me, &len);
	report("listen", syscall(SYS_listen, (long)l, 1L));
	c = syscall(SYS_socket, (long)AF_INET, (long)SOCK_STREAM, 0L);
	report("connect", syscall(SYS_connect, (long)c, &me, 16L));
	len = sizeof me;
	a = syscall(SYS_accept, (long)l, &me, &len);
	report("send \"xy!\" with MSG_OOB", syscall(SYS_send, (long)c, "xy!", 3L, (long)MSG_OOB));
	report("recv MSG_OOB", syscall(SYS_recv, (long)a, buf, 1L, (long)MSG_OOB));
	printf("urgent byte: %c\n", buf[0]);
	report("read before the mark", read(a, buf, sizeof buf));
	printf("data: %.2s\n", buf);
	return 0;
}

int main(int argc, char **argv)
{
	int sv[2], dv[2];
	char buf[32];
	long n;
	struct pollfd pf;
	if (argc == 2 && strcmp(argv[1], "inet") == 0)
		return inet_oob();
	syscall(SYS_socketpair, (long)AF_UNIX, (long)SOCK_STREAM, 0L, sv);
	report("recv MSG_OOB with none sent", syscall(SYS_recv, (long)sv[1], buf, 1L, (long)MSG_OOB));
	write(sv[0], "abc", 3);
	report("send \"de!\" with MSG_OOB", syscall(SYS_send, (long)sv[0], "de!", 3L, (long)MSG_OOB));
	write(sv[0], "fg", 2);
	pf.fd = sv[1];
	pf.events = POLLIN | POLLPRI;
	pf.revents = 0;
	syscall(SYS_poll, &pf, 1L, 0L);
	printf("poll: POLLPRI %s\n", pf.revents & POLLPRI ? "yes" : "no");
	printf("at the mark before reading: %d\n", at_mark(sv[1]));
	n = read(sv[1], buf, sizeof buf);
	printf("a read stops at the mark: %.*s\n", (int)n, buf);
	printf("at the mark now: %d\n", at_mark(sv[1]));
	report("recv MSG_OOB|MSG_PEEK", syscall(SYS_recv, (long)sv[1], buf, 1L, (long)(MSG_OOB | MSG_PEEK)));
	n = syscall(SYS_recv, (long)sv[1], buf, 1L, (long)MSG_OOB);
	printf("recv MSG_OOB: %ld byte: %c\n", n, buf[0]);
	report("recv MSG_OOB again", syscall(SYS_recv, (long)sv[1], buf, 1L, (long)MSG_OOB));
	n = read(sv[1], buf, sizeof buf);
	printf("the rest, without the urgent byte: %.*s\n", (int)n, buf);
	printf("at the mark after it: %d\n", at_mark(sv[1]));
	syscall(SYS_socketpair, (long)AF_UNIX, (long)SOCK_DGRAM, 0L, dv);
	report("send MSG_OOB on a datagram socket", syscall(SYS_send, (long)dv[0], "x", 1L, (long)MSG_OOB));
	return 0;
}
