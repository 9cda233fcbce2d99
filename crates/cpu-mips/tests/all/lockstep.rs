//! The lockstep differential: the block and compiled tiers against the
//! interpreter on random programs. Both run the same program from the same state with the
//! same deadlines, in steps of a few to a few hundred cycles; after every
//! step the stop, every register, the FPU, CP0, the PC and delay-slot
//! state, LLbit, the cycle and retired counts, the scoreboard and all of
//! memory must be identical.
//!
//! The programs loop (so that blocks get built and run), branch forward in
//! every way the R4000 can (likely forms, and-link forms, FP conditions),
//! load and store (some misaligned: address errors inside blocks), divide,
//! multiply, trap, overflow, compute in floating point, and store into
//! their own code (self-modifying code must drop translated blocks).
//!
//! The compiled tier is also held to it with its code loaded from a
//! translation store an earlier machine filled (`warm_jit_lockstep`): code
//! from disk must do exactly what freshly compiled code does.

use crate::testmem;

use std::sync::Arc;

use cpu_mips::{Cpu, CpuConfig, Engine, StopReason, TranslationStore, DEFAULT_BLOCK_CACHE_INSNS};
use proptest::prelude::*;
use test_support::mips::{self, funct, itype, jtype, opcode, regimm, regimm_code, special, Gpr};
use testmem::{TestMem, CODE, DATA};

/// The tiers held to the interpreter.
const TIERS: [Engine; 2] = [Engine::Block, Engine::Jit];

/// One generated instruction: a kind and raw operand material.
type Gen = (u8, u8, u8, u8, u16);

/// Registers the body may write: $at..$t7 (never $s0/$s1, the bases, or
/// $t9, the loop counter).
fn dst(n: u8) -> Gpr {
    Gpr::new(1 + n as u32 % 15)
}
/// Registers the body may read: the writable ones, $zero and the bases.
fn src(n: u8) -> Gpr {
    Gpr::new(n as u32 % 18)
}

fn cop1(fmt: u32, ft: u32, fs: u32, fd: u32, func: u32) -> u32 {
    0x11 << 26 | fmt << 21 | (ft & 31) << 16 | (fs & 31) << 11 | (fd & 31) << 6 | func
}

/// The word for generated instruction `g` at body index `i` of `len`.
fn encode((kind, a, b, c, imm): Gen, i: usize, len: usize) -> u32 {
    // A forward branch offset that stays within the body or lands on the
    // loop's end.
    let fwd = 1 + (imm as usize % (len - i)) as u16;
    let base = if c % 4 == 0 { mips::S1 } else { mips::S0 };
    // Data offsets within the mapped pages, aligned three times in four.
    let off = |align: u16| -> i16 {
        let o = imm % 8000;
        (if c % 4 == 3 { o } else { o & !(align - 1) }) as i16
    };
    match kind % 40 {
        0 => special(funct::ADDU, src(a), src(b), dst(c), 0),
        1 => special(funct::SUBU, src(a), src(b), dst(c), 0),
        2 => special(
            [funct::AND, funct::OR, funct::XOR, funct::NOR][imm as usize % 4],
            src(a),
            src(b),
            dst(c),
            0,
        ),
        3 => special(
            [funct::SLT, funct::SLTU][imm as usize % 2],
            src(a),
            src(b),
            dst(c),
            0,
        ),
        4 => special(
            [funct::SLLV, funct::SRLV, funct::SRAV][imm as usize % 3],
            src(a),
            src(b),
            dst(c),
            0,
        ),
        5 => special(
            [funct::SLL, funct::SRL, funct::SRA][imm as usize % 3],
            mips::ZERO,
            src(b),
            dst(c),
            imm as u32,
        ),
        6 => special(
            [funct::ADD, funct::SUB][imm as usize % 2],
            src(a),
            src(b),
            dst(c),
            0,
        ),
        7 => itype(opcode::ADDIU, src(a), dst(c), imm),
        8 => itype(
            [opcode::ADDI, opcode::SLTI, opcode::SLTIU][b as usize % 3],
            src(a),
            dst(c),
            imm,
        ),
        9 => itype(
            [opcode::ANDI, opcode::ORI, opcode::XORI, opcode::LUI][b as usize % 4],
            src(a),
            dst(c),
            imm,
        ),
        10 => special(
            [funct::MULT, funct::MULTU][imm as usize % 2],
            src(a),
            src(b),
            mips::ZERO,
            0,
        ),
        11 => special(
            [funct::DIV, funct::DIVU][imm as usize % 2],
            src(a),
            src(b),
            mips::ZERO,
            0,
        ),
        12 => special(
            [funct::MFHI, funct::MFLO][imm as usize % 2],
            mips::ZERO,
            mips::ZERO,
            dst(c),
            0,
        ),
        13 => special(
            [funct::MTHI, funct::MTLO][imm as usize % 2],
            src(a),
            mips::ZERO,
            mips::ZERO,
            0,
        ),
        14 | 15 => itype(
            [opcode::LW, opcode::LB, opcode::LBU][b as usize % 3],
            base,
            dst(a),
            off(4) as u16,
        ),
        16 => itype(
            [opcode::LH, opcode::LHU][b as usize % 2],
            base,
            dst(a),
            off(2) as u16,
        ),
        17 => itype(
            [opcode::LWL, opcode::LWR][b as usize % 2],
            base,
            dst(a),
            off(1) as u16,
        ),
        18 | 19 => itype(
            [opcode::SW, opcode::SB][b as usize % 2],
            base,
            src(a),
            off(4) as u16,
        ),
        20 => itype(
            [opcode::SH, opcode::SWL, opcode::SWR][b as usize % 3],
            mips::S0,
            src(a),
            off(2) as u16,
        ),
        21 => itype(
            [opcode::LL, opcode::SC][b as usize % 2],
            mips::S0,
            dst(a),
            off(4) as u16,
        ),
        22 => itype(
            [opcode::BEQ, opcode::BNE][b as usize % 2],
            src(a),
            src(c),
            fwd,
        ),
        23 => itype(
            [opcode::BLEZ, opcode::BGTZ][b as usize % 2],
            src(a),
            mips::ZERO,
            fwd,
        ),
        24 => itype(
            [opcode::BEQL, opcode::BNEL][b as usize % 2],
            src(a),
            src(c),
            fwd,
        ),
        25 => itype(
            [opcode::BLEZL, opcode::BGTZL][b as usize % 2],
            src(a),
            mips::ZERO,
            fwd,
        ),
        26 => regimm(
            [
                regimm_code::BLTZ,
                regimm_code::BGEZ,
                regimm_code::BLTZL,
                regimm_code::BGEZL,
            ][b as usize % 4],
            src(a),
            fwd,
        ),
        27 => regimm(
            [
                regimm_code::BLTZAL,
                regimm_code::BGEZAL,
                regimm_code::BLTZALL,
                regimm_code::BGEZALL,
            ][b as usize % 4],
            src(a),
            fwd,
        ),
        28 => jtype(opcode::J, (CODE >> 2) + 3 + (i as u32) + fwd as u32),
        29 => regimm(
            [regimm_code::TEQI, regimm_code::TNEI, regimm_code::TLTI][b as usize % 3],
            src(a),
            imm % 8,
        ),
        // Floating point: loads and stores, arithmetic in S and D, compares
        // and the FP branches.
        30 => itype(
            [0x31, 0x35][b as usize % 2],
            mips::S0,
            Gpr::new(a as u32 & 30),
            off(8) as u16,
        ),
        31 => itype(
            [0x39, 0x3d][b as usize % 2],
            mips::S0,
            Gpr::new(a as u32 & 30),
            off(8) as u16,
        ),
        32 => cop1(
            [16, 17][b as usize % 2],
            a as u32 & 30,
            c as u32 & 30,
            imm as u32 & 30,
            [0, 1, 2, 3][(imm >> 8) as usize % 4],
        ),
        33 => cop1(
            [16, 17, 20][b as usize % 3],
            0,
            c as u32 & 30,
            imm as u32 & 30,
            [4, 5, 6, 7, 0x21, 0x20][(imm >> 8) as usize % 6],
        ),
        34 => cop1(
            [16, 17][b as usize % 2],
            a as u32 & 30,
            c as u32 & 30,
            0,
            0x30 | (imm as u32 & 15),
        ),
        35 => 0x11 << 26 | 8 << 21 | ((b as u32) % 4) << 16 | fwd as u32,
        36 => mips::mtc1(src(a), c as u32 & 31),
        37 => mips::mfc1(dst(a), c as u32 & 31),
        // Anything at all: mostly reserved encodings and coprocessor
        // instructions that raise exceptions.
        38 => (a as u32) << 24 | (b as u32) << 16 | imm as u32,
        // FCSR: back to its reset value, or anything (rounding modes,
        // enables, FS; a cause with its enable traps at once).
        39 => mips::ctc1(if b % 2 == 0 { mips::ZERO } else { src(a) }, 31),
        _ => unreachable!(),
    }
}

