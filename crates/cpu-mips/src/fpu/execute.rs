//! [`Fpu::execute`]: runs one decoded computational COP1 instruction.
//!
//! Exception protocol (R4000 manual, ch. 7, "Floating-Point Exceptions",
//! and the R10000 manual's FSR description: "When a Cause bit is set and
//! its corresponding Enable bit is also set, an exception is taken on the
//! instruction. The result of the instruction is not stored, and the Flag
//! bits are not changed. If no exception is taken, the corresponding Flag
//! bits are set."): every arithmetic instruction rewrites the Cause field;
//! an enabled condition leaves the destination (or the condition bit)
//! unchanged and returns [`FpTrap`]; otherwise the flags accumulate and the
//! result is written.
//!
//! MOV.fmt is non-arithmetic (MIPS IV manual: "no IEEE 754 exception"): it
//! copies the bits and leaves FCSR alone.

use super::decode::{Fmt, FpOp, Func, IntRounding};
use super::fcsr::{self, Exceptions, RoundingMode};
use super::hostfloat::{self as hf, Arith};
use super::softfloat::{self as sf, Env, Format, Rounded};
use super::{FpTrap, Fpu};
use std::cmp::Ordering;

/// The soft-float format of a floating-point fmt (S or D; decode only
/// gives floating ops S or D sources).
fn float_format(fmt: Fmt) -> Format {
    if fmt == Fmt::D {
        sf::DOUBLE
    } else {
        sf::SINGLE
    }
}

/// The integer width of W (32) or L (64).
fn int_width(fmt: Fmt) -> u32 {
    if fmt == Fmt::L {
        64
    } else {
        32
    }
}

impl IntRounding {
    /// The fixed rounding mode each of ROUND/TRUNC/CEIL/FLOOR uses.
    fn mode(self) -> RoundingMode {
        match self {
            IntRounding::Round => RoundingMode::Nearest,
            IntRounding::Trunc => RoundingMode::TowardZero,
            IntRounding::Ceil => RoundingMode::TowardPlus,
            IntRounding::Floor => RoundingMode::TowardMinus,
        }
    }
}

impl Fpu {
    /// The rounding environment FCSR currently selects.
    fn env(&self) -> Env {
        Env {
            mode: RoundingMode::from_fcsr(self.fcsr),
            flush: self.fcsr & fcsr::FLUSH != 0,
            underflow_trap: fcsr::enabled(self.fcsr).contains(Exceptions::UNDERFLOW),
        }
    }

    /// Executes a computational COP1 instruction. `fr` is Status.FR.
    /// `Err(FpTrap)`: an enabled exception; the Cause field says which, and
    /// the destination is unchanged.
    pub fn execute(&mut self, fr: bool, op: &FpOp) -> Result<(), FpTrap> {
        let src_wide = op.fmt.is_64bit();
        let a = self.read_operand(fr, src_wide, op.fs);
        let b = self.read_operand(fr, src_wide, op.ft);
        let env = self.env();
        let result = match op.func {
            Func::Mov => {
                self.write_result(fr, src_wide, op.fd, a);
                return Ok(());
            }
            Func::Compare(cond) => {
                let (order, signalling) = sf::compare(float_format(op.fmt), a, b);
                let holds = match order {
                    None => cond.if_unordered(),
                    Some(Ordering::Less) => cond.if_less(),
                    Some(Ordering::Equal) => cond.if_equal(),
                    Some(Ordering::Greater) => false,
                };
                let invalid = signalling || (order.is_none() && cond.signals_on_qnan());
                let exc = if invalid {
                    Exceptions::INVALID
                } else {
                    Exceptions::empty()
                };
                self.raise(exc)?;
                if holds {
                    self.fcsr |= fcsr::CONDITION;
                } else {
                    self.fcsr &= !fcsr::CONDITION;
                }
                return Ok(());
            }
            Func::Add => hf::arith(Arith::Add, src_wide, env, a, b)
                .unwrap_or_else(|| sf::add(float_format(op.fmt), env, a, b, false)),
            Func::Sub => hf::arith(Arith::Sub, src_wide, env, a, b)
                .unwrap_or_else(|| sf::add(float_format(op.fmt), env, a, b, true)),
            Func::Mul => hf::arith(Arith::Mul, src_wide, env, a, b)
                .unwrap_or_else(|| sf::mul(float_format(op.fmt), env, a, b)),
            Func::Div => hf::arith(Arith::Div, src_wide, env, a, b)
                .unwrap_or_else(|| sf::div(float_format(op.fmt), env, a, b)),
            Func::Sqrt => sf::sqrt(float_format(op.fmt), env, a),
            Func::Abs => sf::abs(float_format(op.fmt), a),
            Func::Neg => sf::neg(float_format(op.fmt), a),
            Func::ToInt { rounding, to } => {
                sf::to_int(float_format(op.fmt), rounding.mode(), a, int_width(to))
            }
            Func::Cvt { to } => convert(op.fmt, to, env, a),
        };
        self.commit(fr, op, result)
    }

    /// Sets the Cause field to `exc`; traps if any is enabled, else adds
    /// them to the Flags.
    fn raise(&mut self, exc: Exceptions) -> Result<(), FpTrap> {
        self.fcsr = (self.fcsr & !fcsr::CAUSE_MASK) | (exc.bits() << fcsr::CAUSE_SHIFT);
        if exc.intersects(fcsr::enabled(self.fcsr)) {
            return Err(FpTrap);
        }
        let ieee = exc & !Exceptions::UNIMPLEMENTED;
        self.fcsr |= ieee.bits() << fcsr::FLAGS_SHIFT;
        Ok(())
    }

    /// Applies `result`'s exceptions, then writes the value to fd unless
    /// one trapped.
    fn commit(&mut self, fr: bool, op: &FpOp, result: Rounded) -> Result<(), FpTrap> {
        self.raise(result.exc)?;
        self.write_result(fr, op.dest_fmt().is_64bit(), op.fd, result.bits);
        Ok(())
    }
}

/// CVT.to.from: float-to-float, integer-to-float, float-to-integer (in the
/// FCSR rounding mode). Decode only produces these pairs.
fn convert(from: Fmt, to: Fmt, env: Env, a: u64) -> Rounded {
    match (from, to) {
        (Fmt::W, _) => sf::from_int(float_format(to), env, a as u32 as i32 as i64),
        (Fmt::L, _) => sf::from_int(float_format(to), env, a as i64),
        (_, Fmt::W | Fmt::L) => sf::to_int(float_format(from), env.mode, a, int_width(to)),
        _ => sf::convert(float_format(from), float_format(to), env, a),
    }
}
