//! Compiled code's fixed-offset view of guest memory (`CpuConfig::
//! guest_view`, see `jit::view` and `jit::trap`): a page the view does not
//! hold yet faults on the host, and compiled code leaves at that access
//! exactly as a soft TLB miss leaves it; the page is then mapped, and the
//! access runs compiled from the next time on.

use std::sync::Arc;

use cpu_mips::{Cpu, CpuConfig, Engine, Observer, StopReason, Transfer, TranslationStore};
use test_support::mips::{self, funct, itype, jtype, opcode, special};

use crate::lockstep::{reopen_store, scratch_store};
use crate::testmem::{machine, TestMem, CODE, DATA};
use crate::transfers::TransfersOnly;

/// Whether this host has a compiled tier with a view (x86-64 Linux).
fn host_has_view() -> bool {
    cfg!(all(target_os = "linux", target_arch = "x86_64"))
}

/// A machine at `CODE` running `words` on `engine`, compiling each block
/// on its first run in place, with the view or not; registers from $at.
fn machine_on(engine: Engine, view: bool, words: &[u32], regs: &[u64]) -> (Cpu, TestMem) {
    let (_, mem) = machine(false, words);
    let mut cpu = Cpu::new(CpuConfig {
        engine,
        compile_after: 1,
        compile_on_thread: false,
        guest_view: view,
        ..CpuConfig::default()
    });
    cpu.set_pc(CODE);
    for (r, v) in regs.iter().enumerate() {
        cpu.gpr[1 + r] = *v;
    }
    (cpu, mem)
}

/// Runs to the program's BREAK in one run, with `obs`.
fn run_to_break<O: Observer>(cpu: &mut Cpu, mem: &mut TestMem, obs: &mut O) {
    match cpu.run(mem, obs, cpu.cycles() + 10_000_000) {
        StopReason::Exception(e) if e.code == cpu_mips::ExcCode::Bp => {}
        other => panic!("stopped with {other:?}"),
    }
}

/// Laps of two blocks, A counting $t9 down and jumping to B, which loads
/// from the first data page (at $s0), stores to the second and adds the
/// word at $s0 + 4 into $t1.
fn load_store_loop() -> Vec<u32> {
    vec![
        mips::addiu(mips::T9, mips::T9, -1),
        jtype(opcode::J, CODE + 12),
        mips::nop(),
        mips::lw(mips::V0, 0, mips::S0),
        mips::sw(mips::V0, 4096, mips::S0),
        mips::lw(mips::V1, 4, mips::S0),
        mips::addu(mips::T1, mips::T1, mips::V1),
        itype(opcode::BNE, mips::T9, mips::ZERO, (-8i16) as u16),
        mips::nop(),
        mips::break_(0),
    ]
}

/// 300 laps that load from the first data page and store to the second:
/// with the view, compiled code faults once on each page (the load's page
/// for loads, the store's for stores), and ends in the interpreter's state
/// and memory; without it, it never faults.
#[test]
fn each_page_faults_once_in_the_view_then_runs_compiled() {
    let words = load_store_loop();
    let mut regs = [0u64; 25];
    regs[15] = DATA as u64; // $s0
    regs[24] = 300; // $t9
    let (mut want, mut want_mem) = machine_on(Engine::Interp, false, &words, &regs);
    want_mem.poke32(DATA + 4, 7);
    run_to_break(&mut want, &mut want_mem, &mut ());
    assert_eq!(want.gpr[mips::T1.idx()], 2100);
    for view in [true, false] {
        let (mut cpu, mut mem) = machine_on(Engine::Jit, view, &words, &regs);
        mem.poke32(DATA + 4, 7);
        run_to_break(&mut cpu, &mut mem, &mut ());
        assert_eq!(want.differences(&cpu), Vec::<String>::new(), "view {view}");
        assert!(mem.differing_pages(&want_mem).is_empty(), "view {view}");
        if host_has_view() {
            assert!(
                cpu.instructions_compiled() > 1500,
                "view {view}: ran compiled"
            );
            let faults = if view { 2 } else { 0 };
            assert_eq!(cpu.view_faults(), faults, "view {view}");
        }
    }
}

