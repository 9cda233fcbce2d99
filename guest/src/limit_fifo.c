/* limit_fifo -- opening and reading a FIFO in the root that nobody writes:
 * the caller waits in virtual time, never the emulator in a host call, so
 * --max-cycles ends the run. With a second argument the open asks for
 * O_NONBLOCK and the read reports EAGAIN instead.
 * Expected output: "limit_fifo: opened PATH\n", then either nothing more
 * (the run stops at --max-cycles, status 124) or
 * "limit_fifo: read: EAGAIN\n" (status 0). */
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#define O_NONBLOCK 0x80

int main(int argc, char **argv)
{
	char c;
	int fd;
	ssize_t n;
	if (argc < 2)
		return 2;
	fd = open(argv[1], O_RDONLY | (argc > 2 ? O_NONBLOCK : 0));
	if (fd < 0) {
		printf("limit_fifo: open %s: %s\n", argv[1], errno_name(errno));
		return 1;
	}
	printf("limit_fifo: opened %s\n", argv[1]);
	n = read(fd, &c, 1);
	printf("limit_fifo: read: %s\n", n < 0 ? errno_name(errno) : n == 0 ? "end of file" : "a byte");
	return 0;
}
