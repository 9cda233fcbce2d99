//! The host memory that private guest pages live in: a pool of 4 KiB
//! frames, one pool per run (per [`Budget`](super::Budget)), made on the
//! first frame the run asks for.
//!
//! On Linux the pool is one anonymous file (`memfd_create`), grown a chunk
//! at a time and mapped shared chunk by chunk, so that every frame is also
//! a page of that file: the compiled tier can map any page a second time,
//! at a fixed distance from every other, with `mmap(fd, offset)` (see
//! `Memory::page_frame`). Where the file cannot be made, grown or mapped
//! (another host, a sandbox, a limit on file sizes or on mappings), a
//! chunk is anonymous private memory instead: its frames work the same for
//! the kernel and simply have no file. Either way the host gives a page
//! its memory when it is first touched, not when its chunk is mapped.
//!
//! Chunks never move, so a frame's host address is fixed for its life. A
//! freed frame goes on a free list and is the next one handed out (the
//! most recently used memory is the likeliest in the host's caches);
//! nothing goes back to the host before the pool is dropped, which the
//! budget bounds anyway: the pool never holds more frames than the run
//! had pages at its peak. The pool is dropped, every chunk unmapped and
//! the file closed, with the budget and the last frame.

use std::alloc::Layout;
use std::cell::{Cell, RefCell};
use std::ops::{Deref, DerefMut};
#[cfg(target_os = "linux")]
use std::os::fd::FromRawFd;
use std::os::fd::{AsRawFd, OwnedFd};
use std::ptr::NonNull;
use std::rc::Rc;

use cpu_mips::PageFrame;

use super::budget::{PageData, PAGE_BYTES};

/// Frames mapped at a time: 2 MiB, so that a small run maps once and a
/// large one makes a few hundred mappings, not hundreds of thousands.
const CHUNK_FRAMES: usize = 512;
const CHUNK_BYTES: usize = CHUNK_FRAMES * PAGE_BYTES;

/// A run's frames (see the module's documentation).
pub(crate) struct FramePool {
    /// The file the chunks are mapped from, if there is one. Chunk `c` is
    /// the file's bytes from `c * CHUNK_BYTES`, so frame `i`, when its
    /// chunk is in the file, is the file's page `i`.
    file: Option<OwnedFd>,
    chunks: RefCell<Vec<Chunk>>,
    /// The first frame never handed out: it and every frame after it, up
    /// to the end of the last chunk, are still the zeroes a new mapping
    /// reads as.
    fresh: Cell<usize>,
    /// Frames given back, the last freed last (they hold old bytes).
    free: RefCell<Vec<usize>>,
}

/// One mapping of `CHUNK_FRAMES` frames.
struct Chunk {
    base: NonNull<u8>,
    /// Whether it is mapped from the pool's file (else it is anonymous).
    in_file: bool,
}

impl FramePool {
    /// A pool whose chunks are pages of a file where the host allows it.
    pub(crate) fn new() -> Rc<FramePool> {
        #[cfg(target_os = "linux")]
        // SAFETY: a plain system call; a descriptor it returns is new, and
        // only this pool owns it.
        let file = unsafe {
            let fd = libc::memfd_create(c"irix-emu-pages".as_ptr(), libc::MFD_CLOEXEC);
            (fd >= 0).then(|| OwnedFd::from_raw_fd(fd))
        };
        #[cfg(not(target_os = "linux"))]
        let file = None;
        FramePool::with_file(file)
    }

    /// A pool of anonymous chunks only, as on a host without
    /// `memfd_create`: for the tests of that path.
    #[cfg(test)]
    pub(crate) fn anonymous() -> Rc<FramePool> {
        FramePool::with_file(None)
    }

    fn with_file(file: Option<OwnedFd>) -> Rc<FramePool> {
        Rc::new(FramePool {
            file,
            chunks: RefCell::new(Vec::new()),
            fresh: Cell::new(0),
            free: RefCell::new(Vec::new()),
        })
    }

    /// A frame of zeroes: a never-used frame as it is, a reused one
    /// zeroed here.
    pub(crate) fn zeroed(self: &Rc<Self>) -> Frame {
        let (mut frame, reused) = self.take();
        if reused {
            frame.fill(0);
        }
        frame
    }

    /// A frame holding whatever bytes it held last (zeroes or a freed
    /// page's): only for a caller that overwrites every byte at once.
    fn dirty(self: &Rc<Self>) -> Frame {
        self.take().0
    }

