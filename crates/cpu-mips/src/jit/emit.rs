//! Translation of one block (see `block`) into Cranelift IR, and of the
//! two small functions around blocks (the entry from Rust, and the one an
//! empty jump-table entry holds).
//!
//! Contents: `translate` and its `Emitter`, which emits each instruction:
//! integer arithmetic, shifts, HI/LO moves and multiplies, branches and
//! jumps, aligned loads and stores (straight to host memory when the soft
//! TLB has the page, see `tlb`), and the FP moves, loads and stores inline;
//! everything else (FP arithmetic, divides, traps, unaligned and linked
//! accesses) as a call to the interpreter's own `execute` through
//! `helpers`.
//!
//! A compiled block is `fn(cpu, mem, deadline) -> u64` in Cranelift's
//! `tail` convention and does what the block tier does with its block,
//! with the block's static schedule as constants. It first checks that the
//! schedule holds (else it returns INTERPRET, having changed nothing). It
//! then does what the block tier's per-instruction loop does to the
//! registers and memory, in the same order, with the registers held in
//! Cranelift variables (`Cached`) and written back to the `Cpu` wherever
//! something else may look. At the block's end it applies the clock, the
//! retired counts, the scoreboard and the PC in one step, and tail-calls
//! the next block when that one is compiled and chaining is allowed.
//! Anything else returns to the caller with the state of just before the
//! instruction that stopped it (and the block's address in
//! `Cpu::jit_exit`), and the caller applies the timing (see `block_run`).
//! The result (see `super::status`) says how the block ended: at its end,
//! at a branch-likely that nullified its delay slot, at an instruction that
//! faulted (which had no effect), or just after a store into decoded code,
//! with the index of that instruction and whether the branch was taken
//! (its target is then in `Cpu::jit_exit`).

use std::mem::offset_of;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I16, I32, I64, I8};
use cranelift_codegen::ir::{
    AbiParam, Function, InstBuilder, MemFlags, SigRef, Signature, Type, Value,
};
use cranelift_codegen::isa::CallConv;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};

use super::helpers::{Helpers, LOAD_FAILED};
use super::status;
use super::tlb::{TlbEntry, TLB_ENTRIES};
use super::{JumpEntry, Tlb, JUMP_ENTRIES};
use crate::block::Block;
use crate::code_cache::PAGE_SHIFT;
use crate::cp0::status as cp0_status;
use crate::cpu::{Cpu, JitExit};
use crate::decode::Op;
use crate::exec::USER_TOP;
use crate::fpu::Fpu;
use crate::insn::{branch_target, jump_target, Reg};
use crate::timing::{Scoreboard, BRANCH_BUBBLES, ISSUE_CYCLES};
use crate::{Cp0, Transfer};

/// Where GPR `r` is, from the `cpu` argument (so for every field below).
fn gpr_offset(r: Reg) -> i32 {
    (offset_of!(Cpu, gpr) + 8 * r.idx()) as i32
}
/// Where slot `s` of the scoreboard is.
fn slot_offset(s: u8) -> i32 {
    (offset_of!(Cpu, scoreboard) + Scoreboard::slot_offset(s)) as i32
}
const HI: i32 = offset_of!(Cpu, hi) as i32;
const CP0_STATUS: i32 = (offset_of!(Cpu, cp0) + offset_of!(Cp0, status)) as i32;
/// Where FPR `r`'s 64-bit slot is.
fn fpr_offset(r: u8) -> i32 {
    (offset_of!(Cpu, fpu) + offset_of!(Fpu, fpr) + 8 * (r as usize & 31)) as i32
}

/// The FP moves, loads and stores the translator inlines (under the
/// Status they were compiled for).
fn inlined_fp_move(op: &Op) -> bool {
    matches!(
        op,
        Op::Lwc1 { .. }
            | Op::Ldc1 { .. }
            | Op::Swc1 { .. }
            | Op::Sdc1 { .. }
            | Op::Mtc1 { .. }
            | Op::Mfc1 { .. }
    )
}
const TLB_READ: i32 = (offset_of!(Cpu, tlb) + offset_of!(Tlb, read)) as i32;
const TLB_WRITE: i32 = (offset_of!(Cpu, tlb) + offset_of!(Tlb, write)) as i32;
const TLB_PAGE: i32 = offset_of!(TlbEntry, page) as i32;
const TLB_HOST: i32 = offset_of!(TlbEntry, host) as i32;
const CYCLES: i32 = offset_of!(Cpu, cycles) as i32;
const RETIRED: i32 = offset_of!(Cpu, retired) as i32;
const RETIRED_IN_BLOCKS: i32 = offset_of!(Cpu, retired_in_blocks) as i32;
const RETIRED_COMPILED: i32 = offset_of!(Cpu, retired_compiled) as i32;
const PC: i32 = offset_of!(Cpu, pc) as i32;
const NEXT_PC: i32 = offset_of!(Cpu, next_pc) as i32;
const LO: i32 = offset_of!(Cpu, lo) as i32;
const EXIT_TARGET: i32 = (offset_of!(Cpu, jit_exit) + offset_of!(JitExit, target)) as i32;
const EXIT_SP: i32 = (offset_of!(Cpu, jit_exit) + offset_of!(JitExit, sp)) as i32;
const EXIT_VALUE: i32 = (offset_of!(Cpu, jit_exit) + offset_of!(JitExit, value)) as i32;
const EXIT_BLOCK: i32 = (offset_of!(Cpu, jit_exit) + offset_of!(JitExit, block)) as i32;
const CHAIN: i32 = offset_of!(Cpu, jit_chain) as i32;

