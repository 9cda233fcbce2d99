//! The exact call graph of an unmodified program (`irix-emu prof
//! --callgraph`): a shadow stack kept from the calls and returns the CPU
//! reports through [`Observer::transfer`], call arcs with exact counts, and
//! the real stack at each profiling tick.
//!
//! Contents: [`CallGraph`] (one program's arcs and sampled stacks),
//! [`ShadowStack`] (one thread's), [`Tracker`] (the two at work, an
//! [`Observer`]), [`ArcKey`], [`ArcCost`], [`FunctionRange`].
//!
//! # Processes and threads
//! Each process and sproc thread running the program has its own shadow
//! stack, keyed by pid; the arcs and sampled stacks are the program's,
//! merged over all of them (one gmon.out describes one program's text).
//! A forked child starts with a copy of its parent's stack, since it
//! returns through the same frames (the calls in it were counted once, by
//! the parent; each process charges its frames what it retires itself). An
//! sproc member starts on an empty stack at its entry point, which no
//! function of the program called. exit and exec end a thread's stack; the
//! image an exec loads is another program, outside this graph.
//!
//! # How the shadow stack follows the program
//! A frame is pushed when a call's delay slot retires (so the delay slot is
//! the caller's, as the PC says) and holds the callee's entry, the call
//! site, the return address (site + 8) and the caller's `$sp`. On o32 every
//! function that calls allocates stack, so the recorded `$sp` strictly
//! decreases from the bottom frame to the top one: that is what the
//! resynchronisation rules rely on.
//! - **Return** (`jr $ra`): the topmost frame whose return address is the
//!   target is popped, with every frame above it (frames whose return was
//!   never seen). If no frame expects that address the return is a
//!   non-local one (longjmp restores `$sp` and `$ra` and returns to
//!   setjmp's caller): every frame whose recorded `$sp` is at or below the
//!   new `$sp` is popped, since the stack they lived on has been discarded.
//! - **Call**: first every frame whose recorded `$sp` is strictly below the
//!   caller's `$sp` is popped (dead frames, left by a jump the rules above
//!   missed), then the callee's frame is pushed. A `bal`/`jal` to a point
//!   inside the calling function that is not a function entry (the PIC
//!   "get PC" idiom) is not a call.
//! - **Tail call** (`j`, or `jr` through a register other than `$ra`, to
//!   the entry of a function other than the current one): the top frame
//!   becomes the new function's, with the same return address; the arc is
//!   counted from the original call site, which is what gprof's mcount
//!   sees (its `$ra` still points into the original caller).
//! - **Signal delivery** pushes a signal frame (call site = the interrupted
//!   PC, function = the trampoline), **sigreturn** pops down to and
//!   including the topmost one. A signal arrives between a branch and its
//!   delay slot only when the branch will be re-executed, so a call waiting
//!   for its delay slot is dropped.
//! - **exit**, a fatal signal and **exec** end the stack where it stands:
//!   [`CallGraph::finish`] closes the open frames, charging their costs up to
//!   the last instruction as if they had returned, so inclusive costs stay
//!   consistent (a caller's inclusive cost is its own plus its callees').
//!
//! Beyond [`MAX_FRAMES`] frames in all of a program's stacks together, new
//! frames are not kept (their arcs are still counted; a forked child copies
//! only the bottom of its parent's stack that fits), so neither a runaway
//! recursion nor many forks of a deep stack exhausts the host's memory; the
//! resynchronisation rules clean up when the recursion unwinds.

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

use cpu_mips::{Observer, Transfer, TransferKind};

/// Most frames kept in all of a program's shadow stacks together (32 MiB).
pub const MAX_FRAMES: usize = 1 << 20;

/// A function's address range `[start, end)`, for recognising tail calls
/// and calls that are not calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct FunctionRange {
    pub start: u32,
    pub end: u32,
}

/// A call arc: the call instruction's address and the callee's entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ArcKey {
    pub site: u32,
    pub callee: u32,
}

