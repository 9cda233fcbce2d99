//! Kernel profiling seen from inside the guest: the guest programs
//! call profil, sprofil and pcsample through the guest libc and print what
//! the kernel wrote into their buffers. The unit-level sentence tests live in
//! crates/irix-kernel/tests/profiling_*.rs; these check the whole path
//! (libc stub, system call, run loop's tick, guest memory) on real programs.
//!
//! Contents:
//! 1. Exact histograms, printed twice alike: prof_profil, prof_sprofil,
//!    prof_fast, prof_errors, prof_pcsample (expected outputs worked out below).
//! 2. PROF_FAST: ten times the ticks.
//! 3. Personalities: Solaris, Darwin and HP-UX agree with IRIX on these
//!    programs; AIX samples at 60 Hz and ignores the high half of the scale;
//!    Darwin's bin formula differs from IRIX's on odd offsets (prof_scale);
//!    IRIX's scale-2 convention puts every tick from the offset up in
//!    counter 0 (prof_scale mode 3).
//! 4. The clock sentence (prof_times): profile sum = times() user ticks.
//! 5. Lifetimes: fork (profil and pcsample), exec (proc_exec,
//!    proc_exec_profil_off).
//!
//! The tick counts are deterministic on the virtual clock (README "The clock
//! tick"), so whole outputs are compared. How the numbers come about, from
//! the disassembly of hot_a/hot_b (guest/src/prof_hot.h, `mips-linux-gnu-
//! objdump -d guest/bin/irix/prof_profil`) and crates/cpu-mips/src/timing.rs:
//! - hot_a's loop is mult, addiu, mflo, addiu, srl, bne, addu (delay slot):
//!   7 issue cycles + 8 stall cycles (HI/LO are ready 10 cycles after the
//!   mult issues; mflo, two instructions later, waits from cycle 2 to 10) +
//!   2 taken-branch bubbles = 17 cycles per iteration; 4,000,000
//!   iterations = 68,000,000 cycles = 68 ticks of 1,000,000 cycles.
//! - hot_b's loop is 9 single-cycle ALU instructions + 2 bubbles = 11 cycles;
//!   4,000,000 iterations = 44 ticks.
//! - Per instruction: 1,000,000 mod 17 = 9, coprime with 17, so 68 ticks
//!   visit each of the 17 cycle positions of an iteration exactly 4 times,
//!   and every bin of hot_a holds 4 x (the cycles whose tick latches that
//!   PC): 12 (3: the two bubbles and the delay slot, latched at the mult),
//!   4, 4, 36 (9: mflo's stall, latched at the instruction after it), 4, 8
//!   (2: the branch, also latched for its delay slot) = 4 x 17. For hot_b,
//!   1,000,000 mod 11 = 1: each of 11 positions 4 times: 12, 4 x 6, 8.

use crate::common;

use common::{emu, field, guest, lines_with, Run, Status};

/// `irix-emu run [--personality P] PROGRAM ARGS` from the repository root.
fn run(personality: Option<&str>, program: &str, args: &[&str]) -> Run {
    let path = guest(program);
    let mut all = vec!["run"];
    if let Some(p) = personality {
        all.extend(["--personality", p]);
    }
    all.push(&path);
    all.extend(args);
    emu(&all)
}

/// Runs twice; asserts status 0, empty stderr and identical stdout bytes;
/// returns the stdout.
fn run_twice(personality: Option<&str>, program: &str, args: &[&str]) -> String {
    let first = run(personality, program, args);
    let second = run(personality, program, args);
    assert_eq!(
        first.status,
        Status::Code(0),
        "{program} {args:?}: stderr {}",
        first.stderr
    );
    assert_eq!(first.stderr, "", "{program} {args:?}");
    assert_eq!(
        first.stdout, second.stdout,
        "{program} {args:?}: two runs printed different bytes"
    );
    first.stdout_text()
}