/// The signature of a compiled block: `(cpu, mem, deadline) -> status`.
pub(super) fn block_signature(call_conv: CallConv, ptr: Type) -> Signature {
    let mut sig = Signature::new(call_conv);
    sig.params.push(AbiParam::new(ptr));
    sig.params.push(AbiParam::new(ptr));
    sig.params.push(AbiParam::new(I64));
    sig.returns.push(AbiParam::new(I64));
    sig
}

/// The signature of the entry from Rust: `(cpu, mem, deadline, code) ->
/// status`.
pub(super) fn enter_signature(call_conv: CallConv, ptr: Type) -> Signature {
    let mut sig = block_signature(call_conv, ptr);
    sig.params.push(AbiParam::new(ptr));
    sig
}

/// The entry from Rust: calls the block whose code is its last argument
/// (a function of the `tail` convention, as blocks chain by tail calls).
pub(super) fn translate_enter(
    func: &mut Function,
    fctx: &mut FunctionBuilderContext,
    ptr: Type,
    tail: CallConv,
) {
    let mut b = FunctionBuilder::new(func, fctx);
    let sig = b.import_signature(block_signature(tail, ptr));
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let p = b.block_params(entry).to_vec();
    let call = b.ins().call_indirect(sig, p[3], &p[..3]);
    let ret = b.inst_results(call)[0];
    b.ins().return_(&[ret]);
    b.finalize();
}

/// A block-shaped function that returns INTERPRET: what an empty jump
/// table entry chains to.
pub(super) fn translate_bail(func: &mut Function, fctx: &mut FunctionBuilderContext, _ptr: Type) {
    let mut b = FunctionBuilder::new(func, fctx);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let ret = b
        .ins()
        .iconst(I64, status::encode(status::INTERPRET, 0) as i64);
    b.ins().return_(&[ret]);
    b.finalize();
}

/// The helpers' signatures, imported into the function.
struct Sigs {
    /// `(cpu, mem, op, pc) -> u32`
    exec: SigRef,
    /// `(cpu, mem, addr) -> u64`
    load: SigRef,
    /// `(cpu, mem, addr) -> u32`
    load64: SigRef,
    /// `(cpu, mem, addr, value) -> u32`
    store: SigRef,
    /// A compiled block's own, for chaining.
    block: SigRef,
}

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

/// What a compiled block is compiled against: the helpers it calls, the
/// jump table it chains through (its address) and the CP0 Status of the
/// CPU it is compiled for.
pub(super) struct Setting<'a> {
    pub helpers: &'a Helpers,
    pub jump: usize,
    pub status: u32,
}

/// Translates `block` (at `pc0`) into `func`, whose signature is
/// [`block_signature`].
pub(super) fn translate(
    func: &mut Function,
    fctx: &mut FunctionBuilderContext,
    block: &Block,
    pc0: u32,
    setting: Setting,
    ptr: Type,
) {
    let Setting {
        helpers,
        jump,
        status: status_bits,
    } = setting;
    let call_conv = func.signature.call_conv;
    let mut b = FunctionBuilder::new(func, fctx);
    let sig = |params: &[Type], ret| {
        let mut s = Signature::new(call_conv);
        s.params.extend(params.iter().map(|&t| AbiParam::new(t)));
        s.returns.push(AbiParam::new(ret));
        s
    };
    let sigs = Sigs {
        exec: b.import_signature(sig(&[ptr, ptr, ptr, I32], I32)),
        load: b.import_signature(sig(&[ptr, ptr, I32], I64)),
        load64: b.import_signature(sig(&[ptr, ptr, I32], I32)),
        store: b.import_signature(sig(&[ptr, ptr, I32, I64], I32)),
        block: b.import_signature(block_signature(call_conv, ptr)),
    };
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let cpu = b.block_params(entry)[0];
    let mem = b.block_params(entry)[1];
    let deadline = b.block_params(entry)[2];
    let taken = Variable::from_u32(0);
    b.declare_var(taken, I64);
    let target = Variable::from_u32(1);
    b.declare_var(target, I32);
    let zero = b.ins().iconst(I64, 0);
    b.def_var(taken, zero);
    let zero32 = b.ins().iconst(I32, 0);
    b.def_var(target, zero32);
    for c in 0..CACHED {
        b.declare_var(cached_var(c), I64);
    }
    let mut e = Emitter {
        b,
        cpu,
        mem,
        deadline,
        taken,
        target,
        sigs,
        helpers,
        ptr,
        block: block as *const Block as usize,
        jump,
        // The FP moves are inlined only for the Status they were compiled
        // under (checked at entry), and only where CP1 is usable.
        fpu: (status_bits & cp0_status::CU1 != 0).then_some(status_bits & cp0_status::FR != 0),
        cache: Cached::NONE,
    };
    let entry_cycle = e.field(I64, CYCLES);
    e.check_schedule(block, entry_cycle, deadline);
    for (i, insn) in block.insns.iter().enumerate() {
        let pc = pc0.wrapping_add(4 * i as u32);
        e.op(i, &insn.op, pc);
    }
    e.complete(block, pc0, entry_cycle);
    e.b.finalize();
}

