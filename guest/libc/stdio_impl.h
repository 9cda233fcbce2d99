/* stdio_impl.h -- the output sink shared by the printf core (stdio.c) and
 * the floating-point formatter (fmt_float.c). Internal to the guest libc. */
#ifndef GUEST_STDIO_IMPL_H
#define GUEST_STDIO_IMPL_H
#include <stddef.h>

struct sink {
	int fd;            /* >= 0: flush to this descriptor; -1: string sink */
	char *buf;         /* string sink: destination */
	size_t cap;        /* string sink: bytes available including the NUL */
	size_t len;        /* bytes held (fd sink: in local[]) */
	size_t total;      /* bytes produced so far (the return value) */
	char local[256];   /* fd sink buffer */
};

/* Format flags. */
#define FL_LEFT 0x01
#define FL_ZERO 0x02
#define FL_PLUS 0x04
#define FL_SPACE 0x08
#define FL_ALT 0x10
#define FL_UPPER 0x20

void sink_putc(struct sink *s, char c);
void sink_write(struct sink *s, const char *p, size_t n);
void sink_pad(struct sink *s, char c, int n);

/* conv is one of f F e E g G; prec < 0 means the default (6). */
void fmt_double(struct sink *s, double v, char conv, int flags, int width, int prec);
#endif
