//! ADD/SUB/MUL/DIV/SQRT/ABS/NEG/MOV in .S and .D: every rounding mode,
//! NaNs (MIPS legacy encoding), infinities, signed zeros, denormals, and the
//! FCSR cause/flag/enable protocol. Each case runs the hand-encoded word
//! (assembly beside it) through `decode_cop1` and `Fpu::execute` with
//! Status.FR = 1, fs = $f2 = a, ft = $f4 = b, fd = $f0.

use crate::fpu_harness;

use fpu_harness::*;

struct Case {
    name: &'static str,
    word: u32,
    rm: u32,
    a: u64,
    b: u64,
    result: u64,
    cause: u32,
}

const ADD_S: u32 = 0x46041000; // add.s $f0, $f2, $f4
const SUB_S: u32 = 0x46041001; // sub.s $f0, $f2, $f4
const MUL_S: u32 = 0x46041002; // mul.s $f0, $f2, $f4
const DIV_S: u32 = 0x46041003; // div.s $f0, $f2, $f4
const SQRT_S: u32 = 0x46001004; // sqrt.s $f0, $f2
const ABS_S: u32 = 0x46001005; // abs.s $f0, $f2
const MOV_S: u32 = 0x46001006; // mov.s $f0, $f2
const NEG_S: u32 = 0x46001007; // neg.s $f0, $f2
const ADD_D: u32 = 0x46241000; // add.d $f0, $f2, $f4
const SUB_D: u32 = 0x46241001; // sub.d $f0, $f2, $f4
const MUL_D: u32 = 0x46241002; // mul.d $f0, $f2, $f4
const DIV_D: u32 = 0x46241003; // div.d $f0, $f2, $f4
const SQRT_D: u32 = 0x46201004; // sqrt.d $f0, $f2
const ABS_D: u32 = 0x46201005; // abs.d $f0, $f2
const NEG_D: u32 = 0x46201007; // neg.d $f0, $f2

// Single-precision encodings.
const S_ONE: u64 = 0x3f80_0000;
const S_TWO: u64 = 0x4000_0000;
const S_THREE: u64 = 0x4040_0000;
const S_HALF: u64 = 0x3f00_0000;
const S_M_ONE: u64 = 0xbf80_0000;
const S_ULP_HALF: u64 = 0x3380_0000; // 2^-24: half an ulp of 1.0
const S_MAX: u64 = 0x7f7f_ffff;
const S_M_MAX: u64 = 0xff7f_ffff;
const S_INF: u64 = 0x7f80_0000;
const S_M_INF: u64 = 0xff80_0000;
const S_MIN_NORMAL: u64 = 0x0080_0000;
const S_M_MIN_NORMAL: u64 = 0x8080_0000;
const S_MIN_DENORMAL: u64 = 0x0000_0001;
const S_M_ZERO: u64 = 0x8000_0000;
/// MIPS legacy quiet NaN: top fraction bit clear.
const S_QNAN: u64 = 0x7f80_0001;
const S_M_QNAN: u64 = 0xffa0_0000;
/// MIPS legacy signalling NaN: top fraction bit set.
const S_SNAN: u64 = 0x7fc0_0000;
const S_DEFAULT_NAN: u64 = 0x7fbf_ffff;

// Double-precision encodings.
const D_ONE: u64 = 0x3ff0_0000_0000_0000;
const D_TWO: u64 = 0x4000_0000_0000_0000;
const D_THREE: u64 = 0x4008_0000_0000_0000;
const D_ULP_HALF: u64 = 0x3ca0_0000_0000_0000; // 2^-53
const D_MAX: u64 = 0x7fef_ffff_ffff_ffff;
const D_INF: u64 = 0x7ff0_0000_0000_0000;
const D_MIN_NORMAL: u64 = 0x0010_0000_0000_0000;
const D_HALF: u64 = 0x3fe0_0000_0000_0000;
const D_QNAN: u64 = 0x7ff0_0000_0000_0001;
const D_SNAN: u64 = 0x7ff8_0000_0000_0000;
const D_DEFAULT_NAN: u64 = 0x7ff7_ffff_ffff_ffff;

