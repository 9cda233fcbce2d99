//! One debugged process as GDB's packets see it: its registers in GDB's
//! layout, its memory, its breakpoints and watchpoints.

use irix_kernel::process::Pid;
use irix_kernel::Kernel;

use super::arch::MipsRegs;
use super::stop::{Traced, Watch, WatchKind};

/// Process `pid`'s registers (None when it is gone).
pub fn read_registers(kernel: &Kernel, pid: Pid) -> Option<MipsRegs> {
    let cpu = &kernel.debug_process(pid)?.cpu;
    let mut regs = MipsRegs::default();
    for (r, v) in regs.gpr.iter_mut().zip(cpu.gpr) {
        *r = v as u32;
    }
    regs.status = cpu.cp0.status;
    regs.lo = cpu.lo as u32;
    regs.hi = cpu.hi as u32;
    regs.badvaddr = cpu.cp0.bad_vaddr;
    regs.cause = cpu.cp0.cause;
    regs.pc = cpu.pc();
    for (i, r) in regs.fpr.iter_mut().enumerate() {
        *r = cpu.fpu.read_word(i);
    }
    regs.fcsr = cpu.fpu.read_control(31);
    regs.fir = cpu.fpu.read_control(0);
    Some(regs)
}

/// Sets process `pid`'s registers. GPRs are sign-extended as the R4000
/// holds 32-bit values; a new PC leaves any delay slot; status, badvaddr,
/// cause and fir are read-only. False when the process is gone.
pub fn write_registers(kernel: &mut Kernel, pid: Pid, regs: &MipsRegs) -> bool {
    let Some(p) = kernel.debug_process_mut(pid) else {
        return false;
    };
    let cpu = &mut p.cpu;
    for (i, &v) in regs.gpr.iter().enumerate().skip(1) {
        cpu.gpr[i] = v as i32 as i64 as u64;
    }
    cpu.lo = regs.lo as i32 as i64 as u64;
    cpu.hi = regs.hi as i32 as i64 as u64;
    if regs.pc != cpu.pc() {
        cpu.set_pc(regs.pc);
    }
    for (i, &v) in regs.fpr.iter().enumerate() {
        cpu.fpu.write_word(i, v);
    }
    cpu.fpu.fcsr = regs.fcsr;
    true
}

/// A `Z`/`z` packet's type: 0 software breakpoint, 2 write, 3 read, 4
/// access watchpoint (1, a hardware breakpoint, is not offered: GDB then
/// uses software ones).
pub enum Point {
    Break,
    Watch(WatchKind),
}

impl Point {
    pub fn from_type(t: u8) -> Option<Point> {
        match t {
            b'0' => Some(Point::Break),
            b'2' => Some(Point::Watch(WatchKind::Write)),
            b'3' => Some(Point::Watch(WatchKind::Read)),
            b'4' => Some(Point::Watch(WatchKind::ReadWrite)),
            _ => None,
        }
    }
}

impl Traced {
    /// Inserts a breakpoint or watchpoint; false when it cannot be (a
    /// misaligned breakpoint, an empty range).
    pub fn insert(&mut self, point: Point, addr: u32, len: u32) -> bool {
        match point {
            Point::Break if addr & 3 != 0 => false,
            Point::Break => {
                self.breakpoints.insert(addr);
                true
            }
            Point::Watch(_) if len == 0 => false,
            Point::Watch(kind) => {
                self.watchpoints.push(Watch { addr, len, kind });
                true
            }
        }
    }

    /// Removes one; false when there was none.
    pub fn remove(&mut self, point: Point, addr: u32, len: u32) -> bool {
        match point {
            Point::Break => self.breakpoints.remove(&addr),
            Point::Watch(kind) => {
                let w = Watch { addr, len, kind };
                match self.watchpoints.iter().position(|x| *x == w) {
                    Some(i) => {
                        self.watchpoints.remove(i);
                        true
                    }
                    None => false,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn breakpoints_and_watchpoints_come_and_go() {
        let mut t = Traced::default();
        assert!(!t.insert(Point::Break, 0x400162, 4));
        assert!(t.insert(Point::Break, 0x400160, 4));
        assert!(t.insert(Point::Watch(WatchKind::Write), 0x1000, 4));
        assert!(!t.insert(Point::Watch(WatchKind::Read), 0x1000, 0));
        assert!(!t.remove(Point::Watch(WatchKind::Read), 0x1000, 4));
        assert!(t.remove(Point::Watch(WatchKind::Write), 0x1000, 4));
        assert!(t.remove(Point::Break, 0x400160, 4));
        assert!(!t.remove(Point::Break, 0x400160, 4));
        assert!(Point::from_type(b'1').is_none());
    }
}
