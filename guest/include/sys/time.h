/* sys/time.h -- guest libc (irix-emu). o32 struct timeval: two int32
 * (shared/ABI.md "Structures"). */
#ifndef _SYS_TIME_H
#define _SYS_TIME_H
#include <sys/types.h>
struct timeval {
	long tv_sec;
	long tv_usec;
};
#ifdef GUEST_IRIX
int gettimeofday(struct timeval *tv, void *tz);
#endif
#endif
