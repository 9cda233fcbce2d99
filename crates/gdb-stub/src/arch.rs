//! Big-endian 32-bit MIPS as GDB's remote protocol sees it.
//!
//! The register file in the order and numbering of GDB's
//! MIPS target description (features `org.gnu.gdb.mips.cpu`, `.cp0` and
//! `.fpu`): r0-r31 (0-31), status (32), lo (33), hi (34), badvaddr (35),
//! cause (36), pc (37), f0-f31 (38-69), fcsr (70), fir (71), each 4 bytes
//! big-endian, as an o32 process has them. The description is served to
//! GDB (qXfer:features:read), so GDB needs no `set architecture`.

/// Number of registers in the `g` packet.
pub const REG_COUNT: usize = 72;

/// The registers GDB reads and writes, in its numbering.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MipsRegs {
    pub gpr: [u32; 32],
    pub status: u32,
    pub lo: u32,
    pub hi: u32,
    pub badvaddr: u32,
    pub cause: u32,
    pub pc: u32,
    pub fpr: [u32; 32],
    pub fcsr: u32,
    pub fir: u32,
}

impl MipsRegs {
    /// The registers in GDB's order.
    pub fn to_array(&self) -> [u32; REG_COUNT] {
        let mut a = [0u32; REG_COUNT];
        a[..32].copy_from_slice(&self.gpr);
        a[32] = self.status;
        a[33] = self.lo;
        a[34] = self.hi;
        a[35] = self.badvaddr;
        a[36] = self.cause;
        a[37] = self.pc;
        a[38..70].copy_from_slice(&self.fpr);
        a[70] = self.fcsr;
        a[71] = self.fir;
        a
    }

    fn from_array(a: &[u32; REG_COUNT]) -> Self {
        let mut r = MipsRegs::default();
        r.gpr.copy_from_slice(&a[..32]);
        r.status = a[32];
        r.lo = a[33];
        r.hi = a[34];
        r.badvaddr = a[35];
        r.cause = a[36];
        r.pc = a[37];
        r.fpr.copy_from_slice(&a[38..70]);
        r.fcsr = a[70];
        r.fir = a[71];
        r
    }
}

impl MipsRegs {
    /// The `g` packet's bytes: 4 big-endian bytes per register.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_array()
            .iter()
            .flat_map(|r| r.to_be_bytes())
            .collect()
    }

    /// A `G` packet's bytes: a shorter packet leaves the registers it does
    /// not reach unchanged.
    pub fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), ()> {
        if !bytes.len().is_multiple_of(4) || bytes.len() > REG_COUNT * 4 {
            return Err(());
        }
        let mut a = self.to_array();
        for (slot, word) in a.iter_mut().zip(bytes.chunks_exact(4)) {
            *slot = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        *self = MipsRegs::from_array(&a);
        Ok(())
    }

    /// Register `n` in GDB's numbering (`p`), None past the last.
    pub fn get(&self, n: usize) -> Option<u32> {
        self.to_array().get(n).copied()
    }

    /// Sets register `n` (`P`); false past the last.
    pub fn set(&mut self, n: usize, value: u32) -> bool {
        let mut a = self.to_array();
        let Some(slot) = a.get_mut(n) else {
            return false;
        };
        *slot = value;
        *self = MipsRegs::from_array(&a);
        true
    }
}

