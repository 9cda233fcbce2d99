//! The memory interface: the embedder owns address spaces and permissions.

/// A memory access the embedder refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemFault {
    /// Nothing is mapped at the address (the kernel reports SIGSEGV).
    Unmapped,
    /// Mapped, but the access is not permitted (write to read-only, fetch
    /// from non-executable).
    Protection,
}

/// Big-endian guest memory as the CPU sees it. Addresses are 32-bit user
/// virtual addresses; the CPU has already checked alignment (misaligned
/// accesses are address errors and never reach the embedder).
pub trait Memory {
    fn load8(&mut self, addr: u32) -> Result<u8, MemFault>;
    fn load16(&mut self, addr: u32) -> Result<u16, MemFault>;
    fn load32(&mut self, addr: u32) -> Result<u32, MemFault>;
    fn load64(&mut self, addr: u32) -> Result<u64, MemFault>;
    fn store8(&mut self, addr: u32, value: u8) -> Result<(), MemFault>;
    fn store16(&mut self, addr: u32, value: u16) -> Result<(), MemFault>;
    fn store32(&mut self, addr: u32, value: u32) -> Result<(), MemFault>;
    fn store64(&mut self, addr: u32, value: u64) -> Result<(), MemFault>;
    /// An instruction fetch: needs execute permission.
    fn fetch32(&mut self, addr: u32) -> Result<u32, MemFault>;
    /// Direct access for the compiled tier: the host address of the first
    /// byte of the 4 KiB page holding `addr` (the guest's bytes in order,
    /// big-endian values), through which plain host loads (and, with
    /// `write`, stores) may reach the page until the current
    /// [`Cpu::run`](crate::Cpu::run) returns, or, when the memory has a
    /// [`direct_epoch`](Memory::direct_epoch), for as long as that stays
    /// the same. Called only after an access of the same kind to `addr`
    /// succeeded.
    ///
    /// The embedder promises that those bytes stay where they are, and are
    /// the page's only copy, for that long: for a read, a page no
    /// copy-on-write can replace meanwhile; for a write, the page after
    /// any copy-on-write, which nothing shares meanwhile. `None` (the
    /// default) keeps every access on the methods above.
    fn direct_page(&mut self, _addr: u32, _write: bool) -> Option<std::ptr::NonNull<u8>> {
        None
    }

    /// How long direct pages stay valid: a value that changes (before the
    /// next run) whenever a page `direct_page` handed out may have moved,
    /// been freed or shared, or lost the permission it was handed out
    /// for, and that no other memory the CPU runs with reports. While it
    /// stays the same, the compiled tier keeps its direct pages from one
    /// run to the next. `None` (the default): only for the current run.
    fn direct_epoch(&self) -> Option<u64> {
        None
    }

    /// Where the page holding `addr` lives in a file the embedder shares:
    /// the same bytes, under the same conditions and for as long, as
    /// [`Memory::direct_page`] would hand out for this access, but named by
    /// a file descriptor and the page's offset in that file, so that the
    /// compiled tier can map the page at a fixed distance from every other
    /// (see `jit::view`). `None` (the default) leaves the page to
    /// `direct_page`.
    fn page_frame(&mut self, _addr: u32, _write: bool) -> Option<PageFrame> {
        None
    }

    /// Whether [`Memory::page_frame`] names pages at all: the compiled
    /// tier maps guest memory at a fixed offset only for memory that says
    /// so (where it does not, every access through the view would fault).
    fn has_page_frames(&self) -> bool {
        false
    }
}

/// A page of guest memory as a file's page (see [`Memory::page_frame`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageFrame {
    /// An open file descriptor (on Unix hosts), which stays open while
    /// the frame may be used.
    pub fd: i32,
    /// The page's offset in the file: a multiple of 4 KiB.
    pub offset: u64,
}
