//! The timing model, all of it: named costs and the ready-at scoreboard.
//!
//! Contents: the cost constants, [`Operands`] (what an op reads and writes,
//! derived from the one decode by [`operands`]), `Scoreboard`.
//!
//! Sources: R4000 User's Manual (2nd ed.), ch. 3 "CPU Instruction Pipeline"
//! (eight stages, one pipeline cycle each; "a branch delay of three cycles
//! and a load delay of two cycles"; hardware interlocks, no architectural
//! load delay slot), and the HI/LO latencies on which MAME's r4000 core and
//! GCC's R4000 scheduling model agree. The whole table, with its sources:
//! docs/timing.md.
//!
//! Model: every instruction issues at the first cycle at which the cycle
//! counter has reached it and all its source registers are ready; it costs
//! one cycle, and its destination becomes ready `latency` cycles after its
//! issue. A register slot holds the cycle at which its value is ready.
//! Source and destination slots are: $zero (always ready), the 31 other GPRs,
//! HI/LO (one slot), the 32 FPRs, the FCSR condition bit, and a sink for
//! results nobody waits on.

use crate::decode::Op;

/// Cycles of one instruction in the pipeline (ch. 3: one pipeline cycle per
/// stage, one instruction issued per cycle).
pub const ISSUE_CYCLES: u64 = 1;

/// Extra cycles of a taken branch or jump: the branch delay is three cycles,
/// one of which is the architectural delay slot, so two bubbles (ch. 3,
/// "Branch Delay"). Charged to the branch, added to the clock after its
/// delay slot (where the bubbles sit in the pipeline).
pub const BRANCH_BUBBLES: u64 = 2;

/// Cycles of a delay slot nullified by a branch-likely that is not taken:
/// the slot instruction was fetched and is killed in the pipeline, occupying
/// its issue cycle; the sequential fetch continues, so no bubbles. Charged to
/// the branch. (Our choice from the pipeline description; no table gives it.)
pub const NULLIFIED_SLOT_CYCLES: u64 = 1;

/// Ready-at latency of a plain ALU result: usable by the next instruction
/// (bypassed).
pub const ALU_LATENCY: u16 = 1;

/// Ready-at latency of a load: "a load delay of two cycles" (ch. 3), so a
/// user in the next instruction stalls 2 cycles, 1 if one instruction lies
/// between: ready_at = issue + 3. Also used for the FP loads (LWC1/LDC1), for
/// SC/SCD's success flag and for the CP1 moves MFC1/DMFC1/CFC1/MTC1/DMTC1,
/// which travel through the same data-cache stages (doubt: treated like
/// loads, no table gives them).
pub const LOAD_LATENCY: u16 = 3;

/// The longest latency of any instruction that writes a GPR (loads, SC
/// and the CP1 moves; every other GPR result is [`ALU_LATENCY`]). The block
/// tier relies on it: a GPR first read two or more cycles into a block is
/// ready whatever ran before. A test checks it against [`operands`].
pub const MAX_GPR_LATENCY: u16 = LOAD_LATENCY;

/// HI/LO ready after MULT/MULTU (docs/timing.md: MAME and GCC agree).
pub const MULT_LATENCY: u16 = 10;
/// HI/LO ready after DMULT/DMULTU.
pub const DMULT_LATENCY: u16 = 20;
/// HI/LO ready after DIV/DIVU.
pub const DIV_LATENCY: u16 = 69;
/// HI/LO ready after DDIV/DDIVU.
pub const DDIV_LATENCY: u16 = 133;

/// Count increments every other pipeline cycle ("at half the maximum
/// instruction issue rate", ch. 4).
pub const COUNT_DIVISOR: u64 = 2;

/// Default pipeline clock: a 100 MHz R4000 (Indigo/Indy), docs/timing.md.
pub const DEFAULT_CLOCK_HZ: u64 = 100_000_000;