/// How control reached the callee of an arc.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArcKind {
    /// A call instruction (or a tail call through one).
    Call,
    /// A signal delivered at `site`: the trampoline was entered by the
    /// kernel, not called (gmon.out leaves these out, as gprof would see no
    /// call; the stacks keep them).
    Signal,
}

/// What one arc cost: calls, and the instructions and cycles retired while
/// its frame was on the stack (inclusive, the callee's callees included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArcCost {
    pub kind: ArcKind,
    pub calls: u64,
    pub instructions: u64,
    pub cycles: u64,
}

#[derive(Clone, Copy, Debug)]
struct Frame {
    /// Index of this frame's arc in `CallGraph::arcs`.
    arc: u32,
    /// The return address the caller expects (site + 8).
    ret: u32,
    /// The caller's `$sp` at the call (signal frames: the interrupted one).
    sp: u32,
    signal: bool,
    /// Instructions and cycles retired when the frame was pushed.
    start_instructions: u64,
    start_cycles: u64,
}

/// A cheap multiplicative hash for the arc table (the keys are two
/// addresses; no attacker chooses them).
#[derive(Default)]
struct AddrHasher(u64);

impl Hasher for AddrHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type AddrMap<K, V> = HashMap<K, V, BuildHasherDefault<AddrHasher>>;

/// The call graph of one program: its arcs and sampled stacks, merged over
/// every process and sproc thread running it, each with its own
/// [`ShadowStack`] (keyed by pid). See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct CallGraph {
    program: Program,
    threads: BTreeMap<u32, ShadowStack>,
    /// Instructions and cycles retired by threads whose tracking ended.
    ended: (u64, u64),
}

/// What the threads of a program share: its functions, the arcs and the
/// sampled stacks.
#[derive(Clone, Debug, Default)]
struct Program {
    /// The program's functions, sorted and disjoint.
    functions: Vec<FunctionRange>,
    arc_index: AddrMap<ArcKey, u32>,
    arcs: Vec<(ArcKey, ArcCost)>,
    /// Sample counts per real stack: call sites from the outermost frame
    /// in, then the sampled PC.
    stacks: AddrMap<Vec<u32>, u64>,
    /// Frames held by all the threads' stacks (at most [`MAX_FRAMES`]).
    frames_kept: usize,
}

/// One thread's shadow stack, with what it has retired.
#[derive(Clone, Debug, Default)]
pub struct ShadowStack {
    frames: Vec<Frame>,
    /// A call or return waiting for its delay slot to retire.
    pending: Option<Transfer>,
    instructions: u64,
    cycles: u64,
}

/// One thread's shadow stack at work on its program's graph: the
/// [`Observer`] the run loop reports that thread's instructions to. It
/// holds the stack itself, so that counting an instruction is one step
/// from the observer.
pub struct Tracker<'a> {
    program: &'a mut Program,
    stack: ShadowStack,
}

impl CallGraph {
    /// A graph for a program with these functions (any order; overlaps
    /// are cut at the next start), tracking no thread yet.
    pub fn new(functions: &[FunctionRange]) -> Self {
        let mut f: Vec<FunctionRange> = functions
            .iter()
            .copied()
            .filter(|r| r.end > r.start)
            .collect();
        f.sort();
        f.dedup_by_key(|r| r.start);
        for i in 1..f.len() {
            let next = f[i].start;
            f[i - 1].end = f[i - 1].end.min(next);
        }
        CallGraph {
            program: Program {
                functions: f,
                ..Default::default()
            },
            ..Default::default()
        }
    }

    /// Starts tracking thread `pid` on an empty stack: the process the
    /// profile started, or an sproc member (which starts at its entry
    /// point on a fresh stack, called by no function of the program).
    pub fn start(&mut self, pid: u32) {
        self.end(pid);
        self.threads.insert(pid, ShadowStack::default());
    }