    /// The next frame, and whether it was used before.
    fn take(self: &Rc<Self>) -> (Frame, bool) {
        let reused = self.free.borrow_mut().pop();
        let index = match reused {
            Some(index) => index,
            None => {
                let index = self.fresh.get();
                if index == self.chunks.borrow().len() * CHUNK_FRAMES {
                    self.grow();
                }
                self.fresh.set(index + 1);
                index
            }
        };
        let base = self.chunks.borrow()[index / CHUNK_FRAMES].base;
        // SAFETY: the frame lies inside its chunk, which is mapped and
        // CHUNK_BYTES long.
        let bytes = unsafe { base.add(index % CHUNK_FRAMES * PAGE_BYTES) }.cast();
        let frame = Frame {
            bytes,
            index,
            pool: self.clone(),
        };
        (frame, reused.is_some())
    }

    /// Maps one more chunk: from the file if it can, else anonymous.
    #[cold]
    fn grow(&self) {
        let mut chunks = self.chunks.borrow_mut();
        let from_file = self.map_file(chunks.len() * CHUNK_BYTES);
        let chunk = match from_file {
            Some(base) => Chunk {
                base,
                in_file: true,
            },
            None => Chunk {
                base: map_anonymous(),
                in_file: false,
            },
        };
        chunks.push(chunk);
    }

    /// The file's `CHUNK_BYTES` from `offset`, the file grown to hold
    /// them, mapped shared; None if the pool has no file or the host
    /// refuses either.
    fn map_file(&self, offset: usize) -> Option<NonNull<u8>> {
        let fd = self.file.as_ref()?.as_raw_fd();
        let end = libc::off_t::try_from(offset + CHUNK_BYTES).ok()?;
        // SAFETY: plain system calls on the pool's own descriptor and a
        // local; the mapping is new, and checked before use.
        unsafe {
            // Growing a file past the process's file size limit (`ulimit
            // -f`) would not only fail but send SIGXFSZ, which ends the
            // process: such a pool stays in memory of its own instead.
            let mut limit: libc::rlimit = std::mem::zeroed();
            if libc::getrlimit(libc::RLIMIT_FSIZE, &mut limit) != 0
                || (limit.rlim_cur != libc::RLIM_INFINITY && limit.rlim_cur < end as libc::rlim_t)
            {
                return None;
            }
            if libc::ftruncate(fd, end) != 0 {
                return None;
            }
            let p = libc::mmap(
                std::ptr::null_mut(),
                CHUNK_BYTES,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                fd,
                end - CHUNK_BYTES as libc::off_t,
            );
            if p == libc::MAP_FAILED {
                return None;
            }
            NonNull::new(p.cast())
        }
    }

    /// Whether the pool's chunks come from a file (their frames then
    /// name their pages, unless the file could not grow).
    pub(crate) fn has_file(&self) -> bool {
        self.file.is_some()
    }

    /// Where frame `index` is in the pool's file, if its chunk is there.
    fn page_frame(&self, index: usize) -> Option<PageFrame> {
        let fd = self.file.as_ref()?.as_raw_fd();
        self.chunks.borrow()[index / CHUNK_FRAMES]
            .in_file
            .then_some(PageFrame {
                fd,
                offset: (index * PAGE_BYTES) as u64,
            })
    }
}

/// Private anonymous memory for a chunk. A host that cannot give even
/// that is out of memory: it ends the run as a failed `Box` would.
fn map_anonymous() -> NonNull<u8> {
    // SAFETY: a plain system call asking for new memory, checked before
    // use.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            CHUNK_BYTES,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    match NonNull::new(p.cast()) {
        Some(base) if p != libc::MAP_FAILED => base,
        _ => std::alloc::handle_alloc_error(
            Layout::from_size_align(CHUNK_BYTES, PAGE_BYTES).expect("a page-aligned chunk"),
        ),
    }
}

impl Drop for FramePool {
    fn drop(&mut self) {
        for chunk in self.chunks.get_mut() {
            // SAFETY: each chunk is this pool's own mapping of CHUNK_BYTES,
            // and no frame is left to use it (each holds the pool).
            unsafe { libc::munmap(chunk.base.as_ptr().cast(), CHUNK_BYTES) };
        }
        // The file, if any, is closed with `file`.
    }
}

/// One frame of a pool: the bytes of one private page. It reads and writes
/// as the page's bytes; a clone is a new frame holding the same bytes
/// (what `Rc::make_mut` makes for copy-on-write); dropping it gives the
/// frame back to the pool.
pub(crate) struct Frame {
    /// The frame's bytes, in its chunk (which never moves).
    bytes: NonNull<PageData>,
    /// The frame's number in the pool (its page in the pool's file).
    index: usize,
    /// Keeps the chunks mapped while the frame is in use.
    pool: Rc<FramePool>,
}

impl Frame {
    /// The host address of the frame's first byte. It stays valid for the
    /// frame's life, whoever holds the frame; writing through it is for
    /// the one who could write through the frame itself.
    pub(crate) fn host_ptr(&self) -> NonNull<u8> {
        self.bytes.cast()
    }

