//! Comparing two CPUs for the lockstep differential: every engine must
//! leave exactly the interpreter's state wherever [`Cpu::run`] returns.
//!
//! Contents: [`Cpu::differences`].

use crate::cpu::Cpu;

impl Cpu {
    /// Every piece of state in which `self` and `other` differ, by name
    /// (empty when they are the same): the GPRs, HI/LO, the FPU registers
    /// and FCSR, CP0 (Status, Cause, EPC, BadVAddr), the PC, the next PC,
    /// the delay-slot state and its owed bubbles, LLbit, the cycle and
    /// retired counts, and the timing model's ready-at scoreboard as any
    /// later instruction sees it. The decoded-code caches are not state
    /// and are not compared.
    pub fn differences(&self, other: &Cpu) -> Vec<String> {
        let mut out = Vec::new();
        let mut check = |name: String, a: u64, b: u64| {
            if a != b {
                out.push(format!("{name}: {a:#x} != {b:#x}"));
            }
        };
        for r in 0..32 {
            check(format!("gpr[{r}]"), self.gpr[r], other.gpr[r]);
            check(format!("fpr[{r}]"), self.fpu.fpr[r], other.fpu.fpr[r]);
        }
        check("hi".into(), self.hi, other.hi);
        check("lo".into(), self.lo, other.lo);
        check("fcsr".into(), self.fpu.fcsr.into(), other.fpu.fcsr.into());
        check(
            "status".into(),
            self.cp0.status.into(),
            other.cp0.status.into(),
        );
        check(
            "cause".into(),
            self.cp0.cause.into(),
            other.cp0.cause.into(),
        );
        check("epc".into(), self.cp0.epc.into(), other.cp0.epc.into());
        check(
            "badvaddr".into(),
            self.cp0.bad_vaddr.into(),
            other.cp0.bad_vaddr.into(),
        );
        check("pc".into(), self.pc.into(), other.pc.into());
        check("next_pc".into(), self.next_pc.into(), other.next_pc.into());
        check(
            "in_delay_slot".into(),
            self.in_delay_slot.into(),
            other.in_delay_slot.into(),
        );
        check(
            "pending_bubbles".into(),
            self.pending_bubbles,
            other.pending_bubbles,
        );
        check("ll_bit".into(), self.ll_bit.into(), other.ll_bit.into());
        check("cycles".into(), self.cycles, other.cycles);
        check("retired".into(), self.retired, other.retired);
        // What a reader sees: a slot ready at or before the clock is just
        // ready (compiled code leaves such times as they were, see
        // `block::settled_by_end`). The sink is never read.
        for slot in 0..crate::timing::SLOTS as u8 {
            if slot == crate::timing::SLOT_SINK {
                continue;
            }
            let seen = |c: &Cpu| c.scoreboard.ready(slot).max(c.cycles);
            check(format!("ready[{slot}]"), seen(self), seen(other));
        }
        out
    }
}
