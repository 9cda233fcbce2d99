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
//! and every job sent is finished and kept in the translation cache before
//! the run writes it, so the cache receives the same entries. A CPU that
//! goes (its process exited or exec'd) does not wait for its jobs: the
//! thread finishes them on its own and gives each to the store
//! ([`Worker::detach`]), which waits for such threads before it writes.
//! Only when code arrives depends on the host, and with it how many
//! instructions run compiled; never the guest's state, cycles or output,
//! which every tier gives exactly (the lockstep tests).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
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

/// What takes a finished job once its CPU has gone (see
/// [`Worker::detach`]).
pub(crate) type Sink = Box<dyn FnMut(Done) + Send>;

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
    /// Where the thread gives each job it finishes once the CPU has gone
    /// (`None` until then: it sends them back). The thread holds it while
    /// it gives a job either way, so that each job goes to one of them.
    sink: Arc<Mutex<Option<Sink>>>,
}

impl Worker {
    /// Starts the thread, compiling for `isa` (each job for its target);
    /// `None` if no thread can be started.
    pub fn start(isa: OwnedTargetIsa) -> Option<Worker> {
        let (jobs, queue) = channel::<Job>();
        let (give, done) = channel::<Done>();
        let back = Arc::new(AtomicUsize::new(0));
        let sent_back = Arc::clone(&back);
        let sink = Arc::new(Mutex::new(None));
        let gone_to = Arc::clone(&sink);
        let thread = std::thread::Builder::new()
            .name("irix-emu jit".into())
            .spawn(move || {
                let mut ctx = Context::new();
                let mut fctx = FunctionBuilderContext::new();
                for mut job in queue {
                    let (code, dropped) = compile(&isa, &mut ctx, &mut fctx, &mut job);
                    let done = Done { job, code, dropped };
                    let mut sink = lock(&gone_to);
                    if let Some(keep) = sink.as_mut() {
                        keep(done);
                        continue;
                    }
                    if give.send(done).is_err() {
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
            sink,
        })
    }

    /// Drops the jobs still out without waiting for them: the CPU is going
    /// and nothing keeps its code. The thread ends after the job it is on
    /// (it cannot give it back); returns it.
    pub fn abandon(mut self) -> Option<JoinHandle<()>> {
        self.pending = 0;
        self.thread.take()
    }

    /// Lets the thread finish the jobs still out without the CPU, which is
    /// going: each is given to `keep`, those already back at once, the
    /// others on the thread as it finishes them. Returns the thread, which
    /// ends after its last job (`None` with no job out).
    pub fn detach(mut self, mut keep: impl FnMut(Done) + Send + 'static) -> Option<JoinHandle<()>> {
        {
            // Held while the jobs already back are taken: the thread gives
            // every later one to `keep`.
            let sink = Arc::clone(&self.sink);
            let mut sink = lock(&sink);
            while let Some(done) = self.next(false) {
                keep(done);
            }
            if self.pending == 0 {
                return None;
            }
            *sink = Some(Box::new(keep));
        }
        // The queue closes: the thread ends after the jobs in it. (Dropping
        // `self` then waits for nothing.)
        self.jobs = None;
        self.pending = 0;
        self.thread.take()
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

/// The sink, whoever panicked holding it (a job given to it is then lost:
/// the translation cache only lacks that block).
fn lock(sink: &Mutex<Option<Sink>>) -> MutexGuard<'_, Option<Sink>> {
    sink.lock().unwrap_or_else(|e| e.into_inner())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jit::listing::block_of;
    use crate::jit::{Helpers, Jit};

    /// A worker for this host with `n` jobs sent: `addu t2, t0, t1`,
    /// `jr ra`, `nop` each. `None` where Cranelift has no compiler.
    fn busy_worker(n: usize) -> Option<Worker> {
        let jit = Jit::new(Helpers { exec: 0x1000 }, false, 1 << 20)?;
        let target = jit.target(false);
        let mut worker = Worker::start(jit.isa.clone())?;
        for _ in 0..n {
            let job = Job {
                block: block_of(&[0x0109_5021, 0x03e0_0008, 0]),
                pc: 0x0040_0000,
                status: 0,
                target,
            };
            assert!(worker.send(job));
        }
        Some(worker)
    }

    #[test]
    fn a_cpu_that_goes_leaves_its_jobs_to_the_thread_which_keeps_every_one() {
        let Some(worker) = busy_worker(50) else {
            return;
        };
        let kept = Arc::new(Mutex::new(Vec::new()));
        let into = Arc::clone(&kept);
        let thread = worker.detach(move |done: Done| {
            into.lock().unwrap().push(done.code.is_some());
        });
        if let Some(thread) = thread {
            thread.join().expect("the thread ends after its last job");
        }
        let kept = kept.lock().unwrap();
        assert_eq!(kept.len(), 50, "every job is kept once");
        assert!(kept.iter().all(|&compiled| compiled));
    }

    #[test]
    fn a_cpu_that_goes_without_a_store_drops_its_jobs_at_once() {
        let Some(worker) = busy_worker(2000) else {
            return;
        };
        let back = Arc::clone(&worker.back);
        let thread = worker.abandon().expect("the thread");
        let given = back.load(Ordering::Acquire);
        thread
            .join()
            .expect("the thread ends after the job it was on");
        // It gave no job back after the CPU let it go: the CPU's end of
        // the channel is gone, so it ended after the job it was on instead
        // of compiling the rest (which would take the CPU seconds).
        assert_eq!(back.load(Ordering::Acquire), given);
        assert!(given < 2000, "{given}");
    }
}
