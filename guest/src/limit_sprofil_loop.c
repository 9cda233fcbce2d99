/* limit_sprofil_loop -- 20,000 sprofil calls with 1,024 regions each: each
 * call's system time grows with the regions it reads and orders, so that
 * virtual time (and --max-cycles) bounds the host work.
 * Expected output: "limit_sprofil_loop: 20000 calls\n"; exit status 0. */
#include <stdio.h>
#include <sys/profil.h>

#define REGIONS 1024

static struct prof regions[REGIONS];
static unsigned short buffers[REGIONS][8];

int main(void)
{
	int i;
	for (i = 0; i < REGIONS; i++) {
		regions[i].pr_base = buffers[i];
		regions[i].pr_size = sizeof buffers[i];
		regions[i].pr_off = 0x400000 + 64 * i;
		regions[i].pr_scale = 0x8000;
	}
	for (i = 0; i < 20000; i++) {
		if (sprofil(regions, REGIONS, 0, PROF_USHORT) != 0) {
			printf("limit_sprofil_loop: sprofil failed at call %d\n", i);
			return 1;
		}
	}
	sprofil(regions, 0, 0, PROF_USHORT);
	printf("limit_sprofil_loop: %d calls\n", i);
	return 0;
}