    /// fork: `child` starts with a copy of `parent`'s stack, since it
    /// returns through the same frames. The copied calls were counted
    /// once, by the parent; each process charges its frames only what it
    /// retires itself.
    pub fn fork(&mut self, parent: u32, child: u32) {
        self.end(child);
        let Some(p) = self.threads.get(&parent) else {
            return;
        };
        let room = MAX_FRAMES - self.program.frames_kept;
        let frames: Vec<Frame> = p.frames[..p.frames.len().min(room)]
            .iter()
            .map(|f| Frame {
                start_instructions: 0,
                start_cycles: 0,
                ..*f
            })
            .collect();
        self.program.frames_kept += frames.len();
        self.threads.insert(
            child,
            ShadowStack {
                frames,
                ..Default::default()
            },
        );
    }

    /// Thread `pid` exits or execs: its open frames are closed as if they
    /// had returned after its last instruction, and tracking it ends.
    pub fn end(&mut self, pid: u32) {
        if let Some(stack) = self.threads.remove(&pid) {
            let mut t = Tracker {
                program: &mut self.program,
                stack,
            };
            t.finish();
            self.ended.0 += t.stack.instructions;
            self.ended.1 += t.stack.cycles;
        }
    }

    /// The run is over (exit, fatal signal or a limit): ends every thread.
    pub fn finish(&mut self) {
        let pids: Vec<u32> = self.threads.keys().copied().collect();
        for pid in pids {
            self.end(pid);
        }
    }

    /// Runs `f` with thread `pid`'s stack at work on the graph, while the
    /// thread is tracked.
    pub fn with_tracker<R>(
        &mut self,
        pid: u32,
        f: impl FnOnce(&mut Tracker<'_>) -> R,
    ) -> Option<R> {
        let slot = self.threads.get_mut(&pid)?;
        let mut t = Tracker {
            program: &mut self.program,
            stack: std::mem::take(slot),
        };
        let r = f(&mut t);
        *slot = t.stack;
        Some(r)
    }

    /// Whether thread `pid` is tracked.
    pub fn tracks(&self, pid: u32) -> bool {
        self.threads.contains_key(&pid)
    }

    /// Depth of thread `pid`'s shadow stack now (0 when untracked).
    pub fn depth(&self, pid: u32) -> usize {
        self.threads.get(&pid).map_or(0, |s| s.frames.len())
    }

    /// Every arc, in first-seen order.
    pub fn arcs(&self) -> &[(ArcKey, ArcCost)] {
        &self.program.arcs
    }

    /// Sample counts per real stack (call sites outermost first, then the
    /// sampled PC), sorted.
    pub fn stacks(&self) -> Vec<(Vec<u32>, u64)> {
        let mut v: Vec<(Vec<u32>, u64)> = self
            .program
            .stacks
            .iter()
            .map(|(s, &n)| (s.clone(), n))
            .collect();
        v.sort();
        v
    }

    /// Instructions and cycles retired while tracking, over every thread.
    pub fn totals(&self) -> (u64, u64) {
        self.threads
            .values()
            .fold(self.ended, |(i, c), s| (i + s.instructions, c + s.cycles))
    }
}

impl Program {
    /// The function containing `pc`.
    fn function_of(&self, pc: u32) -> Option<FunctionRange> {
        let i = self.functions.partition_point(|f| f.start <= pc);
        self.functions[..i].last().copied().filter(|f| pc < f.end)
    }

    fn is_entry(&self, pc: u32) -> bool {
        self.functions
            .binary_search_by_key(&pc, |f| f.start)
            .is_ok()
    }

    fn arc(&mut self, key: ArcKey, kind: ArcKind) -> u32 {
        let arcs = &mut self.arcs;
        *self.arc_index.entry(key).or_insert_with(|| {
            arcs.push((
                key,
                ArcCost {
                    kind,
                    calls: 0,
                    instructions: 0,
                    cycles: 0,
                },
            ));
            (arcs.len() - 1) as u32
        })
    }
}

impl Tracker<'_> {
    fn push(&mut self, key: ArcKey, ret: u32, sp: u32, kind: ArcKind) {
        let arc = self.program.arc(key, kind);
        self.program.arcs[arc as usize].1.calls += 1;
        if self.program.frames_kept < MAX_FRAMES {
            self.program.frames_kept += 1;
            self.stack.frames.push(Frame {
                arc,
                ret,
                sp,
                signal: kind == ArcKind::Signal,
                start_instructions: self.stack.instructions,
                start_cycles: self.stack.cycles,
            });
        }
    }

