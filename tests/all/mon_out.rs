//! `irix-emu report` reads IRIX mon.out files (docs/mon-out.md), told from
//! gmon.out by content, in every output format. The files are written here
//! from the documented layouts: the multi-segment one (a header, a segment
//! header per text segment, a string section, the counter buffers) with
//! 2- and 4-byte counters, and the single-segment one of
//! cmplrs/prof_header.h.

use crate::common;

use std::path::{Path, PathBuf};

use common::{flat_profile_lines, guest_program, run_emu, Scratch, Status};
use profile_formats::monout::{parse_mon_out, MonOutError};

/// One segment to write: its text, counter size and scale, counts per
/// counter index, and names.
struct Seg<'a> {
    path: &'a str,
    name: &'a str,
    text: u32,
    size: u32,
    scale: u64,
    counts: &'a [(usize, u64)],
}

fn put64(out: &mut [u8], at: usize, v: u64) {
    out[at..at + 8].copy_from_slice(&v.to_be_bytes());
}

/// A 64-bit union field holding a 32-bit offset: its first four bytes.
fn put_off(out: &mut [u8], at: usize, v: u32) {
    out[at..at + 4].copy_from_slice(&v.to_be_bytes());
}

/// The multi-segment layout: header (184 bytes), segment headers (112 each),
/// strings, then each buffer, 16-byte aligned.
fn segmented(count_size: u64, interval_us: u64, program: &str, segs: &[Seg]) -> Vec<u8> {
    let table = 192usize;
    let strtab = table + 112 * segs.len();
    let mut strings = Vec::new();
    let mut string = |s: &str| {
        let at = strings.len() as u32;
        strings.extend_from_slice(s.as_bytes());
        strings.push(0);
        at
    };
    let prog_name = string(program);
    let names: Vec<(u32, u32)> = segs
        .iter()
        .map(|s| (string(s.path), string(s.name)))
        .collect();
    let mut at = (strtab + strings.len()).div_ceil(16) * 16;
    let mut file = vec![0u8; at];
    file[0..4].copy_from_slice(&0x0f0e_0030u32.to_be_bytes());
    file[4] = 2; // libprof
    file[5] = 4;
    file[8] = 2; // format 2
    put64(&mut file, 24, count_size);
    put_off(&mut file, 32, table as u32);
    put64(&mut file, 40, segs.len() as u64);
    put_off(&mut file, 48, strtab as u32);
    put64(&mut file, 56, interval_us);
    put64(&mut file, 88, 1);
    put_off(&mut file, 104, prog_name);
    put64(&mut file, 112, 1234);
    put64(&mut file, 120, 1234);
    file[strtab..strtab + strings.len()].copy_from_slice(&strings);
    for (i, (s, &(path, name))) in segs.iter().zip(&names).enumerate() {
        let h = table + 112 * i;
        let buf_size = (u64::from(s.size) * s.scale / 0x10000) as usize;
        put_off(&mut file, h, path);
        put_off(&mut file, h + 8, name);
        put64(&mut file, h + 16, u64::from(s.text));
        put64(&mut file, h + 24, u64::from(s.size));
        put_off(&mut file, h + 32, at as u32);
        put64(&mut file, h + 40, buf_size as u64);
        put64(&mut file, h + 56, s.scale);
        put64(&mut file, h + 96, 1);
        let mut buf = vec![0u8; buf_size];
        for &(index, n) in s.counts {
            let c = count_size as usize;
            buf[index * c..index * c + c].copy_from_slice(&n.to_be_bytes()[8 - c..]);
        }
        file.extend_from_slice(&buf);
        at += buf_size;
        file.resize(at.div_ceil(16) * 16, 0);
        at = file.len();
    }
    file
}

/// The single-segment layout: option word, low_pc, high_pc, pc buffer
/// bytes, count buffer bytes, then 4-byte counters.
fn single(low: u32, high: u32, counts: &[(usize, u32)]) -> Vec<u8> {
    let n = ((high - low) / 4) as usize;
    let mut file = Vec::new();
    for w in [0x0f0e_0001u32, low, high, (n * 4) as u32, 0] {
        file.extend_from_slice(&w.to_be_bytes());
    }
    let mut buf = vec![0u32; n];
    for &(i, c) in counts {
        buf[i] = c;
    }
    for c in buf {
        file.extend_from_slice(&c.to_be_bytes());
    }
    file
}

