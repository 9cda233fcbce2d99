//! The timing model, one test per rule, each on a short program whose cycle
//! count is worked out by hand in the comments (see `timing.rs` for the
//! constants and their sources). Programs end with BREAK, which raises an
//! exception and is neither retired nor charged.

use crate::testmem;

use std::time::Duration;

use cpu_mips::{Cpu, CpuConfig, ExcCode, Observer, StopReason};
use testmem::{r::*, TestMem, CODE, DATA};

const NOP: u32 = test_support::mips::nop();
const BREAK: u32 = 0x0000_000d;
const LW_V0: u32 = 0x8c82_0000; // lw $v0, 0($a0)
const USE_V0: u32 = 0x0042_1821; // addu $v1, $v0, $v0

/// Records (pc, cycles charged) per retired instruction.
#[derive(Default)]
struct Trace(Vec<(u32, u64)>);
impl Observer for Trace {
    fn retire(&mut self, pc: u32, cycles: u64) {
        self.0.push((pc, cycles));
    }
}

fn new_machine(mode64: bool, program: &[u32]) -> (Cpu, TestMem) {
    let (mut cpu, mem) = testmem::machine(mode64, program);
    cpu.gpr[A0] = DATA as u64;
    (cpu, mem)
}

/// Runs `program` to its BREAK; returns (cycles, per-instruction charges).
fn timed(mode64: bool, program: &[u32]) -> (u64, Vec<(u32, u64)>) {
    let (mut cpu, mut mem) = new_machine(mode64, program);
    let mut trace = Trace::default();
    match cpu.run(&mut mem, &mut trace, u64::MAX) {
        StopReason::Exception(e) => assert_eq!(e.code, ExcCode::Bp, "program ends at its BREAK"),
        StopReason::Deadline => panic!("no deadline was set"),
    }
    let charged: u64 = trace.0.iter().map(|&(_, c)| c).sum();
    assert_eq!(
        charged,
        cpu.cycles(),
        "the observer is charged every cycle exactly once"
    );
    assert_eq!(trace.0.len() as u64, cpu.instructions());
    (cpu.cycles(), trace.0)
}

#[test]
fn each_instruction_takes_one_pipeline_cycle() {
    // 3 nops x ISSUE_CYCLES (1) = 3.
    let (cycles, trace) = timed(false, &[NOP, NOP, NOP, BREAK]);
    assert_eq!(cycles, 3);
    assert_eq!(trace, vec![(CODE, 1), (CODE + 4, 1), (CODE + 8, 1)]);
}

#[test]
fn a_taken_branch_costs_two_more_cycles() {
    // beq $zero, $zero, 0x40000c: 1 + BRANCH_BUBBLES (2) = 3, charged to it;
    // its delay slot: 1. Total 4.
    let (cycles, trace) = timed(false, &[0x1000_0002, NOP, NOP, BREAK]);
    assert_eq!(cycles, 4);
    assert_eq!(trace, vec![(CODE, 3), (CODE + 4, 1)]);
}

#[test]
fn a_jump_costs_like_a_taken_branch() {
    // j 0x40000c: 1 + 2; slot 1. Total 4.
    let (cycles, _) = timed(false, &[0x0810_0003, NOP, NOP, BREAK]);
    assert_eq!(cycles, 4);
}

#[test]
fn a_branch_not_taken_costs_one_cycle() {
    // bne $zero, $zero, 0x40000c (not taken): 1; slot 1. Total 2.
    let (cycles, trace) = timed(false, &[0x1400_0002, NOP, BREAK]);
    assert_eq!(cycles, 2);
    assert_eq!(trace, vec![(CODE, 1), (CODE + 4, 1)]);
}

#[test]
fn a_branch_likely_not_taken_is_charged_its_nullified_slot() {
    // bnel $zero, $zero, 0x40000c (not taken): 1 + NULLIFIED_SLOT_CYCLES (1)
    // = 2, charged to the branch; the slot does not retire. Total 2.
    let (cycles, trace) = timed(false, &[0x5400_0002, NOP, BREAK]);
    assert_eq!(cycles, 2);
    assert_eq!(trace, vec![(CODE, 2)]);
}

#[test]
fn using_a_loaded_register_in_the_next_instruction_stalls_two_cycles() {
    // lw issues at 0, $v0 ready at 0 + LOAD_LATENCY (3). addu would issue at
    // 1, waits until 3: stall 2, charged 1 + 2 = 3. Total 4.
    let (cycles, trace) = timed(false, &[LW_V0, USE_V0, BREAK]);
    assert_eq!(cycles, 4);
    assert_eq!(trace, vec![(CODE, 1), (CODE + 4, 3)]);
}

#[test]
fn one_instruction_between_load_and_use_leaves_a_one_cycle_stall() {
    // lw at 0 (ready 3), nop at 1, addu wants 2, issues 3: charged 2. Total 4.
    let (cycles, trace) = timed(false, &[LW_V0, NOP, USE_V0, BREAK]);
    assert_eq!(cycles, 4);
    assert_eq!(trace[2], (CODE + 8, 2));
}

