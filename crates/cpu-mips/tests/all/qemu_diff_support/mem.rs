//! The interpreter's guest memory for these programs: the text segment
//! (read + execute) and the data segment (read + write), Vec-backed,
//! big-endian, everything else unmapped.
//!
//! Contents: [`TestMemory`] and its [`Memory`] implementation.

use cpu_mips::{MemFault, Memory};

use super::program::{Program, DATA_BASE, TEXT_BASE};

pub struct TestMemory {
    text: Vec<u8>,
    data: Vec<u8>,
}

impl TestMemory {
    /// The program's two segments, as the ELF loads them.
    pub fn new(program: &Program) -> TestMemory {
        let text = program.text.iter().flat_map(|w| w.to_be_bytes()).collect();
        TestMemory {
            text,
            data: program.data.clone(),
        }
    }

    /// The data segment's bytes at `[addr, addr + len)`, if mapped.
    pub fn data(&self, addr: u32, len: u32) -> Option<&[u8]> {
        let start = addr.checked_sub(DATA_BASE)? as usize;
        self.data.get(start..start.checked_add(len as usize)?)
    }

    fn read<const N: usize>(&self, addr: u32) -> Result<[u8; N], MemFault> {
        let bytes = if addr >= DATA_BASE {
            self.data(addr, N as u32)
        } else {
            let start = addr.checked_sub(TEXT_BASE).ok_or(MemFault::Unmapped)? as usize;
            self.text.get(start..start + N)
        };
        let bytes = bytes.ok_or(MemFault::Unmapped)?;
        Ok(bytes.try_into().expect("slice of length N"))
    }

    fn write<const N: usize>(&mut self, addr: u32, bytes: [u8; N]) -> Result<(), MemFault> {
        if addr < DATA_BASE {
            // Text is mapped read + execute.
            let inside = addr
                .checked_sub(TEXT_BASE)
                .is_some_and(|o| (o as usize) < self.text.len());
            return Err(if inside {
                MemFault::Protection
            } else {
                MemFault::Unmapped
            });
        }
        let start = (addr - DATA_BASE) as usize;
        let slot = self
            .data
            .get_mut(start..start + N)
            .ok_or(MemFault::Unmapped)?;
        slot.copy_from_slice(&bytes);
        Ok(())
    }
}

impl Memory for TestMemory {
    fn load8(&mut self, addr: u32) -> Result<u8, MemFault> {
        self.read::<1>(addr).map(u8::from_be_bytes)
    }
    fn load16(&mut self, addr: u32) -> Result<u16, MemFault> {
        self.read::<2>(addr).map(u16::from_be_bytes)
    }
    fn load32(&mut self, addr: u32) -> Result<u32, MemFault> {
        self.read::<4>(addr).map(u32::from_be_bytes)
    }
    fn load64(&mut self, addr: u32) -> Result<u64, MemFault> {
        self.read::<8>(addr).map(u64::from_be_bytes)
    }
    fn store8(&mut self, addr: u32, value: u8) -> Result<(), MemFault> {
        self.write(addr, value.to_be_bytes())
    }
    fn store16(&mut self, addr: u32, value: u16) -> Result<(), MemFault> {
        self.write(addr, value.to_be_bytes())
    }
    fn store32(&mut self, addr: u32, value: u32) -> Result<(), MemFault> {
        self.write(addr, value.to_be_bytes())
    }
    fn store64(&mut self, addr: u32, value: u64) -> Result<(), MemFault> {
        self.write(addr, value.to_be_bytes())
    }
    fn fetch32(&mut self, addr: u32) -> Result<u32, MemFault> {
        if addr >= DATA_BASE {
            return Err(MemFault::Protection);
        }
        self.load32(addr)
    }
}
