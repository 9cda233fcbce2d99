/* fmt_float.c -- exact decimal formatting of doubles for printf's
 * %f %F %e %E %g %G (guest libc, irix-emu).
 *
 * Correctly rounded, round-half-to-even on exact ties (as glibc in its
 * default rounding mode), and deterministic: the conversion uses only
 * integer arithmetic on the double's bits, so the FPU (and its emulation)
 * never touches the digits.
 *
 * Contents: bignum helpers; the digit stream (integer part digits, then
 * fraction digits by repeated multiplication by 10); convert() (E mode: n
 * significant digits; F mode: n digits after the point) with rounding;
 * the three layouts and %g's choice between them (C99 7.19.6.1).
 *
 * A double is m * 2^e with m < 2^53 and -1074 <= e <= 971, so the integer
 * part has at most 309 digits and the fraction at most 1074 bits. The
 * precision is capped at MAX_PREC digits (extra requested digits print as
 * zeros would in glibc only for exact values; here they are truncated).
 */
#include <stdint.h>
#include <string.h>
#include "stdio_impl.h"

#define LIMBS 36        /* 1152 bits: the integer part needs <= 1024, the
			 * fraction numerator <= 1074 + 4 */
#define MAX_PREC 120
#define MAX_DIGITS (310 + MAX_PREC + 2)

struct stream {
	char idig[312];      /* integer digits, most significant first */
	int ni;              /* number of integer digits (0 if the part is 0) */
	int ipos;            /* next integer digit to hand out */
	uint32_t frac[LIMBS];/* fraction numerator, little-endian limbs */
	int fbits;           /* denominator is 2^fbits (0: no fraction) */
	int flimbs;          /* limbs in use for frac */
};

/* ---- bignum helpers ---- */

static int big_is_zero(const uint32_t *b, int n)
{
	int i;
	for (i = 0; i < n; i++)
		if (b[i])
			return 0;
	return 1;
}

/* b /= 10000; returns the remainder. 16-bit halves keep every division in
 * 32 bits (rem < 10000, so (rem << 16 | half) < 2^30). */
static unsigned big_div10000(uint32_t *b, int n)
{
	unsigned rem = 0;
	int i;
	for (i = n - 1; i >= 0; i--) {
		unsigned hi = (rem << 16) | (b[i] >> 16);
		unsigned qh = hi / 10000;
		unsigned lo;
		rem = hi % 10000;
		lo = (rem << 16) | (b[i] & 0xffff);
		rem = lo % 10000;
		b[i] = (qh << 16) | (lo / 10000);
	}
	return rem;
}

/* ---- the digit stream ---- */

static void stream_init(struct stream *st, uint64_t m, int e)
{
	uint32_t ip[LIMBS];
	char rev[320];
	int n = 0, i;
	memset(ip, 0, sizeof ip);
	memset(st->frac, 0, sizeof st->frac);
	st->fbits = 0;
	st->flimbs = 0;
	if (e >= 0) {
		/* integer part m << e */
		int w = e / 32, b = e % 32;
		uint64_t lo = m << b;
		ip[w] = (uint32_t)lo;
		ip[w + 1] = (uint32_t)(lo >> 32);
		if (b)
			ip[w + 2] = (uint32_t)(m >> (64 - b));
	} else {
		int s = -e;
		uint64_t ipart = s >= 64 ? 0 : m >> s;
		ip[0] = (uint32_t)ipart;
		ip[1] = (uint32_t)(ipart >> 32);
		/* fraction numerator = m mod 2^s, over 2^s */
		if (s < 64)
			m &= ((uint64_t)1 << s) - 1;
		st->frac[0] = (uint32_t)m;
		st->frac[1] = (uint32_t)(m >> 32);
		st->fbits = s;
		st->flimbs = (s + 4) / 32 + 1;
	}
	/* integer digits, four at a time, least significant first */
	while (!big_is_zero(ip, LIMBS)) {
		unsigned r = big_div10000(ip, LIMBS);
		for (i = 0; i < 4; i++) {
			rev[n++] = (char)('0' + r % 10);
			r /= 10;
		}
	}
	while (n > 0 && rev[n - 1] == '0')
		n--;
	for (i = 0; i < n; i++)
		st->idig[i] = rev[n - 1 - i];
	st->ni = n;
	st->ipos = 0;
}