/// A call whose delay slot loads from a page the view does not hold yet
/// (the second data page, first reached at lap 200), with $sp lower at
/// each lap: the fault in the slot leaves the call's $sp for the observer
/// as the soft TLB's miss would, on every engine.
#[test]
fn a_fault_in_a_call_s_delay_slot_reports_the_call_s_sp() {
    let f = CODE + 0x40;
    let words = call_laps(
        [
            mips::addiu(mips::SP, mips::SP, -8),
            jtype(opcode::JAL, f),
            mips::lw(mips::V0, 0, mips::T0),
        ],
        mips::nop(),
    );
    let (want, _) = calls_on(Engine::Interp, &words, f);
    assert_eq!(want.len(), 600, "300 calls and 300 returns");
    for engine in [Engine::Block, Engine::Jit] {
        let (got, cpu) = calls_on(engine, &words, f);
        assert_eq!(got, want, "{engine:?}");
        if engine == Engine::Jit && host_has_view() {
            assert!(
                cpu.view_faults() >= 2,
                "the slot's loads faulted in the view"
            );
        }
    }
}

/// Laps of two blocks, A counting $t9 down and jumping to B, whose branch
/// back to A has in its delay slot the loop's only access: a load from
/// the first data page, or from the second once $t9 is below `switch`.
/// The branch's outcome is known only when the block runs, and the
/// second page is first reached with it taken (`switch` 100) or not
/// taken (`switch` 1: the last lap). Each page faults once in the view,
/// in the slot, and the run ends in the interpreter's state either way
/// (an end that said "not taken" for a taken branch would leave the loop
/// early).
#[test]
fn a_fault_in_a_conditional_branch_s_delay_slot_keeps_the_branch_s_outcome() {
    for switch in [100, 1] {
        let [sltiu, sll, addu] = t0_on_the_second_page_below(switch);
        let words = [
            mips::addiu(mips::T9, mips::T9, -1),
            jtype(opcode::J, CODE + 12),
            mips::nop(),
            sltiu,
            sll,
            addu,
            mips::addu(mips::T1, mips::T1, mips::V0),
            itype(opcode::BNE, mips::T9, mips::ZERO, (-8i16) as u16),
            mips::lw(mips::V0, 0, mips::T0),
            mips::break_(0),
        ];
        let (cpu, want) = laps_end_as_on_the_interpreter(&words);
        assert_eq!(want.gpr[mips::T9.idx()], 0, "switch {switch}");
        if host_has_view() {
            assert_eq!(cpu.view_faults(), 2, "switch {switch}: one a page");
        }
    }
}

/// A call through a register (JALR) and the callee's return (JR $ra),
/// each with a load in its delay slot from the first data page, or from
/// the second from lap 200 on: each page first faults in a slot, and the
/// end the fault makes leaves the register's target, which the transfers
/// an observer sees and the rest of the run follow, on every engine.
#[test]
fn a_fault_in_a_register_jump_s_delay_slot_leaves_the_register_s_target() {
    let f = CODE + 0x40;
    let words = call_laps(
        [
            special(funct::JALR, mips::T3, mips::ZERO, mips::RA, 0),
            mips::lw(mips::V0, 0, mips::T0),
            mips::addu(mips::T1, mips::T1, mips::V1),
        ],
        mips::lw(mips::V1, 4, mips::T0),
    );
    let (want, want_cpu) = calls_on(Engine::Interp, &words, f);
    assert_eq!(want.len(), 600, "300 calls and 300 returns");
    assert_eq!(want_cpu.gpr[mips::T1.idx()], 199 + 101 * 1000);
    for engine in [Engine::Block, Engine::Jit] {
        let (got, cpu) = calls_on(engine, &words, f);
        assert_eq!(got, want, "{engine:?}");
        assert_eq!(
            want_cpu.differences(&cpu),
            Vec::<String>::new(),
            "{engine:?}"
        );
        if engine == Engine::Jit && host_has_view() {
            assert_eq!(cpu.view_faults(), 2, "one a page, in the slots");
        }
    }
}

