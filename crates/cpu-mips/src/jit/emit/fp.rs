//! The FPU's computational instructions in compiled code, inline where the
//! host gives the very result and FCSR the interpreter gives (see
//! `fpu::hostfloat`, whose rules this follows):
//! - MOV.S/D copies the bits and leaves the FCSR alone;
//! - CVT.D.W is always exact: the result, and a Cause field cleared;
//! - ADD, SUB, MUL and DIV in S and D take the host's IEEE operation when
//!   FCSR selects round to nearest with Inexact not enabled, both operands
//!   are of moderate size and the result is a normal number well inside
//!   the range. The only exception is then Inexact, detected exactly
//!   (TwoSum for a sum, a fused multiply-add for a product or quotient).
//!   Anything else (NaNs, infinities, denormals, other rounding modes, an
//!   enabled Inexact) calls the interpreter's `execute` from a cold path,
//!   exactly as an instruction that is not inlined does.
//!
//! The FP registers are read and written in the `Cpu` (they are not held
//! in variables); the block's entry checks that CP1 is usable and Status.FR
//! is what the code was compiled for (see `Emitter::check_schedule`).

use cranelift_codegen::ir::condcodes::FloatCC;
use cranelift_codegen::ir::types::{F32, F64};

use super::*;
use crate::fpu::hostfloat::{Arith, Bounds, DOUBLE, SINGLE};
use std::ops::Range;

/// `hostfloat`'s bounds for D (`wide`) or S.
fn bounds(wide: bool) -> &'static Bounds {
    if wide {
        &DOUBLE
    } else {
        &SINGLE
    }
}
use crate::fpu::{fcsr, Fmt, FpOp, Func};

const FCSR: i32 = (offset_of!(Cpu, fpu) + offset_of!(Fpu, fcsr)) as i32;

/// Whether `op` is compiled inline (on a host with a fused multiply-add
/// when `fma`); the rest call `execute`.
pub(super) fn inlined(op: &FpOp, fma: bool) -> bool {
    let float = matches!(op.fmt, Fmt::S | Fmt::D);
    match op.func {
        Func::Mov => float,
        Func::Cvt { to: Fmt::D } => op.fmt == Fmt::W,
        Func::Add | Func::Sub => float,
        Func::Mul | Func::Div => float && fma,
        _ => false,
    }
}

/// The four operations of the fast path.
fn arith_of(func: Func) -> Option<Arith> {
    match func {
        Func::Add => Some(Arith::Add),
        Func::Sub => Some(Arith::Sub),
        Func::Mul => Some(Arith::Mul),
        Func::Div => Some(Arith::Div),
        _ => None,
    }
}

