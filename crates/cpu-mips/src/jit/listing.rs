//! Golden files of the code the compiled tier generates: for a few blocks
//! that each exercise one optimisation, the Cranelift IR `emit` builds and
//! the count of host instructions Cranelift makes of it, compared with
//! `tests/golden/jit/NAME.clif` (the IR) and `NAME.ARCH.count`. An
//! optimisation that silently disappears changes one of them and fails
//! here; `IRIX_EMU_BLESS=1` rewrites them for review.
//!
//! The blocks:
//! - `load_use_stall`: a load whose result the next instruction reads (the
//!   stall is in the static schedule, no run-time check).
//! - `self_loop`: a block that branches to its own start (a loop inside its
//!   function, registers kept in variables, see `emit::self_loop`).
//! - `inline_fp`: double-precision ADD and MUL inline (no call of
//!   `execute`), with the FR/CU1 check at the entry.
//! - `store_own_page`: a store into the block's own page (the code-page
//!   check and the CODE_WRITTEN exit).
//! - `chained_exit`: a jump to another block (the tail call through the
//!   jump table).
//! - `unaligned_word`: an LWL/LWR pair and an SWL/SWR pair, each one
//!   unaligned access (no call of `execute`): a word copied as IDO
//!   copies one it cannot prove aligned.
//! - `side_exit`: a block that goes on past a conditional branch not
//!   taken (see `block::side_exit`), ending at the branch's target.
//! - `same_page`: loads and stores through $sp after the first of each
//!   kind, which compare with the page it found instead of looking their
//!   own up (see `emit::pages`).
//! - `call`: a call through a register to a leaf compiled in with the
//!   block the call returns to (see `calls`): the jumps through a
//!   register compare with those members before the jump table.
//!
//! The IR holds no address of the process (see
//! `compiled_code_holds_no_address_of_the_process_that_compiled_it`), so
//! it is the same on every run.

use std::path::PathBuf;

use cranelift_codegen::control::ControlPlane;

use super::{block_function, build, Helpers, Jit, Target};
use crate::block::Block;
use crate::code_cache::PageStore;
use crate::cp0::status;
use crate::{MemFault, Memory};

/// Where the blocks' code starts.
const CODE: u32 = 0x0040_0000;

/// Helper addresses for the listing: fixed, so the IR is the same on every
/// run (the code is compiled, never run).
const FAKE_HELPERS: Helpers = Helpers {
    exec: 0x7f00_0000_1000,
};

/// Code words at [`CODE`], fetchable; nothing else is mapped.
struct Code(Vec<u32>);

impl Memory for Code {
    fn load8(&mut self, _: u32) -> Result<u8, MemFault> {
        Err(MemFault::Unmapped)
    }
    fn load16(&mut self, _: u32) -> Result<u16, MemFault> {
        Err(MemFault::Unmapped)
    }
    fn load32(&mut self, _: u32) -> Result<u32, MemFault> {
        Err(MemFault::Unmapped)
    }
    fn load64(&mut self, _: u32) -> Result<u64, MemFault> {
        Err(MemFault::Unmapped)
    }
    fn store8(&mut self, _: u32, _: u8) -> Result<(), MemFault> {
        Err(MemFault::Unmapped)
    }
    fn store16(&mut self, _: u32, _: u16) -> Result<(), MemFault> {
        Err(MemFault::Unmapped)
    }
    fn store32(&mut self, _: u32, _: u32) -> Result<(), MemFault> {
        Err(MemFault::Unmapped)
    }
    fn store64(&mut self, _: u32, _: u64) -> Result<(), MemFault> {
        Err(MemFault::Unmapped)
    }
    fn fetch32(&mut self, addr: u32) -> Result<u32, MemFault> {
        let i = addr.wrapping_sub(CODE) as usize / 4;
        self.0.get(i).copied().ok_or(MemFault::Unmapped)
    }
}

