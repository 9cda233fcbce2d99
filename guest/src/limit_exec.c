/* limit_exec -- exec without reading the file whole.
 * "sparse": copies /prog (this program, placed in the root by the test) to
 *   /big, extends it to 4 GiB + 1 byte with a hole (lseek64, write), and
 *   execs /big with the argument "child"; the kernel maps the segments
 *   from the file page by page, so the hole costs nothing. Output:
 *     limit_exec: /big is 4 GiB + 1, exec'ing it
 *     limit_exec: child running from /big
 * "path P": execs P and prints why it failed:
 *     limit_exec: exec P: <ERRNO>
 * "child": prints the child line and exits 0. */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#define SYS_lseek64 1078

static int copy(const char *from, const char *to)
{
	char buf[4096];
	int in = open(from, O_RDONLY), out = creat(to, 0755);
	ssize_t n;
	if (in < 0 || out < 0)
		return -1;
	while ((n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, n) != n)
			return -1;
	close(in);
	return out;
}

int main(int argc, char **argv)
{
	static char *env[] = {0};
	if (argc > 1 && strcmp(argv[1], "child") == 0) {
		printf("limit_exec: child running from %s\n", argv[0]);
		return 0;
	}
	if (argc > 2 && strcmp(argv[1], "path") == 0) {
		char *args[] = {argv[2], 0};
		execve(argv[2], args, env);
		printf("limit_exec: exec %s: %s\n", argv[2], errno_name(errno));
		return 0;
	}
	{
		char *args[] = {"/big", "child", 0};
		int fd = copy("/prog", "/big");
		/* lseek64(fd, pad, hi, lo, whence): to 4 GiB. */
		if (fd < 0 || syscall(SYS_lseek64, (long)fd, 0L, 1L, 0L, 0L) < 0 || write(fd, "", 1) != 1) {
			printf("limit_exec: making /big: %s\n", errno_name(errno));
			return 1;
		}
		close(fd);
		printf("limit_exec: /big is 4 GiB + 1, exec'ing it\n");
		execve("/big", args, env);
		printf("limit_exec: exec /big: %s\n", errno_name(errno));
		return 1;
	}
}