/// Fills in what depends on where the linker put things (the guest libc's
/// size moves them): TEXT_BYTES/TEXT_BINS (etext - _ftext, and a 16-bit
/// counter per instruction), BINS_ADDR/SAMPLES_ADDR (the static arrays).
fn layout(program: &str, expected: &str) -> String {
    let path = guest(program);
    let bytes = std::fs::read(&path).expect("guest binary");
    let exe = loader::load(program, &bytes, &Default::default()).expect("loads");
    let sym = |name: &str| exe.symbols.iter().find(|s| s.name == name).map(|s| s.addr);
    let mut out = expected.to_string();
    if let (Some(start), Some(end)) = (sym("_ftext"), sym("etext")) {
        out = out
            .replace("TEXT_BYTES", &(end - start).to_string())
            .replace("TEXT_BINS", &((end - start) / 4).to_string());
    }
    for (token, name) in [("BINS_ADDR", "bins"), ("SAMPLES_ADDR", "samples")] {
        if let Some(a) = sym(name) {
            out = out.replace(token, &format!("0x{a:08x}"));
        }
    }
    out
}

const PROF_PROFIL: &str = "profil: 0
text: TEXT_BYTES bytes, TEXT_BINS bins; hot_a at +0x50, hot_b at +0x90
checksums: 83e4a00f c43783ac
+0x0006c 12
+0x00070 4
+0x00074 4
+0x00078 36
+0x0007c 4
+0x00080 8
+0x000a8 12
+0x000ac 4
+0x000b0 4
+0x000b4 4
+0x000b8 4
+0x000bc 4
+0x000c0 4
+0x000c4 8
ticks: hot_a 68 hot_b 44 other 0 total 112
";

const PROF_SPROFIL: &str = "sprofil: 0
tick: tv_sec 0 tv_usec 10000
regions: hot_a 64 bytes, hot_b 68 bytes
checksums: 83e4a00f c43783ac
region 0 (hot_a): 68 ticks in 6 counters
region 1 (hot_b): 44 ticks in 8 counters
overflow bin: 0 ticks
total: 112 ticks
";

const PROF_FAST: &str = "sprofil: 0
tick: tv_sec 0 tv_usec 1000
regions: hot_a 64 bytes, hot_b 68 bytes
checksums: 83e4a00f c43783ac
region 0 (hot_a): 680 ticks in 6 counters
region 1 (hot_b): 440 ticks in 8 counters
overflow bin: 0 ticks
total: 1120 ticks
";

/// Each line is one man-page error (guest/src/prof_errors.c).
const PROF_ERRORS: &str = "profcnt 0: -1 E2BIG
profcnt -1: -1 E2BIG
profcnt 1000000: -1 E2BIG
bad profp: -1 EFAULT
bad tvp: -1 EFAULT
overflow bin not last: -1 EINVAL
bad flags 0x100: -1 EINVAL
valid call: 0 (no error)
";

/// 2,000,000 iterations each: hot_a 34 ticks, hot_b 22 (17 and 11 cycles
/// per iteration); 56 samples, fewer than the 128 slots.
const PROF_PCSAMPLE: &str = "pcsample(128 slots): 0
checksums: 41721ad9 94035d43
pcsample(stop): 56
sample[0] = hot_a+0x28
sample[1] = hot_a+0x20
sample[2] = hot_a+0x28
sample[3] = hot_a+0x24
sample[4] = hot_a+0x28
sample[5] = hot_a+0x28
sample[6] = hot_a+0x2c
sample[7] = hot_a+0x28
samples: hot_a 34 hot_b 22 other 0
";