/* Next fraction digit: frac *= 10; the digit is what passes 2^fbits. */
static int next_frac_digit(struct stream *st)
{
	uint64_t carry = 0;
	int i, w, b;
	unsigned digit;
	if (st->fbits == 0)
		return 0;
	for (i = 0; i < st->flimbs; i++) {
		uint64_t t = (uint64_t)st->frac[i] * 10 + carry;
		st->frac[i] = (uint32_t)t;
		carry = t >> 32;
	}
	w = st->fbits / 32;
	b = st->fbits % 32;
	digit = (unsigned)(st->frac[w] >> b);
	if (w + 1 < st->flimbs && b)
		digit |= st->frac[w + 1] << (32 - b);
	st->frac[w] &= b ? (((uint32_t)1 << b) - 1) : 0;
	for (i = w + 1; i < st->flimbs; i++)
		st->frac[i] = 0;
	return (int)digit;
}

static int next_digit(struct stream *st)
{
	if (st->ipos < st->ni)
		return st->idig[st->ipos++] - '0';
	return next_frac_digit(st);
}

/* Anything nonzero left in the stream? */
static int stream_sticky(const struct stream *st)
{
	int i;
	for (i = st->ipos; i < st->ni; i++)
		if (st->idig[i] != '0')
			return 1;
	return st->fbits && !big_is_zero(st->frac, st->flimbs);
}

/* ---- conversion with rounding ----
 * E mode (emode = 1): ndig significant digits. F mode: ndig digits after the
 * point. Digits go to out[] (count returned); *decpt is the position of the
 * decimal point relative to out[0]. Value must be nonzero and finite. */
static int convert(uint64_t m, int e, int emode, int ndig, char *out, int *decpt)
{
	struct stream st;
	int n = 0, keep, r, i;
	stream_init(&st, m, e);
	if (emode) {
		if (st.ni > 0) {
			*decpt = st.ni;
			out[n++] = (char)next_digit(&st);
		} else {
			int d;
			*decpt = 0;
			while ((d = next_frac_digit(&st)) == 0)
				(*decpt)--;
			out[n++] = (char)d;
		}
		keep = ndig;
	} else {
		*decpt = st.ni;
		keep = st.ni + ndig;
	}
	while (n < keep)
		out[n++] = (char)next_digit(&st);
	if (n > keep) /* E mode with ndig 0 is not used; keep >= 1 there */
		n = keep;
	r = next_digit(&st);
	if (r > 5 || (r == 5 && (stream_sticky(&st) || (n > 0 && (out[n - 1] & 1))))) {
		for (i = n - 1; i >= 0 && out[i] == 9; i--)
			out[i] = 0;
		if (i >= 0) {
			out[i]++;
		} else {
			/* all nines (or no digits): becomes 1 followed by zeros */
			memmove(out + 1, out, (size_t)n);
			out[0] = 1;
			(*decpt)++;
			if (!emode)
				n++;
		}
	}
	for (i = 0; i < n; i++)
		out[i] = (char)(out[i] + '0');
	return n;
}

/* ---- layout ---- */

struct number {
	char sign;      /* 0, '-', '+' or ' ' */
	char body[MAX_DIGITS + 16];
	int len;
};

static void put(struct number *nb, char c)
{
	if (nb->len < (int)sizeof nb->body)
		nb->body[nb->len++] = c;
}

/* Digit at index i of a conversion, '0' outside it. */
static char digit_at(const char *d, int n, int i)
{
	return (i >= 0 && i < n) ? d[i] : '0';
}

static void layout_f(struct number *nb, const char *d, int n, int decpt, int frac, int alt)
{
	int i;
	if (decpt <= 0)
		put(nb, '0');
	for (i = 0; i < decpt; i++)
		put(nb, digit_at(d, n, i));
	if (frac > 0 || alt)
		put(nb, '.');
	for (i = 0; i < frac; i++)
		put(nb, digit_at(d, n, decpt + i));
}

