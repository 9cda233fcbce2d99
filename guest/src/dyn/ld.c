/* ld.c -- ld.so, irix-emu's own small program interpreter, playing the part
 * IRIX's rld plays, so that dynamic loading is tested without SGI's files.
 *
 * The kernel maps the program and this interpreter and enters _dl_start
 * (ld_start.S) with the auxiliary vector. ld_main then:
 *  1. finds the program's headers (AT_PHDR, AT_PHNUM) and entry (AT_ENTRY),
 *     and its PT_DYNAMIC;
 *  2. for each DT_NEEDED name, opens /lib/<name>, reads its ELF and program
 *     headers, and maps its PT_LOAD segments with
 *     syssgi(SGI_ELFMAP, fd, phdrs, count), which returns where the first
 *     segment went: the load offset (bias) is that minus its p_vaddr;
 *  3. applies the MIPS ABI's GOT rules to every object: the first
 *     DT_MIPS_LOCAL_GOTNO entries are local (GOT[0] is reserved, the others
 *     hold link-time addresses and get the bias added); the entries from
 *     DT_MIPS_GOTSYM on belong, in order, to the dynamic symbols from that
 *     index, and get the symbol's run-time address: its own value plus bias
 *     when the object defines it, else the first definition found in the
 *     program, then the libraries in DT_NEEDED order;
 *  4. returns the program's entry point.
 * Anything it cannot do (a missing library, a file that is not ELF, an
 * ELFMAP failure, an undefined symbol, a relocation it does not know) is a
 * one-line message on stderr and exit status 127.
 */

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "elf32.h"

extern int __syssgi(int request, long a1, long a2, long a3, long a4);
extern int errno;

#define SGI_ELFMAP 68
#define MAX_OBJECTS 8
#define MAX_LOADS 8
#define AT_NULL 0
#define AT_PHDR 3
#define AT_PHNUM 5
#define AT_ENTRY 9

/* One loaded object and what its dynamic section says. */
struct object {
	const char *name;
	unsigned bias;
	const Elf32_Dyn *dynamic;
	const Elf32_Sym *symtab;
	const char *strtab;
	unsigned *got;
	unsigned local_gotno, gotsym, symtabno;
	unsigned rel, relsz;
};

static struct object objects[MAX_OBJECTS];
static int nobjects;

static void say(const char *s)
{
	write(2, s, strlen(s));
}

static void fail(const char *what, const char *name, const char *why)
{
	say("ld.so: ");
	say(what);
	say(name);
	say(": ");
	say(why);
	say("\n");
	_exit(127);
}

static const char *errno_text(int e)
{
	switch (e) {
	case 2: return "ENOENT";
	case 8: return "ENOEXEC";
	case 9: return "EBADF";
	case 12: return "ENOMEM";
	case 13: return "EACCES";
	case 14: return "EFAULT";
	case 22: return "EINVAL";
	default: return "error";
	}
}

/* Reads the object's dynamic section (addresses plus its bias). */
static void read_dynamic(struct object *o)
{
	const Elf32_Dyn *d;
	for (d = o->dynamic; d->d_tag != DT_NULL; d++) {
		unsigned v = d->d_un.d_val;
		switch (d->d_tag) {
		case DT_STRTAB: o->strtab = (const char *)(v + o->bias); break;
		case DT_SYMTAB: o->symtab = (const Elf32_Sym *)(v + o->bias); break;
		case DT_PLTGOT: o->got = (unsigned *)(v + o->bias); break;
		case DT_REL: o->rel = v + o->bias; break;
		case DT_RELSZ: o->relsz = v; break;
		case DT_MIPS_LOCAL_GOTNO: o->local_gotno = v; break;
		case DT_MIPS_GOTSYM: o->gotsym = v; break;
		case DT_MIPS_SYMTABNO: o->symtabno = v; break;
		}
	}
	if (!o->strtab || !o->symtab || !o->got)
		fail("", o->name, "no DT_STRTAB, DT_SYMTAB or DT_PLTGOT");
}

/* Maps /lib/<name> with SGI_ELFMAP and returns it as a new object. */
static struct object *map_library(const char *name)
{
	char path[256];
	Elf32_Ehdr eh;
	Elf32_Phdr ph[MAX_LOADS * 2], loads[MAX_LOADS];
	int fd, i, n = 0;
	long addr;
	struct object *o;
	unsigned dynamic = 0;