struct Emitter<'a, 'f> {
    b: FunctionBuilder<'f>,
    cpu: Value,
    mem: Value,
    deadline: Value,
    /// 1 once the block's branch is taken.
    taken: Variable,
    /// The branch's target (an I32), once taken.
    target: Variable,
    sigs: Sigs,
    helpers: &'a Helpers,
    ptr: Type,
    /// The block's address, left for the caller at an early end.
    block: usize,
    /// The jump table's address (see `super::JumpEntry`).
    jump: usize,
    /// Status.FR when the FP moves, loads and stores are inlined (CP1
    /// usable when compiled); `None` leaves them to `execute`.
    fpu: Option<bool>,
    cache: Cached,
}

/// Cached registers: GPRs 1-31, HI and LO.
const CACHED: usize = 34;
const HI_REG: usize = 32;
const LO_REG: usize = 33;

/// What the translator knows of the registers at the point it is emitting:
/// a register whose value is in its Cranelift variable (`known`), and one
/// whose variable is newer than the `Cpu` (`dirty`). A block's control flow
/// only runs forward and rejoins (or leaves), so one such state describes
/// every path at each point. Registers are read from the `Cpu` once and
/// written back at the block's end, at each exit, and before each call of
/// `execute`, which sees and changes the `Cpu` itself.
#[derive(Clone, Copy)]
struct Cached {
    known: [bool; CACHED],
    dirty: [bool; CACHED],
}

impl Cached {
    /// Nothing known: every register is read from the `Cpu` first.
    const NONE: Cached = Cached {
        known: [false; CACHED],
        dirty: [false; CACHED],
    };
}

/// The variable of cached register `c` (0 and 1 are `taken` and `target`).
fn cached_var(c: usize) -> Variable {
    Variable::from_u32(2 + c as u32)
}

/// Where cached register `c` lives in the `Cpu`.
fn cached_offset(c: usize) -> i32 {
    match c {
        HI_REG => HI,
        LO_REG => LO,
        r => gpr_offset(Reg::new(r as u32)),
    }
}

impl Emitter<'_, '_> {
    fn flags() -> MemFlags {
        MemFlags::trusted()
    }

    // --- registers, cached (see `Cached`) ---
    /// Register `c` of the cache (a GPR 1-31, [`HI_REG`] or [`LO_REG`]).
    fn reg(&mut self, c: usize) -> Value {
        if !self.cache.known[c] {
            let v = self
                .b
                .ins()
                .load(I64, Self::flags(), self.cpu, cached_offset(c));
            self.b.def_var(cached_var(c), v);
            self.cache.known[c] = true;
        }
        self.b.use_var(cached_var(c))
    }
    fn set_reg(&mut self, c: usize, v: Value) {
        self.b.def_var(cached_var(c), v);
        self.cache.known[c] = true;
        self.cache.dirty[c] = true;
    }
    /// Writes every register changed since it was last in the `Cpu` back
    /// there (before anything that reads the `Cpu`, and at every exit).
    fn write_back(&mut self) {
        for c in 0..CACHED {
            if self.cache.dirty[c] {
                let v = self.b.use_var(cached_var(c));
                self.b
                    .ins()
                    .store(Self::flags(), v, self.cpu, cached_offset(c));
            }
        }
    }
    fn gpr(&mut self, r: Reg) -> Value {
        if r.idx() == 0 {
            self.b.ins().iconst(I64, 0)
        } else {
            self.reg(r.idx())
        }
    }
    /// The low word of a GPR.
    fn gpr32(&mut self, r: Reg) -> Value {
        let v = self.gpr(r);
        self.b.ins().ireduce(I32, v)
    }
    /// Writes a GPR; writes to $zero vanish.
    fn set(&mut self, r: Reg, v: Value) {
        if r.idx() != 0 {
            self.set_reg(r.idx(), v);
        }
    }
    /// Writes a 32-bit result sign-extended.
    fn set32(&mut self, r: Reg, v: Value) {
        let v = self.b.ins().sextend(I64, v);
        self.set(r, v);
    }
    fn set_field(&mut self, offset: i32, v: Value) {
        self.b.ins().store(Self::flags(), v, self.cpu, offset);
    }
    fn field(&mut self, ty: Type, offset: i32) -> Value {
        self.b.ins().load(ty, Self::flags(), self.cpu, offset)
    }
    fn imm(&mut self, v: i64) -> Value {
        self.b.ins().iconst(I64, v)
    }
    /// A 32-bit constant (given zero-extended, as Cranelift wants it).
    fn c32(&mut self, v: u32) -> Value {
        self.b.ins().iconst(I32, v as i64)
    }

