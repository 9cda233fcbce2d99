//! Guest memory as the profiler sees it.
//!
//! Contents: [`ProfMemory`] (the trait the kernel implements over a process's
//! address space), [`VecMemory`] (a flat big-endian memory for tests, benches
//! and tools), and the probe helpers the system calls use to check a buffer
//! without changing it.

/// Guest memory as the profiler sees it. `Err(())` = the access would fault
/// (the system calls turn it into EFAULT; a tick turns the region off).
/// Values are in the guest's byte order (big-endian) as numbers.
pub trait ProfMemory {
    fn load16(&mut self, addr: u32) -> Result<u16, ()>;
    fn load32(&mut self, addr: u32) -> Result<u32, ()>;
    fn load64(&mut self, addr: u32) -> Result<u64, ()>;
    fn store16(&mut self, addr: u32, v: u16) -> Result<(), ()>;
    fn store32(&mut self, addr: u32, v: u32) -> Result<(), ()>;
    fn store64(&mut self, addr: u32, v: u64) -> Result<(), ()>;
}

/// Checks that the 16-bit word at `addr` is readable and writable, leaving
/// it unchanged (load, then store the same value back).
pub(crate) fn probe16(mem: &mut impl ProfMemory, addr: u32) -> Result<(), ()> {
    let v = mem.load16(addr)?;
    mem.store16(addr, v)
}

/// Checks that the 32-bit word at `addr` is readable and writable, leaving
/// it unchanged.
pub(crate) fn probe32(mem: &mut impl ProfMemory, addr: u32) -> Result<(), ()> {
    let v = mem.load32(addr)?;
    mem.store32(addr, v)
}

/// A flat guest memory: `bytes` mapped at `base`, big-endian; every access
/// outside it faults, and stores into the optional read-only window fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VecMemory {
    /// First mapped address.
    base: u32,
    /// The mapped bytes.
    bytes: Vec<u8>,
    /// Half-open address range where stores fault (loads still work).
    read_only: Option<(u32, u64)>,
}

impl VecMemory {
    /// `len` zero bytes mapped at `base` (clipped to the 32-bit address space).
    pub fn new(base: u32, len: u32) -> Self {
        let len = u64::from(len).min((1u64 << 32) - u64::from(base));
        VecMemory {
            base,
            bytes: vec![0; len as usize],
            read_only: None,
        }
    }

    /// Makes stores to `[start, end)` fault, as a read-only page would.
    pub fn set_read_only(&mut self, start: u32, end: u64) {
        self.read_only = Some((start, end));
    }

    /// The first mapped address.
    pub fn base(&self) -> u32 {
        self.base
    }

    /// One past the last mapped address.
    pub fn end(&self) -> u64 {
        u64::from(self.base) + self.bytes.len() as u64
    }

    /// The byte range of an access, if entirely mapped.
    fn span(&self, addr: u32, len: usize) -> Result<std::ops::Range<usize>, ()> {
        let off = addr.checked_sub(self.base).ok_or(())? as usize;
        let end = off.checked_add(len).ok_or(())?;
        if end <= self.bytes.len() {
            Ok(off..end)
        } else {
            Err(())
        }
    }

    fn load<const N: usize>(&self, addr: u32) -> Result<[u8; N], ()> {
        let r = self.span(addr, N)?;
        let mut out = [0; N];
        out.copy_from_slice(&self.bytes[r]);
        Ok(out)
    }

    fn store<const N: usize>(&mut self, addr: u32, v: [u8; N]) -> Result<(), ()> {
        let r = self.span(addr, N)?;
        if let Some((start, end)) = self.read_only {
            let (a, b) = (u64::from(addr), u64::from(addr) + N as u64);
            if a < end && b > u64::from(start) {
                return Err(());
            }
        }
        self.bytes[r].copy_from_slice(&v);
        Ok(())
    }
}

impl ProfMemory for VecMemory {
    fn load16(&mut self, addr: u32) -> Result<u16, ()> {
        self.load(addr).map(u16::from_be_bytes)
    }
    fn load32(&mut self, addr: u32) -> Result<u32, ()> {
        self.load(addr).map(u32::from_be_bytes)
    }
    fn load64(&mut self, addr: u32) -> Result<u64, ()> {
        self.load(addr).map(u64::from_be_bytes)
    }
    fn store16(&mut self, addr: u32, v: u16) -> Result<(), ()> {
        self.store(addr, v.to_be_bytes())
    }
    fn store32(&mut self, addr: u32, v: u32) -> Result<(), ()> {
        self.store(addr, v.to_be_bytes())
    }
    fn store64(&mut self, addr: u32, v: u64) -> Result<(), ()> {
        self.store(addr, v.to_be_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_are_big_endian() {
        let mut m = VecMemory::new(0x1000, 16);
        m.store32(0x1000, 0x0102_0304).unwrap();
        assert_eq!(m.load16(0x1000), Ok(0x0102));
        assert_eq!(m.load16(0x1002), Ok(0x0304));
    }

    #[test]
    fn accesses_outside_the_mapping_fault() {
        let mut m = VecMemory::new(0x1000, 16);
        assert_eq!(m.load16(0xffe), Err(()));
        assert_eq!(m.load32(0x100e), Err(()));
        assert_eq!(m.store64(0x1008, 1), Ok(()));
        assert_eq!(m.store64(0x1009, 1), Err(()));
    }

    #[test]
    fn read_only_window_faults_stores_only() {
        let mut m = VecMemory::new(0, 64);
        m.set_read_only(16, 32);
        assert_eq!(m.load16(16), Ok(0));
        assert_eq!(m.store16(15, 1), Err(()));
        assert_eq!(m.store16(32, 1), Ok(()));
    }
}
