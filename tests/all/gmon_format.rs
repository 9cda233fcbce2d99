//! gmon.out encoding, parsing and rejection (src/gmon.rs), against the format in
//! docs/abi.md ("gmon.out").

use profile_formats::gmon::{
    check_histograms, encode_gmon, parse_gmon, read_gmon, write_gmon, GmonError, GmonFile,
    HistRecord, PcRange,
};
use proptest::prelude::*;

fn hist(low: u32, high: u32, bins: Vec<u64>) -> HistRecord {
    HistRecord {
        low_pc: low,
        high_pc: high,
        rate_hz: 100,
        bins,
    }
}

#[test]
fn header_is_magic_version_one_and_twelve_zero_bytes() {
    let bytes = encode_gmon(&[]);
    let mut expected = b"gmon".to_vec();
    expected.extend_from_slice(&[0, 0, 0, 1]);
    expected.extend_from_slice(&[0; 12]);
    assert_eq!(bytes, expected);
}

#[test]
fn histogram_record_layout_is_big_endian_with_seconds_dimension() {
    let bytes = encode_gmon(&[hist(0x0040_0000, 0x0040_0008, vec![0x0102, 3])]);
    let mut expected = Vec::new();
    expected.push(0u8); // tag: time histogram
    expected.extend_from_slice(&[0x00, 0x40, 0x00, 0x00]); // low_pc
    expected.extend_from_slice(&[0x00, 0x40, 0x00, 0x08]); // high_pc
    expected.extend_from_slice(&[0, 0, 0, 2]); // bin count
    expected.extend_from_slice(&[0, 0, 0, 100]); // rate
    expected.extend_from_slice(b"seconds\0\0\0\0\0\0\0\0"); // 15-byte dimension
    expected.push(b's');
    expected.extend_from_slice(&[0x01, 0x02, 0x00, 0x03]); // 16-bit bins
    assert_eq!(&bytes[20..], &expected[..]);
}

#[test]
fn round_trip_keeps_histograms() {
    let hists = vec![
        hist(0x0040_0000, 0x0040_0010, vec![1, 0, 7, 65535]),
        hist(0x0040_1000, 0x0040_1008, vec![0, 2]),
    ];
    let parsed = parse_gmon(&encode_gmon(&hists)).expect("parses");
    assert_eq!(
        parsed,
        GmonFile {
            histograms: hists,
            ..GmonFile::default()
        }
    );
}

#[test]
fn counts_above_65535_split_into_repeated_records_and_sum_back() {
    let counts = vec![65_535, 65_536, 200_000, 0];
    let hists = vec![hist(0x0040_0000, 0x0040_0010, counts.clone())];
    let bytes = encode_gmon(&hists);
    // ceil(200000 / 65535) = 4 records of 33 + 8 bytes each.
    assert_eq!(bytes.len(), 20 + 4 * (33 + 8));
    let parsed = parse_gmon(&bytes).expect("parses");
    assert_eq!(parsed.histograms[0].bins, counts);
}

#[test]
fn identical_input_gives_identical_bytes() {
    let hists = vec![hist(
        0x0040_0000,
        0x0040_0100,
        (0..64).map(|i| i * 3000).collect(),
    )];
    assert_eq!(encode_gmon(&hists), encode_gmon(&hists.clone()));
}

#[test]
fn call_arc_and_basic_block_records_are_parsed() {
    let mut bytes = encode_gmon(&[hist(0x400000, 0x400004, vec![5])]);
    bytes.push(1);
    bytes.extend_from_slice(&[0, 0x40, 0, 0x10, 0, 0x40, 0, 0x20, 0, 0, 0, 9]);
    bytes.push(2);
    bytes.extend_from_slice(&[0, 0, 0, 1, 0, 0x40, 0, 0x30, 0, 0, 0, 4]);
    let parsed = parse_gmon(&bytes).expect("parses");
    assert_eq!(parsed.arcs.len(), 1);
    assert_eq!(
        (
            parsed.arcs[0].from_pc,
            parsed.arcs[0].self_pc,
            parsed.arcs[0].count
        ),
        (0x400010, 0x400020, 9)
    );
    assert_eq!(parsed.basic_blocks.len(), 1);
    assert_eq!(
        (parsed.basic_blocks[0].addr, parsed.basic_blocks[0].count),
        (0x400030, 4)
    );
}

