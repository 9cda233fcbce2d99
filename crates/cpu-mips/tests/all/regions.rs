//! Functions that hold several blocks (see `jit::region`): a block
//! compiled with the blocks of its page it reaches by static branches.
//! Each test runs the compiled tier in lockstep with the interpreter, with
//! blocks compiled after a few runs (so that their successors, with fewer
//! runs, become members), and checks that members were made.

use std::sync::Arc;

use cpu_mips::{Cpu, Engine, TranslationStore, DEFAULT_BLOCK_CACHE_INSNS};
use test_support::mips::{self, funct, itype, jtype, opcode, special};

use crate::lockstep::{
    lockstep_with, reopen_store, scratch_store, two_block_loop_that_ends_early, Compiling,
};
use crate::testmem::CODE;

/// Runs `words` on the compiled tier in lockstep with the interpreter,
/// compiling after 3 runs (in place, then on the compiler thread, and with
/// each deadline list of `steps`); returns the machines, each of which made
/// members.
fn in_lockstep_with_members(words: &[u32], regs: &[u64], steps: &[&[u16]]) -> Vec<Cpu> {
    let mut cpus = Vec::new();
    for thread in [false, true] {
        for steps in steps {
            let compiling = Compiling {
                thread,
                compile_after: 3,
                ..Compiling::default()
            };
            let cpu = lockstep_with(
                Engine::Jit,
                DEFAULT_BLOCK_CACHE_INSNS,
                false,
                words,
                regs,
                steps,
                compiling,
            );
            if !thread && cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
                assert!(cpu.blocks_compiled_as_members() > 0, "members were made");
            }
            cpus.push(cpu);
        }
    }
    cpus
}

/// A loop of two blocks on one page, the second a member of the first's
/// code: it calls the interpreter's `execute` (DIV), its load misses the
/// soft TLB, and at the last lap faults. Each early end is in the member,
/// which the run loop finds in the first block's members, and finishes from
/// its own instructions; the back edge to the first block stays inside the
/// function, whose members stop at every deadline as the interpreter does.
#[test]
fn a_member_that_ends_early_is_finished_from_its_own_instructions() {
    let (words, regs) = two_block_loop_that_ends_early();
    let steps: [&[u16]; 3] = [&[90, 4000, 333], &[1, 7, 13], &[60_000]];
    for cpu in in_lockstep_with_members(&words, &regs, &steps) {
        assert_eq!(cpu.gpr[mips::T9.idx()], 0, "every lap ran");
    }
}

/// A member that stores into an instruction of the first block, on their
/// page: the function ends just after the store (in the member), every
/// block of the page is dropped, and the loop runs the new instruction from
/// the next lap on.
#[test]
fn a_member_that_writes_code_on_its_page_drops_the_function() {
    let z = CODE + 4 * 17;
    let words = [
        mips::addiu(mips::T9, mips::ZERO, 10),
        mips::lui(mips::S1, (CODE >> 16) as u16),
        mips::lui(mips::T0, 0x2442),
        mips::ori(mips::T0, mips::T0, 0x0064), // $t0 = addiu $v0, $v0, 100
        // 4: the first block (every lap, so compiled first); its first word
        // is rewritten when $t9 is 5. On to 12 at odd laps, else to 17.
        mips::addiu(mips::V0, mips::V0, 1),
        mips::addiu(mips::T9, mips::T9, -1),
        itype(opcode::ANDI, mips::T9, mips::T1, 1),
        itype(opcode::BNE, mips::T1, mips::ZERO, 4),
        mips::nop(),
        jtype(opcode::J, z),
        mips::nop(),
        mips::nop(),
        // 12: a member: the store when $t9 is $a0.
        itype(opcode::BNE, mips::T9, mips::A0, 2),
        mips::nop(),
        mips::sw(mips::T0, 16, mips::S1),
        // 15: another, on to 17.
        jtype(opcode::J, z),
        mips::nop(),
        // 17: another: back to 4 until $t9 is 0.
        itype(opcode::BNE, mips::T9, mips::ZERO, (-14i16) as u16),
        mips::nop(),
        mips::break_(0),
    ];
    // $v0 = 0, $a0 = 5 (regs start at $at).
    let mut regs = vec![0u64; 15];
    regs[3] = 5;
    let steps: [&[u16]; 2] = [&[60_000], &[7, 1, 30]];
    for cpu in in_lockstep_with_members(&words, &regs, &steps) {
        assert_eq!(
            cpu.gpr[2],
            5 + 5 * 100,
            "five laps of +1, then five of +100"
        );
    }
}

