/* sys_calls -- every IRIX system call irix-emu implements that the other
 * programs do not use, each called once through libc's indirect
 * syscall(nr, ...) (IRIX 1000), its result printed as "name: value" or
 * "name: -1 ERRNO". Run in an empty scratch directory: it creates and
 * removes sys_calls.a, sys_calls.b and the directory sub/ must not exist.
 * The expected output is in tests/syscalls.rs (values on the virtual
 * clock and the fixed identity are deterministic). */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

/* IRIX numbers (docs/abi.md) and the project's own (README). */
#define N_LINK 1009
#define N_CHDIR 1012
#define N_TIME 1013
#define N_GETUID 1024
#define N_ACCESS 1033
#define N_SYSSGI 1040
#define N_DUP 1041
#define N_TIMES 1043
#define N_GETGID 1047
#define N_IOCTL 1054
#define N_UTSSYS 1057
#define N_UMASK 1060
#define N_FCNTL 1062
#define N_ULIMIT 1063
#define N_LSEEK64 1078
#define N_SGINAP 1082
#define N_GETTIMEOFDAY 1128
#define N_MMAP 1134
#define N_MUNMAP 1135
#define N_MPROTECT 1136
#define N_GETPAGESIZE 1140
#define N_LXSTAT 1159
#define N_NANOSLEEP 1077
#define N_GETHOSTID 1092
#define N_GETDOMAINNAME 1110

static void show(const char *name, long r)
{
	if (r == -1)
		printf("%s: -1 %s\n", name, errno_name(errno));
	else
		printf("%s: %ld\n", name, r);
}

/* wait() (IRIX 1007, the SVR4 form before waitsys): v0 = pid, v1 = the
 * status word; a3 = 1 and v0 = errno on failure. Called directly, since
 * syscall() returns only v0. */
static long sys_wait(unsigned *status)
{
	register long v0 __asm__("$2") = 1007;
	register long v1 __asm__("$3");
	register long a3 __asm__("$7");
	__asm__ volatile("syscall" : "+r"(v0), "=r"(v1), "=r"(a3) : : "memory");
	if (a3) {
		errno = v0;
		return -1;
	}
	*status = v1;
	return v0;
}

static unsigned be32(const unsigned char *p)
{
	return (unsigned)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

int main(void)
{
	unsigned char buf[1400];
	unsigned tv[2], tv2[2], ts[2];
	int fd, fd2;
	char *map;
	long r;

	fd = open("sys_calls.a", O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(fd, "0123456789", 10);
	show("link", syscall(N_LINK, "sys_calls.a", "sys_calls.b"));
	show("link existing", syscall(N_LINK, "sys_calls.a", "sys_calls.b"));
	show("access R_OK|W_OK", syscall(N_ACCESS, "sys_calls.b", 6));
	show("access missing", syscall(N_ACCESS, "nope", 0));
	r = syscall(N_LXSTAT, 2, "sys_calls.b", buf);
	printf("lxstat: %ld, nlink %u, size %u\n", r, be32(buf + 24), be32(buf + 48));
	show("lxstat version 4", syscall(N_LXSTAT, 4, "sys_calls.b", buf));
	show("lseek64 hi", syscall(N_LSEEK64, fd, 0, 0, 4, 0));
	fd2 = syscall(N_DUP, fd);
	show("dup", fd2);
	show("fcntl F_GETFL", syscall(N_FCNTL, fd2, 3, 0) & 3);
	show("fcntl F_DUPFD 10", syscall(N_FCNTL, fd, 0, 10));
	show("fcntl F_SETFD", syscall(N_FCNTL, fd, 2, 1));
	show("fcntl F_GETFD", syscall(N_FCNTL, fd, 1, 0));
	show("ioctl TCGETA on a file", syscall(N_IOCTL, fd, 0x5401, buf));
	show("umask", syscall(N_UMASK, 027));
	show("umask again", syscall(N_UMASK, 022));
	show("chdir missing", syscall(N_CHDIR, "sub"));
	show("chdir ..", syscall(N_CHDIR, ".."));
	show("chdir back", syscall(N_CHDIR, "/"));
	show("getuid", syscall(N_GETUID));
	show("getgid", syscall(N_GETGID));
	show("sysconf CLK_TCK", syscall(N_SYSSGI, 22, 3));
	show("sysconf PAGESIZE", syscall(N_SYSSGI, 22, 11));
	show("sysconf OPEN_MAX", syscall(N_SYSSGI, 22, 5));
	show("fdhi", syscall(N_SYSSGI, 109));
	show("getpagesize", syscall(N_GETPAGESIZE));
	show("ulimit GETFSIZE", syscall(N_ULIMIT, 1, 0));
	show("ulimit GDESLIM", syscall(N_ULIMIT, 4, 0));
	memset(buf, 0, sizeof buf);
	show("uname", syscall(N_UTSSYS, buf, 0, 0));
	printf("uname: %s %s %s %s %s\n", buf, buf + 257, buf + 514, buf + 771, buf + 1028);
	show("gethostid", syscall(N_GETHOSTID));
	memset(buf, 'x', 8);
	show("getdomainname", syscall(N_GETDOMAINNAME, buf, 8));
	printf("getdomainname: \"%s\"\n", buf);
	show("getdomainname bad buffer", syscall(N_GETDOMAINNAME, 4, 8));
	show("time", syscall(N_TIME));
	syscall(N_GETTIMEOFDAY, tv);
	ts[0] = 1;
	ts[1] = 500000000;
	show("nanosleep 1.5 s", syscall(N_NANOSLEEP, ts, 0));
	show("sginap 100 ticks", syscall(N_SGINAP, 100));
	syscall(N_GETTIMEOFDAY, tv2);
	printf("gettimeofday: slept %u s\n", tv2[0] - tv[0] - ((tv2[1] < tv[1]) ? 1 : 0));
	r = syscall(N_TIMES, buf);
	printf("times: utime %u stime %u\n", be32(buf), be32(buf + 4));
	map = (char *)syscall(N_MMAP, 0, 8192, 3, 0x102, -1, 0);
	printf("mmap anonymous: %s\n", map == (char *)-1 ? errno_name(errno) : "ok");
	map[4096] = 'x';
	printf("mmap: read back %c, zero-filled %d\n", map[4096], map[0]);
	show("mprotect read-only", syscall(N_MPROTECT, map, 4096, 1));
	show("munmap", syscall(N_MUNMAP, map, 8192));
	map = (char *)syscall(N_MMAP, 0, 4096, 1, 2, fd, 0);
	printf("mmap private file: %.10s\n", map == (char *)-1 ? errno_name(errno) : map);
	map = (char *)syscall(N_MMAP, 0, 4096, 1, 1, fd, 0);
	printf("mmap shared file: %.10s\n", map == (char *)-1 ? errno_name(errno) : map);
	show("unknown syscall 1999", syscall(1999));
	{
		unsigned st = 0;
		pid_t child = fork();
		if (child == 0)
			_exit(9);
		r = sys_wait(&st);
		printf("wait: the child's pid %s, status 0x%x\n", r == child ? "yes" : "no", st);
		show("wait without children", sys_wait(&st));
	}
	ts[0] = 0x7fffffff;
	ts[1] = 999999999;
	show("nanosleep 2^31-1 s", syscall(N_NANOSLEEP, ts, 0));
	ts[1] = 1000000000;
	show("nanosleep tv_nsec 1e9", syscall(N_NANOSLEEP, ts, 0));
	unlink("sys_calls.b");
	unlink("sys_calls.a");
	return 0;
}