#[test]
fn profiling_programs_print_their_exact_histograms_and_two_runs_agree() {
    // (program, what it shows, expected stdout)
    let cases = [
        (
            "prof_profil",
            "profil(2), one 16-bit counter per instruction",
            PROF_PROFIL,
        ),
        (
            "prof_sprofil",
            "sprofil(2), PROF_UINT, two regions + overflow bin",
            PROF_SPROFIL,
        ),
        ("prof_fast", "sprofil(2) with PROF_FAST", PROF_FAST),
        (
            "prof_errors",
            "sprofil(2)'s E2BIG, EFAULT, EINVAL",
            PROF_ERRORS,
        ),
        (
            "prof_pcsample",
            "pcsample(2), 128 slots, stopped with nsamples 0",
            PROF_PCSAMPLE,
        ),
    ];
    for (program, shows, expected) in cases {
        let out = run_twice(None, program, &[]);
        assert_eq!(out, layout(program, expected), "{program}: {shows}");
    }
}

/// The `+0xOFFSET COUNT` lines of prof_profil as (offset, count).
fn profil_bins(out: &str) -> Vec<(u32, u64)> {
    lines_with(out, "+0x")
        .iter()
        .map(|l| {
            let (off, n) = l[3..].split_once(' ').expect("+0xOFF COUNT");
            (
                u32::from_str_radix(off, 16).expect("hex offset"),
                n.parse().expect("count"),
            )
        })
        .collect()
}

#[test]
fn with_each_clock_tick_the_current_subdivision_is_identified_and_its_count_incremented() {
    // solaris profil(2): "With each clock tick, the current subdivision is
    // identified and its corresponding histogram count is incremented."
    // prof_profil's bins fall inside hot_a and hot_b, and each function's
    // bins sum to the ticks its loop takes (68 and 44, worked out above).
    let out = run(None, "prof_profil", &[]).stdout_text();
    let text_line = lines_with(&out, "text: ")[0];
    let hot_a = u32::from_str_radix(
        &text_line[text_line.find("hot_a at +0x").unwrap() + 12..][..2],
        16,
    )
    .unwrap();
    let hot_b = u32::from_str_radix(
        &text_line[text_line.find("hot_b at +0x").unwrap() + 12..][..2],
        16,
    )
    .unwrap();
    let bins = profil_bins(&out);
    let in_a: u64 = bins
        .iter()
        .filter(|(o, _)| (hot_a..hot_b).contains(o))
        .map(|b| b.1)
        .sum();
    let in_b: u64 = bins.iter().filter(|(o, _)| *o >= hot_b).map(|b| b.1).sum();
    assert_eq!((in_a, in_b), (68, 44));
    assert_eq!(
        in_a + in_b,
        bins.iter().map(|b| b.1).sum::<u64>(),
        "no tick outside the hot loops"
    );
    let ticks = lines_with(&out, "ticks: ")[0];
    assert_eq!(field(ticks, "total "), 112);
}

#[test]
fn prof_fast_forces_the_system_to_take_samples_once_every_millisecond() {
    // irix sprofil(2): "PROF_FAST ... will provide more accurate profiling by
    // forcing the system to take samples once every millisecond": tvp reads
    // 1000 us instead of 10000, and the same work takes 10 times the ticks.
    let slow = run(None, "prof_sprofil", &[]).stdout_text();
    let fast = run(None, "prof_fast", &[]).stdout_text();
    assert_eq!(
        lines_with(&slow, "tick: "),
        ["tick: tv_sec 0 tv_usec 10000"]
    );
    assert_eq!(lines_with(&fast, "tick: "), ["tick: tv_sec 0 tv_usec 1000"]);
    for prefix in ["region 0", "region 1", "total: "] {
        let s = lines_with(&slow, prefix)[0];
        let f = lines_with(&fast, prefix)[0];
        let key = if prefix == "total: " {
            "total: "
        } else {
            "): "
        };
        assert_eq!(field(f, key), 10 * field(s, key), "{prefix}: {s} / {f}");
    }
}