// --- scoreboard slots ---
/// $zero: never written, always ready.
pub(crate) const SLOT_ZERO: u8 = 0;
/// HI and LO together.
pub(crate) const SLOT_HILO: u8 = 32;
/// FPR n is slot SLOT_FPR + n.
pub(crate) const SLOT_FPR: u8 = 33;
/// The FCSR condition bit (C.cond writes, BC1T/BC1F read).
pub(crate) const SLOT_FCC: u8 = 65;
/// Written by instructions without a destination, never read.
pub(crate) const SLOT_SINK: u8 = 66;
/// Slot array size: a power of two so a masked index needs no bounds check.
pub(crate) const SLOTS: usize = 128;

/// What the scoreboard needs to know about one decoded instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operands {
    /// Slots read (unused ones are `SLOT_ZERO`).
    pub src: [u8; 2],
    /// Slot written (`SLOT_SINK` when none).
    pub dst: u8,
    /// Cycles from issue until `dst` is ready.
    pub latency: u16,
}

fn gpr(r: crate::insn::Reg) -> u8 {
    r.idx() as u8
}
/// A GPR destination: writes to $zero go to the sink.
fn gpr_dst(r: crate::insn::Reg) -> u8 {
    if r.idx() == 0 {
        SLOT_SINK
    } else {
        r.idx() as u8
    }
}
fn fpr(n: u8) -> u8 {
    SLOT_FPR + (n & 31)
}

impl Operands {
    const NONE: Operands = Operands {
        src: [SLOT_ZERO; 2],
        dst: SLOT_SINK,
        latency: ALU_LATENCY,
    };
    fn new(a: u8, b: u8, dst: u8, latency: u16) -> Operands {
        Operands {
            src: [a, b],
            dst,
            latency,
        }
    }
}

