//! A system call's arguments, read through typed accessors so a handler
//! says what each word means (as gVisor's `arch.SyscallArguments` does).

/// Up to eight argument words, as the guest passed them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Args([u32; 8]);

impl Args {
    pub fn new(words: [u32; 8]) -> Self {
        Args(words)
    }

    /// Argument `i` as the raw word (flags, commands, masks).
    pub fn word(&self, i: usize) -> u32 {
        self.0[i]
    }

    /// Argument `i` as a C `int`.
    pub fn int(&self, i: usize) -> i32 {
        self.0[i] as i32
    }

    /// Argument `i` as a guest address (checked when it is used).
    pub fn ptr(&self, i: usize) -> u32 {
        self.0[i]
    }

    /// Argument `i` as a byte count (`size_t`).
    pub fn size(&self, i: usize) -> u32 {
        self.0[i]
    }

    /// Argument `i` as a descriptor number.
    pub fn fd(&self, i: usize) -> u32 {
        self.0[i]
    }

    /// A 64-bit value passed as two words, high word first (lseek64's
    /// offset, aligned to an even register pair).
    pub fn u64_pair(&self, hi: usize) -> u64 {
        u64::from(self.0[hi]) << 32 | u64::from(self.0[hi + 1])
    }

    /// The arguments after the first (a syssgi request's own arguments).
    pub fn shifted(&self) -> Args {
        let mut w = [0; 8];
        w[..7].copy_from_slice(&self.0[1..]);
        Args(w)
    }

    /// All eight words, for --strace.
    pub fn words(&self) -> &[u32; 8] {
        &self.0
    }
}
