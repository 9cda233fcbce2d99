//! The R4000 floating-point coprocessor (CP1).
//!
//! Boundary with the integer core: the core decodes the COP1 register moves
//! (MFC1/DMFC1/CFC1/MTC1/DMTC1/CTC1), BC1F/BC1T(L) and the CP1 loads and
//! stores itself and calls the register accessors below; every computational
//! COP1 word (rs field S, D, W or L) goes through [`decode_cop1`] into an
//! [`FpOp`] which [`Fpu::execute`] runs.
//!
//! INTERFACE SKELETON: the FPU implementation replaces the bodies.

use std::fmt;

/// A floating-point exception the guest has enabled (FCSR enable bits) or an
/// unimplemented operation: the core raises ExcCode::FPE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FpTrap;

/// A decoded computational COP1 instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FpOp {
    pub word: u32,
}

/// Decodes a COP1 word whose rs field is S (16), D (17), W (20) or L (21).
/// `None`: an encoding the R4000 does not have (the core raises RI).
pub fn decode_cop1(word: u32) -> Option<FpOp> {
    let _ = word;
    None
}

impl FpOp {
    /// Cycles from issue until the destination (FPR or condition bit) is ready.
    pub fn latency(&self) -> u32 {
        1
    }
    /// FPR numbers read (for the scoreboard).
    pub fn sources(&self) -> [Option<u8>; 2] {
        [None, None]
    }
    /// FPR number written, if any (compares write the condition bit instead).
    pub fn dest(&self) -> Option<u8> {
        None
    }
    /// True for C.cond.fmt (writes the FCSR condition bit).
    pub fn writes_condition(&self) -> bool {
        false
    }
}

impl fmt::Display for FpOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, ".word 0x{:08x}", self.word)
    }
}

/// The CP1 register file and control/status register.
#[derive(Clone, Debug, Default)]
pub struct Fpu {
    /// 32 64-bit registers (the FR = 1 view; FR = 0 pairs them, see accessors).
    pub fpr: [u64; 32],
    /// FCSR (control register 31).
    pub fcsr: u32,
}

impl Fpu {
    pub fn new() -> Self {
        Self::default()
    }
    /// FCSR condition bit (bit 23), read by BC1F/BC1T.
    pub fn condition(&self) -> bool {
        self.fcsr & (1 << 23) != 0
    }
    /// MFC1, SWC1: the 32-bit word of FPR `r` in the register view `fr` (Status.FR).
    pub fn read_word(&self, fr: bool, r: usize) -> u32 {
        let _ = fr;
        self.fpr[r] as u32
    }
    /// MTC1, LWC1.
    pub fn write_word(&mut self, fr: bool, r: usize, value: u32) {
        let _ = fr;
        self.fpr[r] = value as u64;
    }
    /// DMFC1, SDC1.
    pub fn read_dword(&self, fr: bool, r: usize) -> u64 {
        let _ = fr;
        self.fpr[r]
    }
    /// DMTC1, LDC1.
    pub fn write_dword(&mut self, fr: bool, r: usize, value: u64) {
        let _ = fr;
        self.fpr[r] = value;
    }
    /// CFC1: control register `r` (0 = FIR/implementation, 31 = FCSR).
    pub fn read_control(&self, r: usize) -> u32 {
        if r == 31 {
            self.fcsr
        } else {
            0
        }
    }
    /// CTC1: may raise FPE when a cause bit is set together with its enable.
    pub fn write_control(&mut self, r: usize, value: u32) -> Result<(), FpTrap> {
        if r == 31 {
            self.fcsr = value;
        }
        Ok(())
    }
    /// Executes a computational COP1 instruction.
    pub fn execute(&mut self, fr: bool, op: &FpOp) -> Result<(), FpTrap> {
        let _ = (fr, op);
        Err(FpTrap)
    }
}
