//! Compiling on a second thread: a block that becomes hot is handed to a
//! compiler thread, and the block tier goes on running it until its code
//! comes back.
//!
//! Contents: [`Worker`] (the thread, its queue and what it returns),
//! [`Job`] and [`Done`].
//!
//! The worker has its own Cranelift context and a target built with the
//! compiled tier's flags (`Jit::host_isa`), so its code is the code the
//! CPU's own compiler would make, byte for byte: compiled code holds no
//! address of its process, so it may be installed anywhere (as the
//! translation cache installs code from disk). Which blocks are compiled
//! does not depend on the thread: each is sent on the same run as before,
//! and the CPU waits for every job before it goes (`Cpu::finish_compiles`),
//! so the translation cache receives the same entries. Only when code
//! arrives depends on the host, and with it how many instructions run
//! compiled; never the guest's state, cycles or output, which every tier
//! gives exactly (the lockstep tests).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;

use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::Context;
use cranelift_frontend::FunctionBuilderContext;

use super::{block_code, Target};
use crate::block::{Block, Members};

/// A block to compile: a copy of it, its first address and the Status it
/// is compiled under. (Its code is installed only in a block of the same
/// instructions: the one sent may have been dropped meanwhile.)
pub(crate) struct Job {
    pub block: Block,
    pub pc: u32,
    pub status: u32,
    /// What it is compiled for (the CPU's compiler's when the job was
    /// sent, see `JitCache::send`: its code is installed and kept only
    /// while the compiler's sites stay the same, see `JitCache::viewed`).
    pub target: Target,
}

/// A compiled job: its machine code, or `None` when it has none (too
/// large, or Cranelift refused it: the block stays on the block tier).
pub(crate) struct Done {
    pub job: Job,
    pub code: Option<Vec<u8>>,
    /// The members the job's block came with, when it was compiled without
    /// them (see [`compile`]): their claims are to be undone.
    pub dropped: Members,
}

/// The compiler thread of one CPU.
pub(crate) struct Worker {
    jobs: Option<Sender<Job>>,
    done: Receiver<Done>,
    /// Jobs sent and not yet received back.
    pending: usize,
    /// Jobs the thread has sent back, counted after each is sent: the run
    /// loop asks [`Worker::any_back`] between blocks, one load, instead of
    /// polling the channel (which took 2% of a cold compile's main thread).
    back: Arc<AtomicUsize>,
    /// Jobs received back.
    received: usize,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts the thread, compiling for `isa` (each job for its target);
    /// `None` if no thread can be started.
    pub fn start(isa: OwnedTargetIsa) -> Option<Worker> {
        let (jobs, queue) = channel::<Job>();
        let (give, done) = channel::<Done>();
        let back = Arc::new(AtomicUsize::new(0));
        let sent_back = Arc::clone(&back);
        let thread = std::thread::Builder::new()
            .name("irix-emu jit".into())
            .spawn(move || {
                let mut ctx = Context::new();
                let mut fctx = FunctionBuilderContext::new();
                for mut job in queue {
                    let (code, dropped) = compile(&isa, &mut ctx, &mut fctx, &mut job);
                    if give.send(Done { job, code, dropped }).is_err() {
                        return;
                    }
                    // After the send, so that a count seen means a job in
                    // the channel.
                    sent_back.fetch_add(1, Ordering::Release);
                }
            })
            .ok()?;
        Some(Worker {
            jobs: Some(jobs),
            done,
            pending: 0,
            back,
            received: 0,
            thread: Some(thread),
        })
    }

    /// Queues `job`; false if the thread is gone.
    pub fn send(&mut self, job: Job) -> bool {
        let sent = self.jobs.as_ref().is_some_and(|q| q.send(job).is_ok());
        self.pending += sent as usize;
        sent
    }

    /// Whether a job has come back that [`Worker::next`] has not taken.
    pub fn any_back(&self) -> bool {
        self.back.load(Ordering::Acquire) > self.received
    }

    /// A finished job, if one is back (`wait`: waits for the next one
    /// while jobs are out).
    pub fn next(&mut self, wait: bool) -> Option<Done> {
        if self.pending == 0 {
            return None;
        }
        let done = if wait {
            self.done.recv().ok()
        } else {
            self.done.try_recv().ok()
        };
        if done.is_some() {
            self.pending -= 1;
            self.received += 1;
        } else if wait {
            // The thread is gone (it panicked): nothing more will come.
            self.pending = 0;
        }
        done
    }
}

impl Drop for Worker {
    /// Closes the queue; the thread ends after the job it is on.
    fn drop(&mut self) {
        self.jobs = None;
        while self.next(true).is_some() {}
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The machine code of `job`'s block, as `Jit::compile` makes it; when
/// there is none with its members (too large with them, say), the block's
/// alone, and the members it no longer has.
fn compile(
    isa: &OwnedTargetIsa,
    ctx: &mut Context,
    fctx: &mut FunctionBuilderContext,
    job: &mut Job,
) -> (Option<Vec<u8>>, Members) {
    let target = job.target;
    let mut code_of = |job: &Job| {
        let mut out = Vec::new();
        block_code(
            isa, ctx, fctx, target, &job.block, job.pc, job.status, &mut out,
        )
        .then_some(out)
    };
    let code = code_of(job);
    if code.is_some() || job.block.members.is_empty() {
        return (code, Box::default());
    }
    let dropped = std::mem::take(&mut job.block.members);
    (code_of(job), dropped)
}
