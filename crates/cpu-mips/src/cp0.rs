//! The System Control Coprocessor registers a user-mode machine needs.
//!
//! Contents: [`Cp0`], the [`status`] and [`cause`] bit constants, [`PRID_R4000`].
//! Source: R4000 User's Manual (2nd ed.), ch. 4 "Exception Processing"
//! (Status, Cause, EPC, BadVAddr, Count/Compare) and ch. 5 (PRId).
//! Count is not stored: it is derived from the cycle counter (see `timing`).

/// Status register bits (R4000 User's Manual, "Status Register Fields").
pub mod status {
    /// IE: interrupt enable.
    pub const IE: u32 = 1 << 0;
    /// EXL: exception level.
    pub const EXL: u32 = 1 << 1;
    /// ERL: error level.
    pub const ERL: u32 = 1 << 2;
    /// KSU field (bits 4..3): 0b10 = User mode.
    pub const KSU_USER: u32 = 0b10 << 3;
    /// UX: 64-bit addressing and operations in User mode.
    pub const UX: u32 = 1 << 5;
    /// FR: 32 64-bit floating-point registers (else 16 even/odd pairs).
    pub const FR: u32 = 1 << 26;
    /// CU0..CU3: coprocessor usable.
    pub const CU0: u32 = 1 << 28;
    pub const CU1: u32 = 1 << 29;
    pub const CU2: u32 = 1 << 30;
    pub const CU3: u32 = 1 << 31;
}

/// Cause register fields (R4000 User's Manual, "Cause Register Fields").
pub mod cause {
    /// ExcCode, bits 6..2.
    pub const EXC_SHIFT: u32 = 2;
    pub const EXC_MASK: u32 = 0x1f << 2;
    /// CE, bits 29..28: coprocessor number of a Coprocessor Unusable exception.
    pub const CE_SHIFT: u32 = 28;
    pub const CE_MASK: u32 = 0b11 << 28;
    /// BD, bit 31: the exception happened in a branch delay slot.
    pub const BD: u32 = 1 << 31;
}

/// PRId of the emulated processor: Imp = 0x04 (R4000/R4400; Linux's
/// `PRID_IMP_R4000` is 0x0400), Rev = 2.2 (0x22), a revision of R4000 shipped
/// in Indigo/Indy systems. Doubt: the revision is a plausible choice, not one
/// a source ties to a particular machine.
pub const PRID_R4000: u32 = 0x0422;

/// The CP0 state that user-mode execution reads or latches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cp0 {
    /// Status (see [`status`]).
    pub status: u32,
    /// Cause: ExcCode, CE and BD of the last exception.
    pub cause: u32,
    /// EPC of the last exception (the branch when Cause.BD is set).
    pub epc: u32,
    /// BadVAddr of the last address error or memory fault.
    pub bad_vaddr: u32,
    /// Compare (the timer interrupt is the embedder's business).
    pub compare: u32,
    /// PRId (read-only on hardware).
    pub prid: u32,
}

impl Cp0 {
    /// User mode, FPU usable, 64-bit mode bits (UX, FR) as configured.
    pub fn new(mode64: bool) -> Cp0 {
        let wide = if mode64 { status::UX | status::FR } else { 0 };
        Cp0 {
            status: status::KSU_USER | status::CU1 | wide,
            cause: 0,
            epc: 0,
            bad_vaddr: 0,
            compare: 0,
            prid: PRID_R4000,
        }
    }

    /// Status.CU1: the FPU is usable.
    #[inline(always)]
    pub fn cu1(&self) -> bool {
        self.status & status::CU1 != 0
    }

    /// Status.FR: the FPU register view.
    #[inline(always)]
    pub fn fr(&self) -> bool {
        self.status & status::FR != 0
    }
}
