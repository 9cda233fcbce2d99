//! The committed guest binaries: rebuilt byte for byte by guest/build.sh,
//! and made only of instructions an R4000 has (every instruction of every
//! guest binary's text is decoded; an encoding an R4000 lacks fails).

use std::path::{Path, PathBuf};
use std::process::Command;

use test_support::tools::require_tool;

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
    if !require_tool("mips-linux-gnu-gcc") {
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
