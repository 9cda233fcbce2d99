//! Reports against a real MIPS ELF compiled at test time, checked against GNU
//! gprof for MIPS. Needs mips-linux-gnu-gcc and mips-linux-gnu-gprof: without
//! them the tests print "SKIP: ..." and pass, unless IRIX_EMU_REQUIRE_TOOLS=1
//! (test_support::tools).

use std::path::{Path, PathBuf};
use std::process::Command;

use test_support::tools::require_tool;
use test_support::Scratch;

use goblin::elf::{sym::STT_FUNC, Elf};
use irix_emu::program::{code_of, functions_of, texts_of};
use profile_formats::gmon::{read_gmon, write_gmon, HistRecord};
use profile_formats::report::{
    find_function, flat_profile, line_profile, render_annotate, source_lines, SourceLine, Symbol,
};

/// The guest program: four functions of different sizes, one of them local.
const PROGRAM_C: &str = r#"
int acc;
__attribute__((noinline)) void f2(int n) { for (int i = 0; i < n; i++) acc += i * 3; }
__attribute__((noinline)) int f3(int a, int b) { int r = 0; while (a > b) { r += a % 7; a -= b + 1; } return r; }
__attribute__((noinline)) static int f4(int x) { return x * x + acc; }
void f1(void) { f2(10); acc += f3(100, 3); acc += f4(acc); for (;;) ; }
"#;

/// Compiles PROGRAM_C into `dir/prog`: static, no PIC, text at 0x400000,
/// entry f1, with -O1 -g.
fn compile_program(dir: &Path) -> PathBuf {
    let src = dir.join("prog.c");
    let prog = dir.join("prog");
    std::fs::write(&src, PROGRAM_C).expect("write prog.c");
    let status = Command::new("mips-linux-gnu-gcc")
        .args([
            "-march=mips3",
            "-mabi=32",
            "-mno-abicalls",
            "-fno-pic",
            "-G0",
            "-nostdlib",
            "-static",
        ])
        .args([
            "-Wl,-Ttext-segment=0x400000",
            "-Wl,-e,f1",
            "-O1",
            "-g",
            "-o",
        ])
        .arg(&prog)
        .arg(&src)
        .status()
        .expect("run mips-linux-gnu-gcc");
    assert!(status.success(), "mips-linux-gnu-gcc failed");
    prog
}

/// The address of any symbol called `name` (gprof may name a function by an
/// alias at the same address, e.g. the linker's global `_ftext` for a local `f4`).
fn symbol_address(bytes: &[u8], name: &str) -> Option<u32> {
    let elf = Elf::parse(bytes).expect("parse ELF");
    elf.syms
        .iter()
        .find(|s| elf.strtab.get_at(s.st_name) == Some(name))
        .map(|s| s.st_value as u32)
}

/// The function symbols and the .text range of an ELF.
fn functions_and_text(bytes: &[u8]) -> (Vec<Symbol>, (u32, u32)) {
    let elf = Elf::parse(bytes).expect("parse ELF");
    let symbols = elf
        .syms
        .iter()
        .filter(|s| s.st_type() == STT_FUNC)
        .map(|s| Symbol {
            name: elf.strtab.get_at(s.st_name).unwrap_or("").to_string(),
            addr: s.st_value as u32,
            size: s.st_size as u32,
        })
        .collect();
    let text = elf
        .section_headers
        .iter()
        .find(|sh| elf.shdr_strtab.get_at(sh.sh_name) == Some(".text"))
        .expect(".text");
    (
        symbols,
        (text.sh_addr as u32, (text.sh_addr + text.sh_size) as u32),
    )
}

/// A 4-bytes-per-bin histogram over `text` with `samples` spread over each named function.
fn synthesise(symbols: &[Symbol], text: (u32, u32), samples: &[(&str, u64)]) -> HistRecord {
    let bins_len = ((text.1 - text.0) / 4) as usize;
    let mut bins = vec![0u64; bins_len];
    for (name, count) in samples {
        let s = symbols.iter().find(|s| s.name == *name).expect("symbol");
        let first = ((s.addr - text.0) / 4) as usize;
        let n = (s.size / 4) as u64;
        for k in 0..n {
            bins[first + k as usize] += count / n + u64::from(k < count % n);
        }
    }
    HistRecord {
        low_pc: text.0,
        high_pc: text.0 + 4 * bins_len as u32,
        rate_hz: 100,
        bins,
    }
}

