/* sys/prctl.h -- guest libc (irix-emu), IRIX build only: sproc(2).
 * The member shares the caller's address space and starts at entry(arg)
 * on a stack of its own; when entry returns, the member exits with entry's
 * return value as its status (irix-emu's documented convention: IRIX's
 * own libc start-up for sproc members is not public). */
#ifndef _SYS_PRCTL_H
#define _SYS_PRCTL_H
#include <sys/types.h>
#define PR_SADDR 0x04 /* share the address space (always, under irix-emu) */
#define PR_SALL 0x7f
pid_t sproc(int (*entry)(void *), unsigned inh, void *arg);
#endif
