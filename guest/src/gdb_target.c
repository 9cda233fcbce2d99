/* gdb_target -- a program for the debugger tests, built with -g -O0 so
 * GDB sees every local and every line. add_scaled has integer and double
 * arguments and stores the global `counter`; delay_demo is a branch whose
 * delay slot does real work (hand-written, so the compiler cannot fill
 * it with a nop); fork_child forks a child that exits 3. Prints
 * "r=12 counter=20 d=5,106 child=3" and exits 7. With an argument it
 * spins forever instead (for interrupting it from the debugger). */
#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>

int counter;
double scale = 2.5;

/* delay_demo(x): x + 5 when x == 0 (the branch is taken past the second
 * add), else x + 105. The addiu in the delay slot runs either way. */
int delay_demo(int x);
__asm__(".text\n"
	".globl delay_demo\n"
	".ent delay_demo\n"
	"delay_demo:\n"
	".set noreorder\n"
	"	beq $4, $0, 1f\n"
	"	addiu $2, $4, 5\n"
	"	addiu $2, $2, 100\n"
	"1:	jr $31\n"
	"	nop\n"
	".set reorder\n"
	".end delay_demo\n");

int add_scaled(int a, int b, double f)
{
	int sum = a + b;
	double g = f * 2.0;
	counter = sum;
	return sum + (int)g;
}

int fork_child(void)
{
	int status = 0;
	pid_t pid = fork();
	if (pid == 0)
		_exit(3);
	waitpid(pid, &status, 0);
	return (status >> 8) & 0xff;
}

int main(int argc, char **argv)
{
	int r = add_scaled(3, 4, scale);
	int d0, d1, child;
	while (argc > 1)
		counter++;
	counter += 13;
	d0 = delay_demo(0);
	d1 = delay_demo(1);
	child = fork_child();
	printf("r=%d counter=%d d=%d,%d child=%d\n", r, counter, d0, d1, child);
	return 7;
}
