/* hello -- the smallest guest program: printf through the guest libc.
 * Expected output: "hello, world\n"; exit status 0. */
#include <stdio.h>

int main(void)
{
	printf("hello, world\n");
	return 0;
}