/// Each case: bytes, the exact message.
#[test]
fn malformed_files_are_rejected_with_exact_messages() {
    let good = encode_gmon(&[hist(0x0040_0000, 0x0040_1000, vec![1; 1024])]);
    let elf = b"\x7fELF\x01\x02\x01\0\0\0\0\0\0\0\0\0\0\x02\0\x08".to_vec();
    let mut version2 = good.clone();
    version2[7] = 2;
    let mut bad_tag = good.clone();
    bad_tag.push(7);
    let overlapping = encode_gmon(&[
        hist(0x0040_0000, 0x0040_1000, vec![1; 1024]),
        hist(0x0040_0800, 0x0040_1800, vec![1; 1024]),
    ]);
    let mixed = encode_gmon(&[
        hist(0x0040_0000, 0x0040_1000, vec![1; 1024]),
        hist(0x0040_2000, 0x0040_3000, vec![1; 512]),
    ]);
    let mut rates = encode_gmon(&[hist(0x0040_0000, 0x0040_0004, vec![1])]);
    rates.extend_from_slice(
        &encode_gmon(&[HistRecord {
            rate_hz: 50,
            ..hist(0x0040_1000, 0x0040_1004, vec![1])
        }])[20..],
    );
    let empty_range = encode_gmon(&[hist(0x0040_1000, 0x0040_0000, vec![1])]);
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "truncated in the histogram header",
            good[..40].to_vec(),
            "truncated histogram record at byte 40",
        ),
        (
            "truncated in the bins",
            good[..100].to_vec(),
            "truncated histogram record at byte 100",
        ),
        (
            "truncated in the file header",
            good[..12].to_vec(),
            "truncated header at byte 12",
        ),
        (
            "an ELF file given as gmon.out",
            elf,
            "not a gmon.out file (magic 7f 45 4c 46)",
        ),
        (
            "a short foreign file",
            b"\x00".to_vec(),
            "not a gmon.out file (magic 00)",
        ),
        (
            "another version",
            version2,
            "unsupported version 2 (irix-emu reads version 1)",
        ),
        (
            "an unknown tag",
            bad_tag,
            "unknown record tag 7 at byte 2101",
        ),
        (
            "partly overlapping ranges",
            overlapping,
            "histogram 0x400800-0x401800 partly overlaps 0x400000-0x401000",
        ),
        (
            "mixed bytes per bin",
            mixed,
            "histogram 0x402000-0x403000 has 8 bytes per bin but 0x400000-0x401000 has 4",
        ),
        (
            "mixed rates",
            rates,
            "histogram 0x401000-0x401004 is sampled at 50 Hz but 0x400000-0x400004 at 100 Hz",
        ),
        (
            "an inverted range",
            empty_range,
            "histogram 0x401000-0x400000 has an empty address range",
        ),
    ];
    for (what, bytes, message) in cases {
        let err = parse_gmon(&bytes).expect_err(what);
        assert_eq!(err.to_string(), message, "{what}");
    }
}

#[test]
fn a_call_arc_cut_short_is_a_truncated_call_arc_record() {
    let mut bytes = encode_gmon(&[]);
    bytes.extend_from_slice(&[1, 0, 0x40]);
    assert_eq!(
        parse_gmon(&bytes).unwrap_err().to_string(),
        "truncated call-arc record at byte 23"
    );
}

#[test]
fn a_forged_basic_block_count_is_truncation_not_an_allocation() {
    let mut bytes = encode_gmon(&[]);
    bytes.extend_from_slice(&[2, 0xff, 0xff, 0xff, 0xff]);
    assert_eq!(
        parse_gmon(&bytes).unwrap_err().to_string(),
        "truncated basic-block record at byte 25"
    );
}

#[test]
fn the_writer_refuses_what_gprof_would_reject() {
    let cases = vec![
        (
            vec![hist(0x400000, 0x400100, vec![])],
            "histogram 0x400000-0x400100 has no bins",
        ),
        (
            vec![hist(0x400000, 0x400002, vec![0; 4])],
            "histogram 0x400000-0x400002 has 4 bins for 2 bytes (less than a byte per bin)",
        ),
        (
            vec![HistRecord {
                rate_hz: 0,
                ..hist(0x400000, 0x400004, vec![0])
            }],
            "histogram 0x400000-0x400004 has a sampling rate of 0 Hz",
        ),
        (
            vec![
                hist(0x400000, 0x400010, vec![0; 4]),
                hist(0x400010, 0x400030, vec![0; 4]),
            ],
            "histogram 0x400010-0x400030 has 8 bytes per bin but 0x400000-0x400010 has 4",
        ),
        (
            vec![
                hist(0x400000, 0x400010, vec![0; 3]),
                hist(0x400010, 0x400020, vec![0; 4]),
            ],
            "histogram 0x400010-0x400020 has 4 bytes per bin but 0x400000-0x400010 has 16/3",
        ),
    ];
    for (hists, message) in cases {
        assert_eq!(check_histograms(&hists).unwrap_err().to_string(), message);
    }
}

