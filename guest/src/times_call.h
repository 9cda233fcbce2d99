/* times_call.h -- times(2) for the programs that need it. The guest libc
 * does not wrap times, so this is the system call itself: IRIX number 1043
 * (docs/abi.md system call table; SVR4 times), a0 = struct tms *; the
 * result in v0 is the elapsed real time in ticks, a3 != 0 flags an error.
 * struct tms is four clock_t (32-bit long in o32): user, system, and the
 * waited-for children's user and system times, in ticks of HZ = 100
 * (docs/abi.md: "HZ = 100 (sysconf(_SC_CLK_TCK))"). */
#ifndef TIMES_CALL_H
#define TIMES_CALL_H

struct tms {
	long tms_utime;
	long tms_stime;
	long tms_cutime;
	long tms_cstime;
};

static inline long times(struct tms *t)
{
	register long v0 __asm__("$2") = 1043;
	register long a0 __asm__("$4") = (long)t;
	register long a3 __asm__("$7");
	/* The kernel writes v0, v1 and a3; the o32 caller-saved registers are
	 * listed too, so nothing live is kept in them across the trap. */
	__asm__ volatile("syscall"
			 : "+r"(v0), "+r"(a0), "=r"(a3)
			 :
			 : "$1", "$3", "$5", "$6", "$8", "$9", "$10", "$11", "$12", "$13",
			   "$14", "$15", "$24", "$25", "hi", "lo", "memory");
	return a3 ? -1 : v0;
}
#endif