    /// The frame as a page of the pool's file, if its chunk is mapped
    /// from the file.
    pub(crate) fn page_frame(&self) -> Option<PageFrame> {
        self.pool.page_frame(self.index)
    }
}

impl Deref for Frame {
    type Target = PageData;

    #[inline(always)]
    fn deref(&self) -> &PageData {
        // SAFETY: the frame's bytes stay mapped while the frame holds its
        // pool, and only this frame hands out references to them.
        unsafe { self.bytes.as_ref() }
    }
}

impl DerefMut for Frame {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut PageData {
        // SAFETY: as for `deref`, and `&mut self` makes this the only
        // reference.
        unsafe { self.bytes.as_mut() }
    }
}

impl Clone for Frame {
    fn clone(&self) -> Frame {
        // Every byte is copied over at once, so old bytes need no zeroing.
        let mut copy = self.pool.dirty();
        copy.copy_from_slice(&**self);
        copy
    }
}

impl Drop for Frame {
    fn drop(&mut self) {
        self.pool.free.borrow_mut().push(self.index);
    }
}

/// A page of a pool's file mapped a second time, as the compiled tier
/// maps it (for the tests), unmapped when dropped.
#[cfg(all(test, target_os = "linux"))]
pub(crate) struct MappedAgain(NonNull<u8>);

#[cfg(all(test, target_os = "linux"))]
impl MappedAgain {
    pub(crate) fn new(at: PageFrame) -> MappedAgain {
        // SAFETY: a new shared mapping of one page of an open file.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                PAGE_BYTES,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                at.fd,
                at.offset as libc::off_t,
            )
        };
        assert_ne!(p, libc::MAP_FAILED);
        MappedAgain(NonNull::new(p.cast()).expect("a mapping"))
    }

    pub(crate) fn bytes(&mut self) -> &mut [u8] {
        // SAFETY: the page this maps, for as long as it is mapped.
        unsafe { std::slice::from_raw_parts_mut(self.0.as_ptr(), PAGE_BYTES) }
    }
}

#[cfg(all(test, target_os = "linux"))]
impl Drop for MappedAgain {
    fn drop(&mut self) {
        // SAFETY: the mapping `new` made.
        unsafe { libc::munmap(self.0.as_ptr().cast(), PAGE_BYTES) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freed_frames_are_reused_and_a_reused_zeroed_frame_reads_as_zero() {
        let pool = FramePool::new();
        let mut a = pool.zeroed();
        a.fill(0xab);
        let index = a.index;
        drop(a);
        let b = pool.zeroed();
        assert_eq!(b.index, index, "the last frame freed comes back first");
        assert!(b.iter().all(|&x| x == 0));
        let c = pool.zeroed();
        assert_ne!(c.index, b.index);
    }

    #[test]
    fn a_clone_is_a_new_frame_with_the_same_bytes() {
        let pool = FramePool::new();
        let mut a = pool.zeroed();
        a[100] = 7;
        let mut b = a.clone();
        assert_ne!(a.index, b.index);
        assert_eq!(b[100], 7);
        b[100] = 8;
        assert_eq!(a[100], 7);
    }

    #[test]
    fn the_pool_grows_by_chunks_and_frames_never_move() {
        let pool = FramePool::new();
        let mut frames: Vec<Frame> = (0..CHUNK_FRAMES + 3).map(|_| pool.zeroed()).collect();
        assert_eq!(pool.chunks.borrow().len(), 2);
        let at: Vec<_> = frames.iter().map(Frame::host_ptr).collect();
        for (i, frame) in frames.iter_mut().enumerate() {
            frame[0] = i as u8;
        }
        frames.push(pool.zeroed());
        for (i, frame) in frames.iter().take(at.len()).enumerate() {
            assert_eq!((frame.host_ptr(), frame[0]), (at[i], i as u8));
        }
    }

    /// The page a frame is in the pool's file is the same memory: mapped a
    /// second time, it shows the frame's bytes and takes its writes.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_frame_mapped_again_from_the_file_is_the_same_memory() {
        let pool = FramePool::new();
        let _first = pool.zeroed();
        let mut frame = pool.zeroed();
        let at = frame.page_frame().expect("a memfd on Linux");
        assert_eq!(at.offset, PAGE_BYTES as u64);
        frame[5] = 0x5a;
        let mut page = MappedAgain::new(at);
        assert_eq!(page.bytes()[5], 0x5a);
        page.bytes()[6] = 0xa5;
        assert_eq!(frame[6], 0xa5);
    }

    #[test]
    fn an_anonymous_pool_works_and_has_no_file() {
        let pool = FramePool::anonymous();
        let mut a = pool.zeroed();
        a[0] = 1;
        let b = a.clone();
        assert_eq!((b[0], b.page_frame()), (1, None));
        drop(a);
        assert_eq!(pool.zeroed()[0], 0);
    }
}