#[test]
fn solaris_darwin_and_hpux_agree_with_irix_where_their_pages_do() {
    // At scale 0x8000 from an even offset, every page's formula gives one
    // counter per instruction (Solaris: "the remainder is multiplied by
    // scale"; Darwin: "[(pc - offset) / 2] * scale / 65536"; HP-UX: IRIX's
    // sprofil), and all three tick at HZ = 100. HP-UX's counter saturation
    // needs more than 65,535 ticks in a bin: not observable in short runs.
    for personality in ["solaris", "darwin", "hpux"] {
        for (program, expected) in [("prof_profil", PROF_PROFIL), ("prof_sprofil", PROF_SPROFIL)] {
            let out = run_twice(Some(personality), program, &[]);
            assert_eq!(
                out,
                layout(program, expected),
                "{program} under {personality}"
            );
        }
    }
}

#[test]
fn aix_examines_the_program_counter_60_times_a_second() {
    // aix profil: "After this call, the user's program counter (pc) is
    // examined 60 times a second": the same 112,000,000-odd profiled cycles
    // take 0.6 x 112 = 67.2 -> 67 ticks of 1,666,666.7 cycles.
    let irix = run(None, "prof_profil", &[]).stdout_text();
    let aix = run_twice(Some("aix"), "prof_profil", &[]);
    let total = |out: &str| field(lines_with(out, "ticks: ")[0], "total ");
    assert_eq!(total(&aix), 67);
    assert!(
        (total(&aix) * 100).abs_diff(total(&irix) * 60) < 100,
        "aix {} ticks vs 0.6 x irix {}",
        total(&aix),
        total(&irix)
    );
    assert_eq!(
        lines_with(&aix, "ticks: "),
        ["ticks: hot_a 40 hot_b 27 other 0 total 67"]
    );
    // The checksums (the work) are the same; only the sampling differs.
    assert_eq!(
        lines_with(&aix, "checksums: "),
        lines_with(&irix, "checksums: ")
    );
}

#[test]
fn aix_ignores_the_most_significant_16_bits_of_scale() {
    // aix profil: "The most significant 16 bits of scale are ignored" and
    // "0 0x0000 Turns profiling off": prof_sprofil's regions use scale
    // 0x10000 (IRIX's PROF_UINT 1-1 mapping), whose low 16 bits are 0, so
    // under AIX they count nothing and every tick goes to the overflow bin
    // (scale 2). tvp reads one 60 Hz tick, 16,666 us.
    let out = run_twice(Some("aix"), "prof_sprofil", &[]);
    assert_eq!(
        out,
        "sprofil: 0
tick: tv_sec 0 tv_usec 16666
regions: hot_a 64 bytes, hot_b 68 bytes
checksums: 83e4a00f c43783ac
region 0 (hot_a): 0 ticks in 0 counters
region 1 (hot_b): 0 ticks in 0 counters
overflow bin: 67 ticks
total: 67 ticks
"
    );
}

/// prof_scale's "counter I N" lines as (I, N).
fn scale_counters(out: &str) -> Vec<(u64, u64)> {
    lines_with(out, "counter ")
        .iter()
        .map(|l| {
            let mut w = l
                .split(' ')
                .skip(1)
                .map(|x| x.parse::<u64>().expect("number"));
            (w.next().expect("index"), w.next().expect("count"))
        })
        .collect()
}

