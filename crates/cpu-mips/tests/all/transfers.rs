//! `Observer::transfer`: the calls, returns and jumps a call-graph tracker
//! sees, in order, each before the retirement of the instruction that made
//! it; conditional branches and not-taken and-link branches report nothing.

use crate::testmem;

use cpu_mips::{Observer, Transfer, TransferKind};
use testmem::{machine, r::*, CODE};

const NOP: u32 = 0;

#[derive(Default)]
struct Recorder {
    events: Vec<(char, u32)>,
    transfers: Vec<Transfer>,
}

impl Observer for Recorder {
    const TRANSFERS: bool = true;
    fn retire(&mut self, pc: u32, _cycles: u64) {
        self.events.push(('r', pc));
    }
    fn transfer(&mut self, t: Transfer) {
        self.events.push(('t', t.site));
        self.transfers.push(t);
    }
}

#[test]
fn calls_returns_and_jumps_are_reported_with_site_target_and_sp() {
    let at = |off: u32| CODE + off;
    let program = [
        0x0c00_0000 | (at(0x20) >> 2 & 0x03ff_ffff), // 0x00 jal 0x20
        NOP,                                         // 0x04
        0x0800_0000 | (at(0x40) >> 2 & 0x03ff_ffff), // 0x08 j 0x40
        NOP,                                         // 0x0c
        NOP,
        NOP,
        NOP,
        NOP,
        0x03e0_0008, // 0x20 jr $ra
        NOP,         // 0x24
        NOP,
        NOP,
        NOP,
        NOP,
        NOP,
        NOP,
        0x0490_0003, // 0x40 bltzal $a0, +3 ($a0 = 0: not taken, no transfer)
        NOP,         // 0x44
        0x1000_0001, // 0x48 b +1 (a plain branch: no transfer)
        NOP,         // 0x4c
        0x0411_0003, // 0x50 bgezal $zero, +3 -> 0x60
        NOP,         // 0x54
        NOP,
        NOP,
        0x0320_0008, // 0x60 jr $t9
        NOP,         // 0x64
    ];
    let (mut cpu, mut mem) = machine(false, &program);
    cpu.gpr[SP] = 0x7fff_0000;
    cpu.gpr[25] = at(0x70) as u64; // $t9
    let mut rec = Recorder::default();
    cpu.run(&mut mem, &mut rec, cpu.cycles() + 40);
    let got: Vec<(TransferKind, u32, u32)> = rec
        .transfers
        .iter()
        .map(|t| (t.kind, t.site - CODE, t.target - CODE))
        .collect();
    assert_eq!(
        got,
        vec![
            (TransferKind::Call, 0x00, 0x20),
            (TransferKind::Return, 0x20, 0x08),
            (TransferKind::Jump, 0x08, 0x40),
            (TransferKind::Call, 0x50, 0x60),
            (TransferKind::Jump, 0x60, 0x70),
        ]
    );
    assert!(rec.transfers.iter().all(|t| t.sp == 0x7fff_0000));
    // Each transfer comes just before its instruction retires.
    for t in &rec.transfers {
        let i = rec
            .events
            .iter()
            .position(|&e| e == ('t', t.site))
            .expect("reported");
        assert_eq!(rec.events[i + 1], ('r', t.site));
    }
}

/// Transfers alone, as a call-graph tracker wants them: the block and
/// compiled tiers run whole blocks for it.
#[derive(Default)]
pub(crate) struct TransfersOnly(pub Vec<Transfer>);

impl Observer for TransfersOnly {
    const RETIRES: bool = false;
    const TRANSFERS: bool = true;
    fn retire(&mut self, _pc: u32, _cycles: u64) {}
    fn transfer(&mut self, t: Transfer) {
        self.0.push(t);
    }
}

/// A call whose delay slot pushes a frame and a return whose delay slot
/// pops it: each transfer reports $sp as it was just after the transfer
/// itself, before its slot, on every engine (compiled code keeps $sp from
/// before the slot's write only where the slot writes it).
#[test]
fn a_return_whose_delay_slot_pops_the_frame_reports_the_frame_on_every_engine() {
    let at = |off: u32| CODE + off;
    let program = [
        0x2419_012c,                                 // 0x00 addiu $t9, $zero, 300
        0x0c00_0000 | (at(0x20) >> 2 & 0x03ff_ffff), // 0x04 jal 0x20
        0x27bd_fff0,                                 // 0x08 addiu $sp, $sp, -16
        0x2739_ffff,                                 // 0x0c addiu $t9, $t9, -1
        0x1720_fffc,                                 // 0x10 bne $t9, $zero, 0x04
        NOP,                                         // 0x14
        0x0000_000d,                                 // 0x18 break
        NOP,                                         // 0x1c
        0x0059_1021,                                 // 0x20 addu $v0, $v0, $t9
        0x03e0_0008,                                 // 0x24 jr $ra
        0x27bd_0010,                                 // 0x28 addiu $sp, $sp, 16
    ];
    let run = |engine| {
        let (_, mut mem) = machine(false, &program);
        let mut cpu = cpu_mips::Cpu::new(cpu_mips::CpuConfig {
            engine,
            compile_after: 10,
            compile_on_thread: false,
            ..cpu_mips::CpuConfig::default()
        });
        cpu.set_pc(CODE);
        cpu.gpr[SP] = 0x7fff_0000;
        let mut obs = TransfersOnly::default();
        cpu.run(&mut mem, &mut obs, cpu.cycles() + 100_000);
        (obs.0, cpu.instructions_compiled())
    };
    let (want, _) = run(cpu_mips::Engine::Interp);
    assert_eq!(want.len(), 600, "300 calls and 300 returns");
    for (i, t) in want.iter().enumerate() {
        let (kind, sp) = if i % 2 == 0 {
            (TransferKind::Call, 0x7fff_0000)
        } else {
            (TransferKind::Return, 0x7fff_0000 - 16)
        };
        assert_eq!((t.kind, t.sp), (kind, sp), "transfer {i}");
    }
    for engine in [cpu_mips::Engine::Block, cpu_mips::Engine::Jit] {
        let (got, compiled) = run(engine);
        assert_eq!(got, want, "{engine:?}");
        if engine == cpu_mips::Engine::Jit
            && cfg!(any(target_arch = "x86_64", target_arch = "aarch64"))
        {
            assert!(compiled > 0, "the blocks ran compiled");
        }
    }
}