/// A block that branches to itself (kept in host registers from lap to
/// lap, see `emit/self_loop.rs`) loading from and storing to the first
/// data page, or the second from lap 200 on, after changing registers: its
/// accesses fault in the view, and each fault leaves the registers as they
/// were just before the access (written back first), so the run ends in
/// the interpreter's state and memory.
#[test]
fn a_block_that_loops_to_itself_goes_through_the_view_with_its_registers_written_back() {
    let [sltiu, sll, addu] = t0_on_the_second_page_below(101);
    let words = [
        mips::addiu(mips::T9, mips::T9, -1),
        sltiu,
        sll,
        addu,
        mips::lw(mips::V0, 0, mips::T0),
        mips::addu(mips::T1, mips::T1, mips::V0),
        itype(opcode::BNE, mips::T9, mips::ZERO, (-7i16) as u16),
        mips::sw(mips::T1, 8, mips::T0),
        mips::break_(0),
    ];
    let (cpu, want) = laps_end_as_on_the_interpreter(&words);
    assert_eq!(want.gpr[mips::T1.idx()], 199 + 101 * 1000);
    if host_has_view() {
        assert!(
            cpu.view_faults() >= 2,
            "the loop's accesses went through the view"
        );
    }
}

/// Runs `words`, laps that call `callee` (its address also in $t3), on
/// `engine` through the view, watching transfers: $t9 = 300, $s0 at the
/// first data page, $sp at 0x7fff_0000, and the word at 4 of the first
/// data page 1, of the next 1000. Returns the transfers and the CPU at
/// the BREAK.
fn calls_on(engine: Engine, words: &[u32], callee: u32) -> (Vec<Transfer>, Cpu) {
    let mut regs = [0u64; 25];
    regs[10] = callee as u64; // $t3
    regs[15] = DATA as u64; // $s0
    regs[24] = 300; // $t9
    let (mut cpu, mut mem) = machine_on(engine, true, words, &regs);
    mem.poke32(DATA + 4, 1);
    mem.poke32(DATA + 4096 + 4, 1000);
    cpu.gpr[mips::SP.idx()] = 0x7fff_0000;
    let mut obs = TransfersOnly::default();
    run_to_break(&mut cpu, &mut mem, &mut obs);
    (obs.0, cpu)
}

/// 300 laps (with `calls_on`'s registers) that count $t9 down, set $t0 to
/// the first data page or, from lap 200 on, the second, and run `body`
/// (a call, its slot and one more instruction); the callee at `CODE +
/// 0x40` returns with `slot` in its delay slot.
fn call_laps(body: [u32; 3], slot: u32) -> Vec<u32> {
    let mut words = vec![mips::addiu(mips::T9, mips::T9, -1)];
    words.extend(t0_on_the_second_page_below(101));
    words.extend(body);
    words.extend([
        itype(opcode::BNE, mips::T9, mips::ZERO, (-8i16) as u16),
        mips::nop(),
        mips::break_(0),
    ]);
    words.resize(16, mips::nop());
    words.extend([mips::jr(mips::RA), slot]);
    words
}

/// `$t0 = $s0`, or `$s0 + 4096` (the next page) once `$t9` is below
/// `switch`: SLTIU, SLL, ADDU (with $t2).
fn t0_on_the_second_page_below(switch: u16) -> [u32; 3] {
    [
        itype(opcode::SLTIU, mips::T9, mips::T2, switch),
        mips::sll(mips::T2, mips::T2, 12),
        mips::addu(mips::T0, mips::S0, mips::T2),
    ]
}