/// A loop of three blocks on one page that adds `step` to $v0 in its
/// middle block, 200 laps.
fn three_block_loop(step: i16) -> Vec<u32> {
    vec![
        // 0: the first block.
        mips::addiu(mips::T9, mips::T9, -1),
        jtype(opcode::J, CODE + 20),
        mips::nop(),
        mips::break_(0),
        mips::nop(),
        // 5: the middle block.
        mips::addiu(mips::V0, mips::V0, step),
        jtype(opcode::J, CODE + 36),
        mips::nop(),
        mips::nop(),
        // 9: the last: back to 0 until $t9 is 0, then to the BREAK.
        itype(opcode::BNE, mips::T9, mips::ZERO, (-10i16) as u16),
        mips::nop(),
        jtype(opcode::J, CODE + 12),
        mips::nop(),
    ]
}

/// Runs `words` in lockstep with code from `store` (filled or not),
/// compiling after `compile_after` runs, from the registers `regs` (from
/// $at); returns the machine.
fn with_store(
    words: &[u32],
    regs: &[u64],
    store: &Arc<TranslationStore>,
    compile_after: u32,
) -> Cpu {
    let compiling = Compiling {
        store: Some(store.clone()),
        thread: false,
        compile_after,
        ..Compiling::default()
    };
    let cpu = lockstep_with(
        Engine::Jit,
        DEFAULT_BLOCK_CACHE_INSNS,
        false,
        words,
        regs,
        &[500],
        compiling,
    );
    store.flush();
    cpu
}

/// Registers for [`three_block_loop`]: 200 laps.
fn two_hundred_laps() -> [u64; 25] {
    let mut regs = [0u64; 25];
    regs[24] = 200; // $t9
    regs
}

/// A function with members kept in the translation store is found again by
/// the next process, members and all, when the members' words are the
/// ones it was compiled for; when one differs (the same first block, other
/// code after it), the function is not used, and the new code runs.
#[test]
fn a_stored_function_is_used_only_with_the_members_it_was_compiled_for() {
    if !cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
        return;
    }
    let (dir, first) = scratch_store();
    let reopen = || reopen_store(&dir);
    let regs = two_hundred_laps();
    let cpu = with_store(&three_block_loop(1), &regs, &first, 3);
    assert_eq!(cpu.gpr[2], 200);
    assert!(cpu.blocks_compiled_as_members() > 0, "members were made");
    // The next process compiles nothing of its own (200 runs, after 1000):
    // the members come from the store.
    let cpu = with_store(&three_block_loop(1), &regs, &reopen(), 1000);
    assert_eq!(cpu.gpr[2], 200);
    assert!(cpu.blocks_compiled_as_members() > 0, "members loaded");
    // The middle block adds 2 now: the stored function must not run.
    let cpu = with_store(&three_block_loop(2), &regs, &reopen(), 1000);
    assert_eq!(cpu.gpr[2], 400);
    assert_eq!(
        cpu.blocks_compiled_as_members(),
        0,
        "nothing loaded with members"
    );
}

