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
}
