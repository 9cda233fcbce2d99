/* profiling.c -- sprofil(2) (guest libc, IRIX build only).
 *
 * sprofil is not a system call of its own on IRIX: it is
 * syssgi(SGI_SPROFIL = 55, profp, profcnt, tvp, flags) (docs/abi.md), so
 * flags travels as the fifth argument, at sp+16 (o32). profil(2) (1044) and
 * pcsample (2026, the project's number) are plain stubs in syscall.S.
 */
#include <sys/profil.h>

extern int __syssgi(int request, void *a1, int a2, void *a3, unsigned a4);

int sprofil(struct prof *profp, int profcnt, struct timeval *tvp, unsigned int flags)
{
	return __syssgi(SGI_SPROFIL, profp, profcnt, tvp, flags);
}
