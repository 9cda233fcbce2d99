//! CVT between S, D, W and L; ROUND/TRUNC/CEIL/FLOOR to W and L; the
//! sixteen C.cond.fmt predicates. Hand-encoded words with their assembly;
//! Status.FR = 1, fs = $f2 = a, ft = $f4 = b, fd = $f0.

use crate::fpu_harness;

use cpu_mips::fpu::{decode_cop1, Fpu};
use fpu_harness::*;

struct Case {
    name: &'static str,
    word: u32,
    rm: u32,
    a: u64,
    result: u64,
    cause: u32,
}

const CVT_S_D: u32 = 0x46201020; // cvt.s.d $f0, $f2
const CVT_S_W: u32 = 0x46801020; // cvt.s.w $f0, $f2
const CVT_S_L: u32 = 0x46a01020; // cvt.s.l $f0, $f2
const CVT_D_S: u32 = 0x46001021; // cvt.d.s $f0, $f2
const CVT_D_W: u32 = 0x46801021; // cvt.d.w $f0, $f2
const CVT_D_L: u32 = 0x46a01021; // cvt.d.l $f0, $f2
const CVT_W_S: u32 = 0x46001024; // cvt.w.s $f0, $f2
const CVT_W_D: u32 = 0x46201024; // cvt.w.d $f0, $f2
const CVT_L_S: u32 = 0x46001025; // cvt.l.s $f0, $f2
const CVT_L_D: u32 = 0x46201025; // cvt.l.d $f0, $f2
const ROUND_L_S: u32 = 0x46001008; // round.l.s $f0, $f2
const TRUNC_L_D: u32 = 0x46201009; // trunc.l.d $f0, $f2
const CEIL_L_S: u32 = 0x4600100a; // ceil.l.s $f0, $f2
const FLOOR_L_D: u32 = 0x4620100b; // floor.l.d $f0, $f2
const ROUND_W_S: u32 = 0x4600100c; // round.w.s $f0, $f2
const TRUNC_W_S: u32 = 0x4600100d; // trunc.w.s $f0, $f2
const CEIL_W_S: u32 = 0x4600100e; // ceil.w.s $f0, $f2
const FLOOR_W_S: u32 = 0x4600100f; // floor.w.s $f0, $f2
const ROUND_W_D: u32 = 0x4620100c; // round.w.d $f0, $f2
const TRUNC_W_D: u32 = 0x4620100d; // trunc.w.d $f0, $f2
const CEIL_W_D: u32 = 0x4620100e; // ceil.w.d $f0, $f2
const FLOOR_W_D: u32 = 0x4620100f; // floor.w.d $f0, $f2

const D_THIRD: u64 = 0x3fd5_5555_5555_5555;
const S_2_5: u64 = 0x4020_0000; // 2.5
const S_M_2_5: u64 = 0xc020_0000; // -2.5
const S_M_2_75: u64 = 0xc030_0000; // -2.75
const S_3_5: u64 = 0x4060_0000; // 3.5
const S_2P31: u64 = 0x4f00_0000; // 2^31
const S_M_2P31: u64 = 0xcf00_0000; // -2^31
const S_2P63: u64 = 0x5f00_0000; // 2^63
const D_2P63: u64 = 0x43e0_0000_0000_0000;
const D_M_2P63: u64 = 0xc3e0_0000_0000_0000;
const D_M_2P31_HALF: u64 = 0xc1e0_0000_0010_0000; // -2^31 - 0.5
const D_2_5: u64 = 0x4004_0000_0000_0000;
const S_QNAN: u64 = 0x7f80_0001;
const S_SNAN: u64 = 0x7fc0_0000;
const D_SNAN: u64 = 0x7ff8_0000_0000_0000;
const W_MAX: u64 = 0x7fff_ffff;
const L_MAX: u64 = 0x7fff_ffff_ffff_ffff;

