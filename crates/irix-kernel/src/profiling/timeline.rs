//! The timeline of a profiled run (`prof --format firefox`): every outside
//! tick with its process, time and stack, each process's spans of virtual
//! time (one per program it ran), and the events between: system calls
//! with their decoded arguments, result and virtual duration, signals,
//! fork, sproc, exec and exit.
//!
//! A process of the profiled program is followed across exec: its
//! histogram and call graph end there (they belong to the program the
//! profile started on), but the timeline goes on sampling its PC on the
//! same grid, in a new span named after the new program, and so do the
//! processes it forks. Everything is on the virtual clock (cycles since
//! boot), so two runs give the same timeline.

use std::collections::BTreeMap;

use crate::clock;
use crate::kernel::Kernel;
use crate::process::{ExitStatus, Pid, Process};

/// The recorded timeline of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Timeline {
    /// Every tick in time order.
    pub samples: Vec<TimelineSample>,
    /// Each process's spans, in the order they started: a process has one
    /// per program it ran while recorded.
    pub spans: Vec<TimelineSpan>,
    /// Events in the order they ended.
    pub events: Vec<TimelineEvent>,
    /// The programs recorded processes exec'd; a span's `image` indexes
    /// this (0 is the profiled program itself).
    pub images: Vec<TimelineImage>,
    /// Processes sampled for the timeline alone (they exec'd away from
    /// the profiled program): the user-cycle count of their next tick and
    /// their image.
    followers: BTreeMap<Pid, (u64, usize)>,
    /// Events past [`MAX_EVENTS`], not kept.
    pub events_dropped: u64,
    /// When each process's current system call began (a call that blocks
    /// is made again until it completes; its marker spans the wait).
    calls_began: BTreeMap<Pid, u64>,
    /// Each recorded process's open span (an index into `spans`).
    open: BTreeMap<Pid, usize>,
}

/// One tick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimelineSample {
    pub pid: Pid,
    /// Virtual time since boot, in cycles.
    pub time: u64,
    /// The call sites from the outermost frame in, then the sampled PC
    /// (only the PC without `--callgraph`, and after an exec).
    pub stack: Vec<u32>,
    /// Which program the stack's addresses belong to (see
    /// [`Timeline::images`]).
    pub image: usize,
}

/// A process's span of virtual time running one program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TimelineSpan {
    pub pid: Pid,
    /// The program's name (the last part of its path).
    pub name: String,
    pub start: u64,
    /// When it exec'd or ended; None if it was still running.
    pub end: Option<u64>,
    pub image: usize,
}

/// A program a recorded process ran.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TimelineImage {
    /// Its path as the guest named it.
    pub guest_path: String,
    /// Its text symbols as exec loaded them (not as its file may read
    /// later: a build may rewrite or remove it).
    pub symbols: Vec<loader::Symbol>,
}

impl TimelineImage {
    /// `exe`, run by the guest as `guest_path`.
    pub fn of(guest_path: String, exe: &loader::Executable) -> Self {
        let symbols = exe.symbols.iter().filter(|s| s.kind.is_text());
        TimelineImage {
            guest_path,
            symbols: symbols.cloned().collect(),
        }
    }
}

/// The most events a timeline keeps: past it, later events are counted,
/// not kept (each holds its call's decoded arguments: a long run could
/// otherwise fill the host's memory).
pub const MAX_EVENTS: usize = 1 << 20;

/// Something a process did, over `start..=end` (equal for an instant).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimelineEvent {
    pub pid: Pid,
    pub start: u64,
    pub end: u64,
    pub kind: EventKind,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A system call as `--strace` shows it: its name, its arguments
    /// decoded, and its result.
    Syscall {
        name: String,
        args: Vec<String>,
        result: String,
    },
    /// A signal's handler was entered.
    Signal { signal: String },
    /// The process stopped on a signal.
    Stopped { signal: String },
    /// It made a child with fork (`shares` false) or sproc.
    Child { child: Pid, shares: bool },
    /// It exec'd a program (the path as the guest named it).
    Exec { path: String },
    /// It ended.
    Exit { status: ExitStatus },
}

