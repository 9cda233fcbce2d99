//! Translation of one block (see `block`), with its members (see
//! `region`), into Cranelift IR, and of the two small functions around
//! blocks (the entry from Rust, and the one an empty jump-table entry
//! holds).
//!
//! Contents: `translate` and its `Emitter` (registers, the timing, the
//! ends of a block; this file), whose `ops` emit each instruction:
//! integer arithmetic, shifts, HI/LO moves and multiplies, branches and
//! jumps, aligned loads and stores and LWL/LWR (SWL/SWR) pairs (straight
//! to host memory when the soft TLB has the page, see `tlb`; any other
//! access leaves the block, which the block tier finishes), and the FP
//! moves, loads and stores inline, `fp` the FP arithmetic (inline where
//! the host is exact); everything else (divides, traps, lone unaligned and
//! linked accesses, the rest of the FP) as a call to the interpreter's own
//! `execute` through `helpers`.
//! `self_loop` turns a block that branches to itself into a loop; `fold`
//! computes what constants make at translation.
//!
//! A compiled block is `fn(cpu, clock) -> u64` in Cranelift's
//! `tail` convention and does what the block tier does with its block,
//! with the block's static schedule as constants. It first checks that the
//! schedule holds (else it returns INTERPRET, having changed nothing). It
//! then does what the block tier's per-instruction loop does to the
//! registers and memory, in the same order, with the registers held in
//! Cranelift variables (`Cached`) and stored to the `Cpu` as they are
//! written (a block that loops to itself writes them back wherever
//! something else may look instead). At the block's end it applies the clock, the
//! retired count, the scoreboard and the PC in one step, and tail-calls
//! the next block when that one is compiled and chaining is allowed.
//! Anything else returns to the caller with the state of just before the
//! instruction that stopped it (the PC the function's first address, and
//! the member it stopped in in the result, by which the caller finds the
//! block), and the caller applies the timing (see `block::run`). A block
//! with members (see `region`) goes on into a member where its end or a
//! side exit reaches one, after the member's entry checks; when they fail
//! it returns as at its end.
//! The result (see `super::status`) says how the block ended: at its end,
//! at a branch-likely that nullified its delay slot, at an instruction that
//! faulted (which had no effect), at an access the soft TLB missed (which
//! had no effect, its address left in `Cpu::jit_exit`), or just after a
//! store into decoded code, with the index of that instruction and whether
//! the branch was taken (its target is then in `Cpu::jit_exit`).

use std::mem::offset_of;

mod fold;
mod fp;
mod ops;
mod pages;
mod self_loop;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I16, I32, I64, I8};
use cranelift_codegen::ir::{
    AbiParam, Function, InstBuilder, InstructionData, MemFlags, Opcode, SigRef, Signature,
    TrapCode, Type, Value, ValueDef,
};
use cranelift_codegen::isa::CallConv;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};

use super::calls;
use super::helpers::{Helpers, JitLinks};
use super::region;
use super::status;
use super::tlb::{TlbEntry, TLB_ENTRIES};
use super::trap::Site;
use super::{JumpEntry, Tlb, JUMP_ENTRIES};
use crate::block::{loops_to_itself, settled_by_end, Block};
use crate::code_cache::PAGE_SHIFT;
use crate::cp0::status as cp0_status;
use crate::cpu::{Cpu, JitExit};
use crate::decode::Op;
use crate::fpu::Fpu;
use crate::insn::{branch_target, jump_target, Reg};
use crate::timing::{Scoreboard, BRANCH_BUBBLES, ISSUE_CYCLES};
use crate::{Cp0, Transfer};

/// How far into the `Cpu` the address compiled code knows it by lies:
/// 128 bytes past the first GPR, so that all 32 are within a signed byte
/// of it, and x86-64 encodes each register's load or store with a one-byte
/// offset instead of four (compiled code reads or writes about two
/// registers per guest instruction). The entry adds it (`translate_enter`);
/// a call out of compiled code takes it off again.
pub(super) const BIAS: i32 = offset_of!(Cpu, gpr) as i32 + 128;

/// Where GPR `r` is in the `Cpu` (so for every field below; compiled code
/// reaches each through `Emitter::field`, which takes off [`BIAS`]).
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

/// The FP instructions the translator inlines (under the Status they were
/// compiled for): moves, loads and stores, and the arithmetic `fp`
/// inlines (`fma`: the host has a fused multiply-add).
fn inlined_fp(op: &Op, fma: bool) -> bool {
    match op {
        Op::Lwc1 { .. }
        | Op::Ldc1 { .. }
        | Op::Swc1 { .. }
        | Op::Sdc1 { .. }
        | Op::Mtc1 { .. }
        | Op::Mfc1 { .. } => true,
        Op::Fp(fop) => fp::inlined(fop, fma),
        _ => false,
    }
}
/// Where the soft TLB is in the `Cpu` (inside it, so compiled code needs no
/// register for its address; an embedder boxes the `Cpu`, whose tables are
/// 32 KiB); the tables are at `TLB_READ` and `TLB_WRITE` in it.
const TLB: i32 = offset_of!(Cpu, tlb) as i32;
const TLB_READ: i32 = offset_of!(Tlb, read) as i32;
const TLB_WRITE: i32 = offset_of!(Tlb, write) as i32;
const TLB_TAG: i32 = offset_of!(TlbEntry, tag) as i32;
const TLB_ADDEND: i32 = offset_of!(TlbEntry, addend) as i32;
const CYCLES: i32 = offset_of!(Cpu, cycles) as i32;
const RETIRED: i32 = offset_of!(Cpu, retired) as i32;
const PC: i32 = offset_of!(Cpu, pc) as i32;
const NEXT_PC: i32 = offset_of!(Cpu, next_pc) as i32;
const LO: i32 = offset_of!(Cpu, lo) as i32;
const EXIT_TARGET: i32 = (offset_of!(Cpu, jit_exit) + offset_of!(JitExit, target)) as i32;
const EXIT_SP: i32 = (offset_of!(Cpu, jit_exit) + offset_of!(JitExit, sp)) as i32;
const EXIT_VALUE: i32 = (offset_of!(Cpu, jit_exit) + offset_of!(JitExit, value)) as i32;
const EXIT_TAKEN: i32 = (offset_of!(Cpu, jit_exit) + offset_of!(JitExit, taken)) as i32;
const EXIT_JUMP: i32 = (offset_of!(Cpu, jit_exit) + offset_of!(JitExit, jump)) as i32;
const CHAIN: i32 = offset_of!(Cpu, jit_chain) as i32;
const LAST_BLOCK: i32 = offset_of!(Cpu, last_block) as i32;
const JUMP: i32 = (offset_of!(Cpu, jit_links) + offset_of!(JitLinks, jump)) as i32;
const DEADLINE: i32 = (offset_of!(Cpu, jit_links) + offset_of!(JitLinks, deadline)) as i32;
const MEMBER_DEADLINE: i32 =
    (offset_of!(Cpu, jit_links) + offset_of!(JitLinks, member_deadline)) as i32;