/// (name, self seconds) rows of `gprof -b -p`.
fn gprof_flat(prog: &Path, gmon: &Path) -> Vec<(String, f64)> {
    let out = Command::new("mips-linux-gnu-gprof")
        .arg("-b")
        .arg("-p")
        .arg(prog)
        .arg(gmon)
        .output()
        .expect("run gprof");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "gprof failed: {}{}",
        text,
        String::from_utf8_lossy(&out.stderr)
    );
    text.lines()
        .filter_map(|line| {
            let cols: Vec<&str> = line.split_whitespace().collect();
            let numeric = cols.len() >= 4 && cols[..3].iter().all(|c| c.parse::<f64>().is_ok());
            numeric.then(|| (cols[cols.len() - 1].to_string(), cols[2].parse().unwrap()))
        })
        .collect()
}

#[test]
fn gprof_ranks_the_same_functions_and_agrees_on_total_samples() {
    if !require_tool("mips-linux-gnu-gcc") || !require_tool("mips-linux-gnu-gprof") {
        return;
    }
    let scratch = Scratch::new("gprof");
    let dir = scratch.path();
    let prog = compile_program(dir);
    let elf_bytes = std::fs::read(&prog).unwrap();
    let (symbols, text) = functions_and_text(&elf_bytes);
    // f3 above 65,535 so that the writer must split it over repeated records.
    let hist = synthesise(
        &symbols,
        text,
        &[("f3", 70_000), ("f2", 300), ("f4", 120), ("f1", 5)],
    );
    let gmon = dir.join("gmon.out");
    write_gmon(&gmon, std::slice::from_ref(&hist)).expect("write gmon.out");

    let ours = flat_profile(&[hist], &symbols);
    let theirs = gprof_flat(&prog, &gmon);
    let our_names: Vec<&str> = ours.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(our_names, vec!["f3", "f2", "f4", "f1"]);
    let our_addrs: Vec<Option<u32>> = ours.iter().map(|e| Some(e.start)).collect();
    let their_addrs: Vec<Option<u32>> = theirs
        .iter()
        .map(|(n, _)| symbol_address(&elf_bytes, n))
        .collect();
    assert_eq!(their_addrs, our_addrs, "gprof ranked {theirs:?}");
    let our_total: u64 = ours.iter().map(|e| e.samples).sum();
    let their_total: u64 = theirs.iter().map(|(_, s)| (s * 100.0).round() as u64).sum();
    assert_eq!(our_total, 70_425);
    assert_eq!(their_total, our_total);
    let our_samples: Vec<u64> = ours.iter().map(|e| e.samples).collect();
    let their_samples: Vec<u64> = theirs
        .iter()
        .map(|(_, s)| (s * 100.0).round() as u64)
        .collect();
    assert_eq!(their_samples, our_samples);
}

#[test]
fn source_lines_agree_with_binutils_addr2line() {
    if !require_tool("mips-linux-gnu-gcc") || !require_tool("mips-linux-gnu-addr2line") {
        return;
    }
    let scratch = Scratch::new("lines");
    let dir = scratch.path();
    let prog = compile_program(dir);
    let bytes = std::fs::read(&prog).unwrap();
    let (_, text) = functions_and_text(&bytes);
    let addrs: Vec<u32> = (text.0..text.1).step_by(4).collect();
    let ours = source_lines(&bytes, &addrs).expect("the program has DWARF line info");
    let out = Command::new("mips-linux-gnu-addr2line")
        .arg("-e")
        .arg(&prog)
        .args(addrs.iter().map(|a| format!("{a:#x}")))
        .output()
        .expect("run addr2line");
    let theirs: Vec<Option<SourceLine>> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let l = l.split(" (").next().unwrap_or(l);
            let (file, line) = l.rsplit_once(':')?;
            Some(SourceLine {
                file: file.to_string(),
                line: line.parse().ok().filter(|&n| n > 0)?,
            })
        })
        .map(|l| l.filter(|l| l.file != "??"))
        .collect();
    assert_eq!(ours, theirs);
}

#[test]
fn line_profile_charges_samples_to_the_lines_holding_them() {
    if !require_tool("mips-linux-gnu-gcc") {
        return;
    }
    let scratch = Scratch::new("line-profile");
    let dir = scratch.path();
    let prog = compile_program(dir);
    let bytes = std::fs::read(&prog).unwrap();
    let (symbols, text) = functions_and_text(&bytes);
    let hist = synthesise(&symbols, text, &[("f3", 700), ("f2", 300)]);
    let lines = line_profile(&bytes, std::slice::from_ref(&hist)).expect("line info");
    // Each function of PROGRAM_C sits on one line: f2 on line 3, f3 on line 4.
    let file = dir.join("prog.c").display().to_string();
    let summary: Vec<(String, u32, u64)> = lines
        .iter()
        .map(|l| (l.file.clone(), l.line, l.samples))
        .collect();
    assert_eq!(summary, vec![(file.clone(), 4, 700), (file, 3, 300)]);
}