	if (strlen(name) > sizeof path - 6)
		fail("library ", name, "name too long");
	strcpy(path, "/lib/");
	strcat(path, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		fail("cannot open library ", path, errno_text(errno));
	if (read(fd, &eh, sizeof eh) != (int)sizeof eh || memcmp(eh.e_ident, "\177ELF", 4) != 0)
		fail("library ", path, "not an ELF file");
	if (eh.e_phnum > MAX_LOADS * 2 || eh.e_phentsize != sizeof(Elf32_Phdr))
		fail("library ", path, "unexpected program headers");
	if (lseek(fd, eh.e_phoff, 0) < 0 ||
	    read(fd, ph, eh.e_phnum * sizeof(Elf32_Phdr)) != (int)(eh.e_phnum * sizeof(Elf32_Phdr)))
		fail("library ", path, "cannot read program headers");
	for (i = 0; i < eh.e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && n < MAX_LOADS)
			loads[n++] = ph[i];
		if (ph[i].p_type == PT_DYNAMIC)
			dynamic = ph[i].p_vaddr;
	}
	addr = __syssgi(SGI_ELFMAP, fd, (long)loads, n, 0);
	if (addr == -1)
		fail("SGI_ELFMAP of ", path, errno_text(errno));
	close(fd);
	if (nobjects == MAX_OBJECTS || !dynamic)
		fail("library ", path, "too many objects, or no PT_DYNAMIC");
	o = &objects[nobjects++];
	o->name = name;
	o->bias = (unsigned)addr - loads[0].p_vaddr;
	o->dynamic = (const Elf32_Dyn *)(dynamic + o->bias);
	read_dynamic(o);
	return o;
}

/* The run-time address of the first definition of `name`. */
static unsigned lookup(const char *name)
{
	int i;
	unsigned k;
	for (i = 0; i < nobjects; i++) {
		const struct object *o = &objects[i];
		for (k = 1; k < o->symtabno; k++) {
			const Elf32_Sym *s = &o->symtab[k];
			int bind = ELF32_ST_BIND(s->st_info);
			if (s->st_shndx != SHN_UNDEF && (bind == STB_GLOBAL || bind == STB_WEAK) &&
			    strcmp(o->strtab + s->st_name, name) == 0)
				return s->st_shndx == SHN_ABS ? s->st_value : s->st_value + o->bias;
		}
	}
	fail("undefined symbol ", name, "not defined by the program or its libraries");
	return 0;
}

/* The MIPS GOT rules, and the one dynamic relocation position-independent
 * data needs (R_MIPS_REL32 against no symbol: add the bias). */
static void relocate(struct object *o)
{
	unsigned i;
	if (o->bias != 0)
		for (i = 1; i < o->local_gotno; i++)
			/* GOT[1] with the top bit set is GNU's module pointer. */
			if (!(i == 1 && (o->got[1] & 0x80000000u)))
				o->got[i] += o->bias;
	for (i = o->gotsym; i < o->symtabno; i++) {
		const Elf32_Sym *s = &o->symtab[i];
		unsigned *entry = &o->got[o->local_gotno + (i - o->gotsym)];
		if (s->st_shndx == SHN_UNDEF)
			*entry = lookup(o->strtab + s->st_name);
		else if (s->st_shndx != SHN_ABS)
			*entry = s->st_value + o->bias;
	}
	for (i = 0; i < o->relsz; i += sizeof(Elf32_Rel)) {
		const Elf32_Rel *r = (const Elf32_Rel *)(o->rel + i);
		unsigned type = ELF32_R_TYPE(r->r_info);
		if (type == R_MIPS_NONE)
			continue;
		if (type != R_MIPS_REL32 || ELF32_R_SYM(r->r_info) != 0)
			fail("", o->name, "a dynamic relocation ld.so does not handle");
		*(unsigned *)(r->r_offset + o->bias) += o->bias;
	}
}

unsigned ld_main(unsigned *sp)
{
	unsigned argc = sp[0], *p = sp + 1 + argc + 1;
	const Elf32_Phdr *phdr = 0;
	unsigned phnum = 0, entry = 0, i;
	const Elf32_Dyn *d;
	struct object *prog;
	int first_library;

	while (*p)
		p++; /* skip envp */
	for (p++; p[0] != AT_NULL; p += 2) {
		if (p[0] == AT_PHDR) phdr = (const Elf32_Phdr *)p[1];
		if (p[0] == AT_PHNUM) phnum = p[1];
		if (p[0] == AT_ENTRY) entry = p[1];
	}
	if (!phdr || !entry)
		fail("", "the auxiliary vector", "no AT_PHDR or AT_ENTRY");
	prog = &objects[nobjects++];
	prog->name = "the program";
	for (i = 0; i < phnum; i++)
		if (phdr[i].p_type == PT_DYNAMIC)
			prog->dynamic = (const Elf32_Dyn *)phdr[i].p_vaddr;
	if (!prog->dynamic)
		fail("", prog->name, "no PT_DYNAMIC");
	read_dynamic(prog);
	first_library = nobjects;
	for (d = prog->dynamic; d->d_tag != DT_NULL; d++)
		if (d->d_tag == DT_NEEDED)
			map_library(prog->strtab + d->d_un.d_val);
	for (i = first_library; i < (unsigned)nobjects; i++)
		relocate(&objects[i]);
	relocate(prog);
	return entry;
}