/// The workload program, its text range and two of its functions.
struct Program {
    path: PathBuf,
    text: (u32, u32),
    main: u32,
    other: (String, u32),
}

fn program() -> Option<Program> {
    let path = guest_program("irix", "workload")?;
    let bytes = std::fs::read(&path).unwrap();
    let exe = loader::load("workload", &bytes, &loader::LoadOptions::STATIC).unwrap();
    let text = exe.text_ranges()[0];
    let funcs = irix_emu::program::functions_of(&exe);
    let main = funcs.iter().find(|s| s.name == "main").unwrap().addr;
    let other = funcs
        .iter()
        .find(|s| s.name != "main" && s.size >= 8 && !s.name.starts_with('_'))
        .map(|s| (s.name.clone(), s.addr))
        .unwrap();
    Some(Program {
        path,
        text,
        main,
        other,
    })
}

fn report(dir: &Path, extra: &[&str], prog: &Path, file: &str) -> common::Run {
    let p = prog.display().to_string();
    let mut args = vec!["report"];
    args.extend_from_slice(extra);
    args.extend([p.as_str(), file]);
    run_emu(args, dir)
}

#[test]
fn a_segmented_mon_out_gives_samples_per_function_with_either_counter_size() {
    let Some(p) = program() else { return };
    let dir = Scratch::new("monout-seg");
    let (lo, hi) = p.text;
    // (counter bytes, scale for one counter per instruction)
    for (count_size, scale) in [(4u64, 0x10000u64), (2, 0x8000)] {
        let main_i = ((p.main - lo) / 4) as usize;
        let other_i = ((p.other.1 - lo) / 4) as usize;
        let counts = [
            (main_i, 70_000u64.min((1 << (8 * count_size)) - 1)),
            (other_i, 25),
            (other_i + 1, 5),
        ];
        let file = segmented(
            count_size,
            10_000,
            "workload",
            &[Seg {
                path: "workload",
                name: "workload",
                text: lo,
                size: hi - lo,
                scale,
                counts: &counts,
            }],
        );
        dir.write("mon.out", &file);
        let r = report(dir.path(), &[], &p.path, "mon.out");
        assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
        let out = r.stdout_text();
        assert!(out.contains("Each sample counts as 0.01 seconds."), "{out}");
        assert_eq!(
            flat_profile_lines(&out),
            vec![(counts[0].1, "main".to_string()), (30, p.other.0.clone())],
            "count size {count_size}: {out}"
        );
    }
}

#[test]
fn the_sampling_interval_sets_the_rate() {
    let Some(p) = program() else { return };
    let dir = Scratch::new("monout-rate");
    let (lo, hi) = p.text;
    let counts = [(((p.main - lo) / 4) as usize, 7)];
    let file = segmented(
        4,
        1_000,
        "workload",
        &[Seg {
            path: "workload",
            name: "workload",
            text: lo,
            size: hi - lo,
            scale: 0x10000,
            counts: &counts,
        }],
    );
    dir.write("mon.out", &file);
    let r = report(dir.path(), &["--format", "json"], &p.path, "mon.out");
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    let out = r.stdout_text();
    assert!(out.contains("\"rate_hz\": 1000,"), "{out}");
    assert!(out.contains("\"name\": \"main\""), "{out}");
    assert!(out.contains("\"samples\": 7,"), "{out}");
}

