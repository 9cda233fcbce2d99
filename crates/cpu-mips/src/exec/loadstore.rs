//! Loads and stores (R4000 User's Manual, appendix A: LB..LD, LWL/LWR,
//! LDL/LDR, LL/LLD, SB..SD, SWL/SWR, SDL/SDR, SC/SCD), big-endian.
//!
//! Effective address = base + sign-extended offset, computed in 64 bits. In
//! user mode it must lie below 0x8000_0000 (kuseg; in 64-bit mode also a
//! sign-extended 32-bit address): otherwise, or when misaligned, Address
//! Error (AdEL for loads, AdES for stores) with BadVAddr = the address.
//! Memory faults from the embedder: Unmapped -> TLBL (load) / TLBS (store),
//! Protection -> TLBL (load) / Mod (store).
//!
//! Unaligned loads in 64-bit mode: LWL sign-extends (it always loads bit
//! 31); LWR sign-extends when it loads the whole word (byte offset 3) and
//! otherwise leaves bits 63..32 unchanged (MIPS III/MIPS64 LWR pseudo-code).
//! The partial stores read-modify-write the aligned word/doubleword; a
//! fault on that read is reported as a store fault.

use super::sx32;
use crate::cpu::Cpu;
use crate::insn::Reg;
use crate::pipeline::{Fault, Flow};
use crate::{ExcCode, MemFault, Memory};

type R = Result<Flow, Fault>;

/// First address above user space (kuseg ends at 2 GB).
pub(crate) const USER_TOP: u64 = 0x8000_0000;

#[inline(always)]
pub(crate) fn load_fault(_f: MemFault, addr: u32) -> Fault {
    Fault::at(ExcCode::TlbL, addr)
}

#[inline(always)]
pub(crate) fn store_fault(f: MemFault, addr: u32) -> Fault {
    match f {
        MemFault::Unmapped => Fault::at(ExcCode::TlbS, addr),
        MemFault::Protection => Fault::at(ExcCode::Mod, addr),
    }
}

impl Cpu {
    /// A checked load address: `align` is the access size minus one.
    #[inline(always)]
    pub(crate) fn load_addr(&self, base: Reg, off: i16, align: u64) -> Result<u32, Fault> {
        let ea = self.r(base).wrapping_add(off as i64 as u64);
        if ea >= USER_TOP || ea & align != 0 {
            return Err(Fault::at(ExcCode::AdEL, ea as u32));
        }
        Ok(ea as u32)
    }
    #[inline(always)]
    pub(crate) fn store_addr(&self, base: Reg, off: i16, align: u64) -> Result<u32, Fault> {
        let ea = self.r(base).wrapping_add(off as i64 as u64);
        if ea >= USER_TOP || ea & align != 0 {
            return Err(Fault::at(ExcCode::AdES, ea as u32));
        }
        Ok(ea as u32)
    }
    /// After a store to `addr`: did it hit a page with decoded code?
    #[inline(always)]
    pub(crate) fn stored(&mut self, addr: u32) -> Flow {
        if self.code_marks.contains(addr) {
            self.written_code_page = addr >> crate::code_cache::PAGE_SHIFT;
            Flow::CodeWritten
        } else {
            Flow::Next
        }
    }

    #[inline(always)]
    pub(crate) fn read32<M: Memory>(&self, mem: &mut M, base: Reg, off: i16) -> Result<u32, Fault> {
        let a = self.load_addr(base, off, 3)?;
        mem.load32(a).map_err(|f| load_fault(f, a))
    }
    #[inline(always)]
    pub(crate) fn read64<M: Memory>(&self, mem: &mut M, base: Reg, off: i16) -> Result<u64, Fault> {
        let a = self.load_addr(base, off, 7)?;
        mem.load64(a).map_err(|f| load_fault(f, a))
    }
    #[inline(always)]
    pub(crate) fn write32<M: Memory>(&mut self, mem: &mut M, base: Reg, off: i16, v: u32) -> R {
        let a = self.store_addr(base, off, 3)?;
        mem.store32(a, v).map_err(|f| store_fault(f, a))?;
        Ok(self.stored(a))
    }
    #[inline(always)]
    pub(crate) fn write64<M: Memory>(&mut self, mem: &mut M, base: Reg, off: i16, v: u64) -> R {
        let a = self.store_addr(base, off, 7)?;
        mem.store64(a, v).map_err(|f| store_fault(f, a))?;
        Ok(self.stored(a))
    }