/// The program: bases and counter, the body `iterations` times, BREAK.
fn program(body: &[Gen], iterations: u16) -> Vec<u32> {
    let mut words = vec![
        mips::lui(mips::S0, (DATA >> 16) as u16),
        mips::lui(mips::S1, (CODE >> 16) as u16),
        mips::addiu(mips::T9, mips::ZERO, iterations as i16),
    ];
    let len = body.len();
    words.extend(body.iter().enumerate().map(|(i, g)| encode(*g, i, len)));
    // The loop's end: every forward branch lands at most here.
    let back = -(len as i16) - 2;
    words.push(mips::addiu(mips::T9, mips::T9, -1));
    words.push(itype(opcode::BNE, mips::T9, mips::ZERO, back as u16));
    words.push(mips::nop());
    words.push(mips::break_(0));
    words
}

fn machine(
    engine: Engine,
    cache: usize,
    mode64: bool,
    words: &[u32],
    regs: &[u64],
) -> (Cpu, TestMem) {
    machine_with(engine, cache, mode64, words, regs, Compiling::default())
}

/// How the machine under test compiles: with a translation store, and on
/// a second thread (see `CpuConfig::compile_on_thread`).
#[derive(Default)]
pub(crate) struct Compiling {
    pub store: Option<Arc<TranslationStore>>,
    pub thread: bool,
    /// `CpuConfig::compile_after` (0: 1, every block on its first run:
    /// its successors then have no runs of their own yet, so no block has
    /// members, see `jit::region`; from 3 on, loops make them).
    pub compile_after: u32,
    /// Compiled code looks every page up in its soft TLB, instead of
    /// reaching the pages the memory names by file through its view
    /// (`CpuConfig::guest_view` off).
    pub tlb_only: bool,
    /// In 32-bit mode, the registers as given: a 32-bit program's hold
    /// 32-bit values sign-extended, which the machine makes of them
    /// otherwise (a register written otherwise from outside keeps the CPU
    /// off compiled code that goes through the view, see `view`).
    pub registers_as_given: bool,
}

fn machine_with(
    engine: Engine,
    cache: usize,
    mode64: bool,
    words: &[u32],
    regs: &[u64],
    compiling: Compiling,
) -> (Cpu, TestMem) {
    let mut mem = TestMem::new();
    mem.map(CODE, 2 * 4096, true, true);
    mem.map(DATA, 2 * 4096, true, false);
    mem.poke_words(CODE, words);
    let mut cpu = Cpu::new(CpuConfig {
        mode64,
        engine,
        block_cache_insns: cache,
        // Compiled on the first run unless a test says otherwise: the
        // compiled tier runs as much as it can, and (unless on the compiler
        // thread) from that run on.
        compile_after: compiling.compile_after.max(1),
        compile_on_thread: compiling.thread,
        guest_view: !compiling.tlb_only,
        ..CpuConfig::default()
    });
    for (r, v) in regs.iter().enumerate() {
        cpu.gpr[1 + r] = if mode64 || compiling.registers_as_given {
            *v
        } else {
            *v as i32 as u64
        };
        cpu.fpu.fpr[r] = v.rotate_left(17);
        mem.poke64(DATA + 8 * r as u32, v.rotate_left(5));
    }
    cpu.set_pc(CODE);
    cpu.set_translation_store(compiling.store);
    (cpu, mem)
}

/// Runs `engine` in lockstep with the interpreter (with a block cache of
/// `cache` instructions); panics with the first difference. Returns the
/// CPU of `engine`.
fn lockstep(
    engine: Engine,
    cache: usize,
    mode64: bool,
    words: &[u32],
    regs: &[u64],
    steps: &[u16],
) -> Cpu {
    lockstep_with(
        engine,
        cache,
        mode64,
        words,
        regs,
        steps,
        Compiling::default(),
    )
}

/// [`lockstep`] with `engine` compiling as `compiling` says.
pub(crate) fn lockstep_with(
    engine: Engine,
    cache: usize,
    mode64: bool,
    words: &[u32],
    regs: &[u64],
    steps: &[u16],
    compiling: Compiling,
) -> Cpu {
    let (mut a, mut ma) = machine(Engine::Interp, cache, mode64, words, regs);
    let (mut b, mut mb) = machine_with(engine, cache, mode64, words, regs, compiling);
    for round in 0..4000 {
        let deadline = a.cycles() + steps[round % steps.len()] as u64;
        let sa = a.run(&mut ma, &mut (), deadline);
        let sb = b.run(&mut mb, &mut (), deadline);
        assert_eq!(sa, sb, "stop after round {round}");
        let diff = a.differences(&b);
        assert!(diff.is_empty(), "state after round {round}: {diff:?}");
        let pages = ma.differing_pages(&mb);
        assert!(
            pages.is_empty(),
            "memory after round {round}: pages {pages:x?}"
        );
        if let StopReason::Exception(e) = sa {
            if e.code == cpu_mips::ExcCode::Bp {
                return b;
            }
            a.complete_exception_instruction();
            b.complete_exception_instruction();
        }
    }
    b
}

/// [`lockstep`] with the default block cache, in 32-bit mode.
fn lockstep_o32(engine: Engine, words: &[u32], regs: &[u64], steps: &[u16]) -> Cpu {
    lockstep(engine, DEFAULT_BLOCK_CACHE_INSNS, false, words, regs, steps)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn block_tier_matches_the_interpreter_in_lockstep(
        body in prop::collection::vec(any::<Gen>(), 1..120),
        iterations in 1u16..40,
        mode64: bool,
        regs in prop::collection::vec(any::<u64>(), 15),
        steps in prop::collection::vec(1u16..400, 1..8),
        small_cache: bool,
    ) {
        // A cache of 100 instructions is emptied every few blocks.
        let cache = if small_cache { 100 } else { DEFAULT_BLOCK_CACHE_INSNS };
        let words = program(&body, iterations);
        for engine in TIERS {
            lockstep(engine, cache, mode64, &words, &regs, &steps);
        }
        // Code from the compiler thread arrives while the block tier runs
        // its block, at a point that depends on the host: every arrival
        // gives the interpreter's state.
        let thread = Compiling { thread: true, ..Compiling::default() };
        lockstep_with(Engine::Jit, cache, mode64, &words, &regs, &steps, thread);
        // Compiled after a few runs, blocks take the blocks of their page
        // they reach as members (see `jit::region`).
        for thread in [false, true] {
            let regions = Compiling { thread, compile_after: 3, ..Compiling::default() };
            lockstep_with(Engine::Jit, cache, mode64, &words, &regs, &steps, regions);
        }
        // Every access through the soft TLB, as for memory that does not
        // name its pages by file.
        let tlb = Compiling { tlb_only: true, ..Compiling::default() };
        lockstep_with(Engine::Jit, cache, mode64, &words, &regs, &steps, tlb);
    }
}

