/* net_oob -- out-of-band data on a stream socketpair, as send(2) and
 * recv(2) describe MSG_OOB: the last byte of a MSG_OOB send is urgent and
 * kept apart; reads stop at the mark; SIOCATMARK tells when the read
 * position is there; poll(2) shows POLLPRI while the urgent byte waits;
 * recv(MSG_OOB) with none waiting is EINVAL; datagrams have none.
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

int main(void)
{
	int sv[2], dv[2];
	char buf[32];
	long n;
	struct pollfd pf;
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