    /// Pops the top frame, charging what ran while it was there to its arc.
    fn pop(&mut self) -> Option<Frame> {
        let f = self.stack.frames.pop()?;
        self.program.frames_kept -= 1;
        self.close(&f);
        Some(f)
    }

    fn close(&mut self, f: &Frame) {
        let cost = &mut self.program.arcs[f.arc as usize].1;
        cost.instructions += self.stack.instructions - f.start_instructions;
        cost.cycles += self.stack.cycles - f.start_cycles;
    }

    /// Pops every top frame whose recorded `$sp` satisfies `dead`.
    fn pop_while_sp(&mut self, dead: impl Fn(u32) -> bool) {
        while self.stack.frames.last().is_some_and(|f| dead(f.sp)) {
            self.pop();
        }
    }

    fn apply(&mut self, t: Transfer) {
        match t.kind {
            TransferKind::Call => {
                let caller = self.program.function_of(t.site);
                if caller.is_some_and(|f| t.target >= f.start && t.target < f.end)
                    && !self.program.is_entry(t.target)
                {
                    return; // bal/jal within the function: not a call
                }
                self.pop_while_sp(|sp| sp < t.sp);
                let key = ArcKey {
                    site: t.site,
                    callee: t.target,
                };
                self.push(key, t.site.wrapping_add(8), t.sp, ArcKind::Call);
            }
            TransferKind::Return => {
                match self.stack.frames.iter().rposition(|f| f.ret == t.target) {
                    Some(i) => {
                        while self.stack.frames.len() > i {
                            self.pop();
                        }
                    }
                    None => self.pop_while_sp(|sp| sp <= t.sp),
                }
            }
            TransferKind::Jump => {
                if !self.program.is_entry(t.target) {
                    return;
                }
                let here = self.program.function_of(t.site);
                if here.is_some_and(|f| f.start == t.target) {
                    return; // a loop back to the function's own entry
                }
                let Some(top) = self.stack.frames.last().copied() else {
                    return;
                };
                if top.signal {
                    return;
                }
                // A tail call: the frame now belongs to the new callee.
                self.close(&top);
                let site = self.program.arcs[top.arc as usize].0.site;
                let arc = self.program.arc(
                    ArcKey {
                        site,
                        callee: t.target,
                    },
                    ArcKind::Call,
                );
                self.program.arcs[arc as usize].1.calls += 1;
                if let Some(f) = self.stack.frames.last_mut() {
                    f.arc = arc;
                    f.start_instructions = self.stack.instructions;
                    f.start_cycles = self.stack.cycles;
                }
            }
        }
    }

    /// A signal handler is entered through the trampoline at `trampoline`,
    /// interrupting the thread at `pc` with stack pointer `sp`.
    pub fn signal(&mut self, pc: u32, sp: u32, trampoline: u32) {
        self.stack.pending = None;
        let key = ArcKey {
            site: pc,
            callee: trampoline,
        };
        self.push(key, pc, sp, ArcKind::Signal);
    }

    /// sigreturn: back to the context the topmost signal frame interrupted.
    pub fn sigreturn(&mut self) {
        if let Some(i) = self.stack.frames.iter().rposition(|f| f.signal) {
            while self.stack.frames.len() > i {
                self.pop();
            }
        }
    }

    /// One profiling tick at `pc`: the real stack gets a sample; returns
    /// that stack (call sites from the outermost in, then `pc`).
    pub fn sample(&mut self, pc: u32) -> Vec<u32> {
        let mut stack: Vec<u32> = self
            .stack
            .frames
            .iter()
            .map(|f| self.program.arcs[f.arc as usize].0.site)
            .collect();
        stack.push(pc);
        *self.program.stacks.entry(stack.clone()).or_insert(0) += 1;
        stack
    }