/// The sources, destination and latency of `op`: the timing model's view of
/// the one decode.
pub fn operands(op: &Op) -> Operands {
    use Op::*;
    let z = SLOT_ZERO;
    let alu = ALU_LATENCY;
    match *op {
        Sll { rd, rt, .. }
        | Srl { rd, rt, .. }
        | Sra { rd, rt, .. }
        | Dsll { rd, rt, .. }
        | Dsrl { rd, rt, .. }
        | Dsra { rd, rt, .. }
        | Dsll32 { rd, rt, .. }
        | Dsrl32 { rd, rt, .. }
        | Dsra32 { rd, rt, .. } => Operands::new(gpr(rt), z, gpr_dst(rd), alu),
        Sllv { rd, rt, rs }
        | Srlv { rd, rt, rs }
        | Srav { rd, rt, rs }
        | Dsllv { rd, rt, rs }
        | Dsrlv { rd, rt, rs }
        | Dsrav { rd, rt, rs }
        | Add { rd, rs, rt }
        | Addu { rd, rs, rt }
        | Sub { rd, rs, rt }
        | Subu { rd, rs, rt }
        | And { rd, rs, rt }
        | Or { rd, rs, rt }
        | Xor { rd, rs, rt }
        | Nor { rd, rs, rt }
        | Slt { rd, rs, rt }
        | Sltu { rd, rs, rt }
        | Dadd { rd, rs, rt }
        | Daddu { rd, rs, rt }
        | Dsub { rd, rs, rt }
        | Dsubu { rd, rs, rt } => Operands::new(gpr(rs), gpr(rt), gpr_dst(rd), alu),
        Jr { rs } => Operands::new(gpr(rs), z, SLOT_SINK, alu),
        Jalr { rd, rs } => Operands::new(gpr(rs), z, gpr_dst(rd), alu),
        Mfhi { rd } | Mflo { rd } => Operands::new(SLOT_HILO, z, gpr_dst(rd), alu),
        Mthi { rs } | Mtlo { rs } => Operands::new(gpr(rs), z, SLOT_HILO, alu),
        Mult { rs, rt } | Multu { rs, rt } => {
            Operands::new(gpr(rs), gpr(rt), SLOT_HILO, MULT_LATENCY)
        }
        Dmult { rs, rt } | Dmultu { rs, rt } => {
            Operands::new(gpr(rs), gpr(rt), SLOT_HILO, DMULT_LATENCY)
        }
        Div { rs, rt } | Divu { rs, rt } => Operands::new(gpr(rs), gpr(rt), SLOT_HILO, DIV_LATENCY),
        Ddiv { rs, rt } | Ddivu { rs, rt } => {
            Operands::new(gpr(rs), gpr(rt), SLOT_HILO, DDIV_LATENCY)
        }
        Tge { rs, rt }
        | Tgeu { rs, rt }
        | Tlt { rs, rt }
        | Tltu { rs, rt }
        | Teq { rs, rt }
        | Tne { rs, rt } => Operands::new(gpr(rs), gpr(rt), SLOT_SINK, alu),
        Bltz { rs, .. } | Bgez { rs, .. } | Bltzl { rs, .. } | Bgezl { rs, .. } => {
            Operands::new(gpr(rs), z, SLOT_SINK, alu)
        }
        Bltzal { rs, .. } | Bgezal { rs, .. } | Bltzall { rs, .. } | Bgezall { rs, .. } => {
            Operands::new(gpr(rs), z, gpr_dst(crate::insn::Reg::RA), alu)
        }
        Tgei { rs, .. }
        | Tgeiu { rs, .. }
        | Tlti { rs, .. }
        | Tltiu { rs, .. }
        | Teqi { rs, .. }
        | Tnei { rs, .. } => Operands::new(gpr(rs), z, SLOT_SINK, alu),
        J { .. } => Operands::NONE,
        Jal { .. } => Operands::new(z, z, gpr_dst(crate::insn::Reg::RA), alu),
        Beq { rs, rt, .. } | Bne { rs, rt, .. } | Beql { rs, rt, .. } | Bnel { rs, rt, .. } => {
            Operands::new(gpr(rs), gpr(rt), SLOT_SINK, alu)
        }
        Blez { rs, .. } | Bgtz { rs, .. } | Blezl { rs, .. } | Bgtzl { rs, .. } => {
            Operands::new(gpr(rs), z, SLOT_SINK, alu)
        }
        Addi { rt, rs, .. }
        | Addiu { rt, rs, .. }
        | Slti { rt, rs, .. }
        | Sltiu { rt, rs, .. }
        | Daddi { rt, rs, .. }
        | Daddiu { rt, rs, .. }
        | Andi { rt, rs, .. }
        | Ori { rt, rs, .. }
        | Xori { rt, rs, .. } => Operands::new(gpr(rs), z, gpr_dst(rt), alu),
        Lui { rt, .. } => Operands::new(z, z, gpr_dst(rt), alu),
        Lb { rt, base, .. }
        | Lbu { rt, base, .. }
        | Lh { rt, base, .. }
        | Lhu { rt, base, .. }
        | Lw { rt, base, .. }
        | Lwu { rt, base, .. }
        | Ld { rt, base, .. }
        | Ll { rt, base, .. }
        | Lld { rt, base, .. } => Operands::new(gpr(base), z, gpr_dst(rt), LOAD_LATENCY),
        // The unaligned loads merge into rt, so they also read it.
        Lwl { rt, base, .. }
        | Lwr { rt, base, .. }
        | Ldl { rt, base, .. }
        | Ldr { rt, base, .. } => Operands::new(gpr(base), gpr(rt), gpr_dst(rt), LOAD_LATENCY),
        Sb { rt, base, .. }
        | Sh { rt, base, .. }
        | Sw { rt, base, .. }
        | Swl { rt, base, .. }
        | Swr { rt, base, .. }
        | Sd { rt, base, .. }
        | Sdl { rt, base, .. }
        | Sdr { rt, base, .. } => Operands::new(gpr(base), gpr(rt), SLOT_SINK, alu),
        Sc { rt, base, .. } | Scd { rt, base, .. } => {
            Operands::new(gpr(base), gpr(rt), gpr_dst(rt), LOAD_LATENCY)
        }
        Mfc1 { rt, fs } | Dmfc1 { rt, fs } => Operands::new(fpr(fs), z, gpr_dst(rt), LOAD_LATENCY),
        Cfc1 { rt, .. } => Operands::new(SLOT_FCC, z, gpr_dst(rt), LOAD_LATENCY),
        Mtc1 { rt, fs } | Dmtc1 { rt, fs } => Operands::new(gpr(rt), z, fpr(fs), LOAD_LATENCY),
        Ctc1 { rt, .. } => Operands::new(gpr(rt), z, SLOT_FCC, alu),
        Bc1f { .. } | Bc1t { .. } | Bc1fl { .. } | Bc1tl { .. } => {
            Operands::new(SLOT_FCC, z, SLOT_SINK, alu)
        }
        Fp(fp) => {
            let [a, b] = fp.sources();
            let slot = |s: Option<u8>| s.map_or(z, fpr);
            let dst = if fp.writes_condition() {
                SLOT_FCC
            } else {
                fp.dest().map_or(SLOT_SINK, fpr)
            };
            let latency = fp.latency().clamp(1, u16::MAX as u32) as u16;
            Operands::new(slot(a), slot(b), dst, latency)
        }
        Lwc1 { ft, base, .. } | Ldc1 { ft, base, .. } => {
            Operands::new(gpr(base), z, fpr(ft), LOAD_LATENCY)
        }
        Swc1 { ft, base, .. } | Sdc1 { ft, base, .. } => {
            Operands::new(gpr(base), fpr(ft), SLOT_SINK, alu)
        }
        Syscall { .. }
        | Break { .. }
        | Sync
        | Cop0 { .. }
        | Cache { .. }
        | Cop1Reserved { .. }
        | Cop2 { .. }
        | Reserved { .. } => Operands::NONE,
    }
}