#[test]
fn identical_ranges_written_twice_are_summed() {
    let hists = vec![
        hist(0x400000, 0x400008, vec![1, 2]),
        hist(0x400000, 0x400008, vec![10, 20]),
    ];
    check_histograms(&hists).expect("identical ranges are allowed");
    assert_eq!(
        parse_gmon(&encode_gmon(&hists)).unwrap().histograms,
        vec![hist(0x400000, 0x400008, vec![11, 22])]
    );
}

#[test]
fn a_histogram_outside_the_programs_text_is_a_mismatch() {
    let file = parse_gmon(&encode_gmon(&[hist(
        0x0040_0000,
        0x0040_1000,
        vec![1; 1024],
    )]))
    .unwrap();
    let err = file
        .check_against_text(
            "prog",
            PcRange {
                low: 0x0040_0000,
                high: 0x0040_0800,
            },
        )
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "histogram 0x400000-0x401000 does not match prog's text 0x400000-0x400800"
    );
    assert_eq!(
        err.in_file(std::path::Path::new("gmon.out")).to_string(),
        "gmon.out: histogram 0x400000-0x401000 does not match prog's text 0x400000-0x400800"
    );
    // A last bin overhanging the end of the text by less than a bin is fine.
    let file = parse_gmon(&encode_gmon(&[hist(
        0x0040_0000,
        0x0040_0808,
        vec![1; 0x202],
    )]))
    .unwrap();
    assert_eq!(
        file.check_against_text(
            "prog",
            PcRange {
                low: 0x0040_0000,
                high: 0x0040_0806
            }
        ),
        Ok(())
    );
    let empty = GmonFile::default();
    assert_eq!(
        empty.check_against_text("prog", PcRange { low: 0, high: 4 }),
        Err(GmonError::NoHistograms)
    );
}

#[test]
fn write_is_atomic_and_leaves_no_temporary_file() {
    let scratch = test_support::Scratch::new("gmon-write");
    let dir = scratch.path();
    let path = dir.join("gmon.out");
    let hists = vec![hist(0x400000, 0x400010, vec![1, 2, 3, 70_000])];
    write_gmon(&path, &hists).expect("writes");
    assert_eq!(read_gmon(&path).unwrap().histograms, hists);
    // A rejected profile leaves the previous file untouched.
    let err = write_gmon(&path, &[hist(0x400000, 0x400010, vec![])]).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}: histogram 0x400000-0x400010 has no bins",
            path.display()
        )
    );
    assert_eq!(read_gmon(&path).unwrap().histograms, hists);
    assert_eq!(scratch.names(), ["gmon.out"]);
    // An unwritable destination reports the path and leaves nothing behind.
    let missing = dir.join("no-such-dir").join("gmon.out");
    let err = write_gmon(&missing, &hists).unwrap_err();
    assert!(
        err.to_string()
            .starts_with(&format!("{}: cannot write: ", missing.display())),
        "{err}"
    );
}

proptest! {
    #[test]
    fn parse_never_panics_on_random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = parse_gmon(&bytes);
    }

    #[test]
    fn parse_never_panics_on_gmon_prefixed_bytes(tail in proptest::collection::vec(any::<u8>(), 0..200)) {
        let mut bytes = encode_gmon(&[]);
        bytes.extend_from_slice(&tail);
        let _ = parse_gmon(&bytes);
    }

    #[test]
    fn parse_never_panics_on_truncated_or_mutated_files(
        bins in proptest::collection::vec(0u64..200_000, 1..40),
        cut in any::<prop::sample::Index>(),
        flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
    ) {
        let n = bins.len() as u32;
        let mut bytes = encode_gmon(&[hist(0x400000, 0x400000 + 4 * n, bins)]);
        for (at, value) in flips {
            let i = at.index(bytes.len());
            bytes[i] = value;
        }
        let len = cut.index(bytes.len() + 1);
        let _ = parse_gmon(&bytes[..len]);
    }

    #[test]
    fn round_trip_of_any_valid_histogram(
        bins in proptest::collection::vec(0u64..300_000, 1..64),
        bytes_per_bin in 1u32..16,
    ) {
        let n = bins.len() as u32;
        let hists = vec![hist(0x400000, 0x400000 + bytes_per_bin * n, bins)];
        prop_assert_eq!(parse_gmon(&encode_gmon(&hists)).unwrap().histograms, hists);
    }
}