#[test]
fn darwin_bins_are_half_the_pc_offset_times_scale_over_65536() {
    // darwin profil(2): "For a given program counter address, the number of
    // the corresponding bin is given by the relation: [(pc - offset) / 2] *
    // scale / 65536"; solaris/irix: "the value of offset is subtracted from
    // the current value of the program counter (pc), and the remainder is
    // multiplied by scale" (a byte offset into the buffer of 2-byte counters).
    // prof_scale mode 0 (scale 0x8000, offset hot_a) gives one counter per
    // instruction, i.e. the ticks per PC; modes 1 (scale 0xffff, offset
    // hot_a - 1: odd remainders) and 2 (scale 0x4000) run the same
    // instructions, so their ticks fall on the same PCs and each page's
    // formula applied to mode 0's histogram predicts their counters.
    let per_insn = scale_counters(&run_twice(None, "prof_scale", &["0"]));
    assert_eq!(per_insn.iter().map(|c| c.1).sum::<u64>(), 112);
    // pc - hot_a of counter i in mode 0 is 4 i.
    let irix = |x: u64, scale: u64| ((x * scale) >> 16) / 2;
    let darwin = |x: u64, scale: u64| (x / 2) * scale / 65536;
    let predict = |f: &dyn Fn(u64, u64) -> u64, below: u64, scale: u64| {
        let mut m = std::collections::BTreeMap::<u64, u64>::new();
        for &(i, n) in &per_insn {
            *m.entry(f(4 * i + below, scale)).or_default() += n;
        }
        m.into_iter().filter(|&(i, _)| i < 256).collect::<Vec<_>>()
    };
    // (mode, offset below hot_a, scale)
    for (mode, below, scale) in [("1", 1u64, 0xffffu64), ("2", 0, 0x4000)] {
        let got_irix = scale_counters(&run_twice(None, "prof_scale", &[mode]));
        let got_darwin = scale_counters(&run_twice(Some("darwin"), "prof_scale", &[mode]));
        assert_eq!(got_irix, predict(&irix, below, scale), "irix, mode {mode}");
        assert_eq!(
            got_darwin,
            predict(&darwin, below, scale),
            "darwin, mode {mode}"
        );
    }
    // The formulas really differ where the remainder is odd: mode 1.
    let odd_irix = scale_counters(&run(None, "prof_scale", &["1"]).stdout_text());
    let odd_darwin = scale_counters(&run(Some("darwin"), "prof_scale", &["1"]).stdout_text());
    assert_ne!(odd_irix, odd_darwin);
    assert_eq!(
        odd_irix[0],
        (14, 12),
        "irix: (4*7 + 1) * 0xffff >> 16 = 28 bytes = counter 14"
    );
    assert_eq!(
        odd_darwin[0],
        (13, 12),
        "darwin: (29 / 2) * 0xffff / 65536 = bin 13"
    );
}

#[test]
fn the_minimum_scale_maps_the_entire_region_starting_with_offset_to_the_first_counter() {
    // irix profil(2): "the minimum value of scale (for which profiling is
    // performed), 0x0002 (1/32,768), maps (by convention) the entire region
    // starting with offset to the first counter in buff". prof_scale mode 3
    // puts the offset 64 KiB below hot_a: under IRIX every tick of the hot
    // loops (mode 0's 112) lands in counter 0; Solaris' and HP-UX's pages
    // only give the formula, ((pc - offset) * 2) >> 16 bytes, counter 1.
    let irix = scale_counters(&run_twice(None, "prof_scale", &["3"]));
    assert_eq!(irix, vec![(0, 112)]);
    for p in ["solaris", "hpux"] {
        let formula = scale_counters(&run_twice(Some(p), "prof_scale", &["3"]));
        assert_eq!(formula, vec![(1, 112)], "{p}");
    }
}

#[test]
fn profile_counters_with_an_overflow_bin_sum_to_the_user_ticks_times_reports() {
    // README "The clock tick": "times() uses the same interval, so a
    // full-coverage profile's counters sum to the user ticks times()
    // reports". prof_times: one PROF_UINT region over hot_a..hot_end at
    // scale 0x10000 and an overflow bin last (irix sprofil(2): "Any PC value
    // not previously matched or outside the regions of text space specified
    // is considered to match this text region"), 8 rounds of hot_a, hot_b
    // (in the region) and a 1 MiB memset (libc: outside it). The gaps are
    // the ticks between times() and the profiling switch on either side:
    // with both 0 the profile and times() cover the same ticks.
    let out = run_twice(None, "prof_times", &[]);
    assert_eq!(
        out,
        "sprofil: 0
gaps: before 0 after 0
region: 46 ticks, overflow bin: 9 ticks
counters 55 utime_ticks 55
equal: yes
"
    );
    let line = lines_with(&out, "counters ")[0];
    assert_eq!(field(line, "counters "), field(line, "utime_ticks "));
}