#[rustfmt::skip]
const CONVERSIONS: &[Case] = &[
    // Between S and D.
    Case { name: "cvt.s.d 1/3 rounds up under RN", word: CVT_S_D, rm: RN, a: D_THIRD, result: 0x3eaa_aaab, cause: I },
    Case { name: "cvt.s.d 1/3 truncates under RZ", word: CVT_S_D, rm: RZ, a: D_THIRD, result: 0x3eaa_aaaa, cause: I },
    Case { name: "cvt.s.d 1e300 overflows to inf under RN", word: CVT_S_D, rm: RN, a: 0x7e37_e43c_8800_759c, result: 0x7f80_0000, cause: O | I },
    Case { name: "cvt.s.d 1e300 gives max under RZ", word: CVT_S_D, rm: RZ, a: 0x7e37_e43c_8800_759c, result: 0x7f7f_ffff, cause: O | I },
    Case { name: "cvt.s.d 2^-140 is an exact single denormal", word: CVT_S_D, rm: RN, a: 0x3730_0000_0000_0000, result: 0x0000_0200, cause: 0 },
    Case { name: "cvt.s.d 2^-140 plus a bit underflows", word: CVT_S_D, rm: RN, a: 0x3730_0000_0000_0001, result: 0x0000_0200, cause: U | I },
    Case { name: "cvt.s.d -0 = -0", word: CVT_S_D, rm: RN, a: 0x8000_0000_0000_0000, result: 0x8000_0000, cause: 0 },
    Case { name: "cvt.s.d -inf = -inf", word: CVT_S_D, rm: RN, a: 0xfff0_0000_0000_0000, result: 0xff80_0000, cause: 0 },
    Case { name: "cvt.s.d qNaN keeps the payload's top bits", word: CVT_S_D, rm: RN, a: 0x7ff0_0000_2000_0000, result: S_QNAN, cause: 0 },
    Case { name: "cvt.s.d sNaN is invalid: default NaN", word: CVT_S_D, rm: RN, a: D_SNAN, result: 0x7fbf_ffff, cause: V },
    Case { name: "cvt.d.s is exact", word: CVT_D_S, rm: RN, a: 0x3eaa_aaab, result: 0x3fd5_5555_6000_0000, cause: 0 },
    Case { name: "cvt.d.s of a denormal is exact and normal", word: CVT_D_S, rm: RN, a: 0x0000_0001, result: 0x36a0_0000_0000_0000, cause: 0 },
    Case { name: "cvt.d.s qNaN widens the payload", word: CVT_D_S, rm: RN, a: S_QNAN, result: 0x7ff0_0000_2000_0000, cause: 0 },
    Case { name: "cvt.d.s sNaN is invalid: default NaN", word: CVT_D_S, rm: RN, a: S_SNAN, result: 0x7ff7_ffff_ffff_ffff, cause: V },
    // From W and L.
    Case { name: "cvt.s.w 2^24+1 ties to even under RN", word: CVT_S_W, rm: RN, a: 0x0100_0001, result: 0x4b80_0000, cause: I },
    Case { name: "cvt.s.w 2^24+1 rounds up under RP", word: CVT_S_W, rm: RP, a: 0x0100_0001, result: 0x4b80_0001, cause: I },
    Case { name: "cvt.s.w -1", word: CVT_S_W, rm: RN, a: 0xffff_ffff, result: 0xbf80_0000, cause: 0 },
    Case { name: "cvt.s.w 0 = +0", word: CVT_S_W, rm: RM, a: 0, result: 0, cause: 0 },
    Case { name: "cvt.d.w -1 is exact", word: CVT_D_W, rm: RN, a: 0xffff_ffff, result: 0xbff0_0000_0000_0000, cause: 0 },
    Case { name: "cvt.d.w -2^31 is exact", word: CVT_D_W, rm: RN, a: 0x8000_0000, result: 0xc1e0_0000_0000_0000, cause: 0 },
    Case { name: "cvt.d.l 2^53+1 ties to even under RN", word: CVT_D_L, rm: RN, a: 0x0020_0000_0000_0001, result: 0x4340_0000_0000_0000, cause: I },
    Case { name: "cvt.d.l 2^53+1 rounds up under RP", word: CVT_D_L, rm: RP, a: 0x0020_0000_0000_0001, result: 0x4340_0000_0000_0001, cause: I },
    Case { name: "cvt.d.l -(2^53+1) rounds away under RM", word: CVT_D_L, rm: RM, a: 0xffdf_ffff_ffff_ffff, result: 0xc340_0000_0000_0001, cause: I },
    Case { name: "cvt.s.l -2^63 is exact", word: CVT_S_L, rm: RN, a: 0x8000_0000_0000_0000, result: 0xdf00_0000, cause: 0 },
    Case { name: "cvt.s.l 2^63-1 rounds to 2^63", word: CVT_S_L, rm: RN, a: L_MAX, result: S_2P63, cause: I },
    Case { name: "cvt.s.l 2^63-1 truncates under RZ", word: CVT_S_L, rm: RZ, a: L_MAX, result: 0x5eff_ffff, cause: I },
    // To W in the FCSR mode.
    Case { name: "cvt.w.s 2.5 ties to even under RN", word: CVT_W_S, rm: RN, a: S_2_5, result: 2, cause: I },
    Case { name: "cvt.w.s 2.5 truncates under RZ", word: CVT_W_S, rm: RZ, a: S_2_5, result: 2, cause: I },
    Case { name: "cvt.w.s 2.5 rounds up under RP", word: CVT_W_S, rm: RP, a: S_2_5, result: 3, cause: I },
    Case { name: "cvt.w.s 2.5 rounds down under RM", word: CVT_W_S, rm: RM, a: S_2_5, result: 2, cause: I },
    Case { name: "cvt.w.s -2.5 rounds down under RM", word: CVT_W_S, rm: RM, a: S_M_2_5, result: 0xffff_fffd, cause: I },
    Case { name: "cvt.w.s -2.5 rounds up under RP", word: CVT_W_S, rm: RP, a: S_M_2_5, result: 0xffff_fffe, cause: I },
    Case { name: "cvt.w.s -0 = 0", word: CVT_W_S, rm: RN, a: 0x8000_0000, result: 0, cause: 0 },
    Case { name: "cvt.w.s qNaN is invalid: 2^31-1", word: CVT_W_S, rm: RN, a: S_QNAN, result: W_MAX, cause: V },
    Case { name: "cvt.w.s -inf is invalid: 2^31-1", word: CVT_W_S, rm: RN, a: 0xff80_0000, result: W_MAX, cause: V },
    Case { name: "cvt.w.d 2.5 under RN", word: CVT_W_D, rm: RN, a: D_2_5, result: 2, cause: I },
    Case { name: "cvt.w.d of a tiny number rounds up under RP", word: CVT_W_D, rm: RP, a: 0x0000_0000_0000_0001, result: 1, cause: I },
    // ROUND/TRUNC/CEIL/FLOOR ignore the FCSR mode.
    Case { name: "round.w.s 2.5 = 2 even under RP", word: ROUND_W_S, rm: RP, a: S_2_5, result: 2, cause: I },
    Case { name: "round.w.s 3.5 = 4", word: ROUND_W_S, rm: RZ, a: S_3_5, result: 4, cause: I },
    Case { name: "trunc.w.s -2.75 = -2", word: TRUNC_W_S, rm: RM, a: S_M_2_75, result: 0xffff_fffe, cause: I },
    Case { name: "ceil.w.s -2.75 = -2", word: CEIL_W_S, rm: RN, a: S_M_2_75, result: 0xffff_fffe, cause: I },
    Case { name: "floor.w.s -2.75 = -3", word: FLOOR_W_S, rm: RP, a: S_M_2_75, result: 0xffff_fffd, cause: I },
    Case { name: "trunc.w.s 2^31 is out of range: 2^31-1", word: TRUNC_W_S, rm: RN, a: S_2P31, result: W_MAX, cause: V },
    Case { name: "trunc.w.s -2^31 fits exactly", word: TRUNC_W_S, rm: RN, a: S_M_2P31, result: 0x8000_0000, cause: 0 },
    Case { name: "trunc.w.d -2^31-0.5 truncates into range", word: TRUNC_W_D, rm: RN, a: D_M_2P31_HALF, result: 0x8000_0000, cause: I },
    Case { name: "floor.w.d -2^31-0.5 is out of range", word: FLOOR_W_D, rm: RN, a: D_M_2P31_HALF, result: W_MAX, cause: V },
    Case { name: "round.w.d 2.5 = 2", word: ROUND_W_D, rm: RN, a: D_2_5, result: 2, cause: I },
    Case { name: "ceil.w.d 2.5 = 3", word: CEIL_W_D, rm: RN, a: D_2_5, result: 3, cause: I },
    Case { name: "trunc.w.d sNaN is invalid", word: TRUNC_W_D, rm: RN, a: D_SNAN, result: W_MAX, cause: V },
    // To L.
    Case { name: "cvt.l.s 2.5 rounds up under RP", word: CVT_L_S, rm: RP, a: S_2_5, result: 3, cause: I },
    Case { name: "cvt.l.d -2^63 fits exactly", word: CVT_L_D, rm: RN, a: D_M_2P63, result: 0x8000_0000_0000_0000, cause: 0 },
    Case { name: "trunc.l.d 2^63 is out of range: 2^63-1", word: TRUNC_L_D, rm: RN, a: D_2P63, result: L_MAX, cause: V },
    Case { name: "round.l.s 2^63 is out of range", word: ROUND_L_S, rm: RN, a: S_2P63, result: L_MAX, cause: V },
    Case { name: "ceil.l.s -2.75 = -2", word: CEIL_L_S, rm: RN, a: S_M_2_75, result: 0xffff_ffff_ffff_fffe, cause: I },
    Case { name: "floor.l.d 2^52 is exact", word: FLOOR_L_D, rm: RN, a: 0x4330_0000_0000_0000, result: 1 << 52, cause: 0 },
    Case { name: "floor.l.d -(2^51 + 0.5) = -(2^51 + 1)", word: FLOOR_L_D, rm: RN, a: 0xc320_0000_0000_0001, result: 0xfff7_ffff_ffff_ffff, cause: I },
    Case { name: "trunc.l.d 2^62 is exact", word: TRUNC_L_D, rm: RN, a: 0x43d0_0000_0000_0000, result: 1 << 62, cause: 0 },
];

