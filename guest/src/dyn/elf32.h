/* elf32.h -- the ELF32 structures and the constants ld.c uses (gABI and the
 * MIPS ABI supplement's names and values). */
#ifndef ELF32_H
#define ELF32_H

typedef unsigned Elf32_Addr;
typedef unsigned Elf32_Off;
typedef unsigned Elf32_Word;
typedef int Elf32_Sword;
typedef unsigned short Elf32_Half;

typedef struct {
	unsigned char e_ident[16];
	Elf32_Half e_type, e_machine;
	Elf32_Word e_version;
	Elf32_Addr e_entry;
	Elf32_Off e_phoff, e_shoff;
	Elf32_Word e_flags;
	Elf32_Half e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
} Elf32_Ehdr;

typedef struct {
	Elf32_Word p_type;
	Elf32_Off p_offset;
	Elf32_Addr p_vaddr, p_paddr;
	Elf32_Word p_filesz, p_memsz, p_flags, p_align;
} Elf32_Phdr;

typedef struct {
	Elf32_Sword d_tag;
	union {
		Elf32_Word d_val;
		Elf32_Addr d_ptr;
	} d_un;
} Elf32_Dyn;

typedef struct {
	Elf32_Word st_name;
	Elf32_Addr st_value;
	Elf32_Word st_size;
	unsigned char st_info, st_other;
	Elf32_Half st_shndx;
} Elf32_Sym;

typedef struct {
	Elf32_Addr r_offset;
	Elf32_Word r_info;
} Elf32_Rel;

#define PT_LOAD 1
#define PT_DYNAMIC 2
#define DT_NULL 0
#define DT_NEEDED 1
#define DT_PLTGOT 3
#define DT_STRTAB 5
#define DT_SYMTAB 6
#define DT_REL 17
#define DT_RELSZ 18
#define DT_MIPS_LOCAL_GOTNO 0x7000000a
#define DT_MIPS_SYMTABNO 0x70000011
#define DT_MIPS_GOTSYM 0x70000013
#define SHN_UNDEF 0
#define SHN_ABS 0xfff1
#define STB_GLOBAL 1
#define STB_WEAK 2
#define ELF32_ST_BIND(i) ((i) >> 4)
#define ELF32_R_SYM(i) ((i) >> 8)
#define ELF32_R_TYPE(i) ((i) & 0xff)
#define R_MIPS_NONE 0
#define R_MIPS_REL32 3

#endif
