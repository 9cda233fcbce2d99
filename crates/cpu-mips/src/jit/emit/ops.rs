//! The instructions of a block, one emitter each (see `super`): integer
//! arithmetic and shifts, HI/LO, branches and jumps, the FPU's moves, and
//! loads and stores through the soft TLB, an LWL/LWR (SWL/SWR) pair as one
//! (the FPU's arithmetic is in `fp`); `call_execute` for the rest.

use super::*;

/// A shift's amount: the instruction's `sa` field or a register's low bits.
#[derive(Clone, Copy)]
enum Amount {
    Field(u8),
    Register(Reg),
}

/// Which way a shift goes.
#[derive(Clone, Copy)]
enum Shift {
    Left,
    Logical,
    Arithmetic,
}

impl Emitter<'_> {
    /// Emits instruction `i` of the block, `op` at `pc`.
    pub(super) fn op(&mut self, i: usize, op: &Op, pc: u32) {
        use Op::*;
        match *op {
            Sll { rd, rt, sa } => self.shift(rd, rt, Amount::Field(sa), Shift::Left, false),
            Srl { rd, rt, sa } => self.shift(rd, rt, Amount::Field(sa), Shift::Logical, false),
            Sra { rd, rt, sa } => self.shift(rd, rt, Amount::Field(sa), Shift::Arithmetic, false),
            Sllv { rd, rt, rs } => self.shift(rd, rt, Amount::Register(rs), Shift::Left, false),
            Srlv { rd, rt, rs } => self.shift(rd, rt, Amount::Register(rs), Shift::Logical, false),
            Srav { rd, rt, rs } => {
                self.shift(rd, rt, Amount::Register(rs), Shift::Arithmetic, false)
            }
            Dsll { rd, rt, sa } => self.shift(rd, rt, Amount::Field(sa), Shift::Left, true),
            Dsrl { rd, rt, sa } => self.shift(rd, rt, Amount::Field(sa), Shift::Logical, true),
            Dsra { rd, rt, sa } => self.shift(rd, rt, Amount::Field(sa), Shift::Arithmetic, true),
            Dsll32 { rd, rt, sa } => self.shift(rd, rt, Amount::Field(sa + 32), Shift::Left, true),
            Dsrl32 { rd, rt, sa } => {
                self.shift(rd, rt, Amount::Field(sa + 32), Shift::Logical, true)
            }
            Dsra32 { rd, rt, sa } => {
                self.shift(rd, rt, Amount::Field(sa + 32), Shift::Arithmetic, true)
            }
            Dsllv { rd, rt, rs } => self.shift(rd, rt, Amount::Register(rs), Shift::Left, true),
            Dsrlv { rd, rt, rs } => self.shift(rd, rt, Amount::Register(rs), Shift::Logical, true),
            Dsrav { rd, rt, rs } => {
                self.shift(rd, rt, Amount::Register(rs), Shift::Arithmetic, true)
            }
            Sync => {}
            Mfhi { rd } => {
                let v = self.reg(HI_REG);
                self.set(rd, v);
            }
            Mflo { rd } => {
                let v = self.reg(LO_REG);
                self.set(rd, v);
            }
            Mthi { rs } => {
                let v = self.gpr(rs);
                self.set_reg(HI_REG, v);
            }
            Mtlo { rs } => {
                let v = self.gpr(rs);
                self.set_reg(LO_REG, v);
            }
            Mult { rs, rt } => self.mult(rs, rt, true),
            Multu { rs, rt } => self.mult(rs, rt, false),
            Add { rd, rs, rt } => {
                let b = self.gpr32(rt);
                self.add32_checked(i, rd, rs, b);
            }
            Addi { rt, rs, imm } => {
                let b = self.c32(imm as i32 as u32);
                self.add32_checked(i, rt, rs, b);
            }
            Addu { rd, rs, rt } => {
                let (a, b) = (self.gpr(rs), self.gpr(rt));
                let v = self.word_op(a, b, i32::wrapping_add, |b, x, y| b.ins().iadd(x, y));
                self.set(rd, v);
            }
            Addiu { rt, rs, imm } => {
                let (a, b) = (self.gpr(rs), self.imm(imm as i64));
                let v = self.word_op(a, b, i32::wrapping_add, |b, x, y| b.ins().iadd(x, y));
                self.set(rt, v);
            }
            Sub { rd, rs, rt } => self.sub32_checked(i, rd, rs, rt),
            Subu { rd, rs, rt } => {
                let (a, b) = (self.gpr(rs), self.gpr(rt));
                let v = self.word_op(a, b, i32::wrapping_sub, |b, x, y| b.ins().isub(x, y));
                self.set(rd, v);
            }
            Daddu { rd, rs, rt } => {
                let (a, b) = (self.gpr(rs), self.gpr(rt));
                let v = self.dword_op(a, b, i64::wrapping_add, |b, x, y| b.ins().iadd(x, y));
                self.set(rd, v);
            }
            Daddiu { rt, rs, imm } => {
                let (a, b) = (self.gpr(rs), self.imm(imm as i64));
                let v = self.dword_op(a, b, i64::wrapping_add, |b, x, y| b.ins().iadd(x, y));
                self.set(rt, v);
            }
            Dsubu { rd, rs, rt } => {
                let (a, b) = (self.gpr(rs), self.gpr(rt));
                let v = self.dword_op(a, b, i64::wrapping_sub, |b, x, y| b.ins().isub(x, y));
                self.set(rd, v);
            }
            And { rd, rs, rt } => self.logic(
                rd,
                rs,
                rt,
                false,
                |x, y| x & y,
                |b, x, y| b.ins().band(x, y),
            ),
            Or { rd, rs, rt } => {
                self.logic(rd, rs, rt, true, |x, y| x | y, |b, x, y| b.ins().bor(x, y))
            }
            Xor { rd, rs, rt } => {
                self.logic(rd, rs, rt, true, |x, y| x ^ y, |b, x, y| b.ins().bxor(x, y))
            }
            Nor { rd, rs, rt } => self.logic(
                rd,
                rs,
                rt,
                false,
                |x, y| !(x | y),
                |b, x, y| {
                    let o = b.ins().bor(x, y);
                    b.ins().bnot(o)
                },
            ),
            Slt { rd, rs, rt } => self.compare(rd, rs, rt, IntCC::SignedLessThan),
            Sltu { rd, rs, rt } => self.compare(rd, rs, rt, IntCC::UnsignedLessThan),
            Slti { rt, rs, imm } => self.compare_imm(rt, rs, imm as i64, IntCC::SignedLessThan),
            Sltiu { rt, rs, imm } => self.compare_imm(rt, rs, imm as i64, IntCC::UnsignedLessThan),
            Andi { rt, rs, imm } => {
                let (a, b) = (self.gpr(rs), self.imm(imm as i64));
                let v = self.dword_op(a, b, |x, y| x & y, |b, x, y| b.ins().band(x, y));
                self.set(rt, v);
            }
            // With 0, both are moves (Cranelift, its optimiser off, would
            // make an OR or XOR of 0).
            Ori { rt, rs, imm: 0 } | Xori { rt, rs, imm: 0 } => {
                let a = self.gpr(rs);
                self.set(rt, a);
            }
            Ori { rt, rs, imm } => {
                let (a, b) = (self.gpr(rs), self.imm(imm as i64));
                let v = self.dword_op(a, b, |x, y| x | y, |b, x, y| b.ins().bor(x, y));
                self.set(rt, v);
            }
            Xori { rt, rs, imm } => {
                let (a, b) = (self.gpr(rs), self.imm(imm as i64));
                let v = self.dword_op(a, b, |x, y| x ^ y, |b, x, y| b.ins().bxor(x, y));
                self.set(rt, v);
            }
            Lui { rt, imm } => {
                let v = self.imm(((imm as u32) << 16) as i32 as i64);
                self.set(rt, v);
            }
            // --- branches and jumps ---
            Beq { rs, rt, off } => self.branch2(i, pc, off, rs, rt, IntCC::Equal, false),
            Bne { rs, rt, off } => self.branch2(i, pc, off, rs, rt, IntCC::NotEqual, false),
            Beql { rs, rt, off } => self.branch2(i, pc, off, rs, rt, IntCC::Equal, true),
            Bnel { rs, rt, off } => self.branch2(i, pc, off, rs, rt, IntCC::NotEqual, true),
            Blez { rs, off } => self.branch0(i, pc, off, rs, IntCC::SignedLessThanOrEqual, false),
            Bgtz { rs, off } => self.branch0(i, pc, off, rs, IntCC::SignedGreaterThan, false),
            Bltz { rs, off } => self.branch0(i, pc, off, rs, IntCC::SignedLessThan, false),
            Bgez { rs, off } => {
                self.branch0(i, pc, off, rs, IntCC::SignedGreaterThanOrEqual, false)
            }
            Blezl { rs, off } => self.branch0(i, pc, off, rs, IntCC::SignedLessThanOrEqual, true),
            Bgtzl { rs, off } => self.branch0(i, pc, off, rs, IntCC::SignedGreaterThan, true),
            Bltzl { rs, off } => self.branch0(i, pc, off, rs, IntCC::SignedLessThan, true),
            Bgezl { rs, off } => {
                self.branch0(i, pc, off, rs, IntCC::SignedGreaterThanOrEqual, true)
            }
            Bltzal { rs, off } | Bltzall { rs, off } | Bgezal { rs, off } | Bgezall { rs, off } => {
                let cc = if matches!(op, Bltzal { .. } | Bltzall { .. }) {
                    IntCC::SignedLessThan
                } else {
                    IntCC::SignedGreaterThanOrEqual
                };
                let likely = matches!(op, Bltzall { .. } | Bgezall { .. });
                // The operand is read before the link is written.
                let (a, zero) = (self.gpr(rs), self.imm(0));
                let cond = self.icmp_folded(cc, a, zero);
                self.link(Reg::RA, pc);
                self.transfer_sp(op);
                self.conditional(i, cond, branch_target(pc, off), likely);
            }
            J { target } => self.jump_to(op, jump_target(pc, target)),
            Jal { target } => {
                self.link(Reg::RA, pc);
                self.jump_to(op, jump_target(pc, target));
            }
            Jr { rs } => {
                let t = self.register_target(rs);
                self.transfer_sp(op);
                self.jumped(t);
            }
            Jalr { rd, rs } => {
                let t = self.register_target(rs);
                self.link(rd, pc);
                self.transfer_sp(op);
                self.jumped(t);
            }
            // --- loads and stores ---
            Lb { rt, base, off } => self.load(i, rt, base, off, 1, true),
            Lbu { rt, base, off } => self.load(i, rt, base, off, 1, false),
            Lh { rt, base, off } => self.load(i, rt, base, off, 2, true),
            Lhu { rt, base, off } => self.load(i, rt, base, off, 2, false),
            Lw { rt, base, off } => self.load(i, rt, base, off, 4, true),
            Lwu { rt, base, off } => self.load(i, rt, base, off, 4, false),
            Ld { rt, base, off } => self.load(i, rt, base, off, 8, false),
            Sb { rt, base, off } => self.store(i, rt, base, off, 1),
            Sh { rt, base, off } => self.store(i, rt, base, off, 2),
            Sw { rt, base, off } => self.store(i, rt, base, off, 4),
            Sd { rt, base, off } => self.store(i, rt, base, off, 8),
            Lwc1 { ft, base, off } if self.fpu.is_some() => {
                let v = self.load_raw(i, base, off, 4, false);
                self.set_fpr_word(ft, v);
            }
            Ldc1 { ft, base, off } if self.fpu.is_some() => {
                let v = self.load_raw(i, base, off, 8, false);
                self.set_fpr_dword(ft, v);
            }
            Swc1 { ft, base, off } if self.fpu.is_some() => {
                let v = self.fpr(ft);
                let v = self.b.ins().band_imm(v, 0xffff_ffff);
                self.store_value(i, base, off, 4, v);
            }
            Sdc1 { ft, base, off } if self.fpu.is_some() => {
                let v = self.fpr_dword(ft);
                self.store_value(i, base, off, 8, v);
            }
            Mtc1 { rt, fs } if self.fpu.is_some() => {
                let v = self.gpr(rt);
                self.set_fpr_word(fs, v);
            }
            Mfc1 { rt, fs } if self.fpu.is_some() => {
                let v = self.fpr(fs);
                let w = self.b.ins().ireduce(I32, v);
                self.set32(rt, w);
            }
            Fp(ref fop) if self.fpu.is_some() && fp::inlined(fop, self.fma) => self.fp(i, fop, pc),
            _ => self.call_execute(i, op, pc),
        }
    }

    /// Everything not inlined: the interpreter's `execute`.
    fn call_execute(&mut self, i: usize, op: &Op, pc: u32) {
        // It reads and writes the `Cpu`: registers go back first and are
        // read again after.
        self.write_back();
        self.cache = Cached::NONE;
        let st = self.call_helper_exec(self.words[i], pc);
        if op.has_delay_slot() {
            let t = self
                .b
                .ins()
                .icmp_imm(IntCC::Equal, st, status::TAKEN as i64);
            let t = self.b.ins().uextend(I64, t);
            self.set_taken(t, None);
            let target = self.field(I32, EXIT_TARGET);
            self.b.def_var(self.target, target);
            self.target_now = None;
        }
        self.exit_on_status(st, i);
    }

    /// The address of the helper at `offset` (a `HELPER_*`), read from the
    /// `Cpu` (see `JitLinks`).
    fn helper(&mut self, offset: i32) -> Value {
        self.field(self.ptr, offset)
    }

    /// Calls the interpreter's `execute` for the instruction `word` (at
    /// `pc`): its status.
    pub(super) fn call_helper_exec(&mut self, word: u32, pc: u32) -> Value {
        // It may fill or empty the soft TLB.
        self.pages = pages::Pages::NONE;
        let callee = self.helper(HELPER_EXEC);
        let word = self.c32(word);
        let pc = self.c32(pc);
        let cpu = self.b.ins().iadd_imm(self.cpu, -BIAS as i64);
        let args = [cpu, word, pc];
        let call = self.b.ins().call_indirect(self.sigs.exec, callee, &args);
        self.b.inst_results(call)[0]
    }

    /// SLL..SRAV on the low word (the result sign-extended) or, `wide`,
    /// DSLL..DSRAV on the doubleword.
    fn shift(&mut self, rd: Reg, rt: Reg, amount: Amount, kind: Shift, wide: bool) {
        let (ty, mask) = if wide { (I64, 63) } else { (I32, 31) };
        let value = |e: &mut Self, r| if wide { e.gpr(r) } else { e.gpr32(r) };
        let v = value(self, rt);
        let amount = match amount {
            Amount::Field(sa) => self.b.ins().iconst(ty, (sa & mask) as i64),
            Amount::Register(rs) => {
                let a = value(self, rs);
                self.b.ins().band_imm(a, mask as i64)
            }
        };
        let r = match kind {
            Shift::Left => self.b.ins().ishl(v, amount),
            Shift::Logical => self.b.ins().ushr(v, amount),
            Shift::Arithmetic => self.b.ins().sshr(v, amount),
        };
        if wide {
            self.set(rd, r);
        } else {
            self.set32(rd, r);
        }
    }

    /// `rd = f(rs, rt)`, 64 bits; `zero_identity`: $zero leaves the other
    /// operand as it is (OR, XOR), so that `or rd, rs, $zero`, how MIPS
    /// assemblers write `move`, is a move here too.
    fn logic(
        &mut self,
        rd: Reg,
        rs: Reg,
        rt: Reg,
        zero_identity: bool,
        fold: fn(i64, i64) -> i64,
        emit: fn(&mut FunctionBuilder, Value, Value) -> Value,
    ) {
        let v = match (zero_identity, rs.idx(), rt.idx()) {
            (true, _, 0) => self.gpr(rs),
            (true, 0, _) => self.gpr(rt),
            _ => {
                let (a, b) = (self.gpr(rs), self.gpr(rt));
                self.dword_op(a, b, fold, emit)
            }
        };
        self.set(rd, v);
    }

    fn compare(&mut self, rd: Reg, rs: Reg, rt: Reg, cc: IntCC) {
        let (a, b) = (self.gpr(rs), self.gpr(rt));
        self.set_compare(rd, cc, a, b);
    }

    fn compare_imm(&mut self, rt: Reg, rs: Reg, imm: i64, cc: IntCC) {
        let (a, b) = (self.gpr(rs), self.imm(imm));
        self.set_compare(rt, cc, a, b);
    }

    /// SLT..SLTIU: `rd` = 1 when `a cc b`, else 0.
    fn set_compare(&mut self, rd: Reg, cc: IntCC, a: Value, b: Value) {
        let v = match (self.known(a), self.known(b)) {
            (Some(x), Some(y)) => self.imm(fold::holds(cc, x, y) as i64),
            _ => {
                let c = self.b.ins().icmp(cc, a, b);
                self.b.ins().uextend(I64, c)
            }
        };
        self.set(rd, v);
    }

    /// ADD/ADDI: Integer Overflow leaves `rd` unchanged.
    fn add32_checked(&mut self, i: usize, rd: Reg, rs: Reg, b: Value) {
        let a = self.gpr32(rs);
        let r = self.b.ins().iadd(a, b);
        // Overflow: both operands' signs differ from the result's.
        let x = self.b.ins().bxor(a, r);
        let y = self.b.ins().bxor(b, r);
        let both = self.b.ins().band(x, y);
        let ov = self.b.ins().icmp_imm(IntCC::SignedLessThan, both, 0);
        self.exit_if(ov, status::FAULT, i);
        self.set32(rd, r);
    }

    /// SUB: Integer Overflow leaves `rd` unchanged.
    fn sub32_checked(&mut self, i: usize, rd: Reg, rs: Reg, rt: Reg) {
        let (a, b) = (self.gpr32(rs), self.gpr32(rt));
        let r = self.b.ins().isub(a, b);
        // Overflow: the operands' signs differ and the result's is b's.
        let x = self.b.ins().bxor(a, b);
        let y = self.b.ins().bxor(a, r);
        let both = self.b.ins().band(x, y);
        let ov = self.b.ins().icmp_imm(IntCC::SignedLessThan, both, 0);
        self.exit_if(ov, status::FAULT, i);
        self.set32(rd, r);
    }

    /// MULT/MULTU: the 64-bit product's halves, each sign-extended.
    fn mult(&mut self, rs: Reg, rt: Reg, signed: bool) {
        let (a, b) = (self.gpr32(rs), self.gpr32(rt));
        let (a, b) = if signed {
            (self.b.ins().sextend(I64, a), self.b.ins().sextend(I64, b))
        } else {
            (self.b.ins().uextend(I64, a), self.b.ins().uextend(I64, b))
        };
        let p = self.b.ins().imul(a, b);
        let lo = self.b.ins().ireduce(I32, p);
        let lo = self.b.ins().sextend(I64, lo);
        let hi = self.b.ins().sshr_imm(p, 32);
        let hi = self.b.ins().ireduce(I32, hi);
        let hi = self.b.ins().sextend(I64, hi);
        self.set_reg(LO_REG, lo);
        self.set_reg(HI_REG, hi);
    }

    // --- the FPU's registers (see `fpu::registers`) ---
    pub(super) fn fpr(&mut self, r: u8) -> Value {
        self.field(I64, fpr_offset(r))
    }
    /// MTC1/LWC1: the low word of FPR `r` from the low word of `v`; the
    /// upper half keeps its contents.
    pub(super) fn set_fpr_word(&mut self, r: u8, v: Value) {
        let old = self.fpr(r);
        let high = self.b.ins().band_imm(old, !0xffff_ffffu64 as i64);
        let low = self.b.ins().band_imm(v, 0xffff_ffff);
        let new = self.b.ins().bor(high, low);
        self.set_field(fpr_offset(r), new);
    }
    /// LDC1: the 64-bit value of FPR `r` (an even/odd pair under FR = 0).
    pub(super) fn set_fpr_dword(&mut self, r: u8, v: Value) {
        if self.fpu == Some(true) {
            self.set_field(fpr_offset(r), v);
        } else {
            let n = r & 30;
            let high = self.b.ins().ushr_imm(v, 32);
            self.set_fpr_word(n, v);
            self.set_fpr_word(n + 1, high);
        }
    }
    /// SDC1: the 64-bit value of FPR `r`.
    pub(super) fn fpr_dword(&mut self, r: u8) -> Value {
        if self.fpu == Some(true) {
            self.fpr(r)
        } else {
            let n = r & 30;
            let low = self.fpr(n);
            let low = self.b.ins().band_imm(low, 0xffff_ffff);
            let high = self.fpr(n + 1);
            let high = self.b.ins().ishl_imm(high, 32);
            self.b.ins().bor(high, low)
        }
    }

    // --- control ---
    /// Writes the return address (the instruction after the delay slot).
    fn link(&mut self, rd: Reg, pc: u32) {
        let v = self.imm(pc.wrapping_add(8) as i32 as i64);
        self.set(rd, v);
    }
    /// Keeps $sp as it is at a call, return or jump, for an observer of
    /// transfers (the delay slot may change it): the paths that return to
    /// the run loop leave it (`leave_sp`); a chained block needs none.
    fn transfer_sp(&mut self, op: &Op) {
        if Transfer::kind_of(op).is_some() {
            self.transfer_sp = TransferSp::InSp;
        }
    }
    fn jump_to(&mut self, op: &Op, target: u32) {
        self.transfer_sp(op);
        let t = self.c32(target);
        self.jumped(t);
        self.target_now = Some(target);
    }
    /// An unconditional transfer to `target` (an I32).
    fn jumped(&mut self, target: Value) {
        self.b.def_var(self.target, target);
        self.target_now = None;
        let one = self.imm(1);
        self.set_taken(one, Some(true));
    }
    /// The target of JR/JALR: the register's low word, the register kept
    /// as the block's `wide_target`. A value outside the sign-extended
    /// 32-bit range jumps to a kernel address (the low word with bit 31
    /// set), as the interpreter folds it; a program never holds one in
    /// 32-bit mode but through the 64-bit logical operations, so the fold
    /// is made only where the target leaves the function, on its cold
    /// paths (see `folded_target`), and a chain compares the whole
    /// register with the jump table's PCs, which no such value equals.
    fn register_target(&mut self, rs: Reg) -> Value {
        let v = self.gpr(rs);
        self.wide_target = Some(v);
        self.b.ins().ireduce(I32, v)
    }
    /// The target as it leaves the function: folded where it came from a
    /// register that is not a sign-extended word (see `register_target`).
    pub(super) fn folded_target(&mut self) -> Value {
        let lo = self.target_value();
        match self.wide_target {
            Some(v) => self.fold(lo, v),
            None => lo,
        }
    }
    /// The branch's target (an I32) where it is used: a constant made there
    /// where the compiler knows it (`target_now`), so that no host register
    /// carries it from the branch; else the variable `target`.
    pub(super) fn target_value(&mut self) -> Value {
        match self.target_now {
            Some(t) => self.c32(t),
            None => self.b.use_var(self.target),
        }
    }
    /// `lo`, the low word of the register `v` a jump took its target from,
    /// with bit 31 set unless `v` is its sign extension.
    pub(super) fn fold(&mut self, lo: Value, v: Value) -> Value {
        let back = self.b.ins().sextend(I64, lo);
        let ok = self.b.ins().icmp(IntCC::Equal, back, v);
        let high = self.c32(0x8000_0000);
        let folded = self.b.ins().bor(lo, high);
        self.b.ins().select(ok, lo, folded)
    }
    /// A conditional branch on `cond` (an I8 truth value).
    fn conditional(&mut self, i: usize, cond: Value, target: u32, likely: bool) {
        // A branch the translator can decide (`b`, which is BEQ $zero,
        // $zero) is taken or not at compile time, and its block ends as a
        // jump's does.
        let known = self.known(cond).map(|c| c != 0);
        if likely && known != Some(true) {
            let not = self.b.ins().icmp_imm(IntCC::Equal, cond, 0);
            self.exit_if(not, status::SKIP, i);
        }
        let t = self.c32(target);
        self.b.def_var(self.target, t);
        self.target_now = Some(target);
        if likely {
            // Past the SKIP exit, a branch-likely is taken.
            let one = self.imm(1);
            self.set_taken(one, Some(true));
        } else if let Some(t) = known {
            let c = self.imm(t as i64);
            self.set_taken(c, Some(t));
        } else {
            let c = self.b.ins().uextend(I64, cond);
            self.set_taken(c, None);
        }
    }
    #[allow(clippy::too_many_arguments)]
    fn branch2(&mut self, i: usize, pc: u32, off: i16, rs: Reg, rt: Reg, cc: IntCC, likely: bool) {
        let cond = if rs == rt {
            // BEQ r, r is always taken and BNE r, r never, whatever r
            // holds.
            self.b.ins().iconst(I8, fold::holds(cc, 0, 0) as i64)
        } else {
            let (a, b) = (self.gpr(rs), self.gpr(rt));
            self.icmp_folded(cc, a, b)
        };
        self.conditional(i, cond, branch_target(pc, off), likely);
    }
    fn branch0(&mut self, i: usize, pc: u32, off: i16, rs: Reg, cc: IntCC, likely: bool) {
        let (a, zero) = (self.gpr(rs), self.imm(0));
        let cond = self.icmp_folded(cc, a, zero);
        self.conditional(i, cond, branch_target(pc, off), likely);
    }

    // --- memory ---
    /// Makes `access` (given the host address, it emits the host load or
    /// store and returns what a load read) of the `bytes` at `base + off`,
    /// for an aligned user access whose page is in the soft TLB's table
    /// for stores (`write`) or for loads (see `tlb`). Anything else
    /// (another page, a misaligned or kernel address) leaves the block at
    /// instruction `i` with `MISS_STORE` or `MISS_LOAD`, nothing of the
    /// access done and its effective address in `Cpu::jit_exit.value`: the
    /// block tier runs the rest of the block and fills the table (see
    /// `tier`). Compiled code makes no call for memory, so a block without
    /// `execute` calls keeps every value in a register the call would have
    /// taken. An access through a register an earlier one in the block
    /// went through first compares its address with that page (see
    /// `pages`).
    fn direct(
        &mut self,
        i: usize,
        base: Reg,
        off: i16,
        bytes: u32,
        write: bool,
        access: impl Fn(&mut Self, Value, i32, MemFlags) -> Option<Value>,
    ) -> Option<Value> {
        let (table, miss) = table_and_miss(write);
        if let Some(code) = self.view_site(i, miss) {
            return self.through_view(i, base, off, bytes, miss, code, access);
        }
        let access = |e: &mut Self, host| access(e, host, 0, Self::flags());
        let near = self
            .pages
            .get(base, write)
            .and_then(|seen| Some((seen, seen.distance(off, bytes)?)));
        match near {
            Some((seen, d)) => {
                let in_page = self.in_page(base, write, seen);
                self.on_page(seen.addend, in_page, d, |e, there| {
                    let ea = e.effective_address(base, off);
                    let addend = match there {
                        Some(addend) => addend,
                        None => e.lookup(i, ea, bytes, table, miss),
                    };
                    let host = e.host_address(addend, ea);
                    access(e, host)
                })
            }
            None => {
                let ea = self.effective_address(base, off);
                let addend = self.lookup(i, ea, bytes, table, miss);
                let seen = pages::Seen {
                    addend,
                    ea,
                    off,
                    bytes,
                    in_page: None,
                };
                self.pages.note(base, write, seen);
                let host = self.host_address(addend, ea);
                access(self, host)
            }
        }
    }

    /// Where the access at instruction `i` (whose soft TLB miss would end
    /// the block with `miss`) may go through the view of guest memory: its
    /// trap code, the number of its new site (see `trap`). Only where $sp at
    /// a transfer is still in $sp (the miss's exit would leave the value
    /// kept, which a fault handler cannot find). What only the run knows
    /// is written to the `Cpu` first, for the handler: in a block that loops to itself, the registers it keeps in
    /// host registers and changed (see `self_loop`); in the delay slot of a
    /// conditional branch, its outcome (`Site::TAKEN_AT_RUN`); in the slot
    /// of a jump through a register, the register (`Site::TARGET_AT_RUN`).
    /// A store each, where the soft TLB's lookup is about ten instructions
    /// and a register or two.
    fn view_site(&mut self, i: usize, miss: u32) -> Option<TrapCode> {
        self.view?;
        let (taken, target, at_run) = match (self.taken_now, self.wide_target) {
            (Some(false), _) => (false, 0, 0),
            (Some(true), Some(_)) => (true, 0, Site::TARGET_AT_RUN),
            (Some(true), None) => (true, self.target_now?, 0),
            (None, _) => (false, self.target_now?, Site::TAKEN_AT_RUN),
        };
        let flags = match self.transfer_sp {
            TransferSp::None => at_run,
            TransferSp::InSp => at_run | Site::SP,
            TransferSp::Kept(_) => return None,
        };
        let code = TrapCode::user(u8::try_from(self.sites.len() + 1).ok()?)?;
        self.write_back();
        self.cache.dirty = [false; CACHED];
        match (at_run, self.wide_target) {
            (Site::TAKEN_AT_RUN, _) => {
                let t = self.b.use_var(self.taken);
                self.set_field(EXIT_TAKEN, t);
            }
            (Site::TARGET_AT_RUN, Some(v)) => self.set_field(EXIT_JUMP, v),
            _ => {}
        }
        let word = status::encode(miss, i)
            | (self.member as u64) << status::MEMBER_SHIFT
            | (taken as u64) << status::TAKEN_SHIFT;
        self.sites.push(Site {
            offset: 0,
            pc: self.head_pc,
            target,
            flags,
            word,
        });
        Some(code)
    }

    /// Makes `access` of the `bytes` at `base + off` through the view
    /// (see `view`): a host access at the view's base plus the register,
    /// at `off`, with trap code `code`, where a page the view does not hold
    /// faults (see `trap`), and so does an address out of user space (the
    /// register holds a 32-bit value sign-extended: see `view::BELOW`).
    /// A misaligned address leaves the block at `i` with `miss`, as a soft
    /// TLB miss does, unless an earlier access through the register,
    /// unchanged, proves the alignment (see `pages::Checked`). The check
    /// is one compare: the address's low word rotated right by the
    /// access's alignment bits, which brings a misaligned address's low
    /// bits to the top, is below 4 GiB shifted by as much exactly when the
    /// address is aligned. Where the offset is a multiple of the size, the
    /// register's own low word has the address's alignment; a constant
    /// register's is known.
    #[allow(clippy::too_many_arguments)]
    fn through_view(
        &mut self,
        i: usize,
        base: Reg,
        off: i16,
        bytes: u32,
        miss: u32,
        code: TrapCode,
        access: impl Fn(&mut Self, Value, i32, MemFlags) -> Option<Value>,
    ) -> Option<Value> {
        let checked = self.pages.checked(base).filter(|c| c.covers(off, bytes));
        let reg = match checked {
            Some(c) => c.reg,
            None => self.gpr(base),
        };
        if checked.is_none() {
            let aligned = |c: i64| c.wrapping_add(off as i64) & (bytes as i64 - 1) == 0;
            if bytes > 1 && !self.known(reg).is_some_and(aligned) {
                self.leave_if_misaligned(i, reg, off, bytes, miss);
            }
            self.pages
                .note_checked(base, pages::Checked { off, bytes, reg });
        }
        let view = self.view.expect("an access through the view has its base");
        let host = self.host_address(view, reg);
        access(
            self,
            host,
            off as i32,
            MemFlags::new().with_trap_code(Some(code)),
        )
    }

    /// Leaves the block at `i` with `miss` (as a soft TLB miss does) when
    /// `reg + off` is not aligned for an access of `bytes` (see
    /// `through_view`).
    fn leave_if_misaligned(&mut self, i: usize, reg: Value, off: i16, bytes: u32, miss: u32) {
        let k = bytes.trailing_zeros();
        let tested = match (off as i64).rem_euclid(bytes as i64) {
            0 => reg,
            _ => self.plus_offset(reg, off),
        };
        let low = self.b.ins().ireduce(I32, tested);
        let rotated = self.b.ins().rotr_imm(low, k as i64);
        let limit = (1u32 << (32 - k)) as i32 as i64;
        let bad = self
            .b
            .ins()
            .icmp_imm(IntCC::UnsignedGreaterThanOrEqual, rotated, limit);
        self.leave_if(bad, i, |e| {
            let ea = e.plus_offset(reg, off);
            e.set_field(EXIT_VALUE, ea);
            e.imm((miss as i64) << status::KIND_SHIFT)
        });
    }

    /// `base + off` (an I64).
    fn effective_address(&mut self, base: Reg, off: i16) -> Value {
        let b = self.gpr(base);
        self.plus_offset(b, off)
    }

    /// `reg + off`, `reg` itself where `off` is 0.
    fn plus_offset(&mut self, reg: Value, off: i16) -> Value {
        match off {
            0 => reg,
            _ => self.b.ins().iadd_imm(reg, off as i64),
        }
    }

    /// The soft TLB's page for the `bytes` at `ea`, an address the caller
    /// computed, or the block left at `i` (see [`Emitter::direct`]).
    fn lookup(&mut self, i: usize, ea: Value, bytes: u32, table: i32, miss: u32) -> Value {
        // The entry's offset in the table: (page number mod entries) times
        // the entry's size, in one rotation and one mask where the size is a
        // power of two.
        let size = size_of::<TlbEntry>();
        let off = if size.is_power_of_two() && size.trailing_zeros() <= PAGE_SHIFT {
            let shift = PAGE_SHIFT - size.trailing_zeros();
            // A rotation, not a shift: the bits the mask keeps are the
            // same, and a host with BMI2 rotates into another register
            // (`rorx`) where a shift would first copy the address.
            let scaled = self.b.ins().rotr_imm(ea, shift as i64);
            self.b
                .ins()
                .band_imm(scaled, ((TLB_ENTRIES - 1) * size) as i64)
        } else {
            let page = self.b.ins().ushr_imm(ea, PAGE_SHIFT as i64);
            let idx = self.b.ins().band_imm(page, (TLB_ENTRIES - 1) as i64);
            self.b.ins().imul_imm(idx, size as i64)
        };
        let off = if self.ptr == I64 {
            off
        } else {
            self.b.ins().ireduce(self.ptr, off)
        };
        // The table is in the `Cpu`: its entry is at a constant offset
        // from the `Cpu` plus `off`, one addressing mode.
        let e = self.b.ins().iadd(self.cpu, off);
        let table = TLB - BIAS + table;
        // Where the address and the tag differ, less the in-page bits an
        // aligned access may have set: none only for an aligned access on
        // the tag's page (see `tlb`). An exclusive or, so that the tag is
        // read from memory by the instruction that uses it: a compare that
        // a branch tests takes its operands in registers, and one register
        // more in every lookup was a callee-saved one in many blocks.
        let tag = self.b.ins().load(I64, Self::flags(), e, table + TLB_TAG);
        let differ = self.b.ins().bxor(ea, tag);
        let missed = self.b.ins().band_imm(differ, page_mask(bytes));
        self.leave_if(missed, i, |e| {
            e.set_field(EXIT_VALUE, ea);
            e.imm((miss as i64) << status::KIND_SHIFT)
        });
        self.b
            .ins()
            .load(self.ptr, Self::flags(), e, table + TLB_ADDEND)
    }

    /// Where in its page the anchor `seen` (through `base`, in the write
    /// table or not) was, computed for its first follower.
    fn in_page(&mut self, base: Reg, write: bool, seen: pages::Seen) -> Value {
        if let Some(v) = seen.in_page {
            return v;
        }
        let v = self.b.ins().band_imm(seen.ea, (1 << PAGE_SHIFT) - 1);
        let seen = pages::Seen {
            in_page: Some(v),
            ..seen
        };
        self.pages.note(base, write, seen);
        v
    }

    /// Makes an access `d` bytes from an anchor that found the page of
    /// host addend `addend`, `in_page` into it (see `pages`): `access`
    /// given `Some(addend)` when the access is on that page too, else, on
    /// a cold path, given `None` (it looks its own page up). Each path
    /// makes the access itself, and only what a load read joins them: a
    /// host addend joined instead cost a move on the hot path wherever the
    /// anchor's stayed live for a later access.
    fn on_page(
        &mut self,
        addend: Value,
        in_page: Value,
        d: i64,
        access: impl Fn(&mut Self, Option<Value>) -> Option<Value>,
    ) -> Option<Value> {
        let page = 1 << PAGE_SHIFT;
        let other_page = match d {
            0 => return access(self, Some(addend)),
            1.. => self
                .b
                .ins()
                .icmp_imm(IntCC::UnsignedGreaterThanOrEqual, in_page, page - d),
            _ => self.b.ins().icmp_imm(IntCC::UnsignedLessThan, in_page, -d),
        };
        let (same, other, join) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.set_cold_block(other);
        self.b.ins().brif(other_page, other, &[], same, &[]);
        self.b.seal_block(same);
        self.b.seal_block(other);
        self.b.switch_to_block(same);
        let read = access(self, Some(addend));
        let joined = read.map(|v| {
            let ty = self.b.func.dfg.value_type(v);
            self.b.append_block_param(join, ty)
        });
        self.b.ins().jump(join, read.as_slice());
        self.b.switch_to_block(other);
        let there = access(self, None);
        // The lookup's hit path is as cold as its miss.
        let hit = self.b.current_block().expect("the lookup goes on");
        self.b.set_cold_block(hit);
        self.b.ins().jump(join, there.as_slice());
        self.b.seal_block(join);
        self.b.switch_to_block(join);
        joined
    }

    /// The host address of guest address `ea` on a page with `addend`.
    fn host_address(&mut self, addend: Value, ea: Value) -> Value {
        let ea = if self.ptr == I64 {
            ea
        } else {
            self.b.ins().ireduce(self.ptr, ea)
        };
        self.b.ins().iadd(addend, ea)
    }

    /// An unaligned word at `base + off` loaded into `rt` (`store`:
    /// `rt` stored there), big-endian: what an LWL and LWR pair (or SWL and
    /// SWR) at `off` and `off + 3` do together (see [`unaligned_pair`]).
    /// Both run or neither: a word that crosses a page, or a page not in
    /// the soft TLB, leaves the block at the pair's first instruction `i`
    /// as [`Emitter::direct`] does, and the block tier runs both.
    pub(super) fn unaligned_word(&mut self, i: usize, rt: Reg, base: Reg, off: i16, store: bool) {
        let (table, miss) = table_and_miss(store);
        let ea = self.effective_address(base, off);
        let in_page = self.b.ins().band_imm(ea, (1 << PAGE_SHIFT) - 1);
        let crosses =
            self.b
                .ins()
                .icmp_imm(IntCC::UnsignedGreaterThan, in_page, (1 << PAGE_SHIFT) - 4);
        self.leave_if(crosses, i, |e| {
            e.set_field(EXIT_VALUE, ea);
            e.imm((miss as i64) << status::KIND_SHIFT)
        });
        let addend = self.lookup(i, ea, 1, table, miss);
        let host = self.host_address(addend, ea);
        // Not `aligned`, unlike every other access compiled code makes.
        let flags = MemFlags::new().with_notrap();
        if store {
            let v = self.gpr32(rt);
            let v = self.b.ins().bswap(v);
            self.b.ins().store(flags, v, host, 0);
        } else {
            let v = self.b.ins().load(I32, flags, host, 0);
            let v = self.b.ins().bswap(v);
            self.set32(rt, v);
        }
    }

    /// A load of `bytes` into `rt`, sign-extended when `signed`.
    fn load(&mut self, i: usize, rt: Reg, base: Reg, off: i16, bytes: u32, signed: bool) {
        let v = self.load_raw(i, base, off, bytes, signed);
        self.set(rt, v);
    }

    /// The `bytes` at `base + off`, sign- or zero-extended to an I64.
    fn load_raw(&mut self, i: usize, base: Reg, off: i16, bytes: u32, signed: bool) -> Value {
        if bytes == 1 {
            // One host load that extends as it reads (a load of the byte and
            // an extension are two, the optimiser being off).
            return self
                .direct(i, base, off, 1, false, |e, p, at, flags| {
                    Some(match signed {
                        true => e.b.ins().sload8(I64, flags, p, at),
                        false => e.b.ins().uload8(I64, flags, p, at),
                    })
                })
                .expect("a load reads");
        }
        let ty = int_type(bytes);
        let raw = self
            .direct(i, base, off, bytes, false, |e, p, at, flags| {
                Some(e.b.ins().load(ty, flags, p, at))
            })
            .expect("a load reads");
        let raw = if bytes > 1 {
            self.b.ins().bswap(raw)
        } else {
            raw
        };
        match (bytes < 8, signed) {
            (false, _) => raw,
            (true, true) => self.b.ins().sextend(I64, raw),
            (true, false) => self.b.ins().uextend(I64, raw),
        }
    }

    /// A store of the low `bytes` of `rt` (the store table never holds a
    /// page of decoded code).
    fn store(&mut self, i: usize, rt: Reg, base: Reg, off: i16, bytes: u32) {
        let v = self.gpr(rt);
        self.store_value(i, base, off, bytes, v);
    }

    /// Stores the low `bytes` of `v` (an I64) at `base + off`.
    fn store_value(&mut self, i: usize, base: Reg, off: i16, bytes: u32, v: Value) {
        let ty = int_type(bytes);
        let n = if bytes < 8 {
            self.b.ins().ireduce(ty, v)
        } else {
            v
        };
        let n = if bytes > 1 { self.b.ins().bswap(n) } else { n };
        self.direct(i, base, off, bytes, true, |e, p, at, flags| {
            e.b.ins().store(flags, n, p, at);
            None
        });
    }
}