#[test]
fn a_program_without_dwarf_has_no_line_information() {
    if !require_tool("mips-linux-gnu-gcc") || !require_tool("mips-linux-gnu-strip") {
        return;
    }
    let scratch = Scratch::new("no-dwarf");
    let dir = scratch.path();
    let prog = compile_program(dir);
    let status = Command::new("mips-linux-gnu-strip")
        .arg("--strip-debug")
        .arg(&prog)
        .status()
        .expect("strip");
    assert!(status.success());
    let bytes = std::fs::read(&prog).unwrap();
    assert_eq!(source_lines(&bytes, &[0x400200]), None);
    assert_eq!(line_profile(&bytes, &[]), None);
    assert_eq!(source_lines(b"not an elf", &[0]), None);
}

#[test]
fn a_program_loaded_by_the_loader_reports_end_to_end() {
    if !require_tool("mips-linux-gnu-gcc") {
        return;
    }
    let scratch = Scratch::new("end-to-end");
    let dir = scratch.path();
    let prog = compile_program(dir);
    let bytes = std::fs::read(&prog).unwrap();
    let exe = loader::load("prog", &bytes, &loader::LoadOptions::default())
        .expect("the loader accepts it");
    let functions = functions_of(&exe);
    let (_, text) = functions_and_text(&bytes);
    let hist = synthesise(&functions, text, &[("f3", 70_000), ("f2", 300)]);
    let gmon = dir.join("gmon.out");
    write_gmon(&gmon, std::slice::from_ref(&hist)).unwrap();

    let file = read_gmon(&gmon).unwrap();
    file.check_against_texts("prog", &texts_of(&exe))
        .expect("the profile belongs to prog");
    let entries = flat_profile(&file.histograms, &functions);
    let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, vec!["f3", "f2"]);

    let f3 = find_function(&functions, "f3").unwrap();
    let code = code_of(&exe, f3);
    assert_eq!(code.len() as u32, f3.size / 4);
    let mut out = Vec::new();
    render_annotate(
        f3,
        &code,
        &file.histograms,
        100,
        cpu_mips::disassemble,
        &mut out,
    )
    .unwrap();
    let listing = String::from_utf8(out).unwrap();
    let title = format!(
        "Annotation of f3 ({:#010x}-{:#010x}): 70000 samples, 700.00 seconds\n",
        f3.addr,
        f3.addr + f3.size
    );
    assert!(listing.starts_with(&title), "{listing}");
    assert_eq!(listing.lines().count(), 2 + code.len());
}

#[test]
fn gprof_reads_disjoint_histograms_sharing_one_bin_size_like_ours() {
    if !require_tool("mips-linux-gnu-gcc") || !require_tool("mips-linux-gnu-gprof") {
        return;
    }
    let scratch = Scratch::new("gprof-disjoint");
    let dir = scratch.path();
    let prog = compile_program(dir);
    let elf_bytes = std::fs::read(&prog).unwrap();
    let (symbols, text) = functions_and_text(&elf_bytes);
    let whole = synthesise(&symbols, text, &[("f3", 900), ("f2", 300), ("f1", 40)]);
    // Cut the text in two records with a hole of 8 bytes between them, as
    // sprofil(2) regions would give; 2-byte bins (profil's scale 0x10000).
    let two_byte: Vec<u64> = whole
        .bins
        .iter()
        .flat_map(|&c| [c / 2 + c % 2, c / 2])
        .collect();
    let mid = two_byte.len() / 2;
    let first = HistRecord {
        low_pc: text.0,
        high_pc: text.0 + 2 * mid as u32,
        rate_hz: 100,
        bins: two_byte[..mid].to_vec(),
    };
    let second_low = first.high_pc + 8;
    let skip = mid + 4;
    let second = HistRecord {
        low_pc: second_low,
        high_pc: second_low + 2 * (two_byte.len() - skip) as u32,
        rate_hz: 100,
        bins: two_byte[skip..].to_vec(),
    };
    let hists = vec![first, second];
    let gmon = dir.join("gmon.out");
    write_gmon(&gmon, &hists).expect("write gmon.out");
    let ours = flat_profile(&hists, &symbols);
    let theirs = gprof_flat(&prog, &gmon);
    let our_rows: Vec<(Option<u32>, u64)> =
        ours.iter().map(|e| (Some(e.start), e.samples)).collect();
    let their_rows: Vec<(Option<u32>, u64)> = theirs
        .iter()
        .map(|(n, s)| (symbol_address(&elf_bytes, n), (s * 100.0).round() as u64))
        .collect();
    assert_eq!(their_rows, our_rows, "gprof: {theirs:?}");
}
