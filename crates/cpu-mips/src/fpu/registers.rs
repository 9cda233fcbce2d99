//! Register-file accessors for the core's moves, loads and stores, in both
//! register views (Status.FR; the layout is described on [`Fpu`]), and the
//! control registers FIR (0) and FCSR (31).

use super::fcsr;
use super::{FpTrap, Fpu};

/// The low 32 bits of a slot.
const LOW: u64 = 0xffff_ffff;

impl Fpu {
    /// MFC1, SWC1: the 32-bit word of FPR `r` (the low word of slot `r` in
    /// both views).
    pub fn read_word(&self, r: usize) -> u32 {
        self.fpr[r & 31] as u32
    }

    /// MTC1, LWC1: sets the 32-bit word of FPR `r`. Under FR = 1 the upper
    /// half of the register keeps its old contents (MIPS III leaves it
    /// undefined; keeping it is one valid choice).
    pub fn write_word(&mut self, r: usize, value: u32) {
        let slot = &mut self.fpr[r & 31];
        *slot = (*slot & !LOW) | value as u64;
    }

    /// DMFC1, SDC1: the 64-bit value of FPR `r`. Under FR = 0 that is the
    /// even/odd pair; an odd `r` is undefined on the R4000 (manual, appendix
    /// B, "FR = 0 ... odd register: undefined") and this model ignores its
    /// low bit.
    pub fn read_dword(&self, fr: bool, r: usize) -> u64 {
        if fr {
            self.fpr[r & 31]
        } else {
            let n = r & 30;
            ((self.fpr[n + 1] & LOW) << 32) | (self.fpr[n] & LOW)
        }
    }

    /// DMTC1, LDC1: sets the 64-bit value of FPR `r` (pairs as for
    /// [`Fpu::read_dword`]).
    pub fn write_dword(&mut self, fr: bool, r: usize, value: u64) {
        if fr {
            self.fpr[r & 31] = value;
        } else {
            let n = r & 30;
            self.write_word(n, value as u32);
            self.write_word(n + 1, (value >> 32) as u32);
        }
    }

    /// CFC1: control register `r` (0 = FIR, implementation/revision; 31 =
    /// FCSR). The R4000 has no others; they read as 0 (doubt: undefined in
    /// the manual).
    pub fn read_control(&self, r: usize) -> u32 {
        match r {
            0 => fcsr::FIR_R4000,
            31 => self.fcsr,
            _ => 0,
        }
    }

    /// CTC1: writes FCSR (FIR and the undefined registers ignore writes).
    /// Reserved bits stay zero. "If a CTC1 instruction sets both a Cause bit
    /// and its Enable bit, an exception occurs" (R4000 manual, ch. 7; E is
    /// always enabled); the FCSR keeps the written value, so the handler
    /// sees the cause.
    pub fn write_control(&mut self, r: usize, value: u32) -> Result<(), FpTrap> {
        if r != 31 {
            return Ok(());
        }
        self.fcsr = value & fcsr::WRITABLE;
        if fcsr::cause(self.fcsr).intersects(fcsr::enabled(self.fcsr)) {
            return Err(FpTrap);
        }
        Ok(())
    }

    /// Reads operand register `r` in format `fmt` (32-bit formats: the low
    /// word; 64-bit formats: as [`Fpu::read_dword`]).
    pub(super) fn read_operand(&self, fr: bool, wide: bool, r: u8) -> u64 {
        if wide {
            self.read_dword(fr, r as usize)
        } else {
            self.read_word(r as usize) as u64
        }
    }

    /// Writes result register `r` (see [`Fpu::read_operand`]).
    pub(super) fn write_result(&mut self, fr: bool, wide: bool, r: u8, value: u64) {
        if wide {
            self.write_dword(fr, r as usize, value);
        } else {
            self.write_word(r as usize, value as u32);
        }
    }
}