impl Timeline {
    /// A timeline of the processes `pids`, all running the profiled
    /// program `image`, from `now`.
    pub(crate) fn new(
        pids: impl Iterator<Item = (Pid, String)>,
        image: TimelineImage,
        now: u64,
    ) -> Self {
        let mut t = Timeline {
            images: vec![image],
            ..Timeline::default()
        };
        for (pid, name) in pids {
            t.open_span(pid, name, now, 0);
        }
        t
    }

    /// Starts a span of `pid` at `now`, running `image`.
    fn open_span(&mut self, pid: Pid, name: String, now: u64, image: usize) {
        self.open.insert(pid, self.spans.len());
        self.spans.push(TimelineSpan {
            pid,
            name,
            start: now,
            end: None,
            image,
        });
    }

    /// Ends `pid`'s open span at `now`.
    fn close_span(&mut self, pid: Pid, now: u64) {
        if let Some(i) = self.open.remove(&pid) {
            self.spans[i].end = Some(now);
        }
    }

    /// The image `pid` runs, if it is recorded.
    fn image_of(&self, pid: Pid) -> Option<usize> {
        self.open.get(&pid).map(|&i| self.spans[i].image)
    }

    /// Whether process `pid` is recorded now.
    pub fn records(&self, pid: Pid) -> bool {
        self.open.contains_key(&pid)
    }

    /// Keeps `event`, unless the timeline holds [`MAX_EVENTS`] already.
    fn push(&mut self, event: TimelineEvent) {
        if self.events.len() < MAX_EVENTS {
            self.events.push(event);
        } else {
            self.events_dropped += 1;
        }
    }

    fn instant(&mut self, pid: Pid, time: u64, kind: EventKind) {
        self.push(TimelineEvent {
            pid,
            start: time,
            end: time,
            kind,
        });
    }
}

impl Kernel {
    /// The timeline, when one is recorded.
    fn timeline(&mut self) -> Option<&mut Timeline> {
        self.outside.as_mut()?.timeline.as_mut()
    }

    /// The recorded timeline of process `pid`, if it is recorded.
    fn timeline_of(&mut self, pid: Pid) -> Option<&mut Timeline> {
        self.timeline().filter(|t| t.records(pid))
    }

    /// A system call of `pid` is being made: afresh, or again after it
    /// blocked (`retry`: it began earlier).
    pub(crate) fn timeline_call_made(&mut self, pid: Pid, retry: bool) {
        let now = self.now;
        if let Some(t) = self.timeline_of(pid) {
            if retry {
                t.calls_began.entry(pid).or_insert(now);
            } else {
                t.calls_began.insert(pid, now);
            }
        }
    }

    /// A system call of `pid` completed (or was interrupted).
    pub(crate) fn timeline_call_done(
        &mut self,
        pid: Pid,
        name: String,
        args: Vec<String>,
        result: String,
    ) {
        let now = self.now;
        if let Some(t) = self.timeline_of(pid) {
            let start = t.calls_began.remove(&pid).unwrap_or(now);
            t.push(TimelineEvent {
                pid,
                start,
                end: now,
                kind: EventKind::Syscall { name, args, result },
            });
        }
    }

    /// Whether calls of `pid` are recorded (their markers need decoded
    /// arguments).
    pub(crate) fn timeline_records(&self, pid: Pid) -> bool {
        self.outside
            .as_ref()
            .and_then(|o| o.timeline.as_ref())
            .is_some_and(|t| t.records(pid))
    }

    /// `pid` entered the handler of signal `sig`.
    pub(crate) fn timeline_signal(&mut self, pid: Pid, sig: u32) {
        let now = self.now;
        if let Some(t) = self.timeline_of(pid) {
            let signal = crate::signals::name(sig);
            t.instant(pid, now, EventKind::Signal { signal });
        }
    }