/// The target description: GDB's MIPS register features with 32-bit
/// registers (an o32 process), numbered as the `g` packet orders them, and
/// the OS ABI "none" (GDB has no IRIX ABI; see `libraries`).
pub const TARGET_XML: &str = concat!(
    r#"<?xml version="1.0"?><!DOCTYPE target SYSTEM "gdb-target.dtd"><target version="1.0">"#,
    "<architecture>mips</architecture><osabi>none</osabi>",
    r#"<feature name="org.gnu.gdb.mips.cpu">"#,
    r#"<reg name="r0" bitsize="32" regnum="0"/><reg name="r1" bitsize="32"/><reg name="r2" bitsize="32"/><reg name="r3" bitsize="32"/>"#,
    r#"<reg name="r4" bitsize="32"/><reg name="r5" bitsize="32"/><reg name="r6" bitsize="32"/><reg name="r7" bitsize="32"/>"#,
    r#"<reg name="r8" bitsize="32"/><reg name="r9" bitsize="32"/><reg name="r10" bitsize="32"/><reg name="r11" bitsize="32"/>"#,
    r#"<reg name="r12" bitsize="32"/><reg name="r13" bitsize="32"/><reg name="r14" bitsize="32"/><reg name="r15" bitsize="32"/>"#,
    r#"<reg name="r16" bitsize="32"/><reg name="r17" bitsize="32"/><reg name="r18" bitsize="32"/><reg name="r19" bitsize="32"/>"#,
    r#"<reg name="r20" bitsize="32"/><reg name="r21" bitsize="32"/><reg name="r22" bitsize="32"/><reg name="r23" bitsize="32"/>"#,
    r#"<reg name="r24" bitsize="32"/><reg name="r25" bitsize="32"/><reg name="r26" bitsize="32"/><reg name="r27" bitsize="32"/>"#,
    r#"<reg name="r28" bitsize="32"/><reg name="r29" bitsize="32"/><reg name="r30" bitsize="32"/><reg name="r31" bitsize="32"/>"#,
    r#"<reg name="lo" bitsize="32" regnum="33"/><reg name="hi" bitsize="32" regnum="34"/><reg name="pc" bitsize="32" regnum="37"/>"#,
    "</feature>",
    r#"<feature name="org.gnu.gdb.mips.cp0">"#,
    r#"<reg name="status" bitsize="32" regnum="32"/><reg name="badvaddr" bitsize="32" regnum="35"/><reg name="cause" bitsize="32" regnum="36"/>"#,
    "</feature>",
    r#"<feature name="org.gnu.gdb.mips.fpu">"#,
    r#"<reg name="f0" bitsize="32" type="ieee_single" regnum="38"/><reg name="f1" bitsize="32" type="ieee_single"/>"#,
    r#"<reg name="f2" bitsize="32" type="ieee_single"/><reg name="f3" bitsize="32" type="ieee_single"/>"#,
    r#"<reg name="f4" bitsize="32" type="ieee_single"/><reg name="f5" bitsize="32" type="ieee_single"/>"#,
    r#"<reg name="f6" bitsize="32" type="ieee_single"/><reg name="f7" bitsize="32" type="ieee_single"/>"#,
    r#"<reg name="f8" bitsize="32" type="ieee_single"/><reg name="f9" bitsize="32" type="ieee_single"/>"#,
    r#"<reg name="f10" bitsize="32" type="ieee_single"/><reg name="f11" bitsize="32" type="ieee_single"/>"#,
    r#"<reg name="f12" bitsize="32" type="ieee_single"/><reg name="f13" bitsize="32" type="ieee_single"/>"#,
    r#"<reg name="f14" bitsize="32" type="ieee_single"/><reg name="f15" bitsize="32" type="ieee_single"/>"#,
    r#"<reg name="f16" bitsize="32" type="ieee_single"/><reg name="f17" bitsize="32" type="ieee_single"/>"#,
    r#"<reg name="f18" bitsize="32" type="ieee_single"/><reg name="f19" bitsize="32" type="ieee_single"/>"#,
    r#"<reg name="f20" bitsize="32" type="ieee_single"/><reg name="f21" bitsize="32" type="ieee_single"/>"#,
    r#"<reg name="f22" bitsize="32" type="ieee_single"/><reg name="f23" bitsize="32" type="ieee_single"/>"#,
    r#"<reg name="f24" bitsize="32" type="ieee_single"/><reg name="f25" bitsize="32" type="ieee_single"/>"#,
    r#"<reg name="f26" bitsize="32" type="ieee_single"/><reg name="f27" bitsize="32" type="ieee_single"/>"#,
    r#"<reg name="f28" bitsize="32" type="ieee_single"/><reg name="f29" bitsize="32" type="ieee_single"/>"#,
    r#"<reg name="f30" bitsize="32" type="ieee_single"/><reg name="f31" bitsize="32" type="ieee_single"/>"#,
    r#"<reg name="fcsr" bitsize="32" group="float" regnum="70"/><reg name="fir" bitsize="32" group="float" regnum="71"/>"#,
    "</feature></target>"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registers_round_trip_big_endian() {
        let mut r = MipsRegs::default();
        r.gpr[2] = 0x1122_3344;
        r.pc = 0x0040_0100;
        r.fir = 0x0000_0500;
        let bytes = r.to_bytes();
        assert_eq!(bytes.len(), REG_COUNT * 4);
        assert_eq!(&bytes[8..12], &[0x11, 0x22, 0x33, 0x44]);
        assert_eq!(&bytes[37 * 4..38 * 4], &[0x00, 0x40, 0x01, 0x00]);
        let mut back = MipsRegs::default();
        back.write_bytes(&bytes).unwrap();
        assert_eq!(back, r);
        assert!(back.write_bytes(&bytes[..5]).is_err());
        assert_eq!(back.get(37), Some(0x0040_0100));
        assert!(back.set(2, 7));
        assert_eq!(back.gpr[2], 7);
        assert!(!back.set(REG_COUNT, 7));
    }

    #[test]
    fn target_description_numbers_every_register() {
        let xml = TARGET_XML;
        assert_eq!(xml.matches("<reg ").count(), REG_COUNT);
        assert!(xml.contains(r#"name="pc" bitsize="32" regnum="37""#));
        // GDB has no IRIX OS ABI; "none" selects the target-side library list.
        assert!(xml.contains("<osabi>none</osabi>"));
    }
}