#[test]
fn shared_object_segments_are_totalled_and_named_from_the_root() {
    let Some(p) = program() else { return };
    let Some(dynroot) = common::dynroot() else {
        return;
    };
    let lib = std::fs::read(dynroot.join("lib/libgreet.so")).unwrap();
    let lib_exe = loader::load("libgreet.so", &lib, &loader::LoadOptions::INTERPRETER).unwrap();
    let (llo, lhi) = lib_exe.text_ranges()[0];
    // Where the library ran: moved to 0x30000000 as its link address is 0.
    let at = 0x3000_0000u32;
    let lib_funcs = irix_emu::program::functions_at(&lib_exe, at);
    let add = lib_funcs.iter().find(|s| s.name == "greet_add").unwrap();
    let (lo, hi) = p.text;
    let file = segmented(
        4,
        10_000,
        "workload",
        &[
            Seg {
                path: "workload",
                name: "workload",
                text: lo,
                size: hi - lo,
                scale: 0x10000,
                counts: &[(((p.main - lo) / 4) as usize, 6)],
            },
            Seg {
                path: "/lib/libgreet.so",
                name: "libgreet.so",
                text: at,
                size: lhi - llo,
                scale: 0x10000,
                counts: &[(((add.addr - at) / 4) as usize, 4)],
            },
        ],
    );
    let dir = Scratch::new("monout-dso");
    dir.write("mon.out", &file);
    let root = dynroot.display().to_string();
    let r = report(dir.path(), &["--root", &root], &p.path, "mon.out");
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    let out = r.stdout_text();
    assert_eq!(
        flat_profile_lines(&out),
        vec![
            (6, "main".to_string()),
            (4, "greet_add@libgreet.so".to_string())
        ],
        "{out}"
    );
    assert!(out.contains("libgreet.so (/lib/libgreet.so)"), "{out}");
    // Without the root the library's samples stay, named by address.
    let r = report(dir.path(), &["--format", "json"], &p.path, "mon.out");
    let json = r.stdout_text();
    assert!(json.contains("\"objects\": ["), "{json}");
    assert!(
        json.contains(
            "{\"name\": \"libgreet.so\", \"path\": \"/lib/libgreet.so\", \"samples\": 4,"
        ),
        "{json}"
    );
    let r = report(
        dir.path(),
        &["--format", "folded", "--root", &root],
        &p.path,
        "mon.out",
    );
    assert_eq!(
        r.stdout_text(),
        format!(
            "{0};main 6\n{0};greet_add@libgreet.so 4\n",
            p.path.display()
        )
    );
}

#[test]
fn the_single_segment_layout_of_prof_header_h_is_read() {
    let Some(p) = program() else { return };
    let dir = Scratch::new("monout-old");
    let (lo, hi) = p.text;
    dir.write(
        "mon.out",
        &single(lo, hi, &[(((p.main - lo) / 4) as usize, 9)]),
    );
    let r = report(dir.path(), &[], &p.path, "mon.out");
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    assert_eq!(
        flat_profile_lines(&r.stdout_text()),
        vec![(9, "main".to_string())]
    );
}

#[test]
fn a_damaged_mon_out_is_one_line_and_status_125() {
    let Some(p) = program() else { return };
    let dir = Scratch::new("monout-bad");
    let (lo, hi) = p.text;
    let good = segmented(
        4,
        10_000,
        "workload",
        &[Seg {
            path: "workload",
            name: "workload",
            text: lo,
            size: hi - lo,
            scale: 0x10000,
            counts: &[(0, 1)],
        }],
    );
    let mut bad_size = good.clone();
    put64(&mut bad_size, 24, 3);
    let mut bad_interval = good.clone();
    put64(&mut bad_interval, 56, 0);
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "truncated",
            good[..good.len() - 8].to_vec(),
            "truncated mon.out",
        ),
        ("header only", good[..100].to_vec(), "truncated mon.out"),
        ("counter size", bad_size, "counter size 3"),
        ("interval", bad_interval, "sampling interval 0"),
        (
            "no samples",
            single(lo, hi, &[])
                .iter()
                .enumerate()
                .map(|(i, &b)| if i == 3 { 0x04 } else { b })
                .collect(),
            "without pc samples",
        ),
    ];
    for (case, bytes, message) in cases {
        dir.write("mon.out", &bytes);
        let r = report(dir.path(), &[], &p.path, "mon.out");
        assert_eq!(r.status, Status::Code(125), "{case}");
        let lines = r.stderr_lines();
        assert_eq!(lines.len(), 1, "{case}: {}", r.stderr);
        assert!(
            lines[0].starts_with("irix-emu: mon.out: ") && lines[0].contains(message),
            "{case}: {}",
            r.stderr
        );
    }
}

#[test]
fn the_parser_never_panics_on_cut_files() {
    let file = segmented(
        2,
        10_000,
        "p",
        &[Seg {
            path: "p",
            name: "p",
            text: 0x40_0000,
            size: 0x100,
            scale: 0x8000,
            counts: &[(3, 2)],
        }],
    );
    for len in 0..file.len() {
        let _ = parse_mon_out(&file[..len]);
    }
    let whole = parse_mon_out(&file).unwrap();
    assert_eq!(whole.segments[0].hist.bins[3], 2);
    assert_eq!(whole.segments[0].hist.high_pc, 0x40_0100);
    assert_eq!(whole.pid, 1234);
    assert_eq!(whole.program, "p");
    assert!(matches!(
        parse_mon_out(b"gmon"),
        Err(MonOutError::Truncated { .. })
    ));
}