    /// Closes every open frame as if it had returned after the last
    /// instruction.
    fn finish(&mut self) {
        self.stack.pending = None;
        while self.pop().is_some() {}
    }
}

impl Observer for Tracker<'_> {
    const TRANSFERS: bool = true;
    /// Whole blocks are enough: their counts arrive in `retire_block`.
    const RETIRES: bool = false;

    #[inline(always)]
    fn retire(&mut self, pc: u32, cycles: u64) {
        self.stack.instructions += 1;
        self.stack.cycles += cycles;
        if let Some(t) = self.stack.pending {
            // The delay slot of the transfer has retired: it takes effect.
            if pc == t.site.wrapping_add(4) {
                self.stack.pending = None;
                self.apply(t);
            }
        }
    }

    #[inline(always)]
    fn transfer(&mut self, t: Transfer) {
        self.stack.pending = Some(t);
    }

    #[inline(always)]
    fn retire_block(&mut self, pc: u32, instructions: u64, cycles: u64) {
        self.stack.instructions += instructions;
        self.stack.cycles += cycles;
        if let Some(t) = self.stack.pending {
            // The transfer takes effect if its delay slot was among them.
            let slot = t.site.wrapping_add(4);
            if (slot.wrapping_sub(pc) as u64) < 4 * instructions {
                self.stack.pending = None;
                self.apply(t);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAIN: u32 = 0x1000;
    const F: u32 = 0x2000;
    const G: u32 = 0x3000;
    const SETJMP: u32 = 0x4000;
    const LONGJMP: u32 = 0x5000;

    /// The thread the single-thread tests run as.
    const P: u32 = 100;

    fn graph() -> CallGraph {
        let mut cg = CallGraph::new(&[MAIN, F, G, SETJMP, LONGJMP].map(|start| FunctionRange {
            start,
            end: start + 0x100,
        }));
        cg.start(P);
        cg
    }

    /// Runs `f` on thread `pid`'s tracker.
    fn on<R>(cg: &mut CallGraph, pid: u32, f: impl FnOnce(&mut Tracker<'_>) -> R) -> R {
        cg.with_tracker(pid, f).expect("tracked")
    }

    /// Thread `pid` retires the transfer instruction and its delay slot.
    fn go_in(cg: &mut CallGraph, pid: u32, kind: TransferKind, site: u32, target: u32, sp: u32) {
        on(cg, pid, |t| {
            t.transfer(Transfer {
                kind,
                site,
                target,
                sp,
            });
            t.retire(site, 1);
            t.retire(site + 4, 1);
        });
    }

    fn go(cg: &mut CallGraph, kind: TransferKind, site: u32, target: u32, sp: u32) {
        go_in(cg, P, kind, site, target, sp);
    }

    fn call(cg: &mut CallGraph, site: u32, target: u32, sp: u32) {
        go(cg, TransferKind::Call, site, target, sp);
    }

    fn ret(cg: &mut CallGraph, site: u32, target: u32, sp: u32) {
        go(cg, TransferKind::Return, site, target, sp);
    }

    fn calls(cg: &CallGraph, site: u32, callee: u32) -> u64 {
        cg.arcs()
            .iter()
            .find(|(k, _)| *k == ArcKey { site, callee })
            .map_or(0, |(_, c)| c.calls)
    }

    #[test]
    fn call_and_return_push_and_pop_after_the_delay_slot() {
        let mut cg = graph();
        on(&mut cg, P, |t| {
            t.transfer(Transfer {
                kind: TransferKind::Call,
                site: MAIN + 8,
                target: F,
                sp: 1000,
            })
        });
        on(&mut cg, P, |t| t.retire(MAIN + 8, 1));
        assert_eq!(cg.depth(P), 0, "the delay slot has not retired yet");
        on(&mut cg, P, |t| t.retire(MAIN + 12, 1));
        assert_eq!(cg.depth(P), 1);
        ret(&mut cg, F + 0x20, MAIN + 16, 1000);
        assert_eq!(cg.depth(P), 0);
        assert_eq!(calls(&cg, MAIN + 8, F), 1);
    }

    #[test]
    fn recursion_counts_every_call_and_unwinds_fully() {
        let mut cg = graph();
        call(&mut cg, MAIN + 8, F, 1000);
        for depth in 0..10 {
            call(&mut cg, F + 0x10, F, 960 - depth * 32);
        }
        assert_eq!(cg.depth(P), 11);
        for depth in (0..10).rev() {
            ret(&mut cg, F + 0x40, F + 0x18, 960 - depth * 32);
        }
        ret(&mut cg, F + 0x40, MAIN + 16, 1000);
        assert_eq!(cg.depth(P), 0);
        assert_eq!(calls(&cg, F + 0x10, F), 10);
    }

    #[test]
    fn longjmp_pops_the_frames_below_setjmps_caller() {
        let mut cg = graph();
        call(&mut cg, MAIN + 8, F, 1000); // main -> f, f's sp 960
        call(&mut cg, F + 8, SETJMP, 960);
        ret(&mut cg, SETJMP + 4, F + 16, 960);
        call(&mut cg, F + 0x20, G, 960); // f -> g (sp 900) -> longjmp
        call(&mut cg, G + 8, LONGJMP, 900);
        assert_eq!(cg.depth(P), 3);
        // longjmp restores f's sp and returns to setjmp's return address.
        ret(&mut cg, LONGJMP + 0x40, F + 16, 960);
        assert_eq!(cg.depth(P), 1, "only main -> f is left");
        ret(&mut cg, F + 0x60, MAIN + 16, 1000);
        assert_eq!(cg.depth(P), 0);
    }

    #[test]
    fn tail_call_takes_over_the_frame_and_counts_from_the_original_site() {
        let mut cg = graph();
        call(&mut cg, MAIN + 8, F, 1000);
        go(&mut cg, TransferKind::Jump, F + 0x10, G, 1000);
        assert_eq!(cg.depth(P), 1);
        assert_eq!(calls(&cg, MAIN + 8, G), 1);
        ret(&mut cg, G + 0x10, MAIN + 16, 1000);
        assert_eq!(cg.depth(P), 0);
    }

    #[test]
    fn signal_frame_survives_the_handler_and_sigreturn_pops_it() {
        let mut cg = graph();
        call(&mut cg, MAIN + 8, F, 1000);
        on(&mut cg, P, |t| t.signal(F + 0x24, 960, G));
        call(&mut cg, G + 8, SETJMP, 700); // the handler calls something
        on(&mut cg, P, |t| t.sample(SETJMP + 4));
        ret(&mut cg, SETJMP + 4, G + 16, 700);
        on(&mut cg, P, |t| t.sigreturn());
        assert_eq!(cg.depth(P), 1);
        assert_eq!(
            cg.stacks(),
            vec![(vec![MAIN + 8, F + 0x24, G + 8, SETJMP + 4], 1)]
        );
    }

    #[test]
    fn bal_to_the_next_instruction_is_not_a_call() {
        let mut cg = graph();
        call(&mut cg, F + 8, F + 16, 1000);
        assert_eq!(cg.depth(P), 0);
        assert!(cg.arcs().is_empty());
    }

    #[test]
    fn finish_charges_open_frames_so_inclusive_costs_nest() {
        let mut cg = graph();
        call(&mut cg, MAIN + 8, F, 1000); // 2 instructions so far
        call(&mut cg, F + 8, G, 960); // 4
        on(&mut cg, P, |t| t.retire(G + 8, 5));
        cg.finish();
        let cost = |site, callee| {
            cg.arcs()
                .iter()
                .find(|(k, _)| *k == ArcKey { site, callee })
                .map(|(_, c)| (c.instructions, c.cycles))
        };
        assert_eq!(cost(F + 8, G), Some((1, 5)));
        assert_eq!(cost(MAIN + 8, F), Some((3, 7)));
    }

    #[test]
    fn a_forked_child_returns_through_a_copy_of_its_parents_stack() {
        const CHILD: u32 = P + 1;
        let mut cg = graph();
        call(&mut cg, MAIN + 8, F, 1000); // main -> f, which forks
        cg.fork(P, CHILD);
        assert_eq!(cg.depth(CHILD), 1);
        // The child calls g, returns from it and from f.
        go_in(&mut cg, CHILD, TransferKind::Call, F + 8, G, 960);
        go_in(&mut cg, CHILD, TransferKind::Return, G + 8, F + 16, 960);
        go_in(
            &mut cg,
            CHILD,
            TransferKind::Return,
            F + 0x40,
            MAIN + 16,
            1000,
        );
        assert_eq!(cg.depth(CHILD), 0);
        assert_eq!(
            cg.depth(P),
            1,
            "the child's returns leave the parent's stack alone"
        );
        ret(&mut cg, F + 0x40, MAIN + 16, 1000);
        assert_eq!(cg.depth(P), 0);
        assert_eq!(calls(&cg, MAIN + 8, F), 1, "counted once, by the parent");
        assert_eq!(calls(&cg, F + 8, G), 1);
        // main -> f, from its call's delay slot on: the parent's 2
        // instructions (its return's pair), the child's 6 (its three
        // transfers' pairs), nothing the parent ran before the fork twice.
        let cost = cg.arcs()[0].1;
        assert_eq!((cost.instructions, cost.cycles), (8, 8));
        cg.finish();
        assert_eq!(cg.totals(), (10, 10));
    }

    #[test]
    fn an_sproc_member_starts_on_an_empty_stack_of_its_own() {
        const MEMBER: u32 = P + 1;
        let mut cg = graph();
        call(&mut cg, MAIN + 8, F, 1000);
        cg.start(MEMBER);
        go_in(&mut cg, MEMBER, TransferKind::Call, G + 8, SETJMP, 500);
        assert_eq!((cg.depth(P), cg.depth(MEMBER)), (1, 1));
        // The member's entry returns to the exit stub: no frame expects it.
        go_in(
            &mut cg,
            MEMBER,
            TransferKind::Return,
            SETJMP + 4,
            G + 16,
            500,
        );
        go_in(&mut cg, MEMBER, TransferKind::Return, G + 0x20, 0x7000, 520);
        assert_eq!((cg.depth(P), cg.depth(MEMBER)), (1, 0));
        on(&mut cg, MEMBER, |t| t.sample(G + 4));
        on(&mut cg, P, |t| t.sample(F + 4));
        assert_eq!(
            cg.stacks(),
            vec![(vec![MAIN + 8, F + 4], 1), (vec![G + 4], 1)]
        );
    }

    #[test]
    fn exec_ends_a_threads_stack_and_its_tracking() {
        let mut cg = graph();
        call(&mut cg, MAIN + 8, F, 1000);
        on(&mut cg, P, |t| t.retire(F, 1));
        on(&mut cg, P, |t| t.retire(F + 4, 1));
        cg.end(P);
        assert!(!cg.tracks(P));
        assert_eq!(cg.with_tracker(P, |_| ()), None);
        assert_eq!(cg.arcs()[0].1.instructions, 2, "the open frame was closed");
    }

    #[test]
    fn past_max_frames_in_all_stacks_together_frames_are_not_kept() {
        const CHILD: u32 = P + 1;
        let mut cg = graph();
        call(&mut cg, MAIN + 8, F, 0x1000_0000);
        let deep = MAX_FRAMES as u32 - 11;
        for i in 0..deep {
            call(&mut cg, F + 8, F, 0x0fff_0000 - i * 8);
        }
        cg.fork(P, CHILD);
        assert_eq!(cg.depth(CHILD), 10, "only what fits is copied");
        call(&mut cg, F + 8, G, 0x0100_0000);
        assert_eq!(cg.depth(P), MAX_FRAMES - 10, "the budget is spent");
        assert_eq!(calls(&cg, F + 8, G), 1, "the arc is counted all the same");
        cg.end(CHILD);
        call(&mut cg, G + 8, SETJMP, 0x00f0_0000);
        assert_eq!(cg.depth(P), MAX_FRAMES - 9);
    }
}