static void layout_e(struct number *nb, const char *d, int n, int exp10, int frac, int alt, int upper)
{
	int i;
	unsigned x;
	char ex[8];
	int k = 0;
	put(nb, digit_at(d, n, 0));
	if (frac > 0 || alt)
		put(nb, '.');
	for (i = 1; i <= frac; i++)
		put(nb, digit_at(d, n, i));
	put(nb, upper ? 'E' : 'e');
	put(nb, exp10 < 0 ? '-' : '+');
	x = (unsigned)(exp10 < 0 ? -exp10 : exp10);
	do {
		ex[k++] = (char)('0' + x % 10);
		x /= 10;
	} while (x);
	if (k < 2)
		ex[k++] = '0';
	while (k)
		put(nb, ex[--k]);
}

/* %g: drop trailing zeros of the fraction, and the point if it is left bare. */
static void strip_zeros(struct number *nb)
{
	int i, dot = -1, epos = nb->len, tail;
	for (i = 0; i < nb->len; i++) {
		if (nb->body[i] == '.')
			dot = i;
		if (nb->body[i] == 'e' || nb->body[i] == 'E') {
			epos = i;
			break;
		}
	}
	if (dot < 0)
		return;
	tail = epos;
	while (tail > dot + 1 && nb->body[tail - 1] == '0')
		tail--;
	if (tail == dot + 1)
		tail = dot;
	memmove(nb->body + tail, nb->body + epos, (size_t)(nb->len - epos));
	nb->len -= epos - tail;
}

void fmt_double(struct sink *s, double v, char conv, int flags, int width, int prec)
{
	union {
		double d;
		struct {
			uint32_t hi, lo; /* big-endian word order */
		} w;
	} u;
	struct number nb;
	char digits[MAX_DIGITS];
	int negative, bexp, n, decpt, upper = conv >= 'A' && conv <= 'Z', alt = flags & FL_ALT;
	uint64_t mant;
	int pad, zero_pad;
	char lc = (char)(conv | 0x20);

	u.d = v;
	negative = (int)(u.w.hi >> 31);
	bexp = (int)((u.w.hi >> 20) & 0x7ff);
	mant = ((uint64_t)(u.w.hi & 0xfffff) << 32) | u.w.lo;
	nb.len = 0;
	nb.sign = negative ? '-' : (flags & FL_PLUS) ? '+' : (flags & FL_SPACE) ? ' ' : 0;
	if (prec < 0)
		prec = 6;
	if (prec > MAX_PREC)
		prec = MAX_PREC;
	zero_pad = (flags & FL_ZERO) && !(flags & FL_LEFT);

	if (bexp == 0x7ff) {
		const char *t = mant ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
		while (*t)
			put(&nb, *t++);
		zero_pad = 0;
	} else {
		int e2;
		if (bexp == 0) {
			e2 = -1074; /* subnormal (or zero) */
		} else {
			mant |= (uint64_t)1 << 52;
			e2 = bexp - 1075;
		}
		if (lc == 'g') {
			int p = prec == 0 ? 1 : prec, x;
			if (mant == 0) {
				n = 0;
				decpt = 1;
			} else {
				n = convert(mant, e2, 1, p, digits, &decpt);
			}
			x = decpt - 1;
			if (p > x && x >= -4)
				layout_f(&nb, digits, n, decpt, p - 1 - x, alt);
			else
				layout_e(&nb, digits, n, x, p - 1, alt, upper);
			if (!alt)
				strip_zeros(&nb);
		} else if (lc == 'e') {
			if (mant == 0) {
				n = 0;
				decpt = 1;
			} else {
				n = convert(mant, e2, 1, prec + 1, digits, &decpt);
			}
			layout_e(&nb, digits, n, decpt - 1, prec, alt, upper);
		} else {
			if (mant == 0) {
				n = 0;
				decpt = 0;
			} else {
				n = convert(mant, e2, 0, prec, digits, &decpt);
			}
			layout_f(&nb, digits, n, decpt, prec, alt);
		}
	}

	pad = width - nb.len - (nb.sign != 0);
	if (!(flags & FL_LEFT) && !zero_pad)
		sink_pad(s, ' ', pad);
	if (nb.sign)
		sink_putc(s, nb.sign);
	if (zero_pad)
		sink_pad(s, '0', pad);
	sink_write(s, nb.body, (size_t)nb.len);
	if (flags & FL_LEFT)
		sink_pad(s, ' ', pad);
}
