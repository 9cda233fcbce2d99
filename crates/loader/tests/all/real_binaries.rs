//! Executables made by a real toolchain: the committed fixture, fresh
//! mips-linux-gnu-gcc builds of its source, and the project's guest programs.

use std::path::{Path, PathBuf};
use std::process::Command;

use loader::{load, Abi, LoadOptions, Perms, SymbolKind};
use test_support::tools::require_tool;
use test_support::Scratch;

const STATIC: LoadOptions = LoadOptions::STATIC;
const GCC: &str = "mips-linux-gnu-gcc";

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

#[test]
fn committed_fixture_loads_as_irix_o32_mips2() {
    let bytes = std::fs::read(fixture("exit_via_call.elf")).unwrap();
    let exe = load("exit_via_call.elf", &bytes, &STATIC).unwrap();
    assert_eq!((exe.abi, exe.isa_level), (Abi::O32, 2));
    assert_eq!(exe.e_flags, 0x1000_1001, "noreorder, o32, mips2");
    assert_eq!(exe.entry, 0x0040_00f0);
    let layout: Vec<(u32, u32, usize, Perms)> = exe
        .segments
        .iter()
        .map(|s| (s.vaddr, s.mem_size, s.data.len(), s.perms))
        .collect();
    assert_eq!(
        layout,
        vec![
            (
                0x0040_0000,
                0x130,
                0x130,
                Perms {
                    read: true,
                    write: false,
                    exec: true
                }
            ),
            (
                0x0041_0130,
                0x20,
                0x10,
                Perms {
                    read: true,
                    write: true,
                    exec: false
                }
            ),
        ],
        "ABIFLAGS and REGINFO program headers are skipped; .bss is the zeroed tail"
    );
    assert_eq!(
        &exe.segments[1].data[..4],
        &41u32.to_be_bytes(),
        "counter = 41"
    );
    assert_eq!(
        exe.gp_value,
        Some(0x0041_8130),
        "ri_gp_value of PT_MIPS_REGINFO"
    );
    assert_eq!(
        exe.phdr_vaddr,
        Some(0x0040_0034),
        "the text segment maps the file from offset 0"
    );
    assert_eq!((exe.phent, exe.phnum), (32, 4));
    let symbols: Vec<(&str, u32, u32, SymbolKind)> = exe
        .symbols
        .iter()
        .map(|s| (s.name.as_str(), s.addr, s.size, s.kind))
        .collect();
    assert_eq!(
        symbols,
        vec![
            ("__start", 0x0040_00f0, 52, SymbolKind::Func),
            ("_ftext", 0x0040_00f0, 0, SymbolKind::Other),
            ("spin", 0x0040_011c, 0, SymbolKind::Other),
            ("add_one", 0x0040_0124, 8, SymbolKind::Func),
            ("counter", 0x0041_0130, 4, SymbolKind::Object),
            ("scratch", 0x0041_0140, 4, SymbolKind::Object),
        ]
    );
    assert_eq!(
        exe.symbol_at(0x0040_011c).map(|s| s.name.as_str()),
        Some("__start")
    );
    assert_eq!(
        exe.symbol_at(0x0040_0128).map(|s| s.name.as_str()),
        Some("add_one")
    );
    assert_eq!(exe.warnings, vec![]);
}

/// Builds the fixture source with `flags`; `None` if the build failed.
fn build_fixture(flags: &[&str], out: &Path) -> Option<Vec<u8>> {
    let status = Command::new(GCC)
        .args(flags)
        .args([
            "-mno-abicalls",
            "-fno-pic",
            "-nostdlib",
            "-static",
            "-Wl,-e,__start",
            "-o",
        ])
        .arg(out)
        .arg(fixture("exit_via_call.S"))
        .status()
        .ok()?;
    status.success().then(|| std::fs::read(out).ok()).flatten()
}

#[test]
fn gcc_builds_load_or_are_refused_by_name() {
    if !require_tool(GCC) {
        return;
    }
    /// The ABI and ISA level, or the refusal message.
    type Expected = Result<(Abi, u8), &'static str>;
    let cases: &[(&str, &[&str], Expected)] = &[
        ("o32 mips1", &["-mabi=32", "-march=mips1", "-mfp32"], Ok((Abi::O32, 1))),
        ("o32 mips2", &["-mabi=32", "-march=mips2"], Ok((Abi::O32, 2))),
        ("o32 mips3 (32bitmode)", &["-mabi=32", "-march=mips3"], Ok((Abi::O32, 3))),
        ("n32 mips3", &["-mabi=n32", "-march=mips3"], Ok((Abi::N32, 3))),
        (
            "o32 mips4",
            &["-mabi=32", "-march=mips4"],
            Err("t: MIPS IV code (e_flags arch 3) needs an R5000/R10000: irix-emu emulates an R4000"),
        ),
        (
            "the compiler's default architecture",
            &["-mabi=32", "-march=mips32r2"],
            Err("t: MIPS32 release 2 code (e_flags arch 7) needs a MIPS32 processor: irix-emu emulates an R4000"),
        ),
        ("little-endian", &["-mabi=32", "-march=mips2", "-EL"], Err("t: little-endian MIPS is not IRIX")),
    ];
    let scratch = Scratch::new("loader-gcc-builds");
    let dir = scratch.path();
    for (i, (name, flags, expected)) in cases.iter().enumerate() {
        let out = dir.join(format!("case{i}.elf"));
        let bytes =
            build_fixture(flags, &out).unwrap_or_else(|| panic!("{name}: {GCC} {flags:?} failed"));
        match (load("t", &bytes, &STATIC), expected) {
            (Ok(exe), Ok((abi, isa))) => {
                assert_eq!((exe.abi, exe.isa_level), (*abi, *isa), "{name}");
                let start = exe
                    .symbols
                    .iter()
                    .find(|s| s.name == "__start")
                    .expect("__start");
                assert_eq!(exe.entry, start.addr, "{name}");
                assert_eq!(
                    exe.symbol_at(exe.entry).map(|s| s.name.as_str()),
                    Some("__start"),
                    "{name}"
                );
                assert!(
                    exe.gp_value.is_some(),
                    "{name}: .reginfo or .MIPS.options gives gp"
                );
                let data = exe
                    .segments
                    .iter()
                    .find(|s| s.perms.write)
                    .expect("data segment");
                assert!(
                    data.data.len() < data.mem_size as usize,
                    "{name}: .bss follows .data"
                );
            }
            (Err(e), Err(message)) => assert_eq!(e.to_string(), *message, "{name}"),
            (got, _) => panic!("{name}: unexpected {got:?}"),
        }
    }
}

/// The guest programs built for the emulated IRIX (guest/bin/irix) all load.
/// guest/bin/linux holds builds for comparison runs under qemu-mips, which
/// may use other flags, so they are not checked here.
#[test]
fn guest_irix_binaries_load() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../guest/bin/irix");
    let mut elves: Vec<PathBuf> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| std::fs::read(p).is_ok_and(|b| b.starts_with(b"\x7fELF")))
        .collect();
    elves.sort();
    if elves.is_empty() {
        eprintln!("SKIP: no ELF files in {} yet", dir.display());
        return;
    }
    for path in elves {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display().to_string();
        let exe = load(&name, &bytes, &STATIC).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            exe.text_ranges()
                .iter()
                .any(|&(lo, hi)| (lo..hi).contains(&exe.entry)),
            "{name}: entry in text"
        );
    }
}