/// Runs `words` with $s0 at the first data page and $t9 = 300, the first
/// word of that page 1 and of the next 1000: on the interpreter, and
/// compiled (each block on its first run) through the view. Asserts that
/// the compiled run ends in the interpreter's state and memory, and
/// returns both CPUs, the compiled one first.
fn laps_end_as_on_the_interpreter(words: &[u32]) -> (Cpu, Cpu) {
    let mut regs = [0u64; 25];
    regs[15] = DATA as u64; // $s0
    regs[24] = 300; // $t9
    let run = |engine, view| {
        let (mut cpu, mut mem) = machine_on(engine, view, words, &regs);
        mem.poke32(DATA, 1);
        mem.poke32(DATA + 4096, 1000);
        run_to_break(&mut cpu, &mut mem, &mut ());
        (cpu, mem)
    };
    let (want, want_mem) = run(Engine::Interp, false);
    let (cpu, mem) = run(Engine::Jit, true);
    assert_eq!(want.differences(&cpu), Vec::<String>::new());
    assert!(mem.differing_pages(&want_mem).is_empty());
    (cpu, want)
}

/// Runs `words` with `regs` on the interpreter and on the compiled tier
/// (with the view) until an exception; both stop at the same one, in the
/// same state. `page` is mapped read-write besides the test machine's.
fn same_exception(words: &[u32], regs: &[u64], page: u32) -> Cpu {
    let run = |engine| {
        let (mut cpu, mut mem) = machine_on(engine, true, words, regs);
        mem.map(page, 4096, true, false);
        let stop = cpu.run(&mut mem, &mut (), cpu.cycles() + 10_000_000);
        (cpu, stop)
    };
    let (want, want_stop) = run(Engine::Interp);
    let (got, got_stop) = run(Engine::Jit);
    assert_eq!(got_stop, want_stop);
    assert!(
        matches!(want_stop, StopReason::Exception(e) if e.code == cpu_mips::ExcCode::AdEL),
        "{want_stop:?}"
    );
    assert_eq!(want.differences(&got), Vec::<String>::new());
    got
}

/// Laps of two blocks, A counting $t9 down and jumping to B, which sets
/// $t0 to $s0 (at the last lap, $s0 + 16) and runs `first` and `second`,
/// loads through $t0, before it branches back.
fn last_lap_16_higher(first: u32, second: u32) -> Vec<u32> {
    vec![
        mips::addiu(mips::T9, mips::T9, -1),
        jtype(opcode::J, CODE + 12),
        mips::nop(),
        // $t0 = $s0, or $s0 + 16 at the last lap.
        itype(opcode::SLTIU, mips::T9, mips::T2, 1),
        mips::sll(mips::T2, mips::T2, 4),
        mips::addu(mips::T0, mips::S0, mips::T2),
        first,
        second,
        itype(opcode::BNE, mips::T9, mips::ZERO, (-9i16) as u16),
        mips::nop(),
        mips::break_(0),
    ]
}

/// 200 laps of two blocks whose second loads through $t0 twice: the
/// first load's address is checked, the second's (60 bytes on, aligned
/// alike) is not. At the last lap $t0 is 16 bytes higher and the second
/// load's address is past 2 GiB: it lands in the view's guard above user
/// space, and raises the interpreter's address error. The same with $t0
/// near 0, lower at the last lap, and a second load below 0 (below the
/// view's base, where kernel space lies sign-extended).
#[test]
fn an_unchecked_access_past_user_space_raises_the_address_error() {
    let words = |first: i16, second: i16| {
        let lw = |rt, off| mips::lw(rt, off, mips::T0);
        last_lap_16_higher(lw(mips::V0, first), lw(mips::V1, second))
    };
    let mut regs = [0u64; 25];
    regs[24] = 200; // $t9
                    // Up: $t0 0x7fffffe0 (the last lap 0x7ffffff0), loads at -32 and +28.
    regs[15] = 0x7fff_ffe0; // $s0
    let cpu = same_exception(&words(-32, 28), &regs, 0x7fff_f000);
    assert_eq!(cpu.gpr[mips::T9.idx()], 0, "at the last lap");
    // Down: $t0 0x20 (the last lap 0x10), loads at +0x40 and -0x14.
    let mut down = words(0x40, -0x14);
    down[5] = special(funct::SUBU, mips::S0, mips::T2, mips::T0, 0);
    regs[15] = 0x20; // $s0
    let cpu = same_exception(&down, &regs, 0);
    assert_eq!(cpu.gpr[mips::T9.idx()], 0, "at the last lap");
    if host_has_view() {
        assert!(cpu.instructions_compiled() > 1000, "the laps ran compiled");
    }
}