#[test]
fn conversion_table() {
    for case in CONVERSIONS {
        let (fd, fcsr, trapped) = run(case.word, case.rm, case.a, 0);
        assert!(!trapped, "{}: trapped", case.name);
        assert_eq!(fd, case.result, "{}: result {fd:#x}", case.name);
        assert_eq!(
            fcsr,
            case.rm | case.cause | (case.cause >> 10),
            "{}: FCSR {fcsr:#x}",
            case.name
        );
    }
}

#[test]
fn invalid_conversion_with_invalid_enabled_traps_and_keeps_the_destination() {
    let (fd, fcsr, trapped) = run(TRUNC_W_S, EN_V, S_2P31, 0);
    assert_eq!(
        (fd, fcsr, trapped),
        (SENTINEL & 0xffff_ffff, EN_V | V, true)
    );
}

#[test]
fn a_w_destination_keeps_the_upper_half_of_the_register_under_fr1() {
    let op = decode_cop1(CVT_W_S).unwrap();
    let mut fpu = Fpu::new();
    fpu.fpr[0] = SENTINEL;
    fpu.fpr[2] = S_3_5;
    fpu.execute(true, &op).unwrap();
    assert_eq!(fpu.fpr[0], 0x5555_5555_0000_0004);
}

// ---- compares ----

