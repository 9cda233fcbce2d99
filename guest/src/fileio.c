/* fileio -- file system calls through the portable libc API: creates
 * "fileio.tmp" in the current directory, writes, lseeks, reads back,
 * fstats and stats it, unlinks it, then shows errors by errno name.
 * Expected output (exit status 0):
 *   open fileio.tmp: ok
 *   write: 29 bytes
 *   lseek(9, SEEK_SET): 9
 *   read: 10 bytes "line two\nl"
 *   lseek(0, SEEK_END): 29
 *   read at end: 0 bytes
 *   lseek bad whence: -1 EINVAL
 *   fstat: size 29, regular file yes
 *   close: 0
 *   stat: size 29, regular file yes
 *   unlink: 0
 *   open missing file: -1 ENOENT
 *   stat missing file: -1 ENOENT
 *   unlink missing file: -1 ENOENT
 *   read bad fd: -1 EBADF
 *   close bad fd: -1 EBADF
 */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>

static const char name[] = "fileio.tmp";
static const char text[] = "line one\nline two\nline three\n";

static void show_error(const char *what, int r)
{
	printf("%s: %d %s\n", what, r, r < 0 ? errno_name(errno) : "(no error)");
}

static void show_escaped(const char *buf, int n)
{
	int i;
	putchar('"');
	for (i = 0; i < n; i++) {
		if (buf[i] == '\n')
			printf("\\n");
		else
			putchar(buf[i]);
	}
	putchar('"');
}

int main(void)
{
	char buf[64];
	struct stat st;
	int fd, n;
	off_t off;

	fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		printf("open %s: %s\n", name, errno_name(errno));
		return 1;
	}
	printf("open %s: ok\n", name);
	n = write(fd, text, strlen(text));
	printf("write: %d bytes\n", n);
	off = lseek(fd, 9, SEEK_SET);
	printf("lseek(9, SEEK_SET): %ld\n", off);
	n = read(fd, buf, 10);
	printf("read: %d bytes ", n);
	show_escaped(buf, n);
	printf("\n");
	off = lseek(fd, 0, SEEK_END);
	printf("lseek(0, SEEK_END): %ld\n", off);
	n = read(fd, buf, sizeof buf);
	printf("read at end: %d bytes\n", n);
	show_error("lseek bad whence", (int)lseek(fd, 0, 7));
	if (fstat(fd, &st) == 0)
		printf("fstat: size %ld, regular file %s\n", st.st_size, S_ISREG(st.st_mode) ? "yes" : "no");
	else
		show_error("fstat", -1);
	printf("close: %d\n", close(fd));
	if (stat(name, &st) == 0)
		printf("stat: size %ld, regular file %s\n", st.st_size, S_ISREG(st.st_mode) ? "yes" : "no");
	else
		show_error("stat", -1);
	printf("unlink: %d\n", unlink(name));

	show_error("open missing file", open(name, O_RDONLY));
	show_error("stat missing file", stat(name, &st));
	show_error("unlink missing file", unlink(name));
	show_error("read bad fd", read(99, buf, 1));
	show_error("close bad fd", close(99));
	return 0;
}
