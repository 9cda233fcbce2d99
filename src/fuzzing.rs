//! The bodies of the fuzz targets (fuzz/, run with cargo-fuzz) as plain
//! functions of a byte string, so that the stable proptest smoke test
//! (tests/all/fuzz_smoke.rs) runs exactly the same code on every CI run. Each
//! must return, without panicking, for every input.

use std::path::Path;

use irix_kernel::memory::{AddressSpace, Budget, Perms};

/// The loader: a whole file, and the same bytes as exec's head of a file
/// one page longer.
pub fn loader(data: &[u8]) {
    for opts in [
        loader::LoadOptions::PROGRAM,
        loader::LoadOptions::INTERPRETER,
    ] {
        let _ = loader::load("fuzz", data, &opts);
        let _ = loader::load_headers("fuzz", data, data.len() as u64 + 4096, &opts);
    }
}

/// The decoder, disassembler and interpreter: the bytes as big-endian
/// instruction words, decoded and disassembled one by one, then run for a
/// bounded number of cycles from a read/write/execute page holding them.
pub fn decoder(data: &[u8]) {
    const BASE: u32 = 0x40_0000;
    let words: Vec<u32> = data
        .chunks(4)
        .take(1024)
        .map(|c| {
            let mut w = [0u8; 4];
            w[..c.len()].copy_from_slice(c);
            u32::from_be_bytes(w)
        })
        .collect();
    for (i, &w) in words.iter().enumerate() {
        let _ = cpu_mips::decode(w);
        let _ = cpu_mips::is_r4000_encoding(w, false);
        let _ = cpu_mips::is_r4000_encoding(w, true);
        let _ = cpu_mips::disassemble(w, BASE + 4 * i as u32).to_string();
    }
    let mut mem = AddressSpace::new(Budget::new(16 << 20));
    if mem
        .map_anon(u64::from(BASE), 4096, Perms::R | Perms::W | Perms::X)
        .is_err()
    {
        return;
    }
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_be_bytes()).collect();
    if mem.poke_bytes(BASE, &bytes).is_err() {
        return;
    }
    for mode64 in [false, true] {
        let mut cpu = cpu_mips::Cpu::new(cpu_mips::CpuConfig {
            mode64,
            ..cpu_mips::CpuConfig::default()
        });
        cpu.set_pc(BASE);
        // Exceptions stop the run: step past each, a few times.
        for _ in 0..8 {
            match cpu.run(&mut mem, &mut (), cpu.cycles() + 20_000) {
                cpu_mips::StopReason::Deadline => break,
                cpu_mips::StopReason::Exception(_) => cpu.complete_exception_instruction(),
            }
        }
    }
}

/// The gmon.out reader: parse; what parses encodes back to a file that
/// parses to the same histograms, and reports without panicking.
pub fn gmon(data: &[u8]) {
    let Ok(file) = profile_formats::gmon::parse_gmon(data) else {
        return;
    };
    let again =
        profile_formats::gmon::parse_gmon(&profile_formats::gmon::encode_gmon(&file.histograms))
            .expect("an encoded profile parses");
    assert_eq!(again.histograms, file.histograms);
    let symbols = [profile_formats::report::Symbol {
        name: "f".into(),
        addr: file.histograms.first().map_or(0, |h| h.low_pc),
        size: 64,
    }];
    let _ = profile_formats::report::flat_profile(&file.histograms, &symbols);
}

/// The system-call layer: the bytes as calls (see
/// `irix_kernel::fuzzing::calls_from_bytes`) made by one process of a
/// kernel whose root is `root`.
pub fn syscalls(data: &[u8], root: &Path) {
    let calls = irix_kernel::fuzzing::calls_from_bytes(data);
    irix_kernel::fuzzing::run_calls(root, &calls);
}
