/* mem_shared -- MAP_SHARED, as IRIX mmap(2) and msync(2) describe it: the
 * pages of a shared mapping are the object's, so every process mapping it
 * and the file's read(2) and write(2) see the same bytes.
 *  1. MAP_SHARED|MAP_ANONYMOUS (and /dev/zero mapped MAP_SHARED) is shared
 *     with a child forked after the mapping; MAP_PRIVATE memory is copied.
 *  2. A file mapped MAP_SHARED: a store is seen by read(2) at once, a
 *     write(2) is seen through the mapping, a child that opens and maps the
 *     file itself shares the pages, stores survive munmap and close, and a
 *     store past the end of the file (in its last page) never grows it.
 *  3. msync's errors; PROT_WRITE MAP_SHARED of a read-only descriptor.
 * Expected output: see tests/processes.rs (shared_mappings_...). */
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/wait.h>

#define SYS_mmap 1134
#define SYS_munmap 1135
#define SYS_msync 1137
#define PROT_READ 1
#define PROT_RW 3
#define MAP_SHARED 1
#define MAP_PRIVATE 2
#define MAP_ANONYMOUS 0x100
#define MS_SYNC 4
#define FILE_NAME "mem_shared.dat"
#define FILE_SIZE 5000

static char *map(unsigned long len, long prot, long flags, long fd)
{
	return (char *)syscall(SYS_mmap, 0L, len, prot, flags, fd, 0L);
}

static void report(const char *what, long r)
{
	if (r < 0)
		printf("%s: -1 %s\n", what, errno_name(errno));
	else
		printf("%s: %ld\n", what, r);
}

/* A child stores `value` at p[0] and exits. */
static void child_stores(char *p, char value)
{
	int status;
	pid_t pid = fork();
	if (pid == 0) {
		p[0] = value;
		_exit(0);
	}
	waitpid(pid, &status, 0);
}

static void anonymous(void)
{
	char *shared = map(4096, PROT_RW, MAP_SHARED | MAP_ANONYMOUS, -1);
	char *private = map(4096, PROT_RW, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	int zero = open("/dev/zero", O_RDWR);
	char *dz = map(4096, PROT_RW, MAP_SHARED, zero);
	shared[0] = 1;
	private[0] = 1;
	child_stores(shared, 42);
	child_stores(private, 42);
	child_stores(dz, 43);
	printf("anonymous shared after the child's store: %d\n", shared[0]);
	printf("anonymous private after the child's store: %d\n", private[0]);
	printf("/dev/zero shared after the child's store: %d\n", dz[0]);
	close(zero);
}

static char read_byte(int fd, long at)
{
	char c = '?';
	lseek(fd, at, SEEK_SET);
	read(fd, &c, 1);
	return c;
}

static void file(void)
{
	static char fill[FILE_SIZE];
	int fd, status, i;
	char *p;
	pid_t pid;

	for (i = 0; i < FILE_SIZE; i++)
		fill[i] = '.';
	fd = open(FILE_NAME, O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(fd, fill, FILE_SIZE);
	p = map(8192, PROT_RW, MAP_SHARED, fd);
	printf("file mapped: %s\n", p == (char *)-1 ? errno_name(errno) : "ok");

	p[10] = 'S';
	printf("read(2) sees the store: %c\n", read_byte(fd, 10));
	lseek(fd, 20, SEEK_SET);
	write(fd, "W", 1);
	printf("the mapping sees write(2): %c\n", p[20]);

	pid = fork();
	if (pid == 0) {
		int own = open(FILE_NAME, O_RDWR);
		char *q = map(8192, PROT_RW, MAP_SHARED, own);
		q[30] = 'C';
		_exit(0);
	}
	waitpid(pid, &status, 0);
	printf("the child's own mapping, seen here: %c\n", p[30]);

	p[4999] = 'E';
	p[6000] = 'X'; /* past the end, in the last page */
	report("msync", syscall(SYS_msync, (long)p, 8192L, (long)MS_SYNC));
	report("msync unaligned", syscall(SYS_msync, (long)p + 1, 10L, (long)MS_SYNC));
	report("msync unmapped", syscall(SYS_msync, 0x7000000L, 4096L, (long)MS_SYNC));
	report("munmap", syscall(SYS_munmap, (long)p, 8192L));
	close(fd);

	fd = open(FILE_NAME, O_RDONLY);
	printf("after munmap and close: %c%c%c%c\n", read_byte(fd, 10), read_byte(fd, 20),
	       read_byte(fd, 30), read_byte(fd, 4999));
	printf("file size: %ld\n", (long)lseek(fd, 0, SEEK_END));
	p = map(4096, PROT_RW, MAP_SHARED, fd);
	printf("PROT_WRITE shared of a read-only descriptor: %s\n",
	       p == (char *)-1 ? errno_name(errno) : "mapped");
	p = map(4096, PROT_READ, MAP_SHARED, fd);
	printf("PROT_READ shared of it: %c\n", p == (char *)-1 ? '-' : p[10]);
	close(fd);
	report("unlink", unlink(FILE_NAME));
}

int main(void)
{
	anonymous();
	file();
	return 0;
}
