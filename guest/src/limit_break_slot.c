/* limit_break_slot -- a BREAK in a branch delay slot: `beq $0, $0, 1f;
 * break 7`. The compilers' code 7 is integer divide by zero, for which
 * IRIX sends SIGFPE; EPC names the branch, so a kernel that re-read the
 * word at EPC would see the branch and send SIGTRAP instead.
 * Expected output: "limit_break_slot: break 7 in a delay slot\n", then
 * death by signal 8 (SIGFPE, exit status 136). */
#include <stdio.h>

int main(void)
{
	printf("limit_break_slot: break 7 in a delay slot\n");
	__asm__ volatile(".set push\n\t.set noreorder\n\t"
			 "beq $0, $0, 1f\n\t"
			 "break 7\n"
			 "1:\n\t"
			 "nop\n\t"
			 ".set pop" ::: "memory");
	printf("limit_break_slot: still running (no signal?)\n");
	return 1;
}
