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
    /// SYSCALL and BREAK: the instruction's 20-bit code field (bits 25..6)
    /// as the CPU decoded it, so that no handler has to re-read the word
    /// at EPC (which names the branch when `in_delay_slot`).
    pub code_field: Option<u32>,
}

impl Exception {
    /// The code of a BREAK as the MIPS compilers and IRIX read it: the upper
    /// ten bits of the code field (`break 7` assembles to code field 7 << 10).
    pub fn break_code(&self) -> Option<u32> {
        (self.code == ExcCode::Bp)
            .then_some(self.code_field)
            .flatten()
            .map(|c| c >> 10)
    }
}
