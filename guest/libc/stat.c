/* stat.c -- the portable stat()/fstat() over each kernel's layout
 * (guest libc, irix-emu).
 *
 * IRIX: xstat(2)/fxstat(2) (1158/1160) with version _STAT_VER = 2 fill the
 *   o32 SVR4 struct stat of NetBSD sys/compat/irix/irix_types.h
 *   (struct irix_stat): 136 bytes, st_mode at 20, st_size at 48.
 * Linux: stat(2)/fstat(2) (4106/4108) fill the o32 struct stat of
 *   arch/mips/include/uapi/asm/stat.h: 144 bytes, the same offsets up to
 *   st_blocks (Linux/MIPS kept IRIX's layout).
 */
#include <sys/stat.h>

#if defined(GUEST_IRIX)
#define IRIX_STAT_VER 2
struct kernel_stat {
	unsigned long st_dev;     /* 0 */
	long st_pad1[3];          /* 4 */
	unsigned long st_ino;     /* 16 */
	unsigned long st_mode;    /* 20 */
	unsigned long st_nlink;   /* 24 */
	long st_uid;              /* 28 */
	long st_gid;              /* 32 */
	unsigned long st_rdev;    /* 36 */
	long st_pad2[2];          /* 40 */
	long st_size;             /* 48 */
	long st_pad3;             /* 52 */
	long st_atim[2];          /* 56: tv_sec, tv_nsec */
	long st_mtim[2];          /* 64 */
	long st_ctim[2];          /* 72 */
	long st_blksize;          /* 80 */
	long st_blocks;           /* 84 */
	char st_fstype[16];       /* 88 */
	long st_projid;           /* 104 */
	long st_pad4[7];          /* 108, size 136 */
};
extern int __xstat(int version, const char *path, struct kernel_stat *buf);
extern int __fxstat(int version, int fd, struct kernel_stat *buf);
#else
struct kernel_stat {
	unsigned st_dev;          /* 0 */
	long st_pad1[3];          /* 4 */
	unsigned long st_ino;     /* 16 */
	unsigned st_mode;         /* 20 */
	unsigned st_nlink;        /* 24 */
	long st_uid;              /* 28 */
	long st_gid;              /* 32 */
	unsigned st_rdev;         /* 36 */
	long st_pad2[2];          /* 40 */
	long st_size;             /* 48 */
	long st_pad3;             /* 52 */
	long st_atim[2];          /* 56 */
	long st_mtim[2];          /* 64 */
	long st_ctim[2];          /* 72 */
	long st_blksize;          /* 80 */
	long st_blocks;           /* 84 */
	long st_pad4[14];         /* 88, size 144 */
};
extern int __linux_stat(const char *path, struct kernel_stat *buf);
extern int __linux_fstat(int fd, struct kernel_stat *buf);
#endif

_Static_assert(__builtin_offsetof(struct kernel_stat, st_mode) == 20, "st_mode offset");
_Static_assert(__builtin_offsetof(struct kernel_stat, st_size) == 48, "st_size offset");
_Static_assert(__builtin_offsetof(struct kernel_stat, st_blocks) == 84, "st_blocks offset");

static void convert(const struct kernel_stat *k, struct stat *st)
{
	st->st_dev = k->st_dev;
	st->st_ino = k->st_ino;
	st->st_mode = k->st_mode;
	st->st_nlink = k->st_nlink;
	st->st_uid = k->st_uid;
	st->st_gid = k->st_gid;
	st->st_size = k->st_size;
	st->st_atime = k->st_atim[0];
	st->st_mtime = k->st_mtim[0];
	st->st_ctime = k->st_ctim[0];
	st->st_blksize = k->st_blksize;
	st->st_blocks = k->st_blocks;
}

int stat(const char *path, struct stat *st)
{
	struct kernel_stat k;
#if defined(GUEST_IRIX)
	if (__xstat(IRIX_STAT_VER, path, &k) < 0)
		return -1;
#else
	if (__linux_stat(path, &k) < 0)
		return -1;
#endif
	convert(&k, st);
	return 0;
}

int fstat(int fd, struct stat *st)
{
	struct kernel_stat k;
#if defined(GUEST_IRIX)
	if (__fxstat(IRIX_STAT_VER, fd, &k) < 0)
		return -1;
#else
	if (__linux_fstat(fd, &k) < 0)
		return -1;
#endif
	convert(&k, st);
	return 0;
}
