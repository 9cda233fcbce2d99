/* libgcc.c -- the compiler support routines gcc calls for -mabi=32 code
 * (guest libc, irix-emu).
 *
 * Debian's libgcc for mips-linux-gnu is MIPS32r2 code an R4000 cannot run,
 * so nothing links against it. gcc -march=mips3 -mabi=32 expands 64-bit
 * add, sub, shifts and multiply inline and calls these for the rest
 * (found by compiling test code and listing the undefined symbols).
 *
 * Contents: __udivmoddi4 (shift-subtract long division, 32-bit fast path),
 * __udivdi3/__umoddi3/__divdi3/__moddi3, double/float <-> 64-bit integer
 * conversions. No 64-bit `/` or `%` appears in this file (it would call
 * itself). A 64-bit division by zero divides 1 by a 32-bit zero, which
 * hits gcc's `teq divisor, $0, 7` trap: SIGFPE, like 32-bit division.
 */
#include <stdint.h>

typedef unsigned long long u64;
typedef long long s64;

/* Count of leading zero bits of a nonzero value (no clz on the R4000, and
 * clz64 would call __clzdi2). */
static int clz64(u64 x)
{
	int n = 0;
	while (!(x & 0x8000000000000000ull)) {
		x <<= 1;
		n++;
	}
	return n;
}

static u64 udivmod(u64 n, u64 d, u64 *rem)
{
	u64 q = 0;
	int shift;
	if (d == 0) {
		volatile unsigned zero = 0;
		unsigned one = 1;
		return one / zero; /* traps: teq $zero-divisor, 7 */
	}
	if ((n >> 32) == 0 && (d >> 32) == 0) {
		uint32_t n32 = (uint32_t)n, d32 = (uint32_t)d;
		if (rem)
			*rem = n32 % d32;
		return n32 / d32;
	}
	if (d > n) {
		if (rem)
			*rem = n;
		return 0;
	}
	shift = clz64(d) - clz64(n);
	d <<= shift;
	for (; shift >= 0; shift--) {
		q <<= 1;
		if (n >= d) {
			n -= d;
			q |= 1;
		}
		d >>= 1;
	}
	if (rem)
		*rem = n;
	return q;
}

u64 __udivmoddi4(u64 n, u64 d, u64 *rem)
{
	return udivmod(n, d, rem);
}

u64 __udivdi3(u64 n, u64 d)
{
	return udivmod(n, d, 0);
}

u64 __umoddi3(u64 n, u64 d)
{
	u64 r;
	udivmod(n, d, &r);
	return r;
}

s64 __divdi3(s64 n, s64 d)
{
	int neg = (n < 0) != (d < 0);
	u64 q = udivmod(n < 0 ? -(u64)n : (u64)n, d < 0 ? -(u64)d : (u64)d, 0);
	return neg ? -(s64)q : (s64)q;
}

s64 __moddi3(s64 n, s64 d)
{
	u64 r;
	udivmod(n < 0 ? -(u64)n : (u64)n, d < 0 ? -(u64)d : (u64)d, &r);
	return n < 0 ? -(s64)r : (s64)r;
}

/* Conversions. 2^32 and 2^31 are exact doubles; each path rounds once. */
#define TWO32 4294967296.0
#define TWO31 2147483648.0

static double u32_to_double(uint32_t x)
{
	return (double)(int32_t)(x ^ 0x80000000u) + TWO31;
}

double __floatundidf(u64 x)
{
	/* hi * 2^32 is exact (hi < 2^32 <= 2^53); the add rounds once. */
	return u32_to_double((uint32_t)(x >> 32)) * TWO32 + u32_to_double((uint32_t)x);
}

double __floatdidf(s64 x)
{
	/* (int32)hi * 2^32 exact; lo in [0, 2^32) exact; one rounding. */
	return (double)(int32_t)(x >> 32) * TWO32 + u32_to_double((uint32_t)x);
}

float __floatdisf(s64 x)
{
	/* Via double would round twice; round to 24 bits with sticky bits first
	 * so the final conversion rounds once, correctly. */
	u64 u = x < 0 ? -(u64)x : (u64)x;
	float f;
	if (u >> 53) {
		int drop = 64 - clz64(u) - 53;
		u64 sticky = (u & ((1ull << drop) - 1)) != 0;
		u = ((u >> drop) | sticky) << drop;
	}
	f = (float)__floatundidf(u);
	return x < 0 ? -f : f;
}

float __floatundisf(u64 u)
{
	if (u >> 53) {
		int drop = 64 - clz64(u) - 53;
		u64 sticky = (u & ((1ull << drop) - 1)) != 0;
		u = ((u >> drop) | sticky) << drop;
	}
	return (float)__floatundidf(u);
}

static uint32_t double_to_u32(double x) /* x in [0, 2^32), truncates */
{
	if (x >= TWO31)
		return (uint32_t)(int32_t)(x - TWO31) + 0x80000000u;
	return (uint32_t)(int32_t)x;
}

/* Truncating; out-of-range and NaN give the saturated value. */
u64 __fixunsdfdi(double x)
{
	uint32_t hi;
	if (!(x > 0.0))
		return 0;
	if (x >= TWO32 * TWO32)
		return ~0ull;
	hi = double_to_u32(x / TWO32); /* x / 2^32 is exact; truncation = floor */
	/* x - hi * 2^32 is exact: it only clears x's bits of weight >= 2^32. */
	return ((u64)hi << 32) | double_to_u32(x - (double)hi * TWO32);
}

s64 __fixdfdi(double x)
{
	if (x != x)
		return 0;
	if (x >= TWO32 * TWO31)
		return 0x7fffffffffffffffll;
	if (x <= -TWO32 * TWO31)
		return (s64)0x8000000000000000ull;
	if (x < 0.0)
		return -(s64)__fixunsdfdi(-x);
	return (s64)__fixunsdfdi(x);
}

u64 __fixunssfdi(float x)
{
	return __fixunsdfdi((double)x);
}

s64 __fixsfdi(float x)
{
	return __fixdfdi((double)x);
}
