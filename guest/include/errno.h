/* errno.h -- guest libc (irix-emu).
 * SVR4/IRIX numbering (docs/abi.md "errno values"). Linux/MIPS uses the same
 * numbers for every value listed here (Linux's arch/mips errno.h was laid out
 * after IRIX's), so one table serves both builds. */
#ifndef _ERRNO_H
#define _ERRNO_H
extern int errno;
#define EPERM 1
#define ENOENT 2
#define ESRCH 3
#define EINTR 4
#define EIO 5
#define E2BIG 7
#define ENOEXEC 8
#define EBADF 9
#define ECHILD 10
#define EAGAIN 11
#define ENOMEM 12
#define EACCES 13
#define EFAULT 14
#define EBUSY 16
#define EEXIST 17
#define EXDEV 18
#define ENOTDIR 20
#define EISDIR 21
#define EINVAL 22
#define EMFILE 24
#define ENOTTY 25
#define EFBIG 27
#define ENOSPC 28
#define ESPIPE 29
#define EROFS 30
#define EMLINK 31
#define EPIPE 32
#define ERANGE 34
#define EDEADLK 45
#define ENAMETOOLONG 78
#define EOVERFLOW 79
#define ENOSYS 89
#define ELOOP 90
#define ENOTEMPTY 93
#define ETIMEDOUT 145
/* "ENOENT" for 2, "E?" followed by nothing for an unknown number: never NULL. */
const char *errno_name(int e);
#endif