const S_ONE: u64 = 0x3f80_0000;
const S_TWO: u64 = 0x4000_0000;

/// One operand pair and the truth of each of the sixteen predicates, in
/// cond order: f un eq ueq olt ult ole ule sf ngle seq ngl lt nge le ngt.
struct CompareRow {
    name: &'static str,
    a: u64,
    b: u64,
    truth: [bool; 16],
    /// Invalid is raised by the signalling predicates (8..15) on any NaN,
    /// by all sixteen on a signalling NaN.
    nan: Option<bool>,
}

const T: bool = true;
const F: bool = false;

#[rustfmt::skip]
const COMPARES: &[CompareRow] = &[
    CompareRow { name: "1 < 2", a: S_ONE, b: S_TWO, truth: [F, F, F, F, T, T, T, T, F, F, F, F, T, T, T, T], nan: None },
    CompareRow { name: "2 > 1", a: S_TWO, b: S_ONE, truth: [F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F], nan: None },
    CompareRow { name: "1 = 1", a: S_ONE, b: S_ONE, truth: [F, F, T, T, F, F, T, T, F, F, T, T, F, F, T, T], nan: None },
    CompareRow { name: "+0 = -0", a: 0, b: 0x8000_0000, truth: [F, F, T, T, F, F, T, T, F, F, T, T, F, F, T, T], nan: None },
    CompareRow { name: "-inf < denormal", a: 0xff80_0000, b: 1, truth: [F, F, F, F, T, T, T, T, F, F, F, F, T, T, T, T], nan: None },
    CompareRow { name: "qNaN vs 1 is unordered", a: S_QNAN, b: S_ONE, truth: [F, T, F, T, F, T, F, T, F, T, F, T, F, T, F, T], nan: Some(false) },
    CompareRow { name: "1 vs sNaN is unordered", a: S_ONE, b: S_SNAN, truth: [F, T, F, T, F, T, F, T, F, T, F, T, F, T, F, T], nan: Some(true) },
];