// Encodings (R4000 manual, appendix A), each with its assembly.
const fn itype(op: u32, rs: u32, rt: u32, imm: u16) -> u32 {
    op << 26 | rs << 21 | rt << 16 | imm as u32
}
const fn special(funct: u32, rs: u32, rt: u32, rd: u32) -> u32 {
    rs << 21 | rt << 16 | rd << 11 | funct
}
/// A COP1 arithmetic op in format D (17).
const fn fp_d(funct: u32, fd: u32, fs: u32, ft: u32) -> u32 {
    0x11 << 26 | 17 << 21 | ft << 16 | fs << 11 | fd << 6 | funct
}
const NOP: u32 = 0;
const A0: u32 = 4;
const A1: u32 = 5;
const A2: u32 = 6;
const A3: u32 = 7;
const T0: u32 = 8;
const T1: u32 = 9;
const T2: u32 = 10;
const SP: u32 = 29;

/// The block at [`CODE`] of `words`, built as the block tier builds it.
pub(super) fn block_of(words: &[u32]) -> Block {
    let mut mem = Code(words.to_vec());
    let mut pages = PageStore::default();
    let page = pages.page(CODE >> crate::code_cache::PAGE_SHIFT);
    Block::build(page, CODE, &mut mem, false).expect("a block")
}

/// The IR of `block`'s function, with its addresses named, and the number
/// of host instructions it compiles to.
fn listing(block: &Block) -> Option<(String, usize)> {
    let mut jit = Jit::new(FAKE_HELPERS, false, 1 << 20)?;
    // The golden counts must not follow the CPU features of the machine the
    // tests run on: the block is compiled for a fixed x86-64 (the features
    // of the machine they were blessed on, FMA among them), not the host's.
    if std::env::consts::ARCH == "x86_64" {
        jit.isa = fixed_x86_64().expect("Cranelift builds the fixed x86-64 target");
        jit.fma = true;
    }
    // Accesses go through the view, as they do for the kernel's memory on
    // x86-64 Linux.
    let target = Target {
        fma: jit.fma,
        view: true,
        sites: false,
    };
    let (sig, emit) = block_function(&jit.isa, target, block, CODE, status::CU1 | status::FR);
    build(&jit.isa, &mut jit.ctx, &mut jit.fctx, sig, |f, c, p| {
        emit(f, c, p);
    });
    // The IR holds no address: helpers and the jump table are reached
    // through the function's argument.
    let ir = jit.ctx.func.display().to_string();
    jit.ctx.set_disasm(true);
    let code = jit
        .ctx
        .compile(&*jit.isa, &mut ControlPlane::default())
        .ok()?;
    let vcode = code.vcode.clone().unwrap_or_default();
    let insns = vcode
        .lines()
        .filter(|l| l.starts_with(char::is_whitespace) && !l.trim().is_empty())
        .count();
    Some((ir, insns))
}

/// An x86-64 target with a fixed feature set (SSE3 to SSE4.2, POPCNT,
/// AVX, AVX2, FMA, BMI1, BMI2, LZCNT) and the compiled tier's own flags;
/// `None` on other hosts, whose counts follow their own ISA.
fn fixed_x86_64() -> Option<cranelift_codegen::isa::OwnedTargetIsa> {
    use cranelift_codegen::settings::{self, Configurable};
    if std::env::consts::ARCH != "x86_64" {
        return None;
    }
    let mut flags = settings::builder();
    flags.set("opt_level", "none").ok()?;
    flags.set("enable_verifier", "false").ok()?;
    flags.set("preserve_frame_pointers", "true").ok()?;
    let mut isa = cranelift_codegen::isa::lookup_by_name("x86_64").ok()?;
    for feature in [
        "has_sse3",
        "has_ssse3",
        "has_sse41",
        "has_sse42",
        "has_popcnt",
        "has_avx",
        "has_avx2",
        "has_fma",
        "has_bmi1",
        "has_bmi2",
        "has_lzcnt",
    ] {
        isa.enable(feature).ok()?;
    }
    isa.finish(settings::Flags::new(flags)).ok()
}

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/jit")
}

/// Checks `words`' block against `NAME.clif` and `NAME.ARCH.count`.
fn check(name: &str, words: &[u32]) {
    check_block(name, &block_of(words));
}

