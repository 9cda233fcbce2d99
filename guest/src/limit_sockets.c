/* limit_sockets -- socket buffers count against the run's memory budget
 * (irix-emu --max-memory): socketpair(2) in a loop until it fails, then
 * every socket closed and one more pair made, which works again because
 * closing gave the buffers back.
 * Under a small --max-memory the loop ends with ENOBUFS (socket(2):
 * "Insufficient buffer space is available"); with room, with EMFILE when
 * the descriptor table is full. Expected output: tests/all/limits.rs. */
#include <stdio.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#define SYS_socketpair 1155
#define AF_UNIX 1
#define SOCK_STREAM 2
#define MAX_PAIRS 200

int main(void)
{
	int sv[MAX_PAIRS][2], made = 0, i;
	long r = 0;
	memset(sv, 0xff, sizeof sv); /* its pages written before the budget runs out */
	while (made < MAX_PAIRS) {
		r = syscall(SYS_socketpair, (long)AF_UNIX, (long)SOCK_STREAM, 0L, sv[made]);
		if (r < 0)
			break;
		made++;
	}
	printf("pairs made: %d\n", made);
	printf("then socketpair: %s\n", r < 0 ? (errno == 132 ? "ENOBUFS" : errno_name(errno)) : "0");
	for (i = 0; i < made; i++) {
		close(sv[i][0]);
		close(sv[i][1]);
	}
	r = syscall(SYS_socketpair, (long)AF_UNIX, (long)SOCK_STREAM, 0L, sv[0]);
	printf("after closing them all, socketpair: %ld\n", r);
	return 0;
}