/// A member that code outside its function calls far more often than the
/// function runs it gets code of its own: its runs count toward compiling
/// it alone when they come from outside the function
/// (`region::from_inside`), so it does not stay on the block tier.
#[test]
fn a_member_called_from_outside_its_function_is_compiled_alone() {
    let m = CODE + 4 * 8;
    let outside = CODE + 4 * 1024;
    let mut words = vec![
        // 0: the first block: calls the member.
        mips::addiu(mips::T9, mips::T9, -1),
        jtype(opcode::JAL, m),
        mips::nop(),
        // 3: back to 0 until $t9 is 0, then to the code on the next page.
        itype(opcode::BNE, mips::T9, mips::ZERO, (-4i16) as u16),
        mips::nop(),
        jtype(opcode::J, outside),
        mips::nop(),
        mips::nop(),
        // 8: the member: adds 1 to $v0 and returns.
        mips::addiu(mips::V0, mips::V0, 1),
        mips::jr(mips::RA),
        mips::nop(),
    ];
    words.resize(1024, mips::nop());
    words.extend([
        // On the next page (no function there can hold the member): calls
        // it until $s0 is 0.
        mips::addiu(mips::S0, mips::S0, -1),
        jtype(opcode::JAL, m),
        mips::nop(),
        itype(opcode::BNE, mips::S0, mips::ZERO, (-4i16) as u16),
        mips::nop(),
        mips::break_(0),
    ]);
    // $t9 = 5 laps of the function, $s0 = 2000 calls from outside.
    let mut regs = vec![0u64; 25];
    regs[24] = 5;
    regs[15] = 2000;
    // Deadlines far apart (the first list) let compiled code run; close
    // ones stop every block.
    let steps: [&[u16]; 2] = [&[60_000], &[7, 1, 30]];
    let cpus = in_lockstep_with_members(&words, &regs, &steps);
    for cpu in &cpus {
        assert_eq!(cpu.gpr[mips::V0.idx()], 2005, "every call ran");
    }
    if cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
        // Compiled in place, far deadlines: the member's three
        // instructions ran on the block tier a few times, not 2000.
        let cpu = &cpus[0];
        let block_tier = cpu.instructions_in_blocks() - cpu.instructions_compiled();
        assert!(
            block_tier < 100,
            "{block_tier} instructions on the block tier"
        );
    }
}

/// Where the callee of the call tests lies: the second page of the code.
const LEAF: u32 = CODE + 0x1000;

/// A program that calls a leaf on the next page through a register (as
/// IRIX's position-independent code calls every function): eight calls
/// from a first loop (so that the leaf is compiled first, as a callee hot
/// from many callers is), then `laps` from a second, whose call block
/// returns to `back` (its words). The leaf adds 1 to $t1. The words, and
/// the registers from $at.
fn calls_to_a_leaf(back: &[u32], laps: u64) -> (Vec<u32>, Vec<u64>) {
    let t8 = mips::Gpr::new(24);
    let call = special(funct::JALR, mips::T3, mips::ZERO, mips::RA, 0);
    let mut words = vec![
        // 0: the first loop.
        mips::addiu(t8, t8, -1),
        call,
        mips::nop(),
        itype(opcode::BNE, t8, mips::ZERO, (-4i16) as u16),
        mips::nop(),
        // 5: the second: the call, then `back`.
        mips::addiu(mips::T9, mips::T9, -1),
        call,
        mips::nop(),
    ];
    words.extend_from_slice(back);
    words.resize(1024, mips::break_(0));
    words.extend([
        mips::addiu(mips::T1, mips::T1, 1),
        mips::jr(mips::RA),
        mips::nop(),
    ]);
    let mut regs = vec![0u64; 25];
    regs[10] = LEAF as u64; // $t3
    regs[23] = 8; // $t8
    regs[24] = laps; // $t9
    (words, regs)
}

/// The end of the second loop of [`calls_to_a_leaf`], at word 8: back to
/// the call (word 5) until $t9 is 0.
fn back_to_the_call() -> Vec<u32> {
    vec![
        itype(opcode::BNE, mips::T9, mips::ZERO, (-4i16) as u16),
        mips::nop(),
        mips::break_(0),
    ]
}

