//! The fast path for ADD, SUB, MUL and DIV in S and D: the host's IEEE
//! arithmetic where it gives exactly the soft-float's result and exception
//! flags, `None` (use `softfloat`) everywhere else.
//!
//! Contents: [`arith`].
//!
//! When the fast path answers:
//! - FCSR selects round-to-nearest-even, the host's only mode in Rust;
//! - both operands are zero or normal numbers of moderate size (magnitude
//!   between 2^-400 and 2^400 for D; any normal S): no NaN, infinity or
//!   denormal, so no Invalid, Divide-by-zero or FS question arises;
//! - the result is a normal number outside the lowest and highest binades:
//!   nothing tiny (Underflow, FS) and nothing that overflowed.
//!
//! Within those bounds the only flag is Inexact, and it is detected
//! exactly: for a sum, the error term of TwoSum (exact in
//! round-to-nearest); for a product, the fused multiply-add `a*b - p`; for
//! a quotient, the remainder `a - q*b` by fused multiply-add (exactly
//! representable when q is the rounded quotient, barring underflow, which
//! the bounds exclude). S operations run in double precision, which holds
//! an S product exactly, and round once to single: double rounding is
//! innocuous for +, -, * and / when the wider format has at least 2p + 2
//! bits (53 >= 50); Inexact is then "the double result was inexact, or the
//! single rounding changed it".
//!
//! The soft-float stays the reference: a property test compares the two on
//! random operands (special values included) bit for bit, flags included.

use super::fcsr::RoundingMode;
use super::softfloat::{Env, Rounded};

/// The four operations the fast path knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arith {
    Add,
    Sub,
    Mul,
    Div,
}

/// `a op b` in double (`double`) or single precision, or `None` when the
/// soft-float must decide.
#[inline]
pub fn arith(op: Arith, double: bool, env: Env, a: u64, b: u64) -> Option<Rounded> {
    if env.mode != RoundingMode::Nearest {
        return None;
    }
    if double {
        arith_d(op, a, b)
    } else {
        arith_s(op, a as u32, b as u32)
    }
}

/// Zero, or a normal double of magnitude in [2^-400, 2^400).
fn moderate_d(bits: u64) -> bool {
    let exp = (bits >> 52) & 0x7ff;
    bits << 1 == 0 || (1023 - 400..1023 + 400).contains(&exp)
}

/// A normal double outside the lowest and highest binades.
fn safe_result_d(x: f64) -> bool {
    let exp = (x.to_bits() >> 52) & 0x7ff;
    (2..0x7fe).contains(&exp)
}

/// Zero or a normal single.
fn normal_or_zero_s(bits: u32) -> bool {
    let exp = (bits >> 23) & 0xff;
    bits << 1 == 0 || (1..0xff).contains(&exp)
}

/// A normal single outside the lowest and highest binades.
fn safe_result_s(x: f32) -> bool {
    let exp = (x.to_bits() >> 23) & 0xff;
    (2..0xfe).contains(&exp)
}

/// The double-precision result and whether it is inexact (no bound
/// checks).
#[inline]
fn exact_d(op: Arith, a: f64, b: f64) -> (f64, bool) {
    match op {
        Arith::Add | Arith::Sub => {
            let b = if op == Arith::Sub { -b } else { b };
            let s = a + b;
            // TwoSum (Knuth): s + err == a + b exactly.
            let bb = s - a;
            let err = (a - (s - bb)) + (b - bb);
            (s, err != 0.0)
        }
        Arith::Mul => {
            let p = a * b;
            (p, a.mul_add(b, -p) != 0.0)
        }
        Arith::Div => {
            let q = a / b;
            (q, (-q).mul_add(b, a) != 0.0)
        }
    }
}

fn arith_d(op: Arith, a: u64, b: u64) -> Option<Rounded> {
    if !moderate_d(a) || !moderate_d(b) {
        return None;
    }
    let (x, y) = (f64::from_bits(a), f64::from_bits(b));
    if op == Arith::Div && y == 0.0 {
        return None;
    }
    let (r, inexact) = exact_d(op, x, y);
    safe_result_d(r).then(|| Rounded::inexact_if(r.to_bits(), inexact))
}

fn arith_s(op: Arith, a: u32, b: u32) -> Option<Rounded> {
    if !normal_or_zero_s(a) || !normal_or_zero_s(b) {
        return None;
    }
    let (x, y) = (f32::from_bits(a) as f64, f32::from_bits(b) as f64);
    if op == Arith::Div && y == 0.0 {
        return None;
    }
    let (wide, wide_inexact) = exact_d(op, x, y);
    let r = wide as f32;
    let inexact = wide_inexact || r as f64 != wide;
    safe_result_s(r).then(|| Rounded::inexact_if(r.to_bits() as u64, inexact))
}
