/* sys/time.h -- guest libc (irix-emu). o32 struct timeval: two int32
 * (docs/abi.md "Structure layouts"). */
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
