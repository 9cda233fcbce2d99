/* malloc.c -- break management and a first-fit allocator (guest libc).
 *
 * Contents: brk/sbrk over the raw break call (personality differences),
 * malloc/free/calloc/realloc (K&R-style address-ordered free list with
 * coalescing; 8-byte alignment; the heap grows in 16 KB steps).
 *
 * Break semantics:
 *   IRIX break(2) (SVR4 "break", NetBSD svr4_sys_break): sets the break to
 *   the address given and returns 0, or fails with ENOMEM. The initial break
 *   is the end of bss, the linker's `end` symbol.
 *   Linux brk(2): returns the new break, or the old one on failure; brk(0)
 *   reports the current break.
 */
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <unistd.h>
#include <errno.h>

extern char end[];
extern long __sys_brk(void *addr);

static char *current_break;

static char *initial_break(void)
{
#if defined(GUEST_LINUX)
	return (char *)__sys_brk(0);
#else
	return (char *)(((uintptr_t)end + 7) & ~(uintptr_t)7);
#endif
}

int brk(void *addr)
{
#if defined(GUEST_LINUX)
	if ((char *)__sys_brk(addr) != (char *)addr) {
		errno = ENOMEM;
		return -1;
	}
#else
	if (__sys_brk(addr) != 0)
		return -1;
#endif
	current_break = addr;
	return 0;
}

void *sbrk(int increment)
{
	char *old;
	if (!current_break)
		current_break = initial_break();
	old = current_break;
	if (increment == 0)
		return old;
	if (brk(old + increment) != 0)
		return (void *)-1;
	return old;
}

/* Block header; `units` counts 8-byte units including the header. */
typedef union header {
	struct {
		union header *next;
		unsigned units;
	} h;
	long long align;
} header;

static header base;
static header *free_list;

#define GROW_UNITS 2048 /* 16 KB */

static header *grow(unsigned units)
{
	char *p;
	header *h;
	if (units < GROW_UNITS)
		units = GROW_UNITS;
	p = sbrk((int)(units * sizeof(header)));
	if (p == (char *)-1)
		return NULL;
	h = (header *)p;
	h->h.units = units;
	free(h + 1);
	return free_list;
}

void *malloc(size_t n)
{
	header *p, *prev;
	unsigned units;
	if (n == 0)
		n = 1;
	if (n > 0x7fff0000u) {
		errno = ENOMEM;
		return NULL;
	}
	units = (unsigned)((n + sizeof(header) - 1) / sizeof(header)) + 1;
	if ((prev = free_list) == NULL) {
		base.h.next = free_list = prev = &base;
		base.h.units = 0;
	}
	for (p = prev->h.next;; prev = p, p = p->h.next) {
		if (p->h.units >= units) {
			if (p->h.units == units) {
				prev->h.next = p->h.next;
			} else {
				p->h.units -= units;
				p += p->h.units;
				p->h.units = units;
			}
			free_list = prev;
			return p + 1;
		}
		if (p == free_list && (p = grow(units)) == NULL) {
			errno = ENOMEM;
			return NULL;
		}
	}
}

void free(void *ptr)
{
	header *b, *p;
	if (!ptr)
		return;
	b = (header *)ptr - 1;
	for (p = free_list; !(b > p && b < p->h.next); p = p->h.next)
		if (p >= p->h.next && (b > p || b < p->h.next))
			break;
	if (b + b->h.units == p->h.next) {
		b->h.units += p->h.next->h.units;
		b->h.next = p->h.next->h.next;
	} else {
		b->h.next = p->h.next;
	}
	if (p + p->h.units == b) {
		p->h.units += b->h.units;
		p->h.next = b->h.next;
	} else {
		p->h.next = b;
	}
	free_list = p;
}

void *calloc(size_t n, size_t size)
{
	void *p;
	if (size && n > 0x7fff0000u / size) {
		errno = ENOMEM;
		return NULL;
	}
	p = malloc(n * size);
	if (p)
		memset(p, 0, n * size);
	return p;
}

void *realloc(void *ptr, size_t n)
{
	header *b;
	size_t have;
	void *q;
	if (!ptr)
		return malloc(n);
	b = (header *)ptr - 1;
	have = (b->h.units - 1) * sizeof(header);
	if (n <= have)
		return ptr;
	q = malloc(n);
	if (q) {
		memcpy(q, ptr, have);
		free(ptr);
	}
	return q;
}