#[test]
fn two_instructions_between_load_and_use_hide_the_load_delay() {
    // lw 0, nop 1, nop 2, addu 3 = ready: no stall. Total 4.
    let (cycles, _) = timed(false, &[LW_V0, NOP, NOP, USE_V0, BREAK]);
    assert_eq!(cycles, 4);
}

#[test]
fn a_load_into_a_register_nobody_reads_costs_nothing_extra() {
    // lw $v0 at 0; addu $v1, $a0, $a0 does not read $v0: 1 + 1 = 2.
    let (cycles, _) = timed(false, &[LW_V0, 0x0084_1821, BREAK]);
    assert_eq!(cycles, 2);
}

#[test]
fn the_branch_bubbles_come_after_the_delay_slot() {
    // beq $zero,$zero,0x40000c at 0 (charged 3); lw $v0 in the slot issues
    // at 1 (ready 4); the two bubbles bring the clock to 4; addu $v1,$v0,$v0
    // at the target issues at 4 with $v0 ready: no stall. Total 5.
    let (cycles, trace) = timed(false, &[0x1000_0002, LW_V0, NOP, USE_V0, BREAK]);
    assert_eq!(cycles, 5);
    assert_eq!(trace, vec![(CODE, 3), (CODE + 4, 1), (CODE + 12, 1)]);
}

#[test]
fn mfhi_and_mflo_wait_for_the_multiply_or_divide_latency() {
    // X at 0 makes HI/LO ready at its latency L; mflo $v0 would issue at 1,
    // waits until L, retires at L + 1: total = latency + 1.
    let mflo = 0x0000_1012;
    let rows: &[(u32, &str, bool, u64)] = &[
        (0x0085_0018, "mult $a0, $a1", false, 10 + 1),
        (0x0085_0019, "multu $a0, $a1", false, 10 + 1),
        (0x0085_001c, "dmult $a0, $a1", true, 20 + 1),
        (0x0085_001d, "dmultu $a0, $a1", true, 20 + 1),
        (0x0085_001a, "div $a0, $a1", false, 69 + 1),
        (0x0085_001b, "divu $a0, $a1", false, 69 + 1),
        (0x0085_001e, "ddiv $a0, $a1", true, 133 + 1),
        (0x0085_001f, "ddivu $a0, $a1", true, 133 + 1),
    ];
    for &(word, asm, mode64, expect) in rows {
        assert_eq!(cpu_mips::disassemble(word, CODE), asm);
        let (cycles, _) = timed(mode64, &[word, mflo, BREAK]);
        assert_eq!(cycles, expect, "{asm}; mflo $v0");
    }
}

#[test]
fn independent_work_hides_part_of_the_multiply_latency() {
    // mult at 0 (HI/LO ready 10); nops at 1, 2, 3; mfhi would issue at 4,
    // waits until 10: total 11.
    let (cycles, trace) = timed(false, &[0x0085_0018, NOP, NOP, NOP, 0x0000_1010, BREAK]);
    assert_eq!(cycles, 11);
    assert_eq!(trace[4], (CODE + 16, 7), "mfhi: 6 stall cycles + 1");
}

#[test]
fn fp_loads_and_cp1_moves_follow_the_load_latency() {
    // lwc1 $f0, 0($a0) at 0 ($f0 ready 3); mfc1 $v0, $f0 waits until 3: total 4.
    let (cycles, _) = timed(false, &[0xc480_0000, 0x4402_0000, BREAK]);
    assert_eq!(cycles, 4);
    // mtc1 $a0, $f2 at 0 ($f2 ready 3); mfc1 $v0, $f2 at 3: total 4.
    let (cycles, _) = timed(false, &[0x4484_1000, 0x4402_1000, BREAK]);
    assert_eq!(cycles, 4);
}

#[test]
fn count_is_half_the_cycle_count_and_time_follows_the_clock_rate() {
    // 100 nops = 100 cycles: Count 50; 1 us at 100 MHz, 2 us at 50 MHz.
    let mut program = vec![NOP; 100];
    program.push(BREAK);
    let (mut cpu, mut mem) = new_machine(false, &program);
    let _ = cpu.run(&mut mem, &mut (), u64::MAX);
    assert_eq!((cpu.cycles(), cpu.count()), (100, 50));
    assert_eq!(cpu.virtual_time(), Duration::from_micros(1));
    let mut slow = Cpu::new(CpuConfig {
        clock_hz: 50_000_000,
        ..CpuConfig::default()
    });
    slow.add_cycles(100);
    assert_eq!(slow.virtual_time(), Duration::from_micros(2));
}

