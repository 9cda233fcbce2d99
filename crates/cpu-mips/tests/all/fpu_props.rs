//! Property: under round-to-nearest, ADD/SUB/MUL/DIV/SQRT in S and D give
//! the host's IEEE 754 results bit for bit for finite operands (the host's
//! f32/f64 round to nearest, ties to even, with gradual underflow). NaN
//! results are compared by NaN-ness only: the host's NaN encoding differs
//! from MIPS's legacy one. Operands include denormals and the extremes.

use cpu_mips::fpu::{decode_cop1, Fpu};
use proptest::prelude::*;

const ADD_S: u32 = 0x46041000; // add.s $f0, $f2, $f4
const SUB_S: u32 = 0x46041001; // sub.s $f0, $f2, $f4
const MUL_S: u32 = 0x46041002; // mul.s $f0, $f2, $f4
const DIV_S: u32 = 0x46041003; // div.s $f0, $f2, $f4
const SQRT_S: u32 = 0x46001004; // sqrt.s $f0, $f2
const ADD_D: u32 = 0x46241000; // add.d $f0, $f2, $f4
const SUB_D: u32 = 0x46241001; // sub.d $f0, $f2, $f4
const MUL_D: u32 = 0x46241002; // mul.d $f0, $f2, $f4
const DIV_D: u32 = 0x46241003; // div.d $f0, $f2, $f4
const SQRT_D: u32 = 0x46201004; // sqrt.d $f0, $f2

/// Runs `word` in FR = 1 under round-to-nearest (FCSR = 0).
fn run(word: u32, a: u64, b: u64) -> u64 {
    let op = decode_cop1(word).unwrap();
    let mut fpu = Fpu::new();
    fpu.fpr[2] = a;
    fpu.fpr[4] = b;
    fpu.execute(true, &op).unwrap();
    fpu.fpr[0]
}

/// Finite singles: any encoding with exponent field below 255, weighted
/// toward the interesting ranges by also drawing small exponents.
fn finite_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        any::<u32>().prop_filter_map("finite", |b| {
            let f = f32::from_bits(b);
            f.is_finite().then_some(f)
        }),
        // Near the denormal range.
        (any::<bool>(), 0u32..(3 << 23)).prop_map(|(s, m)| f32::from_bits(m | (s as u32) << 31)),
        // Near 1.
        (any::<bool>(), (120u32 << 23)..(134u32 << 23))
            .prop_map(|(s, m)| f32::from_bits(m | (s as u32) << 31)),
    ]
}

fn finite_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<u64>().prop_filter_map("finite", |b| {
            let f = f64::from_bits(b);
            f.is_finite().then_some(f)
        }),
        (any::<bool>(), 0u64..(3 << 52)).prop_map(|(s, m)| f64::from_bits(m | (s as u64) << 63)),
        (any::<bool>(), (1000u64 << 52)..(1050u64 << 52))
            .prop_map(|(s, m)| f64::from_bits(m | (s as u64) << 63)),
    ]
}

fn same_f32(ours: u64, host: f32) -> Result<(), TestCaseError> {
    let ours = f32::from_bits(ours as u32);
    if host.is_nan() {
        prop_assert!(ours.is_nan(), "host NaN, ours {ours:?}");
    } else {
        prop_assert_eq!(
            ours.to_bits(),
            host.to_bits(),
            "ours {:?} host {:?}",
            ours,
            host
        );
    }
    Ok(())
}

fn same_f64(ours: u64, host: f64) -> Result<(), TestCaseError> {
    let ours = f64::from_bits(ours);
    if host.is_nan() {
        prop_assert!(ours.is_nan(), "host NaN, ours {ours:?}");
    } else {
        prop_assert_eq!(
            ours.to_bits(),
            host.to_bits(),
            "ours {:?} host {:?}",
            ours,
            host
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn single_arithmetic_matches_host_ieee(a in finite_f32(), b in finite_f32()) {
        let (x, y) = (a.to_bits() as u64, b.to_bits() as u64);
        same_f32(run(ADD_S, x, y), a + b)?;
        same_f32(run(SUB_S, x, y), a - b)?;
        same_f32(run(MUL_S, x, y), a * b)?;
        same_f32(run(DIV_S, x, y), a / b)?;
        same_f32(run(SQRT_S, x, 0), a.sqrt())?;
    }

    #[test]
    fn double_arithmetic_matches_host_ieee(a in finite_f64(), b in finite_f64()) {
        let (x, y) = (a.to_bits(), b.to_bits());
        same_f64(run(ADD_D, x, y), a + b)?;
        same_f64(run(SUB_D, x, y), a - b)?;
        same_f64(run(MUL_D, x, y), a * b)?;
        same_f64(run(DIV_D, x, y), a / b)?;
        same_f64(run(SQRT_D, x, 0), a.sqrt())?;
    }

    /// Adding operands of very different magnitudes exercises the sticky
    /// alignment path of the adder.
    #[test]
    fn double_add_of_distant_magnitudes_matches_host(m in any::<u64>(), e in 0u64..2046, d in 0u64..200, neg in any::<bool>()) {
        let a = f64::from_bits((e + 1) << 52 | (m & ((1 << 52) - 1)));
        let eb = (e + 1).saturating_sub(d);
        let b = f64::from_bits((neg as u64) << 63 | eb << 52 | (m.rotate_left(17) & ((1 << 52) - 1)));
        same_f64(run(ADD_D, a.to_bits(), b.to_bits()), a + b)?;
        same_f64(run(ADD_D, b.to_bits(), a.to_bits()), b + a)?;
    }

    /// CVT.S.D under round-to-nearest matches the host's `as f32`.
    #[test]
    fn cvt_s_d_matches_host(a in finite_f64()) {
        // cvt.s.d $f0, $f2
        same_f32(run(0x46201020, a.to_bits(), 0), a as f32)?;
    }

    /// CVT.D.L and CVT.S.L under round-to-nearest match the host's casts.
    #[test]
    fn cvt_from_l_matches_host(v in any::<i64>()) {
        // cvt.d.l $f0, $f2 ; cvt.s.l $f0, $f2
        same_f64(run(0x46a01021, v as u64, 0), v as f64)?;
        same_f32(run(0x46a01020, v as u64, 0), v as f32)?;
    }

    /// TRUNC.L.D matches the host's saturating `as i64` inside the range.
    #[test]
    fn trunc_l_d_matches_host_in_range(a in -9.2e18f64..9.2e18) {
        // trunc.l.d $f0, $f2
        prop_assert_eq!(run(0x46201009, a.to_bits(), 0), a as i64 as u64);
    }
}