/// Checks `block`'s function against `NAME.clif` and `NAME.ARCH.count`.
fn check_block(name: &str, block: &Block) {
    let Some((ir, insns)) = listing(block) else {
        // Cranelift has no backend for this host: the compiled tier is off.
        eprintln!("no compiled tier on this host: {name} not checked");
        return;
    };
    let dir = golden_dir();
    test_support::golden::check(&dir.join(format!("{name}.clif")), &ir);
    let arch = std::env::consts::ARCH;
    test_support::golden::check(
        &dir.join(format!("{name}.{arch}.count")),
        &format!("host instructions: {insns}\n"),
    );
}

#[test]
fn a_block_goes_on_to_its_member_inside_the_function() {
    // A block that jumps to a block of its page (its member, see `region`),
    // which branches back to the first or returns through $ra.
    let words = [
        itype(0x09, T0, T0, 1), // addiu t0, t0, 1
        0x0810_0004,            // j     0x400010
        NOP,                    // nop
        NOP,
        itype(0x05, T0, A1, (-5i16) as u16), // 0x400010: bne t0, a1, 0x400000
        NOP,                                 // nop
        special(0x08, 31, 0, 0),             // jr    ra
        NOP,                                 // nop
    ];
    let mut mem = Code(words.to_vec());
    let mut pages = PageStore::default();
    let page = pages.page(CODE >> crate::code_cache::PAGE_SHIFT);
    let member = Block::build(page, CODE + 16, &mut mem, false).expect("the member");
    let mut block = block_of(&words);
    block.members = Box::new([(CODE + 16, member)]);
    check_block("member", &block);
}

#[test]
fn a_call_goes_on_to_its_callee_and_back_inside_the_function() {
    // A call through $t9 to a leaf on the next page, compiled in with the
    // block it returns to (see `calls`): the call and the leaf's return
    // each compare the register with the two members before the jump
    // table.
    let leaf = CODE + 0x1000;
    let mut words = vec![
        special(0x09, 25, 0, 31), // jalr  t9
        NOP,                      // nop
        itype(0x09, A0, A0, 1),   // 0x400008: addiu a0, a0, 1
        special(0x08, 31, 0, 0),  // jr    ra
        NOP,                      // nop
    ];
    words.resize(1024, NOP);
    words.extend([
        itype(0x09, T0, T0, 1),  // 0x401000: addiu t0, t0, 1
        special(0x08, 31, 0, 0), // jr    ra
        NOP,                     // nop
    ]);
    let mut mem = Code(words.clone());
    let mut pages = PageStore::default();
    let mut member = |pc: u32| {
        let page = pages.page(pc >> crate::code_cache::PAGE_SHIFT);
        (
            pc,
            Block::build(page, pc, &mut mem, false).expect("the member"),
        )
    };
    let members = [member(leaf), member(CODE + 8)];
    let mut block = block_of(&words);
    block.members = Box::new(members);
    check_block("call", &block);
}

#[test]
fn a_load_use_stall_is_in_the_static_schedule() {
    check(
        "load_use_stall",
        &[
            itype(0x23, A0, T0, 0),    // lw    t0, 0(a0)
            special(0x21, T0, T0, T1), // addu  t1, t0, t0
            itype(0x2b, A0, T1, 4),    // sw    t1, 4(a0)
            special(0x08, 31, 0, 0),   // jr    ra
            NOP,                       // nop
        ],
    );
}

#[test]
fn a_block_that_branches_to_itself_loops_inside_its_function() {
    check(
        "self_loop",
        &[
            itype(0x09, T0, T0, 0xffff), // addiu t0, t0, -1
            special(0x21, T1, T0, T1),   // addu  t1, t1, t0
            itype(0x05, T0, 0, 0xfffd),  // bne   t0, zero, (start)
            NOP,                         // nop
        ],
    );
}

