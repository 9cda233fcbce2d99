//! What the FPU instruction tables share: the FCSR fields and one way to
//! run a computational COP1 word on a fresh FPU (Status.FR = 1, fs = $f2 =
//! a, ft = $f4 = b, fd = $f0).

#![allow(dead_code)] // each table uses the fields it needs

use cpu_mips::fpu::{decode_cop1, Fpu};

// FCSR fields (R4000 manual, figure 6-5): rounding modes...
pub const RN: u32 = 0;
pub const RZ: u32 = 1;
pub const RP: u32 = 2;
pub const RM: u32 = 3;
/// Flush denormal results to zero.
pub const FS: u32 = 1 << 24;
/// The condition bit C.cond.fmt writes.
pub const C: u32 = 1 << 23;
// ...cause bits...
pub const I: u32 = 1 << 12;
pub const U: u32 = 1 << 13;
pub const O: u32 = 1 << 14;
pub const Z: u32 = 1 << 15;
pub const V: u32 = 1 << 16;
// ...and enable bits.
pub const EN_I: u32 = 1 << 7;
pub const EN_U: u32 = 1 << 8;
pub const EN_O: u32 = 1 << 9;
pub const EN_V: u32 = 1 << 11;

/// What fd holds before the instruction, to see it left unchanged.
pub const SENTINEL: u64 = 0x5555_5555_5555_5555;

/// Runs `word` on a fresh FPU; returns (fd, FCSR, trapped). 32-bit results
/// are returned as the low word of fd.
pub fn run(word: u32, fcsr: u32, a: u64, b: u64) -> (u64, u32, bool) {
    let op = decode_cop1(word).expect("test word decodes");
    let mut fpu = Fpu::new();
    fpu.fcsr = fcsr;
    fpu.fpr[0] = SENTINEL;
    fpu.fpr[2] = a;
    fpu.fpr[4] = b;
    let trapped = fpu.execute(true, &op).is_err();
    let fd = if op.dest_fmt().is_64bit() {
        fpu.fpr[0]
    } else {
        fpu.fpr[0] & 0xffff_ffff
    };
    (fd, fpu.fcsr, trapped)
}