const VIEW: i32 = (offset_of!(Cpu, jit_links) + offset_of!(JitLinks, view)) as i32;
/// Where the address of the helper at `offset` in [`Helpers`] is.
const fn helper_offset(offset: usize) -> i32 {
    (offset_of!(Cpu, jit_links) + offset_of!(JitLinks, helpers) + offset) as i32
}
pub(super) const HELPER_EXEC: i32 = helper_offset(offset_of!(Helpers, exec));

/// Every offset into the `Cpu` compiled code uses, for the fingerprint of
/// the layout code kept on disk was compiled against (see `cache`).
pub(super) fn layout_offsets() -> Vec<i64> {
    let mut v: Vec<i64> = vec![
        HI as i64,
        LO as i64,
        CP0_STATUS as i64,
        TLB as i64,
        TLB_READ as i64,
        TLB_WRITE as i64,
        TLB_ENTRIES as i64,
        TLB_TAG as i64,
        TLB_ADDEND as i64,
        CYCLES as i64,
        RETIRED as i64,
        PC as i64,
        NEXT_PC as i64,
        EXIT_TARGET as i64,
        EXIT_SP as i64,
        EXIT_VALUE as i64,
        CHAIN as i64,
        LAST_BLOCK as i64,
        JUMP as i64,
        DEADLINE as i64,
        MEMBER_DEADLINE as i64,
        VIEW as i64,
        HELPER_EXEC as i64,
        gpr_offset(Reg::new(1)) as i64,
        fpr_offset(1) as i64,
        size_of::<TlbEntry>() as i64,
        size_of::<JumpEntry>() as i64,
        offset_of!(JumpEntry, code) as i64,
        offset_of!(Cpu, fpu) as i64,
        offset_of!(Cpu, scoreboard) as i64,
    ];
    v.extend((0..crate::timing::SLOTS as u8).map(|s| slot_offset(s) as i64));
    v
}

/// The signature of a compiled block: `(cpu, clock) -> status`, `cpu` the
/// `Cpu`'s address plus [`BIAS`] (the deadline and the jump table are in
/// the `Cpu`, see `JitLinks`; the memory is the helper's, see `JitRun`),
/// `clock` the cycle count the block starts from (see `Emitter::clock`).
pub(super) fn block_signature(call_conv: CallConv, ptr: Type) -> Signature {
    let mut sig = Signature::new(call_conv);
    sig.params.push(AbiParam::new(ptr));
    sig.params.push(AbiParam::new(I64));
    sig.returns.push(AbiParam::new(I64));
    sig
}

/// The signature of the entry from Rust: `(cpu, code) -> status`.
pub(super) fn enter_signature(call_conv: CallConv, ptr: Type) -> Signature {
    let mut sig = Signature::new(call_conv);
    sig.params.push(AbiParam::new(ptr));
    sig.params.push(AbiParam::new(ptr));
    sig.returns.push(AbiParam::new(I64));
    sig
}

/// The entry from Rust: calls the block whose code is its last argument
/// (a function of the `tail` convention, as blocks chain by tail calls),
/// with the `Cpu`'s address plus [`BIAS`] and the `Cpu`'s clock.
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
    let cpu = b.ins().iadd_imm(p[0], BIAS as i64);
    let clock = b.ins().load(I64, MemFlags::trusted(), cpu, CYCLES - BIAS);
    let call = b.ins().call_indirect(sig, p[1], &[cpu, clock]);
    let ret = b.inst_results(call)[0];
    b.ins().return_(&[ret]);
    b.finalize();
}

/// A block-shaped function that returns INTERPRET, the clock it is given
/// left in the `Cpu`: what an empty jump table entry holds (no chain finds
/// it: its PC is never the one looked up).
pub(super) fn translate_bail(func: &mut Function, fctx: &mut FunctionBuilderContext, _ptr: Type) {
    let mut b = FunctionBuilder::new(func, fctx);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let p = b.block_params(entry).to_vec();
    b.ins()
        .store(MemFlags::trusted(), p[1], p[0], CYCLES - BIAS);
    let ret = b
        .ins()
        .iconst(I64, status::encode(status::INTERPRET, 0) as i64);
    b.ins().return_(&[ret]);
    b.finalize();
}

/// The helpers' signatures, imported into the function.
struct Sigs {
    /// `(cpu, index, pc) -> u32`
    exec: SigRef,
    /// A compiled block's own, for chaining.
    block: SigRef,
}

/// What a compiled block is compiled against: the CP0 Status of the CPU
/// it is compiled for and whether the host has a fused multiply-add. (The
/// helpers and the jump table are reached through the `Cpu`: the code
/// holds no address.)
pub(super) struct Setting {
    pub status: u32,
    pub fma: bool,
    /// Accesses go through the view of guest memory where they may (see
    /// `Emitter::view_site`).
    pub view: bool,
}

