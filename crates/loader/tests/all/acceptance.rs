//! What the loader accepts and what it makes of it.

use loader::{load, load_headers, Abi, LoadOptions, LoadWarning, Perms, SymbolKind};
use test_support::elf::*;

const STATIC: LoadOptions = LoadOptions::STATIC;
const WITH_INTERP: LoadOptions = LoadOptions::PROGRAM;

#[test]
fn accepted_e_flags_give_abi_and_isa_level() {
    let cases: &[(&str, u32, Abi, u8)] = &[
        ("irix o32 mips1", 0x0000_0000, Abi::O32, 1),
        ("irix o32 mips2 cpic", 0x1000_0004, Abi::O32, 2),
        (
            "irix o32 mips2 pic cpic noreorder",
            0x1000_0007,
            Abi::O32,
            2,
        ),
        ("gnu o32 mips1 (EF_MIPS_ABI_O32)", 0x0000_1000, Abi::O32, 1),
        ("gnu o32 mips3 32bitmode cpic", 0x2000_1104, Abi::O32, 3),
        ("irix n32 mips3", 0x2000_0020, Abi::N32, 3),
        ("irix n32 mips3 pic cpic", 0x2000_0026, Abi::N32, 3),
    ];
    for (name, flags, abi, isa) in cases {
        let mut spec = Elf::irix_o32();
        spec.e_flags = *flags;
        let exe = load("prog", &spec.build(), &STATIC).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(exe.abi, *abi, "{name}");
        assert_eq!(exe.is_n32(), *abi == Abi::N32, "{name}");
        assert_eq!(exe.isa_level, *isa, "{name}");
        assert_eq!(exe.e_flags, *flags, "{name}");
    }
}

#[test]
fn load_segments_keep_file_order_bytes_and_permissions() {
    let exe = load("prog", &Elf::irix_o32().build(), &STATIC).unwrap();
    assert_eq!(exe.entry, 0x0040_0000);
    assert_eq!(exe.segments.len(), 2);
    let text = &exe.segments[0];
    assert_eq!((text.vaddr, text.mem_size), (0x0040_0000, 16));
    assert_eq!(text.data, text_bytes());
    assert_eq!(
        text.perms,
        Perms {
            read: true,
            write: false,
            exec: true
        }
    );
    let data = &exe.segments[1];
    assert_eq!((data.vaddr, data.mem_size), (0x1000_0000, 0x100));
    assert_eq!(
        data.data,
        vec![1, 2, 3, 4, 5, 6, 7, 8],
        "only p_filesz bytes: the rest is bss"
    );
    assert_eq!(
        data.perms,
        Perms {
            read: true,
            write: true,
            exec: false
        }
    );
    assert_eq!(exe.text_ranges(), vec![(0x0040_0000, 0x0040_0010)]);
    assert_eq!(exe.interp, None);
    assert_eq!((exe.phent, exe.phnum), (32, 2));
    assert_eq!(exe.warnings, vec![]);
}

#[test]
fn bss_only_segment_has_no_file_bytes() {
    let mut spec = Elf::irix_o32();
    spec.segments
        .push(Segment::load(0x1001_0000, vec![], 0x4000, PF_R | PF_W));
    let exe = load("prog", &spec.build(), &STATIC).unwrap();
    assert_eq!(exe.segments[2].data, Vec::<u8>::new());
    assert_eq!(exe.segments[2].mem_size, 0x4000);
}

#[test]
fn load_segment_with_no_memory_is_dropped() {
    let mut spec = Elf::irix_o32();
    spec.segments
        .insert(1, Segment::load(0x0040_0000, vec![], 0, PF_R));
    let exe = load("prog", &spec.build(), &STATIC).unwrap();
    assert_eq!(
        exe.segments.iter().map(|s| s.vaddr).collect::<Vec<_>>(),
        vec![0x0040_0000, 0x1000_0000]
    );
}

#[test]
fn mips_program_headers_are_skipped_and_reginfo_gives_gp() {
    let mut reginfo = vec![0u8; 20];
    reginfo.extend_from_slice(&0x1000_8000u32.to_be_bytes());
    let mut spec = Elf::irix_o32();
    spec.segments
        .insert(0, Segment::other(PT_MIPS_ABIFLAGS, vec![0; 24]));
    spec.segments
        .insert(0, Segment::other(PT_MIPS_REGINFO, reginfo));
    let exe = load("prog", &spec.build(), &STATIC).unwrap();
    assert_eq!(exe.segments.len(), 2);
    assert_eq!(exe.gp_value, Some(0x1000_8000));
    assert_eq!(exe.phnum, 4);
}