/// The view's rule for a 32-bit program's address (see `jit::view`):
/// compiled code adds the base register, a 32-bit value sign-extended, to
/// the view's base unchecked, and kernel space lies below it. 200 laps
/// load through $t0 = $s0 = 0x7ffffff0 at -16 and -12 (a word) or -16 and
/// -15 (bytes, which no check guards at all); at the last lap $t0 is 16
/// bytes higher, 0x80000000 sign-extended, and the first load's address
/// is below kernel space's start as a 64-bit number: it lands in the
/// guard below the view, not in user space 2 GiB up, and raises the
/// interpreter's address error.
#[test]
fn an_address_below_the_sign_extended_start_of_kernel_space_raises_the_address_error() {
    let lb = |rt, off: i16| itype(opcode::LB, mips::T0, rt, off as u16);
    let mut regs = [0u64; 25];
    regs[24] = 200; // $t9
    regs[15] = 0x7fff_fff0; // $s0
    let loads = [
        (
            mips::lw(mips::V0, -16, mips::T0),
            mips::lw(mips::V1, -12, mips::T0),
        ),
        (lb(mips::V0, -16), lb(mips::V1, -15)),
    ];
    for (first, second) in loads {
        let cpu = same_exception(&last_lap_16_higher(first, second), &regs, 0x7fff_f000);
        assert_eq!(cpu.gpr[mips::T9.idx()], 0, "at the last lap");
        assert_eq!(cpu.gpr[mips::T0.idx()], 0xffff_ffff_8000_0000);
        assert_eq!(cpu.cp0.bad_vaddr, 0x7fff_fff0);
        if host_has_view() {
            assert!(cpu.instructions_compiled() > 1000, "the laps ran compiled");
        }
    }
}

/// Runs `words` (a loop that loads through $t0 and counts $t9 down, then
/// BREAKs) to the BREAK with $t0 and HI at `DATA`, then, after `outside`
/// wrote the machine's registers, again from `CODE`, on the interpreter
/// and on the compiled tier with the view: both raise the same address
/// error, at the first lap.
fn outside_write_raises_the_address_error(words: &[u32], outside: impl Fn(&mut Cpu)) {
    let run = |engine| {
        let mut regs = [0u64; 25];
        regs[7] = DATA as u64; // $t0
        regs[24] = 100; // $t9
        let (mut cpu, mut mem) = machine_on(engine, true, words, &regs);
        cpu.hi = DATA as u64;
        run_to_break(&mut cpu, &mut mem, &mut ());
        outside(&mut cpu);
        cpu.gpr[mips::T9.idx()] = 5;
        cpu.set_pc(CODE);
        let stop = cpu.run(&mut mem, &mut (), cpu.cycles() + 10_000_000);
        (cpu, stop)
    };
    let (want, want_stop) = run(Engine::Interp);
    let (got, got_stop) = run(Engine::Jit);
    assert!(
        matches!(want_stop, StopReason::Exception(e) if e.code == cpu_mips::ExcCode::AdEL),
        "{want_stop:?}"
    );
    assert_eq!(got_stop, want_stop);
    assert_eq!(want.differences(&got), Vec::<String>::new());
    assert_eq!(got.gpr[mips::T9.idx()], 5, "the first load raised it");
    if host_has_view() {
        assert!(
            got.instructions_compiled() > 100,
            "the first run ran compiled"
        );
    }
}

