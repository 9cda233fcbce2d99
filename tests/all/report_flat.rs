//! The flat profile and its text forms (src/report/flat.rs, src/report/text.rs).

use profile_formats::gmon::HistRecord;
use profile_formats::report::{
    flat_profile, flat_profile_with_exact, render_exact_comparison, render_text, FlatEntry, Symbol,
};

use crate::report_fixtures;
use report_fixtures::{entry, hist, sym};

/// Where the flat-profile tests' text starts.
const BASE: u32 = 0x0040_0000;

#[test]
fn samples_are_charged_to_the_function_holding_them_most_first_then_by_address() {
    let symbols = vec![
        sym("main", 0x400000, 8),
        sym("a", 0x400008, 8),
        sym("b", 0x400010, 8),
    ];
    let cases: Vec<(&str, Vec<u64>, Vec<FlatEntry>)> = vec![
        (
            "one bin per instruction",
            vec![1, 2, 4, 0, 3, 0],
            vec![
                entry("a", 0x400008, 0x400010, 4),
                entry("main", 0x400000, 0x400008, 3),
                entry("b", 0x400010, 0x400018, 3),
            ],
        ),
        (
            "functions without samples are left out",
            vec![0, 0, 0, 0, 9, 0],
            vec![entry("b", 0x400010, 0x400018, 9)],
        ),
        (
            "samples between symbols become a stretch named by its range",
            vec![1, 0, 0, 0, 0, 0, 5, 5],
            vec![
                entry("0x00400018-0x00400020", 0x400018, 0x400020, 10),
                entry("main", 0x400000, 0x400008, 1),
            ],
        ),
    ];
    for (what, bins, expected) in cases {
        assert_eq!(
            flat_profile(&[hist(BASE, bins)], &symbols),
            expected,
            "{what}"
        );
    }
}

#[test]
fn a_bin_straddling_two_functions_is_split_by_bytes_in_whole_counts() {
    // One 16-byte bin over f (12 bytes) and g (4 bytes): 7 samples -> 5 + 2
    // (cumulative rounding: floor(7*12/16) = 5, then 7 - 5).
    let h = HistRecord {
        low_pc: 0x400000,
        high_pc: 0x400010,
        rate_hz: 100,
        bins: vec![7],
    };
    let symbols = vec![sym("f", 0x400000, 12), sym("g", 0x40000c, 4)];
    assert_eq!(
        flat_profile(&[h], &symbols),
        vec![
            entry("f", 0x400000, 0x40000c, 5),
            entry("g", 0x40000c, 0x400010, 2)
        ]
    );
}

#[test]
fn a_symbol_without_size_runs_to_the_next_symbol_or_the_end_of_the_profile() {
    let symbols = vec![sym("start", 0x400000, 0), sym("loop", 0x400008, 0)];
    assert_eq!(
        flat_profile(&[hist(BASE, vec![1, 1, 3, 3])], &symbols),
        vec![
            entry("loop", 0x400008, 0x400010, 6),
            entry("start", 0x400000, 0x400008, 2)
        ]
    );
}

#[test]
fn aliases_at_one_address_are_charged_once_to_the_sized_symbol() {
    let symbols = vec![sym("_ftext", 0x400000, 0), sym("f", 0x400000, 8)];
    assert_eq!(
        flat_profile(&[hist(BASE, vec![2, 2])], &symbols),
        vec![entry("f", 0x400000, 0x400008, 4)]
    );
}

#[test]
fn the_text_report_has_gprof_flat_profile_columns() {
    let entries = vec![
        entry("f3", 0x400100, 0x400200, 600),
        entry("f2", 0x400000, 0x400100, 300),
        entry("0x00400a00-0x00400a40", 0x400a00, 0x400a40, 100),
    ];
    let mut out = Vec::new();
    render_text(&entries, 100, &mut out).unwrap();
    let expected = "\
Flat profile:

Each sample counts as 0.01 seconds.
  %   cumulative   self              
 time   seconds   seconds    samples  name
 60.00      6.00     6.00        600  f3
 30.00      9.00     3.00        300  f2
 10.00     10.00     1.00        100  0x00400a00-0x00400a40
";
    assert_eq!(String::from_utf8(out).unwrap(), expected);
}