#[test]
fn gp_symbol_is_used_without_reginfo() {
    let mut spec = Elf::irix_o32();
    spec.symbols
        .push(Symbol::new("_gp", 0x1000_7ff0, 0, STT_NOTYPE, SHN_ABS));
    let exe = load("prog", &spec.build(), &STATIC).unwrap();
    assert_eq!(exe.gp_value, Some(0x1000_7ff0));
    assert_eq!(
        exe.symbols,
        vec![],
        "_gp is an absolute label, not a text or data symbol"
    );
}

#[test]
fn symbols_are_functions_objects_and_text_labels_sorted_by_address() {
    let mut spec = Elf::irix_o32();
    spec.symbols = vec![
        Symbol::new("counter", 0x1000_0004, 4, STT_OBJECT, 2),
        Symbol::new("helper", 0x0040_0008, 8, STT_FUNC, 1),
        Symbol::new("data_label", 0x1000_0000, 0, STT_NOTYPE, 2),
        Symbol::new("__start", 0x0040_0000, 0, STT_NOTYPE, 1),
        Symbol::new("main", 0x0040_0000, 8, STT_FUNC, 1),
        Symbol::new(".text", 0x0040_0000, 0, STT_SECTION, 1),
        Symbol::new("printf", 0, 0, STT_FUNC, 0),
        Symbol {
            bind: STB_LOCAL,
            ..Symbol::new("table", 0x1000_0000, 4, STT_OBJECT, 2)
        },
    ];
    let exe = load("prog", &spec.build(), &STATIC).unwrap();
    let got: Vec<(&str, u32, u32, SymbolKind)> = exe
        .symbols
        .iter()
        .map(|s| (s.name.as_str(), s.addr, s.size, s.kind))
        .collect();
    assert_eq!(
        got,
        vec![
            ("main", 0x0040_0000, 8, SymbolKind::Func),
            ("__start", 0x0040_0000, 0, SymbolKind::Other),
            ("helper", 0x0040_0008, 8, SymbolKind::Func),
            ("table", 0x1000_0000, 4, SymbolKind::Object),
            ("counter", 0x1000_0004, 4, SymbolKind::Object),
        ]
    );
}

#[test]
fn symbol_at_finds_the_containing_function() {
    let mut spec = Elf::irix_o32();
    spec.segments[0] = Segment::load(0x0040_0000, vec![0; 0x100], 0x100, PF_R | PF_X);
    spec.symbols = vec![
        Symbol::new("__start", 0x0040_0000, 0, STT_NOTYPE, 1),
        Symbol::new("main", 0x0040_0010, 0x20, STT_FUNC, 1),
        Symbol {
            bind: STB_LOCAL,
            ..Symbol::new("loop", 0x0040_0018, 0, STT_NOTYPE, 1)
        },
        Symbol::new("asm_routine", 0x0040_0040, 0, STT_NOTYPE, 1),
        Symbol::new("sized_after", 0x0040_0080, 0x10, STT_FUNC, 1),
        Symbol::new("counter", 0x1000_0000, 4, STT_OBJECT, 2),
    ];
    let exe = load("prog", &spec.build(), &STATIC).unwrap();
    let cases: &[(&str, u32, Option<&str>)] = &[
        (
            "unsized label reaches the next function",
            0x0040_000c,
            Some("__start"),
        ),
        ("sized function start", 0x0040_0010, Some("main")),
        (
            "label inside a sized function is not the function",
            0x0040_001c,
            Some("main"),
        ),
        ("last byte of a sized function", 0x0040_002f, Some("main")),
        ("gap after a sized function", 0x0040_0030, None),
        ("unsized routine", 0x0040_0044, Some("asm_routine")),
        (
            "unsized routine up to the next symbol",
            0x0040_007c,
            Some("asm_routine"),
        ),
        ("after the last sized function", 0x0040_0090, None),
        ("before any symbol", 0x003f_fffc, None),
        ("objects are never functions", 0x1000_0000, None),
    ];
    for (name, addr, expected) in cases {
        assert_eq!(
            exe.symbol_at(*addr).map(|s| s.name.as_str()),
            *expected,
            "{name}"
        );
    }
}

#[test]
fn interpreter_is_returned_when_allowed() {
    let mut spec = Elf::irix_o32();
    spec.segments.insert(
        0,
        Segment::other(PT_INTERP, b"/usr/lib/libc.so.1\0".to_vec()),
    );
    let exe = load("prog", &spec.build(), &WITH_INTERP).unwrap();
    assert_eq!(exe.interp.as_deref(), Some("/usr/lib/libc.so.1"));
}

