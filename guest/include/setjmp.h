/* setjmp.h -- guest libc (irix-emu).
 * jmp_buf words: 0-8 s0-s8, 9 sp, 10 ra, 11 gp, 12-23 f20-f31 (as six
 * doubles, FR=0), 24 savemask flag, 25-28 saved sigset (sigsetjmp). */
#ifndef _SETJMP_H
#define _SETJMP_H
typedef int jmp_buf[30] __attribute__((aligned(8)));
typedef int sigjmp_buf[30] __attribute__((aligned(8)));
int setjmp(jmp_buf env) __attribute__((returns_twice));
void longjmp(jmp_buf env, int val) __attribute__((noreturn));
#ifdef GUEST_IRIX
int sigsetjmp(sigjmp_buf env, int savemask) __attribute__((returns_twice));
void siglongjmp(sigjmp_buf env, int val) __attribute__((noreturn));
#endif
#endif