#[rustfmt::skip]
const CASES: &[Case] = &[
    // Exact results raise nothing.
    Case { name: "add.s 1 + 2 = 3 exactly", word: ADD_S, rm: RN, a: S_ONE, b: S_TWO, result: S_THREE, cause: 0 },
    Case { name: "sub.s 3 - 2 = 1 exactly", word: SUB_S, rm: RN, a: S_THREE, b: S_TWO, result: S_ONE, cause: 0 },
    // A tie at half an ulp: each rounding mode.
    Case { name: "add.s 1 + 2^-24 ties to even under RN", word: ADD_S, rm: RN, a: S_ONE, b: S_ULP_HALF, result: S_ONE, cause: I },
    Case { name: "add.s 1 + 2^-24 truncates under RZ", word: ADD_S, rm: RZ, a: S_ONE, b: S_ULP_HALF, result: S_ONE, cause: I },
    Case { name: "add.s 1 + 2^-24 rounds up under RP", word: ADD_S, rm: RP, a: S_ONE, b: S_ULP_HALF, result: 0x3f80_0001, cause: I },
    Case { name: "add.s 1 + 2^-24 rounds down under RM", word: ADD_S, rm: RM, a: S_ONE, b: S_ULP_HALF, result: S_ONE, cause: I },
    Case { name: "sub.s -1 - 2^-24 rounds away under RM", word: SUB_S, rm: RM, a: S_M_ONE, b: S_ULP_HALF, result: 0xbf80_0001, cause: I },
    Case { name: "sub.s -1 - 2^-24 rounds toward zero under RP", word: SUB_S, rm: RP, a: S_M_ONE, b: S_ULP_HALF, result: S_M_ONE, cause: I },
    Case { name: "add.d 1 + 2^-53 ties to even under RN", word: ADD_D, rm: RN, a: D_ONE, b: D_ULP_HALF, result: D_ONE, cause: I },
    Case { name: "add.d 1 + 2^-53 rounds up under RP", word: ADD_D, rm: RP, a: D_ONE, b: D_ULP_HALF, result: 0x3ff0_0000_0000_0001, cause: I },
    Case { name: "sub.d 1 - 2^-53 is exact (below 1 the ulp halves)", word: SUB_D, rm: RN, a: D_ONE, b: D_ULP_HALF, result: 0x3fef_ffff_ffff_ffff, cause: 0 },
    // Signed zeros.
    Case { name: "sub.s 1 - 1 = +0 under RN", word: SUB_S, rm: RN, a: S_ONE, b: S_ONE, result: 0, cause: 0 },
    Case { name: "sub.s 1 - 1 = -0 under RM", word: SUB_S, rm: RM, a: S_ONE, b: S_ONE, result: S_M_ZERO, cause: 0 },
    Case { name: "add.s -0 + -0 = -0", word: ADD_S, rm: RN, a: S_M_ZERO, b: S_M_ZERO, result: S_M_ZERO, cause: 0 },
    Case { name: "add.s -0 + +0 = +0 under RN", word: ADD_S, rm: RN, a: S_M_ZERO, b: 0, result: 0, cause: 0 },
    Case { name: "add.s -0 + +0 = -0 under RM", word: ADD_S, rm: RM, a: S_M_ZERO, b: 0, result: S_M_ZERO, cause: 0 },
    Case { name: "mul.s -1 * +0 = -0", word: MUL_S, rm: RN, a: S_M_ONE, b: 0, result: S_M_ZERO, cause: 0 },
    // Overflow: the default result depends on the mode (table 7-1).
    Case { name: "add.s max + max overflows to +inf under RN", word: ADD_S, rm: RN, a: S_MAX, b: S_MAX, result: S_INF, cause: O | I },
    Case { name: "add.s max + max gives max under RZ", word: ADD_S, rm: RZ, a: S_MAX, b: S_MAX, result: S_MAX, cause: O | I },
    Case { name: "add.s max + max gives +inf under RP", word: ADD_S, rm: RP, a: S_MAX, b: S_MAX, result: S_INF, cause: O | I },
    Case { name: "add.s max + max gives max under RM", word: ADD_S, rm: RM, a: S_MAX, b: S_MAX, result: S_MAX, cause: O | I },
    Case { name: "add.s -max + -max gives -inf under RM", word: ADD_S, rm: RM, a: S_M_MAX, b: S_M_MAX, result: S_M_INF, cause: O | I },
    Case { name: "add.s -max + -max gives -max under RP", word: ADD_S, rm: RP, a: S_M_MAX, b: S_M_MAX, result: S_M_MAX, cause: O | I },
    Case { name: "mul.d max * 2 overflows to +inf", word: MUL_D, rm: RN, a: D_MAX, b: D_TWO, result: D_INF, cause: O | I },
    // Infinities.
    Case { name: "add.s inf + 1 = inf exactly", word: ADD_S, rm: RN, a: S_INF, b: S_ONE, result: S_INF, cause: 0 },
    Case { name: "add.s inf + -inf is invalid: default NaN", word: ADD_S, rm: RN, a: S_INF, b: S_M_INF, result: S_DEFAULT_NAN, cause: V },
    Case { name: "sub.s inf - inf is invalid", word: SUB_S, rm: RN, a: S_INF, b: S_INF, result: S_DEFAULT_NAN, cause: V },
    Case { name: "mul.s inf * 0 is invalid", word: MUL_S, rm: RN, a: S_INF, b: 0, result: S_DEFAULT_NAN, cause: V },
    Case { name: "div.s inf / inf is invalid", word: DIV_S, rm: RN, a: S_INF, b: S_M_INF, result: S_DEFAULT_NAN, cause: V },
    Case { name: "div.s 1 / inf = +0", word: DIV_S, rm: RN, a: S_ONE, b: S_INF, result: 0, cause: 0 },
    // Division by zero.
    Case { name: "div.s 1 / 0 = +inf with Z", word: DIV_S, rm: RN, a: S_ONE, b: 0, result: S_INF, cause: Z },
    Case { name: "div.s -1 / +0 = -inf with Z", word: DIV_S, rm: RN, a: S_M_ONE, b: 0, result: S_M_INF, cause: Z },
    Case { name: "div.s 1 / -0 = -inf with Z", word: DIV_S, rm: RN, a: S_ONE, b: S_M_ZERO, result: S_M_INF, cause: Z },
    Case { name: "div.s 0 / 0 is invalid, not Z", word: DIV_S, rm: RN, a: 0, b: 0, result: S_DEFAULT_NAN, cause: V },
    Case { name: "div.d 1 / 0 = +inf with Z", word: DIV_D, rm: RN, a: D_ONE, b: 0, result: D_INF, cause: Z },
    // Division rounding.
    Case { name: "div.s 1 / 3 rounds up under RN", word: DIV_S, rm: RN, a: S_ONE, b: S_THREE, result: 0x3eaa_aaab, cause: I },
    Case { name: "div.s 1 / 3 truncates under RZ", word: DIV_S, rm: RZ, a: S_ONE, b: S_THREE, result: 0x3eaa_aaaa, cause: I },
    Case { name: "div.s 1 / 3 rounds down under RM", word: DIV_S, rm: RM, a: S_ONE, b: S_THREE, result: 0x3eaa_aaaa, cause: I },
    Case { name: "div.d 1 / 3 rounds down under RN", word: DIV_D, rm: RN, a: D_ONE, b: D_THREE, result: 0x3fd5_5555_5555_5555, cause: I },
    Case { name: "div.d 1 / 3 rounds up under RP", word: DIV_D, rm: RP, a: D_ONE, b: D_THREE, result: 0x3fd5_5555_5555_5556, cause: I },
    // Square root.
    Case { name: "sqrt.s 2 under RN", word: SQRT_S, rm: RN, a: S_TWO, b: 0, result: 0x3fb5_04f3, cause: I },
    Case { name: "sqrt.s 2 under RP", word: SQRT_S, rm: RP, a: S_TWO, b: 0, result: 0x3fb5_04f4, cause: I },
    Case { name: "sqrt.d 2 under RN rounds up", word: SQRT_D, rm: RN, a: D_TWO, b: 0, result: 0x3ff6_a09e_667f_3bcd, cause: I },
    Case { name: "sqrt.d 2 under RZ", word: SQRT_D, rm: RZ, a: D_TWO, b: 0, result: 0x3ff6_a09e_667f_3bcc, cause: I },
    Case { name: "sqrt.s 4 = 2 exactly", word: SQRT_S, rm: RN, a: 0x4080_0000, b: 0, result: S_TWO, cause: 0 },
    Case { name: "sqrt.s -0 = -0", word: SQRT_S, rm: RN, a: S_M_ZERO, b: 0, result: S_M_ZERO, cause: 0 },
    Case { name: "sqrt.s -1 is invalid", word: SQRT_S, rm: RN, a: S_M_ONE, b: 0, result: S_DEFAULT_NAN, cause: V },
    Case { name: "sqrt.s -inf is invalid", word: SQRT_S, rm: RN, a: S_M_INF, b: 0, result: S_DEFAULT_NAN, cause: V },
    Case { name: "sqrt.s +inf = +inf", word: SQRT_S, rm: RN, a: S_INF, b: 0, result: S_INF, cause: 0 },
    Case { name: "sqrt.s of the smallest denormal is 2^-74.5 rounded", word: SQRT_S, rm: RN, a: S_MIN_DENORMAL, b: 0, result: 0x1a35_04f3, cause: I },
    // NaNs: quiet ones propagate (fs first), signalling ones are invalid.
    Case { name: "add.s qNaN + 1 returns the qNaN", word: ADD_S, rm: RN, a: S_QNAN, b: S_ONE, result: S_QNAN, cause: 0 },
    Case { name: "add.s 1 + qNaN returns the qNaN", word: ADD_S, rm: RN, a: S_ONE, b: S_M_QNAN, result: S_M_QNAN, cause: 0 },
    Case { name: "mul.s qNaN * qNaN returns fs", word: MUL_S, rm: RN, a: S_M_QNAN, b: S_QNAN, result: S_M_QNAN, cause: 0 },
    Case { name: "sub.s 1 - qNaN keeps the NaN's sign", word: SUB_S, rm: RN, a: S_ONE, b: S_QNAN, result: S_QNAN, cause: 0 },
    Case { name: "add.s sNaN + 1 is invalid: default NaN", word: ADD_S, rm: RN, a: S_SNAN, b: S_ONE, result: S_DEFAULT_NAN, cause: V },
    Case { name: "add.s qNaN + sNaN is invalid", word: ADD_S, rm: RN, a: S_QNAN, b: S_SNAN, result: S_DEFAULT_NAN, cause: V },
    Case { name: "div.s sNaN / 0 is invalid, not Z", word: DIV_S, rm: RN, a: S_SNAN, b: 0, result: S_DEFAULT_NAN, cause: V },
    Case { name: "sqrt.s qNaN returns it", word: SQRT_S, rm: RN, a: S_QNAN, b: 0, result: S_QNAN, cause: 0 },
    Case { name: "add.d qNaN + 1 returns the qNaN", word: ADD_D, rm: RN, a: D_QNAN, b: D_ONE, result: D_QNAN, cause: 0 },
    Case { name: "mul.d sNaN * 1 is invalid: default NaN", word: MUL_D, rm: RN, a: D_SNAN, b: D_ONE, result: D_DEFAULT_NAN, cause: V },
    Case { name: "sqrt.d sNaN is invalid", word: SQRT_D, rm: RN, a: D_SNAN, b: 0, result: D_DEFAULT_NAN, cause: V },
    // ABS/NEG/MOV.
    Case { name: "abs.s -1 = 1", word: ABS_S, rm: RN, a: S_M_ONE, b: 0, result: S_ONE, cause: 0 },
    Case { name: "neg.s +0 = -0", word: NEG_S, rm: RN, a: 0, b: 0, result: S_M_ZERO, cause: 0 },
    Case { name: "neg.s qNaN flips its sign", word: NEG_S, rm: RN, a: S_QNAN, b: 0, result: S_QNAN | 0x8000_0000, cause: 0 },
    Case { name: "abs.s sNaN is invalid", word: ABS_S, rm: RN, a: S_SNAN, b: 0, result: S_DEFAULT_NAN, cause: V },
    Case { name: "neg.d 1 = -1", word: NEG_D, rm: RN, a: D_ONE, b: 0, result: 0xbff0_0000_0000_0000, cause: 0 },
    Case { name: "abs.d sNaN is invalid", word: ABS_D, rm: RN, a: D_SNAN, b: 0, result: D_DEFAULT_NAN, cause: V },
    Case { name: "neg.s of a denormal is exact", word: NEG_S, rm: RN, a: S_MIN_DENORMAL, b: 0, result: 0x8000_0001, cause: 0 },
    // Denormals and underflow (tininess after rounding).
    Case { name: "mul.s min_normal * 0.5 is an exact denormal: no flags", word: MUL_S, rm: RN, a: S_MIN_NORMAL, b: S_HALF, result: 0x0040_0000, cause: 0 },
    Case { name: "mul.s inexact denormal raises U and I", word: MUL_S, rm: RN, a: S_MIN_NORMAL, b: 0x3f00_0001, result: 0x0040_0000, cause: U | I },
    Case { name: "mul.s inexact denormal rounds up under RP", word: MUL_S, rm: RP, a: S_MIN_NORMAL, b: 0x3f00_0001, result: 0x0040_0001, cause: U | I },
    Case { name: "mul.s min_denormal * 0.5 ties to +0 under RN", word: MUL_S, rm: RN, a: S_MIN_DENORMAL, b: S_HALF, result: 0, cause: U | I },
    Case { name: "mul.s min_denormal * 0.5 rounds up under RP", word: MUL_S, rm: RP, a: S_MIN_DENORMAL, b: S_HALF, result: S_MIN_DENORMAL, cause: U | I },
    Case { name: "mul.s -min_denormal * 0.5 gives -0 under RZ", word: MUL_S, rm: RZ, a: 0x8000_0001, b: S_HALF, result: S_M_ZERO, cause: U | I },
    Case { name: "mul.s tiny result that rounds to min_normal still underflows", word: MUL_S, rm: RN, a: S_MIN_NORMAL, b: 0x3f7f_ffff, result: S_MIN_NORMAL, cause: U | I },
    Case { name: "add.s denormal + denormal is exact", word: ADD_S, rm: RN, a: 0x0000_0003, b: 0x0000_0005, result: 0x0000_0008, cause: 0 },
    Case { name: "add.s denormals carry into the smallest normal exactly", word: ADD_S, rm: RN, a: 0x0040_0000, b: 0x0040_0000, result: S_MIN_NORMAL, cause: 0 },
    Case { name: "sub.s min_normal - min_denormal is an exact denormal", word: SUB_S, rm: RN, a: S_MIN_NORMAL, b: S_MIN_DENORMAL, result: 0x007f_ffff, cause: 0 },
    Case { name: "div.s denormal / 2^100 underflows to 0", word: DIV_S, rm: RN, a: 0x0000_0010, b: 0x7180_0000, result: 0, cause: U | I },
    Case { name: "mul.d min_normal * 0.5 is an exact denormal", word: MUL_D, rm: RN, a: D_MIN_NORMAL, b: D_HALF, result: 0x0008_0000_0000_0000, cause: 0 },
    Case { name: "mul.d 2^-1074 * 0.5 rounds up under RP", word: MUL_D, rm: RP, a: 1, b: D_HALF, result: 1, cause: U | I },
    Case { name: "div.s denormal operand: 2^-149 / 2^-149 = 1", word: DIV_S, rm: RN, a: S_MIN_DENORMAL, b: S_MIN_DENORMAL, result: S_ONE, cause: 0 },
    // FS: tiny results are flushed (table 7-1 values), U and I raised.
    Case { name: "FS flushes a denormal product to +0 under RN", word: MUL_S, rm: RN | FS, a: S_MIN_NORMAL, b: S_HALF, result: 0, cause: U | I },
    Case { name: "FS flushes a positive tiny result to min_normal under RP", word: MUL_S, rm: RP | FS, a: S_MIN_NORMAL, b: S_HALF, result: S_MIN_NORMAL, cause: U | I },
    Case { name: "FS flushes a negative tiny result to -0 under RP", word: MUL_S, rm: RP | FS, a: S_M_MIN_NORMAL, b: S_HALF, result: S_M_ZERO, cause: U | I },
    Case { name: "FS flushes a negative tiny result to -min_normal under RM", word: MUL_S, rm: RM | FS, a: S_M_MIN_NORMAL, b: S_HALF, result: S_M_MIN_NORMAL, cause: U | I },
    Case { name: "FS flushes to -0 under RZ", word: MUL_S, rm: RZ | FS, a: S_M_MIN_NORMAL, b: S_HALF, result: S_M_ZERO, cause: U | I },
    Case { name: "FS leaves normal results alone", word: ADD_S, rm: RN | FS, a: S_ONE, b: S_TWO, result: S_THREE, cause: 0 },
    Case { name: "FS still reads denormal operands exactly", word: ADD_S, rm: RN | FS, a: S_MIN_DENORMAL, b: S_ONE, result: S_ONE, cause: I },
    Case { name: "FS flushes double denormals too", word: MUL_D, rm: RN | FS, a: D_MIN_NORMAL, b: D_HALF, result: 0, cause: U | I },
];