#[test]
fn run_stops_at_the_first_instruction_boundary_at_or_past_the_deadline() {
    // nops: the clock reaches 3 after the third instruction.
    let (mut cpu, mut mem) = new_machine(false, &[NOP; 8]);
    assert_eq!(cpu.run(&mut mem, &mut (), 3), StopReason::Deadline);
    assert_eq!((cpu.cycles(), cpu.pc()), (3, CODE + 12));
    // A load-use pair crosses deadline 5 in one step: lw at 3, addu stalls to 6.
    mem.poke_words(CODE + 12, &[LW_V0, USE_V0]);
    assert_eq!(cpu.run(&mut mem, &mut (), 5), StopReason::Deadline);
    assert_eq!((cpu.cycles(), cpu.pc()), (7, CODE + 20));
    // Already past the deadline: nothing runs.
    assert_eq!(cpu.run(&mut mem, &mut (), 7), StopReason::Deadline);
    assert_eq!(cpu.instructions(), 5);
}

#[test]
fn an_exception_charges_nothing_until_the_embedder_completes_the_instruction() {
    // nop (1); syscall raises: still 1. complete_exception_instruction: +1 = 2.
    let (mut cpu, mut mem) = new_machine(false, &[NOP, test_support::mips::syscall(), NOP]);
    let stop = cpu.run(&mut mem, &mut (), u64::MAX);
    assert!(matches!(stop, StopReason::Exception(e) if e.code == ExcCode::Sys));
    assert_eq!((cpu.cycles(), cpu.instructions()), (1, 1));
    cpu.complete_exception_instruction();
    assert_eq!((cpu.cycles(), cpu.instructions()), (2, 2));
}

// Floating point: a COP1 result is ready FpOp::latency() cycles after the
// instruction issues (GCC's R4000 model: add/sub 4, mul.d 8, div.s 23,
// compare 3); a reader issued earlier stalls until then.
const ADD_D_F0: u32 = 0x4624_1000; // add.d $f0, $f2, $f4
const ADD_D_USES_F0: u32 = 0x4620_0180; // add.d $f6, $f0, $f0
const MUL_D_F0: u32 = 0x4624_1002; // mul.d $f0, $f2, $f4
const DIV_S_F0: u32 = 0x4604_1003; // div.s $f0, $f2, $f4
const ADD_S_USES_F0: u32 = 0x4600_0180; // add.s $f6, $f0, $f0
const C_LT_D: u32 = 0x4624_103c; // c.lt.d $f2, $f4
const BC1T_NEXT: u32 = 0x4501_0001; // bc1t (over the next instruction)

#[test]
fn an_fp_add_result_read_next_stalls_until_its_four_cycle_latency() {
    // add.d issues at 0, $f0 ready at 4; the reader would issue at 1: stalls
    // 3, charged 1 + 3 = 4. Total 1 + 4 = 5.
    let (cycles, trace) = timed(false, &[ADD_D_F0, ADD_D_USES_F0, BREAK]);
    assert_eq!(cycles, 5);
    assert_eq!(trace, vec![(CODE, 1), (CODE + 4, 4)]);
}

#[test]
fn independent_work_hides_part_of_an_fp_latency() {
    // add.d at 0 (ready 4), nops at 1 and 2, the reader at 3 stalls 1:
    // 1 + 1 + 1 + 2 = 5.
    let (cycles, _) = timed(false, &[ADD_D_F0, NOP, NOP, ADD_D_USES_F0, BREAK]);
    assert_eq!(cycles, 5);
}

#[test]
fn mul_d_and_div_s_results_wait_for_their_latencies() {
    // mul.d: ready at 8, reader at 1 stalls 7: 1 + 8 = 9.
    assert_eq!(timed(false, &[MUL_D_F0, ADD_D_USES_F0, BREAK]).0, 9);
    // div.s: ready at 23, reader at 1 stalls 22: 1 + 23 = 24.
    assert_eq!(timed(false, &[DIV_S_F0, ADD_S_USES_F0, BREAK]).0, 24);
}

#[test]
fn a_branch_on_the_fp_condition_waits_for_the_compare() {
    // c.lt.d at 0 sets the condition at 3 (false: 0 < 0); bc1t at 1 stalls
    // 2 and is not taken: 1 + 2 = 3; its delay slot 1. Total 1 + 3 + 1 = 5.
    let (cycles, trace) = timed(false, &[C_LT_D, BC1T_NEXT, NOP, BREAK]);
    assert_eq!(cycles, 5);
    assert_eq!(trace, vec![(CODE, 1), (CODE + 4, 3), (CODE + 8, 1)]);
}

/// The block tier skips the readiness check of a GPR first read two or
/// more cycles into a block; that holds only if nothing writes a GPR later
/// than `MAX_GPR_LATENCY` cycles after its issue. Every opcode, function,
/// rs and rt field combination is decoded and checked.
#[test]
fn no_instruction_writes_a_gpr_later_than_max_gpr_latency() {
    use cpu_mips::timing::{operands, MAX_GPR_LATENCY};
    for opcode in 0..64u32 {
        for rs in 0..32u32 {
            for rt in 0..32u32 {
                for funct in 0..64u32 {
                    let word = opcode << 26 | rs << 21 | rt << 16 | 5 << 11 | 3 << 6 | funct;
                    let t = operands(&cpu_mips::decode(word));
                    if (1..32).contains(&t.dst) {
                        assert!(t.latency <= MAX_GPR_LATENCY, "{word:#010x}: {t:?}");
                    }
                }
            }
        }
    }
}
