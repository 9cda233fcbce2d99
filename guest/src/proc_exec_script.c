/* proc_exec_script -- execve of interpreter files, by exec(2): "An
 * interpreter file begins with a line of the form #! pathname [arg]".
 *
 * Run from inside the guest root (argv[0] a guest path, e.g.
 * `irix-emu run --root DIR DIR/proc_exec_script` with DIR writable): it
 * writes interpreter files naming itself as their interpreter into the
 * working directory, execs each in a child with the caller's arguments
 * "name one two" and the environment EXEC_SCRIPT_INTERP=1, and prints how
 * each ended. Started with that variable set it is the interpreter: it
 * prints its argument list, one line per argument, and exits 7. It
 * removes the files it made.
 * Expected output, exit status 0 (SELF is argv[0]):
 *   with_arg: interp argv[0] = SELF  ... argv[1] = -a b (tab made a space),
 *             argv[2] = ./s_arg, argv[3] = one, argv[4] = two; exit 7
 *   ... see tests/kernel_proc.rs for every line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/wait.h>

static const char *self;

/* Writes `text` to `path` with `mode`; 0 or -1. */
static int make(const char *path, const char *text, int mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	size_t len = strlen(text);
	if (fd < 0)
		return -1;
	if (write(fd, text, len) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/* Execs `path` in a child and prints "label: exit N" or the errno. */
static void run(const char *label, const char *path)
{
	char *argv[] = { "name", "one", "two", NULL };
	char *envp[] = { "EXEC_SCRIPT_INTERP=1", NULL };
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		execve(path, argv, envp);
		printf("%s: execve %s\n", label, errno_name(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		printf("%s: fork or wait %s\n", label, errno_name(errno));
		return;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) != 127)
		printf("%s: exit %d\n", label, WEXITSTATUS(status));
}

int main(int argc, char **argv)
{
	static char text[600];
	char *env = getenv("EXEC_SCRIPT_INTERP");
	int i;

	if (env && strcmp(env, "1") == 0) {
		for (i = 0; i < argc; i++)
			printf("interp: argv[%d] = %s\n", i, argv[i]);
		return 7;
	}
	self = argv[0];
	if (self[0] != '/') {
		printf("proc_exec_script: run me by my guest path\n");
		return 1;
	}

	/* "arg includes all characters from the first non-space character
	 * after pathname up to, but not including, the newline. Any tabs in
	 * arg are converted to spaces." */
	sprintf(text, "#!%s -a\tb\necho not read\n", self);
	make("s_arg", text, 0755);
	run("with_arg", "./s_arg");

	/* "If arg was specified ... it is passed as arg1": here it is not. */
	sprintf(text, "#! \t%s\n", self);
	make("s_bare", text, 0755);
	run("bare", "s_bare");

	/* "E2BIG The number of bytes in the first line of an interpreter file
	 * is greater than 256 bytes." */
	sprintf(text, "#!%s ", self);
	for (i = strlen(text); i < 300; i++)
		text[i] = 'x';
	strcpy(text + i, "\n");
	make("s_long", text, 0755);
	run("long_line", "s_long");

	/* "EACCES Execute permission on the new process file is denied." */
	sprintf(text, "#!%s\n", self);
	make("s_noexec", text, 0644);
	run("not_executable", "s_noexec");

	/* The interpreter resolves in the guest root: ENOENT if it is absent. */
	make("s_missing", "#!/no/such/interpreter\n", 0755);
	run("missing_interpreter", "s_missing");

	/* An interpreter that is itself an interpreter file is no executable
	 * object file: ENOEXEC. So is a line without a pathname. */
	make("s_nested", "#!s_bare\n", 0755);
	run("nested", "s_nested");
	make("s_empty", "#!\n", 0755);
	run("no_pathname", "s_empty");

	unlink("s_arg");
	unlink("s_bare");
	unlink("s_long");
	unlink("s_noexec");
	unlink("s_missing");
	unlink("s_nested");
	unlink("s_empty");
	printf("done\n");
	return 0;
}