/// A leaf on another page, called through a register, runs inside its
/// caller's function with the block the call returns to (see `jit::calls`):
/// the caller's function holds both as members, and every tier gives the
/// interpreter's state at every deadline (some fall inside the callee).
#[test]
fn a_leaf_called_through_a_register_runs_inside_its_callers_function() {
    let (words, regs) = calls_to_a_leaf(&back_to_the_call(), 300);
    let steps: [&[u16]; 3] = [&[60_000], &[7, 1, 30], &[90, 4000, 333]];
    let cpus = in_lockstep_with_members(&words, &regs, &steps);
    for cpu in &cpus {
        assert_eq!(cpu.gpr[mips::T1.idx()], 308, "every call ran");
    }
    // (Compiled in place: code from the compiler thread may arrive after
    // the last lap.)
    for cpu in &cpus[..steps.len()] {
        if cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
            assert!(
                cpu.blocks_compiled_as_members() >= 2,
                "the callee and the continuation are members: {}",
                cpu.blocks_compiled_as_members()
            );
        }
    }
}

/// A store into the callee's page, from inside the caller's function that
/// holds a copy of the callee, drops that function with the callee's page:
/// from the next call on the new instruction runs (+100 instead of +1),
/// as on the interpreter.
#[test]
fn a_store_into_a_callee_s_page_drops_the_functions_that_hold_it() {
    let back = [
        // 8: on lap 150, rewrite the leaf's first word.
        itype(opcode::BNE, mips::T9, mips::A0, 2),
        mips::nop(),
        mips::sw(mips::T0, 0, mips::T3),
        // 11: back to the call until $t9 is 0.
        itype(opcode::BNE, mips::T9, mips::ZERO, (-7i16) as u16),
        mips::nop(),
        mips::break_(0),
    ];
    let (words, mut regs) = calls_to_a_leaf(&back, 300);
    regs[3] = 150; // $a0
    regs[7] = mips::addiu(mips::T1, mips::T1, 100) as u64; // $t0
    let steps: [&[u16]; 2] = [&[60_000], &[7, 1, 30]];
    for cpu in in_lockstep_with_members(&words, &regs, &steps) {
        assert_eq!(
            cpu.gpr[mips::T1.idx()],
            8 + 150 + 150 * 100,
            "eight and 150 calls of +1, then 150 of +100"
        );
    }
}

/// A function that holds a callee from another page is kept in the
/// translation store with it, and the next process loads it with its
/// callee; when the callee's words differ, the function is not used, and
/// the new callee runs.
#[test]
fn a_stored_function_is_used_only_with_the_callee_it_was_compiled_for() {
    if !cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
        return;
    }
    let (dir, first) = scratch_store();
    let reopen = || reopen_store(&dir);
    let (mut words, regs) = calls_to_a_leaf(&back_to_the_call(), 200);
    let cpu = with_store(&words, &regs, &first, 3);
    assert_eq!(cpu.gpr[mips::T1.idx()], 208);
    assert!(
        cpu.blocks_compiled_as_members() >= 2,
        "the callee compiled in"
    );
    // The next process compiles nothing of its own (200 runs, after 1000):
    // the caller's function comes from the store, with its callee.
    let cpu = with_store(&words, &regs, &reopen(), 1000);
    assert_eq!(cpu.gpr[mips::T1.idx()], 208);
    assert!(cpu.blocks_compiled_as_members() >= 2, "the callee loaded");
    // The leaf adds 2 now: the stored caller must not run.
    words[1024] = mips::addiu(mips::T1, mips::T1, 2);
    let cpu = with_store(&words, &regs, &reopen(), 1000);
    assert_eq!(cpu.gpr[mips::T1.idx()], 416);
    assert_eq!(
        cpu.blocks_compiled_as_members(),
        0,
        "nothing loaded with members"
    );
}