/// A translation store in a fresh scratch directory (kept alive by the
/// returned guard).
pub(crate) fn scratch_store() -> (test_support::Scratch, Arc<TranslationStore>) {
    let dir = test_support::Scratch::new("translations");
    let store = reopen_store(&dir);
    (dir, store)
}

/// The store of `dir` (see [`scratch_store`]): made on the first call,
/// opened again (by a later process) on the next.
pub(crate) fn reopen_store(dir: &test_support::Scratch) -> Arc<TranslationStore> {
    TranslationStore::open(
        &dir.path().join("cache"),
        64 << 20,
        Box::new(|w| panic!("unexpected warning: {w}")),
    )
    .expect("the scratch translation store")
}

/// The compiled tier in lockstep twice: filling an empty store (compiling
/// after `compile_after` runs), then with every block's code loaded from
/// it by a new machine (a later process). Returns the second machine's
/// store.
fn warm_jit_lockstep(
    cache: usize,
    mode64: bool,
    words: &[u32],
    regs: &[u64],
    steps: &[u16],
    compile_after: u32,
) -> Arc<TranslationStore> {
    let (dir, cold) = scratch_store();
    lockstep_with(
        Engine::Jit,
        cache,
        mode64,
        words,
        regs,
        steps,
        Compiling {
            store: Some(cold.clone()),
            thread: true,
            compile_after,
            ..Compiling::default()
        },
    );
    // The first run ends (its CPU waited for the compiler thread): its
    // blocks are written.
    cold.flush();
    let warm = reopen_store(&dir);
    lockstep_with(
        Engine::Jit,
        cache,
        mode64,
        words,
        regs,
        steps,
        Compiling {
            store: Some(warm.clone()),
            thread: false,
            ..Compiling::default()
        },
    );
    assert!(
        warm.stats().hits >= cold.stats().misses.min(1),
        "cold {:?}, warm {:?}",
        cold.stats(),
        warm.stats()
    );
    // The second run ends too, while its directory is there.
    warm.flush();
    drop(dir);
    warm
}

/// A block that runs fewer times than `compile_after` in every process is
/// compiled all the same once its runs add up across processes: the store
/// keeps their count (`heat`), and each run stays in lockstep.
#[test]
fn runs_of_earlier_processes_count_toward_compiling_a_block() {
    // The loop's block runs 12 times a process and is compiled after 16.
    let words = program(&[], 12);
    let (dir, first) = scratch_store();
    let run = |store: &Arc<TranslationStore>| {
        let compiling = Compiling {
            store: Some(store.clone()),
            thread: false,
            compile_after: 16,
            ..Compiling::default()
        };
        lockstep_with(
            Engine::Jit,
            DEFAULT_BLOCK_CACHE_INSNS,
            false,
            &words,
            &[0; 15],
            &[300],
            compiling,
        );
        store.flush();
        store.stats()
    };
    let reopen = || reopen_store(&dir);
    let stats = run(&first);
    assert_eq!(stats.misses, 0, "nothing is compiled in one process");
    let second = reopen();
    let stats = run(&second);
    assert_eq!((stats.hits, stats.misses), (0, 1), "12 runs, then 4 more");
    let third = reopen();
    assert_eq!(run(&third).hits, 1, "found compiled");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]

    #[test]
    fn code_loaded_from_a_translation_store_matches_the_interpreter_in_lockstep(
        body in prop::collection::vec(any::<Gen>(), 1..120),
        iterations in 1u16..40,
        mode64: bool,
        regs in prop::collection::vec(any::<u64>(), 15),
        steps in prop::collection::vec(1u16..400, 1..8),
        regions: bool,
    ) {
        let words = program(&body, iterations);
        let compile_after = if regions { 3 } else { 1 };
        warm_jit_lockstep(DEFAULT_BLOCK_CACHE_INSNS, mode64, &words, &regs, &steps, compile_after);
    }
}