#[test]
fn sixteen_predicates_single() {
    for row in COMPARES {
        for cond in 0..16u32 {
            // c.<cond>.s $f2, $f4
            let word = 0x4604_1030 | cond;
            let (_, fcsr, trapped) = run(word, RN, row.a, row.b);
            let invalid = match row.nan {
                None => false,
                Some(signalling) => signalling || cond >= 8,
            };
            let expected = if row.truth[cond as usize] { C } else { 0 }
                | if invalid { V | (V >> 10) } else { 0 };
            assert!(!trapped);
            assert_eq!(fcsr, expected, "{} cond {cond}: FCSR {fcsr:#x}", row.name);
        }
    }
}

#[test]
fn sixteen_predicates_double() {
    const D_ONE: u64 = 0x3ff0_0000_0000_0000;
    const D_QNAN: u64 = 0x7ff0_0000_0000_0001;
    for cond in 0..16u32 {
        // c.<cond>.d $f2, $f4 with 1 vs 1, then qNaN vs 1.
        let word = 0x4624_1030 | cond;
        let (_, fcsr, _) = run(word, RN, D_ONE, D_ONE);
        assert_eq!(fcsr & C != 0, cond & 2 != 0, "1 = 1, cond {cond}");
        let (_, fcsr, _) = run(word, RN, D_QNAN, D_ONE);
        assert_eq!(fcsr & C != 0, cond & 1 != 0, "unordered, cond {cond}");
        assert_eq!(fcsr & V != 0, cond >= 8, "invalid on qNaN, cond {cond}");
    }
}

#[test]
fn compare_overwrites_a_previously_set_condition_bit() {
    // c.eq.s $f12, $f14 with 1 vs 2 clears C.
    let op = decode_cop1(0x460e6032).unwrap();
    let mut fpu = Fpu::new();
    fpu.fcsr = C;
    fpu.fpr[12] = S_ONE;
    fpu.fpr[14] = S_TWO;
    fpu.execute(false, &op).unwrap();
    assert!(!fpu.condition());
}

#[test]
fn signalling_compare_with_invalid_enabled_traps_and_keeps_the_condition() {
    // c.lt.s $f2, $f4 with a quiet NaN; C was set before.
    let (_, fcsr, trapped) = run(0x4604_103c, EN_V | C, S_QNAN, S_ONE);
    assert_eq!((fcsr, trapped), (EN_V | C | V, true));
}

#[test]
fn quiet_compare_of_a_nan_with_invalid_enabled_does_not_trap() {
    // c.olt.s $f2, $f4: quiet predicate, quiet NaN.
    let (_, fcsr, trapped) = run(0x4604_1034, EN_V | C, S_QNAN, S_ONE);
    assert_eq!((fcsr, trapped), (EN_V, false));
}