/// `li`, `lui` and `ori` store constants, and `b` (BEQ $zero, $zero)
/// ends its block as a jump does: no compare, and the jump table's entry
/// for the target at a constant offset.
#[test]
fn constants_fold_and_a_branch_the_translator_decides_ends_as_a_jump() {
    check(
        "folded",
        &[
            itype(0x0f, 0, A0, 0x1000), // lui   a0, 0x1000
            itype(0x0d, A0, A0, 0x20),  // ori   a0, a0, 0x20
            itype(0x09, 0, A1, 1),      // addiu a1, zero, 1
            itype(0x0a, A1, A2, 2),     // slti  a2, a1, 2
            itype(0x04, 0, 0, 8),       // beq   zero, zero, +8
            NOP,                        // nop
        ],
    );
}

#[test]
fn a_side_exit_back_to_the_block_s_start_goes_round_inside_its_function() {
    let words = [
        itype(0x09, A0, A0, 8),      // addiu a0, a0, 8 (start)
        itype(0x05, A0, A3, 0xfffe), // bne   a0, a3, (start)
        NOP,                         // nop
        special(0x08, 31, 0, 0),     // jr    ra
        NOP,                         // nop
    ];
    let block = block_of(&words);
    assert!(block.side_exit_slot(2));
    assert!(super::region::successors(&block, CODE).any(|s| s == CODE));
    // The side exit jumps to the start's body (after its entry checks):
    // no return, lookup or call.
    check("side_exit_to_start", &words);
}

#[test]
fn double_precision_arithmetic_is_inline() {
    check(
        "inline_fp",
        &[
            fp_d(0x00, 0, 2, 4),     // add.d $f0, $f2, $f4
            fp_d(0x02, 6, 0, 2),     // mul.d $f6, $f0, $f2
            special(0x08, 31, 0, 0), // jr    ra
            NOP,                     // nop
        ],
    );
}

#[test]
fn a_store_into_the_blocks_own_page_ends_it_as_code_written() {
    check(
        "store_own_page",
        &[
            itype(0x0f, 0, A0, 0x0040),  // lui   a0, 0x0040
            itype(0x2b, A0, T2, 0x0010), // sw    t2, 16(a0)
            special(0x08, 31, 0, 0),     // jr    ra
            NOP,                         // nop
        ],
    );
}

#[test]
fn a_jump_to_another_block_chains_by_a_tail_call() {
    check(
        "chained_exit",
        &[
            special(0x21, T0, T1, T2), // addu  t2, t0, t1
            0x0810_0040,               // j     0x400100
            NOP,                       // nop
        ],
    );
}

#[test]
fn unaligned_word_accesses_are_inline() {
    check(
        "unaligned_word",
        &[
            itype(0x22, A0, T0, 1),  // lwl   t0, 1(a0)
            itype(0x26, A0, T0, 4),  // lwr   t0, 4(a0)
            itype(0x2a, A1, T0, 2),  // swl   t0, 2(a1)
            itype(0x2e, A1, T0, 5),  // swr   t0, 5(a1)
            special(0x08, 31, 0, 0), // jr    ra
            NOP,                     // nop
        ],
    );
}

#[test]
fn an_access_through_a_register_on_a_page_already_found_compares_with_it() {
    check(
        "same_page",
        &[
            itype(0x23, SP, T0, 16),   // lw    t0, 16(sp)
            itype(0x23, SP, T1, 20),   // lw    t1, 20(sp)
            special(0x21, T0, T1, T2), // addu  t2, t0, t1
            itype(0x2b, SP, T2, 24),   // sw    t2, 24(sp)
            itype(0x2b, SP, T2, 28),   // sw    t2, 28(sp)
            special(0x08, 31, 0, 0),   // jr    ra
            NOP,                       // nop
        ],
    );
}