impl Emitter<'_> {
    /// Emits the computational COP1 instruction `fop` (`op` as decoded),
    /// instruction `i` of the block at `pc`; `inlined(fop)` holds.
    pub(super) fn fp(&mut self, i: usize, fop: &FpOp, pc: u32) {
        let wide = fop.fmt.is_64bit();
        match fop.func {
            Func::Mov => {
                let v = self.fp_operand(wide, fop.fs);
                self.set_fp_result(wide, fop.fd, v);
            }
            Func::Cvt { .. } => {
                let w = self.fpr(fop.fs);
                let w = self.b.ins().ireduce(I32, w);
                let d = self.b.ins().fcvt_from_sint(F64, w);
                let bits = self.b.ins().bitcast(I64, MemFlags::new(), d);
                let f = self.field(I32, FCSR);
                let f = self.b.ins().band_imm(f, !fcsr::CAUSE_MASK as i64);
                self.set_field(FCSR, f);
                self.set_fpr_dword(fop.fd, bits);
            }
            func => {
                let arith = arith_of(func).expect("inlined() admits only these");
                self.fp_arith(i, fop, arith, pc);
            }
        }
    }

    /// An operand: the dword (D) or the word, zero-extended (S).
    fn fp_operand(&mut self, wide: bool, r: u8) -> Value {
        if wide {
            self.fpr_dword(r)
        } else {
            let v = self.fpr(r);
            self.b.ins().band_imm(v, 0xffff_ffff)
        }
    }

    /// Writes a result: the dword (D) or the low word of `v` (S).
    fn set_fp_result(&mut self, wide: bool, r: u8, v: Value) {
        if wide {
            self.set_fpr_dword(r, v);
        } else {
            self.set_fpr_word(r, v);
        }
    }

    /// `bits` (an I64 holding an S or D value) is zero or a normal number
    /// of moderate size: `hostfloat`'s bounds on operands.
    fn moderate(&mut self, wide: bool, bits: Value) -> Value {
        let bounds = bounds(wide);
        let in_range = self.exponent_in(bits, bounds, &bounds.operand);
        let zero = self.is_zero(wide, bits);
        self.b.ins().bor(in_range, zero)
    }

    /// Whether the exponent field of `bits` is in `range`, as one unsigned
    /// comparison.
    fn exponent_in(&mut self, bits: Value, bounds: &Bounds, range: &Range<u64>) -> Value {
        let exp = self.b.ins().ushr_imm(bits, bounds.shift as i64);
        let exp = self.b.ins().band_imm(exp, bounds.mask as i64);
        let exp = self.b.ins().iadd_imm(exp, -(range.start as i64));
        let span = (range.end - range.start) as i64;
        self.b.ins().icmp_imm(IntCC::UnsignedLessThan, exp, span)
    }

    /// `bits` is a zero of either sign.
    fn is_zero(&mut self, wide: bool, bits: Value) -> Value {
        let m = self.b.ins().band_imm(bits, bounds(wide).magnitude as i64);
        self.b.ins().icmp_imm(IntCC::Equal, m, 0)
    }

    /// The result `bits` is a normal number outside the lowest and highest
    /// binades.
    fn safe_result(&mut self, wide: bool, bits: Value) -> Value {
        let bounds = bounds(wide);
        self.exponent_in(bits, bounds, &bounds.result)
    }

    /// ADD/SUB/MUL/DIV.fmt: the host's operation when it is exact to the
    /// interpreter (see the module header), else `execute`.
    fn fp_arith(&mut self, i: usize, fop: &FpOp, arith: Arith, pc: u32) {
        let wide = fop.fmt == Fmt::D;
        let a = self.fp_operand(wide, fop.fs);
        let b = self.fp_operand(wide, fop.ft);
        let fcsr_now = self.field(I32, FCSR);

        // When the fast path holds.
        let rounding = (fcsr::RM_MASK | 1 << fcsr::ENABLES_SHIFT) as i64;
        let modes = self.b.ins().band_imm(fcsr_now, rounding);
        let mut ok = self.b.ins().icmp_imm(IntCC::Equal, modes, 0);
        for v in [a, b] {
            let m = self.moderate(wide, v);
            ok = self.b.ins().band(ok, m);
        }
        if arith == Arith::Div {
            let z = self.is_zero(wide, b);
            let nonzero = self.b.ins().bxor_imm(z, 1);
            ok = self.b.ins().band(ok, nonzero);
        }

        // The operation in double precision, and whether it was inexact.
        let x = self.widened(wide, a);
        let y = self.widened(wide, b);
        let (r, inexact) = self.exact(arith, x, y);
        let (bits, inexact) = if wide {
            (self.b.ins().bitcast(I64, MemFlags::new(), r), inexact)
        } else {
            // One more rounding, to single: inexact if it changed anything.
            let s = self.b.ins().fdemote(F32, r);
            let back = self.b.ins().fpromote(F64, s);
            let changed = self.b.ins().fcmp(FloatCC::NotEqual, back, r);
            let s = self.b.ins().bitcast(I32, MemFlags::new(), s);
            let s = self.b.ins().uextend(I64, s);
            (s, self.b.ins().bor(inexact, changed))
        };
        let safe = self.safe_result(wide, bits);
        let ok = self.b.ins().band(ok, safe);

        // Fast: Cause = Inexact or nothing, Flags |= Cause, the result.
        let (_, slow) = self.split(ok);
        let done = self.b.create_block();
        let cause = (1 << fcsr::CAUSE_SHIFT | 1 << fcsr::FLAGS_SHIFT) as i64;
        let inexact = self.b.ins().uextend(I32, inexact);
        let raised = self.b.ins().imul_imm(inexact, cause);
        let cleared = self.b.ins().band_imm(fcsr_now, !fcsr::CAUSE_MASK as i64);
        let new = self.b.ins().bor(cleared, raised);
        self.set_field(FCSR, new);
        self.set_fp_result(wide, fop.fd, bits);
        self.b.ins().jump(done, &[]);

        // Slow: the interpreter. It reads no register this block holds in
        // variables and writes none, so they stay as they are; it sees the
        // written-back values all the same.
        self.b.switch_to_block(slow);
        self.b.set_cold_block(slow);
        self.write_back();
        let st = self.call_helper_exec(self.words[i], pc);
        self.exit_on_status(st, i);
        self.b.ins().jump(done, &[]);

        self.b.seal_block(done);
        self.b.switch_to_block(done);
    }

    /// An S (in the low word) or D operand as an F64 (an S widened exactly).
    fn widened(&mut self, wide: bool, bits: Value) -> Value {
        if wide {
            self.b.ins().bitcast(F64, MemFlags::new(), bits)
        } else {
            let w = self.b.ins().ireduce(I32, bits);
            let s = self.b.ins().bitcast(F32, MemFlags::new(), w);
            self.b.ins().fpromote(F64, s)
        }
    }

    /// `x op y` in double precision and whether it is inexact (an I8):
    /// TwoSum's error term for a sum, the fused multiply-add `x*y - p` for
    /// a product and `x - q*y` for a quotient (`hostfloat::exact_d`).
    fn exact(&mut self, arith: Arith, x: Value, y: Value) -> (Value, Value) {
        let zero = self.b.ins().f64const(0.0);
        let (r, err) = match arith {
            Arith::Add | Arith::Sub => {
                let y = if arith == Arith::Sub {
                    self.b.ins().fneg(y)
                } else {
                    y
                };
                let s = self.b.ins().fadd(x, y);
                let bb = self.b.ins().fsub(s, x);
                let s_bb = self.b.ins().fsub(s, bb);
                let ea = self.b.ins().fsub(x, s_bb);
                let eb = self.b.ins().fsub(y, bb);
                (s, self.b.ins().fadd(ea, eb))
            }
            Arith::Mul => {
                let p = self.b.ins().fmul(x, y);
                let minus_p = self.b.ins().fneg(p);
                (p, self.b.ins().fma(x, y, minus_p))
            }
            Arith::Div => {
                let q = self.b.ins().fdiv(x, y);
                let minus_q = self.b.ins().fneg(q);
                (q, self.b.ins().fma(minus_q, y, x))
            }
        };
        (r, self.b.ins().fcmp(FloatCC::NotEqual, err, zero))
    }
}
