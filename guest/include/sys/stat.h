/* sys/stat.h -- guest libc (irix-emu).
 * The portable struct stat of this libc: NOT a kernel layout. libc/stat.c
 * converts from the kernel's (IRIX xstat _STAT_VER 2, or Linux o32 stat). */
#ifndef _SYS_STAT_H
#define _SYS_STAT_H
#include <sys/types.h>
struct stat {
	unsigned long st_dev;
	unsigned long st_ino;
	mode_t st_mode;
	unsigned long st_nlink;
	uid_t st_uid;
	gid_t st_gid;
	off_t st_size;
	time_t st_atime;
	time_t st_mtime;
	time_t st_ctime;
	long st_blksize;
	long st_blocks;
};
#define S_IFMT 0170000
#define S_IFIFO 0010000
#define S_IFCHR 0020000
#define S_IFDIR 0040000
#define S_IFBLK 0060000
#define S_IFREG 0100000
#define S_IFLNK 0120000
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)
#define S_ISDIR(m) (((m) & S_IFMT) == S_IFDIR)
#define S_ISFIFO(m) (((m) & S_IFMT) == S_IFIFO)
#define S_ISCHR(m) (((m) & S_IFMT) == S_IFCHR)
int stat(const char *path, struct stat *st);
int fstat(int fd, struct stat *st);
#endif