#[test]
fn a_block_goes_on_past_a_branch_not_taken_up_to_where_it_joins() {
    let words = [
        itype(0x05, T0, 0, 2),     // bne   t0, zero, +2 (to the jr)
        NOP,                       // nop
        special(0x21, T0, T1, T2), // addu  t2, t0, t1
        special(0x08, 31, 0, 0),   // jr    ra (where the branch joins)
        NOP,                       // nop
    ];
    let block = block_of(&words);
    assert_eq!(block.insns.len(), 3, "up to the join, not over it");
    assert!(!block.branch, "it falls into the join");
    assert!(block.side_exit_slot(1));
    check("side_exit", &words);
    // Branches back (a loop's exit tests) have no join ahead: the block
    // goes on past each to its jump.
    let words = [
        itype(0x05, T0, 0, 0xfffe), // bne   t0, zero, -2
        NOP,                        // nop
        itype(0x05, T1, 0, 0xfffc), // bne   t1, zero, -4
        NOP,                        // nop
        special(0x08, 31, 0, 0),    // jr    ra
        NOP,                        // nop
    ];
    let block = block_of(&words);
    assert_eq!(block.insns.len(), 6, "two side exits, then its last branch");
    assert!(block.branch && block.side_exit_slot(1) && block.side_exit_slot(3));
    // Likely, linking and always-taken branches end a block.
    for first in [
        itype(0x15, T0, 0, 2),    // bnel  t0, zero, +2
        itype(0x01, T0, 0x11, 2), // bgezal t0, +2
        itype(0x04, T0, T0, 2),   // beq   t0, t0, +2
    ] {
        assert_eq!(block_of(&[first, NOP, NOP, NOP]).insns.len(), 2);
    }
}

#[test]
fn a_side_exit_leaves_the_scoreboard_its_instructions_wrote_as_built_with_the_block() {
    let words = [
        itype(0x23, A0, T1, 0),     // lw    t1, 0(a0)
        special(0x21, T1, T1, T2),  // addu  t2, t1, t1
        itype(0x05, T2, 0, 0xfffd), // bne   t2, zero, -3 (a loop's exit test)
        itype(0x23, A0, T0, 4),     // lw    t0, 4(a0) (its slot)
        itype(0x23, A1, T1, 8),     // lw    t1, 8(a1)
        special(0x08, 31, 0, 0),    // jr    ra
        NOP,                        // nop
    ];
    let block = block_of(&words);
    assert_eq!(block.insns.len(), 7);
    assert!(block.side_exit_slot(3));
    let slots: Vec<usize> = (0..block.insns.len())
        .filter(|&i| block.side_exit_slot(i))
        .collect();
    assert_eq!(slots, [3], "one side exit");
    assert_eq!(block.side_out(3), &*block.out_after(3));
    assert!(block.side_out(3).len() >= 3, "t0, t1 and t2 at least");
}

/// The machine code of `block`'s function, compiled by `jit`.
fn code_of(jit: &mut Jit, block: &Block) -> Vec<u8> {
    let target = Target {
        fma: jit.fma,
        view: true,
        sites: false,
    };
    let (sig, emit) = block_function(&jit.isa, target, block, CODE, status::CU1 | status::FR);
    super::machine_code(&jit.isa, &mut jit.ctx, &mut jit.fctx, sig, |f, c, p| {
        emit(f, c, p);
    })
    .expect("the block compiles, with no relocation left")
    .code_buffer()
    .to_vec()
}

#[test]
fn compiled_code_holds_no_address_of_the_process_that_compiled_it() {
    // Two copies of a block (at two addresses) that calls every kind of
    // helper and chains, compiled by two compilers with other helpers and
    // jump tables: the same bytes, so code may be kept and run elsewhere.
    let words = [
        itype(0x23, A0, T0, 0),   // lw    t0, 0(a0)
        itype(0x37, A0, T1, 8),   // ld    t1, 8(a0) (a helper of its own)
        special(0x1a, T0, T1, 0), // div   t0, t1 (execute)
        itype(0x2b, A0, T1, 4),   // sw    t1, 4(a0)
        0x0810_0040,              // j     0x400100
        NOP,                      // nop
    ];
    let (one, two) = (block_of(&words), block_of(&words));
    let Some(mut a) = Jit::new(FAKE_HELPERS, false, 1 << 20) else {
        eprintln!("no compiled tier on this host: not checked");
        return;
    };
    let other = Helpers { exec: 0x1234_0000 };
    let mut b = Jit::new(other, false, 1 << 20).expect("a second compiler");
    assert_ne!(a.jump.as_ptr(), b.jump.as_ptr());
    assert_eq!(code_of(&mut a, &one), code_of(&mut b, &two));
}
