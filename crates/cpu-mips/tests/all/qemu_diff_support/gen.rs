//! The random sequence generator: straight-line user code (with forward
//! branches and jumps) that can never fault and whose result the
//! architecture defines, so QEMU and the interpreter must agree on it.
//!
//! Contents: [`Rng`] (xorshift64*), [`Abi`], [`initial_value`], [`body`]
//! and the `Gen` state behind it (operand choice, `item`); one file per
//! instruction group in gen/: `simple` (ALU, shifts, loads, stores),
//! `hilo` (MULT/DIV, HI/LO moves), `control` (branches, jumps, loops),
//! `guarded` (ADD/SUB on safe operands, LL/SC, traps).
//!
//! What "defined" costs the generator (each rule cites its source):
//! - 32-bit operations on a 64-bit CPU get sign-extended operands: MIPS IV
//!   Instruction Set (rev 3.2), ADDU/SUBU/ADDIU/MULT/DIV/SRL/SRA/SRLV/SRAV,
//!   Restrictions: "If either GPR rt or GPR rs does not contain
//!   sign-extended 32-bit values (bits 63..31 equal), then the result of the
//!   operation is undefined." `Gen::sext` tracks which registers qualify.
//!   LWR is treated the same way: with bit 31 not loaded, bits 63..32 are
//!   implementation-dependent (MIPS64 manual, LWR; QEMU sign-extends, this
//!   interpreter keeps them), and a sign-extended rt makes both agree.
//! - HI/LO hazards (R4000 User's Manual, MFHI/MFLO: "the two instructions
//!   which follow a MFHI instruction may not be any of the instructions
//!   which modify the HI register"; MTHI: after a MULT/DIV, "before any
//!   MFLO, MFHI, MTLO, or MTHI instructions, the contents of LO are
//!   undefined"): `since_hilo_read` and `muldiv_unread` enforce both.
//! - Division by zero leaves HI/LO unpredictable (R4000 manual, DIV):
//!   divisors get a bit ORed in first.
//! - Overflowing ADD/ADDI/SUB (and D-forms) would trap: their operands are
//!   halved by SRA/DSRA 1 first, so the result always fits.
//! - SC succeeds only right after its LL with no store in between (QEMU
//!   compares the memory value, the R4000 checks LLbit), so LL/SC come as
//!   a pair with only ALU operations between them.
//! - Link registers are neither read nor written in the delay slot, and
//!   BLTZAL/BGEZAL never test $ra, nor JALR jump through its own rd
//!   (R4000 manual, restrictions of BLTZAL and JALR).
//! - Trap instructions appear only in forms that can never trap.
//! - Loop bodies run more than once, so what they read must be defined on
//!   every iteration: under n32 they use only 32-bit operations on
//!   sign-extended registers (`Gen::only32`), which keep them so.

mod control;
mod guarded;
mod hilo;
mod simple;

use test_support::mips::{funct as f, special, Gpr, ZERO};

/// A small deterministic generator (xorshift64*, Vigna 2014), so every run
/// with the same seed produces the same programs.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // Zero is xorshift's one fixed point.
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15 | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in `0..n` (n > 0; the modulo bias is irrelevant here).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// True with probability 1/n.
    pub fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

/// The process model the sequence runs under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Abi {
    /// MIPS I/II, 32-bit registers (qemu-mips).
    O32,
    /// MIPS III with 64-bit registers (qemu-mipsn32 -cpu R4000).
    N32,
}

/// The register holding the scratch area's middle (offsets -32..31); never
/// chosen by the generator. $gp: nothing in a static program uses it.
pub const BASE: Gpr = Gpr::new(28);
/// Bytes of scratch memory per sequence.
pub const SCRATCH_BYTES: u32 = 64;

/// Sign-extends the low 32 bits.
pub fn sext32(v: u64) -> u64 {
    v as u32 as i32 as i64 as u64
}

