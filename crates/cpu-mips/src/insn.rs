//! The instruction word and register numbers as types.
//!
//! Contents: [`Reg`] (a GPR number, never a value), [`Instruction`] (the raw
//! word with accessors named after the R4000 User's Manual's field names,
//! appendix A, "CPU Instruction Formats").

use std::fmt;

/// A general-purpose register number (0..=31). Masked on construction, so
/// indexing the register file with it never goes out of bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reg(u8);

/// Assembler names of the 32 GPRs (SVR4 MIPS ABI, "Register usage").
const GPR_NAMES: [&str; 32] = [
    "zero", "at", "v0", "v1", "a0", "a1", "a2", "a3", "t0", "t1", "t2", "t3", "t4", "t5", "t6",
    "t7", "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "t8", "t9", "k0", "k1", "gp", "sp", "fp",
    "ra",
];

impl Reg {
    // The SVR4 MIPS ABI's names ("Register usage").
    pub const ZERO: Reg = Reg(0);
    pub const AT: Reg = Reg(1);
    pub const V0: Reg = Reg(2);
    pub const V1: Reg = Reg(3);
    pub const A0: Reg = Reg(4);
    pub const A1: Reg = Reg(5);
    pub const A2: Reg = Reg(6);
    pub const A3: Reg = Reg(7);
    pub const T0: Reg = Reg(8);
    pub const T1: Reg = Reg(9);
    pub const T2: Reg = Reg(10);
    pub const T3: Reg = Reg(11);
    pub const T4: Reg = Reg(12);
    pub const T5: Reg = Reg(13);
    pub const T6: Reg = Reg(14);
    pub const T7: Reg = Reg(15);
    pub const S0: Reg = Reg(16);
    pub const S1: Reg = Reg(17);
    pub const S2: Reg = Reg(18);
    pub const S3: Reg = Reg(19);
    pub const S4: Reg = Reg(20);
    pub const S5: Reg = Reg(21);
    pub const S6: Reg = Reg(22);
    pub const S7: Reg = Reg(23);
    pub const T8: Reg = Reg(24);
    pub const T9: Reg = Reg(25);
    pub const K0: Reg = Reg(26);
    pub const K1: Reg = Reg(27);
    pub const GP: Reg = Reg(28);
    pub const SP: Reg = Reg(29);
    pub const FP: Reg = Reg(30);
    pub const RA: Reg = Reg(31);
    /// n32 passes arguments 5-8 in $a4-$a7, the o32 $t0-$t3.
    pub const A4: Reg = Reg(8);
    pub const A5: Reg = Reg(9);
    pub const A6: Reg = Reg(10);
    pub const A7: Reg = Reg(11);

    /// Register `n & 31`.
    pub const fn new(n: u32) -> Reg {
        Reg((n & 31) as u8)
    }
    /// Index into a 32-entry register file.
    #[inline(always)]
    pub const fn idx(self) -> usize {
        (self.0 & 31) as usize
    }
    /// The ABI name without the `$`.
    pub fn name(self) -> &'static str {
        GPR_NAMES[self.idx()]
    }
}

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.name())
    }
}

/// A raw 32-bit instruction word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instruction(pub u32);

impl Instruction {
    /// Bits 31..26: the primary opcode.
    pub const fn opcode(self) -> u32 {
        self.0 >> 26
    }
    /// Bits 25..21: rs (also base, and the COP sub-opcode field).
    pub const fn rs(self) -> Reg {
        Reg::new(self.0 >> 21)
    }
    /// Bits 20..16: rt (also the REGIMM and BC sub-opcode field).
    pub const fn rt(self) -> Reg {
        Reg::new(self.0 >> 16)
    }
    /// Bits 15..11: rd.
    pub const fn rd(self) -> Reg {
        Reg::new(self.0 >> 11)
    }
    /// Bits 10..6: sa (shift amount).
    pub const fn sa(self) -> u8 {
        ((self.0 >> 6) & 31) as u8
    }
    /// Bits 5..0: the SPECIAL function field.
    pub const fn funct(self) -> u32 {
        self.0 & 0x3f
    }
    /// Bits 15..0 as a signed immediate/offset.
    pub const fn simm(self) -> i16 {
        self.0 as u16 as i16
    }
    /// Bits 15..0 as an unsigned immediate.
    pub const fn uimm(self) -> u16 {
        self.0 as u16
    }
    /// Bits 25..0: the J/JAL instruction index.
    pub const fn target(self) -> u32 {
        self.0 & 0x03ff_ffff
    }
    /// Bits 25..6: the SYSCALL/BREAK code field.
    pub const fn code(self) -> u32 {
        (self.0 >> 6) & 0xf_ffff
    }
    /// Field numbers 0..31 of bits 20..16 / 15..11 as raw numbers (for
    /// coprocessor registers).
    pub const fn rt_num(self) -> u8 {
        ((self.0 >> 16) & 31) as u8
    }
    pub const fn rd_num(self) -> u8 {
        ((self.0 >> 11) & 31) as u8
    }
}

/// Target of a PC-relative branch at `pc` (R4000 User's Manual, BEQ: "the
/// 16-bit offset, shifted left two bits and sign-extended, added to the
/// address of the instruction following the branch").
pub(crate) fn branch_target(pc: u32, off: i16) -> u32 {
    pc.wrapping_add(4).wrapping_add((off as i32 as u32) << 2)
}

/// Target of J/JAL at `pc`: the 256 MB region of the delay slot.
pub(crate) fn jump_target(pc: u32, index: u32) -> u32 {
    (pc.wrapping_add(4) & 0xf000_0000) | (index << 2)
}
