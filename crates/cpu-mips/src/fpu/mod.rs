//! The R4000 floating-point coprocessor (CP1).
//!
//! Boundary with the integer core: the core decodes the COP1 register moves
//! (MFC1/DMFC1/CFC1/MTC1/DMTC1/CTC1), BC1F/BC1T(L) and the CP1 loads and
//! stores itself and calls the register accessors; every computational
//! COP1 word (rs field S, D, W or L) goes through [`decode_cop1`] into an
//! [`FpOp`] which [`Fpu::execute`] runs.
//!
//! Table of contents:
//! - this file: [`Fpu`] (state) and [`FpTrap`].
//! - `registers`: the register file in both Status.FR views, and the
//!   control registers (MFC1/MTC1/DMFC1/DMTC1/LWC1/SWC1/LDC1/SDC1/CFC1/CTC1).
//! - `decode`: [`decode_cop1`], [`FpOp`], latencies, disassembly.
//! - `execute`: [`Fpu::execute`]: operand fetch, FCSR cause/flag/enable
//!   handling, write-back.
//! - `softfloat`: correctly rounded IEEE arithmetic, conversions and
//!   compares in all four rounding modes (no host floating point): the
//!   reference.
//! - `hostfloat`: the fast path for ADD/SUB/MUL/DIV.S/D in
//!   round-to-nearest on ordinary operands, with exact Inexact detection;
//!   everything else goes to `softfloat`.
//! - `fcsr`: FCSR/FIR bit layout and the [`Exceptions`] set.
//!
//! Where an R4000 traps to the kernel for software completion (denormal
//! operands or results, NaN operands, some conversions: Unimplemented
//! Operation, cause bit E), this model delivers the IEEE result the kernel's
//! emulation produces, so E is never raised by an operation.
//!
//! Not implemented: the R4000's imprecise-exception corner cases (this
//! model's FP exceptions are precise), FCSR bits of later ISAs (FCC7-1, FO,
//! FN, NAN2008).

mod decode;
mod execute;
pub mod fcsr;
pub mod hostfloat;
mod registers;
pub mod softfloat;

pub use decode::{decode_cop1, latency, Cond, Fmt, FpOp, Func, IntRounding};
pub use fcsr::{Exceptions, RoundingMode};

use thiserror::Error;

/// A floating-point exception the guest has enabled (FCSR enable bits) or an
/// unimplemented operation: the core raises ExcCode::FPE. Which conditions
/// occurred is in the FCSR Cause field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("floating-point exception: an FCSR cause bit is set together with its enable")]
pub struct FpTrap;

/// The CP1 register file and control/status register.
///
/// Storage layout: `fpr[r]` is the 64-bit physical register r of the FR = 1
/// view. Under FR = 0 only the low 32 bits of each slot are used: the
/// 32-bit register r is the low word of `fpr[r]`, and a 64-bit value in the
/// even register n is `fpr[n+1]` low word (high half) : `fpr[n]` low word
/// (low half). So a word access is the same in both views (the low 32 bits
/// of slot r), and a doubleword access is one slot (FR = 1) or two (FR = 0).
/// The upper halves are not observable under FR = 0 and are left as they
/// were (switching FR mid-program therefore does not reproduce the R4000's
/// physical pairing; doubt: IRIX fixes FR per process at exec).
#[derive(Clone, Debug, Default)]
pub struct Fpu {
    /// The 32 64-bit register slots (layout above).
    pub fpr: [u64; 32],
    /// FCSR (control register 31).
    pub fcsr: u32,
}

impl Fpu {
    /// Reset state: all registers zero, FCSR zero (round to nearest, no
    /// traps enabled, FS clear).
    pub fn new() -> Self {
        Self::default()
    }

    /// FCSR condition bit (bit 23), read by BC1F/BC1T.
    pub fn condition(&self) -> bool {
        self.fcsr & fcsr::CONDITION != 0
    }
}
