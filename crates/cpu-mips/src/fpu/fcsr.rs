//! The FP Control/Status register (FCSR, control register 31) and the
//! implementation/revision register (FIR, control register 0).
//!
//! Layout (R4000 User's Manual, figure 6-5 "Control/Status Register Cause,
//! Flag, and Enable Fields" and table 6-4 "Rounding Mode Bit Decoding"):
//! RM 1:0, Flags 6:2, Enables 11:7, Cause 17:12, C 23, FS 24. Within each
//! field the order is I (inexact), U (underflow), O (overflow), Z (divide by
//! zero), V (invalid); Cause has a sixth bit, E (unimplemented operation),
//! which has no enable or flag and is always enabled.

use bitflags::bitflags;

bitflags! {
    /// A set of IEEE exception conditions, in the bit order of the FCSR
    /// Cause field (shifted down to bit 0).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub struct Exceptions: u32 {
        /// I: the rounded result differs from the exact one.
        const INEXACT = 1 << 0;
        /// U: the result is tiny (below the smallest normal number).
        const UNDERFLOW = 1 << 1;
        /// O: the rounded result exceeds the largest finite number.
        const OVERFLOW = 1 << 2;
        /// Z: a finite non-zero number divided by zero.
        const DIV_BY_ZERO = 1 << 3;
        /// V: an invalid operation (signalling NaN, 0*inf, ...).
        const INVALID = 1 << 4;
        /// E: unimplemented operation (Cause only; always enabled).
        const UNIMPLEMENTED = 1 << 5;
    }
}

/// RM field (1:0).
pub const RM_MASK: u32 = 0x3;
/// Flag field shift (bits 6:2).
pub const FLAGS_SHIFT: u32 = 2;
/// Enable field shift (bits 11:7).
pub const ENABLES_SHIFT: u32 = 7;
/// Cause field shift (bits 17:12).
pub const CAUSE_SHIFT: u32 = 12;
/// The whole Cause field, E included.
pub const CAUSE_MASK: u32 = 0x3f << CAUSE_SHIFT;
/// C: the compare condition bit, tested by BC1F/BC1T.
pub const CONDITION: u32 = 1 << 23;
/// FS: flush denormalized results to zero ("When the FS bit is set,
/// denormalized results are flushed to 0 instead of causing an
/// unimplemented operation exception", R4000 manual, ch. 6).
pub const FLUSH: u32 = 1 << 24;
/// Bits CTC1 can change on the R4000: RM, Flags, Enables, Cause, C, FS.
/// Bits 22:18 and 31:25 are reserved, read as zero (R4000 manual, fig. 6-4).
pub const WRITABLE: u32 = 0x0003_ffff | CONDITION | FLUSH;

/// FIR (control register 0): Implementation 15:8 = 0x05 (R4000 family
/// FPU, "Implementation/Revision Register", R4000 manual, table 6-3 and
/// QEMU's R4000 definition), Revision 7:0 = 0 (doubt: silicon revisions
/// differ; no public table gives one value for all).
pub const FIR_R4000: u32 = 0x0000_0500;

/// The FCSR rounding mode (RM field values, table 6-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoundingMode {
    /// RN (0): to nearest, ties to even.
    Nearest,
    /// RZ (1): toward zero.
    TowardZero,
    /// RP (2): toward +infinity.
    TowardPlus,
    /// RM (3): toward -infinity.
    TowardMinus,
}

impl RoundingMode {
    /// Decodes the RM field of an FCSR value.
    pub fn from_fcsr(fcsr: u32) -> RoundingMode {
        match fcsr & RM_MASK {
            0 => RoundingMode::Nearest,
            1 => RoundingMode::TowardZero,
            2 => RoundingMode::TowardPlus,
            _ => RoundingMode::TowardMinus,
        }
    }
}

/// The Enable field of `fcsr`, with E added (always enabled).
pub fn enabled(fcsr: u32) -> Exceptions {
    Exceptions::from_bits_truncate((fcsr >> ENABLES_SHIFT) & 0x1f) | Exceptions::UNIMPLEMENTED
}

/// The Cause field of `fcsr`.
pub fn cause(fcsr: u32) -> Exceptions {
    Exceptions::from_bits_truncate((fcsr & CAUSE_MASK) >> CAUSE_SHIFT)
}

/// The Flag field of `fcsr`.
pub fn flags(fcsr: u32) -> Exceptions {
    Exceptions::from_bits_truncate((fcsr >> FLAGS_SHIFT) & 0x1f)
}
