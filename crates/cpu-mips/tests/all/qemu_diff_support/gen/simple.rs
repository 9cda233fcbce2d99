//! The simple instructions: ALU, shifts, immediates, LUI, loads and
//! stores into the scratch area. They fill delay slots, skipped
//! instructions and loop bodies as well as the main stream.
//!
//! Contents: `Gen::simple`.

use super::{Exec, Gen, BASE};
use test_support::mips::{funct as f, itype, opcode as op, special, Gpr, ZERO};

impl Gen<'_> {
    /// One ALU, shift, load or store instruction (no HI/LO, no control
    /// transfer): what fills delay slots and skipped instructions. `avoid`
    /// registers are neither read nor written; `memory` allows loads and
    /// stores.
    pub(super) fn simple(&mut self, avoid: &[Gpr], exec: Exec, memory: bool) {
        let n32 = self.wide_ok();
        let groups = if memory { 8 } else { 5 };
        let word = match self.rng.below(groups) {
            // rd = rs op rt
            0 | 1 => {
                const ALU: [(u32, bool); 8] = [
                    (f::ADDU, true),
                    (f::SUBU, true),
                    (f::AND, false),
                    (f::OR, false),
                    (f::XOR, false),
                    (f::NOR, false),
                    (f::SLT, false),
                    (f::SLTU, false),
                ];
                let (fun, needs_sext, is64) = if n32 && self.rng.one_in(4) {
                    (self.rng.pick(&[f::DADDU, f::DSUBU]), false, true)
                } else {
                    let (fun, needs) = self.rng.pick(&ALU);
                    (fun, needs, false)
                };
                let (rs, rt) = if needs_sext {
                    (self.src_sext(avoid), self.src_sext(avoid))
                } else {
                    (self.src(avoid), self.src(avoid))
                };
                let rd = self.dst(avoid);
                let sext = match fun {
                    f::AND | f::OR | f::XOR | f::NOR => self.sext[rs.idx()] && self.sext[rt.idx()],
                    _ => !is64,
                };
                self.wrote(rd, sext, exec);
                special(fun, rs, rt, rd, 0)
            }
            // Shifts by an immediate.
            2 => {
                let sa = self.shamt();
                let (fun, sext, rt) = if n32 && self.rng.one_in(3) {
                    let fun = self.rng.pick(&[
                        f::DSLL,
                        f::DSRL,
                        f::DSRA,
                        f::DSLL32,
                        f::DSRL32,
                        f::DSRA32,
                    ]);
                    // A 32+ arithmetic right shift, or a logical one by 33+,
                    // leaves a sign-extended 32-bit value.
                    let sext = fun == f::DSRA32 || (fun == f::DSRL32 && sa > 0);
                    (fun, sext, self.src(avoid))
                } else {
                    match self.rng.pick(&[f::SLL, f::SRL, f::SRA]) {
                        // SLL reads only the low word (MIPS IV manual, SLL:
                        // "Restrictions: None").
                        f::SLL => (f::SLL, true, self.src(avoid)),
                        fun => (fun, true, self.src_sext(avoid)),
                    }
                };
                let rd = self.dst(avoid);
                self.wrote(rd, sext, exec);
                special(fun, ZERO, rt, rd, sa)
            }
            // Shifts by a register.
            3 => {
                let rs = self.src(avoid);
                let (fun, sext, rt) = if n32 && self.rng.one_in(3) {
                    (
                        self.rng.pick(&[f::DSLLV, f::DSRLV, f::DSRAV]),
                        false,
                        self.src(avoid),
                    )
                } else {
                    match self.rng.pick(&[f::SLLV, f::SRLV, f::SRAV]) {
                        f::SLLV => (f::SLLV, true, self.src(avoid)),
                        fun => (fun, true, self.src_sext(avoid)),
                    }
                };
                let rd = self.dst(avoid);
                self.wrote(rd, sext, exec);
                special(fun, rs, rt, rd, 0)
            }
            // rt = rs op immediate, LUI.
            4 => {
                let imm = self.imm16();
                let code = [
                    op::ADDIU,
                    op::SLTI,
                    op::SLTIU,
                    op::ANDI,
                    op::ORI,
                    op::XORI,
                    op::LUI,
                    op::DADDIU,
                ];
                let opc = self.rng.pick(&code[..if n32 { 8 } else { 7 }]);
                let rs = match opc {
                    op::ADDIU => self.src_sext(avoid),
                    op::LUI => ZERO,
                    _ => self.src(avoid),
                };
                let rt = self.dst(avoid);
                let sext = match opc {
                    op::ORI | op::XORI => self.sext[rs.idx()],
                    op::DADDIU => false,
                    _ => true,
                };
                self.wrote(rt, sext, exec);
                itype(opc, rs, rt, imm)
            }
            // Loads from the scratch area.
            5 | 6 => {
                // (opcode, width, naturally aligned, result sign-extended)
                const LOADS: [(u32, u32, bool, bool); 11] = [
                    (op::LB, 1, true, true),
                    (op::LBU, 1, true, true),
                    (op::LH, 2, true, true),
                    (op::LHU, 2, true, true),
                    (op::LW, 4, true, true),
                    (op::LWL, 4, false, true),
                    (op::LWR, 4, false, true),
                    (op::LWU, 4, true, false),
                    (op::LD, 8, true, false),
                    (op::LDL, 8, false, false),
                    (op::LDR, 8, false, false),
                ];
                let (opc, width, aligned, sext) = self.rng.pick(&LOADS[..if n32 { 11 } else { 7 }]);
                let rt = if opc == op::LWR {
                    // Merges into a sign-extended register only: see the
                    // module header.
                    self.src_sext(avoid)
                } else {
                    self.dst(avoid)
                };
                self.wrote(rt, sext, exec);
                let off = self.mem_off(width, aligned);
                itype(opc, BASE, rt, off)
            }
            // Stores into the scratch area.
            _ => {
                const STORES: [(u32, u32, bool); 8] = [
                    (op::SB, 1, true),
                    (op::SH, 2, true),
                    (op::SW, 4, true),
                    (op::SWL, 4, false),
                    (op::SWR, 4, false),
                    (op::SD, 8, true),
                    (op::SDL, 8, false),
                    (op::SDR, 8, false),
                ];
                let (opc, width, aligned) = self.rng.pick(&STORES[..if n32 { 8 } else { 5 }]);
                let rt = self.src(avoid);
                let off = self.mem_off(width, aligned);
                itype(opc, BASE, rt, off)
            }
        };
        self.emit(word, exec);
    }
}
