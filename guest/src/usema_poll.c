/* usema_poll -- a pollable semaphore's descriptor (usnewpollsema(3P):
 * "Pollable semaphores never block the caller. If the semaphore is
 * unavailable when uspsema(3P) is called, the caller is queued to receive
 * the semaphore and returns immediately. To actually acquire the semaphore
 * the caller must issue a poll(2) or select(2) on the file descriptor
 * associated with the semaphore ... The POLLIN event should be used with
 * poll(2). The semaphore file descriptor should be passed in as a read
 * descriptor for select(2)."). The program makes the device requests IRIX
 * 5.3's libc makes for such a semaphore (its _usblock and _usunblock, for
 * a semaphore marked pollable: UIOCABLOCK and UIOCAUNBLOCK naming the
 * pid) on a /dev/usemaclone descriptor, and polls it; a forked child
 * (sharing the descriptor) releases the parent. Each result is printed as
 * "name: value" or "name: -1 ERRNO"; the expected output is in
 * tests/all/kernel_io.rs. */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/wait.h>

#define N_IOCTL 1054
#define N_POLL 1087
#define N_SELECT 1100
#define UIOC (('u' << 16) | ('s' << 8))
#define UIOCABLOCK (UIOC | 4)
#define UIOCUNBLOCK (UIOC | 6)
#define UIOCAUNBLOCK (UIOC | 7)
#define POLLIN 1

struct pollfd {
	int fd;
	short events;
	short revents;
};

static void show(const char *name, long r)
{
	if (r == -1)
		printf("%s: -1 %s\n", name, errno_name(errno));
	else
		printf("%s: %ld\n", name, r);
}

static long poll1(int fd, int timeout, short *revents)
{
	struct pollfd p = {fd, POLLIN, 0};
	long r = syscall(N_POLL, &p, 1, timeout);
	*revents = p.revents;
	return r;
}

int main(void)
{
	int fd = open("/dev/usemaclone", O_RDWR);
	short revents;
	unsigned readfds[32];
	unsigned tv[2] = {0, 0};
	int status;
	pid_t parent = getpid(), child;

	printf("open /dev/usemaclone: %d\n", fd >= 0);
	show("ioctl UIOCABLOCK", syscall(N_IOCTL, fd, UIOCABLOCK, 0));
	show("poll, queued", poll1(fd, 0, &revents));
	child = fork();
	if (child == 0) {
		sginap(10);
		syscall(N_IOCTL, fd, UIOCAUNBLOCK, (long)parent);
		_exit(0);
	}
	show("poll until the child's UIOCAUNBLOCK", poll1(fd, -1, &revents));
	printf("revents POLLIN %d\n", revents == POLLIN);
	memset(readfds, 0, sizeof readfds);
	readfds[fd / 32] = 1u << (fd % 32);
	show("select, granted", syscall(N_SELECT, fd + 1, readfds, 0, 0, tv));
	printf("readable %d\n", (readfds[fd / 32] >> (fd % 32)) & 1);
	waitpid(child, &status, 0);

	/* The next P queues again: the grant is used up. */
	show("ioctl UIOCABLOCK again", syscall(N_IOCTL, fd, UIOCABLOCK, 0));
	show("poll, queued again", poll1(fd, 0, &revents));
	show("ioctl UIOCAUNBLOCK self", syscall(N_IOCTL, fd, UIOCAUNBLOCK, (long)parent));
	show("poll, granted", poll1(fd, 0, &revents));
	/* A V that reaches the kernel before the P it answers. */
	show("ioctl UIOCAUNBLOCK before the P", syscall(N_IOCTL, fd, UIOCAUNBLOCK, (long)parent));
	show("ioctl UIOCABLOCK after an early V", syscall(N_IOCTL, fd, UIOCABLOCK, 0));
	show("poll, granted at once", poll1(fd, 0, &revents));
	/* An unblock must name a process of the run: the reaped child is none. */
	show("ioctl UIOCAUNBLOCK of no process", syscall(N_IOCTL, fd, UIOCAUNBLOCK, (long)child));
	show("ioctl UIOCUNBLOCK of no process", syscall(N_IOCTL, fd, UIOCUNBLOCK, 99999L));
	close(fd);
	return 0;
}
