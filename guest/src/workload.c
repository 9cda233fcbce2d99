/* workload -- a deterministic CPU workload for profiling: integer kernels
 * (sieve, crc32, quicksort with insertion-sort leaves) and double-precision
 * kernels (matrix multiply, series sums), each a named, non-inlined
 * function so a profile shows several hot functions.
 *
 * Usage: workload [rounds]  (default DEFAULT_ROUNDS = 19; every kernel
 * runs once per round). Instruction count: about 4.2 million of set-up plus
 * 7.75 million per round, so the default run is about 152 million
 * (counted under qemu-mips 7.2: `-singlestep -d exec,nochain`, one trace
 * line per instruction: 11,975,911 for 1 round, 19,725,134 for 2).
 *
 * Expected output: see guest/README.md; each line is a checksum of one
 * kernel; exit status 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline, noclone))

#define SIEVE_N 200000
#define CRC_BYTES 65536
#define SORT_N 20000
#define MAT_N 40
#define SERIES_TERMS 200000
#define DEFAULT_ROUNDS 19

static unsigned lcg_state;

static unsigned lcg(void)
{
	lcg_state = lcg_state * 1103515245u + 12345u;
	return lcg_state >> 1;
}

/* Sieve of Eratosthenes: number of primes below n. */
NOINLINE static int sieve(unsigned char *flags, int n)
{
	int i, j, count = 0;
	memset(flags, 1, (size_t)n);
	flags[0] = flags[1] = 0;
	for (i = 2; i * i < n; i++)
		if (flags[i])
			for (j = i * i; j < n; j += i)
				flags[j] = 0;
	for (i = 0; i < n; i++)
		count += flags[i];
	return count;
}

/* CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), table-driven. */
NOINLINE static void crc32_table(unsigned *table)
{
	unsigned i, k, c;
	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
}

NOINLINE static unsigned crc32(const unsigned *table, const unsigned char *p, int n)
{
	unsigned c = 0xFFFFFFFFu;
	while (n--)
		c = table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c ^ 0xFFFFFFFFu;
}

NOINLINE static void insertion_sort(int *a, int n)
{
	int i, j, v;
	for (i = 1; i < n; i++) {
		v = a[i];
		for (j = i; j > 0 && a[j - 1] > v; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

NOINLINE static void quick_sort(int *a, int n)
{
	while (n > 16) {
		int pivot = a[n / 2], i = 0, j = n - 1, t;
		for (;;) {
			while (a[i] < pivot)
				i++;
			while (a[j] > pivot)
				j--;
			if (i >= j)
				break;
			t = a[i];
			a[i] = a[j];
			a[j] = t;
			i++;
			j--;
		}
		/* recurse into the smaller part, loop on the larger */
		if (j + 1 < n - j - 1) {
			quick_sort(a, j + 1);
			a += j + 1;
			n -= j + 1;
		} else {
			quick_sort(a + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	insertion_sort(a, n);
}

NOINLINE static void matrix_multiply(const double *a, const double *b, double *c, int n)
{
	int i, j, k;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			double s = 0.0;
			for (k = 0; k < n; k++)
				s += a[i * n + k] * b[k * n + j];
			c[i * n + j] = s;
		}
}

/* pi by the Leibniz series and zeta(2) by its partial sum. */
NOINLINE static double series_pi(int terms)
{
	double s = 0.0, sign = 1.0;
	int k;
	for (k = 0; k < terms; k++) {
		s += sign / (2.0 * k + 1.0);
		sign = -sign;
	}
	return 4.0 * s;
}

NOINLINE static double series_zeta2(int terms)
{
	double s = 0.0, x;
	int k;
	for (k = terms; k >= 1; k--) {
		x = (double)k;
		s += 1.0 / (x * x);
	}
	return s;
}

int main(int argc, char **argv)
{
	int scale = argc > 1 ? atoi(argv[1]) : DEFAULT_ROUNDS;
	unsigned char *flags = malloc(SIEVE_N);
	unsigned char *bytes = malloc(CRC_BYTES);
	unsigned *table = malloc(256 * sizeof(unsigned));
	int *arr = malloc(SORT_N * sizeof(int));
	double *ma = malloc(MAT_N * MAT_N * sizeof(double));
	double *mb = malloc(MAT_N * MAT_N * sizeof(double));
	double *mc = malloc(MAT_N * MAT_N * sizeof(double));
	int round, i, primes = 0, sorted;
	unsigned crc = 0, sortsum;
	double trace, pi = 0.0, zeta2 = 0.0;

	if (!flags || !bytes || !table || !arr || !ma || !mb || !mc) {
		printf("workload: out of memory\n");
		return 1;
	}
	if (scale < 1)
		scale = 1;
	printf("workload: %d rounds\n", scale);

	lcg_state = 1;
	crc32_table(table);
	for (i = 0; i < CRC_BYTES; i++)
		bytes[i] = (unsigned char)lcg();
	for (i = 0; i < MAT_N * MAT_N; i++) {
		ma[i] = (double)(int)(lcg() % 2001 - 1000) / 100.0;
		mb[i] = (double)(int)(lcg() % 2001 - 1000) / 100.0;
	}

	sortsum = 0;
	sorted = 1;
	trace = 0.0;
	for (round = 0; round < scale; round++) {
		primes = sieve(flags, SIEVE_N);
		crc = crc32(table, bytes, CRC_BYTES);
		bytes[round % CRC_BYTES] ^= (unsigned char)crc; /* next round differs */
		for (i = 0; i < SORT_N; i++)
			arr[i] = (int)(lcg() % 1000000);
		quick_sort(arr, SORT_N);
		for (i = 1; i < SORT_N; i++)
			if (arr[i - 1] > arr[i])
				sorted = 0;
		for (i = 0; i < SORT_N; i += 97)
			sortsum = sortsum * 31 + (unsigned)arr[i];
		matrix_multiply(ma, mb, mc, MAT_N);
		for (i = 0; i < MAT_N; i++)
			trace += mc[i * MAT_N + i];
		pi = series_pi(SERIES_TERMS);
		zeta2 = series_zeta2(SERIES_TERMS);
	}
	printf("sieve: %d primes below %d\n", primes, SIEVE_N);
	printf("crc32: %08x\n", crc);
	printf("sort: %s, checksum %08x\n", sorted ? "sorted" : "NOT SORTED", sortsum);
	printf("matrix: trace sum %.6f\n", trace);
	printf("series: pi %.12f zeta(2) %.12f\n", pi, zeta2);
	return 0;
}
