/* fs_files -- the IRIX file and directory calls, each checked against its
 * manual page: mkdir, rmdir, rename, link, symlink, readlink, mknod
 * (xmknod), fchdir, chroot, utime, truncate (and the 64-bit forms),
 * chown/lchown/fchown, fsync, sync, statvfs/fstatvfs, statfs/fstatfs,
 * stat64 (xstat version 3), sysfs, sysconf and pathconf (syssgi).
 *
 * Every call goes through libc's indirect syscall(nr, ...) with IRIX's
 * numbers, and prints "name: result" ("-1 ERRNO" on failure), one line
 * per check; tests/kernel_files.rs holds the expected lines and names
 * each check after the page's sentence. Run with an empty scratch
 * directory as the guest root and cwd (irix-emu's default): the root has
 * no /dev, so /dev/null is the host's, lent read-only, and /tmp is a
 * private bind, a file system of its own. It removes what it makes.
 * Without the argument "scratch-root", or anywhere but such a root, it
 * prints one line and changes nothing. */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#define N_CHDIR 1012
#define N_TIME 1013
#define N_CHMOD 1015
#define N_CHOWN 1016
#define N_UTIME 1030
#define N_STATFS 1035
#define N_SYNC 1036
#define N_FSTATFS 1038
#define N_SYSSGI 1040
#define N_SYSFS 1084
#define N_UMASK 1060
#define N_CHROOT 1061
#define N_RMDIR 1079
#define N_MKDIR 1080
#define N_LINK 1009
#define N_TRUNCATE 1112
#define N_FTRUNCATE 1113
#define N_RENAME 1114
#define N_SYMLINK 1115
#define N_READLINK 1116
#define N_FSYNC 1146
#define N_FCHDIR 1147
#define N_FCHOWN 1152
#define N_XSTAT 1158
#define N_LXSTAT 1159
#define N_FXSTAT 1160
#define N_XMKNOD 1161
#define N_STATVFS 1174
#define N_FSTATVFS 1175
#define N_LCHOWN 1178
#define N_TRUNCATE64 1183
#define N_FTRUNCATE64 1184

#define SGI_SYSCONF 22
#define SGI_PATHCONF 24

#define S_IFMT_ 0170000
#define S_IFIFO_ 0010000
#define S_IFCHR_ 0020000
#define S_IFDIR_ 0040000
#define S_IFREG_ 0100000
#define S_IFLNK_ 0120000

/* A pointer no page backs. */
#define BAD ((void *)0x10)

static unsigned char st[160], st2[160], vfs[160];

static void show(const char *name, long r)
{
	if (r == -1)
		printf("%s: -1 %s\n", name, errno_name(errno));
	else
		printf("%s: %ld\n", name, r);
}

