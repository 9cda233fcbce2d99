/* fs_escape -- name-space changes a guest might try to reach outside its
 * root and binds with, for tests/sandbox.rs. Each argument is one
 * operation, OP:ARG[:ARG...], and prints one line, "OP ARGS: ok" or
 * "OP ARGS: ERRNO" (open prints ok and the file's first line):
 *   open:P  symlink:TARGET:LINK  rename:A:B  link:A:B  rmdir:P  unlink:P
 *   chown:P:UID:GID  mknod:P (a character device)  chmod:P  utime:P (now)
 *   truncate:P
 * Calls go through libc's syscall(nr, ...) with IRIX's numbers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#define N_LINK 1009
#define N_CHMOD 1015
#define N_CHOWN 1016
#define N_UTIME 1030
#define N_RMDIR 1079
#define N_TRUNCATE 1112
#define N_RENAME 1114
#define N_SYMLINK 1115
#define N_XMKNOD 1161

/* Splits "a:b:c" in place into at most 4 fields. */
static int split(char *s, char *f[4])
{
	int n = 0;
	f[n++] = s;
	for (; *s && n < 4; s++)
		if (*s == ':') {
			*s = 0;
			f[n++] = s + 1;
		}
	return n;
}

static long run(char **f, int n)
{
	const char *op = f[0];
	if (!strcmp(op, "open") && n == 2) {
		char buf[64];
		long got, i;
		int fd = open(f[1], O_RDONLY);
		if (fd < 0)
			return -1;
		got = read(fd, buf, sizeof buf - 1);
		close(fd);
		for (i = 0; i < got && buf[i] != '\n'; i++)
			;
		buf[i] = 0;
		printf("open %s: ok \"%s\"\n", f[1], buf);
		return 1;
	}
	if (!strcmp(op, "symlink") && n == 3)
		return syscall(N_SYMLINK, f[1], f[2]);
	if (!strcmp(op, "rename") && n == 3)
		return syscall(N_RENAME, f[1], f[2]);
	if (!strcmp(op, "link") && n == 3)
		return syscall(N_LINK, f[1], f[2]);
	if (!strcmp(op, "rmdir") && n == 2)
		return syscall(N_RMDIR, f[1]);
	if (!strcmp(op, "unlink") && n == 2)
		return unlink(f[1]);
	if (!strcmp(op, "chown") && n == 4)
		return syscall(N_CHOWN, f[1], atoi(f[2]), atoi(f[3]));
	if (!strcmp(op, "mknod") && n == 2)
		return syscall(N_XMKNOD, 2, f[1], 020666, 0x40001);
	if (!strcmp(op, "chmod") && n == 2)
		return syscall(N_CHMOD, f[1], 0777);
	if (!strcmp(op, "utime") && n == 2)
		return syscall(N_UTIME, f[1], 0);
	if (!strcmp(op, "truncate") && n == 2)
		return syscall(N_TRUNCATE, f[1], 0);
	errno = EINVAL;
	return -1;
}

int main(int argc, char **argv)
{
	int i, j, n;
	char *f[4];
	for (i = 1; i < argc; i++) {
		n = split(argv[i], f);
		errno = 0;
		if (run(f, n) == 1)
			continue;
		printf("%s", f[0]);
		for (j = 1; j < n; j++)
			printf(" %s", f[j]);
		printf(": %s\n", errno ? errno_name(errno) : "ok");
	}
	return 0;
}
