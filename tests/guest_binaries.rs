//! The committed guest binaries: rebuilt byte for byte by guest/build.sh,
//! and made only of instructions an R4000 has (issue 4: "A test decodes
//! every instruction of every guest binary's text and fails on any encoding
//! an R4000 does not have").

use std::path::{Path, PathBuf};
use std::process::Command;

fn guest_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("guest")
}

/// Every committed ELF under guest/bin/<personality>/.
fn binaries() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for pers in ["irix", "linux"] {
        let dir = guest_dir().join("bin").join(pers);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            out.push(e.path());
        }
    }
    out.sort();
    out
}

/// True when the tool runs; otherwise skips visibly, or panics under
/// IRIX_EMU_REQUIRE_TOOLS=1 (CI).
fn have_tool(tool: &str) -> bool {
    let ok = Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("IRIX_EMU_REQUIRE_TOOLS").is_none_or(|v| v != "1"),
            "{tool} is required (IRIX_EMU_REQUIRE_TOOLS=1) but was not found"
        );
        eprintln!("SKIP: {tool} not found");
    }
    ok
}

#[test]
fn every_text_word_of_every_guest_binary_is_an_r4000_instruction() {
    let bins = binaries();
    assert!(
        bins.len() >= 20,
        "expected the committed guest binaries, found {}",
        bins.len()
    );
    let mut bad = Vec::new();
    for path in &bins {
        let bytes = std::fs::read(path).unwrap();
        let exe = loader::load(&path.display().to_string(), &bytes, &Default::default())
            .unwrap_or_else(|e| panic!("{e}"));
        for seg in exe.segments.iter().filter(|s| s.perms.exec) {
            for (i, w) in seg.data.chunks_exact(4).enumerate() {
                let word = u32::from_be_bytes([w[0], w[1], w[2], w[3]]);
                let pc = seg.vaddr + 4 * i as u32;
                // Text also holds literal data (jump tables, strings) after
                // the code; words inside a function symbol must decode.
                let in_function = exe
                    .symbol_at(pc)
                    .is_some_and(|s| s.kind == loader::SymbolKind::Func);
                if in_function && !cpu_mips::is_r4000_encoding(word, exe.is_n32()) {
                    bad.push(format!(
                        "{}: 0x{pc:08x}: {word:08x} {}",
                        path.display(),
                        cpu_mips::disassemble(word, pc)
                    ));
                }
            }
        }
    }
    assert_eq!(bad, Vec::<String>::new(), "encodings an R4000 lacks");
}

#[test]
fn guest_binaries_rebuild_byte_for_byte() {
    if !have_tool("mips-linux-gnu-gcc") {
        return;
    }
    let out = Command::new("sh")
        .arg(guest_dir().join("build.sh"))
        .arg("--check")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "guest/build.sh --check failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
