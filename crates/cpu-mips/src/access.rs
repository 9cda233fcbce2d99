//! The data memory access an instruction makes, read off its decoded op:
//! for debuggers (watchpoints) and other tools that look at an instruction
//! before it runs. The run loop does not use it.

use crate::decode::Op;
use crate::insn::Reg;

/// A load or store: `bytes` bytes at `gpr[base] + off`, aligned down to
/// `bytes` for the unaligned forms (LWL/LWR/SWL/SWR, LDL/LDR/SDL/SDR touch
/// part of that aligned unit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataAccess {
    pub base: Reg,
    pub off: i16,
    pub bytes: u32,
    pub store: bool,
}

impl DataAccess {
    /// The first byte the access touches, from the base register's value.
    pub fn address(&self, base_value: u64) -> u32 {
        let ea = (base_value as u32).wrapping_add(self.off as i32 as u32);
        ea & !(self.bytes - 1)
    }
}

impl Op {
    /// The data access this instruction makes, if it is a load or store.
    pub fn data_access(&self) -> Option<DataAccess> {
        let (base, off, bytes, store) = match *self {
            Op::Lb { base, off, .. } | Op::Lbu { base, off, .. } => (base, off, 1, false),
            Op::Lh { base, off, .. } | Op::Lhu { base, off, .. } => (base, off, 2, false),
            Op::Lw { base, off, .. }
            | Op::Lwu { base, off, .. }
            | Op::Lwl { base, off, .. }
            | Op::Lwr { base, off, .. }
            | Op::Ll { base, off, .. }
            | Op::Lwc1 { base, off, .. } => (base, off, 4, false),
            Op::Ld { base, off, .. }
            | Op::Ldl { base, off, .. }
            | Op::Ldr { base, off, .. }
            | Op::Lld { base, off, .. }
            | Op::Ldc1 { base, off, .. } => (base, off, 8, false),
            Op::Sb { base, off, .. } => (base, off, 1, true),
            Op::Sh { base, off, .. } => (base, off, 2, true),
            Op::Sw { base, off, .. }
            | Op::Swl { base, off, .. }
            | Op::Swr { base, off, .. }
            | Op::Sc { base, off, .. }
            | Op::Swc1 { base, off, .. } => (base, off, 4, true),
            Op::Sd { base, off, .. }
            | Op::Sdl { base, off, .. }
            | Op::Sdr { base, off, .. }
            | Op::Scd { base, off, .. }
            | Op::Sdc1 { base, off, .. } => (base, off, 8, true),
            _ => return None,
        };
        Some(DataAccess {
            base,
            off,
            bytes,
            store,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode;

    #[test]
    fn loads_and_stores_name_their_access() {
        // sw $v0, -8($sp)
        let a = decode(0xafa2_fff8).data_access().unwrap();
        assert_eq!((a.base, a.off, a.bytes, a.store), (Reg::SP, -8, 4, true));
        assert_eq!(a.address(0x7fff_0010), 0x7fff_0008);
        // lbu $a0, 3($a1)
        let a = decode(0x90a4_0003).data_access().unwrap();
        assert_eq!((a.bytes, a.store, a.address(0x1000)), (1, false, 0x1003));
        // lwl $t0, 5($a0): the aligned word holding byte 5
        let a = decode(0x8888_0005).data_access().unwrap();
        assert_eq!(a.address(0x2000), 0x2004);
        // addu $v0, $a0, $a1 touches no memory
        assert_eq!(decode(0x0085_1021).data_access(), None);
    }
}
