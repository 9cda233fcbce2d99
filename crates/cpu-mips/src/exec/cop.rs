//! Coprocessor instructions seen from the integer core.
//!
//! - COP0 and CACHE: privileged; in user mode Coprocessor Unusable, CE = 0
//!   (R4000 User's Manual, ch. 4: "in User mode ... CP0 instructions cause a
//!   Coprocessor Unusable exception" unless CU0 is set; this core always
//!   treats CP0 as unusable, the emulated kernel being native code).
//! - COP1 (the FPU): every COP1 word and LWC1/LDC1/SWC1/SDC1 first checks
//!   Status.CU1 (clear: CpU, CE = 1); moves, BC1x and memory accesses are
//!   here, computational ops go to `fpu::Fpu::execute`. An FPU trap becomes
//!   the Floating-Point exception.
//! - COP2 and LWC2/LDC2/SWC2/SDC2: the R4000 has no coprocessor 2: CpU with
//!   CE = 2 while Status.CU2 is clear (always, here), RI if it were set.

use super::{branch, sx32};
use crate::cp0::status;
use crate::cpu::Cpu;
use crate::fpu::FpOp;
use crate::insn::Reg;
use crate::pipeline::{Fault, Flow};
use crate::{ExcCode, Memory};

type R = Result<Flow, Fault>;

fn fpe(_: crate::fpu::FpTrap) -> Fault {
    Fault::new(ExcCode::FPE)
}

impl Cpu {
    #[inline(always)]
    pub(crate) fn cop1_usable(&self) -> Result<(), Fault> {
        if self.cp0.cu1() {
            Ok(())
        } else {
            Err(Fault::unusable(1))
        }
    }
    pub(crate) fn cop2(&self) -> R {
        if self.cp0.status & status::CU2 == 0 {
            Err(Fault::unusable(2))
        } else {
            Err(Fault::reserved())
        }
    }
    pub(crate) fn mfc1(&mut self, rt: Reg, fs: u8) -> R {
        self.cop1_usable()?;
        let v = self.fpu.read_word(fs as usize & 31);
        self.logic(rt, sx32(v))
    }
    pub(crate) fn dmfc1(&mut self, rt: Reg, fs: u8) -> R {
        self.cop1_usable()?;
        let v = self.fpu.read_dword(self.cp0.fr(), fs as usize & 31);
        self.logic(rt, v)
    }
    pub(crate) fn cfc1(&mut self, rt: Reg, fs: u8) -> R {
        self.cop1_usable()?;
        let v = self.fpu.read_control(fs as usize & 31);
        self.logic(rt, sx32(v))
    }
    pub(crate) fn mtc1(&mut self, rt: Reg, fs: u8) -> R {
        self.cop1_usable()?;
        self.fpu.write_word(fs as usize & 31, self.r32(rt));
        Ok(Flow::Next)
    }
    pub(crate) fn dmtc1(&mut self, rt: Reg, fs: u8) -> R {
        self.cop1_usable()?;
        let fr = self.cp0.fr();
        self.fpu.write_dword(fr, fs as usize & 31, self.r(rt));
        Ok(Flow::Next)
    }
    pub(crate) fn ctc1(&mut self, rt: Reg, fs: u8) -> R {
        self.cop1_usable()?;
        let v = self.r32(rt);
        self.fpu.write_control(fs as usize & 31, v).map_err(fpe)?;
        Ok(Flow::Next)
    }
    /// BC1F/BC1T/BC1FL/BC1TL: branch on the FCSR condition bit.
    pub(crate) fn bc1(&mut self, on_true: bool, is_likely: bool, pc: u32, off: i16) -> R {
        self.cop1_usable()?;
        let taken = self.fpu.condition() == on_true;
        Ok(if is_likely {
            branch::likely(taken, pc, off)
        } else {
            branch::cond(taken, pc, off)
        })
    }
    pub(crate) fn fp(&mut self, op: &FpOp) -> R {
        self.cop1_usable()?;
        let fr = self.cp0.fr();
        self.fpu.execute(fr, op).map_err(fpe)?;
        Ok(Flow::Next)
    }
    pub(crate) fn lwc1<M: Memory>(&mut self, mem: &mut M, ft: u8, base: Reg, off: i16) -> R {
        self.cop1_usable()?;
        let v = self.read32(mem, base, off)?;
        self.fpu.write_word(ft as usize & 31, v);
        Ok(Flow::Next)
    }
    pub(crate) fn ldc1<M: Memory>(&mut self, mem: &mut M, ft: u8, base: Reg, off: i16) -> R {
        self.cop1_usable()?;
        let v = self.read64(mem, base, off)?;
        let fr = self.cp0.fr();
        self.fpu.write_dword(fr, ft as usize & 31, v);
        Ok(Flow::Next)
    }
    pub(crate) fn swc1<M: Memory>(&mut self, mem: &mut M, ft: u8, base: Reg, off: i16) -> R {
        self.cop1_usable()?;
        let v = self.fpu.read_word(ft as usize & 31);
        self.write32(mem, base, off, v)
    }
    pub(crate) fn sdc1<M: Memory>(&mut self, mem: &mut M, ft: u8, base: Reg, off: i16) -> R {
        self.cop1_usable()?;
        let v = self.fpu.read_dword(self.cp0.fr(), ft as usize & 31);
        self.write64(mem, base, off, v)
    }
}
