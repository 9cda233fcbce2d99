/* exit_status -- shows that main's return value becomes the exit status.
 * Expected output: "exiting with status 3\n"; exit status 3. */
#include <stdio.h>

int main(void)
{
	printf("exiting with status 3\n");
	return 3;
}
