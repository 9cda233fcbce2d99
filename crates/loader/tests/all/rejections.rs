//! Every rejection, with the exact one-line message the user sees.

use loader::{load, LoadError, LoadOptions};
use test_support::elf::*;

const STATIC: LoadOptions = LoadOptions::STATIC;

/// A valid image with `edit` applied to its spec.
fn spec_with(edit: impl Fn(&mut Elf)) -> Vec<u8> {
    let mut spec = Elf::irix_o32();
    edit(&mut spec);
    spec.build()
}

/// A valid image with `edit` applied to its bytes.
fn bytes_with(edit: impl Fn(&mut Vec<u8>)) -> Vec<u8> {
    let mut bytes = Elf::irix_o32().build();
    edit(&mut bytes);
    bytes
}

fn message(bytes: &[u8]) -> String {
    match load("prog", bytes, &STATIC) {
        Ok(exe) => panic!("accepted: {exe:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn header_rejections_name_file_field_and_value() {
    let cases: Vec<(&str, Vec<u8>, String)> = vec![
        (
            "empty file",
            vec![],
            "prog: empty file, not an ELF file".into(),
        ),
        (
            "bad magic",
            bytes_with(|b| b[3] = b'G'),
            "prog: not an ELF file (bad magic 7f 45 4c 47)".into(),
        ),
        (
            "script",
            b"#!/bin/sh\necho hi\n".to_vec(),
            "prog: not an ELF file (bad magic 23 21 2f 62)".into(),
        ),
        (
            "short bad magic",
            vec![0x7f, b'X'],
            "prog: not an ELF file (bad magic 7f 58)".into(),
        ),
        (
            "magic prefix only",
            vec![0x7f, b'E', b'L'],
            "prog: truncated ELF header".into(),
        ),
        (
            "header cut before e_machine",
            bytes_with(|b| b.truncate(19)),
            "prog: truncated ELF header".into(),
        ),
        (
            "header cut at 51 bytes",
            bytes_with(|b| b.truncate(51)),
            "prog: truncated ELF header".into(),
        ),
        (
            "x86-64",
            spec_with(|s| {
                s.class = 2;
                s.data = 1;
                s.e_machine = 62;
            }),
            "prog: not a MIPS executable (e_machine 62, x86-64)".into(),
        ),
        (
            "big-endian powerpc",
            spec_with(|s| s.e_machine = 20),
            "prog: not a MIPS executable (e_machine 20, PowerPC)".into(),
        ),
        (
            "unknown machine",
            spec_with(|s| s.e_machine = 0x1234),
            "prog: not a MIPS executable (e_machine 4660, unknown machine)".into(),
        ),
        (
            "little-endian mips",
            spec_with(|s| s.data = 1),
            "prog: little-endian MIPS is not IRIX".into(),
        ),
        (
            "EM_MIPS_RS3_LE",
            spec_with(|s| s.e_machine = 10),
            "prog: little-endian MIPS is not IRIX".into(),
        ),
        (
            "elfclass64",
            spec_with(|s| s.class = 2),
            "prog: 64-bit ELF (ELFCLASS64) is not supported".into(),
        ),
        (
            "elfclassnone",
            spec_with(|s| s.class = 0),
            "prog: not a valid ELF file (EI_CLASS 0, neither 32- nor 64-bit)".into(),
        ),
        (
            "bad EI_DATA",
            spec_with(|s| s.data = 3),
            "prog: not a valid ELF file (EI_DATA 3, neither little- nor big-endian)".into(),
        ),
        (
            "EI_VERSION 0",
            spec_with(|s| s.ident_version = 0),
            "prog: unknown ELF version (EI_VERSION 0, expected 1)".into(),
        ),
        (
            "e_version 2",
            spec_with(|s| s.e_version = 2),
            "prog: unknown ELF version (e_version 2, expected 1)".into(),
        ),
        (
            "linux osabi",
            spec_with(|s| s.osabi = 3),
            "prog: not an IRIX executable (EI_OSABI 3, GNU/Linux)".into(),
        ),
        (
            "relocatable",
            spec_with(|s| s.e_type = 1),
            "prog: not an executable (e_type 1, relocatable)".into(),
        ),
        (
            "shared object",
            spec_with(|s| s.e_type = 3),
            "prog: not an executable (e_type 3, shared object)".into(),
        ),
        (
            "core file",
            spec_with(|s| s.e_type = 4),
            "prog: not an executable (e_type 4, core file)".into(),
        ),
    ];
    for (name, bytes, expected) in cases {
        assert_eq!(message(&bytes), expected, "{name}");
    }
}

#[test]
fn e_flags_rejections_say_what_the_code_needs() {
    let cases: &[(&str, u32, &str)] = &[
        (
            "mips iv",
            0x3000_0000,
            "prog: MIPS IV code (e_flags arch 3) needs an R5000/R10000: irix-emu emulates an R4000",
        ),
        (
            "mips v",
            0x4000_0000,
            "prog: MIPS V code (e_flags arch 4) needs a MIPS V processor: irix-emu emulates an R4000",
        ),
        (
            "mips32r2, mips-linux-gnu-gcc's default",
            0x7000_1007,
            "prog: MIPS32 release 2 code (e_flags arch 7) needs a MIPS32 processor: irix-emu emulates an R4000",
        ),
        (
            "mips64",
            0x6000_0000,
            "prog: MIPS64 code (e_flags arch 6) needs a MIPS64 processor: irix-emu emulates an R4000",
        ),
        ("mips16", 0x0400_1000, "prog: MIPS16 code (e_flags ASE 0x4000000) is not R4000 code"),
        ("micromips", 0x0200_1000, "prog: microMIPS code (e_flags ASE 0x2000000) is not R4000 code"),
        (
            "vr4100 extensions",
            0x2083_1000,
            "prog: code for a processor-specific extension (e_flags mach 0x83, NEC VR4100) is not R4000 code",
        ),
        (
            "eabi32",
            0x0000_3000,
            "prog: EABI32 code (e_flags ABI field 0x3000) is not an IRIX ABI (o32 or n32)",
        ),
        ("o64", 0x2000_2000, "prog: O64 code (e_flags ABI field 0x2000) is not an IRIX ABI (o32 or n32)"),
        (
            "n32 with o32 marker",
            0x2000_1020,
            "prog: e_flags 0x20001020 names both n32 (EF_MIPS_ABI2) and o32 (EF_MIPS_ABI_O32)",
        ),
        ("n32 on mips2", 0x1000_0020, "prog: n32 code for MIPS II (e_flags arch 1): n32 needs MIPS III"),
        (
            "fp64",
            0x1000_1200,
            "prog: 64-bit FP registers (EF_MIPS_FP64, e_flags bit 0x200) are not the IRIX o32 ABI",
        ),
        (
            "nan2008",
            0x0000_1400,
            "prog: IEEE 754-2008 NaNs (EF_MIPS_NAN2008, e_flags bit 0x400) are not the R4000's",
        ),
        ("ucode", 0x0000_0010, "prog: e_flags bit 0x10 (EF_MIPS_UCODE) is neither o32 nor n32"),
    ];
    for (name, flags, expected) in cases {
        assert_eq!(
            message(&spec_with(|s| s.e_flags = *flags)),
            *expected,
            "{name}"
        );
    }
}

#[test]
fn program_header_rejections_name_the_segment() {
    let file_len = Elf::irix_o32().build().len();
    let cases: Vec<(&str, Vec<u8>, String)> = vec![
        (
            "no program headers",
            bytes_with(|b| patch_u16(b, E_PHNUM, 0)),
            "prog: no program headers (e_phnum 0)".into(),
        ),
        (
            "64-bit program header size",
            bytes_with(|b| patch_u16(b, E_PHENTSIZE, 56)),
            "prog: program header size 56 (e_phentsize), expected 32".into(),
        ),
        (
            "table past the end",
            bytes_with(|b| patch_u32(b, E_PHOFF, 0xffff_fff0)),
            format!(
                "prog: program header table lies outside the file (offset 0xfffffff0, 2 entries of 32 bytes, file size {file_len:#x})"
            ),
        ),
        (
            "too many program headers",
            bytes_with(|b| patch_u16(b, E_PHNUM, 0xffff)),
            format!(
                "prog: program header table lies outside the file (offset 0x34, 65535 entries of 32 bytes, file size {file_len:#x})"
            ),
        ),
        (
            "segment bytes past the end",
            bytes_with(|b| patch_u32(b, phdr_field(1, P_OFFSET), 0x0010_0000)),
            format!("prog: segment 1 lies outside the file (offset 0x100000, size 0x8, file size {file_len:#x})"),
        ),
        (
            "segment offset plus size wraps",
            bytes_with(|b| patch_u32(b, phdr_field(1, P_OFFSET), 0xffff_fffc)),
            format!("prog: segment 1 lies outside the file (offset 0xfffffffc, size 0x8, file size {file_len:#x})"),
        ),
        (
            "file size above memory size",
            bytes_with(|b| patch_u32(b, phdr_field(1, P_MEMSZ), 4)),
            "prog: segment 1 has a file size 0x8 larger than its memory size 0x4".into(),
        ),
        (
            "segment wraps",
            bytes_with(|b| {
                patch_u32(b, phdr_field(1, P_VADDR), 0xffff_0000);
                patch_u32(b, phdr_field(1, P_MEMSZ), 0x0002_0000);
            }),
            "prog: segment 1 (vaddr 0xffff0000, memory size 0x20000) wraps around the address space".into(),
        ),
        (
            "segment in kernel space",
            bytes_with(|b| patch_u32(b, phdr_field(1, P_VADDR), 0x8000_0000)),
            "prog: segment 1 (vaddr 0x80000000, memory size 0x100) reaches kernel space at 0x80000000".into(),
        ),
        (
            "segment reaching kernel space",
            bytes_with(|b| patch_u32(b, phdr_field(1, P_VADDR), 0x7fff_ff80)),
            "prog: segment 1 (vaddr 0x7fffff80, memory size 0x100) reaches kernel space at 0x80000000".into(),
        ),
        (
            "overlapping segments",
            bytes_with(|b| patch_u32(b, phdr_field(1, P_VADDR), 0x0040_0008)),
            "prog: segments 0 and 1 overlap (0x400000..0x400010 and 0x400008..0x400108)".into(),
        ),
        (
            "overlap reported in address order",
            bytes_with(|b| patch_u32(b, phdr_field(1, P_VADDR), 0x003f_fff8)),
            "prog: segments 1 and 0 overlap (0x3ffff8..0x4000f8 and 0x400000..0x400010)".into(),
        ),
        (
            "data segment over the initial stack",
            bytes_with(|b| patch_u32(b, phdr_field(1, P_VADDR), 0x7ffe_0000)),
            "prog: segment 1 (vaddr 0x7ffe0000, memory size 0x100) overlaps the stack (0x7bff8000..0x80000000), which the kernel maps there".into(),
        ),
        (
            "data segment over the PRDA page",
            bytes_with(|b| patch_u32(b, phdr_field(1, P_VADDR), 0x001f_ff80)),
            "prog: segment 1 (vaddr 0x1fff80, memory size 0x100) overlaps the PRDA page (0x200000..0x201000), which the kernel maps there".into(),
        ),
        (
            "no PT_LOAD",
            bytes_with(|b| {
                patch_u32(b, phdr_field(0, P_TYPE), 4);
                patch_u32(b, phdr_field(1, P_TYPE), 4);
            }),
            "prog: no loadable segment (no PT_LOAD program header with a memory size)".into(),
        ),
        (
            "entry in the data segment",
            spec_with(|s| s.e_entry = Some(0x1000_0000)),
            "prog: entry point 0x10000000 is outside any executable segment".into(),
        ),
        (
            "entry past the text",
            spec_with(|s| s.e_entry = Some(0x0040_0010)),
            "prog: entry point 0x400010 is outside any executable segment".into(),
        ),
        (
            "entry in a non-executable text",
            bytes_with(|b| patch_u32(b, phdr_field(0, P_FLAGS), PF_R)),
            "prog: entry point 0x400000 is outside any executable segment".into(),
        ),
        (
            "misaligned entry",
            spec_with(|s| s.e_entry = Some(0x0040_0002)),
            "prog: entry point 0x400002 is not word-aligned".into(),
        ),
    ];
    for (name, bytes, expected) in cases {
        assert_eq!(message(&bytes), expected, "{name}");
    }
}

#[test]
fn dynamic_executable_is_refused_with_its_interpreter_as_data() {
    let bytes = spec_with(|s| {
        s.segments.insert(
            0,
            Segment::other(PT_INTERP, b"/usr/lib/libc.so.1\0".to_vec()),
        )
    });
    let err = load("prog", &bytes, &STATIC).unwrap_err();
    assert_eq!(
        err,
        LoadError::Dynamic {
            file: "prog".into(),
            interp: "/usr/lib/libc.so.1".into()
        }
    );
    assert_eq!(
        err.to_string(),
        "prog: dynamically linked (interpreter /usr/lib/libc.so.1): needs an IRIX root, see --root"
    );
}

#[test]
fn interpreter_rejections() {
    let interp = || Segment::other(PT_INTERP, b"/usr/lib32/libc.so.1\0".to_vec());
    let file_len = spec_with(|s| s.segments.insert(0, interp())).len();
    let cases: Vec<(&str, Vec<u8>, String)> = vec![
        (
            "two interpreters",
            spec_with(|s| {
                s.segments.insert(0, interp());
                s.segments.push(interp());
            }),
            "prog: more than one interpreter (PT_INTERP segments 0 and 3)".into(),
        ),
        (
            "empty path",
            spec_with(|s| s.segments.insert(0, Segment::other(PT_INTERP, vec![0]))),
            "prog: interpreter path (segment 0) is empty".into(),
        ),
        (
            "path outside the file",
            {
                let mut b = spec_with(|s| s.segments.insert(0, interp()));
                patch_u32(&mut b, phdr_field(0, P_FILESZ), 0x0100_0000);
                b
            },
            format!(
                "prog: interpreter path (segment 0) lies outside the file (offset 0x100, size 0x1000000, file size {file_len:#x})"
            ),
        ),
    ];
    let allow = LoadOptions::PROGRAM;
    for (name, bytes, expected) in cases {
        let got = load("prog", &bytes, &allow)
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert_eq!(got, expected, "{name}");
    }
}

#[test]
fn file_name_is_the_one_the_user_gave() {
    let got = load("./bin/a.out", b"\x7fELG", &STATIC)
        .unwrap_err()
        .to_string();
    assert_eq!(got, "./bin/a.out: not an ELF file (bad magic 7f 45 4c 47)");
}