static unsigned be32(const unsigned char *p)
{
	return (unsigned)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

/* The o32 struct stat (xstat version 2) of path: mode, or -1. */
static long mode_of(const char *path, int nr)
{
	if (syscall(nr, 2, path, st) < 0)
		return -1;
	return be32(st + 20);
}

static const char *kind(long mode)
{
	switch (mode & S_IFMT_) {
	case S_IFDIR_: return "directory";
	case S_IFREG_: return "regular";
	case S_IFLNK_: return "symbolic link";
	case S_IFIFO_: return "fifo";
	default: return mode < 0 ? errno_name(errno) : "other";
	}
}

static void make(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	write(fd, text, strlen(text));
	close(fd);
}

static void names(void)
{
	char buf[64];
	long r;

	syscall(N_UMASK, 022);
	/* mkdir(2) */
	show("mkdir", syscall(N_MKDIR, "d", 0777));
	printf("mkdir: mode %lo, %s\n", mode_of("d", N_XSTAT) & 07777, kind(mode_of("d", N_XSTAT)));
	show("mkdir existing", syscall(N_MKDIR, "d", 0777));
	show("mkdir missing parent", syscall(N_MKDIR, "nope/d", 0777));
	syscall(N_SYMLINK, "nowhere", "dangling");
	show("mkdir over a dangling link", syscall(N_MKDIR, "dangling", 0777));
	unlink("dangling");

	/* symlink(2), readlink(2) */
	show("symlink", syscall(N_SYMLINK, "/d", "ln"));
	show("symlink existing", syscall(N_SYMLINK, "/elsewhere", "ln"));
	r = syscall(N_READLINK, "ln", buf, sizeof buf);
	printf("readlink: %ld \"%.*s\"\n", r, r > 0 ? (int)r : 0, buf);
	memset(buf, '#', sizeof buf);
	r = syscall(N_READLINK, "ln", buf, 1);
	printf("readlink into 1 byte: %ld \"%.2s\"\n", r, buf);
	show("readlink of a directory", syscall(N_READLINK, "d", buf, sizeof buf));
	show("readlink missing", syscall(N_READLINK, "nope", buf, sizeof buf));
	show("readlink bad buffer", syscall(N_READLINK, "ln", BAD, sizeof buf));
	printf("stat through the link: %s\n", kind(mode_of("ln", N_XSTAT)));
	printf("lstat of the link: %s\n", kind(mode_of("ln", N_LXSTAT)));

	/* rename(2) */
	make("f", "0123456789");
	show("rename", syscall(N_RENAME, "f", "d/g"));
	show("rename missing", syscall(N_RENAME, "f", "h"));
	show("rename into its own subtree", syscall(N_RENAME, "d", "d/sub"));
	show("rename dot", syscall(N_RENAME, "d/.", "e"));
	syscall(N_MKDIR, "e", 0777);
	syscall(N_MKDIR, "e2", 0777);
	syscall(N_MKDIR, "e2/x", 0777);
	show("rename file over directory", syscall(N_RENAME, "d/g", "e"));
	show("rename directory over file", syscall(N_RENAME, "e", "d/g"));
	show("rename over a non-empty directory", syscall(N_RENAME, "e", "e2"));
	show("rename over an empty directory", syscall(N_RENAME, "e2/x", "e"));
	show("rename across file systems", syscall(N_RENAME, "d/g", "/tmp/g"));
	syscall(N_MKDIR, "/tmp/x", 0777);
	show("rename over a mount point", syscall(N_RENAME, "/tmp/x", "/tmp"));
	syscall(N_RMDIR, "/tmp/x");
	show("rename a link", syscall(N_RENAME, "ln", "ln2"));
	r = syscall(N_READLINK, "ln2", buf, sizeof buf);
	printf("rename a link: the link moved, \"%.*s\"\n", r > 0 ? (int)r : 0, buf);

	/* link(2) */
	show("link across file systems", syscall(N_LINK, "d/g", "/tmp/g"));
	show("link a directory", syscall(N_LINK, "d", "d2"));

	/* rmdir(2) */
	show("rmdir non-empty", syscall(N_RMDIR, "d"));
	show("rmdir dot", syscall(N_RMDIR, "e/."));
	syscall(N_CHDIR, "e");
	show("rmdir the current directory", syscall(N_RMDIR, "/e"));
	syscall(N_CHDIR, "/");
	show("rmdir a mount point", syscall(N_RMDIR, "/tmp"));
	show("rmdir a link", syscall(N_RMDIR, "ln2"));
	show("rmdir a file", syscall(N_RMDIR, "d/g"));
	show("rmdir", syscall(N_RMDIR, "e"));
	show("rmdir missing", syscall(N_RMDIR, "e"));
	syscall(N_RMDIR, "e2");
	unlink("ln2");

	/* mknod(2) through xmknod, mkfifo(3C)'s call */
	show("mknod fifo", syscall(N_XMKNOD, 2, "fifo", S_IFIFO_ | 0666, 0));
	printf("mknod fifo: %s, mode %lo\n", kind(mode_of("fifo", N_XSTAT)), mode_of("fifo", N_XSTAT) & 07777);
	show("mknod existing", syscall(N_XMKNOD, 2, "fifo", S_IFIFO_ | 0666, 0));
	show("mknod character device", syscall(N_XMKNOD, 2, "tty", S_IFCHR_ | 0666, 0x40001));
	show("mknod regular file", syscall(N_XMKNOD, 2, "plain", S_IFREG_ | 0666, 0));
	show("mknod unknown version", syscall(N_XMKNOD, 1, "fifo2", S_IFIFO_ | 0666, 0));

	/* chroot(2), fchdir(2) */
	show("chroot", syscall(N_CHROOT, "d"));
	{
		int dir = open("d", O_RDONLY), fd;
		syscall(N_CHDIR, "/");
		show("fchdir", syscall(N_FCHDIR, dir));
		fd = open("g", O_RDONLY);
		printf("fchdir: relative names start there: %s\n", fd >= 0 ? "yes" : errno_name(errno));
		close(fd);
		syscall(N_CHDIR, "/");
		fd = open("fifo", O_RDONLY | 0x80);
		show("fchdir to a fifo", syscall(N_FCHDIR, fd));
		close(fd);
		show("fchdir bad descriptor", syscall(N_FCHDIR, 99));
		close(dir);
	}

	/* The private devices and mount points stay as they are. */
	show("unlink the lent /dev/null", unlink("/dev/null"));
	show("chmod the lent /dev/null", syscall(N_CHMOD, "/dev/null", 0777));
	show("rename the lent /dev/null", syscall(N_RENAME, "/dev/null", "/null"));
	unlink("fifo");
}

static void attributes(void)
{
	unsigned times[2];
	long r, now;
	int fd;

	/* utime(2) */
	times[0] = 1000000;
	times[1] = 2000000;
	show("utime", syscall(N_UTIME, "d/g", times));
	syscall(N_XSTAT, 2, "d/g", st);
	printf("utime: atime %u, mtime %u\n", be32(st + 56), be32(st + 64));
	show("utime now", syscall(N_UTIME, "d/g", 0));
	now = syscall(N_TIME);
	syscall(N_XSTAT, 2, "d/g", st);
	printf("utime now: mtime is the current time: %s\n",
	       (long)be32(st + 64) <= now && now - (long)be32(st + 64) <= 1 ? "yes" : "no");
	show("utime bad times", syscall(N_UTIME, "d/g", BAD));
	show("utime missing", syscall(N_UTIME, "nope", times));

	/* truncate(2) */
	show("truncate", syscall(N_TRUNCATE, "d/g", 4));
	syscall(N_TRUNCATE, "d/g", 8);
	{
		char b[8];
		fd = open("d/g", O_RDONLY);
		r = read(fd, b, 8);
		close(fd);
		printf("truncate: longer again reads %ld bytes, \"%.4s\" then zeros: %s\n", r, b,
		       b[4] == 0 && b[7] == 0 ? "yes" : "no");
	}
	show("truncate a directory", syscall(N_TRUNCATE, "d", 0));
	show("truncate negative", syscall(N_TRUNCATE, "d/g", -1));
	show("truncate missing", syscall(N_TRUNCATE, "nope", 0));
	syscall(N_XMKNOD, 2, "fifo", S_IFIFO_ | 0600, 0);
	show("truncate a fifo", syscall(N_TRUNCATE, "fifo", 0));
	unlink("fifo");
	show("truncate64", syscall(N_TRUNCATE64, "d/g", 0, 0, 7));
	syscall(N_XSTAT, 3, "d/g", st);
	printf("truncate64: size %u %u\n", be32(st + 56), be32(st + 60));
	fd = open("d/g", O_RDWR);
	show("ftruncate64", syscall(N_FTRUNCATE64, fd, 0, 0, 5));
	syscall(N_FXSTAT, 3, fd, st);
	printf("ftruncate64: size %u %u\n", be32(st + 56), be32(st + 60));
	close(fd);
	fd = open("d/g", O_RDONLY);
	show("ftruncate read-only", syscall(N_FTRUNCATE, fd, 0));
	close(fd);

	/* chown(2) */
	syscall(N_XSTAT, 2, "d/g", st);
	printf("stat owner: uid %u gid %u\n", be32(st + 28), be32(st + 32));
	show("chown to the owner and group", syscall(N_CHOWN, "d/g", 100, 100));
	show("chown unchanged", syscall(N_CHOWN, "d/g", -1, -1));
	show("chown to another owner", syscall(N_CHOWN, "d/g", 0, -1));
	show("chown to another group", syscall(N_CHOWN, "d/g", -1, 0));
	show("chown out of range", syscall(N_CHOWN, "d/g", 70000, -1));
	show("chown missing", syscall(N_CHOWN, "nope", -1, -1));
	syscall(N_CHMOD, "d/g", 06755);
	syscall(N_CHOWN, "d/g", -1, -1);
	printf("chown clears set-ID bits: mode %lo\n", mode_of("d/g", N_XSTAT) & 07777);
	syscall(N_SYMLINK, "nowhere", "dangling");
	show("lchown a dangling link", syscall(N_LCHOWN, "dangling", 100, -1));
	show("chown a dangling link", syscall(N_CHOWN, "dangling", 100, -1));
	unlink("dangling");
	fd = open("d/g", O_RDWR);
	show("fchown", syscall(N_FCHOWN, fd, 100, 100));
	show("fchown to another owner", syscall(N_FCHOWN, fd, 1, -1));
	show("fchown bad descriptor", syscall(N_FCHOWN, 99, -1, -1));
	{
		int p[2];
		pipe(p);
		show("fchown a pipe", syscall(N_FCHOWN, p[0], -1, 100));
		close(p[0]);
		close(p[1]);
	}

	/* fsync(2), sync(2) */
	show("fsync", syscall(N_FSYNC, fd));
	close(fd);
	fd = open("d/g", O_RDONLY);
	show("fsync read-only", syscall(N_FSYNC, fd));
	close(fd);
	show("fsync bad descriptor", syscall(N_FSYNC, 99));
	show("sync", syscall(N_SYNC));
}

static void status(void)
{
	int fd;

	/* stat(2): stat64 is xstat version 3 */
	show("stat64", syscall(N_XSTAT, 3, "d/g", st));
	printf("stat64: mode %o, nlink %u, uid %u, size %u %u, fstype %s\n", be32(st + 24),
	       be32(st + 28), be32(st + 32), be32(st + 56), be32(st + 60), (char *)st + 104);
	syscall(N_XSTAT, 2, "d/g", st2);
	printf("stat64 and stat agree: ino %s, mtime %s\n",
	       be32(st + 20) == be32(st2 + 16) ? "yes" : "no",
	       be32(st + 76) == be32(st2 + 64) ? "yes" : "no");
	syscall(N_SYMLINK, "d/g", "ln");
	syscall(N_LXSTAT, 3, "ln", st);
	printf("lstat64: %s\n", kind(be32(st + 24)));
	unlink("ln");
	fd = open("d/g", O_RDONLY);
	show("fstat64", syscall(N_FXSTAT, 3, fd, st));
	close(fd);
	show("stat version 4", syscall(N_XSTAT, 4, "d/g", st));
	/* A file past 2 GB (sparse): its size does not fit version 2. */
	syscall(N_TRUNCATE64, "big", 0, 1, 0x40000000);
	make("big", "");
	syscall(N_TRUNCATE64, "big", 0, 1, 0x40000000);
	show("stat of a file past 2 GB", syscall(N_XSTAT, 2, "big", st));
	syscall(N_XSTAT, 3, "big", st);
	printf("stat64 of it: size %u %u\n", be32(st + 56), be32(st + 60));
	unlink("big");

	/* statvfs(2) */
	show("statvfs", syscall(N_STATVFS, "d/g", vfs));
	printf("statvfs: basetype %s, namemax %u, no truncation %s, blocks counted %s\n",
	       (char *)vfs + 36, be32(vfs + 56), be32(vfs + 52) & 4 ? "yes" : "no",
	       be32(vfs + 4) && be32(vfs + 8) ? "yes" : "no");
	syscall(N_XSTAT, 2, "d/g", st);
	printf("statvfs: f_fsid is st_dev: %s\n", be32(vfs + 32) == be32(st) ? "yes" : "no");
	fd = open("d/g", O_RDONLY);
	show("fstatvfs", syscall(N_FSTATVFS, fd, st2));
	/* The same file system: all but the free counts, which the host's
	 * other users move. */
	printf("fstatvfs: same file system as statvfs: %s\n",
	       memcmp(vfs, st2, 12) == 0 && memcmp(vfs + 20, st2 + 20, 4) == 0 &&
	       memcmp(vfs + 32, st2 + 32, 28) == 0 ? "yes" : "no");
	show("statvfs missing", syscall(N_STATVFS, "nope", vfs));
	show("statvfs bad buffer", syscall(N_STATVFS, "d/g", BAD));
	show("fstatvfs bad descriptor", syscall(N_FSTATVFS, 99, vfs));
	syscall(N_STATVFS, "/dev/null", vfs);
	printf("statvfs of the lent /dev/null: read-only %s\n", be32(vfs + 52) & 1 ? "yes" : "no");

	/* statfs(2) */
	memset(vfs, 0xaa, sizeof vfs);
	show("statfs", syscall(N_STATFS, "d/g", vfs, 40, 0));
	printf("statfs: f_fstyp %u, f_bsize set %s, f_fname empty %s\n", vfs[0] << 8 | vfs[1],
	       be32(vfs + 4) ? "yes" : "no", vfs[28] == 0 ? "yes" : "no");
	memset(vfs, 0xaa, sizeof vfs);
	show("statfs 2 bytes", syscall(N_STATFS, "d/g", vfs, 2, 0));
	printf("statfs 2 bytes: the rest untouched %s\n", vfs[2] == 0xaa ? "yes" : "no");
	show("statfs len too big", syscall(N_STATFS, "d/g", vfs, 41, 0));
	show("statfs fstyp", syscall(N_STATFS, "d/g", vfs, 40, 1));
	show("fstatfs", syscall(N_FSTATFS, fd, vfs, 40, 0));
	show("fstatfs bad descriptor", syscall(N_FSTATFS, 99, vfs, 40, 0));

	/* sysfs(2): GETFSIND 1, GETFSTYP 2, GETNFSTYP 3 */
	{
		char name[16];
		long n = syscall(N_SYSFS, 3), i;
		show("sysfs GETNFSTYP", n);
		for (i = 1; i <= n && i < 10; i++) {
			memset(name, 0, sizeof name);
			printf("sysfs GETFSTYP %ld: %ld \"%s\"\n", i, syscall(N_SYSFS, 2, i, name), name);
		}
		show("sysfs GETFSIND efs", syscall(N_SYSFS, 1, "efs"));
		show("sysfs GETFSIND fifofs", syscall(N_SYSFS, 1, "fifofs"));
		show("sysfs GETFSIND nfs", syscall(N_SYSFS, 1, "nfs"));
		show("sysfs GETFSIND a long name", syscall(N_SYSFS, 1, "a-name-longer-than-FSTYPSZ"));
		show("sysfs GETFSTYP 0", syscall(N_SYSFS, 2, 0, name));
		show("sysfs GETFSTYP past the last", syscall(N_SYSFS, 2, n + 1, name));
		show("sysfs GETFSTYP bad buffer", syscall(N_SYSFS, 2, 1, (char *)4));
		show("sysfs GETFSIND bad name", syscall(N_SYSFS, 1, (char *)4));
		show("sysfs opcode 4", syscall(N_SYSFS, 4));
	}

	/* sysconf(3C), pathconf(2) */
	{
		static const struct { int name; const char *shown; } names[] = {
			{1, "_SC_ARG_MAX"}, {2, "_SC_CHILD_MAX"}, {3, "_SC_CLK_TCK"},
			{4, "_SC_NGROUPS_MAX"}, {5, "_SC_OPEN_MAX"}, {6, "_SC_JOB_CONTROL"},
			{7, "_SC_SAVED_IDS"}, {8, "_SC_VERSION"}, {9, "_SC_PASS_MAX"},
			{10, "_SC_LOGNAME_MAX"}, {11, "_SC_PAGESIZE"}, {12, "_SC_XOPEN_VERSION"},
			{13, "_SC_NACLS_MAX"}, {14, "_SC_NPROC_CONF"}, {15, "_SC_NPROC_ONLN"},
			{16, "_SC_STREAM_MAX"}, {17, "_SC_TZNAME_MAX"}, {18, "sysconf 18"},
			{19, "sysconf 19"}, {20, "_SC_RTSIG_MAX"}, {21, "_SC_SIGQUEUE_MAX"},
			{22, "_SC_ASYNCHRONOUS_IO"}, {23, "_SC_REALTIME_SIGNALS"},
			{24, "_SC_PRIORITIZED_IO"}, {25, "_SC_ACL"}, {26, "_SC_AUDIT"},
			{27, "_SC_INF"}, {28, "_SC_MAC"}, {29, "_SC_CAP"}, {30, "_SC_IP_SECOPTS"},
			{31, "_SC_KERN_POINTERS"}, {32, "sysconf 32"},
		};
		unsigned i;
		long r;
		for (i = 0; i < sizeof names / sizeof names[0]; i++) {
			errno = 0;
			r = syscall(N_SYSSGI, SGI_SYSCONF, names[i].name);
			printf("sysconf %s: %ld%s%s\n", names[i].shown, r, errno ? " " : "",
			       errno ? errno_name(errno) : "");
		}
		for (i = 1; i <= 10; i++) {
			errno = 0;
			r = syscall(N_SYSSGI, SGI_PATHCONF, "d", i, 1);
			printf("pathconf %u: %ld%s%s\n", i, r, errno ? " " : "", errno ? errno_name(errno) : "");
		}
	}
	show("pathconf missing", syscall(N_SYSSGI, SGI_PATHCONF, "nope", 4, 1));
	show("fpathconf", syscall(N_SYSSGI, SGI_PATHCONF, fd, 6, 2));
	show("fpathconf bad descriptor", syscall(N_SYSSGI, SGI_PATHCONF, 99, 4, 2));
	close(fd);
}

/* The checks unlink, rename and chmod absolute guest paths (/dev/null,
 * /tmp): they belong in an empty scratch root only. So the program does
 * nothing unless told "scratch-root" and its cwd is the guest root, which
 * has no /etc (a whole system's root, such as --root /, has one). */
static int in_scratch_root(int argc, char **argv)
{
	static unsigned char dot[136], root[136];
	if (argc != 2 || strcmp(argv[1], "scratch-root") != 0)
		return 0;
	if (syscall(N_XSTAT, 2, ".", dot) < 0 || syscall(N_XSTAT, 2, "/", root) < 0)
		return 0;
	if (memcmp(dot, root, 20) != 0)
		return 0;
	return syscall(N_XSTAT, 2, "/etc", st) < 0;
}

int main(int argc, char **argv)
{
	if (!in_scratch_root(argc, argv)) {
		printf("fs_files: run as \"fs_files scratch-root\" with an empty directory as the guest root and cwd\n");
		return 0;
	}
	names();
	attributes();
	status();
	unlink("d/g");
	syscall(N_RMDIR, "d");
	return 0;
}
