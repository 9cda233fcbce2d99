//! pcsample(2) (Solaris): one raw user PC per tick into a guest array.
//!
//! Contents: [`Sampler`] (an invocation's array and count), [`Sampler::tick`].
//!
//! solaris pcsample(2): "The pcsample() function is passed an array samples
//! containing nsamples pointer-sized elements" (4 bytes here: 32-bit guest).
//! "During program execution, the kernel samples the program counter of the
//! process, storing unadulterated values in the array on each clock tick."
//! "The kernel stops writing to the array when it is full". "It is also
//! disabled if an update of the samples[] array causes a memory fault."

use super::memory::ProfMemory;

/// Bytes per sample: a pointer-sized element of a 32-bit process.
pub const SAMPLE_BYTES: u32 = 4;

/// One pcsample invocation: where it writes, and how many it has stored
/// (kept after it stops, for the next call's return value).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sampler {
    /// `samples`: the array's guest address.
    pub base: u32,
    /// `nsamples`: the array's length in elements.
    pub capacity: u32,
    /// Samples stored so far by this invocation.
    pub stored: u32,
    /// Still writing (not full, not faulted, not stopped).
    pub running: bool,
}

impl Sampler {
    /// A new invocation; `capacity` 0 samples nothing.
    pub fn start(base: u32, capacity: u32) -> Sampler {
        Sampler {
            base,
            capacity,
            stored: 0,
            running: capacity > 0,
        }
    }

    /// Stores `pc` as the next sample.
    #[inline]
    pub fn tick(&mut self, mem: &mut impl ProfMemory, pc: u32) {
        if !self.running {
            return;
        }
        let addr = u64::from(self.base) + u64::from(self.stored) * u64::from(SAMPLE_BYTES);
        let stored = u32::try_from(addr)
            .map_err(|_| ())
            .and_then(|a| mem.store32(a, pc));
        if stored.is_err() {
            self.running = false;
            return;
        }
        self.stored += 1;
        if self.stored >= self.capacity {
            self.running = false;
        }
    }
}