/// Translates `block` (at `pc0`) and its members (see `region`) into
/// `func`, whose signature is [`block_signature`]; returns the accesses
/// made through the view that may fault (see `trap`), each numbered by
/// its place in the list plus one, as its trap code, where the offset
/// will be.
pub(super) fn translate(
    func: &mut Function,
    fctx: &mut FunctionBuilderContext,
    block: &Block,
    pc0: u32,
    setting: Setting,
    ptr: Type,
) -> Vec<Site> {
    let Setting {
        status: status_bits,
        fma,
        view,
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
        exec: b.import_signature(sig(&[ptr, I32, I32], I32)),
        block: b.import_signature(block_signature(call_conv, ptr)),
    };
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let (cpu, clock_in) = (b.block_params(entry)[0], b.block_params(entry)[1]);
    let taken = Variable::from_u32(0);
    b.declare_var(taken, I64);
    let target = Variable::from_u32(1);
    b.declare_var(target, I32);
    for c in 0..CACHED {
        b.declare_var(cached_var(c), I64);
    }
    let clock = Variable::from_u32(2 + CACHED as u32);
    b.declare_var(clock, I64);
    b.def_var(clock, clock_in);
    let members: Vec<(u32, &Block)> = std::iter::once((pc0, block))
        .chain(block.members.iter().map(|(pc, m)| (*pc, m)))
        .collect();
    let lap_here = members.len() == 1 && loops_to_itself(block, pc0);
    // Where members or the first block's own side exits go back to the
    // first block, its body is a member's (see `member_at`).
    let head_is_member =
        !lap_here && (members.len() > 1 || region::successors(block, pc0).any(|s| s == pc0));
    // The members a jump through a register looks for first (see
    // `calls`): a call, the callees compiled in (on other pages); a
    // return, the blocks calls return to.
    let returns: Vec<u32> = members
        .iter()
        .filter_map(|&(at, b)| calls::continuation(b, at))
        .collect();
    let guesses = |keep: &dyn Fn(u32, &Block) -> bool| -> Vec<usize> {
        (0..members.len())
            .filter(|&m| head_is_member && keep(members[m].0, members[m].1))
            .collect()
    };
    let callees = guesses(&|at, _| region::is_callee(pc0, at));
    let returns = guesses(&|at, _| returns.contains(&at));
    let mut e = Emitter {
        b,
        cpu,
        words: &block.words,
        taken,
        target,
        clock,
        sigs,
        ptr,
        // The FP moves are inlined only for the Status they were compiled
        // under (checked at entry), and only where CP1 is usable.
        fpu: (status_bits & cp0_status::CU1 != 0).then_some(status_bits & cp0_status::FR != 0),
        fma,
        cache: Cached::NONE,
        taken_now: Some(false),
        target_now: None,
        store_now: !lap_here,
        head_is_member,
        pc0,
        head_pc: pc0,
        member: 0,
        bodies: vec![None; members.len()],
        members,
        callees,
        returns,
        pending: Vec::new(),
        shared_exit: None,
        wide_target: None,
        pages: pages::Pages::NONE,
        transfer_sp: TransferSp::None,
        view: None,
        sites: Vec::new(),
    };
    // The view's base, loaded once in the entry block (which every path
    // goes through) where the function makes any access.
    let accesses = |b: &Block| b.insns.iter().any(|x| x.op.data_access().is_some());
    if view && e.members.iter().any(|&(_, b)| accesses(b)) {
        e.view = Some(e.field(ptr, VIEW));
    }
    // A block that branches to itself loops inside its function.
    let lap = lap_here.then(|| {
        let state = self_loop::header_state(block);
        let header = e.b.create_block();
        e.enter_loop(state, header);
        (state, header)
    });
    let zero = e.imm(0);
    e.b.def_var(taken, zero);
    let zero32 = e.c32(0);
    e.b.def_var(target, zero32);
    // The clock the block was entered with, in the `Cpu` for every exit
    // before its end and for the helpers (as the block tier's loop leaves
    // it): a store, where a load would wait for the one before.
    let now = e.b.use_var(clock);
    e.set_field(CYCLES, now);
    let entry_cycle = e.check_schedule(block, now);
    if !e.head_is_member {
        e.body(block, entry_cycle, lap);
        if let Some((_, header)) = lap {
            e.b.seal_block(header);
        }
    } else {
        // Members, or the first block's own side exits, branch back to the
        // first block: its body is a block of its own, entered from here
        // and from them.
        let first = e.member_body(0);
        e.b.ins().jump(first, &[entry_cycle]);
        e.emit_members();
    }
    e.finish_exits();
    e.b.seal_all_blocks();
    e.b.finalize();
    e.sites
}

struct Emitter<'f> {
    b: FunctionBuilder<'f>,
    cpu: Value,
    /// The block's instruction words (the helper is given the word of an
    /// instruction it runs).
    words: &'f [u32],
    /// 1 once the block's branch is taken.
    taken: Variable,
    /// The branch's target (an I32), once taken.
    target: Variable,
    /// The clock (see `Cpu::cycles`): given by the caller, and passed on
    /// to the next block, so that a chain of blocks never reads it from
    /// the `Cpu` (which holds the block's entry clock until its end).
    clock: Variable,
    sigs: Sigs,
    ptr: Type,
    /// Status.FR when the FP instructions are inlined (CP1 usable when
    /// compiled); `None` leaves them to `execute`.
    fpu: Option<bool>,
    /// The host has a fused multiply-add (which MUL and DIV inline need).
    fma: bool,
    cache: Cached,
    /// What `taken` holds where it is known at compile time (before the
    /// branch, after an unconditional jump, past a branch-likely's
    /// nullifying exit); `None` where only the run decides.
    taken_now: Option<bool>,
    /// What `target` holds where it is known at compile time (a branch or
    /// jump with a static target).
    target_now: Option<u32>,
    /// The first address of the block being emitted.
    pc0: u32,
    /// The first block's address (an early exit leaves it as the PC, and
    /// the member's number in its word, see `region`).
    head_pc: u32,
    /// The number of the block being emitted among `members`.
    member: u32,
    /// The function's blocks: the first, then its members (see `region`).
    members: Vec<(u32, &'f Block)>,
    /// The members a call through a register goes on to when its target
    /// is theirs (see `guessed_edges`): callees compiled in.
    callees: Vec<usize>,
    /// The same for a return through $ra: the blocks calls return to.
    returns: Vec<usize>,
    /// The body of each member once an edge jumps to it (see
    /// `member_edge`): a block whose one parameter is the member's entry
    /// cycle.
    bodies: Vec<Option<cranelift_codegen::ir::Block>>,
    /// Members whose bodies are to be emitted.
    pending: Vec<usize>,
    /// The function's shared exit, once an exit jumps to it (see
    /// `leave_if`).
    shared_exit: Option<cranelift_codegen::ir::Block>,
    /// Registers go to the `Cpu` as they are written (no register is
    /// dirty): a value is then dead once its last reader ran, instead of
    /// held in a host register (or spilled) to the block's end, and exits
    /// write nothing back. A block that loops to itself keeps its
    /// registers in variables from lap to lap instead (see `self_loop`).
    store_now: bool,
    /// The first block's body is a block of its own, which edges to it
    /// jump to as to a member's (see `member_at`).
    head_is_member: bool,
    /// The register a JR or JALR took its target from (an I64), once it
    /// ran: `target` holds its low word, folded only where it leaves the
    /// function (see `Emitter::register_target`).
    wide_target: Option<Value>,
    /// Pages found in the soft TLB so far, by base register (see `pages`).
    pages: pages::Pages,
    /// $sp at the block's call, return or jump, once emitted.
    transfer_sp: TransferSp,
    /// The view's base (see `view`), where accesses go through it.
    view: Option<Value>,
    /// The accesses through the view so far (see `translate`).
    sites: Vec<Site>,
}