/// A starting value for a register or HI/LO: edge values (zero, ±1, the
/// 32- and 64-bit extremes), small numbers, random words; under n32 also
/// full 64-bit values, some of them not sign-extended 32-bit values.
pub fn initial_value(rng: &mut Rng, abi: Abi) -> u64 {
    const EDGES: [u64; 8] = [
        0,
        1,
        u64::MAX,
        0xffff_ffff_8000_0000,
        0x7fff_ffff,
        0x8000,
        0xffff_ffff_ffff_8000,
        0x7fff,
    ];
    const EDGES64: [u64; 6] = [
        0x8000_0000_0000_0000,
        0x7fff_ffff_ffff_ffff,
        0x0000_0000_8000_0000,
        0x0000_0000_ffff_ffff,
        0xffff_fffe_0000_0000,
        0x0000_0001_0000_0000,
    ];
    let v32 = match rng.below(4) {
        0 => rng.pick(&EDGES),
        1 => (rng.below(512) as i64 - 256) as u64,
        _ => sext32(rng.next()),
    };
    match abi {
        Abi::O32 => sext32(v32),
        Abi::N32 => match rng.below(8) {
            0 => rng.pick(&EDGES64),
            1 | 2 => rng.next(),
            _ => v32,
        },
    }
}

/// Generates a body of about `len` instructions starting at address `pc`,
/// for a sequence whose registers (slots 1..31) and HI/LO (slots 32, 33)
/// start as `init`.
pub fn body(rng: &mut Rng, abi: Abi, pc: u32, init: &[u64; 34], len: usize) -> Vec<u32> {
    let mut sext = [true; 32];
    for (r, v) in init[..32].iter().enumerate() {
        sext[r] = *v == sext32(*v);
    }
    // A small working set makes the instructions depend on each other.
    let mut pool: Vec<Gpr> = (1..32)
        .filter(|&r| r != BASE.idx() as u32)
        .map(Gpr::new)
        .collect();
    let size = 4 + rng.below(8) as usize;
    let mut work = Vec::with_capacity(size);
    while work.len() < size {
        let at = rng.below(pool.len() as u64) as usize;
        work.push(pool.swap_remove(at));
    }
    let mut g = Gen {
        rng,
        abi,
        pc,
        code: Vec::with_capacity(len + 8),
        work,
        sext,
        hi_sext: init[32] == sext32(init[32]),
        lo_sext: init[33] == sext32(init[33]),
        muldiv_unread: false,
        since_hilo_read: u32::MAX / 2,
        only32: false,
    };
    while g.code.len() < len {
        g.item();
    }
    g.code
}

/// Whether an instruction always executes (it updates the generator's
/// knowledge for sure) or may be skipped or nullified (knowledge can only
/// be lost).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Exec {
    Always,
    Maybe,
}

struct Gen<'a> {
    rng: &'a mut Rng,
    abi: Abi,
    /// Address of the next word emitted.
    pc: u32,
    code: Vec<u32>,
    /// The registers this sequence computes with.
    work: Vec<Gpr>,
    /// Register holds a sign-extended 32-bit value on every path (always
    /// true under o32, where only 32-bit operations exist).
    sext: [bool; 32],
    hi_sext: bool,
    lo_sext: bool,
    /// A MULT/DIV wrote HI/LO and nothing has read or written them since
    /// (an MTHI/MTLO now would leave the other register undefined).
    muldiv_unread: bool,
    /// Instructions certainly executed since the last MFHI/MFLO.
    since_hilo_read: u32,
    /// Inside a loop body: only 32-bit operations, only sign-extended
    /// sources.
    only32: bool,
}

