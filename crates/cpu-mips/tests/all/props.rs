//! Property tests: ALU and shift semantics against reference formulas, and
//! "no instruction stream panics".

use crate::testmem;

use proptest::prelude::*;
use testmem::{machine, r::*, steps, sx, TestMem, CODE, DATA};

/// SPECIAL function, reference formula on (rs, rt) for the 32-bit
/// register-register forms that never trap. Operands are sign-extended
/// 32-bit values, as in 32-bit mode.
fn reference32(funct: u32, a: u32, b: u32) -> u64 {
    match funct {
        0x21 => sx(a.wrapping_add(b)),
        0x23 => sx(a.wrapping_sub(b)),
        0x24 => sx(a & b),
        0x25 => sx(a | b),
        0x26 => sx(a ^ b),
        0x27 => sx(!(a | b)),
        0x2a => ((a as i32) < (b as i32)) as u64,
        0x2b => (a < b) as u64,
        // Variable shifts: rd = rt shifted by rs & 31 (here rs = a, rt = b).
        0x04 => sx(b << (a & 31)),
        0x06 => sx(b >> (a & 31)),
        0x07 => sx(((b as i32) >> (a & 31)) as u32),
        _ => unreachable!(),
    }
}

fn run_one(mode64: bool, word: u32, a: u64, b: u64) -> (u64, Option<cpu_mips::ExcCode>) {
    let (mut cpu, mut mem) = machine(mode64, &[word]);
    cpu.gpr[A0] = a;
    cpu.gpr[A1] = b;
    let e = steps(&mut cpu, &mut mem, 1);
    (cpu.gpr[V0], e.map(|e| e.code))
}

proptest! {
    #[test]
    fn register_alu_matches_reference(
        funct in prop::sample::select(vec![0x21u32, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2a, 0x2b, 0x04, 0x06, 0x07]),
        a: u32, b: u32,
    ) {
        // rd = $v0, rs = $a0, rt = $a1.
        let word = (4 << 21) | (5 << 16) | (2 << 11) | funct;
        let (v0, e) = run_one(false, word, sx(a), sx(b));
        prop_assert_eq!(e, None);
        prop_assert_eq!(v0, reference32(funct, a, b));
    }

    #[test]
    fn add_traps_exactly_on_signed_overflow(a: i32, b: i32) {
        let (v0, e) = run_one(false, 0x0085_1020, a as i64 as u64, b as i64 as u64); // add $v0, $a0, $a1
        match a.checked_add(b) {
            Some(s) => { prop_assert_eq!(e, None); prop_assert_eq!(v0, s as i64 as u64); }
            None => prop_assert_eq!(e, Some(cpu_mips::ExcCode::Ov)),
        }
    }

    #[test]
    fn shifts_by_immediate_match_reference(funct in prop::sample::select(vec![0u32, 2, 3]), sa in 0u32..32, b: u32) {
        // sll/srl/sra $v0, $a1, sa
        let word = (5 << 16) | (2 << 11) | (sa << 6) | funct;
        let (v0, _) = run_one(false, word, 0, sx(b));
        let want = match funct {
            0 => sx(b << sa),
            2 => sx(b >> sa),
            _ => sx(((b as i32) >> sa) as u32),
        };
        prop_assert_eq!(v0, want);
    }

    #[test]
    fn doubleword_ops_match_reference(
        funct in prop::sample::select(vec![0x2du32, 0x2f, 0x14, 0x16, 0x17]),
        a: u64, b: u64,
    ) {
        let word = (4 << 21) | (5 << 16) | (2 << 11) | funct;
        let (v0, e) = run_one(true, word, a, b);
        prop_assert_eq!(e, None);
        let want = match funct {
            0x2d => a.wrapping_add(b),
            0x2f => a.wrapping_sub(b),
            0x14 => b << (a & 63),
            0x16 => b >> (a & 63),
            _ => ((b as i64) >> (a & 63)) as u64,
        };
        prop_assert_eq!(v0, want);
    }

    #[test]
    fn multiply_matches_reference(a: i32, b: i32) {
        let (mut cpu, mut mem) = machine(false, &[0x0085_0018]); // mult $a0, $a1
        cpu.gpr[A0] = a as i64 as u64;
        cpu.gpr[A1] = b as i64 as u64;
        prop_assert_eq!(steps(&mut cpu, &mut mem, 1), None);
        let p = a as i64 * b as i64;
        prop_assert_eq!((cpu.hi, cpu.lo), (sx((p >> 32) as u32), sx(p as u32)));
    }

    #[test]
    fn random_instruction_streams_never_panic(
        words in prop::collection::vec(any::<u32>(), 64),
        regs in prop::collection::vec(any::<u64>(), 32),
        mode64: bool,
    ) {
        let (mut cpu, mut mem) = machine(mode64, &words);
        for (i, v) in regs.iter().enumerate() {
            // Half the registers point into data so loads and stores hit memory.
            cpu.gpr[i] = if i % 2 == 0 { DATA as u64 + (*v & 0x1fff) } else { *v };
        }
        run_random(&mut cpu, &mut mem);
    }
}

/// Up to 300 steps; every exception is "handled" by skipping the
/// instruction or restarting at CODE. Any outcome is fine but a panic.
fn run_random(cpu: &mut cpu_mips::Cpu, mem: &mut TestMem) {
    for _ in 0..300 {
        if let Some(e) = cpu.step(mem) {
            match e.code {
                cpu_mips::ExcCode::Sys | cpu_mips::ExcCode::Bp | cpu_mips::ExcCode::Tr => {
                    cpu.complete_exception_instruction()
                }
                _ => cpu.set_pc(CODE),
            }
        }
        let _ = cpu.sample_pc();
    }
    // And through `run` with a deadline.
    let _ = cpu.run(mem, &mut (), cpu.cycles() + 500);
}
