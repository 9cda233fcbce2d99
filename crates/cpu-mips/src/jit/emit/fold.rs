//! Constants folded as the block is translated. Cranelift's optimiser is
//! off (see `Jit::new`), so an operation on two constants is emitted as it
//! stands: `li $a0, 1` (ADDIU from $zero) became four host instructions
//! (zero a register, add, sign-extend, store) where a store of the
//! constant is one, and `b` (BEQ $zero, $zero) compared two zeros at run
//! time and left by the jump table with a target computed at run time,
//! where a known branch goes straight to its target.
//!
//! Contents: `word_op` and `dword_op` (an ALU operation, folded where both
//! operands are constants), `icmp_folded` and its `holds`. A value is a
//! constant when an `iconst` made it (`Emitter::known`): $zero, LUI, a
//! link, and whatever these helpers folded before in the same host block
//! (registers are Cranelift variables, so a register written on one path
//! and not the other is no constant where the paths meet).

use super::*;

impl Emitter<'_> {
    /// `f` of the low words of `a` and `b` (I64 values), sign-extended to 64
    /// bits: `fold` at translation when both are known, else `emit`'s
    /// 32-bit instruction.
    pub(super) fn word_op(
        &mut self,
        a: Value,
        b: Value,
        fold: fn(i32, i32) -> i32,
        emit: fn(&mut FunctionBuilder, Value, Value) -> Value,
    ) -> Value {
        if let (Some(x), Some(y)) = (self.known(a), self.known(b)) {
            return self.imm(fold(x as i32, y as i32) as i64);
        }
        let (a, b) = (self.low_word(a), self.low_word(b));
        let r = emit(&mut self.b, a, b);
        self.b.ins().sextend(I64, r)
    }

    /// `f` of `a` and `b` (I64 values): `fold` at translation when both are
    /// known, else `emit`.
    pub(super) fn dword_op(
        &mut self,
        a: Value,
        b: Value,
        fold: fn(i64, i64) -> i64,
        emit: fn(&mut FunctionBuilder, Value, Value) -> Value,
    ) -> Value {
        if let (Some(x), Some(y)) = (self.known(a), self.known(b)) {
            return self.imm(fold(x, y));
        }
        emit(&mut self.b, a, b)
    }

    /// The low word of the I64 `v` (a 32-bit constant where `v` is one, so
    /// that the host instruction takes it as an immediate).
    fn low_word(&mut self, v: Value) -> Value {
        match self.known(v) {
            Some(k) => self.c32(k as u32),
            None => self.b.ins().ireduce(I32, v),
        }
    }

    /// `a cc b` (I64 values) as Cranelift's I8 truth value: a constant when
    /// both are known.
    pub(super) fn icmp_folded(&mut self, cc: IntCC, a: Value, b: Value) -> Value {
        match (self.known(a), self.known(b)) {
            (Some(x), Some(y)) => self.b.ins().iconst(I8, holds(cc, x, y) as i64),
            _ => self.b.ins().icmp(cc, a, b),
        }
    }
}

/// Whether `x cc y` holds.
pub(super) fn holds(cc: IntCC, x: i64, y: i64) -> bool {
    let (ux, uy) = (x as u64, y as u64);
    match cc {
        IntCC::Equal => x == y,
        IntCC::NotEqual => x != y,
        IntCC::SignedLessThan => x < y,
        IntCC::SignedGreaterThanOrEqual => x >= y,
        IntCC::SignedGreaterThan => x > y,
        IntCC::SignedLessThanOrEqual => x <= y,
        IntCC::UnsignedLessThan => ux < uy,
        IntCC::UnsignedGreaterThanOrEqual => ux >= uy,
        IntCC::UnsignedGreaterThan => ux > uy,
        IntCC::UnsignedLessThanOrEqual => ux <= uy,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_compares_signed_and_unsigned_as_the_condition_says() {
        assert!(holds(IntCC::SignedLessThan, -1, 0));
        assert!(!holds(IntCC::UnsignedLessThan, -1, 0));
        assert!(holds(IntCC::UnsignedGreaterThan, -1, 0));
        assert!(holds(IntCC::SignedGreaterThanOrEqual, 0, 0));
        assert!(holds(IntCC::SignedLessThanOrEqual, 0, 0));
        assert!(!holds(IntCC::NotEqual, 5, 5));
        assert!(holds(IntCC::UnsignedGreaterThanOrEqual, 5, 5));
        assert!(holds(IntCC::UnsignedLessThanOrEqual, 4, 5));
        assert!(!holds(IntCC::SignedGreaterThan, 4, 5));
        assert!(holds(IntCC::Equal, 7, 7));
    }
}
