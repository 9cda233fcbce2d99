//! Malformed ELF files (truncations and random mutations of real guest
//! binaries): irix-emu never panics, and refuses them with 126.
//!
//! Contents:
//! - [`Verdict`]: what one run of a damaged file may end as.
//! - truncations of guest/bin/irix/hello at every length class: always
//!   exactly 126 with one "irix-emu: prog: ..." line.
//! - byte mutations of the ELF header, program headers, .MIPS.abiflags and
//!   .reginfo: refused with 126, or (a don't-care byte) the program runs
//!   and ends as a guest does: its own status, 128 + N, or 124 at
//!   --max-cycles. Never a panic (status 101, "panicked" on stderr), never
//!   irix-emu killed by a signal, never 125/127.
//! - byte mutations of the text: the CPU and kernel meet random
//!   instructions; the same rules hold.
//!
//! Each case spawns irix-emu once, so the case counts are modest, and the
//! seed is fixed so a run is reproducible (no regression files written).

use crate::common;

use common::{exit, run_emu, Run, Scratch, Status, PANIC};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError};

/// Enough cycles for hello (a few thousand) and a bound for a mutated
/// program that loops.
const MAX_CYCLES: &str = "10000000";

fn hello() -> Vec<u8> {
    std::fs::read(common::repo_path("guest/bin/irix/hello"))
        .expect("guest/bin/irix/hello is committed")
}

/// The big-endian ELF32 fields the strategies need.
struct Layout {
    /// End of the last PT_LOAD's file bytes: every shorter cut loses part
    /// of a segment.
    loads_end: usize,
    /// End of the program header table.
    phdrs_end: usize,
    /// The entry point's file offset (the header-area mutations stop there).
    entry_off: usize,
}

fn layout(elf: &[u8]) -> Layout {
    let be32 = |o: usize| u32::from_be_bytes([elf[o], elf[o + 1], elf[o + 2], elf[o + 3]]) as usize;
    let entry = be32(24);
    let phoff = be32(28);
    let phnum = u16::from_be_bytes([elf[44], elf[45]]) as usize;
    let loads: Vec<(usize, usize, usize)> = (0..phnum)
        .map(|i| phoff + 32 * i)
        .filter(|&ph| be32(ph) == 1)
        .map(|ph| (be32(ph + 4), be32(ph + 8), be32(ph + 16)))
        .collect();
    let loads_end = loads
        .iter()
        .map(|&(off, _, filesz)| off + filesz)
        .max()
        .expect("a PT_LOAD");
    let entry_off = loads
        .iter()
        .find(|&&(off, vaddr, filesz)| {
            (vaddr..vaddr + filesz).contains(&entry) && off + (entry - vaddr) < elf.len()
        })
        .map(|&(off, vaddr, _)| off + (entry - vaddr))
        .expect("entry inside a PT_LOAD");
    Layout {
        loads_end,
        phdrs_end: phoff + 32 * phnum,
        entry_off,
    }
}

/// How one run ended, as far as the property cares.
#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    /// The loader refused the file: 126 and one "irix-emu: prog: " line.
    Refused,
    /// The program ran and ended as a guest does.
    Ran,
}

