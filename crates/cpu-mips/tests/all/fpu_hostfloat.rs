//! The host-FP fast path against the soft-float, the reference: wherever
//! the fast path answers, its result and exception flags must be the
//! soft-float's, bit for bit. Operands are random bit patterns, ordinary
//! numbers (where the fast path answers most), values near the edges of its
//! bounds and special values, in every rounding mode.

use cpu_mips::fpu::hostfloat::{arith, Arith};
use cpu_mips::fpu::softfloat::{self as sf, Env, Rounded};
use cpu_mips::fpu::RoundingMode;
use proptest::prelude::*;

const OPS: [Arith; 4] = [Arith::Add, Arith::Sub, Arith::Mul, Arith::Div];

fn soft(op: Arith, double: bool, env: Env, a: u64, b: u64) -> Rounded {
    let fmt = if double { sf::DOUBLE } else { sf::SINGLE };
    match op {
        Arith::Add => sf::add(fmt, env, a, b, false),
        Arith::Sub => sf::add(fmt, env, a, b, true),
        Arith::Mul => sf::mul(fmt, env, a, b),
        Arith::Div => sf::div(fmt, env, a, b),
    }
}

fn env(mode: u8, flush: bool, underflow_trap: bool) -> Env {
    let mode = [
        RoundingMode::Nearest,
        RoundingMode::TowardZero,
        RoundingMode::TowardPlus,
        RoundingMode::TowardMinus,
    ][mode as usize % 4];
    Env {
        mode,
        flush,
        underflow_trap,
    }
}

/// Checks one case; true if the fast path answered.
fn check(op: Arith, double: bool, env: Env, a: u64, b: u64) -> bool {
    let (a, b) = if double {
        (a, b)
    } else {
        (a & 0xffff_ffff, b & 0xffff_ffff)
    };
    match arith(op, double, env, a, b) {
        None => false,
        Some(fast) => {
            let reference = soft(op, double, env, a, b);
            assert_eq!(
                fast, reference,
                "{op:?} double={double} {a:#x} {b:#x} {env:?}"
            );
            true
        }
    }
}

fn double_operand() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>(),
        (-1e6f64..1e6).prop_map(f64::to_bits),
        (-1e300f64..1e300).prop_map(f64::to_bits),
        (any::<i32>(), -420i32..420).prop_map(|(m, e)| (m as f64 * 2f64.powi(e)).to_bits()),
        prop::sample::select(vec![
            0u64,
            1 << 63,
            0x7ff0 << 48,
            0x7ff8 << 48,
            0x7ff4 << 48,
            1,
            0x0010 << 48,
            0x3ff0 << 48,
            0x7fef_ffff_ffff_ffff
        ]),
    ]
}

fn single_operand() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u32>().prop_map(u64::from),
        (-1e6f32..1e6).prop_map(|x| x.to_bits() as u64),
        (any::<i16>(), -130i32..130)
            .prop_map(|(m, e)| ((m as f32) * 2f32.powi(e)).to_bits() as u64),
        prop::sample::select(vec![
            0u64,
            0x8000_0000,
            0x7f80_0000,
            0x7fc0_0000,
            1,
            0x0080_0000,
            0x3f80_0000,
            0x7f7f_ffff
        ]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20_000, ..ProptestConfig::default() })]

    #[test]
    fn host_fast_path_equals_the_soft_float_in_double(
        op in 0usize..4, a in double_operand(), b in double_operand(),
        mode in 0u8..4, flush: bool, trap: bool,
    ) {
        check(OPS[op], true, env(mode, flush, trap), a, b);
    }

    #[test]
    fn host_fast_path_equals_the_soft_float_in_single(
        op in 0usize..4, a in single_operand(), b in single_operand(),
        mode in 0u8..4, flush: bool, trap: bool,
    ) {
        check(OPS[op], false, env(mode, flush, trap), a, b);
    }
}

/// The fast path does answer for ordinary operands, exact and inexact.
#[test]
fn host_fast_path_answers_for_ordinary_operands() {
    let nearest = env(0, false, false);
    let cases = [(1.5f64, 2.25f64), (1.0, 3.0), (0.1, 0.2), (1e10, -3.5)];
    for (x, y) in cases {
        for op in OPS {
            assert!(
                check(op, true, nearest, x.to_bits(), y.to_bits()),
                "{op:?} {x} {y}"
            );
            let (xs, ys) = ((x as f32).to_bits() as u64, (y as f32).to_bits() as u64);
            assert!(check(op, false, nearest, xs, ys), "{op:?} {x} {y} (single)");
        }
    }
    // 1/3 is inexact; 1.5 * 2.25 is exact.
    let third = arith(Arith::Div, true, nearest, 1f64.to_bits(), 3f64.to_bits()).unwrap();
    assert_eq!(third.exc, cpu_mips::fpu::Exceptions::INEXACT);
    let exact = arith(
        Arith::Mul,
        true,
        nearest,
        1.5f64.to_bits(),
        2.25f64.to_bits(),
    )
    .unwrap();
    assert!(exact.exc.is_empty());
}
