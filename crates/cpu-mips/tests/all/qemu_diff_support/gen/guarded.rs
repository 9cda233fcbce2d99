//! Instructions that would trap or misbehave on some operands, generated
//! only in forms that cannot: ADD/SUB/ADDI and their D-forms on halved
//! operands, LL/SC pairs, never-true traps.
//!
//! Contents: `Gen::signed_arith`, `Gen::ll_sc`, `Gen::trap`.

use super::{Exec, Gen, BASE};
use test_support::mips::{
    funct as f, itype, opcode as op, regimm, regimm_code as ri, special, ZERO,
};

impl Gen<'_> {
    /// ADD/SUB/ADDI (and DADD/DSUB/DADDI) on operands halved by an
    /// arithmetic shift, which can never overflow; or ADD with $zero.
    pub(super) fn signed_arith(&mut self) {
        let wide = self.wide_ok() && self.rng.one_in(3);
        if self.rng.one_in(5) {
            let rs = if wide {
                self.src(&[])
            } else {
                self.src_sext_fixed()
            };
            let rd = self.dst(&[]);
            let fun = if wide { f::DADD } else { f::ADD };
            let sext = !wide || self.sext[rs.idx()];
            self.emit(special(fun, rs, ZERO, rd, 0), Exec::Always);
            self.wrote(rd, sext, Exec::Always);
            return;
        }
        let a = if wide {
            self.src(&[])
        } else {
            self.src_sext_fixed()
        };
        let b = if wide {
            self.src(&[])
        } else {
            self.src_sext_fixed()
        };
        let t1 = self.dst(&[]);
        let t2 = self.dst(&[t1]);
        let (shift, add, sub, addi) = if wide {
            (f::DSRA, f::DADD, f::DSUB, op::DADDI)
        } else {
            (f::SRA, f::ADD, f::SUB, op::ADDI)
        };
        self.emit(special(shift, ZERO, a, t1, 1), Exec::Always);
        self.wrote(t1, !wide || self.sext[a.idx()], Exec::Always);
        self.emit(special(shift, ZERO, b, t2, 1), Exec::Always);
        self.wrote(t2, !wide || self.sext[b.idx()], Exec::Always);
        let rd = self.dst(&[]);
        let word = match self.rng.below(3) {
            0 => special(add, t1, t2, rd, 0),
            1 => special(sub, t1, t2, rd, 0),
            _ => {
                let imm = self.imm16();
                itype(addi, t1, rd, imm)
            }
        };
        self.emit(word, Exec::Always);
        self.wrote(rd, !wide, Exec::Always);
    }

    /// LL (LLD), up to two ALU instructions, then SC (SCD) to the same
    /// word, which therefore succeeds.
    pub(super) fn ll_sc(&mut self) {
        let wide = self.wide_ok() && self.rng.one_in(2);
        let width = if wide { 8 } else { 4 };
        let off = self.mem_off(width, true);
        let rt = self.dst(&[]);
        self.emit(
            itype(if wide { op::LLD } else { op::LL }, BASE, rt, off),
            Exec::Always,
        );
        self.wrote(rt, !wide, Exec::Always);
        for _ in 0..self.rng.below(3) {
            self.simple(&[], Exec::Always, false);
        }
        let rt2 = self.dst(&[]);
        self.emit(
            itype(if wide { op::SCD } else { op::SC }, BASE, rt2, off),
            Exec::Always,
        );
        self.wrote(rt2, true, Exec::Always);
    }

    /// A trap instruction whose condition is false for every value.
    pub(super) fn trap(&mut self) {
        let r = self.src(&[]);
        let z = ZERO;
        let nonzero = match self.imm16() {
            0 => 1,
            v => v,
        };
        let word = match self.rng.below(9) {
            0 => special(f::TNE, r, r, z, 0),
            1 => special(f::TLT, r, r, z, 0),
            2 => special(f::TLTU, r, r, z, 0),
            // 0 >= imm (unsigned) only for imm = 0.
            3 => regimm(ri::TGEIU, z, nonzero),
            // Nothing is below 0 unsigned.
            4 => regimm(ri::TLTIU, r, 0),
            5 => regimm(ri::TEQI, z, nonzero),
            // 0 < imm is false for imm <= 0.
            6 => regimm(ri::TLTI, z, (self.rng.below(0x8000) as u16).wrapping_neg()),
            // 0 >= imm is false for imm > 0.
            7 => regimm(ri::TGEI, z, 1 + self.rng.below(0x7fff) as u16),
            _ => regimm(ri::TNEI, z, 0),
        };
        self.emit(word, Exec::Always);
    }
}