    // --- the timing (see `block_run::exec_block`) ---
    /// Leaves with INTERPRET unless the block may run as a unit: its
    /// clock after the second-to-last instruction is before the deadline,
    /// and each incoming register is ready by its first reader.
    fn check_schedule(&mut self, block: &Block, entry: Value, deadline: Value) {
        let guard = self.b.ins().iadd_imm(entry, block.guard as i64);
        let late = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, guard, deadline);
        self.exit_if(late, status::INTERPRET, 0);
        if let Some(fr) = self.fpu {
            if block.insns.iter().any(|x| inlined_fp_move(&x.op)) {
                // Compiled for CP1 usable with this FR: else interpret.
                let st = self.field(I32, CP0_STATUS);
                let bits = self
                    .b
                    .ins()
                    .band_imm(st, (cp0_status::CU1 | cp0_status::FR) as i64);
                let want = cp0_status::CU1 | if fr { cp0_status::FR } else { 0 };
                let other = self.b.ins().icmp_imm(IntCC::NotEqual, bits, want as i64);
                self.exit_if(other, status::INTERPRET, 0);
            }
        }
        for &(slot, first_use) in block.live_in.iter() {
            let ready = self.field(I64, slot_offset(slot));
            let by = self.b.ins().iadd_imm(entry, first_use as i64);
            let late = self.b.ins().icmp(IntCC::UnsignedGreaterThan, ready, by);
            self.exit_if(late, status::INTERPRET, 0);
        }
    }

    /// The block ran to its end: the clock, the retired counts, the
    /// scoreboard and the PC in one step, then returns.
    fn complete(&mut self, block: &Block, pc0: u32, entry: Value) {
        self.write_back();
        let n = block.insns.len();
        let taken = self.b.use_var(self.taken);
        let base = block.insns[n - 1].issue as u64 + ISSUE_CYCLES;
        let end = self.b.ins().iadd_imm(entry, base as i64);
        let end = if block.branch {
            let bubbles = self.b.ins().imul_imm(taken, BRANCH_BUBBLES as i64);
            self.b.ins().iadd(end, bubbles)
        } else {
            end
        };
        self.set_field(CYCLES, end);
        for counter in [RETIRED, RETIRED_IN_BLOCKS, RETIRED_COMPILED] {
            let v = self.field(I64, counter);
            let v = self.b.ins().iadd_imm(v, n as i64);
            self.set_field(counter, v);
        }
        for &(slot, at) in block.out.iter() {
            let ready = self.b.ins().iadd_imm(entry, at as i64);
            self.set_field(slot_offset(slot), ready);
        }
        let after = self.c32(pc0.wrapping_add(4 * n as u32));
        let next = if block.branch {
            let t = self.b.use_var(self.target);
            let c = self.b.ins().icmp_imm(IntCC::NotEqual, taken, 0);
            self.b.ins().select(c, t, after)
        } else {
            after
        };
        self.set_field(PC, next);
        let four = self.c32(4);
        let next_pc = self.b.ins().iadd(next, four);
        self.set_field(NEXT_PC, next_pc);
        let ret = self.result(status::NEXT, n - 1);
        // Chain to the next block when allowed and it is compiled: a tail
        // call, so chains of any length take no stack.
        let done = self.b.create_block();
        let chain = self.b.create_block();
        let allowed = self.b.ins().load(I8, Self::flags(), self.cpu, CHAIN);
        self.b.ins().brif(allowed, chain, &[], done, &[]);
        self.b.seal_block(chain);
        self.b.switch_to_block(chain);
        let idx = self.b.ins().ushr_imm(next, 2);
        let idx = self.b.ins().band_imm(idx, (JUMP_ENTRIES - 1) as i64);
        let idx = self.b.ins().uextend(self.ptr, idx);
        let off = self.b.ins().imul_imm(idx, size_of::<JumpEntry>() as i64);
        let base = self.b.ins().iconst(self.ptr, self.jump as i64);
        let e = self.b.ins().iadd(base, off);
        let pc = self
            .b
            .ins()
            .load(I32, Self::flags(), e, offset_of!(JumpEntry, pc) as i32);
        let hit = self.b.ins().icmp(IntCC::Equal, pc, next);
        let call = self.b.create_block();
        self.b.ins().brif(hit, call, &[], done, &[]);
        self.b.seal_block(call);
        self.b.seal_block(done);
        self.b.switch_to_block(call);
        let code = self.b.ins().load(
            self.ptr,
            Self::flags(),
            e,
            offset_of!(JumpEntry, code) as i32,
        );
        let sig = self.sigs.block;
        self.b
            .ins()
            .return_call_indirect(sig, code, &[self.cpu, self.mem, self.deadline]);
        self.b.switch_to_block(done);
        self.b.ins().return_(&[ret]);
    }

    // --- ends ---
    /// The function's result for an end of `kind` at instruction `i`.
    fn result(&mut self, kind: u32, i: usize) -> Value {
        let t = self.b.use_var(self.taken);
        let t = self.b.ins().ishl_imm(t, status::TAKEN_SHIFT as i64);
        self.b.ins().bor_imm(t, status::encode(kind, i) as i64)
    }
    /// Tells the caller which block ended early (it may have been reached
    /// by chaining).
    fn leave_block_address(&mut self) {
        let b = self.b.ins().iconst(self.ptr, self.block as i64);
        self.set_field(EXIT_BLOCK, b);
    }
    /// Leaves the function with `kind` at instruction `i` when `cond`.
    fn exit_if(&mut self, cond: Value, kind: u32, i: usize) {
        let exit = self.b.create_block();
        let cont = self.b.create_block();
        self.b.ins().brif(cond, exit, &[], cont, &[]);
        self.b.seal_block(exit);
        self.b.seal_block(cont);
        self.b.switch_to_block(exit);
        self.b.set_cold_block(exit);
        self.write_back();
        self.leave_block_address();
        let ret = self.result(kind, i);
        self.b.ins().return_(&[ret]);
        self.b.switch_to_block(cont);
    }
    /// Leaves with the helper's `status` at instruction `i` unless it is
    /// NEXT or TAKEN.
    fn exit_on_status(&mut self, st: Value, i: usize) {
        let exit = self.b.create_block();
        let cont = self.b.create_block();
        // SKIP, FAULT and CODE_WRITTEN are 1..=3.
        let one = self.c32(1);
        let k = self.b.ins().isub(st, one);
        let stop = self.b.ins().icmp_imm(IntCC::UnsignedLessThan, k, 3);
        self.b.ins().brif(stop, exit, &[], cont, &[]);
        self.b.seal_block(exit);
        self.b.seal_block(cont);
        self.b.switch_to_block(exit);
        self.b.set_cold_block(exit);
        self.write_back();
        self.leave_block_address();
        let base = self.result(0, i);
        let kind = self.b.ins().uextend(I64, st);
        let kind = self.b.ins().ishl_imm(kind, status::KIND_SHIFT as i64);
        let ret = self.b.ins().bor(base, kind);
        self.b.ins().return_(&[ret]);
        self.b.switch_to_block(cont);
    }

    // --- the instructions ---
    fn op(&mut self, i: usize, op: &Op, pc: u32) {
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
                let (a, b) = (self.gpr32(rs), self.gpr32(rt));
                let v = self.b.ins().iadd(a, b);
                self.set32(rd, v);
            }
            Addiu { rt, rs, imm } => {
                let a = self.gpr32(rs);
                let b = self.c32(imm as i32 as u32);
                let v = self.b.ins().iadd(a, b);
                self.set32(rt, v);
            }
            Sub { rd, rs, rt } => self.sub32_checked(i, rd, rs, rt),
            Subu { rd, rs, rt } => {
                let (a, b) = (self.gpr32(rs), self.gpr32(rt));
                let v = self.b.ins().isub(a, b);
                self.set32(rd, v);
            }
            Daddu { rd, rs, rt } => {
                let (a, b) = (self.gpr(rs), self.gpr(rt));
                let v = self.b.ins().iadd(a, b);
                self.set(rd, v);
            }
            Daddiu { rt, rs, imm } => {
                let a = self.gpr(rs);
                let v = self.b.ins().iadd_imm(a, imm as i64);
                self.set(rt, v);
            }
            Dsubu { rd, rs, rt } => {
                let (a, b) = (self.gpr(rs), self.gpr(rt));
                let v = self.b.ins().isub(a, b);
                self.set(rd, v);
            }
            And { rd, rs, rt } => self.logic(rd, rs, rt, |b, x, y| b.ins().band(x, y)),
            Or { rd, rs, rt } => self.logic(rd, rs, rt, |b, x, y| b.ins().bor(x, y)),
            Xor { rd, rs, rt } => self.logic(rd, rs, rt, |b, x, y| b.ins().bxor(x, y)),
            Nor { rd, rs, rt } => self.logic(rd, rs, rt, |b, x, y| {
                let o = b.ins().bor(x, y);
                b.ins().bnot(o)
            }),
            Slt { rd, rs, rt } => self.compare(rd, rs, rt, IntCC::SignedLessThan),
            Sltu { rd, rs, rt } => self.compare(rd, rs, rt, IntCC::UnsignedLessThan),
            Slti { rt, rs, imm } => self.compare_imm(rt, rs, imm as i64, IntCC::SignedLessThan),
            Sltiu { rt, rs, imm } => self.compare_imm(rt, rs, imm as i64, IntCC::UnsignedLessThan),
            Andi { rt, rs, imm } => {
                let a = self.gpr(rs);
                let v = self.b.ins().band_imm(a, imm as i64);
                self.set(rt, v);
            }
            Ori { rt, rs, imm } => {
                let a = self.gpr(rs);
                let v = self.b.ins().bor_imm(a, imm as i64);
                self.set(rt, v);
            }
            Xori { rt, rs, imm } => {
                let a = self.gpr(rs);
                let v = self.b.ins().bxor_imm(a, imm as i64);
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
                let a = self.gpr(rs);
                let cond = self.b.ins().icmp_imm(cc, a, 0);
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
            Lb { rt, base, off } => self.load(i, rt, base, off, 1, Some(I8)),
            Lbu { rt, base, off } => self.load(i, rt, base, off, 1, None),
            Lh { rt, base, off } => self.load(i, rt, base, off, 2, Some(I16)),
            Lhu { rt, base, off } => self.load(i, rt, base, off, 2, None),
            Lw { rt, base, off } => self.load(i, rt, base, off, 4, Some(I32)),
            Lwu { rt, base, off } => self.load(i, rt, base, off, 4, None),
            Ld { rt, base, off } => self.load(i, rt, base, off, 8, None),
            Sb { rt, base, off } => self.store(i, rt, base, off, 1),
            Sh { rt, base, off } => self.store(i, rt, base, off, 2),
            Sw { rt, base, off } => self.store(i, rt, base, off, 4),
            Sd { rt, base, off } => self.store(i, rt, base, off, 8),
            Lwc1 { ft, base, off } if self.fpu.is_some() => {
                let v = self.load_raw(i, base, off, 4);
                self.set_fpr_word(ft, v);
            }
            Ldc1 { ft, base, off } if self.fpu.is_some() => {
                let v = self.load_raw(i, base, off, 8);
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
            _ => self.call_execute(i, op, pc),
        }
    }

    /// Everything not inlined: the interpreter's `execute`.
    fn call_execute(&mut self, i: usize, op: &Op, pc: u32) {
        // It reads and writes the `Cpu`: registers go back first and are
        // read again after.
        self.write_back();
        self.cache = Cached::NONE;
        let callee = self.b.ins().iconst(self.ptr, self.helpers.exec as i64);
        let op_ptr = self.b.ins().iconst(self.ptr, op as *const Op as i64);
        let pc = self.c32(pc);
        let call =
            self.b
                .ins()
                .call_indirect(self.sigs.exec, callee, &[self.cpu, self.mem, op_ptr, pc]);
        let st = self.b.inst_results(call)[0];
        if op.has_delay_slot() {
            let t = self
                .b
                .ins()
                .icmp_imm(IntCC::Equal, st, status::TAKEN as i64);
            let t = self.b.ins().uextend(I64, t);
            self.b.def_var(self.taken, t);
            let target = self.field(I32, EXIT_TARGET);
            self.b.def_var(self.target, target);
        }
        self.exit_on_status(st, i);
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

    fn logic(
        &mut self,
        rd: Reg,
        rs: Reg,
        rt: Reg,
        f: impl FnOnce(&mut FunctionBuilder, Value, Value) -> Value,
    ) {
        let (a, b) = (self.gpr(rs), self.gpr(rt));
        let v = f(&mut self.b, a, b);
        self.set(rd, v);
    }

    fn compare(&mut self, rd: Reg, rs: Reg, rt: Reg, cc: IntCC) {
        let (a, b) = (self.gpr(rs), self.gpr(rt));
        let c = self.b.ins().icmp(cc, a, b);
        let v = self.b.ins().uextend(I64, c);
        self.set(rd, v);
    }

    fn compare_imm(&mut self, rt: Reg, rs: Reg, imm: i64, cc: IntCC) {
        let a = self.gpr(rs);
        let c = self.b.ins().icmp_imm(cc, a, imm);
        let v = self.b.ins().uextend(I64, c);
        self.set(rt, v);
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
    fn fpr(&mut self, r: u8) -> Value {
        self.field(I64, fpr_offset(r))
    }
    /// MTC1/LWC1: the low word of FPR `r` from the low word of `v`; the
    /// upper half keeps its contents.
    fn set_fpr_word(&mut self, r: u8, v: Value) {
        let old = self.fpr(r);
        let high = self.b.ins().band_imm(old, !0xffff_ffffu64 as i64);
        let low = self.b.ins().band_imm(v, 0xffff_ffff);
        let new = self.b.ins().bor(high, low);
        self.set_field(fpr_offset(r), new);
    }
    /// LDC1: the 64-bit value of FPR `r` (an even/odd pair under FR = 0).
    fn set_fpr_dword(&mut self, r: u8, v: Value) {
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
    fn fpr_dword(&mut self, r: u8) -> Value {
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
    /// transfers (the delay slot may change it).
    fn transfer_sp(&mut self, op: &Op) {
        if Transfer::kind_of(op).is_some() {
            let sp = self.gpr32(Reg::SP);
            self.set_field(EXIT_SP, sp);
        }
    }
    fn jump_to(&mut self, op: &Op, target: u32) {
        self.transfer_sp(op);
        let t = self.c32(target);
        self.jumped(t);
    }
    /// An unconditional transfer to `target` (an I32).
    fn jumped(&mut self, target: Value) {
        self.set_field(EXIT_TARGET, target);
        self.b.def_var(self.target, target);
        let one = self.imm(1);
        self.b.def_var(self.taken, one);
    }
    /// The target of JR/JALR: a value outside the sign-extended 32-bit
    /// range is folded to a kernel address, as the interpreter does.
    fn register_target(&mut self, rs: Reg) -> Value {
        let v = self.gpr(rs);
        let lo = self.b.ins().ireduce(I32, v);
        let back = self.b.ins().sextend(I64, lo);
        let ok = self.b.ins().icmp(IntCC::Equal, back, v);
        let high = self.c32(0x8000_0000);
        let folded = self.b.ins().bor(lo, high);
        self.b.ins().select(ok, lo, folded)
    }
    /// A conditional branch on `cond` (an I8 truth value).
    fn conditional(&mut self, i: usize, cond: Value, target: u32, likely: bool) {
        if likely {
            let not = self.b.ins().icmp_imm(IntCC::Equal, cond, 0);
            self.exit_if(not, status::SKIP, i);
        }
        let t = self.c32(target);
        self.set_field(EXIT_TARGET, t);
        self.b.def_var(self.target, t);
        let c = self.b.ins().uextend(I64, cond);
        self.b.def_var(self.taken, c);
    }
    #[allow(clippy::too_many_arguments)]
    fn branch2(&mut self, i: usize, pc: u32, off: i16, rs: Reg, rt: Reg, cc: IntCC, likely: bool) {
        let (a, b) = (self.gpr(rs), self.gpr(rt));
        let cond = self.b.ins().icmp(cc, a, b);
        self.conditional(i, cond, branch_target(pc, off), likely);
    }
    fn branch0(&mut self, i: usize, pc: u32, off: i16, rs: Reg, cc: IntCC, likely: bool) {
        let a = self.gpr(rs);
        let cond = self.b.ins().icmp_imm(cc, a, 0);
        self.conditional(i, cond, branch_target(pc, off), likely);
    }

    // --- memory ---
    /// The checked effective address (an I32) of an access of `bytes`:
    /// leaves with FAULT (Address Error) outside user space or misaligned.
    fn address(&mut self, i: usize, base: Reg, off: i16, bytes: u32) -> Value {
        let b = self.gpr(base);
        let ea = self.b.ins().iadd_imm(b, off as i64);
        let high = self
            .b
            .ins()
            .icmp_imm(IntCC::UnsignedGreaterThanOrEqual, ea, USER_TOP as i64);
        let bad = if bytes > 1 {
            let low = self.b.ins().band_imm(ea, (bytes - 1) as i64);
            let mis = self.b.ins().icmp_imm(IntCC::NotEqual, low, 0);
            self.b.ins().bor(high, mis)
        } else {
            high
        };
        self.exit_if(bad, status::FAULT, i);
        self.b.ins().ireduce(I32, ea)
    }

    /// The host address of `addr` (an I32) when its page is in the soft
    /// TLB table at `table`: emitted in a new block, entered on a hit; a
    /// miss branches to `slow`.
    fn direct(&mut self, addr: Value, table: i32, slow: cranelift_codegen::ir::Block) -> Value {
        let page = self.b.ins().ushr_imm(addr, PAGE_SHIFT as i64);
        let idx = self.b.ins().band_imm(page, (TLB_ENTRIES - 1) as i64);
        let idx = self.b.ins().uextend(self.ptr, idx);
        let off = self.b.ins().imul_imm(idx, size_of::<TlbEntry>() as i64);
        let e = self.b.ins().iadd(self.cpu, off);
        let tag = self.b.ins().load(I32, Self::flags(), e, table + TLB_PAGE);
        let hit = self.b.ins().icmp(IntCC::Equal, tag, page);
        let fast = self.b.create_block();
        self.b.ins().brif(hit, fast, &[], slow, &[]);
        self.b.seal_block(fast);
        self.b.switch_to_block(fast);
        let host = self
            .b
            .ins()
            .load(self.ptr, Self::flags(), e, table + TLB_HOST);
        let low = self.b.ins().band_imm(addr, (1 << PAGE_SHIFT) - 1);
        let low = self.b.ins().uextend(self.ptr, low);
        self.b.ins().iadd(host, low)
    }

    /// A load of `bytes` into `rt`, sign-extended from `signed` when given:
    /// a host load where the soft TLB has the page, else the helper.
    fn load(&mut self, i: usize, rt: Reg, base: Reg, off: i16, bytes: u32, signed: Option<Type>) {
        let v = self.load_raw(i, base, off, bytes);
        let v = match signed {
            Some(ty) => {
                let n = self.b.ins().ireduce(ty, v);
                self.b.ins().sextend(I64, n)
            }
            None => v,
        };
        self.set(rt, v);
    }

    /// The `bytes` at `base + off`, zero-extended to an I64.
    fn load_raw(&mut self, i: usize, base: Reg, off: i16, bytes: u32) -> Value {
        let addr = self.address(i, base, off, bytes);
        let slow = self.b.create_block();
        let join = self.b.create_block();
        self.b.append_block_param(join, I64);
        let p = self.direct(addr, TLB_READ, slow);
        let ty = int_type(bytes);
        let raw = self.b.ins().load(ty, Self::flags(), p, 0);
        let raw = if bytes > 1 {
            self.b.ins().bswap(raw)
        } else {
            raw
        };
        let raw = if bytes < 8 {
            self.b.ins().uextend(I64, raw)
        } else {
            raw
        };
        self.b.ins().jump(join, &[raw]);
        self.b.seal_block(slow);
        self.b.switch_to_block(slow);
        self.b.set_cold_block(slow);
        let v = if bytes == 8 {
            let callee = self.b.ins().iconst(self.ptr, self.helpers.load64 as i64);
            let call =
                self.b
                    .ins()
                    .call_indirect(self.sigs.load64, callee, &[self.cpu, self.mem, addr]);
            let st = self.b.inst_results(call)[0];
            self.exit_if(st, status::FAULT, i);
            self.field(I64, EXIT_VALUE)
        } else {
            let helper = match bytes {
                1 => self.helpers.load8,
                2 => self.helpers.load16,
                _ => self.helpers.load32,
            };
            let callee = self.b.ins().iconst(self.ptr, helper as i64);
            let call =
                self.b
                    .ins()
                    .call_indirect(self.sigs.load, callee, &[self.cpu, self.mem, addr]);
            let v = self.b.inst_results(call)[0];
            let failed = self.b.ins().icmp_imm(IntCC::Equal, v, LOAD_FAILED as i64);
            self.exit_if(failed, status::FAULT, i);
            v
        };
        self.b.ins().jump(join, &[v]);
        self.b.seal_block(join);
        self.b.switch_to_block(join);
        self.b.block_params(join)[0]
    }

    /// A store of the low `bytes` of `rt`: a host store where the soft
    /// TLB has the page (never a page of decoded code), else the helper.
    fn store(&mut self, i: usize, rt: Reg, base: Reg, off: i16, bytes: u32) {
        let v = self.gpr(rt);
        self.store_value(i, base, off, bytes, v);
    }

    /// Stores the low `bytes` of `v` (an I64) at `base + off`.
    fn store_value(&mut self, i: usize, base: Reg, off: i16, bytes: u32, v: Value) {
        let addr = self.address(i, base, off, bytes);
        let slow = self.b.create_block();
        let join = self.b.create_block();
        let p = self.direct(addr, TLB_WRITE, slow);
        let ty = int_type(bytes);
        let n = if bytes < 8 {
            self.b.ins().ireduce(ty, v)
        } else {
            v
        };
        let n = if bytes > 1 { self.b.ins().bswap(n) } else { n };
        self.b.ins().store(Self::flags(), n, p, 0);
        self.b.ins().jump(join, &[]);
        self.b.seal_block(slow);
        self.b.switch_to_block(slow);
        self.b.set_cold_block(slow);
        let helper = match bytes {
            1 => self.helpers.store8,
            2 => self.helpers.store16,
            4 => self.helpers.store32,
            _ => self.helpers.store64,
        };
        let callee = self.b.ins().iconst(self.ptr, helper as i64);
        let call =
            self.b
                .ins()
                .call_indirect(self.sigs.store, callee, &[self.cpu, self.mem, addr, v]);
        let st = self.b.inst_results(call)[0];
        self.exit_on_status(st, i);
        self.b.ins().jump(join, &[]);
        self.b.seal_block(join);
        self.b.switch_to_block(join);
    }
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
