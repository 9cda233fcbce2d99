//! Engine throughput: hand-encoded loops (integer, and double-precision
//! floating point) run through `Cpu::run` on each engine with the timing
//! model on and no observer, reported as guest instructions per second
//! (Throughput::Elements). Run: `cargo bench -p cpu-mips --bench interp`.

use cpu_mips::{Cpu, CpuConfig, Engine, ExcCode, MemFault, Memory, StopReason};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const CODE: u32 = 0x0040_0000;
const ITERATIONS: u64 = 1_000_000;

/// One million iterations of a 5-instruction loop body, then BREAK.
const PROGRAM: [u32; 8] = [
    0x3c04_000f, // lui   $a0, 0xf
    0x3484_4240, // ori   $a0, $a0, 0x4240      ($a0 = 1_000_000)
    0x0044_1021, // loop: addu $v0, $v0, $a0
    0x0064_1826, //       xor  $v1, $v1, $a0
    0x2484_ffff, //       addiu $a0, $a0, -1
    0x1480_fffc, //       bne  $a0, $zero, loop
    0x0003_1840, //       sll  $v1, $v1, 1      (delay slot)
    0x0000_000d, // break
];
/// Instructions retired per run (BREAK raises and does not retire).
const RETIRED: u64 = 2 + 5 * ITERATIONS;

/// One million iterations of a loop of two double-precision operations
/// (add.d, mul.d) and three integer ones, then BREAK.
const FP_PROGRAM: [u32; 10] = [
    0x3c04_000f, // lui   $a0, 0xf
    0x3484_4240, // ori   $a0, $a0, 0x4240      ($a0 = 1_000_000)
    0x4484_1000, // mtc1  $a0, $f2
    0x4680_10a1, // cvt.d.w $f2, $f2
    0x4622_2100, // loop: add.d $f4, $f4, $f2
    0x4622_1182, //       mul.d $f6, $f2, $f2
    0x2484_ffff, //       addiu $a0, $a0, -1
    0x1480_fffc, //       bne  $a0, $zero, loop
    0x4624_3201, //       sub.d $f8, $f6, $f4   (delay slot)
    0x0000_000d, // break
];
const FP_RETIRED: u64 = 4 + 5 * ITERATIONS;

/// A flat, contiguous memory (the embedder's fast path looks like this).
struct FlatMem {
    base: u32,
    bytes: Vec<u8>,
}

impl FlatMem {
    fn slice<const N: usize>(&self, addr: u32) -> Result<[u8; N], MemFault> {
        let off = addr.wrapping_sub(self.base) as usize;
        self.bytes
            .get(off..off + N)
            .map(|s| s.try_into().unwrap())
            .ok_or(MemFault::Unmapped)
    }
    fn put(&mut self, addr: u32, v: &[u8]) -> Result<(), MemFault> {
        let off = addr.wrapping_sub(self.base) as usize;
        self.bytes
            .get_mut(off..off + v.len())
            .ok_or(MemFault::Unmapped)?
            .copy_from_slice(v);
        Ok(())
    }
}

impl Memory for FlatMem {
    fn load8(&mut self, a: u32) -> Result<u8, MemFault> {
        Ok(self.slice::<1>(a)?[0])
    }
    fn load16(&mut self, a: u32) -> Result<u16, MemFault> {
        Ok(u16::from_be_bytes(self.slice(a)?))
    }
    fn load32(&mut self, a: u32) -> Result<u32, MemFault> {
        Ok(u32::from_be_bytes(self.slice(a)?))
    }
    fn load64(&mut self, a: u32) -> Result<u64, MemFault> {
        Ok(u64::from_be_bytes(self.slice(a)?))
    }
    fn store8(&mut self, a: u32, v: u8) -> Result<(), MemFault> {
        self.put(a, &[v])
    }
    fn store16(&mut self, a: u32, v: u16) -> Result<(), MemFault> {
        self.put(a, &v.to_be_bytes())
    }
    fn store32(&mut self, a: u32, v: u32) -> Result<(), MemFault> {
        self.put(a, &v.to_be_bytes())
    }
    fn store64(&mut self, a: u32, v: u64) -> Result<(), MemFault> {
        self.put(a, &v.to_be_bytes())
    }
    fn fetch32(&mut self, a: u32) -> Result<u32, MemFault> {
        self.load32(a)
    }
}

/// Benchmarks `program` (which retires `retired` instructions, then hits
/// BREAK) on every engine.
fn bench_program(c: &mut Criterion, name: &str, program: &[u32], retired: u64) {
    let mut mem = FlatMem {
        base: CODE,
        bytes: vec![0; 4096],
    };
    for (i, w) in program.iter().enumerate() {
        mem.store32(CODE + 4 * i as u32, *w).unwrap();
    }
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(retired));
    for (engine_name, engine) in Engine::ALL {
        let mut cpu = Cpu::new(CpuConfig {
            engine,
            ..CpuConfig::default()
        });
        group.bench_function(engine_name, |b| {
            b.iter(|| {
                cpu.set_pc(CODE);
                let before = cpu.instructions();
                match cpu.run(&mut mem, &mut (), u64::MAX) {
                    StopReason::Exception(e) => assert_eq!(e.code, ExcCode::Bp),
                    StopReason::Deadline => unreachable!("the loop ends with BREAK"),
                }
                assert_eq!(cpu.instructions() - before, retired);
            })
        });
    }
    group.finish();
}

fn integer_loop(c: &mut Criterion) {
    bench_program(c, "integer_loop_5M_instructions", &PROGRAM, RETIRED);
}

fn fp_loop(c: &mut Criterion) {
    bench_program(c, "fp_loop_5M_instructions", &FP_PROGRAM, FP_RETIRED);
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(3));
    targets = integer_loop, fp_loop
}
criterion_main!(benches);