    /// `pid` stopped on signal `sig`.
    pub(crate) fn timeline_stopped(&mut self, pid: Pid, sig: u32) {
        let now = self.now;
        if let Some(t) = self.timeline_of(pid) {
            let signal = crate::signals::name(sig);
            t.instant(pid, now, EventKind::Stopped { signal });
        }
    }

    /// fork or sproc: a recorded parent's child is recorded too, running
    /// the parent's program (the caller has made it a member of the
    /// outside profile when that program is the profiled one).
    pub(crate) fn timeline_child(&mut self, parent: Pid, child: &Process, shares: bool) {
        let now = self.now;
        let member = self.outside_profiled(child.pid);
        let Some(t) = self.timeline_of(parent) else {
            return;
        };
        let image = t.image_of(parent).unwrap_or(0);
        t.instant(
            parent,
            now,
            EventKind::Child {
                child: child.pid,
                shares,
            },
        );
        t.open_span(child.pid, child.name.clone(), now, image);
        if !member {
            // The parent exec'd away from the profiled program: the child
            // is sampled for the timeline alone, on its own grid.
            let interval = self.outside.as_ref().map_or(u64::MAX, |o| o.interval);
            let next = clock::next_grid_point(child.user_cycles(), interval);
            if let Some(t) = self.timeline() {
                t.followers.insert(child.pid, (next, image));
            }
        }
    }

    /// `p` exec'd `exe` as `guest_path`: its span ends and a new one
    /// starts, sampled for the timeline alone. Called with `p` already
    /// running the new image.
    pub(crate) fn timeline_exec(
        &mut self,
        p: &Process,
        guest_path: &[u8],
        exe: &loader::Executable,
    ) {
        let now = self.now;
        let interval = self.outside.as_ref().map_or(u64::MAX, |o| o.interval);
        let Some(t) = self.timeline_of(p.pid) else {
            return;
        };
        let guest_path = String::from_utf8_lossy(guest_path).into_owned();
        t.close_span(p.pid, now);
        t.images.push(TimelineImage::of(guest_path.clone(), exe));
        let image = t.images.len() - 1;
        t.open_span(p.pid, p.name.clone(), now, image);
        t.instant(p.pid, now, EventKind::Exec { path: guest_path });
        let next = clock::next_grid_point(p.user_cycles(), interval);
        t.followers.insert(p.pid, (next, image));
    }

    /// `pid` ended with `status`.
    pub(crate) fn timeline_exit(&mut self, pid: Pid, status: ExitStatus) {
        let now = self.now;
        if let Some(t) = self.timeline_of(pid) {
            t.instant(pid, now, EventKind::Exit { status });
            t.close_span(pid, now);
            t.followers.remove(&pid);
            t.calls_began.remove(&pid);
        }
    }

    /// The user-cycle count of the next timeline-only tick of `pid`.
    pub(crate) fn follower_deadline(&self, pid: Pid) -> Option<u64> {
        let t = self.outside.as_ref()?.timeline.as_ref()?;
        t.followers.get(&pid).map(|&(next, _)| next)
    }

    /// Takes the timeline-only ticks that have fallen due for `p`.
    pub(crate) fn follower_ticks(&mut self, p: &Process) {
        let (now, time) = (p.user_cycles(), self.now);
        let Some(o) = self.outside.as_mut() else {
            return;
        };
        let interval = o.interval;
        let Some(t) = o.timeline.as_mut() else {
            return;
        };
        let Some(&(mut next, image)) = t.followers.get(&p.pid) else {
            return;
        };
        let pc = p.cpu.sample_pc();
        while now >= next {
            t.samples.push(TimelineSample {
                pid: p.pid,
                time,
                stack: vec![pc],
                image,
            });
            next += interval;
        }
        t.followers.insert(p.pid, (next, image));
    }
}
