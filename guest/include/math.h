/* math.h -- guest libc (irix-emu): only what maps to one R4000 instruction
 * (sqrt.d is MIPS II; abs.d is MIPS I). Built with -fno-math-errno. */
#ifndef _MATH_H
#define _MATH_H
#define sqrt(x) __builtin_sqrt(x)
#define sqrtf(x) __builtin_sqrtf(x)
#define fabs(x) __builtin_fabs(x)
#endif
