/* elfmap_errors -- syssgi(SGI_ELFMAP, fd, phdrs, count) as a process sees
 * it: where it maps an object whose addresses are taken, and the errno of
 * each way of asking wrongly. Prints one "case: result" line each; the
 * expected output is in tests/dynamic.rs. Run in an empty scratch directory
 * with this program's own guest path as argv[1] (the object it maps): it
 * creates and removes notelf.txt.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define SGI_ELFMAP 68
#define N_PIPE 1042

extern int __syssgi(int request, long a1, long a2, long a3, long a4);

/* Elf32_Phdr, as words: type, offset, vaddr, paddr, filesz, memsz, flags, align. */
typedef unsigned phdr_t[8];

static void show(const char *what, long r)
{
	if (r == -1)
		printf("%s: -1 %s\n", what,
		       errno == EBADF ? "EBADF" : errno == EINVAL ? "EINVAL" :
		       errno == EFAULT ? "EFAULT" : errno == ENOEXEC ? "ENOEXEC" :
		       errno == EACCES ? "EACCES" : "other");
	else
		printf("%s: ok\n", what);
}

static long elfmap(int fd, phdr_t *ph, int n)
{
	return __syssgi(SGI_ELFMAP, fd, (long)ph, n, 0);
}

int main(int argc, char **argv)
{
	unsigned char head[52];
	phdr_t all[8], loads[4];
	int fd, n = 0, i, tfd, pfd;
	long first, second;

	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || read(fd, head, 52) != 52) {
		printf("cannot read %s\n", argv[1]);
		return 1;
	}
	lseek(fd, (head[28] << 24) | (head[29] << 16) | (head[30] << 8) | head[31], 0);
	read(fd, all, 32 * head[45]);
	for (i = 0; i < head[45] && n < 4; i++)
		if (all[i][0] == 1)
			memcpy(loads[n++], all[i], 32);

	/* This program's own segments are mapped: the object goes elsewhere,
	 * as one piece, and a second mapping goes elsewhere again. */
	first = elfmap(fd, loads, n);
	second = elfmap(fd, loads, n);
	printf("moved: %s\n", first != -1 && (unsigned)first != loads[0][2] ? "yes" : "no");
	printf("header at the new address: %s\n",
	       first != -1 && memcmp((void *)first, "\177ELF", 4) == 0 ? "yes" : "no");
	printf("second mapping elsewhere again: %s\n",
	       second != -1 && second != first ? "yes" : "no");
	printf("data segment keeps its offset: %s\n",
	       n > 1 && memcmp((char *)first + (loads[1][2] - loads[0][2]),
			       (char *)loads[1][2], 16) == 0 ? "yes" : "no");

	show("count 0", elfmap(fd, loads, 0));
	show("count 65", elfmap(fd, loads, 65));
	show("bad descriptor", elfmap(99, loads, n));
	show("headers unreadable", elfmap(fd, (phdr_t *)0x10, n));
	all[0][0] = 6; /* PT_PHDR */
	show("not PT_LOAD", elfmap(fd, all, 1));
	memcpy(all[0], loads[0], 32);
	all[0][1] = 0x7fff0000; /* p_offset past the end of the file */
	show("segment outside the file", elfmap(fd, all, 1));
	memcpy(all[0], loads[0], 32);
	all[0][4] = all[0][5] + 1; /* p_filesz > p_memsz */
	show("filesz above memsz", elfmap(fd, all, 1));

	tfd = open("notelf.txt", O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(tfd, "just some text, long enough to hold an ELF header ......\n", 57);
	show("not an ELF file", elfmap(tfd, loads, 1));
	close(tfd);
	unlink("notelf.txt");
	/* pipe(): the read end in v0, which is what the stub returns. */
	pfd = syscall(N_PIPE);
	show("a pipe", pfd < 0 ? 0 : elfmap(pfd, loads, 1));
	show("a directory", elfmap(open(".", O_RDONLY), loads, 1));
	close(fd);
	return 0;
}
