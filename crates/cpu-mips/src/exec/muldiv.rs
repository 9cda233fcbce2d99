//! Multiply and divide (HI/LO): MULT(U), DIV(U), DMULT(U), DDIV(U), MFHI,
//! MTHI, MFLO, MTLO. The 32-bit forms leave sign-extended 32-bit halves in
//! HI and LO (R4000 User's Manual, MULT: "the low-order word ... is loaded
//! into LO, and the high-order word into HI", both sign-extended in 64-bit
//! mode).
//!
//! Architecturally undefined results (the manual: "no arithmetic exception
//! occurs ... if the divisor is zero, the result is undefined"). The values
//! below are those the MIPS hardware divider produces and that were measured
//! on the R4000's siblings (the R3000A per the psx-spx "Division by zero"
//! notes, the VR4300 per n64 hardware tests as reproduced by ares): the
//! divider runs to completion with a zero divisor.
//! - DIV  by 0: LO = -1 if the dividend is >= 0, +1 if it is negative; HI = dividend.
//! - DIVU by 0: LO = all ones, HI = dividend.
//! - DDIV/DDIVU by 0: the same rule on 64-bit values.
//! - DIV INT32_MIN / -1 (and DDIV INT64_MIN / -1): LO = INT_MIN, HI = 0
//!   (the wrapped quotient, remainder 0).
//!
//! Doubt: MAME's r4000 core leaves HI/LO unchanged on division by zero and
//! QEMU divides by 1 instead; neither claims to be measured on an R4000.

use super::sx32;
use crate::cpu::Cpu;
use crate::insn::Reg;
use crate::pipeline::{Fault, Flow};

type R = Result<Flow, Fault>;

/// DIV semantics on i32 (LO, HI), including the undefined cases above.
pub(crate) fn div32(a: i32, b: i32) -> (i32, i32) {
    if b == 0 {
        (if a >= 0 { -1 } else { 1 }, a)
    } else {
        (a.wrapping_div(b), a.wrapping_rem(b))
    }
}

/// DIVU semantics on u32 (LO, HI).
#[allow(clippy::manual_checked_ops)] // the zero case is the hardware's rule, not a fallback
pub(crate) fn divu32(a: u32, b: u32) -> (u32, u32) {
    if b == 0 {
        (u32::MAX, a)
    } else {
        (a / b, a % b)
    }
}

/// DDIV semantics on i64 (LO, HI).
pub(crate) fn div64(a: i64, b: i64) -> (i64, i64) {
    if b == 0 {
        (if a >= 0 { -1 } else { 1 }, a)
    } else {
        (a.wrapping_div(b), a.wrapping_rem(b))
    }
}

/// DDIVU semantics on u64 (LO, HI).
#[allow(clippy::manual_checked_ops)] // the zero case is the hardware's rule, not a fallback
pub(crate) fn divu64(a: u64, b: u64) -> (u64, u64) {
    if b == 0 {
        (u64::MAX, a)
    } else {
        (a / b, a % b)
    }
}

impl Cpu {
    #[inline(always)]
    pub(crate) fn mfhi(&mut self, rd: Reg) -> R {
        self.logic(rd, self.hi)
    }
    #[inline(always)]
    pub(crate) fn mflo(&mut self, rd: Reg) -> R {
        self.logic(rd, self.lo)
    }
    #[inline(always)]
    pub(crate) fn mthi(&mut self, rs: Reg) -> R {
        self.hi = self.r(rs);
        Ok(Flow::Next)
    }
    #[inline(always)]
    pub(crate) fn mtlo(&mut self, rs: Reg) -> R {
        self.lo = self.r(rs);
        Ok(Flow::Next)
    }
    #[inline(always)]
    fn set_hilo32(&mut self, lo: u32, hi: u32) -> R {
        self.lo = sx32(lo);
        self.hi = sx32(hi);
        Ok(Flow::Next)
    }
    #[inline(always)]
    pub(crate) fn mult(&mut self, rs: Reg, rt: Reg) -> R {
        let p = (self.r32(rs) as i32 as i64) * (self.r32(rt) as i32 as i64);
        self.set_hilo32(p as u32, (p >> 32) as u32)
    }
    #[inline(always)]
    pub(crate) fn multu(&mut self, rs: Reg, rt: Reg) -> R {
        let p = (self.r32(rs) as u64) * (self.r32(rt) as u64);
        self.set_hilo32(p as u32, (p >> 32) as u32)
    }
    #[inline(always)]
    pub(crate) fn div(&mut self, rs: Reg, rt: Reg) -> R {
        let (lo, hi) = div32(self.r32(rs) as i32, self.r32(rt) as i32);
        self.set_hilo32(lo as u32, hi as u32)
    }
    #[inline(always)]
    pub(crate) fn divu(&mut self, rs: Reg, rt: Reg) -> R {
        let (lo, hi) = divu32(self.r32(rs), self.r32(rt));
        self.set_hilo32(lo, hi)
    }
    #[inline(always)]
    pub(crate) fn dmult(&mut self, rs: Reg, rt: Reg) -> R {
        let p = (self.r(rs) as i64 as i128) * (self.r(rt) as i64 as i128);
        self.lo = p as u64;
        self.hi = (p >> 64) as u64;
        Ok(Flow::Next)
    }
    #[inline(always)]
    pub(crate) fn dmultu(&mut self, rs: Reg, rt: Reg) -> R {
        let p = (self.r(rs) as u128) * (self.r(rt) as u128);
        self.lo = p as u64;
        self.hi = (p >> 64) as u64;
        Ok(Flow::Next)
    }
    #[inline(always)]
    pub(crate) fn ddiv(&mut self, rs: Reg, rt: Reg) -> R {
        let (lo, hi) = div64(self.r(rs) as i64, self.r(rt) as i64);
        self.lo = lo as u64;
        self.hi = hi as u64;
        Ok(Flow::Next)
    }
    #[inline(always)]
    pub(crate) fn ddivu(&mut self, rs: Reg, rt: Reg) -> R {
        let (lo, hi) = divu64(self.r(rs), self.r(rt));
        self.lo = lo;
        self.hi = hi;
        Ok(Flow::Next)
    }
}
