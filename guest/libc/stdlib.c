/* stdlib.c -- exit, abort, number parsing, getenv, qsort (guest libc).
 * No atexit and no stdio buffers (see stdio.h), so exit is _exit. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>

char **environ;

void exit(int status)
{
	_exit(status);
}

void abort(void)
{
	kill(getpid(), SIGABRT);
	_exit(127);
}

int abs(int x)
{
	return x < 0 ? -x : x;
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	return 99;
}

unsigned long strtoul(const char *s, char **end, int base)
{
	unsigned long v = 0;
	int neg = 0, d;
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if ((base == 0 || base == 16) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		base = 16;
	} else if (base == 0) {
		base = s[0] == '0' ? 8 : 10;
	}
	while ((d = digit_value(*s)) < base) {
		v = v * (unsigned long)base + (unsigned long)d;
		s++;
	}
	if (end)
		*end = (char *)s;
	return neg ? -v : v;
}

long strtol(const char *s, char **end, int base)
{
	return (long)strtoul(s, end, base);
}

int atoi(const char *s)
{
	return (int)strtol(s, NULL, 10);
}

char *getenv(const char *name)
{
	size_t n = strlen(name);
	char **e;
	for (e = environ; e && *e; e++)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

/* Insertion sort: small inputs only; deterministic, no recursion. */
void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	unsigned char *b = base;
	unsigned char tmp[64];
	size_t i, j, k;
	if (size > sizeof tmp)
		abort();
	for (i = 1; i < n; i++) {
		memcpy(tmp, b + i * size, size);
		for (j = i; j > 0 && cmp(b + (j - 1) * size, tmp) > 0; j--)
			for (k = 0; k < size; k++)
				b[j * size + k] = b[(j - 1) * size + k];
		memcpy(b + j * size, tmp, size);
	}
}