    // --- loads ---
    #[inline(always)]
    pub(crate) fn lb<M: Memory>(&mut self, mem: &mut M, rt: Reg, base: Reg, off: i16) -> R {
        let a = self.load_addr(base, off, 0)?;
        let v = mem.load8(a).map_err(|f| load_fault(f, a))?;
        self.logic(rt, v as i8 as i64 as u64)
    }
    #[inline(always)]
    pub(crate) fn lbu<M: Memory>(&mut self, mem: &mut M, rt: Reg, base: Reg, off: i16) -> R {
        let a = self.load_addr(base, off, 0)?;
        let v = mem.load8(a).map_err(|f| load_fault(f, a))?;
        self.logic(rt, v as u64)
    }
    #[inline(always)]
    pub(crate) fn lh<M: Memory>(&mut self, mem: &mut M, rt: Reg, base: Reg, off: i16) -> R {
        let a = self.load_addr(base, off, 1)?;
        let v = mem.load16(a).map_err(|f| load_fault(f, a))?;
        self.logic(rt, v as i16 as i64 as u64)
    }
    #[inline(always)]
    pub(crate) fn lhu<M: Memory>(&mut self, mem: &mut M, rt: Reg, base: Reg, off: i16) -> R {
        let a = self.load_addr(base, off, 1)?;
        let v = mem.load16(a).map_err(|f| load_fault(f, a))?;
        self.logic(rt, v as u64)
    }
    #[inline(always)]
    pub(crate) fn lw<M: Memory>(&mut self, mem: &mut M, rt: Reg, base: Reg, off: i16) -> R {
        let v = self.read32(mem, base, off)?;
        self.logic(rt, sx32(v))
    }
    #[inline(always)]
    pub(crate) fn lwu<M: Memory>(&mut self, mem: &mut M, rt: Reg, base: Reg, off: i16) -> R {
        let v = self.read32(mem, base, off)?;
        self.logic(rt, v as u64)
    }
    #[inline(always)]
    pub(crate) fn ld<M: Memory>(&mut self, mem: &mut M, rt: Reg, base: Reg, off: i16) -> R {
        let v = self.read64(mem, base, off)?;
        self.logic(rt, v)
    }
    pub(crate) fn ll<M: Memory>(&mut self, mem: &mut M, rt: Reg, base: Reg, off: i16) -> R {
        let v = self.read32(mem, base, off)?;
        self.ll_bit = true;
        self.logic(rt, sx32(v))
    }
    pub(crate) fn lld<M: Memory>(&mut self, mem: &mut M, rt: Reg, base: Reg, off: i16) -> R {
        let v = self.read64(mem, base, off)?;
        self.ll_bit = true;
        self.logic(rt, v)
    }
    /// LWL: the bytes from the address to the end of its word go to the
    /// high-order end of rt.
    pub(crate) fn lwl<M: Memory>(&mut self, mem: &mut M, rt: Reg, base: Reg, off: i16) -> R {
        let a = self.load_addr(base, off, 0)?;
        let w = mem.load32(a & !3).map_err(|f| load_fault(f, a))?;
        let shift = 8 * (a & 3);
        let keep = ((1u64 << shift) - 1) as u32;
        let merged = (w << shift) | (self.r32(rt) & keep);
        self.logic(rt, sx32(merged))
    }
    /// LWR: the bytes from the start of the word to the address go to the
    /// low-order end of rt.
    pub(crate) fn lwr<M: Memory>(&mut self, mem: &mut M, rt: Reg, base: Reg, off: i16) -> R {
        let a = self.load_addr(base, off, 0)?;
        let w = mem.load32(a & !3).map_err(|f| load_fault(f, a))?;
        let shift = 8 * (3 - (a & 3));
        let keep = !(u32::MAX >> shift);
        let old = self.r(rt);
        let merged = (w >> shift) | (old as u32 & keep);
        let v = if a & 3 == 3 {
            sx32(merged)
        } else {
            (old & 0xffff_ffff_0000_0000) | merged as u64
        };
        self.logic(rt, v)
    }
    /// LDL: LWL on doublewords.
    pub(crate) fn ldl<M: Memory>(&mut self, mem: &mut M, rt: Reg, base: Reg, off: i16) -> R {
        let a = self.load_addr(base, off, 0)?;
        let d = mem.load64(a & !7).map_err(|f| load_fault(f, a))?;
        let shift = 8 * (a & 7);
        let keep = ((1u128 << shift) - 1) as u64;
        self.logic(rt, (d << shift) | (self.r(rt) & keep))
    }
    /// LDR: LWR on doublewords.
    pub(crate) fn ldr<M: Memory>(&mut self, mem: &mut M, rt: Reg, base: Reg, off: i16) -> R {
        let a = self.load_addr(base, off, 0)?;
        let d = mem.load64(a & !7).map_err(|f| load_fault(f, a))?;
        let shift = 8 * (7 - (a & 7));
        let keep = !(u64::MAX >> shift);
        self.logic(rt, (d >> shift) | (self.r(rt) & keep))
    }