#[test]
fn profiling_remains_on_in_both_child_and_parent_processes_after_a_fork() {
    // irix sprofil(2) NOTES: "Profiling ... remains on in both child and
    // parent processes after a fork(2)". After fork the child runs hot_a
    // (3,000,000 x 17 cycles = 51 ticks) and the parent hot_b (3,000,000 x
    // 11 = 33 ticks), each into its own copy of the buffer: both gain
    // ticks, neither gets the other's.
    let out = run_twice(None, "proc_fork_profil", &[]);
    assert_eq!(
        out,
        "proc_fork_profil: profil 0
child: ticks hot_a 51 hot_b 0 other 0 total 51
parent: child exited with status 0
parent: ticks hot_a 0 hot_b 33 other 0 total 33
"
    );
}

#[test]
fn pcsample_sampling_continues_across_a_call_to_fork() {
    // solaris pcsample(2): "Like profil(), sampling continues across a call
    // to fork(2)". Child: hot_a, 2,000,000 x 17 cycles = 34 samples; parent:
    // hot_b, 2,000,000 x 11 = 22; each stops its own sampling and reports
    // the count pcsample(NULL, 0) returns.
    let out = run_twice(None, "proc_pcsample_fork", &[]);
    assert_eq!(
        out,
        "proc_pcsample_fork: pcsample 0
child: 34 samples: hot_a 34 hot_b 0 other 0
parent: child exited with status 0
parent: 22 samples: hot_a 0 hot_b 22 other 0
"
    );
}

#[test]
fn exec_of_a_profiling_program_runs_the_new_image() {
    // proc_exec: profil on, then execve("guest/bin/irix/hello") (a path the
    // guest resolves inside the default --root, the cwd = repository root).
    // The new image runs and exits 0; that profiling is off afterwards is
    // shown by proc_exec_profil_off below, hello cannot show it.
    let out = run_twice(None, "proc_exec", &[]);
    assert_eq!(
        out,
        "proc_exec: profil 0
proc_exec: exec guest/bin/irix/hello
hello, world
"
    );
}

#[test]
fn profiling_is_turned_off_when_an_exec_is_executed() {
    // irix sprofil(2) NOTES: "Profiling is turned off when an exec(2) is
    // executed"; solaris pcsample(2): sampling "is disabled by a call to one
    // of the exec family of functions". proc_exec_profil_off execs itself:
    // its static `bins` and `samples` arrays are at the same addresses in
    // both images (printed), so had the kernel kept the old state the second
    // image's identical hot loop (17 ticks) would have written into them.
    // The control: the second image's own profil() counts 17 ticks there.
    let tail = "stage 2: bins at BINS_ADDR, samples at SAMPLES_ADDR
stage 2: 0 ticks in bins, 0 samples after the same loop
stage 2: profil again: 17 ticks
";
    // (stage 1's call, its lines)
    let cases = [
        (
            "profil",
            "stage 1: profil 0, bins at BINS_ADDR, samples at SAMPLES_ADDR
stage 1: 17 ticks in bins, 0 samples before exec
",
        ),
        (
            "pcsample",
            "stage 1: pcsample 0, bins at BINS_ADDR, samples at SAMPLES_ADDR
stage 1: 0 ticks in bins, 17 samples before exec
",
        ),
    ];
    for (how, stage1) in cases {
        let out = run_twice(None, "proc_exec_profil_off", &[how]);
        assert_eq!(
            out,
            layout("proc_exec_profil_off", &format!("{stage1}{tail}")),
            "stage 1 with {how}"
        );
    }
}