#[test]
fn shared_object_loads_as_an_interpreter_only() {
    // IRIX's /usr/lib/libc.so.1 is ET_DYN with an entry point.
    let spec = Elf {
        e_type: 3,
        ..Elf::irix_o32()
    };
    let bytes = spec.build();
    let exe = load("libc.so.1", &bytes, &LoadOptions::INTERPRETER).unwrap();
    assert!(exe.shared);
    assert_eq!(exe.entry, 0x0040_0000);
    assert_eq!(
        load("libc.so.1", &bytes, &WITH_INTERP)
            .unwrap_err()
            .to_string(),
        "libc.so.1: not an executable (e_type 3, shared object)"
    );
    let exe = load("rld", &Elf::irix_o32().build(), &LoadOptions::INTERPRETER).unwrap();
    assert!(
        !exe.shared,
        "an ET_EXEC interpreter (IRIX's /lib/rld is one)"
    );
}

#[test]
fn interpreter_may_not_name_an_interpreter() {
    let mut spec = Elf {
        e_type: 3,
        ..Elf::irix_o32()
    };
    spec.segments.insert(
        0,
        Segment::other(PT_INTERP, b"/usr/lib/libc.so.1\0".to_vec()),
    );
    let err = load("libc.so.1", &spec.build(), &LoadOptions::INTERPRETER).unwrap_err();
    assert!(matches!(err, loader::LoadError::Dynamic { .. }), "{err}");
}

#[test]
fn phdr_address_comes_from_pt_phdr() {
    let mut spec = Elf::irix_o32();
    let mut phdr = Segment::other(PT_PHDR, vec![0; 4]);
    phdr.vaddr = 0x0040_0034;
    spec.segments.insert(0, phdr);
    let exe = load("prog", &spec.build(), &STATIC).unwrap();
    assert_eq!(exe.phdr_vaddr, Some(0x0040_0034));
}

#[test]
fn phdr_address_comes_from_the_segment_mapping_the_headers() {
    let mut bytes = Elf::irix_o32().build();
    // Make the text segment start at file offset 0, so it maps the headers.
    let text_offset = u32::from_be_bytes(bytes[phdr_field(0, P_OFFSET)..][..4].try_into().unwrap());
    patch_u32(&mut bytes, phdr_field(0, P_OFFSET), 0);
    patch_u32(&mut bytes, phdr_field(0, P_FILESZ), text_offset + 16);
    patch_u32(&mut bytes, phdr_field(0, P_MEMSZ), text_offset + 16);
    patch_u32(
        &mut bytes,
        phdr_field(0, P_VADDR),
        0x0040_0000 - text_offset,
    );
    let exe = load("prog", &bytes, &STATIC).unwrap();
    assert_eq!(exe.phdr_vaddr, Some(0x0040_0000 - text_offset + 52));
}

#[test]
fn damaged_section_table_is_a_warning_not_an_error() {
    let mut bytes = Elf::irix_o32().build();
    patch_u32(&mut bytes, E_SHOFF, 0x00ff_0000);
    let exe = load("prog", &bytes, &STATIC).unwrap();
    assert_eq!(exe.symbols, vec![]);
    assert_eq!(
        exe.warnings,
        vec![LoadWarning::SectionTableOutsideFile {
            file: "prog".into(),
            offset: 0x00ff_0000,
            count: 5
        }]
    );
    assert_eq!(
        exe.warnings[0].to_string(),
        "prog: section header table lies outside the file (offset 0xff0000, 5 entries of 40 bytes): symbols ignored"
    );
}

/// exec reads only the head of a file: the same segments, located in the
/// file by offset and size instead of copied, checked against the size.
#[test]
fn load_headers_locates_segments_without_reading_them() {
    let bytes = Elf::irix_o32().build();
    let whole = load("prog", &bytes, &STATIC).unwrap();
    let head_len = 52 + 2 * 32;
    let exe = load_headers("prog", &bytes[..head_len], bytes.len() as u64, &STATIC).unwrap();
    assert_eq!(exe.entry, whole.entry);
    for (h, w) in exe.segments.iter().zip(&whole.segments) {
        assert_eq!(
            (h.vaddr, h.mem_size, h.perms),
            (w.vaddr, w.mem_size, w.perms)
        );
        let (off, len) = (h.file_offset as usize, h.file_size as usize);
        assert_eq!(&bytes[off..off + len], &w.data[..]);
        assert!(h.data.is_empty());
    }
    let data = &exe.segments[1];
    let data_end = u64::from(data.file_offset + data.file_size);
    let short = load_headers("prog", &bytes[..head_len], data_end - 1, &STATIC);
    assert!(
        short
            .unwrap_err()
            .to_string()
            .contains("lies outside the file"),
        "a segment past the file's end is refused"
    );
}