impl Gen<'_> {
    /// 64-bit operations may be emitted here.
    fn wide_ok(&self) -> bool {
        self.abi == Abi::N32 && !self.only32
    }

    fn emit(&mut self, word: u32, exec: Exec) {
        self.code.push(word);
        self.pc = self.pc.wrapping_add(4);
        if exec == Exec::Always {
            self.since_hilo_read = self.since_hilo_read.saturating_add(1);
        }
    }

    /// Records that `rd` now holds a value that is (`sext`) or may not be
    /// a sign-extended 32-bit value.
    fn wrote(&mut self, rd: Gpr, sext: bool, exec: Exec) {
        if rd == ZERO {
            return;
        }
        match exec {
            Exec::Always => self.sext[rd.idx()] = sext,
            Exec::Maybe => self.sext[rd.idx()] &= sext,
        }
    }

    /// A source register: usually from the working set, sometimes $zero.
    fn src(&mut self, avoid: &[Gpr]) -> Gpr {
        if self.only32 {
            return self.src_sext(avoid);
        }
        if self.rng.one_in(10) {
            return ZERO;
        }
        let choices: Vec<Gpr> = self
            .work
            .iter()
            .copied()
            .filter(|r| !avoid.contains(r))
            .collect();
        if choices.is_empty() {
            ZERO
        } else {
            self.rng.pick(&choices)
        }
    }

    /// A source register holding a sign-extended 32-bit value ($zero if
    /// none does).
    fn src_sext(&mut self, avoid: &[Gpr]) -> Gpr {
        if self.rng.one_in(10) {
            return ZERO;
        }
        let choices: Vec<Gpr> = self
            .work
            .iter()
            .copied()
            .filter(|r| !avoid.contains(r) && self.sext[r.idx()])
            .collect();
        if choices.is_empty() {
            ZERO
        } else {
            self.rng.pick(&choices)
        }
    }

    /// A sign-extended source, made so with `sll r, r, 0` when needed
    /// (only where more than one instruction may be emitted).
    fn src_sext_fixed(&mut self) -> Gpr {
        let r = self.src(&[]);
        if !self.sext[r.idx()] {
            self.emit(special(f::SLL, ZERO, r, r, 0), Exec::Always);
            self.wrote(r, true, Exec::Always);
        }
        r
    }

    /// A destination: from the working set, rarely $zero.
    fn dst(&mut self, avoid: &[Gpr]) -> Gpr {
        if self.rng.one_in(30) {
            return ZERO;
        }
        let choices: Vec<Gpr> = self
            .work
            .iter()
            .copied()
            .filter(|r| !avoid.contains(r))
            .collect();
        if choices.is_empty() {
            ZERO
        } else {
            self.rng.pick(&choices)
        }
    }

    fn imm16(&mut self) -> u16 {
        match self.rng.below(6) {
            0 => self.rng.pick(&[0, 1, 0xffff, 0x7fff, 0x8000, 0xfffe]),
            1 | 2 => (self.rng.below(64) as i16 - 32) as u16,
            _ => self.rng.next() as u16,
        }
    }

    fn shamt(&mut self) -> u32 {
        match self.rng.below(5) {
            0 => self.rng.pick(&[0, 1, 31]),
            _ => self.rng.below(32) as u32,
        }
    }

    /// A scratch offset from BASE for a `width`-byte access, naturally
    /// aligned or (for the left/right forms) any byte.
    fn mem_off(&mut self, width: u32, aligned: bool) -> u16 {
        let half = SCRATCH_BYTES as i32 / 2;
        let off = if aligned {
            -half + width as i32 * self.rng.below((SCRATCH_BYTES / width) as u64) as i32
        } else {
            -half + self.rng.below(SCRATCH_BYTES as u64) as i32
        };
        off as i16 as u16
    }

    /// One instruction of the main stream (or a short group).
    fn item(&mut self) {
        match self.rng.below(100) {
            0..=48 => self.simple(&[], Exec::Always, true),
            49..=51 => self.counted_loop(),
            52..=61 => self.muldiv(),
            62..=67 => self.hilo_move(),
            68..=80 => self.branch(),
            81..=85 => self.jump(),
            86..=91 => self.signed_arith(),
            92..=94 => self.ll_sc(),
            95..=98 => self.trap(),
            _ => self.emit(special(f::SYNC, ZERO, ZERO, ZERO, 0), Exec::Always),
        }
    }
}