#[test]
fn seconds_are_samples_over_the_rate() {
    let cases = vec![
        (100, "0.01", "1.00"),
        (1000, "0.001", "0.10"),
        (3, "0.333333", "33.33"),
    ];
    for (rate, per_sample, self_seconds) in cases {
        let mut out = Vec::new();
        render_text(&[entry("f", 0, 4, 100)], rate, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains(&format!("Each sample counts as {per_sample} seconds.")),
            "{text}"
        );
        let row = text.lines().last().unwrap();
        assert_eq!(row.split_whitespace().nth(2), Some(self_seconds), "{row}");
    }
}

#[test]
fn an_empty_profile_says_no_time_accumulated() {
    let mut out = Vec::new();
    render_text(&[], 100, &mut out).unwrap();
    assert!(String::from_utf8(out)
        .unwrap()
        .ends_with("\nNo time accumulated (no samples in the profile).\n"));
}

#[test]
fn exact_mode_shows_sampled_share_exact_share_and_difference() {
    let symbols = vec![sym("hot", 0x400000, 8), sym("cold", 0x400008, 8)];
    let sampled = hist(BASE, vec![3, 3, 4, 0]);
    let exact = HistRecord {
        rate_hz: 100_000_000,
        ..hist(BASE, vec![500, 250, 250, 0])
    };
    let entries = flat_profile_with_exact(&[sampled], &[exact], &symbols);
    assert_eq!(
        entries,
        vec![
            FlatEntry {
                exact_cycles: Some(750),
                ..entry("hot", 0x400000, 0x400008, 6)
            },
            FlatEntry {
                exact_cycles: Some(250),
                ..entry("cold", 0x400008, 0x400010, 4)
            },
        ]
    );
    let mut out = Vec::new();
    render_exact_comparison(&entries, &mut out).unwrap();
    let expected = "\
Sampled and exact profiles (exact: every retired cycle charged to its PC)

 sampled %   exact %  difference     samples          cycles  name
     60.00     75.00      -15.00           6             750  hot
     40.00     25.00      +15.00           4             250  cold

Sampling error: 15.00% of the samples fell on other functions than the cycles (half the sum of |difference|); 10 samples, 1000 cycles.
";
    assert_eq!(String::from_utf8(out).unwrap(), expected);
}

#[test]
fn exact_mode_keeps_functions_that_were_never_sampled() {
    let symbols = vec![sym("hot", 0x400000, 8), sym("quick", 0x400008, 8)];
    let entries = flat_profile_with_exact(
        &[hist(BASE, vec![3, 0, 0, 0])],
        &[hist(BASE, vec![90, 0, 10, 0])],
        &symbols,
    );
    assert_eq!(
        entries,
        vec![
            FlatEntry {
                exact_cycles: Some(90),
                ..entry("hot", 0x400000, 0x400008, 3)
            },
            FlatEntry {
                exact_cycles: Some(10),
                ..entry("quick", 0x400008, 0x400010, 0)
            },
        ]
    );
}

#[test]
fn a_label_inside_a_sized_function_does_not_split_it() {
    let symbols = vec![
        sym("f", 0x400000, 16),
        sym("$inner", 0x400008, 0),
        sym("after", 0x400010, 0),
    ];
    assert_eq!(
        flat_profile(&[hist(BASE, vec![1, 1, 1, 1, 2])], &symbols),
        vec![
            entry("f", 0x400000, 0x400010, 4),
            entry("after", 0x400010, 0x400014, 2)
        ]
    );
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn symbols() -> impl Strategy<Value = Vec<Symbol>> {
        proptest::collection::vec((0u32..0x200, 0u32..0x80, "[a-z]{1,3}"), 0..12).prop_map(|v| {
            v.into_iter()
                .map(|(off, size, name)| sym(&name, 0x400000 + off, size))
                .collect()
        })
    }

    proptest! {
        /// Every sample lands somewhere: a function or a named stretch.
        #[test]
        fn the_flat_profile_keeps_every_sample(
            bins in proptest::collection::vec(0u64..1000, 1..100),
            bytes_per_bin in 1u32..12,
            symbols in symbols(),
        ) {
            let n = bins.len() as u32;
            let h = HistRecord { low_pc: 0x400000, high_pc: 0x400000 + bytes_per_bin * n, rate_hz: 100, bins };
            let total = h.total();
            let entries = flat_profile(&[h], &symbols);
            prop_assert_eq!(entries.iter().map(|e| e.samples).sum::<u64>(), total);
            let mut out = Vec::new();
            render_text(&entries, 100, &mut out).unwrap();
        }
    }
}