#[test]
fn arithmetic_table() {
    for case in CASES {
        let (fd, fcsr, trapped) = run(case.word, case.rm, case.a, case.b);
        assert!(!trapped, "{}: trapped", case.name);
        assert_eq!(fd, case.result, "{}: result {fd:#x}", case.name);
        // Cause is this instruction's; the flags accumulate the same bits.
        assert_eq!(
            fcsr,
            case.rm | case.cause | (case.cause >> 10),
            "{}: FCSR {fcsr:#x}",
            case.name
        );
    }
}

#[test]
fn mov_copies_bits_and_leaves_fcsr_alone() {
    // mov.s of a signalling NaN: non-arithmetic, no Invalid; the earlier
    // cause field survives.
    let fcsr = RN | I | (I >> 10);
    let (fd, after, trapped) = run(MOV_S, fcsr, S_SNAN, 0);
    assert_eq!((fd, after, trapped), (S_SNAN, fcsr, false));
}

#[test]
fn each_arithmetic_instruction_rewrites_the_cause_field() {
    // The previous instruction left I in Cause and Flags; an exact add
    // clears Cause but the sticky flag stays.
    let fcsr = RN | I | (I >> 10);
    let (_, after, _) = run(ADD_S, fcsr, S_ONE, S_TWO);
    assert_eq!(after, RN | (I >> 10));
}

