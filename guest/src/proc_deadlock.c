/* proc_deadlock -- two processes each blocked reading a pipe nobody will
 * write: the parent reads pipe A, the child reads pipe B, and each holds
 * (and never uses) the write end of the pipe the other reads, so neither
 * read can return data or EOF. Every process is blocked: the emulator
 * should detect that nothing can run and report a deadlock.
 * Expected output: "proc_deadlock: parent and child will both block
 * reading pipes nobody writes\n", then nothing (no exit). */
#include <stdio.h>
#include <errno.h>
#include <unistd.h>

int main(void)
{
	int a[2], b[2];
	char c;
	pid_t pid;

	if (pipe(a) < 0 || pipe(b) < 0) {
		printf("pipe: %s\n", errno_name(errno));
		return 1;
	}
	printf("proc_deadlock: parent and child will both block reading pipes nobody writes\n");
	pid = fork();
	if (pid < 0) {
		printf("fork: %s\n", errno_name(errno));
		return 1;
	}
	if (pid == 0) {
		close(b[1]); /* keeps a[1] open, never writes it */
		read(b[0], &c, 1);
		printf("child: read returned (unexpected)\n");
		_exit(1);
	}
	close(a[1]); /* keeps b[1] open, never writes it */
	read(a[0], &c, 1);
	printf("parent: read returned (unexpected)\n");
	return 1;
}