/// The soft TLB's table for stores (`write`) or for loads, and how an
/// access that misses it leaves the block.
fn table_and_miss(write: bool) -> (i32, u32) {
    match write {
        false => (TLB_READ, status::MISS_LOAD),
        true => (TLB_WRITE, status::MISS_STORE),
    }
}

/// The bits of an address that must equal a page's tag for an aligned
/// access of `bytes` on it: the page number and the low bits an aligned
/// address has clear.
fn page_mask(bytes: u32) -> i64 {
    (-1i64 << PAGE_SHIFT) | (bytes as i64 - 1)
}

/// Two instructions that together load or store the unaligned word at
/// `base + off` into or from `rt`: LWL at `off` and LWR at `off + 3` (or
/// SWL and SWR), in either order (big-endian: LWL takes the bytes from the
/// address to the end of its aligned word into the register's high end,
/// LWR those from the start of its word to the address into the low end;
/// together the four bytes, sign-extended). How IDO's code copies a word
/// it cannot prove aligned. A load whose `rt` is its `base` is no pair:
/// the first would move the second's address. `Some((rt, base, off,
/// store))`.
pub(super) fn unaligned_pair(first: &Op, second: &Op) -> Option<(Reg, Reg, i16, bool)> {
    let (a, b) = (word_part(first)?, word_part(second)?);
    let (left, right) = if a.left { (a, b) } else { (b, a) };
    let pair = left.left
        && !right.left
        && left.store == right.store
        && (left.rt, left.base) == (right.rt, right.base)
        && left.off.checked_add(3) == Some(right.off);
    let moves_base = !left.store && left.rt == left.base;
    (pair && !moves_base).then_some((left.rt, left.base, left.off, left.store))
}

/// One of LWL, LWR, SWL, SWR: which end of the word it moves (`left`: the
/// register's high-order end), whether it stores, and its operands.
#[derive(Clone, Copy)]
struct WordPart {
    left: bool,
    store: bool,
    rt: Reg,
    base: Reg,
    off: i16,
}

fn word_part(op: &Op) -> Option<WordPart> {
    let (left, store, rt, base, off) = match *op {
        Op::Lwl { rt, base, off } => (true, false, rt, base, off),
        Op::Lwr { rt, base, off } => (false, false, rt, base, off),
        Op::Swl { rt, base, off } => (true, true, rt, base, off),
        Op::Swr { rt, base, off } => (false, true, rt, base, off),
        _ => return None,
    };
    Some(WordPart {
        left,
        store,
        rt,
        base,
        off,
    })
}

/// The integer type of an access of `bytes`.
fn int_type(bytes: u32) -> Type {
    match bytes {
        1 => I8,
        2 => I16,
        4 => I32,
        _ => I64,
    }
}
