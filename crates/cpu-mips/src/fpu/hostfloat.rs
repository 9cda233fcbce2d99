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

/// The fast path's bounds in one format, on the exponent field (the
/// compiled tier emits the same tests from these).
pub struct Bounds {
    /// Where the exponent field starts, and its mask once shifted down.
    pub shift: u32,
    pub mask: u64,
    /// Every bit but the sign: zero exactly when the value is a zero.
    pub magnitude: u64,
    /// Exponents of the operands taken (besides zeros).
    pub operand: std::ops::Range<u64>,
    /// Exponents of the results taken: normal numbers outside the lowest
    /// and highest binades.
    pub result: std::ops::Range<u64>,
}

/// D: zero, or a normal double of magnitude in [2^-400, 2^400).
pub const DOUBLE: Bounds = Bounds {
    shift: 52,
    mask: 0x7ff,
    magnitude: i64::MAX as u64,
    operand: 1023 - 400..1023 + 400,
    result: 2..0x7fe,
};

/// S: zero or any normal single.
pub const SINGLE: Bounds = Bounds {
    shift: 23,
    mask: 0xff,
    magnitude: 0x7fff_ffff,
    operand: 1..0xff,
    result: 2..0xfe,
};

impl Bounds {
    fn exponent(&self, bits: u64) -> u64 {
        (bits >> self.shift) & self.mask
    }
    /// Whether the fast path takes operand `bits`.
    fn operand_ok(&self, bits: u64) -> bool {
        bits & self.magnitude == 0 || self.operand.contains(&self.exponent(bits))
    }
    /// Whether the fast path may deliver result `bits`.
    fn result_ok(&self, bits: u64) -> bool {
        self.result.contains(&self.exponent(bits))
    }
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
    if !DOUBLE.operand_ok(a) || !DOUBLE.operand_ok(b) {
        return None;
    }
    let (x, y) = (f64::from_bits(a), f64::from_bits(b));
    if op == Arith::Div && y == 0.0 {
        return None;
    }
    let (r, inexact) = exact_d(op, x, y);
    DOUBLE
        .result_ok(r.to_bits())
        .then(|| Rounded::inexact_if(r.to_bits(), inexact))
}

fn arith_s(op: Arith, a: u32, b: u32) -> Option<Rounded> {
    if !SINGLE.operand_ok(a as u64) || !SINGLE.operand_ok(b as u64) {
        return None;
    }
    let (x, y) = (f32::from_bits(a) as f64, f32::from_bits(b) as f64);
    if op == Arith::Div && y == 0.0 {
        return None;
    }
    let (wide, wide_inexact) = exact_d(op, x, y);
    let r = wide as f32;
    let inexact = wide_inexact || r as f64 != wide;
    let bits = r.to_bits() as u64;
    SINGLE
        .result_ok(bits)
        .then(|| Rounded::inexact_if(bits, inexact))
}