/// A register that holds no sign-extended 32-bit value, written from
/// outside between runs (a signal's saved context, a debugger): the low
/// word, 0x10000000, is a user address mapped in the view, but the
/// address is above user space, and the load raises the interpreter's
/// address error, not a load from 0x10000000 (compiled code is not
/// entered until each register is sign-extended again). The same through
/// HI, which MFHI copies whole.
#[test]
fn a_register_written_from_outside_with_high_bits_raises_the_address_error() {
    let high = 1 << 32 | DATA as u64;
    let words = [
        mips::lw(mips::V0, 0, mips::T0),
        mips::addiu(mips::T9, mips::T9, -1),
        itype(opcode::BNE, mips::T9, mips::ZERO, (-3i16) as u16),
        mips::nop(),
        mips::break_(0),
    ];
    outside_write_raises_the_address_error(&words, |cpu| cpu.gpr[mips::T0.idx()] = high);
    let words = [
        special(funct::MFHI, mips::ZERO, mips::ZERO, mips::T0, 0),
        mips::lw(mips::V0, 0, mips::T0),
        mips::addiu(mips::T9, mips::T9, -1),
        itype(opcode::BNE, mips::T9, mips::ZERO, (-4i16) as u16),
        mips::nop(),
        mips::break_(0),
    ];
    outside_write_raises_the_address_error(&words, |cpu| cpu.hi = high);
}

/// A loop that loads from the first data page and stores to the second,
/// run in four slices; between them the memory changes, with a new
/// `direct_epoch` each time: nothing (the pages stay in the view), the
/// first page moved to a new frame holding other words (the view maps
/// the new frame at once, and the loads see its words), the second page
/// unmapped (the next store faults, as the interpreter's does).
#[test]
fn pages_the_memory_keeps_stay_in_the_view_across_epochs_and_moved_ones_follow() {
    let words = load_store_loop();
    let mut regs = [0u64; 25];
    regs[15] = DATA as u64; // $s0
    regs[24] = 3000; // $t9
    let run = |engine| {
        let (mut cpu, mut mem) = machine_on(engine, true, &words, &regs);
        mem.epoch = Some(1);
        mem.poke32(DATA + 4, 7);
        let mut faults = Vec::new();
        let mut stops = Vec::new();
        for slice in 0..4 {
            match slice {
                1 => mem.epoch = Some(2),
                2 => {
                    mem.map(DATA, 4096, true, false);
                    mem.poke32(DATA + 4, 100);
                    mem.epoch = Some(3);
                }
                3 => {
                    mem.unmap(DATA + 4096);
                    mem.epoch = Some(4);
                }
                _ => {}
            }
            stops.push(cpu.run(&mut mem, &mut (), cpu.cycles() + 6000));
            faults.push(cpu.view_faults());
        }
        (cpu, stops, faults)
    };
    let (want, want_stops, _) = run(Engine::Interp);
    let (got, got_stops, faults) = run(Engine::Jit);
    assert_eq!(got_stops, want_stops);
    assert!(
        matches!(want_stops[3], StopReason::Exception(e) if e.code == cpu_mips::ExcCode::TlbS),
        "{want_stops:?}"
    );
    assert_eq!(want.differences(&got), Vec::<String>::new());
    assert!(
        want.gpr[mips::T1.idx()] > 100 * 100,
        "the loads saw the new page"
    );
    if host_has_view() {
        // Once on each page; kept across the epochs; the moved page was
        // mapped again without a fault; the store to the unmapped page
        // faults in the view, and then in the slow path.
        assert_eq!(faults, [2, 2, 2, 3], "{faults:?}");
    }
}

