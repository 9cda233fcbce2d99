//! Exceptions as values: the CPU never panics on a guest's behaviour.

/// Cause.ExcCode values (R4000 User's Manual, table 5-?, "Cause register
/// ExcCode field"). Discriminants are the architectural codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum ExcCode {
    /// TLB modification (here: store to a read-only page).
    Mod = 1,
    /// TLB miss on load or instruction fetch (here: unmapped).
    TlbL = 2,
    /// TLB miss on store (here: unmapped).
    TlbS = 3,
    /// Address error on load or fetch (misaligned or kernel address).
    AdEL = 4,
    /// Address error on store.
    AdES = 5,
    Sys = 8,
    Bp = 9,
    /// Reserved instruction.
    RI = 10,
    /// Coprocessor unusable (the coprocessor number is in `Exception::ce`).
    CpU = 11,
    /// Integer overflow.
    Ov = 12,
    Tr = 13,
    /// Floating-point exception.
    FPE = 15,
}

/// One exception, as the CPU reports it to the embedder. The same values are
/// also latched into CP0 (EPC, Cause, BadVAddr).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exception {
    pub code: ExcCode,
    /// EPC: the faulting instruction, or the branch before it when
    /// `in_delay_slot` (Cause.BD) is set.
    pub epc: u32,
    /// Cause.BD: the faulting instruction sits in a branch delay slot.
    pub in_delay_slot: bool,
    /// BadVAddr for address errors and memory faults.
    pub bad_vaddr: Option<u32>,
    /// Cause.CE: the coprocessor number for `CpU`.
    pub ce: u8,
}
