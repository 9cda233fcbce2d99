/* sys/wait.h -- guest libc (irix-emu), IRIX build only.
 * waitpid() is built on waitsys(2) (IRIX 1170); libc turns the siginfo it
 * returns into the traditional status word these macros decode:
 * exited: status << 8; killed: signo (| 0x80 if a core was dumped);
 * stopped: (signo << 8) | 0x7f. */
#ifndef _SYS_WAIT_H
#define _SYS_WAIT_H
#include <sys/types.h>
#define WNOHANG 0x40
#define WIFEXITED(s) (((s) & 0x7f) == 0)
#define WEXITSTATUS(s) (((s) >> 8) & 0xff)
#define WIFSIGNALED(s) (((s) & 0x7f) != 0 && ((s) & 0x7f) != 0x7f)
#define WTERMSIG(s) ((s) & 0x7f)
#define WCOREDUMP(s) ((s) & 0x80)
#define WIFSTOPPED(s) (((s) & 0xff) == 0x7f)
#define WSTOPSIG(s) (((s) >> 8) & 0xff)

/* waitsys(2) idtype and options (SVR4 values, NetBSD compat/svr4
 * svr4_wait.h / svr4_types.h: P_PID 0, P_PGID 2, P_ALL 7; WEXITED 1,
 * WTRAPPED 2, WSTOPPED 4, WCONTINUED 8, WNOHANG 0x40, WNOWAIT 0x80). */
#define P_PID 0
#define P_PGID 2
#define P_ALL 7
#define WEXITED 0x01
#define WTRAPPED 0x02
#define WSTOPPED 0x04
#define WCONTINUED 0x08
#define WNOWAIT 0x80

/* IRIX 5 siginfo (NetBSD sys/compat/irix/irix_signal.h irix_irix5_siginfo):
 * 128 bytes; the fields waitsys fills for a child: */
typedef struct {
	int si_signo;   /* +0: SIGCHLD (18) */
	int si_code;    /* +4: CLD_* */
	int si_errno;   /* +8 */
	long si_pid;    /* +12 */
	long si_utime;  /* +16 (clock_t) */
	int si_status;  /* +20: exit status, or signal number */
	long si_stime;  /* +24 */
	int si_pad[25]; /* to 128 bytes */
} siginfo_t;
#define CLD_EXITED 1
#define CLD_KILLED 2
#define CLD_DUMPED 3
#define CLD_TRAPPED 4
#define CLD_STOPPED 5
#define CLD_CONTINUED 6

pid_t waitpid(pid_t pid, int *status, int options);
pid_t wait(int *status);
int waitsys(int idtype, long id, siginfo_t *info, int options, void *rusage);
#endif
