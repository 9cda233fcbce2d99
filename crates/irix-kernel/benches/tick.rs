//! Cost of one profiling tick (ProfState::tick) against the number of sprofil
//! regions: 1, 8, 64, 512 and PROFIL_MAX. Target: under 100 ns at 512.
//!
//! Setup: a VecMemory guest; n disjoint PROF_UINT regions at 1-1 scale
//! (0x10000), 64 instructions each, 1 KiB apart; PCs drawn from a fixed
//! xorshift sequence over the regions' text, one tick per iteration.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use irix_kernel::profiling::{
    Personality, ProfMemory, ProfState, Tunables, VecMemory, DEFAULT_PROFIL_MAX, PROF_UINT,
};
use std::hint::black_box;

const MEM: u32 = 0x1000_0000;
const TEXT: u32 = 0x0040_0000;
const INSNS: u32 = 64;
const STRIDE: u32 = 0x400;

fn setup(n: u32) -> (ProfState, VecMemory, Vec<u32>) {
    let array_bytes = 16 * n;
    let mut mem = VecMemory::new(MEM, array_bytes + n * INSNS * 4);
    for i in 0..n {
        let entry = MEM + 16 * i;
        let fields = [
            MEM + array_bytes + i * INSNS * 4,
            INSNS * 4,
            TEXT + i * STRIDE,
            0x10000,
        ];
        for (k, v) in fields.into_iter().enumerate() {
            mem.store32(entry + 4 * k as u32, v)
                .expect("entry inside the bench memory");
        }
    }
    let mut st = ProfState::default();
    let t = Tunables::default();
    st.sprofil(&mut mem, Personality::Irix, &t, MEM, n as i32, 0, PROF_UINT)
        .expect("valid regions");
    let mut x: u32 = 0x9e37_79b9;
    let pcs = (0..4096)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            TEXT + (x % n) * STRIDE + (x >> 16) % INSNS * 4
        })
        .collect();
    (st, mem, pcs)
}

fn tick(c: &mut Criterion) {
    let mut group = c.benchmark_group("tick");
    for n in [1, 8, 64, 512, DEFAULT_PROFIL_MAX] {
        let (mut st, mut mem, pcs) = setup(n);
        let mut i = 0usize;
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| {
                i = (i + 1) & 4095;
                st.tick(&mut mem, black_box(pcs[i]));
            })
        });
    }
    group.finish();
}

criterion_group!(benches, tick);
criterion_main!(benches);
