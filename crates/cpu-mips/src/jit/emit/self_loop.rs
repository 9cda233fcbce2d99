//! A block whose branch goes back to its own start (the inner loops of a
//! sieve, a copy, a checksum): compiled as a loop inside its function, so
//! that going round again costs the schedule check and the timing
//! bookkeeping, not a return, a lookup and a call.
//!
//! Each lap is exactly one run of the block: it checks the schedule from
//! the clock and scoreboard in the `Cpu` (which the previous lap just
//! wrote), runs the body, and applies the timing. It goes round again when
//! the branch was taken and chaining is allowed (the same condition under
//! which the block would have chained to itself); otherwise it ends as any
//! block does.
//!
//! What it saves besides the call is the registers: the GPRs, HI and LO
//! the block uses are read from the `Cpu` once, before the first lap, and
//! stay in variables from lap to lap; they go back to the `Cpu` at an exit
//! (every exit writes back), at the block's end, before a call of
//! `execute`, and before an access through the view of guest memory
//! (whose fault leaves the block, see `trap`). The loop's header
//! therefore has one fixed register state: every register the block uses
//! known, every register it writes dirty (possibly newer than the `Cpu`).
//! The entry path gives that state by reading them; the back edge by
//! reading those a call of `execute` made it forget and by writing back
//! any other dirty register.

use cranelift_codegen::ir;

use super::*;

/// The loop header's register state for `block`: every cached register it
/// reads or writes known, every one it writes dirty (from the timing
/// model's operands, which name each register an instruction reads and
/// the one it writes; HI and LO share a slot).
pub(super) fn header_state(block: &Block) -> Cached {
    let mut state = Cached::NONE;
    let mut mark = |slot: u8, write: bool| {
        let regs: &[usize] = match slot as usize {
            r @ 1..=31 => &[r][..],
            32 => &[HI_REG, LO_REG],
            _ => &[],
        };
        for &c in regs {
            state.known[c] = true;
            state.dirty[c] |= write;
        }
    };
    for insn in block.insns.iter() {
        for s in insn.t.src {
            mark(s, false);
        }
        mark(insn.t.dst, true);
    }
    state
}

impl Emitter<'_> {
    /// On the entry path: reads the registers `state` knows, then jumps to
    /// `header`, whose register state is then `state`.
    pub(super) fn enter_loop(&mut self, state: Cached, header: ir::Block) {
        for c in 1..CACHED {
            if state.known[c] {
                self.reg(c);
            }
        }
        self.b.ins().jump(header, &[]);
        self.b.switch_to_block(header);
        self.cache = state;
    }

    /// On the back edge: brings the register state to the header's
    /// `state` and jumps there. The emitter's state is left as it was.
    pub(super) fn go_round(&mut self, state: Cached, header: ir::Block) {
        let here = self.cache;
        for c in 1..CACHED {
            if self.cache.dirty[c] && !state.dirty[c] {
                let v = self.b.use_var(cached_var(c));
                self.set_field(cached_offset(c), v);
            }
            if state.known[c] {
                self.reg(c);
            }
        }
        self.b.ins().jump(header, &[]);
        self.cache = here;
    }
}
