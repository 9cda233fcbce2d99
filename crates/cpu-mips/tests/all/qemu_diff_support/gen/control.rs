//! Control transfers: forward branches (incl. likely and and-link forms),
//! J/JAL/JR/JALR, and counted loops closed by a backward branch, each with
//! a filled delay slot.
//!
//! Contents: `Gen::pad_to_page_end`, `Gen::slot_and_skipped`, `Gen::branch`,
//! `Gen::jump`, `Gen::counted_loop`.

use super::{Exec, Gen};
use test_support::mips::{
    funct as f, itype, jtype, li32, opcode as op, regimm, regimm_code as ri, special, Gpr, RA, ZERO,
};

/// Bytes per page of the interpreter's decoded-code cache and of QEMU's
/// translation (4 KiB).
const PAGE_BYTES: u32 = 4096;

impl Gen<'_> {
    /// Now and then, when the page ends within 24 words, pads with simple
    /// instructions so that the transfer emitted `words_before` words from
    /// here is the page's last word and its delay slot the next page's
    /// first (a transition the interpreter's page-at-a-time loop handles
    /// separately).
    fn pad_to_page_end(&mut self, words_before: u32) {
        if !self.rng.one_in(4) {
            return;
        }
        let last_word = PAGE_BYTES - 4;
        let gap = last_word.wrapping_sub((self.pc + 4 * words_before) % PAGE_BYTES) / 4;
        if gap <= 24 {
            for _ in 0..gap {
                self.simple(&[], Exec::Always, true);
            }
        }
    }

    /// The delay slot and the 0..2 instructions a forward transfer skips
    /// when taken. `likely`: the delay slot is nullified when not taken.
    pub(super) fn slot_and_skipped(&mut self, skip: u32, likely: bool, link: Option<Gpr>) {
        let avoid: Vec<Gpr> = link.into_iter().collect();
        self.simple(
            &avoid,
            if likely { Exec::Maybe } else { Exec::Always },
            true,
        );
        for _ in 0..skip {
            self.simple(&[], Exec::Maybe, true);
        }
    }

    /// A conditional forward branch (incl. likely and and-link forms) over
    /// its delay slot and 0..2 more instructions.
    pub(super) fn branch(&mut self) {
        self.pad_to_page_end(0);
        let skip = self.rng.below(3) as u32;
        let off = (1 + skip) as u16;
        let (word, likely, link) = match self.rng.below(4) {
            0 => {
                let rs = self.src(&[]);
                // Equal registers (always taken) now and then.
                let rt = match self.rng.below(4) {
                    0 => rs,
                    1 => ZERO,
                    _ => self.src(&[]),
                };
                let (opc, likely) = self.rng.pick(&[
                    (op::BEQ, false),
                    (op::BNE, false),
                    (op::BEQL, true),
                    (op::BNEL, true),
                ]);
                (itype(opc, rs, rt, off), likely, None)
            }
            1 => {
                let rs = self.src(&[]);
                let (opc, likely) = self.rng.pick(&[
                    (op::BLEZ, false),
                    (op::BGTZ, false),
                    (op::BLEZL, true),
                    (op::BGTZL, true),
                ]);
                (itype(opc, rs, ZERO, off), likely, None)
            }
            2 => {
                let rs = self.src(&[]);
                let (code, likely) = self.rng.pick(&[
                    (ri::BLTZ, false),
                    (ri::BGEZ, false),
                    (ri::BLTZL, true),
                    (ri::BGEZL, true),
                ]);
                (regimm(code, rs, off), likely, None)
            }
            _ => {
                let rs = self.src(&[RA]);
                let (code, likely) = self.rng.pick(&[
                    (ri::BLTZAL, false),
                    (ri::BGEZAL, false),
                    (ri::BLTZALL, true),
                    (ri::BGEZALL, true),
                ]);
                (regimm(code, rs, off), likely, Some(RA))
            }
        };
        self.emit(word, Exec::Always);
        // The link is written whether or not the branch is taken (R4000
        // manual, BLTZAL: "unconditionally").
        if let Some(r) = link {
            self.wrote(r, true, Exec::Always);
        }
        self.slot_and_skipped(skip, likely, link);
    }

    /// J/JAL to an absolute forward target, or JR/JALR through a register
    /// loaded with it.
    pub(super) fn jump(&mut self) {
        let skip = self.rng.below(3) as u32;
        let through_register = self.rng.one_in(2);
        // JR/JALR follow a two-word li.
        self.pad_to_page_end(if through_register { 2 } else { 0 });
        if !through_register {
            let link = self.rng.one_in(2);
            let target = self.pc + 8 + 4 * skip;
            self.emit(
                jtype(if link { op::JAL } else { op::J }, target),
                Exec::Always,
            );
            let link = link.then_some(RA);
            if let Some(r) = link {
                self.wrote(r, true, Exec::Always);
            }
            self.slot_and_skipped(skip, false, link);
        } else {
            let link = self.rng.one_in(2);
            let rs = self.dst(&[ZERO]);
            let rs = if rs == ZERO { self.work[0] } else { rs };
            // After the two-word li, the jump itself is at pc + 8.
            let target = self.pc + 8 + 8 + 4 * skip;
            for w in li32(rs, target) {
                self.emit(w, Exec::Always);
            }
            self.wrote(rs, true, Exec::Always);
            if link {
                let rd = self.dst(&[rs]);
                self.emit(special(f::JALR, rs, ZERO, rd, 0), Exec::Always);
                self.wrote(rd, true, Exec::Always);
                self.slot_and_skipped(skip, false, Some(rd));
            } else {
                self.emit(special(f::JR, rs, ZERO, ZERO, 0), Exec::Always);
                self.slot_and_skipped(skip, false, None);
            }
        }
    }

    /// A counted loop: `addiu c, $zero, k` (k = 1..3), a body of 1..4
    /// simple instructions that leave c alone, `addiu c, c, -1`, and a
    /// backward BNE/BGTZ (or their likely forms) to the body, with a
    /// filled delay slot.
    pub(super) fn counted_loop(&mut self) {
        let c = self.dst(&[ZERO]);
        let c = if c == ZERO { self.work[0] } else { c };
        let trips = 1 + self.rng.below(3) as u16;
        self.emit(itype(op::ADDIU, ZERO, c, trips), Exec::Always);
        self.wrote(c, true, Exec::Always);
        self.only32 = true;
        let top = self.pc;
        for _ in 0..1 + self.rng.below(4) {
            self.simple(&[c], Exec::Always, true);
        }
        self.emit(itype(op::ADDIU, c, c, 0xffff), Exec::Always);
        let off = ((top.wrapping_sub(self.pc + 4)) as i32 >> 2) as u16;
        let (word, likely) = match self.rng.below(4) {
            0 => (itype(op::BNE, c, ZERO, off), false),
            1 => (itype(op::BGTZ, c, ZERO, off), false),
            2 => (itype(op::BNEL, c, ZERO, off), true),
            _ => (itype(op::BGTZL, c, ZERO, off), true),
        };
        self.emit(word, Exec::Always);
        self.simple(&[c], if likely { Exec::Maybe } else { Exec::Always }, true);
        self.only32 = false;
    }
}