/// Where $sp as it was at the block's call, return or jump is, for an
/// observer of transfers (the exits that return to the run loop leave it
/// in `Cpu::jit_exit`; a chained block needs none).
#[derive(Clone, Copy)]
enum TransferSp {
    /// No transfer has run.
    None,
    /// Still in $sp: no instruction wrote it since (the usual case: the
    /// delay slot leaves it alone), so only the exits read it.
    InSp,
    /// Kept from before a later write to $sp (a return whose delay slot
    /// pops the frame).
    Kept(Value),
}

/// Cached registers: GPRs 1-31, HI and LO.
const CACHED: usize = 34;
const HI_REG: usize = 32;
const LO_REG: usize = 33;

/// What the translator knows of the registers at the point it is emitting:
/// a register whose value is in its Cranelift variable (`known`), and one
/// whose variable is newer than the `Cpu` (`dirty`). A block's control flow
/// only runs forward and rejoins (or leaves), so one such state describes
/// every path at each point. In a block that loops to itself, registers
/// are read from the `Cpu` once and written back at the block's end, at
/// each exit, and before each call of `execute`, which sees and changes
/// the `Cpu` itself; elsewhere a register is known only once the block
/// wrote it (see `Emitter::reg`).
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

impl Emitter<'_> {
    fn flags() -> MemFlags {
        MemFlags::trusted()
    }

    // --- registers, cached (see `Cached`) ---
    /// Register `c` of the cache (a GPR 1-31, [`HI_REG`] or [`LO_REG`]).
    /// Where registers go to the `Cpu` as they are written (`store_now`),
    /// one the block has not written is loaded at each use rather than
    /// kept from its first: a load the host folds into the instruction
    /// that uses it often costs nothing, where a value held from the
    /// block's start to its last use took a host register the whole way
    /// (warm big.c: 0.6% fewer host instructions).
    fn reg(&mut self, c: usize) -> Value {
        if !self.cache.known[c] {
            let v = self.field(I64, cached_offset(c));
            if self.store_now {
                return v;
            }
            self.b.def_var(cached_var(c), v);
            self.cache.known[c] = true;
        }
        self.b.use_var(cached_var(c))
    }
    fn set_reg(&mut self, c: usize, v: Value) {
        if c == Reg::SP.idx() && matches!(self.transfer_sp, TransferSp::InSp) {
            let sp = self.sp_now();
            self.transfer_sp = TransferSp::Kept(sp);
        }
        self.pages.written(c);
        self.b.def_var(cached_var(c), v);
        self.cache.known[c] = true;
        if self.store_now {
            self.set_field(cached_offset(c), v);
        } else {
            self.cache.dirty[c] = true;
        }
    }
    /// Writes every register changed since it was last in the `Cpu` back
    /// there (before anything that reads the `Cpu`, and at every exit).
    fn write_back(&mut self) {
        for c in 0..CACHED {
            if self.cache.dirty[c] {
                let v = self.b.use_var(cached_var(c));
                self.set_field(cached_offset(c), v);
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
    /// Stores `v` to the `Cpu`'s field at `offset` (see [`BIAS`]).
    fn set_field(&mut self, offset: i32, v: Value) {
        self.b
            .ins()
            .store(Self::flags(), v, self.cpu, offset - BIAS);
    }
    /// Loads the `Cpu`'s field at `offset` (see [`BIAS`]).
    fn field(&mut self, ty: Type, offset: i32) -> Value {
        self.b
            .ins()
            .load(ty, Self::flags(), self.cpu, offset - BIAS)
    }
    fn imm(&mut self, v: i64) -> Value {
        self.b.ins().iconst(I64, v)
    }
    /// The constant `v` is, when an `iconst` made it. (Cranelift's
    /// optimiser is off, so the emitter folds the few constants its exits
    /// compute: each instruction saved is one in every exit of every
    /// block.)
    fn known(&self, v: Value) -> Option<i64> {
        let dfg = &self.b.func.dfg;
        let ValueDef::Result(inst, 0) = dfg.value_def(v) else {
            return None;
        };
        match dfg.insts[inst] {
            InstructionData::UnaryImm {
                opcode: Opcode::Iconst,
                imm,
            } => Some(imm.bits()),
            _ => None,
        }
    }
    /// A 32-bit constant (given zero-extended, as Cranelift wants it).
    fn c32(&mut self, v: u32) -> Value {
        self.b.ins().iconst(I32, v as i64)
    }

    // --- the blocks of the function (see `region`) ---
    /// Emits `block`'s instructions and its end, the block entered at
    /// cycle `entry` (`lap`: see `complete`).
    fn body(
        &mut self,
        block: &Block,
        entry: Value,
        lap: Option<(Cached, cranelift_codegen::ir::Block)>,
    ) {
        let pc0 = self.pc0;
        let mut i = 0;
        while i < block.insns.len() {
            let op = &block.insns[i].op;
            let next = block.insns.get(i + 1).map(|x| &x.op);
            // A side exit's slot is never the first of a pair: the exit comes
            // right after it.
            let slot = block.side_exit_slot(i);
            let pair = next.and_then(|next| ops::unaligned_pair(op, next));
            if let Some((rt, base, off, store)) = pair.filter(|_| !slot) {
                self.unaligned_word(i, rt, base, off, store);
                i += 2;
            } else {
                self.op(i, op, pc0.wrapping_add(4 * i as u32));
                if slot {
                    self.side_exit(block, i, entry);
                }
                i += 1;
            }
        }
        self.complete(block, pc0, entry, lap);
    }

    /// The body of member `m`, made (and queued for `emit_members`) on
    /// first use.
    fn member_body(&mut self, m: usize) -> cranelift_codegen::ir::Block {
        if let Some(body) = self.bodies[m] {
            return body;
        }
        let body = self.b.create_block();
        self.b.append_block_param(body, I64);
        self.bodies[m] = Some(body);
        self.pending.push(m);
        body
    }

    /// Emits the body of every member an edge jumps to, each once. A body
    /// starts from nothing known: every register is in the `Cpu` (registers
    /// go there as they are written), and an edge may come from any member.
    fn emit_members(&mut self) {
        while let Some(m) = self.pending.pop() {
            let (pc, block) = self.members[m];
            let body = self.bodies[m].expect("a pending member has a body");
            self.b.switch_to_block(body);
            let entry = self.b.block_params(body)[0];
            self.pc0 = pc;
            self.member = m as u32;
            self.words = &block.words;
            self.cache = Cached::NONE;
            self.pages = pages::Pages::NONE;
            self.transfer_sp = TransferSp::None;
            self.wide_target = None;
            let zero = self.imm(0);
            self.set_taken(zero, Some(false));
            let zero32 = self.c32(0);
            self.b.def_var(self.target, zero32);
            self.target_now = None;
            self.body(block, entry, None);
        }
    }

    /// The member of this function that starts at `pc`, where the first
    /// block's body is one (`head_is_member`): a function of one block
    /// that no edge of its own goes back to leaves by its end, or loops by
    /// `lap`.
    fn member_at(&self, pc: u32) -> Option<usize> {
        if !self.head_is_member {
            return None;
        }
        self.members.iter().position(|&(at, _)| at == pc)
    }

    /// Goes on to member `m` from the end of the block just
    /// emitted, its timing applied and its registers in the `Cpu`, when
    /// `m`'s schedule holds and the run's member deadline is ahead (see
    /// `JitLinks::member_deadline`, past when blocks must not chain);
    /// else returns NEXT (`next`, `last`: see `leave_for`). (Not a chain:
    /// `m`'s own code, if it had any, would find the same schedule and
    /// deadline and return at once.)
    fn member_edge(&mut self, m: usize, next: Value, last: usize) {
        let block = self.members[m].1;
        let fail = self.b.create_block();
        self.b.set_cold_block(fail);
        let now = self.b.use_var(self.clock);
        let to_fail = |e: &mut Self, late| {
            let on = e.b.create_block();
            e.b.ins().brif(late, fail, &[], on, &[]);
            e.b.seal_block(on);
            e.b.switch_to_block(on);
        };
        let entry = self.entry_guard(block, now, MEMBER_DEADLINE, to_fail);
        self.late_slots(block, entry, to_fail);
        self.set_field(CYCLES, now);
        let body = self.member_body(m);
        self.b.ins().jump(body, &[entry]);
        self.b.switch_to_block(fail);
        self.return_next(next, last);
    }

    // --- the timing (see `block::run`, `exec_block`) ---
    /// Leaves with INTERPRET unless the block may run as a unit (see
    /// `Block::holds`) from the cycle its first instruction issues at when
    /// the clock reads `now` (`Block::start`), which it returns; or, when
    /// the function inlines FP instructions (in any of its blocks), unless
    /// the Status is the one it was compiled for. (Only an instruction that
    /// always traps, which no block holds, changes the Status: the members
    /// need not look again.)
    fn check_schedule(&mut self, block: &Block, now: Value) -> Value {
        let interpret = |e: &mut Self, late| e.exit_if(late, status::INTERPRET, 0);
        let entry = self.entry_guard(block, now, DEADLINE, interpret);
        if let Some(fr) = self.fpu {
            let fma = self.fma;
            let fp = |b: &Block| b.insns.iter().any(|x| inlined_fp(&x.op, fma));
            if self.members.iter().any(|&(_, b)| fp(b)) {
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
        self.late_slots(block, entry, interpret);
        entry
    }

    /// The cycle `block`'s first instruction issues at when the clock
    /// reads `now` (`Block::start`), having called `late` with the
    /// condition that the block would pass the deadline (`deadline`: the
    /// field that holds it) if it ran as a unit.
    fn entry_guard(
        &mut self,
        block: &Block,
        now: Value,
        deadline: i32,
        late: impl FnOnce(&mut Self, Value),
    ) -> Value {
        let deadline = self.field(I64, deadline);
        let first = &block.live_in[..block.first_reads as usize];
        let mut entry = now;
        for &(slot, _) in first.iter().filter(|&&(_, at)| at == 0) {
            let ready = self.field(I64, slot_offset(slot));
            entry = self.b.ins().umax(entry, ready);
        }
        // `Block::start`: the entry may wait for a register the second
        // instruction reads, a cycle less than it is ready. That is rare, so
        // it is a branch out of the way: the usual entry's clock does not
        // wait for the register's time.
        let readies: Vec<(Value, u32)> = first
            .iter()
            .filter(|&&(_, at)| at > 0)
            .map(|&(slot, at)| (self.field(I64, slot_offset(slot)), at))
            .collect();
        if let Some((&(ready, at), rest)) = readies.split_first() {
            let by = self.b.ins().iadd_imm(entry, at as i64);
            let mut late = self.b.ins().icmp(IntCC::UnsignedGreaterThan, ready, by);
            for &(ready, at) in rest {
                let by = self.b.ins().iadd_imm(entry, at as i64);
                let not_ready = self.b.ins().icmp(IntCC::UnsignedGreaterThan, ready, by);
                late = self.b.ins().bor(late, not_ready);
            }
            let wait = self.b.create_block();
            let join = self.b.create_block();
            self.b.set_cold_block(wait);
            self.b.append_block_param(join, I64);
            self.b.ins().brif(late, wait, &[], join, &[entry]);
            self.b.seal_block(wait);
            self.b.switch_to_block(wait);
            let mut later = entry;
            for &(ready, at) in &readies {
                let by = self.b.ins().iadd_imm(later, at as i64);
                let by = self.b.ins().umax(by, ready);
                later = self.b.ins().iadd_imm(by, -(at as i64));
            }
            self.b.ins().jump(join, &[later]);
            self.b.seal_block(join);
            self.b.switch_to_block(join);
            entry = self.b.block_params(join)[0];
        }
        let guard = self.b.ins().iadd_imm(entry, block.guard as i64);
        let past = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, guard, deadline);
        late(self, past);
        entry
    }

    /// Calls `late` with the condition that each register `block` reads
    /// after its first instruction is not ready by its reader's offset
    /// from `entry` (see `Block::holds`).
    fn late_slots(&mut self, block: &Block, entry: Value, mut late: impl FnMut(&mut Self, Value)) {
        for &(slot, first_use) in &block.live_in[block.first_reads as usize..] {
            let ready = self.field(I64, slot_offset(slot));
            let by = self.b.ins().iadd_imm(entry, first_use as i64);
            let not_ready = self.b.ins().icmp(IntCC::UnsignedGreaterThan, ready, by);
            late(self, not_ready);
        }
    }

    /// The block ran to its end: the clock, the retired count and the
    /// scoreboard in one step; then round again when it loops to itself
    /// (`lap`: the loop header and its register state, see `self_loop`),
    /// else the PC, and it chains or returns.
    fn complete(
        &mut self,
        block: &Block,
        pc0: u32,
        entry: Value,
        lap: Option<(Cached, cranelift_codegen::ir::Block)>,
    ) {
        let n = block.insns.len();
        let taken = self.taken_value();
        let base = block.insns[n - 1].issue as u64 + ISSUE_CYCLES;
        let end = match (block.branch, self.taken_now) {
            (false, _) => self.b.ins().iadd_imm(entry, base as i64),
            (true, Some(t)) => {
                let bubbles = if t { BRANCH_BUBBLES } else { 0 };
                self.b.ins().iadd_imm(entry, (base + bubbles) as i64)
            }
            (true, None) => {
                let end = self.b.ins().iadd_imm(entry, base as i64);
                let bubbles = self.b.ins().imul_imm(taken, BRANCH_BUBBLES as i64);
                self.b.ins().iadd(end, bubbles)
            }
        };
        let least_end = block.insns[n - 1].issue + ISSUE_CYCLES as u32;
        self.retire(entry, end, n, &block.out, least_end);
        if let Some((state, header)) = lap {
            // Round again when the branch went back and chaining (here, to
            // itself) is allowed.
            let allowed = self.field(I8, CHAIN);
            let allowed = self.b.ins().uextend(I64, allowed);
            let again = self.b.ins().band(allowed, taken);
            let (_, out) = self.split(again);
            self.go_round(state, header);
            self.b.switch_to_block(out);
        }
        self.write_back();
        let fall = pc0.wrapping_add(4 * n as u32);
        let after = self.c32(fall);
        // The next PC where the compiler knows it (its jump-table entry
        // is then a constant offset).
        let next_now = match (block.branch, self.taken_now) {
            (true, Some(true)) => self.target_now,
            (false, _) | (true, Some(false)) => Some(fall),
            (true, None) => None,
        };
        if let (true, None, Some(target)) = (block.branch, self.taken_now, self.target_now) {
            if self.member_at(target).is_some() || self.member_at(fall).is_some() {
                // Each way on its own path, so that either may go on to a
                // member.
                let taken = self.b.ins().icmp_imm(IntCC::NotEqual, taken, 0);
                let (_, not_taken) = self.split(taken);
                let one = self.imm(1);
                self.set_taken(one, Some(true));
                let t = self.target_value();
                self.leave_for(Some(target), t, None, n - 1);
                self.b.switch_to_block(not_taken);
                let zero = self.imm(0);
                self.set_taken(zero, Some(false));
                self.leave_for(Some(fall), after, None, n - 1);
                return;
            }
        }
        // A jump through a register chains by the whole register (see
        // `register_target`).
        let mut wide = None;
        let next = match (block.branch, self.taken_now) {
            (true, Some(true)) => {
                wide = self.wide_target;
                self.target_value()
            }
            (false, _) | (true, Some(false)) => after,
            (true, None) => {
                let t = self.folded_target();
                let c = self.b.ins().icmp_imm(IntCC::NotEqual, taken, 0);
                self.b.ins().select(c, t, after)
            }
        };
        self.leave_for(next_now, next, wide, n - 1);
    }

    /// Branches on `cond` to two new blocks and goes on in the one taken
    /// when it holds: (that one, the other).
    fn split(
        &mut self,
        cond: Value,
    ) -> (cranelift_codegen::ir::Block, cranelift_codegen::ir::Block) {
        let then = self.b.create_block();
        let other = self.b.create_block();
        self.b.ins().brif(cond, then, &[], other, &[]);
        self.b.seal_block(then);
        self.b.seal_block(other);
        self.b.switch_to_block(then);
        (then, other)
    }

    /// The timing of a block's run that retired its first `n`
    /// instructions, entered at `entry`: the clock at `end`, the retired
    /// count, and the slots `out` names ready at their offsets (those no
    /// later instruction can tell from the old ones, by `least_end`, left
    /// out: see `block::settled_by_end`).
    fn retire(&mut self, entry: Value, end: Value, n: usize, out: &[(u8, u32)], least_end: u32) {
        self.b.def_var(self.clock, end);
        let retired = self.field(I64, RETIRED);
        let retired = self.b.ins().iadd_imm(retired, n as i64);
        self.set_field(RETIRED, retired);
        for &(slot, at) in out {
            if !settled_by_end(slot, at, least_end) {
                let ready = self.b.ins().iadd_imm(entry, at as i64);
                self.set_field(slot_offset(slot), ready);
            }
        }
    }

    /// After the delay slot `i` of a side exit's branch (see
    /// `block::side_exit`): when the branch was taken, the block ends here
    /// exactly as a block that ended with this slot (the clock, retired
    /// count and scoreboard of instructions `..=i`, then the target, see
    /// [`Emitter::complete`]); else it goes on with the branch not taken.
    fn side_exit(&mut self, block: &Block, i: usize, entry: Value) {
        let taken = self.taken_value();
        let (_, on) = self.split(taken);
        self.taken_now = Some(true);
        let least_end = block.insns[i].issue + ISSUE_CYCLES as u32;
        let end = self
            .b
            .ins()
            .iadd_imm(entry, (least_end as u64 + BRANCH_BUBBLES) as i64);
        self.retire(entry, end, i + 1, block.side_out(i), least_end);
        self.write_back();
        let next = self.target_value();
        self.leave_for(self.target_now, next, None, i);
        self.b.switch_to_block(on);
        let zero = self.imm(0);
        self.set_taken(zero, Some(false));
        self.target_now = None;
    }

    /// The end of a block's run at instruction `last` (its end, or a side
    /// exit's slot), the timing applied and the registers back in the
    /// `Cpu`: a chain to `next` (an I32; `next_now` where the compiler
    /// knows it; the low word of `wide` where a register gave it, see
    /// `register_target`) or a return with NEXT.
    fn leave_for(&mut self, next_now: Option<u32>, next: Value, wide: Option<Value>, last: usize) {
        if let Some(m) = next_now.and_then(|pc| self.member_at(pc)) {
            return self.member_edge(m, next, last);
        }
        if let Some(wide) = wide {
            self.guessed_edges(wide, next, last);
        }
        self.chain_or_return(next_now, next, wide, last);
    }

    /// Before a jump through a register (`wide`, the whole register) at
    /// instruction `last - 1` looks its target up: goes on to each member
    /// the register may name (a call's callees compiled in, a return's
    /// continuations, see `calls`) when it names it, as to any member. A
    /// compare and a branch each, where the lookup and the chain they
    /// save cost a frame, a load of the table's and an indirect jump
    /// whose target varies.
    fn guessed_edges(&mut self, wide: Value, next: Value, last: usize) {
        let op = self.members[self.member as usize].1.insns[last - 1].op;
        let guesses = match op {
            Op::Jalr { rd, .. } if rd == Reg::RA => self.callees.clone(),
            Op::Jr { rs } if rs == Reg::RA => self.returns.clone(),
            _ => return,
        };
        // (A block that returns to itself is a loop, not a call's return.)
        let here = self.member as usize;
        for m in guesses.into_iter().filter(|&m| m != here) {
            let at = self.members[m].0;
            let hit = self.b.ins().icmp_imm(IntCC::Equal, wide, at as i32 as i64);
            let (_, miss) = self.split(hit);
            self.member_edge(m, next, last);
            self.b.switch_to_block(miss);
        }
    }

    /// [`Emitter::leave_for`] to a block of another function, or any block
    /// when it cannot go on in this one.
    fn chain_or_return(
        &mut self,
        next_now: Option<u32>,
        next: Value,
        wide: Option<Value>,
        last: usize,
    ) {
        // Chain to the next block when it is compiled: a tail call, so
        // chains of any length take no stack. (Where chaining is not
        // allowed, the jump table holds no block: `JitCache::unlinked_table`.)
        // The next block is in its own entry or, on a cold path, in the
        // entry beside it (see `jump_index`). The return is the coldest
        // path: out of the way of the chain, so that a block's hot code
        // takes fewer cache lines.
        let beside = self.b.create_block();
        self.b.set_cold_block(beside);
        let done = self.b.create_block();
        self.b.set_cold_block(done);
        let base = self.field(self.ptr, JUMP);
        // The entry's offset in the table, as a value or a constant
        // (folded into the loads where the next PC is known).
        const ENTRY: usize = size_of::<JumpEntry>();
        #[derive(Clone, Copy)]
        enum Off {
            Known(i32),
            AtRun(Value),
        }
        let off = match next_now {
            Some(pc) => Off::Known((super::jump_index(pc) * ENTRY) as i32),
            None => {
                // `jump_index(next)` times the entry's size, in one
                // rotation and one mask (entries are 16 bytes, so 4 bytes
                // of PC make 16 of table; the bits rotated round are
                // masked off, and BMI2 rotates into another register).
                const SCALE: u32 = ENTRY.trailing_zeros() - 2;
                const _: () = assert!(ENTRY == 4 << SCALE);
                let off = self.b.ins().rotl_imm(next, SCALE as i64);
                let mask = ((JUMP_ENTRIES - 1) * ENTRY) as i64;
                let off = self.b.ins().band_imm(off, mask);
                Off::AtRun(self.b.ins().uextend(self.ptr, off))
            }
        };
        let call = self.b.create_block();
        let code = self.b.append_block_param(call, self.ptr);
        // Chains if the entry at `off` holds the next block, else goes to
        // `miss`.
        let try_entry = |this: &mut Self, off: Off, miss| {
            let (e, at) = match off {
                Off::Known(at) => (base, at),
                Off::AtRun(off) => (this.b.ins().iadd(base, off), 0),
            };
            let flags = Self::flags();
            let pc = this
                .b
                .ins()
                .load(I64, flags, e, at + offset_of!(JumpEntry, pc) as i32);
            let hit = match (next_now, wide) {
                (Some(now), _) => this.b.ins().icmp_imm(IntCC::Equal, pc, now as i64),
                (None, Some(v)) => this.b.ins().icmp(IntCC::Equal, pc, v),
                (None, None) => {
                    let next = this.b.ins().uextend(I64, next);
                    this.b.ins().icmp(IntCC::Equal, pc, next)
                }
            };
            let found = this.b.create_block();
            if miss == done {
                // Found beside: cold as well.
                this.b.set_cold_block(found);
            }
            this.b.ins().brif(hit, found, &[], miss, &[]);
            this.b.seal_block(found);
            this.b.switch_to_block(found);
            let code =
                this.b
                    .ins()
                    .load(this.ptr, flags, e, at + offset_of!(JumpEntry, code) as i32);
            this.b.ins().jump(call, &[code]);
        };
        try_entry(self, off, beside);
        self.b.seal_block(beside);
        self.b.switch_to_block(beside);
        let off = match off {
            Off::Known(at) => Off::Known(at ^ ENTRY as i32),
            Off::AtRun(off) => Off::AtRun(self.b.ins().bxor_imm(off, ENTRY as i64)),
        };
        try_entry(self, off, done);
        self.b.seal_block(call);
        self.b.seal_block(done);
        self.b.switch_to_block(call);
        let sig = self.sigs.block;
        let clock = self.b.use_var(self.clock);
        self.b
            .ins()
            .return_call_indirect(sig, code, &[self.cpu, clock]);
        self.b.switch_to_block(done);
        let next = match wide {
            Some(v) => self.fold(next, v),
            None => next,
        };
        self.return_next(next, last);
    }

    /// Returns NEXT at instruction `last`, the timing applied, with `next`
    /// (an I32) as the PC and this block as the one that ran last.
    fn return_next(&mut self, next: Value, last: usize) {
        self.store_clock();
        self.set_pc(next);
        // The function's first address: the run loop tells from it whether
        // the next block ran inside the function that claims it.
        let first = self.c32(self.members[0].0);
        self.set_field(LAST_BLOCK, first);
        self.leave_sp();
        let ret = self.result(status::NEXT, last);
        self.b.ins().return_(&[ret]);
    }

    /// Leaves $sp as it was at the block's transfer, once that ran (see
    /// `transfer_sp`).
    fn leave_sp(&mut self) {
        let sp = match self.transfer_sp {
            TransferSp::None => return,
            TransferSp::InSp => self.sp_now(),
            TransferSp::Kept(sp) => sp,
        };
        self.set_field(EXIT_SP, sp);
    }

    /// $sp's low word as it is now, read where it is without caching it
    /// (this may be on one path only, such as an exit).
    fn sp_now(&mut self) -> Value {
        let c = Reg::SP.idx();
        let v = if self.cache.known[c] {
            self.b.use_var(cached_var(c))
        } else {
            self.field(I64, cached_offset(c))
        };
        self.b.ins().ireduce(I32, v)
    }

    /// Leaves `pc` (an I32) as the PC for the caller (a chained block
    /// needs none: its own exits leave their own).
    fn set_pc(&mut self, pc: Value) {
        self.set_field(PC, pc);
        let next_pc = match self.known(pc) {
            Some(pc) => self.c32((pc as u32).wrapping_add(4)),
            None => {
                let four = self.c32(4);
                self.b.ins().iadd(pc, four)
            }
        };
        self.set_field(NEXT_PC, next_pc);
    }

    /// The `taken` variable, as a constant where it is known.
    fn taken_value(&mut self) -> Value {
        match self.taken_now {
            Some(t) => self.imm(t as i64),
            None => self.b.use_var(self.taken),
        }
    }

    /// Sets `taken` to `v`, which is `known` at compile time or not.
    pub(super) fn set_taken(&mut self, v: Value, known: Option<bool>) {
        self.b.def_var(self.taken, v);
        self.taken_now = known;
    }

    // --- ends ---
    /// The function's result for an end of `kind` at instruction `i`.
    fn result(&mut self, kind: u32, i: usize) -> Value {
        let word = status::encode(kind, i) | (self.member as u64) << status::MEMBER_SHIFT;
        if let Some(t) = self.taken_now {
            let word = word | (t as u64) << status::TAKEN_SHIFT;
            return self.imm(word as i64);
        }
        let t = self.b.use_var(self.taken);
        let t = self.b.ins().ishl_imm(t, status::TAKEN_SHIFT as i64);
        self.b.ins().bor_imm(t, word as i64)
    }
    /// Leaves the function with `kind` at instruction `i` when `cond`.
    fn exit_if(&mut self, cond: Value, kind: u32, i: usize) {
        self.leave_if(cond, i, |e| e.imm((kind as i64) << status::KIND_SHIFT));
    }
    /// Leaves with the helper's `status` at instruction `i` unless it is
    /// NEXT or TAKEN.
    fn exit_on_status(&mut self, st: Value, i: usize) {
        // SKIP, FAULT and CODE_WRITTEN are 1..=3.
        let one = self.c32(1);
        let k = self.b.ins().isub(st, one);
        let stop = self.b.ins().icmp_imm(IntCC::UnsignedLessThan, k, 3);
        self.leave_if(stop, i, |e| {
            let kind = e.b.ins().uextend(I64, st);
            e.b.ins().ishl_imm(kind, status::KIND_SHIFT as i64)
        });
    }
    /// When `cond`, leaves the function at instruction `i` (registers
    /// written back, the block's first address left as the PC) with the
    /// end `kind` gives, a word already shifted into place, emitted in the
    /// cold exit path.
    ///
    /// Where no register is waiting to be written back, the exit only
    /// makes its word and its branch target and jumps to the function's
    /// one shared exit (see [`Emitter::finish_exits`]), which leaves the
    /// rest: less code for Cranelift to compile and the cache to keep.
    /// Both are made on the exit's path, as arguments of the shared exit:
    /// values the shared exit read from variables instead were carried
    /// through the hot path to every exit (a register, and a move before
    /// each exit's branch), 2.9% of a warm big.c's host instructions.
    fn leave_if(&mut self, cond: Value, i: usize, kind: impl FnOnce(&mut Self) -> Value) {
        let (exit, cont) = self.split(cond);
        self.b.set_cold_block(exit);
        self.leave_sp();
        let base = self.result(0, i);
        let kind = kind(self);
        let ret = match (self.known(base), self.known(kind)) {
            (Some(a), Some(b)) => self.imm(a | b),
            (None, Some(b)) => self.b.ins().bor_imm(base, b),
            _ => self.b.ins().bor(base, kind),
        };
        let target = self.exit_target();
        // (An exit after a jump through a register, in its delay slot,
        // folds the target from that register, which the shared exit's
        // other paths do not have.)
        if self.cache.dirty.iter().any(|&d| d) || self.wide_target.is_some() {
            self.write_back();
            self.leave_state(target);
            self.b.ins().return_(&[ret]);
        } else {
            let shared = match self.shared_exit {
                Some(x) => x,
                None => {
                    let x = self.b.create_block();
                    self.b.append_block_param(x, I64);
                    self.b.append_block_param(x, I32);
                    self.b.set_cold_block(x);
                    self.shared_exit = Some(x);
                    x
                }
            };
            self.b.ins().jump(shared, &[ret, target]);
        }
        self.b.switch_to_block(cont);
    }

    /// What every early end leaves for the caller besides its word: the
    /// function's first address as the PC (by which, and the member's
    /// number in the word, the caller finds the block) and the branch
    /// target `target` (see `exit_target`).
    fn leave_state(&mut self, target: Value) {
        let pc0 = self.c32(self.head_pc);
        self.set_pc(pc0);
        self.set_field(EXIT_TARGET, target);
    }

    /// The branch target an early end leaves, made on the exit's own path
    /// (see `target_value`; the caller reads it only when the end's word
    /// says the branch was taken, so before a branch any value does), so
    /// that no host register carries it through the block's hot path.
    fn exit_target(&mut self) -> Value {
        match self.taken_now {
            Some(false) => self.c32(0),
            _ => self.folded_target(),
        }
    }

    /// Writes the clock to the `Cpu`: the end's, where a block that ran to
    /// its end returns.
    fn store_clock(&mut self) {
        let clock = self.b.use_var(self.clock);
        self.set_field(CYCLES, clock);
    }

    /// Emits the shared exit, once every exit that jumps to it is emitted:
    /// it leaves the state and returns the word it is given.
    fn finish_exits(&mut self) {
        if let Some(x) = self.shared_exit {
            self.b.seal_block(x);
            self.b.switch_to_block(x);
            let [word, target] = self.b.block_params(x)[..] else {
                unreachable!("the shared exit's two parameters")
            };
            self.leave_state(target);
            self.b.ins().return_(&[word]);
        }
    }
}