/// Ready-at cycle of every slot.
#[derive(Clone, Debug)]
pub(crate) struct Scoreboard {
    ready: [u64; SLOTS],
}

impl Scoreboard {
    /// Where the ready-at cycle of `slot` is, from the scoreboard's start
    /// (compiled code reads and writes it directly).
    pub const fn slot_offset(slot: u8) -> usize {
        std::mem::offset_of!(Scoreboard, ready) + 8 * (slot as usize & (SLOTS - 1))
    }
}

impl Default for Scoreboard {
    fn default() -> Self {
        Scoreboard { ready: [0; SLOTS] }
    }
}

impl Scoreboard {
    /// The cycle at which an instruction with these operands issues when the
    /// clock reads `now`.
    #[inline(always)]
    pub fn issue_cycle(&self, now: u64, t: &Operands) -> u64 {
        let a = self.ready[t.src[0] as usize & (SLOTS - 1)];
        let b = self.ready[t.src[1] as usize & (SLOTS - 1)];
        now.max(a).max(b)
    }
    /// The cycle at which `slot` is ready.
    #[inline(always)]
    pub fn ready(&self, slot: u8) -> u64 {
        self.ready[slot as usize & (SLOTS - 1)]
    }
    /// Sets the cycle at which `slot` is ready (a block's outgoing times).
    #[inline(always)]
    pub fn set_ready(&mut self, slot: u8, at: u64) {
        self.ready[slot as usize & (SLOTS - 1)] = at;
    }
    /// Records the destination of an instruction that issued at `issue`.
    #[inline(always)]
    pub fn retire(&mut self, issue: u64, t: &Operands) {
        self.ready[t.dst as usize & (SLOTS - 1)] = issue + t.latency as u64;
    }
}
