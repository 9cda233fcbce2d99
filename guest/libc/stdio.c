/* stdio.c -- the printf family and puts (guest libc, irix-emu).
 *
 * Contents: sinks (fd with a 256-byte local buffer, or string), the format
 * core vformat (flags - 0 + space #, width and precision incl. *, lengths
 * hh h l ll z j t, conversions d i u o x X c s p n %; f F e E g G go to
 * fmt_float.c), the public entry points.
 *
 * Every call writes its output before returning (see stdio.h). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include "stdio_impl.h"

static FILE file_stdin = {0}, file_stdout = {1}, file_stderr = {2};
FILE *const stdin = &file_stdin;
FILE *const stdout = &file_stdout;
FILE *const stderr = &file_stderr;

static void sink_flush(struct sink *s)
{
	size_t off = 0;
	while (off < s->len) {
		ssize_t n = write(s->fd, s->local + off, s->len - off);
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	s->len = 0;
}

void sink_putc(struct sink *s, char c)
{
	s->total++;
	if (s->fd >= 0) {
		if (s->len == sizeof s->local)
			sink_flush(s);
		s->local[s->len++] = c;
	} else if (s->len + 1 < s->cap) {
		s->buf[s->len++] = c;
	}
}

void sink_write(struct sink *s, const char *p, size_t n)
{
	while (n--)
		sink_putc(s, *p++);
}

void sink_pad(struct sink *s, char c, int n)
{
	while (n-- > 0)
		sink_putc(s, c);
}

/* Integer conversion: digits of v in base into the end of buf. */
static int utoa(unsigned long long v, unsigned base, int upper, char *end)
{
	const char *dig = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char *p = end;
	if (v >> 32 == 0) { /* 32-bit fast path: no __udivdi3 call */
		unsigned w = (unsigned)v;
		do {
			*--p = dig[w % base];
			w /= base;
		} while (w);
	} else {
		do {
			*--p = dig[v % base];
			v /= base;
		} while (v);
	}
	return (int)(end - p);
}

static void fmt_integer(struct sink *s, unsigned long long v, int negative, unsigned base,
			int flags, int width, int prec)
{
	char buf[24];
	char sign = 0;
	const char *prefix = "";
	int n, zeros, plen, total;
	if (negative)
		sign = '-';
	else if (flags & FL_PLUS)
		sign = '+';
	else if (flags & FL_SPACE)
		sign = ' ';
	if (prec == 0 && v == 0)
		n = 0;
	else
		n = utoa(v, base, flags & FL_UPPER, buf + sizeof buf);
	if ((flags & FL_ALT) && base == 16 && v != 0)
		prefix = (flags & FL_UPPER) ? "0X" : "0x";
	if ((flags & FL_ALT) && base == 8 && (prec <= n))
		prec = n + 1;
	plen = (int)strlen(prefix) + (sign != 0);
	zeros = prec > n ? prec - n : 0;
	if (prec < 0 && (flags & FL_ZERO) && !(flags & FL_LEFT) && width > n + plen)
		zeros = width - n - plen;
	total = plen + zeros + n;
	if (!(flags & FL_LEFT))
		sink_pad(s, ' ', width - total);
	if (sign)
		sink_putc(s, sign);
	sink_write(s, prefix, strlen(prefix));
	sink_pad(s, '0', zeros);
	sink_write(s, buf + sizeof buf - n, (size_t)n);
	if (flags & FL_LEFT)
		sink_pad(s, ' ', width - total);
}

static void fmt_string(struct sink *s, const char *str, int flags, int width, int prec)
{
	size_t n;
	if (!str)
		str = "(null)";
	n = prec >= 0 ? strnlen(str, (size_t)prec) : strlen(str);
	if (!(flags & FL_LEFT))
		sink_pad(s, ' ', width - (int)n);
	sink_write(s, str, n);
	if (flags & FL_LEFT)
		sink_pad(s, ' ', width - (int)n);
}

