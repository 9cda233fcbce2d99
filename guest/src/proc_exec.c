/* proc_exec -- exec(2) turns profiling off: "Profiling is turned off when
 * an exec(2) is executed" (sprofil(2) NOTES). Starts profil() over its own
 * text, runs a little, then execve()s a target that prints a line. The
 * target is argv[1], or "hello" in the directory of argv[0] (so
 * guest/bin/irix/proc_exec runs guest/bin/irix/hello). The kernel must drop
 * the profiling state: the old buffer's addresses mean nothing in the new
 * image.
 * Expected output (exit status 0, the target's):
 *   proc_exec: profil 0
 *   proc_exec: exec guest/bin/irix/hello
 *   hello, world
 * If execve fails: "proc_exec: execve: <ERRNO>" and exit status 127. */
#include "prof_hot.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/profil.h>

int main(int argc, char **argv)
{
	unsigned nbins = (addr(etext) - addr(_ftext) + 3) / 4;
	unsigned short *bins = calloc(nbins, sizeof *bins);
	char path[512];
	char *target_argv[2];
	volatile unsigned sink;
	int r;

	if (!bins)
		return 1;
	if (argc > 1) {
		strncpy(path, argv[1], sizeof path - 1);
		path[sizeof path - 1] = 0;
	} else {
		const char *slash = strrchr(argv[0], '/');
		size_t dir = slash ? (size_t)(slash - argv[0]) + 1 : 0;
		if (dir > sizeof path - 8)
			dir = 0;
		memcpy(path, argv[0], dir);
		strcpy(path + dir, "hello");
	}
	r = profil(bins, nbins * 2, addr(_ftext), 0x8000);
	printf("proc_exec: profil %d\n", r);
	sink = hot_a(500000);
	(void)sink;
	printf("proc_exec: exec %s\n", path);
	target_argv[0] = path;
	target_argv[1] = NULL;
	execve(path, target_argv, environ);
	printf("proc_exec: execve: %s\n", errno_name(errno));
	return 127;
}
