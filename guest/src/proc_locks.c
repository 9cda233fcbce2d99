/* proc_locks -- fcntl(2)'s record locks between two processes, and
 * F_ALLOCSP / F_FREESP (what IRIX's usinit asks of its arena file). Run in
 * an empty scratch directory: it creates and removes proc_locks.f. The
 * parent write-locks bytes [0, 10); a forked child finds the lock with
 * F_GETLK, fails F_SETLK on it with EAGAIN, takes a read lock beside it,
 * then waits in F_SETLKW until the parent closes its descriptor (which
 * releases the parent's locks). Lines are printed in a fixed order (the
 * pipe orders the two processes). Expected output: tests/processes.rs. */
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define N_FCNTL 1062
#define F_SETLK 6
#define F_SETLKW 7
#define F_ALLOCSP 10
#define F_FREESP 11
#define F_GETLK 14
#define F_RDLCK 1
#define F_WRLCK 2
#define F_UNLCK 3

/* The o32 struct flock (SVR4 MIPS ABI). */
struct flock {
	short l_type;
	short l_whence;
	long l_start;
	long l_len;
	long l_sysid;
	long l_pid;
	long l_pad[4];
};

static long lock(int fd, int cmd, int type, long start, long len)
{
	struct flock fl = { 0 };
	fl.l_type = type;
	fl.l_start = start;
	fl.l_len = len;
	return syscall(N_FCNTL, fd, cmd, &fl);
}

static void show(const char *name, long r)
{
	if (r == -1)
		printf("%s: -1 %s\n", name, errno_name(errno));
	else
		printf("%s: %ld\n", name, r);
}

static long size(int fd)
{
	struct stat st;
	return fstat(fd, &st) < 0 ? -1 : (long)st.st_size;
}

int main(void)
{
	int fd, sync[2], status;
	pid_t pid, parent = getpid();
	char c = 0;
	struct flock fl = { 0 };

	fd = open("proc_locks.f", O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || pipe(sync) < 0) {
		printf("setup: %s\n", errno_name(errno));
		return 1;
	}
	show("allocsp to 97568", lock(fd, F_ALLOCSP, 0, 97568, 0));
	printf("size %ld\n", size(fd));
	show("allocsp shorter", lock(fd, F_ALLOCSP, 0, 100, 0));
	printf("size %ld\n", size(fd));
	show("freesp from 4096", lock(fd, F_FREESP, 0, 4096, 0));
	printf("size %ld\n", size(fd));
	show("parent write lock 0-9", lock(fd, F_SETLK, F_WRLCK, 0, 10));
	show("parent bad type", lock(fd, F_SETLK, 9, 0, 1));
	show("parent negative length", lock(fd, F_SETLK, F_RDLCK, 0, -1));
	show("lock on a pipe", lock(sync[0], F_SETLK, F_RDLCK, 0, 1));
	pid = fork();
	if (pid < 0) {
		printf("fork: %s\n", errno_name(errno));
		return 1;
	}
	if (pid == 0) {
		fl.l_type = F_WRLCK;
		fl.l_start = 5;
		fl.l_len = 1;
		show("child getlk", syscall(N_FCNTL, fd, F_GETLK, &fl));
		printf("child getlk: type %d start %ld len %ld pid is parent %d\n",
		       fl.l_type, fl.l_start, fl.l_len, fl.l_pid == parent);
		show("child write lock 5", lock(fd, F_SETLK, F_WRLCK, 5, 1));
		show("child read lock 10-", lock(fd, F_SETLK, F_RDLCK, 10, 0));
		fl.l_type = F_WRLCK;
		fl.l_start = 10;
		fl.l_len = 0;
		syscall(N_FCNTL, fd, F_GETLK, &fl);
		printf("child getlk own lock: type %d\n", fl.l_type);
		write(sync[1], &c, 1);
		show("child waits for 0-9", lock(fd, F_SETLKW, F_WRLCK, 0, 10));
		_exit(0);
	}
	read(sync[0], &c, 1);
	show("parent read lock 10", lock(fd, F_SETLK, F_RDLCK, 10, 1));
	show("parent write lock 10", lock(fd, F_SETLK, F_WRLCK, 10, 1));
	show("parent unlocks 0-9 by closing", close(fd));
	waitpid(pid, &status, 0);
	printf("child exit %d\n", WEXITSTATUS(status));
	show("unlink", unlink("proc_locks.f"));
	return 0;
}
