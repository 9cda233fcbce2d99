/* args_env -- shows the start-up stack: argc, argv[] and the environment,
 * in order (crt0 reads them as docs/abi.md "Start-up" lays them out).
 * Expected output, for `args_env a "b c"` with environment X=1 Y=2:
 *   argc=3
 *   argv[0]=<path as given>
 *   argv[1]=a
 *   argv[2]=b c
 *   env[0]=X=1
 *   env[1]=Y=2
 *   envc=2
 * exit status 0. Also checks that argv[argc] is NULL and that envp (main's
 * third argument) equals environ. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv, char **envp)
{
	int i;
	printf("argc=%d\n", argc);
	for (i = 0; i < argc; i++)
		printf("argv[%d]=%s\n", i, argv[i]);
	if (argv[argc] != NULL)
		printf("argv[argc] is not NULL\n");
	if (envp != environ)
		printf("envp != environ\n");
	for (i = 0; envp[i]; i++)
		printf("env[%d]=%s\n", i, envp[i]);
	printf("envc=%d\n", i);
	return 0;
}
