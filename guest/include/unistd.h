/* unistd.h -- guest libc (irix-emu). */
#ifndef _UNISTD_H
#define _UNISTD_H
#include <sys/types.h>
#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
ssize_t read(int fd, void *buf, size_t n);
ssize_t write(int fd, const void *buf, size_t n);
int close(int fd);
off_t lseek(int fd, off_t off, int whence);
int unlink(const char *path);
pid_t getpid(void);
void *sbrk(int increment);
int brk(void *addr);
void _exit(int status) __attribute__((noreturn));
#ifdef GUEST_IRIX
/* Process calls: IRIX build only (the Linux build is a differential oracle
 * for the single-process programs). */
pid_t fork(void);
int execve(const char *path, char *const argv[], char *const envp[]);
int pipe(int fds[2]);
int dup(int fd);
int chdir(const char *path);
long sginap(long ticks);
#endif
#if defined(GUEST_IRIX)
/* IRIX's indirect system call (number 1000): syscall(nr, args...). */
long syscall(long nr, ...);
#endif
#endif
