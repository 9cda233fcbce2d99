/* signal.h -- guest libc (irix-emu).
 * Signal numbers: SVR4/IRIX (Linux/MIPS has the same numbers for all of
 * these). The sigaction API (IRIX build only) uses the IRIX kernel layouts
 * directly; see guest/README.md "Signals" for sources and the trampoline. */
#ifndef _SIGNAL_H
#define _SIGNAL_H
#include <sys/types.h>
#define SIGHUP 1
#define SIGINT 2
#define SIGQUIT 3
#define SIGILL 4
#define SIGTRAP 5
#define SIGABRT 6
#define SIGEMT 7
#define SIGFPE 8
#define SIGKILL 9
#define SIGBUS 10
#define SIGSEGV 11
#define SIGSYS 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGUSR1 16
#define SIGUSR2 17
#define SIGCHLD 18
#define SIGSTOP 23 /* SVR4 numbering (IRIX), not Linux's 19 */
#define SIGCONT 25

int kill(pid_t pid, int sig);
/* "SIGSEGV" for 11; "SIG?" for an unknown number. */
const char *signal_name(int sig);

#ifdef GUEST_IRIX
/* IRIX sigset_t: four 32-bit words; signal n is bit (n-1)%32 of word
 * (n-1)/32 (NetBSD sys/compat/irix/irix_types.h irix_sigset_t and the
 * irix_sigmask/irix_sigword macros of irix_signal.c). */
typedef struct { unsigned int __sigbits[4]; } sigset_t;

typedef void (*sighandler_t)(int);
#define SIG_DFL ((sighandler_t)0)
#define SIG_IGN ((sighandler_t)1)

/* SVR4 sigaction layout, flags first (NetBSD compat/svr4 svr4_sigaction,
 * used by irix_sys_sigaction): 4 + 4 + 16 + 8 = 32 bytes. */
struct sigaction {
	int sa_flags;
	sighandler_t sa_handler;
	sigset_t sa_mask;
	int sa_resv[2];
};
#define SA_ONSTACK 0x01
#define SA_RESETHAND 0x02
#define SA_RESTART 0x04
#define SA_SIGINFO 0x08
#define SA_NODEFER 0x10

#define SIG_BLOCK 1
#define SIG_UNBLOCK 2
#define SIG_SETMASK 3

/* IRIX struct sigcontext (NetBSD sys/compat/irix/irix_signal.h): the offsets
 * a handler may read. 64-bit registers, big-endian: the low word of a
 * register is at +4. Total size 856 bytes. */
#define SC_REGMASK 0
#define SC_STATUS 4
#define SC_PC 8            /* u64 */
#define SC_REGS 16         /* u64 [32] */
#define SC_FPREGS 272      /* u64 [32] */
#define SC_OWNEDFP 528
#define SC_FPC_CSR 532
#define SC_FPC_EIR 536
#define SC_SSFLAGS 540
#define SC_MDHI 544        /* u64 */
#define SC_MDLO 552        /* u64 */
#define SC_CAUSE 560       /* u64 */
#define SC_BADVADDR 568    /* u64 */
#define SC_TRIGGERSAVE 576 /* u64 */
#define SC_SIGSET 584      /* sigset_t, 16 bytes */
#define SC_SIZE 856

int sigaction(int sig, const struct sigaction *act, struct sigaction *oact);
int sigprocmask(int how, const sigset_t *set, sigset_t *oset);
int sigemptyset(sigset_t *s);
int sigfillset(sigset_t *s);
int sigaddset(sigset_t *s, int sig);
int sigdelset(sigset_t *s, int sig);
int sigismember(const sigset_t *s, int sig);
#endif
#endif