/// Runs irix-emu on `bytes` (as ./prog in a scratch directory, which is
/// also the guest's root) and checks the rules every run obeys.
fn run_damaged(bytes: &[u8]) -> Result<(Verdict, Run), TestCaseError> {
    let dir = Scratch::new("malformed");
    dir.write("prog", bytes);
    let r = run_emu(["run", "--max-cycles", MAX_CYCLES, "prog"], dir.path());
    prop_assert!(
        !r.stderr.contains("panicked"),
        "irix-emu panicked: {}",
        r.stderr
    );
    let code = match r.status {
        Status::Code(c) => c,
        Status::Signal(n) => {
            return Err(TestCaseError::fail(format!(
                "irix-emu killed by signal {n}: {}",
                r.stderr
            )))
        }
    };
    prop_assert_ne!(code, PANIC, "status 101 (a Rust panic): {}", r.stderr);
    prop_assert_ne!(
        code,
        i32::from(exit::NOT_FOUND),
        "the file exists: {}",
        r.stderr
    );
    prop_assert_ne!(
        code,
        i32::from(exit::EMULATOR_FAILURE),
        "a damaged file is not an emulator failure: {}",
        r.stderr
    );
    if code == i32::from(exit::NOT_RUNNABLE)
        && r.stderr.starts_with("irix-emu: prog: ")
        && r.stdout.is_empty()
    {
        prop_assert_eq!(r.stderr.lines().count(), 1, "one line: {:?}", r.stderr);
        return Ok((Verdict::Refused, r));
    }
    // It ran: its status is its own, 128 + N with the "killed by" line, or
    // 124 with the limit's line, each last on stderr (warnings, such as
    // unimplemented system calls, may come before).
    let last = r.stderr.lines().last().unwrap_or("");
    if code == i32::from(exit::CYCLE_LIMIT) {
        prop_assert_eq!(last, "irix-emu: prog: stopped at the --max-cycles limit");
    } else if last.starts_with("irix-emu: prog: killed by SIG") {
        prop_assert!(code > 128, "killed by a signal, yet status {}", code);
    }
    Ok((Verdict::Ran, r))
}

fn config(cases: u32, seed: u64) -> Config {
    Config {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(seed),
        ..Config::default()
    }
}

#[test]
fn the_unmodified_program_runs() {
    // The control: the property's "Ran" case for an undamaged file.
    let (verdict, r) = run_damaged(&hello()).expect("rules hold");
    assert_eq!(verdict, Verdict::Ran);
    assert_eq!(r.stdout_text(), "hello, world\n");
    assert_eq!(r.status, Status::Code(0));
}

#[test]
fn every_length_class_of_truncation_is_refused_with_126() {
    let elf = hello();
    let l = layout(&elf);
    // Fixed cuts at each boundary, then random ones below.
    for len in [
        0,
        1,
        3,
        4,
        5,
        16,
        51,
        52,
        53,
        l.phdrs_end - 1,
        l.phdrs_end,
        l.entry_off,
        l.loads_end - 1,
    ] {
        let (verdict, r) = run_damaged(&elf[..len]).unwrap_or_else(|e| panic!("cut at {len}: {e}"));
        assert_eq!(verdict, Verdict::Refused, "cut at {len}: {r:?}");
    }
}

proptest! {
    #![proptest_config(config(48, 0x1715_0004))]

    /// Any cut before the last segment's end loses part of the program.
    #[test]
    fn a_truncated_program_is_refused_with_126(len in 0usize..20_000) {
        let elf = hello();
        let l = layout(&elf);
        let len = len % l.loads_end;
        let (verdict, r) = run_damaged(&elf[..len])?;
        prop_assert_eq!(verdict, Verdict::Refused, "cut at {}: {:?}", len, r);
    }
}

proptest! {
    #![proptest_config(config(64, 0x1715_0005))]

    /// Bytes of the header, program headers, .MIPS.abiflags and .reginfo
    /// replaced with random values: refused, or runs as a guest.
    #[test]
    fn a_mutated_header_never_panics_and_is_refused_with_126_or_runs(
        edits in prop::collection::vec((0usize..4096, any::<u8>()), 1..6),
    ) {
        let mut elf = hello();
        let l = layout(&elf);
        for &(at, byte) in &edits {
            let at = at % l.entry_off;
            elf[at] = byte;
        }
        run_damaged(&elf)?;
    }
}

proptest! {
    #![proptest_config(config(32, 0x1715_0006))]

    /// Random words in the text: whatever the CPU meets, it ends as a
    /// guest does (an illegal instruction is SIGILL, not a host crash).
    #[test]
    fn a_mutated_text_never_panics(
        edits in prop::collection::vec((0usize..1024, any::<u32>()), 1..8),
    ) {
        let mut elf = hello();
        let l = layout(&elf);
        for &(word, value) in &edits {
            let at = l.entry_off + 4 * (word % ((l.loads_end.min(elf.len()) - l.entry_off) / 4));
            elf[at..at + 4].copy_from_slice(&value.to_be_bytes());
        }
        let (verdict, _) = run_damaged(&elf)?;
        prop_assert_eq!(verdict, Verdict::Ran, "a text change leaves the headers valid");
    }
}
