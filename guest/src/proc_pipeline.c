/* proc_pipeline -- pipe(2), fork(2), close(2) and EOF across three
 * processes: producer | filter | consumer.
 * The producer writes the integers 1..1000 (4-byte binary) to pipe 1; the
 * filter keeps multiples of 3 and writes their squares to pipe 2; the
 * consumer counts and sums what arrives until EOF and prints the result.
 * Every process closes the pipe ends it does not use, so EOF propagates.
 * The parent waits for the three children in order, then prints their exit
 * statuses and the expected sum computed directly.
 * Expected output (exit status 0):
 *   consumer: 333 values, sum 111277611
 *   parent: producer exited 0, filter exited 0, consumer exited 0
 *   parent: expected 333 values, sum 111277611
 */
#include <stdio.h>
#include <errno.h>
#include <unistd.h>
#include <sys/wait.h>

#define COUNT 1000

/* read exactly n bytes; 0 at a clean EOF, -1 on error or short EOF */
static int read_full(int fd, void *buf, int n)
{
	char *p = buf;
	int got = 0;
	while (got < n) {
		int r = (int)read(fd, p + got, (size_t)(n - got));
		if (r < 0)
			return -1;
		if (r == 0)
			return got == 0 ? 0 : -1;
		got += r;
	}
	return 1;
}

static int write_full(int fd, const void *buf, int n)
{
	const char *p = buf;
	while (n > 0) {
		int r = (int)write(fd, p, (size_t)n);
		if (r <= 0)
			return -1;
		p += r;
		n -= r;
	}
	return 0;
}

static void producer(int out)
{
	int v;
	for (v = 1; v <= COUNT; v++)
		if (write_full(out, &v, 4) < 0)
			_exit(1);
	_exit(0);
}

static void filter(int in, int out)
{
	int v, r;
	while ((r = read_full(in, &v, 4)) > 0) {
		if (v % 3 == 0) {
			v *= v;
			if (write_full(out, &v, 4) < 0)
				_exit(1);
		}
	}
	_exit(r < 0 ? 2 : 0);
}

static void consumer(int in)
{
	int v, r, n = 0;
	unsigned sum = 0;
	while ((r = read_full(in, &v, 4)) > 0) {
		n++;
		sum += (unsigned)v;
	}
	printf("consumer: %d values, sum %u\n", n, sum);
	_exit(r < 0 ? 2 : 0);
}

static void describe(const char *who, int status, const char *sep)
{
	if (WIFEXITED(status))
		printf("%s exited %d%s", who, WEXITSTATUS(status), sep);
	else
		printf("%s killed by signal %d%s", who, WTERMSIG(status), sep);
}

int main(void)
{
	int p1[2], p2[2], st[3], i, n = 0;
	pid_t pid[3];
	unsigned sum = 0;

	if (pipe(p1) < 0 || pipe(p2) < 0) {
		printf("pipe: %s\n", errno_name(errno));
		return 1;
	}
	if ((pid[0] = fork()) == 0) {
		close(p1[0]);
		close(p2[0]);
		close(p2[1]);
		producer(p1[1]);
	}
	if ((pid[1] = fork()) == 0) {
		close(p1[1]);
		close(p2[0]);
		filter(p1[0], p2[1]);
	}
	if ((pid[2] = fork()) == 0) {
		close(p1[0]);
		close(p1[1]);
		close(p2[1]);
		consumer(p2[0]);
	}
	close(p1[0]);
	close(p1[1]);
	close(p2[0]);
	close(p2[1]);
	for (i = 0; i < 3; i++) {
		if (pid[i] < 0 || waitpid(pid[i], &st[i], 0) != pid[i]) {
			printf("parent: fork/waitpid %d failed: %s\n", i, errno_name(errno));
			return 1;
		}
	}
	printf("parent: ");
	describe("producer", st[0], ", ");
	describe("filter", st[1], ", ");
	describe("consumer", st[2], "\n");
	for (i = 3; i <= COUNT; i += 3) {
		n++;
		sum += (unsigned)(i * i);
	}
	printf("parent: expected %d values, sum %u\n", n, sum);
	return 0;
}
