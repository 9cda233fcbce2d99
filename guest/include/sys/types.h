/* sys/types.h -- guest libc (irix-emu). IRIX o32 widths (NetBSD
 * sys/compat/irix/irix_types.h: pid_t, uid_t, off_t are 32-bit longs). */
#ifndef _SYS_TYPES_H
#define _SYS_TYPES_H
#include <stddef.h>
typedef long pid_t;
typedef long uid_t;
typedef long gid_t;
typedef long off_t;
typedef unsigned long mode_t;
typedef long time_t;
typedef long clock_t;
#endif
