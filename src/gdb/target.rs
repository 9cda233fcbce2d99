//! The gdbstub target: the kernel with the traced process, its registers
//! and memory, resuming and stepping, breakpoints and watchpoints.

use cpu_mips::Observer;
use gdbstub::common::Signal;
use gdbstub::target::ext::base::singlethread::{
    SingleThreadBase, SingleThreadResume, SingleThreadResumeOps, SingleThreadSingleStep,
    SingleThreadSingleStepOps,
};
use gdbstub::target::ext::base::BaseOps;
use gdbstub::target::ext::breakpoints::{
    Breakpoints, BreakpointsOps, HwWatchpoint, HwWatchpointOps, SwBreakpoint, SwBreakpointOps,
    WatchKind,
};
use gdbstub::target::{Target, TargetError, TargetResult};
use irix_kernel::{Kernel, Outcome};

use super::arch::{MipsBe, MipsRegs};
use super::stop::{DebugState, Mode, Position, Watch};

/// What the debugger drives: the whole machine, with one process traced.
pub struct Debuggee<'k, O: Observer> {
    pub kernel: &'k mut Kernel,
    pub obs: &'k mut O,
    pub state: DebugState,
    pub history: super::history::History,
    /// Set when the run ended while GDB watched it.
    pub finished: Option<Outcome>,
}

/// A fatal error of the target (the traced process is gone).
pub type Fatal = &'static str;

impl<O: Observer> Debuggee<'_, O> {
    /// Remembers where the process is, so the next stop is after it.
    fn resume_with(&mut self, mode: Mode) -> Result<(), Fatal> {
        let p = self
            .kernel
            .debug_process(self.state.pid)
            .ok_or("the traced process is gone")?;
        self.state.resumed_at = Position::of(p);
        self.state.mode = mode;
        Ok(())
    }
}

impl<O: Observer> Target for Debuggee<'_, O> {
    type Arch = MipsBe;
    type Error = Fatal;

    fn base_ops(&mut self) -> BaseOps<'_, MipsBe, Fatal> {
        BaseOps::SingleThread(self)
    }

    fn support_breakpoints(&mut self) -> Option<BreakpointsOps<'_, Self>> {
        Some(self)
    }

    fn support_monitor_cmd(
        &mut self,
    ) -> Option<gdbstub::target::ext::monitor_cmd::MonitorCmdOps<'_, Self>> {
        Some(self)
    }

    fn support_libraries(
        &mut self,
    ) -> Option<gdbstub::target::ext::libraries::LibrariesOps<'_, Self>> {
        Some(self)
    }

    fn support_extended_mode(
        &mut self,
    ) -> Option<gdbstub::target::ext::extended_mode::ExtendedModeOps<'_, Self>> {
        Some(self)
    }
}

impl<O: Observer> SingleThreadBase for Debuggee<'_, O> {
    fn read_registers(&mut self, regs: &mut MipsRegs) -> TargetResult<(), Self> {
        let p = self
            .kernel
            .debug_process(self.state.pid)
            .ok_or(TargetError::Fatal("the traced process is gone"))?;
        let cpu = &p.cpu;
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
        Ok(())
    }

    /// GPRs are sign-extended as the R4000 holds 32-bit values; a new PC
    /// leaves any delay slot; status, badvaddr, cause and fir are read-only.
    fn write_registers(&mut self, regs: &MipsRegs) -> TargetResult<(), Self> {
        let p = self
            .kernel
            .debug_process_mut(self.state.pid)
            .ok_or(TargetError::Fatal("the traced process is gone"))?;
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
        Ok(())
    }

    fn read_addrs(&mut self, start: u32, data: &mut [u8]) -> TargetResult<usize, Self> {
        Ok(self.kernel.debug_read(self.state.pid, start, data))
    }

    fn write_addrs(&mut self, start: u32, data: &[u8]) -> TargetResult<(), Self> {
        self.kernel
            .debug_write(self.state.pid, start, data)
            .map_err(|_| TargetError::NonFatal)
    }

    fn support_resume(&mut self) -> Option<SingleThreadResumeOps<'_, Self>> {
        Some(self)
    }
}

impl<O: Observer> SingleThreadResume for Debuggee<'_, O> {
    /// Continues. A signal GDB passes is not delivered (the stub reports
    /// no signal stops it could pass back).
    fn resume(&mut self, _signal: Option<Signal>) -> Result<(), Fatal> {
        self.resume_with(Mode::Continue)
    }

    fn support_single_step(&mut self) -> Option<SingleThreadSingleStepOps<'_, Self>> {
        Some(self)
    }

    fn support_reverse_step(
        &mut self,
    ) -> Option<gdbstub::target::ext::base::reverse_exec::ReverseStepOps<'_, (), Self>> {
        Some(self)
    }

    fn support_reverse_cont(
        &mut self,
    ) -> Option<gdbstub::target::ext::base::reverse_exec::ReverseContOps<'_, (), Self>> {
        Some(self)
    }
}

