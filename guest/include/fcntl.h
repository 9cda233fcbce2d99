/* fcntl.h -- guest libc (irix-emu). SVR4/IRIX open flags; Linux/MIPS uses
 * the same values for these (arch/mips/include/uapi/asm/fcntl.h). */
#ifndef _FCNTL_H
#define _FCNTL_H
#define O_RDONLY 0
#define O_WRONLY 1
#define O_RDWR 2
#define O_APPEND 0x0008
#define O_CREAT 0x0100
#define O_TRUNC 0x0200
#define O_EXCL 0x0400
int open(const char *path, int flags, ...);
int creat(const char *path, unsigned long mode);
#endif