/// 2,000 laps that load from a page compiled code may not reach directly
/// (as the kernel's MAP_SHARED pages): each load through the view faults
/// and takes the slow path, until the code page's functions have been
/// refused often enough; they are then compiled again with the soft TLB,
/// whose miss is a return, and run to the end in the interpreter's state.
#[test]
fn code_that_keeps_faulting_on_a_page_it_cannot_map_goes_back_to_the_soft_tlb() {
    let run = |engine| {
        let (mut cpu, mut mem) = machine_on(engine, true, &REFUSED_LOOP, &refused_loop_regs());
        refused_loop_memory(&mut mem);
        run_to_break(&mut cpu, &mut mem, &mut ());
        cpu
    };
    let want = run(Engine::Interp);
    let got = run(Engine::Jit);
    assert_eq!(want.differences(&got), Vec::<String>::new());
    ran_refused_then_on_the_soft_tlb(&got);
}

/// The code compiled again for the soft TLB is kept in the translation
/// store apart from the view's (see `cache::Key`): the next process loads
/// the view's code, which the view refuses as often as before, and then
/// the soft TLB's, which it does not compile again. (Were both kept under
/// one key, the next process would load the view's code again after the
/// refusals, and fault at every load to the end.)
#[test]
fn code_sent_back_to_the_soft_tlb_is_found_again_in_the_translation_store() {
    let (dir, first) = scratch_store();
    let run = |store: &Arc<TranslationStore>| {
        let (mut cpu, mut mem) = machine_on(Engine::Jit, true, &REFUSED_LOOP, &refused_loop_regs());
        refused_loop_memory(&mut mem);
        cpu.set_translation_store(Some(store.clone()));
        run_to_break(&mut cpu, &mut mem, &mut ());
        store.flush();
        cpu
    };
    let cold = run(&first);
    let later = reopen_store(&dir);
    let warm = run(&later);
    assert_eq!(cold.differences(&warm), Vec::<String>::new());
    ran_refused_then_on_the_soft_tlb(&warm);
    if host_has_view() {
        assert_eq!(later.stats().misses, 0, "nothing compiled again");
    }
}

/// Asserts that `cpu` ran [`REFUSED_LOOP`] to its end, faulting in the
/// view only until its code went back to the soft TLB (64 refusals), and
/// compiled after that.
fn ran_refused_then_on_the_soft_tlb(cpu: &Cpu) {
    assert_eq!(cpu.gpr[mips::T1.idx()], 6000);
    if host_has_view() {
        let faults = cpu.view_faults();
        assert!((64..80).contains(&faults), "{faults} faults in the view");
        assert!(cpu.instructions_compiled() > 5000, "ran compiled after");
    }
}

/// Laps (2,000, see [`refused_loop_regs`]) that add the word at $s1, on a
/// page compiled code may not reach directly (see
/// [`refused_loop_memory`]), into $t1.
const REFUSED_LOOP: [u32; 8] = [
    mips::addiu(mips::T9, mips::T9, -1),
    jtype(opcode::J, CODE + 12),
    mips::nop(),
    mips::lw(mips::V0, 0, mips::S1),
    mips::addu(mips::T1, mips::T1, mips::V0),
    itype(opcode::BNE, mips::T9, mips::ZERO, (-6i16) as u16),
    mips::nop(),
    mips::break_(0),
];

/// Where [`REFUSED_LOOP`] loads from.
const REFUSED_PAGE: u32 = 0x3000_0000;

/// Registers for [`REFUSED_LOOP`]: $s1 at [`REFUSED_PAGE`], 2,000 laps.
fn refused_loop_regs() -> [u64; 25] {
    let mut regs = [0u64; 25];
    regs[16] = REFUSED_PAGE as u64; // $s1
    regs[24] = 2000; // $t9
    regs
}

/// Maps [`REFUSED_PAGE`] as the kernel's MAP_SHARED pages are mapped (no
/// frame the view could map), holding 3.
fn refused_loop_memory(mem: &mut TestMem) {
    mem.map_indirect(REFUSED_PAGE, 4096);
    mem.poke32(REFUSED_PAGE, 3);
}