impl<O: Observer> gdbstub::target::ext::base::reverse_exec::ReverseStep<()> for Debuggee<'_, O> {
    /// reverse-stepi: back to the state before the last instruction.
    fn reverse_step(&mut self, _tid: ()) -> Result<(), Fatal> {
        self.resume_with(Mode::ReverseStep)
    }
}

impl<O: Observer> gdbstub::target::ext::base::reverse_exec::ReverseCont<()> for Debuggee<'_, O> {
    /// reverse-continue: back to the last breakpoint or watchpoint hit.
    fn reverse_cont(&mut self) -> Result<(), Fatal> {
        self.resume_with(Mode::ReverseContinue)
    }
}

impl<O: Observer> SingleThreadSingleStep for Debuggee<'_, O> {
    /// One instruction, a branch with its delay slot: a step of a branch
    /// stops at its target (or after a nullified slot), as GDB's MIPS
    /// stepping expects; a step from a delay slot (where reverse-stepi can
    /// stop) runs the slot and stops at the branch's target.
    fn step(&mut self, _signal: Option<Signal>) -> Result<(), Fatal> {
        self.resume_with(Mode::Step)
    }
}

impl<O: Observer> Breakpoints for Debuggee<'_, O> {
    fn support_sw_breakpoint(&mut self) -> Option<SwBreakpointOps<'_, Self>> {
        Some(self)
    }

    fn support_hw_watchpoint(&mut self) -> Option<HwWatchpointOps<'_, Self>> {
        Some(self)
    }
}

impl<O: Observer> SwBreakpoint for Debuggee<'_, O> {
    fn add_sw_breakpoint(&mut self, addr: u32, _kind: usize) -> TargetResult<bool, Self> {
        if addr & 3 != 0 {
            return Ok(false);
        }
        self.state.breakpoints.insert(addr);
        Ok(true)
    }

    fn remove_sw_breakpoint(&mut self, addr: u32, _kind: usize) -> TargetResult<bool, Self> {
        Ok(self.state.breakpoints.remove(&addr))
    }
}

impl<O: Observer> HwWatchpoint for Debuggee<'_, O> {
    fn add_hw_watchpoint(
        &mut self,
        addr: u32,
        len: u32,
        kind: WatchKind,
    ) -> TargetResult<bool, Self> {
        if len == 0 {
            return Ok(false);
        }
        self.state.watchpoints.push(Watch { addr, len, kind });
        Ok(true)
    }

    fn remove_hw_watchpoint(
        &mut self,
        addr: u32,
        len: u32,
        kind: WatchKind,
    ) -> TargetResult<bool, Self> {
        let w = Watch { addr, len, kind };
        match self.state.watchpoints.iter().position(|x| *x == w) {
            Some(i) => {
                self.state.watchpoints.remove(i);
                Ok(true)
            }
            None => Ok(false),
        }
    }
}

/// Extended mode only so that `kill` (vKill) gets the OK GDB waits for:
/// the stub serves the one program it started.
impl<O: Observer> gdbstub::target::ext::extended_mode::ExtendedMode for Debuggee<'_, O> {
    fn run(
        &mut self,
        _filename: Option<&[u8]>,
        _args: gdbstub::target::ext::extended_mode::Args<'_, '_>,
    ) -> TargetResult<gdbstub::common::Pid, Self> {
        Err(TargetError::NonFatal)
    }

    fn attach(&mut self, _pid: gdbstub::common::Pid) -> TargetResult<(), Self> {
        Err(TargetError::NonFatal)
    }

    fn query_if_attached(
        &mut self,
        _pid: gdbstub::common::Pid,
    ) -> TargetResult<gdbstub::target::ext::extended_mode::AttachKind, Self> {
        Ok(gdbstub::target::ext::extended_mode::AttachKind::Run)
    }

    fn kill(
        &mut self,
        _pid: Option<gdbstub::common::Pid>,
    ) -> TargetResult<gdbstub::target::ext::extended_mode::ShouldTerminate, Self> {
        Ok(gdbstub::target::ext::extended_mode::ShouldTerminate::Yes)
    }

    fn restart(&mut self) -> Result<(), Fatal> {
        Err("restarting the program is not supported")
    }
}
