/* fpu_print -- floating-point arithmetic (R4000 FPU: add/sub/mul/div/sqrt
 * in single and double, conversions) and printf's %f %e %g formatting.
 * The formatting is exact and correctly rounded (libc/fmt_float.c), so
 * every line is a pure function of the IEEE results: any difference between
 * two runs is an FPU difference. Expected output: see guest/README.md
 * (identical under qemu-mips and irix-emu); exit status 0. */
#include <stdio.h>
#include <math.h>

/* volatile inputs keep gcc from folding the arithmetic at compile time */
static volatile double one = 1.0, two = 2.0, three = 3.0, ten = 10.0, tiny = 1e-300;
static volatile float onef = 1.0f, threef = 3.0f, sevenf = 7.0f;

static void show(const char *what, double v)
{
	printf("%-22s %%f=%f %%e=%e %%g=%g\n", what, v, v, v);
}

int main(void)
{
	double third = one / three;
	double root2 = sqrt(two);
	double big = 1.0;
	double x, sum;
	float f;
	int i;

	show("1/3", third);
	show("sqrt(2)", root2);
	show("-2/3", -two / three);
	show("1e22", 1e22 * one);
	show("123456789.125", 123456789.125 * one);
	show("0.1+0.2", 0.1 * one + 0.2);
	show("tiny*tiny (0)", tiny * tiny);
	show("-0.0", -0.0 * one);
	show("1/0 (inf)", one / (ten - ten));
	show("-1/0 (-inf)", -one / (ten - ten));
	show("0/0 (nan)", (ten - ten) / (ten - ten));
	show("2.5 (tie)", 2.5 * one);
	show("1e-5", 1e-5 * one);
	show("123456.5", 123456.5 * one);

	f = onef / threef;
	printf("float 1/3: %.9f %.8e %g\n", f, f, f);
	f = sqrtf(sevenf);
	printf("float sqrt(7): %.9f %.8e %g\n", f, f, f);

	printf("precision: %.0f %.1f %.2f %.10f %.17g %.20e\n", 0.5 * one, 0.25 * one, 1.005 * one,
	       third, third, third);
	printf("rounding: %.0f %.0f %.0f %.0f %.1f %.1f\n", 0.5 * one, 1.5 * one, 2.5 * one,
	       3.5 * one, 0.05 * one, 0.15 * one);
	printf("widths: [%10.3f] [%-10.3f] [%+.2e] [% g] [%010.2f] [%#g] [%#.0f]\n", root2, root2, root2,
	       root2, -root2, one, two);
	printf("%%G %%E: %G %E %G\n", 1e-10 * one, 6.02214076e23 * one, 1e100 * one);

	for (i = 0; i < 60; i++)
		big *= ten;
	printf("1e60 by multiplication: %e %.0f\n", big, big);
	printf("max double: %e\n", 1.7976931348623157e308 * one);
	printf("min normal: %e  min subnormal: %e\n", 2.2250738585072014e-308, 4.9406564584124654e-324);

	sum = 0.0;
	for (i = 1; i <= 1000; i++) {
		x = (double)i;
		sum += 1.0 / (x * x);
	}
	printf("sum 1/k^2, k=1..1000: %.15f\n", sum);
	printf("int conversions: %d %d %d %u\n", (int)(root2 * 1000.0), (int)(-root2 * 1000.0),
	       (int)(third * 3e9 / 3.0), (unsigned)(3e9 * one));
	printf("long long conversions: %lld %lld %.1f\n", (long long)(1e15 * root2),
	       (long long)(-1e17 * third), (double)(123456789012345678LL + (long long)(int)one));
	return 0;
}
