//! Never a panic on any byte string: truncations and random
//! mutations of valid images give Ok or Err, nothing else.

use loader::{load, LoadOptions};
use proptest::prelude::*;
use test_support::elf::*;

fn fixture_bytes() -> Vec<u8> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/exit_via_call.elf");
    std::fs::read(path).unwrap()
}

/// A synthetic image with every part the loader reads: interpreter,
/// reginfo, text, data, bss and symbols.
fn synthetic_bytes() -> Vec<u8> {
    let mut reginfo = vec![0u8; 20];
    reginfo.extend_from_slice(&0x1000_8000u32.to_be_bytes());
    let mut spec = Elf::irix_o32();
    spec.segments.insert(
        0,
        Segment::other(PT_INTERP, b"/usr/lib/libc.so.1\0".to_vec()),
    );
    spec.segments
        .insert(1, Segment::other(PT_MIPS_REGINFO, reginfo));
    spec.symbols = vec![
        Symbol::new("main", 0x0040_0000, 16, STT_FUNC, 3),
        Symbol::new("label", 0x0040_0008, 0, STT_NOTYPE, 3),
        Symbol::new("counter", 0x1000_0000, 4, STT_OBJECT, 4),
    ];
    spec.build()
}

fn load_both_ways(bytes: &[u8]) {
    for opts in [
        LoadOptions::STATIC,
        LoadOptions::PROGRAM,
        LoadOptions::INTERPRETER,
    ] {
        let _ = load("prog", bytes, &opts);
    }
}

#[test]
fn every_truncation_of_a_valid_image_is_ok_or_err() {
    for image in [fixture_bytes(), synthetic_bytes()] {
        for len in 0..=image.len() {
            load_both_ways(&image[..len]);
        }
    }
}

#[test]
fn valid_images_load() {
    assert_eq!(
        load("prog", &fixture_bytes(), &LoadOptions::default()).map(|_| ()),
        Ok(())
    );
    let allow = LoadOptions::PROGRAM;
    assert_eq!(load("prog", &synthetic_bytes(), &allow).map(|_| ()), Ok(()));
}

/// Applies (position, value) mutations, positions taken modulo the length.
fn mutate(mut image: Vec<u8>, mutations: &[(usize, u8)], window: usize) -> Vec<u8> {
    let len = image.len().min(window);
    for &(pos, value) in mutations {
        image[pos % len] = value;
    }
    image
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn mutated_header_and_program_headers_never_panic(
        mutations in prop::collection::vec((any::<usize>(), any::<u8>()), 1..8),
        synthetic in any::<bool>(),
    ) {
        let image = if synthetic { synthetic_bytes() } else { fixture_bytes() };
        // The first 0x100 bytes hold the ELF header and program headers.
        load_both_ways(&mutate(image, &mutations, 0x100));
    }

    #[test]
    fn mutated_anywhere_never_panics(
        mutations in prop::collection::vec((any::<usize>(), any::<u8>()), 1..16),
        synthetic in any::<bool>(),
    ) {
        let image = if synthetic { synthetic_bytes() } else { fixture_bytes() };
        load_both_ways(&mutate(image, &mutations, usize::MAX));
    }

    #[test]
    fn mutated_words_never_panic(
        words in prop::collection::vec((0usize..80, prop::sample::select(vec![0u32, 1, 0x7fff_ffff, 0x8000_0000, 0xffff_fff0, 0xffff_ffff, 0x34, 0x130])), 1..4),
    ) {
        // Whole 32-bit fields set to edge values, in the header and phdrs.
        let mut image = fixture_bytes();
        for (slot, value) in words {
            let offset = slot * 4 % (image.len() - 4);
            patch_u32(&mut image, offset, value);
        }
        load_both_ways(&image);
    }

    #[test]
    fn random_bytes_after_a_mips_ident_never_panic(tail in prop::collection::vec(any::<u8>(), 0..600)) {
        let mut image = vec![0x7f, b'E', b'L', b'F', 1, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 8];
        image.extend_from_slice(&tail);
        load_both_ways(&image);
    }
}
