/* errno.c -- errno, errno_name, strerror, signal_name (guest libc, irix-emu).
 * Numbers: SVR4/IRIX (docs/abi.md "errno values"); see include/errno.h for why the
 * Linux/MIPS build shares them. */
#include <errno.h>
#include <string.h>
#include <signal.h>

int errno;

struct name_entry {
	int number;
	const char *name;
	const char *text;
};

static const struct name_entry errno_table[] = {
	{EPERM, "EPERM", "Not owner"},
	{ENOENT, "ENOENT", "No such file or directory"},
	{ESRCH, "ESRCH", "No such process"},
	{EINTR, "EINTR", "Interrupted system call"},
	{EIO, "EIO", "I/O error"},
	{E2BIG, "E2BIG", "Arg list too long"},
	{ENOEXEC, "ENOEXEC", "Exec format error"},
	{EBADF, "EBADF", "Bad file number"},
	{ECHILD, "ECHILD", "No child processes"},
	{EAGAIN, "EAGAIN", "Resource temporarily unavailable"},
	{ENOMEM, "ENOMEM", "Not enough space"},
	{EACCES, "EACCES", "Permission denied"},
	{EFAULT, "EFAULT", "Bad address"},
	{EBUSY, "EBUSY", "Device busy"},
	{EEXIST, "EEXIST", "File exists"},
	{EXDEV, "EXDEV", "Cross-device link"},
	{ENOTDIR, "ENOTDIR", "Not a directory"},
	{EISDIR, "EISDIR", "Is a directory"},
	{EINVAL, "EINVAL", "Invalid argument"},
	{EMFILE, "EMFILE", "Too many open files"},
	{ENOTTY, "ENOTTY", "Not a typewriter"},
	{EFBIG, "EFBIG", "File too large"},
	{ENOSPC, "ENOSPC", "No space left on device"},
	{ESPIPE, "ESPIPE", "Illegal seek"},
	{EROFS, "EROFS", "Read-only file system"},
	{EMLINK, "EMLINK", "Too many links"},
	{EPIPE, "EPIPE", "Broken pipe"},
	{ERANGE, "ERANGE", "Result too large"},
	{EDEADLK, "EDEADLK", "Deadlock situation detected/avoided"},
	{ENAMETOOLONG, "ENAMETOOLONG", "File name too long"},
	{EOVERFLOW, "EOVERFLOW", "Value too large for defined data type"},
	{ENOSYS, "ENOSYS", "Function not implemented"},
	{ELOOP, "ELOOP", "Symbolic link loop"},
	{ENOTEMPTY, "ENOTEMPTY", "Directory not empty"},
	{ETIMEDOUT, "ETIMEDOUT", "Connection timed out"},
};

static const struct name_entry *find_errno(int e)
{
	unsigned i;
	for (i = 0; i < sizeof errno_table / sizeof errno_table[0]; i++)
		if (errno_table[i].number == e)
			return &errno_table[i];
	return NULL;
}

const char *errno_name(int e)
{
	const struct name_entry *p = find_errno(e);
	return p ? p->name : "E?";
}

const char *strerror(int e)
{
	const struct name_entry *p = find_errno(e);
	return p ? p->text : "Unknown error";
}

static const char *const signal_names[] = {
	"SIG0", "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT",
	"SIGEMT", "SIGFPE", "SIGKILL", "SIGBUS", "SIGSEGV", "SIGSYS", "SIGPIPE",
	"SIGALRM", "SIGTERM", "SIGUSR1", "SIGUSR2", "SIGCHLD",
};

const char *signal_name(int sig)
{
	if (sig >= 0 && (unsigned)sig < sizeof signal_names / sizeof signal_names[0])
		return signal_names[sig];
	return "SIG?";
}
