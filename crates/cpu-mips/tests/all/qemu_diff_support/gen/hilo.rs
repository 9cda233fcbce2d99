//! Multiply, divide and the HI/LO moves, under the HI/LO hazard rules
//! and with non-zero divisors (see the parent module's header).
//!
//! Contents: `Gen::hilo_settle`, `Gen::muldiv`, `Gen::hilo_move`.

use super::{Exec, Gen};
use test_support::mips::{funct as f, itype, opcode as op, special, ZERO};

impl Gen<'_> {
    /// Pads with simple instructions until HI/LO may be written again.
    pub(super) fn hilo_settle(&mut self) {
        while self.since_hilo_read < 2 {
            self.simple(&[], Exec::Always, true);
        }
    }

    /// MULT/MULTU/DIV/DIVU and (n32) their D-forms.
    pub(super) fn muldiv(&mut self) {
        self.hilo_settle();
        let wide = self.wide_ok() && self.rng.one_in(3);
        let divide = self.rng.one_in(2);
        let word = if divide {
            let rs = if wide {
                self.src(&[])
            } else {
                self.src_sext_fixed()
            };
            // A non-zero divisor: bit k ORed in (ORI keeps a sign-extended
            // value sign-extended).
            let rt = self.dst(&[ZERO]);
            let rt = if rt == ZERO { self.work[0] } else { rt };
            if !wide && !self.sext[rt.idx()] {
                self.emit(special(f::SLL, ZERO, rt, rt, 0), Exec::Always);
                self.wrote(rt, true, Exec::Always);
            }
            let bit = 1u16 << self.rng.below(16);
            self.emit(itype(op::ORI, rt, rt, bit), Exec::Always);
            let fun = if wide {
                self.rng.pick(&[f::DDIV, f::DDIVU])
            } else {
                self.rng.pick(&[f::DIV, f::DIVU])
            };
            special(fun, rs, rt, ZERO, 0)
        } else if wide {
            let (rs, rt) = (self.src(&[]), self.src(&[]));
            special(self.rng.pick(&[f::DMULT, f::DMULTU]), rs, rt, ZERO, 0)
        } else {
            let rs = self.src_sext_fixed();
            let rt = self.src_sext_fixed();
            special(self.rng.pick(&[f::MULT, f::MULTU]), rs, rt, ZERO, 0)
        };
        self.emit(word, Exec::Always);
        // 32-bit results are sign-extended into HI and LO (R4000 manual, MULT).
        self.hi_sext = !wide;
        self.lo_sext = !wide;
        self.muldiv_unread = true;
    }

    /// MFHI/MFLO/MTHI/MTLO.
    pub(super) fn hilo_move(&mut self) {
        let which = self.rng.below(4);
        if which < 2 || self.muldiv_unread {
            let hi = which.is_multiple_of(2);
            let rd = self.dst(&[]);
            let word = special(if hi { f::MFHI } else { f::MFLO }, ZERO, ZERO, rd, 0);
            self.emit(word, Exec::Always);
            let sext = if hi { self.hi_sext } else { self.lo_sext };
            self.wrote(rd, sext, Exec::Always);
            self.since_hilo_read = 0;
            self.muldiv_unread = false;
        } else {
            self.hilo_settle();
            let rs = self.src(&[]);
            let sext = self.sext[rs.idx()];
            if which == 2 {
                self.emit(special(f::MTHI, rs, ZERO, ZERO, 0), Exec::Always);
                self.hi_sext = sext;
            } else {
                self.emit(special(f::MTLO, rs, ZERO, ZERO, 0), Exec::Always);
                self.lo_sext = sext;
            }
        }
    }
}