/// A long run in big steps: blocks run as units between deadlines. The
/// body is drawn from kinds that neither trap nor store into the code
/// (ALU, HI/LO, aligned loads and stores to the data page, forward
/// branches, FP), so the loop runs all its iterations.
#[test]
fn block_tier_matches_the_interpreter_over_long_slices() {
    const TAME: [u8; 19] = [
        0, 1, 2, 3, 4, 5, 7, 9, 10, 12, 14, 16, 18, 22, 23, 24, 26, 30, 32,
    ];
    let body: Vec<Gen> = (0..60u16)
        .map(|i| {
            let kind = TAME[(i as usize * 7) % TAME.len()];
            // c % 4 in {1, 2}: base $s0 (data), aligned offsets.
            let c = 1 + (i % 2) as u8;
            (kind, i as u8, (i * 3) as u8, c, i.wrapping_mul(2654))
        })
        .collect();
    let regs: Vec<u64> = (0..15u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    let words = program(&body, 500);
    let steps = [10_000, 3, 50_000, 1];
    for engine in TIERS {
        let b = lockstep_o32(engine, &words, &regs, &steps);
        assert!(b.instructions_in_blocks() > b.instructions() / 2);
        assert_eq!(b.block_cache_flushes(), 0);
        if engine == Engine::Jit {
            assert!(b.instructions_compiled() > b.instructions() / 2);
        }
        // The same with a cache too small for the loop: emptied over and over.
        let b = lockstep(engine, 64, false, &words, &regs, &steps);
        assert!(b.block_cache_flushes() > 100, "{}", b.block_cache_flushes());
    }
    // Compiled code loaded from a store: every block of the loop hits.
    let warm = warm_jit_lockstep(DEFAULT_BLOCK_CACHE_INSNS, false, &words, &regs, &steps, 1);
    let s = warm.stats();
    assert!(s.hits > 0 && s.misses == 0, "{s:?}");
    warm_jit_lockstep(64, false, &words, &regs, &steps, 1);
}

/// A loop that rewrites an instruction of its own hot block halfway: the
/// block tier must drop the translated block and run the new instruction
/// from the next iteration on (on both engines, in lockstep).
#[test]
fn a_store_into_a_running_block_replaces_its_instruction() {
    let words = [
        mips::addiu(mips::T9, mips::ZERO, 10),
        mips::lui(mips::S1, (CODE >> 16) as u16),
        mips::lui(mips::T0, 0x2442),
        mips::ori(mips::T0, mips::T0, 0x0064), // $t0 = addiu $v0, $v0, 100
        mips::addiu(mips::V0, mips::V0, 1),    // 4: rewritten when $t9 is 5
        mips::addiu(mips::T9, mips::T9, -1),
        itype(opcode::BNE, mips::T9, mips::A0, 2), // to 9 unless $t9 == $a0
        mips::nop(),
        mips::sw(mips::T0, 16, mips::S1), // 8: the store into word 4
        itype(opcode::BNE, mips::T9, mips::ZERO, (-6i16) as u16), // back to 4
        mips::nop(),
        mips::break_(0),
    ];
    // $v0 = 0, $a0 = 5 (regs start at $at).
    let mut regs = vec![0u64; 15];
    regs[3] = 5;
    for (engine, steps) in TIERS
        .into_iter()
        .flat_map(|e| [(e, &[60_000u16][..]), (e, &[7, 1, 30][..])])
    {
        let b = lockstep_o32(engine, &words, &regs, steps);
        assert_eq!(
            b.gpr[2],
            5 + 5 * 100,
            "five iterations of +1, then five of +100"
        );
        assert!(b.instructions_in_blocks() > 0);
    }
}

/// A load in one block whose result the next block's first instruction
/// reads (the R4000 manual's "load delay of two cycles", across a block
/// boundary): that instruction stalls, and the block still runs as a unit
/// from the cycle it issues at, on both tiers, in lockstep.
#[test]
fn a_first_instruction_waiting_for_a_load_stalls_its_block_as_a_unit() {
    let words = [
        mips::lui(mips::S0, (DATA >> 16) as u16),
        mips::addiu(mips::T9, mips::ZERO, 2000),
        // The loop: a branch never taken to just past its slot (so that a
        // block ends after the slot, where the taken path joins), with the
        // load in its slot...
        itype(opcode::BNE, mips::A1, mips::ZERO, 1),
        mips::lw(mips::T0, 0, mips::S0),
        // ...then a block whose first instruction reads it at once.
        mips::addu(mips::V0, mips::V0, mips::T0),
        mips::addiu(mips::T9, mips::T9, -1),
        itype(opcode::BNE, mips::T9, mips::ZERO, (-5i16) as u16),
        mips::nop(),
        mips::break_(0),
    ];
    for engine in TIERS {
        let b = lockstep_o32(engine, &words, &[0; 15], &[60_000]);
        // All but the start-up and the first visits run in whole blocks.
        let outside = b.instructions() - b.instructions_in_blocks();
        assert!(outside < 50, "{outside} instructions outside blocks");
    }
}

/// How the block after the load starts, in [`a_second_instruction_waiting_for_a_load`].
#[derive(Clone, Copy)]
enum Then {
    /// Its third instruction adds.
    Adds,
    /// Its third instruction raises an address error on every lap.
    Faults,
    /// Its first instruction is a load too, whose result the third reads:
    /// the block must not wait (that load's result would come a cycle
    /// late), and runs one instruction at a time.
    LoadsFirst,
    /// Its first instruction is a load whose result nothing in the block
    /// reads (a function's epilogue: `lw $s0; jr $ra`): the block waits.
    LoadsFirstUnread,
    /// Its first instruction stores, and its third raises an address
    /// error on every lap.
    StoresFirstThenFaults,
    /// Its first instruction loads (nothing reads the result), and its
    /// third raises an address error on every lap, a cycle before that
    /// result is ready by the first's own issue.
    LoadsFirstThenFaults,
    /// Its second instruction is the reader and a store, which raises an
    /// address error on every lap: charged no stall, from the first's issue.
    SecondStoreFaults,
    /// Its first instruction loads, and its second is the reader and a
    /// store that faults on every lap, while the load is still on its way.
    LoadsFirstSecondFaults,
}

/// The loop of the test above, with an unrelated operation first: the
/// next block's second instruction reads the load, whose result is not
/// ready by then. The block's start waits a cycle less than the load (see
/// `Block::start`) and it still runs as a unit, in lockstep.
fn a_second_instruction_waiting_for_a_load(then: Then, steps: &[u16]) -> Cpu {
    let first = match then {
        Then::LoadsFirst
        | Then::LoadsFirstUnread
        | Then::LoadsFirstThenFaults
        | Then::LoadsFirstSecondFaults => mips::lw(mips::T2, 4, mips::S0),
        Then::StoresFirstThenFaults => mips::sw(mips::A2, 8, mips::S0),
        _ => mips::or(mips::V1, mips::A2, mips::A3),
    };
    let second = match then {
        // $a0 is unaligned: AdES.
        Then::SecondStoreFaults | Then::LoadsFirstSecondFaults => mips::sw(mips::T0, 0, mips::A0),
        _ => mips::addu(mips::V0, mips::V0, mips::T0),
    };
    let third = match then {
        Then::Adds | Then::LoadsFirstUnread => mips::addu(mips::T1, mips::T1, mips::V0),
        // $a0 is unaligned: AdEL.
        Then::Faults | Then::StoresFirstThenFaults | Then::LoadsFirstThenFaults => {
            mips::lw(mips::T1, 0, mips::A0)
        }
        Then::LoadsFirst => mips::addu(mips::T1, mips::T1, mips::T2),
        Then::SecondStoreFaults | Then::LoadsFirstSecondFaults => {
            mips::addu(mips::T1, mips::T1, mips::V0)
        }
    };
    let words = [
        mips::lui(mips::S0, (DATA >> 16) as u16),
        mips::addiu(mips::T9, mips::ZERO, 2000),
        itype(opcode::BNE, mips::A1, mips::ZERO, 1),
        mips::lw(mips::T0, 0, mips::S0),
        // The next block: an instruction whose issue no reader sees, then
        // the read.
        first,
        second,
        third,
        mips::addiu(mips::T9, mips::T9, -1),
        itype(opcode::BNE, mips::T9, mips::ZERO, (-7i16) as u16),
        mips::nop(),
        mips::break_(0),
    ];
    let mut regs = [0u64; 15];
    regs[3] = DATA as u64 + 1; // $a0
    let mut last = None;
    for engine in TIERS {
        last = Some(lockstep_o32(engine, &words, &regs, steps));
    }
    last.expect("a tier ran")
}

#[test]
fn a_second_instruction_waiting_for_a_load_delays_its_block_as_a_unit() {
    let b = a_second_instruction_waiting_for_a_load(Then::Adds, &[60_000]);
    // All but the start-up and the first visits run in whole blocks.
    let outside = b.instructions() - b.instructions_in_blocks();
    assert!(outside < 50, "{outside} instructions outside blocks");
    // Deadlines in the middle of blocks: still in lockstep.
    a_second_instruction_waiting_for_a_load(Then::Adds, &[7, 1, 30]);
}

#[test]
fn a_fault_after_a_second_instruction_waited_leaves_the_interpreters_clock() {
    for steps in [&[60_000u16][..], &[7, 1, 30]] {
        a_second_instruction_waiting_for_a_load(Then::Faults, steps);
    }
}

/// Runs each of `thens` with deadlines after every block and inside them.
fn waiting_in_lockstep(thens: &[Then]) -> Vec<Cpu> {
    let mut out = Vec::new();
    for &then in thens {
        a_second_instruction_waiting_for_a_load(then, &[7, 1, 30]);
        out.push(a_second_instruction_waiting_for_a_load(then, &[60_000]));
    }
    out
}

#[test]
fn a_load_or_store_first_lets_the_block_wait_for_its_second_instruction() {
    for b in waiting_in_lockstep(&[Then::LoadsFirstUnread]) {
        let outside = b.instructions() - b.instructions_in_blocks();
        assert!(outside < 50, "{outside} instructions outside blocks");
    }
    // A third instruction that faults: the clock, and the first's result
    // ready a cycle after it as the interpreter left it.
    waiting_in_lockstep(&[Then::StoresFirstThenFaults, Then::LoadsFirstThenFaults]);
}

#[test]
fn a_second_instruction_that_faults_after_waiting_is_charged_no_stall() {
    waiting_in_lockstep(&[Then::SecondStoreFaults, Then::LoadsFirstSecondFaults]);
}

#[test]
fn a_block_whose_first_instruction_loads_does_not_wait_for_its_second() {
    let b = a_second_instruction_waiting_for_a_load(Then::LoadsFirst, &[60_000]);
    let outside = b.instructions() - b.instructions_in_blocks();
    assert!(outside > 2000, "{outside} instructions outside blocks");
}

/// A jump to 0xffffffff from compiled code (a function pointer of -1):
/// the jump table's empty entries must not answer for it, or the block
/// after the jump would be a function that is no block. The fetch raises
/// an address error, as in the interpreter, on every tier.
#[test]
fn a_jump_to_the_last_address_raises_an_address_error_on_every_tier() {
    let words = [
        // The loop: $t0 = $t3 (its start) until $t9 runs out, then -1.
        mips::addiu(mips::T9, mips::T9, -1),
        itype(opcode::SLTIU, mips::T9, mips::T1, 1),
        special(funct::SUBU, mips::ZERO, mips::T1, mips::T2, 0),
        mips::or(mips::T0, mips::T3, mips::T2),
        mips::jr(mips::T0),
        mips::nop(),
    ];
    let mut regs = [0u64; 25];
    regs[10] = CODE as u64; // $t3
    regs[24] = 40; // $t9
    fetch_fails_alike_on_every_tier(&words, &regs, u32::MAX);
}

/// Runs `words` from `regs` on the interpreter, which must stop with an
/// address error fetching at `pc`, and on every tier, which must stop
/// the same way in the same state.
fn fetch_fails_alike_on_every_tier(words: &[u32], regs: &[u64], pc: u32) {
    let run = |engine, tlb_only| {
        let compiling = Compiling {
            tlb_only,
            registers_as_given: true,
            ..Compiling::default()
        };
        let cache = DEFAULT_BLOCK_CACHE_INSNS;
        let (mut cpu, mut mem) = machine_with(engine, cache, false, words, regs, compiling);
        let stop = cpu.run(&mut mem, &mut (), 60_000);
        (stop, cpu)
    };
    let (stop, interp) = run(Engine::Interp, false);
    let StopReason::Exception(e) = stop else {
        panic!("the interpreter stopped with {stop:?}");
    };
    assert_eq!((e.code, interp.pc()), (cpu_mips::ExcCode::AdEL, pc));
    for (engine, tlb_only) in TIERS.iter().flat_map(|&e| [(e, false), (e, true)]) {
        let (s, cpu) = run(engine, tlb_only);
        assert_eq!(s, stop, "{engine:?}");
        let diff = interp.differences(&cpu);
        assert!(diff.is_empty(), "{engine:?}: {diff:?}");
    }
}

/// Runs `words`, a loop that counts $t9 down to zero and then BREAKs, on
/// every tier in lockstep with the interpreter (with the deadlines
/// `steps`): every lap must run, and on the compiled tier more than
/// `compiled` instructions compiled.
fn laps_in_lockstep(words: &[u32], regs: &[u64], steps: &[u16], compiled: u64) {
    for engine in TIERS {
        let cpu = lockstep_o32(engine, words, regs, steps);
        assert_eq!(cpu.gpr[mips::T9.idx()], 0, "{engine:?}: every lap ran");
        if engine == Engine::Jit {
            assert!(
                cpu.instructions_compiled() > compiled,
                "{engine:?}: {} instructions compiled",
                cpu.instructions_compiled()
            );
        }
    }
}

/// A block reached by chaining that calls the interpreter's `execute`
/// (DIV) and ends early (its load misses the soft TLB, and at the last lap
/// faults): compiled code is given no `Block`, so the helper and the run
/// loop find this block by its address in the jump table, not the block the
/// run loop entered.
#[test]
fn a_chained_block_that_ends_early_is_finished_from_its_own_instructions() {
    let (words, regs) = two_block_loop_that_ends_early();
    laps_in_lockstep(&words, &regs, &[90, 4000, 333], 2000);
}

/// 300 laps that call a function 64 KiB past the loop's first block
/// through a register and return: the two blocks once shared an entry of
/// the jump table and took it from each other on every lap, each trip
/// leaving compiled code for the run loop. Their entries now differ, and
/// compiled code's own lookup through a register (the call and the
/// return) finds what the run loop's finds: after the first laps, which
/// compile the blocks, the laps chain without the run loop.
#[test]
fn blocks_64_kib_apart_chain_to_each_other_without_the_run_loop() {
    let far = CODE + 0x1_0000;
    let words = [
        mips::addiu(mips::T9, mips::T9, -1),
        special(funct::JALR, mips::T3, mips::ZERO, mips::RA, 0),
        mips::nop(),
        itype(opcode::BNE, mips::T9, mips::ZERO, (-4i16) as u16),
        mips::nop(),
        mips::break_(0),
    ];
    let mut regs = [0u64; 25];
    regs[10] = far as u64; // $t3
    regs[24] = 300; // $t9
    let run = |engine| {
        let (_, mut mem) = testmem::machine(false, &words);
        mem.map(far, 4096, false, true);
        mem.poke_words(
            far,
            &[
                mips::addiu(mips::T1, mips::T1, 1),
                mips::jr(mips::RA),
                mips::nop(),
            ],
        );
        let mut cpu = Cpu::new(CpuConfig {
            engine,
            compile_after: 1,
            compile_on_thread: false,
            ..CpuConfig::default()
        });
        cpu.set_pc(CODE);
        for (r, v) in regs.iter().enumerate() {
            cpu.gpr[1 + r] = *v;
        }
        match cpu.run(&mut mem, &mut (), cpu.cycles() + 10_000_000) {
            StopReason::Exception(e) if e.code == cpu_mips::ExcCode::Bp => {}
            other => panic!("{engine:?} stopped with {other:?}"),
        }
        cpu
    };
    let want = run(Engine::Interp);
    assert_eq!(want.gpr[mips::T1.idx()], 300);
    let got = run(Engine::Jit);
    assert_eq!(want.differences(&got), Vec::<String>::new());
    if got.instructions_compiled() == 0 {
        eprintln!("no compiled tier on this host: chaining not checked");
        return;
    }
    assert!(
        got.compiled_entries() < 20,
        "compiled code entered from the run loop {} times in 300 laps",
        got.compiled_entries()
    );
}

/// 300 laps of two blocks, A jumping to B: B divides (the interpreter's
/// `execute`), loads from $s0 (a soft-TLB miss the first time) and, at the
/// last lap, from an unmapped address (an address error). The words and
/// the registers from $at.
pub(crate) fn two_block_loop_that_ends_early() -> (Vec<u32>, [u64; 25]) {
    let b_start = CODE + 12;
    let words = vec![
        // Block A: count down, jump to B.
        mips::addiu(mips::T9, mips::T9, -1),
        jtype(opcode::J, b_start),
        mips::nop(),
        // Block B: a divide, then a load from $s0, or at the last lap from
        // 64 KiB past it (unmapped): an address error.
        special(funct::DIV, mips::T3, mips::T1, mips::ZERO, 0),
        itype(opcode::SLTIU, mips::T9, mips::T2, 1),
        mips::sll(mips::T2, mips::T2, 16),
        mips::addu(mips::T0, mips::S0, mips::T2),
        mips::lw(mips::V0, 0, mips::T0),
        itype(opcode::BNE, mips::T9, mips::ZERO, (-9i16) as u16),
        mips::nop(),
        mips::break_(0),
    ];
    let mut regs = [0u64; 25];
    regs[8] = 7; // $t1
    regs[10] = 1000; // $t3
    regs[15] = DATA as u64; // $s0
    regs[24] = 300; // $t9
    (words, regs)
}

/// A jump through a register whose high word is not its low word's sign
/// (the 64-bit logical operations keep such a value in 32-bit mode too):
/// the target is folded to a kernel address, as the interpreter folds it,
/// and the fetch raises an address error on every tier. (Compiled code
/// chains by the whole register and folds only on its cold paths; chaining
/// by the low word alone would run the compiled block at it. It runs so
/// only without the view: with it, the CPU keeps off compiled code while
/// a register is not sign-extended.)
#[test]
fn a_jump_through_a_register_not_sign_extended_is_folded_on_every_tier() {
    let t4 = Gpr::new(12);
    let words = [
        // The loop: $t0 = $t3 (its start) until $t9 runs out, then $t3
        // with $s1's high word.
        mips::addiu(mips::T9, mips::T9, -1),
        itype(opcode::SLTIU, mips::T9, mips::T1, 1),
        special(funct::SUBU, mips::ZERO, mips::T1, mips::T2, 0),
        special(funct::AND, mips::S1, mips::T2, t4, 0),
        mips::or(mips::T0, mips::T3, t4),
        mips::jr(mips::T0),
        mips::nop(),
    ];
    let mut regs = [0u64; 25];
    regs[10] = CODE as u64; // $t3
    regs[16] = 1 << 32; // $s1
    regs[24] = 40; // $t9
    fetch_fails_alike_on_every_tier(&words, &regs, CODE | 0x8000_0000);
}

/// Accesses through one base register that cross into the next page (its
/// first visit misses the soft TLB), come back to the first page, and at
/// the last lap one is misaligned (Address Error): each must find its own
/// page, or fault, as the interpreter does.
#[test]
fn accesses_across_a_page_boundary_find_each_its_own_page() {
    let words = [
        mips::addiu(mips::T9, mips::T9, -1),
        // $t0 = $s0, or $s0 + 2 at the last lap.
        itype(opcode::SLTIU, mips::T9, mips::T2, 1),
        mips::sll(mips::T2, mips::T2, 1),
        mips::addu(mips::T0, mips::S0, mips::T2),
        // $s0 is 4 bytes before the second page.
        mips::sw(mips::T1, 0, mips::S0),
        mips::sw(mips::T3, 4, mips::S0),
        mips::lw(mips::V0, 8, mips::S0),
        mips::lw(mips::V1, -4, mips::S0),
        itype(opcode::LB, mips::T0, mips::A1, 0),
        mips::lw(mips::A2, 4, mips::T0),
        mips::addu(mips::T1, mips::T1, mips::V0),
        itype(opcode::BNE, mips::T9, mips::ZERO, (-12i16) as u16),
        mips::nop(),
        mips::break_(0),
    ];
    let mut regs = [0u64; 25];
    regs[8] = 3; // $t1
    regs[10] = 5; // $t3
    regs[15] = (DATA + 4092) as u64; // $s0
    regs[24] = 300; // $t9
    laps_in_lockstep(&words, &regs, &[70, 5000, 211], 2000);
}

/// A byte load from a kernel address (sign-extended, on the last 4 KiB
/// below 2^64) at the last lap, after every lap loaded from the data
/// page: an address error on every tier. Compiled code finds no entry of
/// the soft TLB for it, empty or full: an empty entry's tag is a page its
/// index cannot hold, which no address's bits match (see `jit::tlb`).
#[test]
fn a_load_from_a_kernel_address_raises_an_address_error_on_every_tier() {
    let t4 = Gpr::new(12);
    let words = [
        mips::addiu(mips::T9, mips::T9, -1),
        // $t0 = $s0, or $s0 ^ $s1 (a kernel address) at the last lap.
        itype(opcode::SLTIU, mips::T9, mips::T2, 1),
        special(funct::SUBU, mips::ZERO, mips::T2, mips::T2, 0),
        special(funct::AND, mips::S1, mips::T2, t4, 0),
        special(funct::XOR, mips::S0, t4, mips::T0, 0),
        itype(opcode::LB, mips::T0, mips::A1, 4),
        mips::lw(mips::V0, 8, mips::S0),
        mips::addu(mips::T1, mips::T1, mips::V0),
        itype(opcode::BNE, mips::T9, mips::ZERO, (-9i16) as u16),
        mips::nop(),
        mips::break_(0),
    ];
    let mut regs = [0u64; 25];
    regs[15] = DATA as u64; // $s0
    regs[16] = DATA as u64 ^ 0xffff_ffff_ffff_f000; // $s1
    regs[24] = 300; // $t9
    laps_in_lockstep(&words, &regs, &[70, 5000, 211], 2000);
}

/// The moves MIPS code writes with $zero or a zero immediate (`or rd, rs,
/// $zero` is how assemblers write `move`; `or rd, $zero, rt`, `xor` with
/// $zero, `ori` and `xori` with 0 too), which compiled code makes moves,
/// each into a register the loop then adds up: every lap in lockstep
/// (whole registers compared). $s1's high word is set, which OR and XOR,
/// 64-bit in 32-bit mode too, keep: nothing is cut to 32 bits.
#[test]
fn moves_through_zero_match_the_interpreter() {
    let s2 = Gpr::new(18);
    let words = [
        mips::addiu(mips::T9, mips::T9, -1),
        mips::or(mips::T0, mips::S1, mips::ZERO),
        mips::or(mips::T1, mips::ZERO, mips::T0),
        special(funct::XOR, mips::T1, mips::ZERO, mips::T2, 0),
        special(funct::XOR, mips::ZERO, mips::T2, mips::T3, 0),
        mips::ori(mips::A0, mips::T3, 0),
        itype(opcode::XORI, mips::A0, mips::A1, 0),
        mips::addu(s2, s2, mips::A1),
        // A new low word each lap, the high word kept.
        special(funct::XOR, mips::S1, mips::T9, mips::S1, 0),
        itype(opcode::BNE, mips::T9, mips::ZERO, (-10i16) as u16),
        mips::nop(),
        mips::break_(0),
    ];
    let mut regs = [0u64; 25];
    regs[16] = 0x1234_5678_0000_0010; // $s1
    regs[24] = 300; // $t9
    laps_in_lockstep(&words, &regs, &[70, 5000, 211], 2000);
}

/// Accesses through one register after a narrower one (a byte, then a
/// halfword and words): compiled code compares a later access with the
/// page the first one found, but the byte proved nothing of the
/// register's alignment, so each wider access checks its own. At the last
/// lap the register is odd and the halfword is misaligned (Address Error).
#[test]
fn an_access_after_a_narrower_one_through_the_same_register_checks_its_own_alignment() {
    let words = [
        mips::addiu(mips::T9, mips::T9, -1),
        // $t0 = $s0, or $s0 + 1 at the last lap.
        itype(opcode::SLTIU, mips::T9, mips::T2, 1),
        mips::addu(mips::T0, mips::S0, mips::T2),
        itype(opcode::LB, mips::T0, mips::A2, 0),
        itype(opcode::LH, mips::T0, mips::A3, 2),
        mips::lw(mips::V0, 4, mips::T0),
        mips::lw(mips::V1, 8, mips::T0),
        mips::addu(mips::T1, mips::V0, mips::A3),
        mips::sw(mips::T1, 12, mips::T0),
        itype(opcode::BNE, mips::T9, mips::ZERO, (-10i16) as u16),
        mips::nop(),
        mips::break_(0),
    ];
    let mut regs = [0u64; 25];
    regs[15] = (DATA + 64) as u64; // $s0
    regs[24] = 300; // $t9
    laps_in_lockstep(&words, &regs, &[70, 5000, 211], 2000);
}

/// A load from a page of decoded code, then a store into it through the
/// same base register: the page is in the soft TLB's load table, but not
/// in its store table, so the store leaves compiled code and drops the
/// page's decoded instructions. Each lap rewrites the instruction on the
/// next page that the loop then runs.
#[test]
fn a_store_into_code_after_a_load_from_it_drops_its_decoded_instructions() {
    let page2 = CODE + 4096;
    let mut words = vec![mips::nop(); 1027];
    words[..9].copy_from_slice(&[
        mips::addiu(mips::T9, mips::T9, -1),
        itype(opcode::XORI, mips::T1, mips::T1, 3),
        mips::lw(mips::T0, 0, mips::A1),
        mips::sw(mips::T1, 0, mips::A1),
        jtype(opcode::J, page2),
        mips::nop(),
        itype(opcode::BNE, mips::T9, mips::ZERO, (-7i16) as u16),
        mips::nop(),
        mips::break_(0),
    ]);
    words[1024..].copy_from_slice(&[
        mips::addiu(mips::V0, mips::V0, 100),
        jtype(opcode::J, CODE + 24),
        mips::nop(),
    ]);
    let mut regs = [0u64; 25];
    regs[4] = page2 as u64; // $a1
    regs[8] = mips::addiu(mips::V0, mips::V0, 1) as u64; // $t1
    regs[24] = 200; // $t9
    laps_in_lockstep(&words, &regs, &[80, 3000], 100);
}

/// Unaligned words copied as IDO copies them: LWL and LWR at `off` and
/// `off + 3` (and SWL and SWR), in either order, which compiled code runs
/// as one unaligned access. Each lap moves the words a byte, so some cross
/// into the next page (both instructions then run on the block tier);
/// the registers start with junk in their high words (the pair's result
/// is sign-extended); and a pair whose first load writes its own base is
/// no pair.
#[test]
fn unaligned_word_copies_match_the_interpreter_across_a_page() {
    let (a2, s2) = (mips::A2, Gpr::new(18));
    let lwl = |rt, off, base| itype(opcode::LWL, base, rt, off as u16);
    let lwr = |rt, off, base| itype(opcode::LWR, base, rt, off as u16);
    let swl = |rt, off, base| itype(opcode::SWL, base, rt, off as u16);
    let swr = |rt, off, base| itype(opcode::SWR, base, rt, off as u16);
    let words = [
        // The second page's first words are not zero (a word read across
        // the page's end from the first page's host bytes would differ).
        mips::lui(mips::AT, ((DATA + 4096) >> 16) as u16),
        mips::ori(mips::AT, mips::AT, ((DATA + 4096) & 0xffff) as u16),
        mips::sw(mips::T1, 0, mips::AT),
        mips::sw(mips::T0, 4, mips::AT),
        // The loop.
        mips::addiu(mips::T9, mips::T9, -1),
        lwl(mips::T0, 0, mips::S0),
        lwr(mips::T0, 3, mips::S0),
        lwr(mips::T1, 7, mips::S0),
        lwl(mips::T1, 4, mips::S0),
        swl(mips::T0, 16, mips::S1),
        swr(mips::T0, 19, mips::S1),
        swr(mips::T1, 23, mips::S1),
        swl(mips::T1, 20, mips::S1),
        // Its own base: the LWR's address is the word the LWL loads
        // (DATA + 0x40) plus 11.
        mips::lui(a2, (DATA >> 16) as u16),
        mips::ori(a2, a2, 16),
        lwl(a2, 8, a2),
        lwr(a2, 11, a2),
        mips::addu(s2, s2, a2),
        mips::addiu(mips::S0, mips::S0, 1),
        mips::addiu(mips::S1, mips::S1, 1),
        itype(opcode::BNE, mips::T9, mips::ZERO, (-17i16) as u16),
        mips::nop(),
        mips::break_(0),
    ];
    let mut regs = [0u64; 25];
    // The doubleword at DATA + 24 is $a0's value rotated left by 5: its
    // high word DATA + 0x40.
    regs[3] = ((DATA as u64 + 0x40) << 32).rotate_right(5); // $a0
    regs[7] = 0x1234_5678_9abc_def0; // $t0
    regs[8] = 0xfedc_ba98_7654_3210; // $t1
    regs[15] = (DATA + 4086) as u64; // $s0
    regs[16] = (DATA + 4070) as u64; // $s1
    regs[24] = 14; // $t9
    laps_in_lockstep(&words, &regs, &[50, 3000, 7], 100);
}

/// The FP arithmetic compiled code inlines (ADD, SUB, MUL, DIV in S and
/// D, CVT.D.W, MOV) on every pair of fifteen operands (ordinary, zero,
/// huge, tiny, denormal, NaN, infinity) under four FCSR settings (round to
/// nearest, round toward zero, Inexact enabled, FS): the host's fast path
/// where it applies and `execute` elsewhere must give the interpreter's
/// results, FCSR and traps, in lockstep.
#[test]
fn inlined_fp_arithmetic_matches_the_interpreter_flags_and_traps_included() {
    let operands: [f64; 15] = [
        1.5,
        -3.25,
        0.1,
        3.0,
        1e10,
        -1e-10,
        0.0,
        -0.0,
        1e300,
        1e-300,
        f64::NAN,
        f64::INFINITY,
        5e-324,
        f64::MIN_POSITIVE,
        1.0 + f64::EPSILON,
    ];
    // `machine` stores regs[r].rotate_left(5) at DATA + 8r.
    let regs: Vec<u64> = operands
        .iter()
        .map(|x| x.to_bits().rotate_right(5))
        .collect();
    for setting in [0, 1, 0x80, 0x0100_0000] {
        let words = fp_pairs_program(setting, operands.len());
        for engine in TIERS {
            let b = lockstep(
                engine,
                DEFAULT_BLOCK_CACHE_INSNS,
                false,
                &words,
                &regs,
                &[400, 7, 1, 13],
            );
            if engine == Engine::Jit {
                assert!(b.instructions_compiled() > b.instructions() / 2);
            }
        }
    }
}

/// For every pair of the `n` doubles at DATA: FCSR set to `setting`, the
/// inlined FP operations on the pair (and on their words as singles and
/// an integer), FCSR stored after them (an array from DATA + 0x100); ends
/// with BREAK.
fn fp_pairs_program(setting: u32, n: usize) -> Vec<u32> {
    let (t0, t1, t2, t3, t4) = (mips::T0, mips::T1, mips::T2, mips::T3, Gpr::new(12));
    let (d, s, w) = (17, 16, 20);
    let (ldc1, lwc1) = (0x35, 0x31);
    let mut words = vec![mips::lui(mips::S0, (DATA >> 16) as u16)];
    words.extend(mips::li32(t3, setting));
    words.extend([
        mips::addiu(mips::S1, mips::S0, 8 * n as i16), // the operands' end
        mips::addiu(t4, mips::S0, 0x100),              // where FCSR goes
        mips::move_(t0, mips::S0),
    ]);
    let outer = words.len();
    words.push(mips::move_(t1, mips::S0));
    let inner = words.len();
    words.extend([
        mips::ctc1(t3, 31),
        itype(ldc1, t0, Gpr::new(0), 0),
        itype(ldc1, t1, Gpr::new(2), 0),
        cop1(d, 2, 0, 4, 0),              // add.d $f4, $f0, $f2
        cop1(d, 2, 0, 6, 1),              // sub.d
        cop1(d, 2, 0, 8, 2),              // mul.d
        cop1(d, 2, 0, 10, 3),             // div.d
        itype(lwc1, t0, Gpr::new(12), 0), // a double's high word
        itype(lwc1, t1, Gpr::new(14), 4), // and a low word
        cop1(s, 14, 12, 16, 0),           // add.s
        cop1(s, 14, 12, 18, 1),           // sub.s
        cop1(s, 14, 12, 20, 2),           // mul.s
        cop1(s, 14, 12, 22, 3),           // div.s
        cop1(w, 0, 12, 24, 0x21),         // cvt.d.w
        cop1(d, 0, 4, 26, 6),             // mov.d
        cop1(s, 0, 16, 28, 6),            // mov.s
        mips::cfc1(t2, 31),
        mips::sw(t2, 0, t4),
        mips::addiu(t4, t4, 4),
        mips::addiu(t1, t1, 8),
    ]);
    let back = |len: usize, to: usize| (to as i16 - len as i16 - 1) as u16;
    words.push(itype(opcode::BNE, t1, mips::S1, back(words.len(), inner)));
    words.extend([mips::nop(), mips::addiu(t0, t0, 8)]);
    words.push(itype(opcode::BNE, t0, mips::S1, back(words.len(), outer)));
    words.extend([mips::nop(), mips::break_(0)]);
    words
}

/// Blocks that branch to themselves loop inside their compiled code, with
/// their registers held from lap to lap. Each of these must match the
/// interpreter at every stop: laps cut by deadlines (every few cycles),
/// instructions that call the interpreter inside the loop (DIV, SQRT.D),
/// HI/LO and FP on the inline path, a branch-likely whose last lap
/// nullifies its slot, a load that faults on a later lap, and a loop that
/// rewrites its own code.
#[test]
fn a_block_looping_to_itself_matches_the_interpreter_lap_by_lap() {
    let (t0, t1, t2, t9) = (mips::T0, mips::T1, mips::T2, mips::T9);
    let (v0, v1, s0, s1) = (mips::V0, mips::V1, mips::S0, mips::S1);
    let (t3, t4, s2) = (mips::T3, Gpr::new(12), Gpr::new(18));
    let steps: [&[u16]; 2] = [&[60_000], &[400, 7, 1, 13]];
    // Registers $at..$t7 and the data words: small, distinct, not zero.
    let regs: Vec<u64> = (1..=15).map(|i| i * 0x0103_0507).collect();
    let bne = |rs, rt, back: i16| itype(opcode::BNE, rs, rt, back as u16);
    let bnel = |rs, rt, back: i16| itype(0x15, rs, rt, back as u16);
    let programs: Vec<(&str, Vec<u32>, Option<u64>)> = vec![
        (
            "arithmetic, HI/LO, DIV and SQRT.D through execute, LWL and FP inline",
            vec![
                mips::lui(s0, (DATA >> 16) as u16),
                mips::addiu(s1, mips::ZERO, 7),
                mips::addiu(t9, mips::ZERO, 300),
                mips::lw(t0, 0, s0), // the loop: 3..=15
                mips::addu(v0, v0, t0),
                mips::addu(v0, v0, t2), // the last lap's LWL
                special(funct::MULT, v0, t9, mips::ZERO, 0),
                special(funct::MFLO, mips::ZERO, mips::ZERO, v1, 0),
                special(funct::DIV, v1, s1, mips::ZERO, 0),
                mips::sw(v1, 4, s0),
                itype(0x22, s0, t2, 5), // lwl $t2, 5($s0)
                cop1(17, 0, 2, 4, 4),   // sqrt.d $f4, $f2
                cop1(17, 4, 6, 6, 0),   // add.d $f6, $f6, $f4
                mips::addiu(t9, t9, -1),
                bne(t9, mips::ZERO, -12),
                mips::addiu(t1, t1, 3),
                mips::break_(0),
            ],
            None,
        ),
        (
            "a branch-likely: the last lap nullifies the slot",
            vec![
                mips::addiu(t9, mips::ZERO, 200),
                mips::addiu(t9, t9, -1), // the loop: 1..=3
                bnel(t9, mips::ZERO, -2),
                mips::addiu(v0, v0, 7),
                mips::break_(0),
            ],
            None,
        ),
        (
            "a load that faults on its 24th lap, then on each after",
            vec![
                mips::lui(s0, (DATA >> 16) as u16),
                mips::addiu(s1, s0, 0x7fff),
                mips::addiu(s1, s1, 0x7fff), // past the data pages
                mips::addiu(s0, s0, 8000),
                mips::lw(t0, 0, s0), // the loop: 4..=7
                mips::addu(v0, v0, t0),
                bne(s0, s1, -3),
                mips::addiu(s0, s0, 8),
                mips::break_(0),
            ],
            None,
        ),
        (
            "a store into its own first instruction on its 16th lap",
            vec![
                mips::lui(s1, (CODE >> 16) as u16),
                mips::lui(s0, (DATA >> 16) as u16),
                special(funct::SUBU, s1, s0, s2, 0), // CODE - DATA
                mips::addiu(t9, mips::ZERO, 20),
                mips::lui(t1, 0x2442),
                mips::ori(t1, t1, 100), // addiu $v0, $v0, 100
                mips::addiu(v0, v0, 1), // the loop: 6..=15, rewritten
                itype(0x0e, t9, t3, 5), // xori $t3, $t9, 5
                itype(0x0b, t3, t3, 1), // sltiu $t3, $t3, 1: the 16th lap
                special(funct::MULT, t3, s2, mips::ZERO, 0),
                special(funct::MFLO, mips::ZERO, mips::ZERO, t4, 0),
                mips::addu(t4, t4, s0), // DATA, or CODE on that lap
                mips::sw(t1, 24, t4),
                mips::addiu(t9, t9, -1),
                bne(t9, mips::ZERO, -9),
                mips::nop(),
                mips::break_(0),
            ],
            // $v0: 16 laps of +1, then 4 of +100.
            Some(16 + 4 * 100),
        ),
    ];
    for (what, words, v0_gain) in &programs {
        for engine in TIERS {
            for steps in steps {
                let b = std::panic::catch_unwind(|| lockstep_o32(engine, words, &regs, steps))
                    .unwrap_or_else(|_| panic!("{what}: {engine:?}, steps {steps:?}"));
                assert!(b.instructions_in_blocks() > 0, "{what}");
                if let Some(gain) = v0_gain {
                    assert_eq!(b.gpr[2], regs[1] + gain, "{what}");
                }
            }
        }
    }
}

/// Constants the translator folds (LUI, ORI, ADDIU from $zero and what is
/// computed from them: SUBU, NOR, the compares, XORI, ANDI) and branches it
/// decides at compile time (`b`, that is BEQ $zero, $zero; BNE $zero,
/// $zero; BEQL and BNEL on one register; BGEZ, BLTZ and BGEZAL on $zero),
/// each folded result summed into $s2: every tier ends every lap as the
/// interpreter does.
#[test]
fn constants_and_branches_the_translator_decides_run_as_the_interpreter_runs_them() {
    let (a0, a1, a2, a3) = (mips::A0, mips::A1, mips::A2, mips::A3);
    let (t0, t1, t2, t3) = (mips::T0, mips::T1, mips::T2, mips::T3);
    let (v0, v1, s2) = (mips::V0, mips::V1, Gpr::new(18));
    let words = [
        mips::addiu(mips::T9, mips::T9, -1),
        mips::lui(a0, 0x8000),
        mips::ori(a0, a0, 0x1234),
        mips::addiu(a1, mips::ZERO, -5),
        special(funct::SUBU, a0, a1, a2, 0),
        special(funct::SLT, a1, mips::ZERO, a3, 0),
        special(funct::SLTU, a1, mips::ZERO, t0, 0),
        itype(opcode::SLTIU, a1, t1, 7),
        itype(opcode::SLTI, a0, t2, 0),
        special(funct::NOR, a1, a0, t3, 0),
        itype(opcode::XORI, a2, v0, 0xffff),
        itype(opcode::ANDI, a0, v1, 0xff00),
        mips::addu(s2, s2, v0),
        mips::addu(s2, s2, t3),
        itype(opcode::BEQ, mips::ZERO, mips::ZERO, 2), // b: to 17
        mips::addu(s2, s2, a3),
        mips::addiu(s2, s2, 1000),                     // never runs
        itype(opcode::BNE, mips::ZERO, mips::ZERO, 1), // never taken
        mips::addu(s2, s2, t2),
        itype(opcode::BEQL, a1, a1, 1), // always taken: the slot runs
        mips::addu(s2, s2, v1),
        itype(opcode::BNEL, a0, a0, 1), // never taken: the slot is skipped
        mips::addiu(s2, s2, 77),
        regimm(regimm_code::BGEZ, mips::ZERO, 1),
        mips::addu(s2, s2, t1),
        regimm(regimm_code::BLTZ, mips::ZERO, 1),
        mips::addu(s2, s2, t0),
        regimm(regimm_code::BGEZAL, mips::ZERO, 1), // bal
        mips::addu(s2, s2, a2),
        itype(opcode::BNE, mips::T9, mips::ZERO, (-30i16) as u16),
        mips::nop(),
        mips::break_(0),
    ];
    let mut regs = [0u64; 25];
    regs[17] = 3; // $s2
    regs[24] = 300; // $t9
    laps_in_lockstep(&words, &regs, &[70, 5000, 211], 2000);
}
