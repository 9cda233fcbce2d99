//! `irix-emu prof` of a dynamic program: every sample goes to the object
//! holding the PC (the program, the interpreter, a library) and to the
//! function within it, named `function@object` outside the program; the
//! per-object totals add up to every sample; gmon.out stays the program's.
//! The program is irix-emu's own dynamic guest (guest/bin/dynroot), run at
//! 1 MHz with 1 ms ticks so that its short run is sampled in all three.

use crate::common;

use common::{dynroot, flat_profile_lines, run_emu, Scratch, Status};

/// Runs `prof` on dyn_hello with `extra` options; returns stderr.
fn prof_hello(extra: &[&str], dir: &Scratch) -> String {
    let root = dynroot().expect("checked by the caller");
    let root_s = root.display().to_string();
    let prog = root.join("bin/dyn_hello").display().to_string();
    let gmon = dir.path().join("gmon.out").display().to_string();
    let mut args = vec![
        "prof",
        "--root",
        &root_s,
        "--cpu-mhz",
        "1",
        "--fast",
        "-o",
        &gmon,
    ];
    args.extend_from_slice(extra);
    args.push(&prog);
    let r = run_emu(args, dir.path());
    assert_eq!(r.status, Status::Code(42), "stderr: {}", r.stderr);
    r.stderr
}

/// `(samples, object)` of each per-object line.
fn object_lines(text: &str) -> Vec<(u64, String)> {
    text.lines()
        .skip_while(|l| !l.starts_with("Samples per object"))
        .skip(3)
        .take_while(|l| !l.is_empty() && !l.starts_with("irix-emu:"))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[1].parse().unwrap(), f[2].to_string())
        })
        .collect()
}

fn total_line_samples(text: &str) -> u64 {
    let line = text
        .lines()
        .find(|l| l.starts_with("irix-emu: ") && l.contains(" samples at "))
        .expect("the closing line");
    line["irix-emu: ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn every_sample_is_charged_to_the_object_and_function_holding_the_pc() {
    if dynroot().is_none() {
        return;
    }
    let dir = Scratch::new("dso-prof");
    let err = prof_hello(&[], &dir);
    let flat = flat_profile_lines(&err);
    let objects = object_lines(&err);
    let all = total_line_samples(&err);
    assert!(all > 0, "{err}");
    assert_eq!(flat.iter().map(|f| f.0).sum::<u64>(), all, "{err}");
    assert_eq!(objects.iter().map(|o| o.0).sum::<u64>(), all, "{err}");
    let names: Vec<&str> = objects.iter().map(|o| o.1.as_str()).collect();
    assert_eq!(names[0], "dyn_hello", "the program first: {err}");
    assert!(
        names.contains(&"ld.so"),
        "the interpreter is sampled: {err}"
    );
    // Each object's functions, by their suffix, add up to its total; every
    // one is a named function (no unsymbolised address range).
    for (samples, object) in &objects {
        let suffix = format!("@{object}");
        let of_object: u64 = flat
            .iter()
            .filter(|(_, n)| {
                if object == "dyn_hello" {
                    !n.contains('@')
                } else {
                    n.ends_with(&suffix)
                }
            })
            .map(|f| f.0)
            .sum();
        assert_eq!(of_object, *samples, "{object}: {err}");
    }
    for (_, name) in &flat {
        assert!(!name.starts_with("0x"), "unnamed stretch {name}: {err}");
    }
    // A function charged to an object is one of that object's symbols.
    let root = dynroot().unwrap();
    for (_, name) in flat.iter().filter(|(_, n)| n.contains('@')) {
        let (function, object) = name.split_once('@').unwrap();
        let bytes = std::fs::read(root.join("lib").join(object)).expect(object);
        let wanted = format!("\0{function}\0");
        assert!(
            bytes.windows(wanted.len()).any(|w| w == wanted.as_bytes()),
            "{function} is not a symbol of {object}"
        );
    }
}

#[test]
fn gmon_out_covers_the_program_only() {
    if dynroot().is_none() {
        return;
    }
    let dir = Scratch::new("dso-gmon");
    let err = prof_hello(&[], &dir);
    let program: u64 = flat_profile_lines(&err)
        .iter()
        .filter(|(_, n)| !n.contains('@'))
        .map(|f| f.0)
        .sum();
    let root = dynroot().unwrap();
    let prog = root.join("bin/dyn_hello").display().to_string();
    let r = run_emu(
        ["report", "--format", "json", &prog, "gmon.out"],
        dir.path(),
    );
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    let doc = r.stdout_text();
    assert!(
        doc.contains(&format!("\"total_samples\": {program},")),
        "gmon.out holds the program's {program} samples: {doc}"
    );
    assert!(!doc.contains('@'), "no other object in gmon.out: {doc}");
}

#[test]
fn json_carries_every_object_and_function() {
    if dynroot().is_none() {
        return;
    }
    let dir = Scratch::new("dso-json");
    let text = prof_hello(&[], &dir);
    let json = prof_hello(&["--format", "json"], &dir);
    for (samples, name) in flat_profile_lines(&text) {
        assert!(
            json.contains(&format!("{{\"name\": \"{name}\", "))
                && json.contains(&format!("\"samples\": {samples}")),
            "{name} ({samples}) in the JSON: {json}"
        );
    }
    for (samples, object) in object_lines(&text) {
        assert!(
            json.contains(&format!("{{\"name\": \"{object}\", \"path\": ")),
            "object {object} in the JSON: {json}"
        );
        assert!(json.contains(&format!("\"samples\": {samples}, \"percent\"")));
    }
    assert!(json.contains("\"path\": \"/lib/ld.so\""), "{json}");
}
