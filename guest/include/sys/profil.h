/* sys/profil.h -- guest libc (irix-emu), IRIX build only.
 *
 * struct prof as printed in IRIX sprofil(2); __psunsigned_t is pointer-sized,
 * so on o32 the structure is 16 bytes: pr_base 0, pr_size 4, pr_off 8,
 * pr_scale 12 (docs/abi.md "Structure layouts").
 *
 * Flags: PROF_USHORT 1, PROF_UINT 2, PROF_FAST 4 are IRIX's, the values
 * IRIX 5.3's profiling runtime passes (docs/abi.md; glibc's copy of the
 * header has 0, 1, 2). PROF_UINT64 is HP-UX's (hpux-sprofil.2); no public
 * source gives its number: this project's documented choice is 8.
 *
 * Entry points (guest/README.md "System calls"):
 *   profil   IRIX syscall 1044 (4 arguments).
 *   sprofil  syssgi(SGI_SPROFIL = 55, profp, profcnt, tvp, flags): syscall
 *            1040 with flags as the fifth argument, at sp+16.
 *   pcsample syscall 2026: the project's own number (Solaris' pcsample(2) has
 *            no IRIX number), a0 = samples, a1 = nsamples.
 */
#ifndef _SYS_PROFIL_H
#define _SYS_PROFIL_H
#include <sys/time.h>

struct prof {
	void *pr_base;          /* buffer base */
	unsigned pr_size;       /* buffer size in bytes */
	unsigned long pr_off;   /* pc offset (__psunsigned_t: 4 bytes on o32) */
	unsigned pr_scale;      /* pc scaling, 16.16 fixed point */
};

/* The values IRIX's own profiling runtime passes (see docs/mon-out.md). */
#define PROF_USHORT 1
#define PROF_UINT 2
#define PROF_FAST 4
#define PROF_UINT64 8

#define SGI_SPROFIL 55

int profil(unsigned short *buff, unsigned int bufsiz, unsigned int offset, unsigned int scale);
int sprofil(struct prof *profp, int profcnt, struct timeval *tvp, unsigned int flags);
long pcsample(unsigned long *samples, long nsamples);
#endif