static int vformat(struct sink *s, const char *fmt, va_list ap)
{
	for (; *fmt; fmt++) {
		int flags = 0, width = 0, prec = -1, lng = 0;
		char c;
		unsigned long long u;
		long long sv;
		if (*fmt != '%') {
			sink_putc(s, *fmt);
			continue;
		}
		for (;;) {
			c = *++fmt;
			if (c == '-')
				flags |= FL_LEFT;
			else if (c == '0')
				flags |= FL_ZERO;
			else if (c == '+')
				flags |= FL_PLUS;
			else if (c == ' ')
				flags |= FL_SPACE;
			else if (c == '#')
				flags |= FL_ALT;
			else
				break;
		}
		if (*fmt == '*') {
			width = va_arg(ap, int);
			if (width < 0) {
				flags |= FL_LEFT;
				width = -width;
			}
			fmt++;
		} else {
			while (*fmt >= '0' && *fmt <= '9')
				width = width * 10 + (*fmt++ - '0');
		}
		if (*fmt == '.') {
			fmt++;
			prec = 0;
			if (*fmt == '*') {
				prec = va_arg(ap, int);
				fmt++;
			} else {
				while (*fmt >= '0' && *fmt <= '9')
					prec = prec * 10 + (*fmt++ - '0');
			}
		}
		for (;; fmt++) {
			if (*fmt == 'l')
				lng++;
			else if (*fmt == 'h')
				lng = lng > 0 ? lng : lng - 1;
			else if (*fmt == 'z' || *fmt == 't' || *fmt == 'j')
				lng = *fmt == 'j' ? 2 : 1;
			else
				break;
		}
		c = *fmt;
		switch (c) {
		case 'd':
		case 'i':
			if (lng >= 2)
				sv = va_arg(ap, long long);
			else
				sv = va_arg(ap, int);
			if (lng == -1)
				sv = (short)sv;
			else if (lng <= -2)
				sv = (signed char)sv;
			fmt_integer(s, sv < 0 ? -(unsigned long long)sv : (unsigned long long)sv,
				    sv < 0, 10, flags, width, prec);
			break;
		case 'u':
		case 'o':
		case 'x':
		case 'X':
			if (lng >= 2)
				u = va_arg(ap, unsigned long long);
			else
				u = va_arg(ap, unsigned int);
			if (lng == -1)
				u = (unsigned short)u;
			else if (lng <= -2)
				u = (unsigned char)u;
			if (c == 'X')
				flags |= FL_UPPER;
			fmt_integer(s, u, 0, c == 'u' ? 10 : c == 'o' ? 8 : 16,
				    flags & ~(FL_PLUS | FL_SPACE), width, prec);
			break;
		case 'p':
			u = (unsigned)va_arg(ap, void *);
			fmt_integer(s, u, 0, 16, FL_ALT, width, 8);
			break;
		case 'c': {
			char ch = (char)va_arg(ap, int);
			if (!(flags & FL_LEFT))
				sink_pad(s, ' ', width - 1);
			sink_putc(s, ch);
			if (flags & FL_LEFT)
				sink_pad(s, ' ', width - 1);
			break;
		}
		case 's':
			fmt_string(s, va_arg(ap, const char *), flags, width, prec);
			break;
		case 'f':
		case 'F':
		case 'e':
		case 'E':
		case 'g':
		case 'G':
			fmt_double(s, va_arg(ap, double), c, flags, width, prec);
			break;
		case 'n':
			*va_arg(ap, int *) = (int)s->total;
			break;
		case '%':
			sink_putc(s, '%');
			break;
		case 0:
			fmt--; /* lone '%' at the end: stop */
			break;
		default:
			sink_putc(s, '%');
			sink_putc(s, c);
			break;
		}
	}
	return (int)s->total;
}

int vdprintf(int fd, const char *fmt, va_list ap)
{
	struct sink s;
	int n;
	s.fd = fd;
	s.len = s.total = 0;
	s.buf = NULL;
	s.cap = 0;
	n = vformat(&s, fmt, ap);
	sink_flush(&s);
	return n;
}

int vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap)
{
	struct sink s;
	int n;
	s.fd = -1;
	s.len = s.total = 0;
	s.buf = buf;
	s.cap = cap;
	n = vformat(&s, fmt, ap);
	if (cap)
		buf[s.len] = 0;
	return n;
}

int vsprintf(char *buf, const char *fmt, va_list ap)
{
	return vsnprintf(buf, 0x7fffffff, fmt, ap);
}

int vfprintf(FILE *f, const char *fmt, va_list ap)
{
	return vdprintf(f->fd, fmt, ap);
}

int vprintf(const char *fmt, va_list ap)
{
	return vdprintf(1, fmt, ap);
}

int printf(const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vdprintf(1, fmt, ap);
	va_end(ap);
	return n;
}

int fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vdprintf(f->fd, fmt, ap);
	va_end(ap);
	return n;
}

int dprintf(int fd, const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vdprintf(fd, fmt, ap);
	va_end(ap);
	return n;
}

int sprintf(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(buf, 0x7fffffff, fmt, ap);
	va_end(ap);
	return n;
}

int snprintf(char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(buf, cap, fmt, ap);
	va_end(ap);
	return n;
}

int fputs(const char *str, FILE *f)
{
	size_t n = strlen(str);
	return write(f->fd, str, n) == (ssize_t)n ? 0 : EOF;
}

int puts(const char *str)
{
	return printf("%s\n", str) < 0 ? EOF : 0;
}

int fputc(int c, FILE *f)
{
	char ch = (char)c;
	return write(f->fd, &ch, 1) == 1 ? (unsigned char)c : EOF;
}

int putchar(int c)
{
	return fputc(c, stdout);
}

void perror(const char *msg)
{
	int e = errno;
	if (msg && *msg)
		dprintf(2, "%s: %s\n", msg, strerror(e));
	else
		dprintf(2, "%s\n", strerror(e));
}
