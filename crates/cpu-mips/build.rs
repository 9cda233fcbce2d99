//! The fingerprint of this crate's source: compiled code kept on disk (see
//! `src/jit/cache.rs`) is used only by a build of the same source, so a
//! change to the translator, the block tier's schedule or the timing model
//! can never run code another build compiled. The workspace's Cargo.lock
//! is included, for the version of Cranelift.

use std::path::{Path, PathBuf};

/// 64-bit FNV-1a, continued from `h`.
fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let src = manifest.join("src");
    let lock = manifest.join("../../Cargo.lock");
    let mut paths = Vec::new();
    files(&src, &mut paths);
    paths.sort();
    paths.push(lock.clone());
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for p in &paths {
        if let Ok(bytes) = std::fs::read(p) {
            let rel = p.strip_prefix(&manifest).unwrap_or(p);
            h = fnv(h, rel.to_string_lossy().as_bytes());
            h = fnv(h, &bytes);
        }
    }
    println!("cargo:rustc-env=CPU_MIPS_SOURCE_HASH={h:016x}");
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed={}", lock.display());
    println!("cargo:rerun-if-changed=build.rs");
}