struct TrapCase {
    name: &'static str,
    word: u32,
    fcsr: u32,
    a: u64,
    b: u64,
    cause: u32,
}

#[rustfmt::skip]
const TRAPS: &[TrapCase] = &[
    TrapCase { name: "enabled inexact traps on 1/3", word: DIV_S, fcsr: EN_I, a: S_ONE, b: S_THREE, cause: I },
    TrapCase { name: "enabled overflow traps with O and I in Cause", word: ADD_S, fcsr: EN_O, a: S_MAX, b: S_MAX, cause: O | I },
    TrapCase { name: "enabled invalid traps on a signalling NaN", word: ADD_D, fcsr: EN_V, a: D_SNAN, b: D_ONE, cause: V },
    TrapCase { name: "enabled invalid traps on sqrt of -1", word: SQRT_S, fcsr: EN_V, a: S_M_ONE, b: 0, cause: V },
    TrapCase { name: "enabled divide-by-zero traps", word: DIV_D, fcsr: 1 << 10, a: D_ONE, b: 0, cause: Z },
    // IEEE 754-1985 7.4: with the underflow trap enabled, tininess alone
    // signals underflow, even for an exact result.
    TrapCase { name: "enabled underflow traps on an exact denormal", word: MUL_S, fcsr: EN_U, a: S_MIN_NORMAL, b: S_HALF, cause: U },
    TrapCase { name: "enabled inexact traps on a flushed result", word: MUL_S, fcsr: EN_I | FS, a: S_MIN_NORMAL, b: S_HALF, cause: U | I },
];

#[test]
fn enabled_exceptions_trap_and_leave_the_destination_and_flags_unchanged() {
    for case in TRAPS {
        let (fd, fcsr, trapped) = run(case.word, case.fcsr, case.a, case.b);
        assert!(trapped, "{}: did not trap", case.name);
        let unchanged = if case.word & (1 << 21) != 0 {
            SENTINEL
        } else {
            SENTINEL & 0xffff_ffff
        };
        assert_eq!(fd, unchanged, "{}: destination written", case.name);
        assert_eq!(
            fcsr,
            case.fcsr | case.cause,
            "{}: FCSR {fcsr:#x}",
            case.name
        );
    }
}

#[test]
fn disabled_exceptions_do_not_trap_when_others_are_enabled() {
    // Invalid is enabled, but 1/3 only raises Inexact.
    let (fd, fcsr, trapped) = run(DIV_S, EN_V, S_ONE, S_THREE);
    assert_eq!(
        (fd, fcsr, trapped),
        (0x3eaa_aaab, EN_V | I | (I >> 10), false)
    );
}
