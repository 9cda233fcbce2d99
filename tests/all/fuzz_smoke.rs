//! A short stable run of each fuzz target (fuzz/fuzz_targets/, run long
//! with cargo-fuzz on nightly; see the README): the same bodies
//! (`irix_emu::fuzzing`) on random inputs and on mutations of real ones.
//! Each must return without panicking; proptest shrinks any that does not.

use crate::common;

use common::{repo_path, Scratch};
use irix_emu::fuzzing;
use proptest::prelude::*;

/// Real inputs to mutate: a guest executable and a gmon.out.
fn seed_elf() -> Vec<u8> {
    std::fs::read(repo_path("guest/bin/irix/hello")).unwrap_or_default()
}

fn seed_gmon() -> Vec<u8> {
    profile_formats::gmon::encode_gmon(&[profile_formats::gmon::HistRecord {
        low_pc: 0x40_0000,
        high_pc: 0x40_0100,
        rate_hz: 100,
        bins: (0..64).collect(),
    }])
}

/// `seed` with each (position, byte) written over it, and cut to `cut`
/// bytes when that is shorter.
fn mutate(seed: &[u8], edits: &[(usize, u8)], cut: usize) -> Vec<u8> {
    let mut b = seed.to_vec();
    if !b.is_empty() {
        for &(i, v) in edits {
            let n = b.len();
            b[i % n] = v;
        }
    }
    b.truncate(cut.max(1));
    b
}

fn edits() -> impl Strategy<Value = (Vec<(usize, u8)>, usize)> {
    (
        prop::collection::vec((any::<usize>(), any::<u8>()), 1..16),
        any::<usize>(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn loader_never_panics(data in prop::collection::vec(any::<u8>(), 0..512)) {
        fuzzing::loader(&data);
    }

    #[test]
    fn loader_never_panics_on_mutated_executables((e, cut) in edits()) {
        let seed = seed_elf();
        fuzzing::loader(&mutate(&seed, &e, cut % (seed.len() + 1) + seed.len() / 2));
    }

    #[test]
    fn decoder_never_panics(data in prop::collection::vec(any::<u8>(), 0..256)) {
        fuzzing::decoder(&data);
    }

    #[test]
    fn gmon_reader_never_panics(data in prop::collection::vec(any::<u8>(), 0..256)) {
        fuzzing::gmon(&data);
    }

    #[test]
    fn gmon_reader_never_panics_on_mutated_profiles((e, cut) in edits()) {
        let seed = seed_gmon();
        fuzzing::gmon(&mutate(&seed, &e, cut % (seed.len() + 1)));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn system_calls_never_panic(data in prop::collection::vec(any::<u8>(), 0..360)) {
        let root = Scratch::new("fuzz-syscalls");
        fuzzing::syscalls(&data, root.path());
    }
}
