/* libgreet.c -- the shared library of the dynamic-loading test (irix-emu).
 *
 * Built position-independent (-fPIC -shared) at base address 0, so the
 * loader must place it elsewhere and relocate it: greet_message() returns a
 * string through a local GOT entry (relocated by the load offset), and
 * greet_calls is data the program reaches through its global GOT entry.
 * No libc: the library makes its own system calls (IRIX o32: v0 = number,
 * a3 = error flag).
 */

int greet_calls;
static const char message[] = "hello from libgreet.so\n";

static long sys3(long nr, long a0, long a1, long a2)
{
	register long v0 __asm__("$2") = nr;
	register long r4 __asm__("$4") = a0;
	register long r5 __asm__("$5") = a1;
	register long r6 __asm__("$6") = a2;
	register long r7 __asm__("$7");
	__asm__ volatile("syscall"
			 : "+r"(v0), "=r"(r7)
			 : "r"(r4), "r"(r5), "r"(r6)
			 : "$3", "$8", "$9", "$10", "$11", "$12", "$13", "$14",
			   "$15", "$24", "$25", "hi", "lo", "memory");
	return r7 ? -v0 : v0;
}

static unsigned length(const char *s)
{
	unsigned n = 0;
	while (s[n])
		n++;
	return n;
}

const char *greet_message(void)
{
	greet_calls++;
	return message;
}

int greet_add(int a, int b)
{
	greet_calls++;
	return a + b;
}

void greet_write(const char *s)
{
	greet_calls++;
	sys3(1004, 1, (long)s, length(s)); /* write(1, s, n) */
}

void greet_exit(int status)
{
	for (;;)
		sys3(1001, status, 0, 0); /* exit(status) */
}
