//! The other report formats: folded stacks, JSON, SVG, annotated disassembly
//! (src/report/{folded,json,svg,annotate}.rs).

use profile_formats::gmon::HistRecord;
use profile_formats::report::{
    find_function, flat_profile, flat_profile_with_exact, render_annotate, render_folded,
    render_json, render_svg, LineEntry, Symbol,
};

use crate::report_fixtures;
use report_fixtures::{entry, hist, sym};

fn render<F: FnOnce(&mut Vec<u8>) -> std::io::Result<()>>(f: F) -> String {
    let mut out = Vec::new();
    f(&mut out).expect("render");
    String::from_utf8(out).expect("utf-8")
}

#[test]
fn folded_lines_are_name_then_count_optionally_under_the_program() {
    let entries = vec![
        entry("f3", 0x400100, 0x400200, 600),
        entry("f;odd", 0x400000, 0x400100, 3),
        entry("idle", 0, 4, 0),
    ];
    let cases = vec![
        (None, "f3 600\nf:odd 3\n"),
        (Some("prog"), "prog;f3 600\nprog;f:odd 3\n"),
    ];
    for (program, expected) in cases {
        assert_eq!(render(|o| render_folded(&entries, program, o)), expected);
    }
}

#[test]
fn json_lists_functions_with_samples_seconds_and_percent() {
    let entries = vec![
        entry("f3", 0x400100, 0x400200, 600),
        entry("say \"hi\"\n", 0x400000, 0x400100, 400),
    ];
    let expected = r#"{
  "rate_hz": 100,
  "seconds_per_sample": 0.01,
  "total_samples": 1000,
  "functions": [
    {"name": "f3", "start": 4194560, "end": 4194816, "samples": 600, "seconds": 6, "percent": 60},
    {"name": "say \"hi\"\n", "start": 4194304, "end": 4194560, "samples": 400, "seconds": 4, "percent": 40}
  ]
}
"#;
    assert_eq!(render(|o| render_json(&entries, 100, None, o)), expected);
}

#[test]
fn json_carries_exact_shares_and_lines_when_present() {
    let symbols = vec![sym("hot", 0x400000, 8)];
    let entries = flat_profile_with_exact(
        &[hist(0x400000, vec![1, 1])],
        &[hist(0x400000, vec![10, 10])],
        &symbols,
    );
    let lines = vec![LineEntry {
        file: "prog.c".to_string(),
        line: 3,
        samples: 2,
    }];
    let expected = r#"{
  "rate_hz": 100,
  "seconds_per_sample": 0.01,
  "total_samples": 2,
  "total_cycles": 20,
  "functions": [
    {"name": "hot", "start": 4194304, "end": 4194312, "samples": 2, "seconds": 0.02, "percent": 100, "exact_cycles": 20, "exact_percent": 100, "difference": 0}
  ],
  "lines": [
    {"file": "prog.c", "line": 3, "samples": 2, "seconds": 0.02, "percent": 100}
  ]
}
"#;
    assert_eq!(
        render(|o| render_json(&entries, 100, Some(&lines), o)),
        expected
    );
}

#[test]
fn json_of_an_empty_profile_is_still_a_document() {
    assert_eq!(
        render(|o| render_json(&[], 100, None, o)),
        "{\n  \"rate_hz\": 100,\n  \"seconds_per_sample\": 0.01,\n  \"total_samples\": 0,\n  \"functions\": []\n}\n"
    );
}

/// Parse as XML and return the document's text.
fn check_svg(svg: &str) -> roxmltree::Document<'_> {
    assert!(
        svg.starts_with("<svg"),
        "starts with <svg: {}",
        &svg[..40.min(svg.len())]
    );
    let doc = roxmltree::Document::parse(svg).expect("well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    // Self-contained: nothing fetched from elsewhere.
    for node in doc.descendants().filter(|n| n.is_element()) {
        assert!(
            !["image", "script", "use", "a", "foreignObject", "style"]
                .contains(&node.tag_name().name()),
            "{:?}",
            node
        );
        for attr in node.attributes() {
            assert!(!attr.name().contains("href"), "{attr:?}");
            assert!(!attr.value().contains("url("), "{attr:?}");
        }
    }
    doc
}

