/* proc_names -- the names the kernel gives the program a process runs,
 * seen from inside: argv[0], and syssgi(SGI_RDNAME, getpid(), buf, len)
 * (the name ps shows: the last component of the program's guest path);
 * then it execs itself through argv[0], a guest path, and prints both
 * again from the new image. Run from a root holding it (irix-emu run
 * --root R R/bin/proc_names) both images say the guest's names.
 * Expected output (exit status 0), for R/bin/proc_names:
 *   before exec: argv[0] /bin/proc_names
 *   before exec: rdname proc_names (10)
 *   after exec: argv[0] /bin/proc_names
 *   after exec: rdname proc_names (10)
 * If execve fails: "proc_names: execve: <ERRNO>" and exit status 127. */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

#define N_SYSSGI 1040
#define SGI_RDNAME 6

static void show(const char *when, const char *argv0)
{
	char name[64];
	long n;

	memset(name, 0, sizeof name);
	n = syscall(N_SYSSGI, SGI_RDNAME, (long)getpid(), name, (long)sizeof name);
	printf("%s: argv[0] %s\n", when, argv0);
	if (n < 0)
		printf("%s: rdname -1 %s\n", when, errno_name(errno));
	else
		printf("%s: rdname %s (%ld)\n", when, name, n);
}

int main(int argc, char **argv, char **envp)
{
	char *again[3];

	if (argc > 1) {
		show("after exec", argv[0]);
		return 0;
	}
	show("before exec", argv[0]);
	again[0] = argv[0];
	again[1] = "again";
	again[2] = 0;
	execve(argv[0], again, envp);
	printf("proc_names: execve: %s\n", errno_name(errno));
	return 127;
}