    // --- stores ---
    #[inline(always)]
    pub(crate) fn sb<M: Memory>(&mut self, mem: &mut M, rt: Reg, base: Reg, off: i16) -> R {
        let a = self.store_addr(base, off, 0)?;
        mem.store8(a, self.r(rt) as u8)
            .map_err(|f| store_fault(f, a))?;
        Ok(self.stored(a))
    }
    #[inline(always)]
    pub(crate) fn sh<M: Memory>(&mut self, mem: &mut M, rt: Reg, base: Reg, off: i16) -> R {
        let a = self.store_addr(base, off, 1)?;
        mem.store16(a, self.r(rt) as u16)
            .map_err(|f| store_fault(f, a))?;
        Ok(self.stored(a))
    }
    #[inline(always)]
    pub(crate) fn sw<M: Memory>(&mut self, mem: &mut M, rt: Reg, base: Reg, off: i16) -> R {
        let v = self.r32(rt);
        self.write32(mem, base, off, v)
    }
    #[inline(always)]
    pub(crate) fn sd<M: Memory>(&mut self, mem: &mut M, rt: Reg, base: Reg, off: i16) -> R {
        let v = self.r(rt);
        self.write64(mem, base, off, v)
    }
    /// SWL: the high-order bytes of rt go from the address to the end of its word.
    pub(crate) fn swl<M: Memory>(&mut self, mem: &mut M, rt: Reg, base: Reg, off: i16) -> R {
        let a = self.store_addr(base, off, 0)?;
        let al = a & !3;
        let w = mem.load32(al).map_err(|f| store_fault(f, a))?;
        let shift = 8 * (a & 3);
        let new = (w & !(u32::MAX >> shift)) | (self.r32(rt) >> shift);
        mem.store32(al, new).map_err(|f| store_fault(f, a))?;
        Ok(self.stored(a))
    }
    /// SWR: the low-order bytes of rt go from the start of the word to the address.
    pub(crate) fn swr<M: Memory>(&mut self, mem: &mut M, rt: Reg, base: Reg, off: i16) -> R {
        let a = self.store_addr(base, off, 0)?;
        let al = a & !3;
        let w = mem.load32(al).map_err(|f| store_fault(f, a))?;
        let shift = 8 * (3 - (a & 3));
        let new = (w & !(u32::MAX << shift)) | (self.r32(rt) << shift);
        mem.store32(al, new).map_err(|f| store_fault(f, a))?;
        Ok(self.stored(a))
    }
    /// SDL: SWL on doublewords.
    pub(crate) fn sdl<M: Memory>(&mut self, mem: &mut M, rt: Reg, base: Reg, off: i16) -> R {
        let a = self.store_addr(base, off, 0)?;
        let al = a & !7;
        let d = mem.load64(al).map_err(|f| store_fault(f, a))?;
        let shift = 8 * (a & 7);
        let new = (d & !(u64::MAX >> shift)) | (self.r(rt) >> shift);
        mem.store64(al, new).map_err(|f| store_fault(f, a))?;
        Ok(self.stored(a))
    }
    /// SDR: SWR on doublewords.
    pub(crate) fn sdr<M: Memory>(&mut self, mem: &mut M, rt: Reg, base: Reg, off: i16) -> R {
        let a = self.store_addr(base, off, 0)?;
        let al = a & !7;
        let d = mem.load64(al).map_err(|f| store_fault(f, a))?;
        let shift = 8 * (7 - (a & 7));
        let new = (d & !(u64::MAX << shift)) | (self.r(rt) << shift);
        mem.store64(al, new).map_err(|f| store_fault(f, a))?;
        Ok(self.stored(a))
    }
    /// SC: stores and sets rt = 1 while LLbit is set, else rt = 0 and no
    /// store. The address is checked either way. LLbit is cleared after.
    pub(crate) fn sc<M: Memory>(&mut self, mem: &mut M, rt: Reg, base: Reg, off: i16) -> R {
        let a = self.store_addr(base, off, 3)?;
        let flow = if self.ll_bit {
            mem.store32(a, self.r32(rt))
                .map_err(|f| store_fault(f, a))?;
            self.stored(a)
        } else {
            Flow::Next
        };
        let ok = self.ll_bit as u64;
        self.ll_bit = false;
        self.set(rt, ok);
        Ok(flow)
    }
    /// SCD: SC on a doubleword.
    pub(crate) fn scd<M: Memory>(&mut self, mem: &mut M, rt: Reg, base: Reg, off: i16) -> R {
        let a = self.store_addr(base, off, 7)?;
        let flow = if self.ll_bit {
            mem.store64(a, self.r(rt)).map_err(|f| store_fault(f, a))?;
            self.stored(a)
        } else {
            Flow::Next
        };
        let ok = self.ll_bit as u64;
        self.ll_bit = false;
        self.set(rt, ok);
        Ok(flow)
    }
}