fn texts<'a>(doc: &'a roxmltree::Document<'_>) -> Vec<&'a str> {
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .collect()
}

#[test]
fn svg_is_well_formed_self_contained_and_labels_the_functions() {
    let symbols = vec![
        sym("main", 0x400000, 16),
        sym("a<b>&c", 0x400010, 16),
        sym("cold", 0x400020, 16),
    ];
    let h = hist(0x400000, vec![1, 2, 3, 4, 9, 9, 0, 1, 0, 0, 0, 0]);
    let svg = render(|o| render_svg(&[h], &symbols, o));
    let doc = check_svg(&svg);
    let labels = texts(&doc);
    assert!(labels.contains(&"main"), "{labels:?}");
    assert!(labels.contains(&"a<b>&c"), "{labels:?}");
    assert!(
        !labels.contains(&"cold"),
        "functions without samples are not labelled: {labels:?}"
    );
    assert!(
        labels.contains(&"0x00400000") && labels.contains(&"0x00400030"),
        "{labels:?}"
    );
}

#[test]
fn svg_of_many_bins_and_disjoint_histograms_stays_well_formed() {
    let symbols: Vec<Symbol> = (0..500)
        .map(|i| sym(&format!("f{i}"), 0x400000 + 64 * i, 64))
        .collect();
    let big = hist(0x400000, (0..8000).map(|i| (i * 7919) % 13).collect());
    let far = hist(0x500000, vec![5; 100]);
    let doc_text = render(|o| render_svg(&[far, big], &symbols, o));
    let doc = check_svg(&doc_text);
    let bars = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("fill") == Some("#3465a4"))
        .count();
    assert!(
        bars <= 1120,
        "bins are summed into at most one column per pixel: {bars}"
    );
    let empty = render(|o| render_svg(&[], &symbols, o));
    assert!(texts(&check_svg(&empty)).contains(&"no samples"));
}

#[test]
fn annotate_lists_each_instruction_with_its_samples() {
    let symbols = vec![sym("f", 0x400000, 12), sym("g", 0x40000c, 4)];
    let f = find_function(&symbols, "f").expect("f");
    let code = vec![
        (0x400000, 0x27bdffe8),
        (0x400004, 0x00000000),
        (0x400008, 0x03e00008),
    ];
    // 2-byte bins, as profil's scale 0x10000 gives: two per instruction.
    let h = HistRecord {
        low_pc: 0x400000,
        high_pc: 0x400010,
        rate_hz: 100,
        bins: vec![1, 2, 0, 0, 5, 2, 9, 9],
    };
    let listing = render(|o| {
        render_annotate(
            f,
            &code,
            &[h],
            100,
            |word, pc| format!("op{word:x}@{pc:x}"),
            o,
        )
    });
    let expected = "\
Annotation of f (0x00400000-0x0040000c): 10 samples, 0.10 seconds
   samples       %   address  word      instruction
         3   30.00  00400000: 27bdffe8  op27bdffe8@400000
         .          00400004: 00000000  op0@400004
         7   70.00  00400008: 03e00008  op3e00008@400008
";
    assert_eq!(listing, expected);
    assert_eq!(find_function(&symbols, "nope"), None);
}

#[test]
fn flat_profile_feeds_every_format_consistently() {
    let symbols = vec![sym("a", 0x400000, 8), sym("b", 0x400008, 8)];
    let entries = flat_profile(&[hist(0x400000, vec![1, 0, 2, 2])], &symbols);
    assert_eq!(render(|o| render_folded(&entries, None, o)), "b 4\na 1\n");
}

#[test]
fn svg_shortens_long_labels_but_keeps_the_full_name_in_the_tooltip() {
    let long = "a_very_long_function_name_from_some_library";
    let svg = render(|o| render_svg(&[hist(0x400000, vec![4, 4])], &[sym(long, 0x400000, 8)], o));
    let doc = check_svg(&svg);
    assert!(
        texts(&doc).contains(&"a_very_long_function_name…"),
        "{:?}",
        texts(&doc)
    );
    let titles: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("title"))
        .filter_map(|n| n.text())
        .collect();
    assert!(
        titles.contains(&format!("{long} 0x00400000-0x00400008: 8 samples").as_str()),
        "{titles:?}"
    );
}
