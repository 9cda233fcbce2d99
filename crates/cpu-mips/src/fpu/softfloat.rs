//! Correctly rounded IEEE 754 binary32/binary64 arithmetic in software, in
//! all four rounding modes, with the five IEEE exception conditions.
//!
//! Technique (Berkeley SoftFloat's structure, re-derived here): unpack each
//! operand to sign, integer significand and exponent; compute the exact
//! result as a wide integer (`u128`) plus a sticky bit that records whether
//! any non-zero bits were dropped; round that once with [`round_pack`]. An
//! exact intermediate rounded once is correctly rounded by construction.
//! No host floating point is used, so the host's rounding mode, flush
//! settings and NaN conventions cannot leak in.
//!
//! MIPS-specific conventions (MIPS legacy, pre-2008 NaN encoding):
//! - a NaN whose top fraction bit is SET is signalling, CLEAR is quiet;
//! - the default NaN is 0x7fbfffff / 0x7ff7ffffffffffff;
//! - any signalling NaN operand raises Invalid and yields the default NaN
//!   (the legacy encoding cannot quiet an sNaN by setting a bit; R4000
//!   manual table 7-1: Invalid "Supply a quiet Not a Number");
//! - otherwise a quiet NaN operand is returned unchanged, fs before ft
//!   (QEMU's MIPS rule, and Linux's MIPS FPU emulator's);
//! - tininess is detected after rounding (QEMU's MIPS setting); Underflow is
//!   signalled when the result is tiny and inexact, or tiny at all when the
//!   Underflow trap is enabled (IEEE 754-1985 section 7.4).
//!
//! Contents: [`Format`] and constants, [`unpack`], [`round_pack`] (the one
//! rounding routine), then the operations: [`add`], [`mul`], [`div`],
//! [`sqrt`], [`convert`], [`from_int`], [`to_int`], [`compare`],
//! [`abs`], [`neg`].

use super::fcsr::{Exceptions, RoundingMode};
use std::cmp::Ordering;

/// A binary interchange format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// Stored fraction bits (23 or 52).
    frac_bits: u32,
    /// Exponent field bits (8 or 11).
    exp_bits: u32,
}

/// binary32 (MIPS S).
pub const SINGLE: Format = Format {
    frac_bits: 23,
    exp_bits: 8,
};
/// binary64 (MIPS D).
pub const DOUBLE: Format = Format {
    frac_bits: 52,
    exp_bits: 11,
};

impl Format {
    /// Significand precision p, hidden bit included.
    fn precision(self) -> u32 {
        self.frac_bits + 1
    }
    fn bias(self) -> i32 {
        (1 << (self.exp_bits - 1)) - 1
    }
    /// Largest unbiased exponent of a finite number.
    fn emax(self) -> i32 {
        self.bias()
    }
    /// Smallest unbiased exponent of a normal number.
    fn emin(self) -> i32 {
        1 - self.bias()
    }
    fn exp_all_ones(self) -> u64 {
        (1 << self.exp_bits) - 1
    }
    fn frac_mask(self) -> u64 {
        (1 << self.frac_bits) - 1
    }
    /// The top fraction bit: set = signalling NaN in the MIPS legacy encoding.
    fn nan_signal_bit(self) -> u64 {
        1 << (self.frac_bits - 1)
    }
    /// The sign bit.
    pub fn sign_bit(self) -> u64 {
        1 << (self.frac_bits + self.exp_bits)
    }
    fn signed(self, sign: bool, magnitude: u64) -> u64 {
        if sign {
            magnitude | self.sign_bit()
        } else {
            magnitude
        }
    }
    /// ±0.
    pub fn zero(self, sign: bool) -> u64 {
        self.signed(sign, 0)
    }
    /// ±infinity.
    pub fn infinity(self, sign: bool) -> u64 {
        self.signed(sign, self.exp_all_ones() << self.frac_bits)
    }
    /// ±the largest finite number.
    pub fn max_finite(self, sign: bool) -> u64 {
        self.signed(
            sign,
            ((self.exp_all_ones() - 1) << self.frac_bits) | self.frac_mask(),
        )
    }
    /// ±the smallest normal number.
    pub fn min_normal(self, sign: bool) -> u64 {
        self.signed(sign, 1 << self.frac_bits)
    }
    /// The MIPS legacy default NaN: 0x7fbfffff (S), 0x7ff7ffffffffffff (D).
    pub fn default_nan(self) -> u64 {
        (self.exp_all_ones() << self.frac_bits) | (self.frac_mask() >> 1)
    }
}

/// What kind of datum an encoding holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Zero,
    /// A non-zero finite number `sig * 2^exp`, `sig` normalized to exactly
    /// p bits (denormals are normalized here, with a lower `exp`).
    Finite {
        exp: i32,
        sig: u64,
    },
    Infinity,
    QuietNan,
    SignallingNan,
}

impl Class {
    fn is_nan(self) -> bool {
        matches!(self, Class::QuietNan | Class::SignallingNan)
    }
}

/// A decoded operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unpacked {
    pub sign: bool,
    pub class: Class,
}

/// Decodes the encoding `bits` of format `fmt`.
pub fn unpack(fmt: Format, bits: u64) -> Unpacked {
    let sign = bits & fmt.sign_bit() != 0;
    let field = (bits >> fmt.frac_bits) & fmt.exp_all_ones();
    let frac = bits & fmt.frac_mask();
    let class = if field == fmt.exp_all_ones() {
        if frac == 0 {
            Class::Infinity
        } else if frac & fmt.nan_signal_bit() != 0 {
            Class::SignallingNan
        } else {
            Class::QuietNan
        }
    } else if field == 0 {
        if frac == 0 {
            Class::Zero
        } else {
            // Denormal: frac * 2^(emin - frac_bits), normalized to p bits.
            let shift = frac.leading_zeros() - (63 - fmt.frac_bits);
            Class::Finite {
                exp: fmt.emin() - fmt.frac_bits as i32 - shift as i32,
                sig: frac << shift,
            }
        }
    } else {
        Class::Finite {
            exp: field as i32 - fmt.bias() - fmt.frac_bits as i32,
            sig: frac | (1 << fmt.frac_bits),
        }
    };
    Unpacked { sign, class }
}

/// How to round: the FCSR state an operation depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Env {
    /// FCSR.RM.
    pub mode: RoundingMode,
    /// FCSR.FS: replace tiny (denormal or underflowed-to-zero) results.
    pub flush: bool,
    /// The Underflow enable: an exact tiny result signals Underflow too.
    pub underflow_trap: bool,
}

/// An operation's result encoding and the exception conditions it raised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rounded {
    /// The result: a float encoding, or an integer for conversions to W/L
    /// (W in the low 32 bits).
    pub bits: u64,
    pub exc: Exceptions,
}

impl Rounded {
    /// `bits`, with Inexact raised when `inexact`.
    pub(crate) fn inexact_if(bits: u64, inexact: bool) -> Rounded {
        Rounded {
            bits,
            exc: if inexact {
                Exceptions::INEXACT
            } else {
                Exceptions::empty()
            },
        }
    }
    fn exact(bits: u64) -> Rounded {
        Rounded {
            bits,
            exc: Exceptions::empty(),
        }
    }
    /// Invalid operation: the default NaN (R4000 manual, table 7-1).
    fn invalid(fmt: Format) -> Rounded {
        Rounded {
            bits: fmt.default_nan(),
            exc: Exceptions::INVALID,
        }
    }
}

/// Shifts `sig` right by `shift` bits and rounds the kept part in `mode`;
/// `sticky` says non-zero bits lie below `sig`'s lowest bit. Returns the
/// rounded integer (it may carry into one more bit) and whether any
/// non-zero bits were discarded.
fn shift_round(
    sig: u128,
    sticky: bool,
    shift: i32,
    sign: bool,
    mode: RoundingMode,
) -> (u128, bool) {
    if shift <= 0 {
        // Only reached with an exact `sig` (see round_pack's precondition).
        return (sig << (-shift) as u32, sticky);
    }
    let shift = shift as u32;
    let (kept, round_bit, rest) = match shift {
        129.. => (0, false, sig != 0),
        128 => (0, sig >> 127 != 0, sig << 1 != 0),
        _ => (
            sig >> shift,
            (sig >> (shift - 1)) & 1 != 0,
            sig & ((1u128 << (shift - 1)) - 1) != 0,
        ),
    };
    let rest = rest || sticky;
    let inexact = round_bit || rest;
    let up = match mode {
        RoundingMode::Nearest => round_bit && (rest || kept & 1 != 0),
        RoundingMode::TowardZero => false,
        RoundingMode::TowardPlus => inexact && !sign,
        RoundingMode::TowardMinus => inexact && sign,
    };
    (kept + up as u128, inexact)
}

/// The result of an overflow without a trap (R4000 manual, table 7-1):
/// RN: ±inf; RZ: ±largest finite; RP: +inf or -largest; RM: +largest or -inf.
fn overflow(fmt: Format, mode: RoundingMode, sign: bool) -> Rounded {
    let to_infinity = match mode {
        RoundingMode::Nearest => true,
        RoundingMode::TowardZero => false,
        RoundingMode::TowardPlus => !sign,
        RoundingMode::TowardMinus => sign,
    };
    Rounded {
        bits: if to_infinity {
            fmt.infinity(sign)
        } else {
            fmt.max_finite(sign)
        },
        exc: Exceptions::OVERFLOW | Exceptions::INEXACT,
    }
}

/// A tiny result under FCSR.FS. The R4000 manual (ch. 6, "Control/Status
/// Register FS Bit"): "When the FS bit is set, denormalized results are
/// flushed to 0 instead of causing an unimplemented operation exception";
/// the value follows table 7-1's underflow default action: RN, RZ: 0 with
/// the sign of the intermediate result; RP: positive results become the
/// smallest positive number, negative ones -0; RM: the mirror image. The
/// "smallest number" is taken as the smallest *normal* number, since FS
/// exists to avoid denormals (doubt: the table does not say which).
/// Flushing discards a non-zero value: Underflow and Inexact.
fn flush(fmt: Format, mode: RoundingMode, sign: bool) -> Rounded {
    let away = match mode {
        RoundingMode::TowardPlus => !sign,
        RoundingMode::TowardMinus => sign,
        _ => false,
    };
    Rounded {
        bits: if away {
            fmt.min_normal(sign)
        } else {
            fmt.zero(sign)
        },
        exc: Exceptions::UNDERFLOW | Exceptions::INEXACT,
    }
}

/// Rounds the exact value `(-1)^sign * (sig + f) * 2^exp` to `fmt`, where
/// `f` is 0 when `sticky` is false and lies strictly between 0 and 1
/// otherwise. Precondition: `sig != 0`, and when `sticky` is set `sig` has at
/// least p + 2 significant bits (so `f` only ever feeds the sticky bit).
pub fn round_pack(fmt: Format, env: Env, sign: bool, exp: i32, sig: u128, sticky: bool) -> Rounded {
    if sig == 0 {
        // Not reached by the operations below; a zero is still exact.
        return Rounded::exact(fmt.zero(sign));
    }
    let p = fmt.precision() as i32;
    let len = 128 - sig.leading_zeros() as i32;
    // Unbiased exponent of the leading bit.
    let top = exp + len - 1;
    let emin = fmt.emin();
    if top >= emin {
        let (mut q, inexact) = shift_round(sig, sticky, len - p, sign, env.mode);
        let mut e = top;
        if q >> p != 0 {
            q >>= 1;
            e += 1;
        }
        if e > fmt.emax() {
            return overflow(fmt, env.mode, sign);
        }
        let magnitude = (((e + fmt.bias()) as u64) << fmt.frac_bits) | (q as u64 & fmt.frac_mask());
        return Rounded {
            bits: fmt.signed(sign, magnitude),
            exc: if inexact {
                Exceptions::INEXACT
            } else {
                Exceptions::empty()
            },
        };
    }
    // Below the normal range before rounding. Tiny after rounding unless
    // rounding to p bits with an unbounded exponent reaches 2^emin.
    let tiny = top < emin - 1 || {
        let (q, _) = shift_round(sig, sticky, len - p, sign, env.mode);
        q >> p == 0
    };
    // Denormal: the last place has weight 2^(emin - frac_bits).
    let (q, inexact) = shift_round(
        sig,
        sticky,
        emin - fmt.frac_bits as i32 - exp,
        sign,
        env.mode,
    );
    let denormal_or_zero = (q as u64) >> fmt.frac_bits == 0;
    if env.flush && tiny && denormal_or_zero {
        return flush(fmt, env.mode, sign);
    }
    let mut exc = Exceptions::empty();
    if inexact {
        exc |= Exceptions::INEXACT;
    }
    if tiny && (inexact || env.underflow_trap) {
        exc |= Exceptions::UNDERFLOW;
    }
    // A carry out of the denormal significand lands in the exponent field,
    // giving the smallest normal number.
    Rounded {
        bits: fmt.signed(sign, q as u64),
        exc,
    }
}

/// NaN operands, MIPS legacy rules (see the module header): `None` when no
/// operand is a NaN.
fn propagate_nan(fmt: Format, operands: &[(u64, Unpacked)]) -> Option<Rounded> {
    if operands
        .iter()
        .any(|(_, u)| u.class == Class::SignallingNan)
    {
        return Some(Rounded::invalid(fmt));
    }
    operands
        .iter()
        .find(|(_, u)| u.class == Class::QuietNan)
        .map(|&(bits, _)| Rounded::exact(bits))
}

/// ADD.fmt (`negate_b` false) and SUB.fmt (`negate_b` true).
pub fn add(fmt: Format, env: Env, a: u64, b: u64, negate_b: bool) -> Rounded {
    let ua = unpack(fmt, a);
    let mut ub = unpack(fmt, b);
    if let Some(nan) = propagate_nan(fmt, &[(a, ua), (b, ub)]) {
        return nan;
    }
    ub.sign ^= negate_b;
    // IEEE 754-1985 section 6.3: an exact zero sum of opposite-signed
    // operands is +0, except -0 when rounding toward -infinity.
    let zero_sum_sign = env.mode == RoundingMode::TowardMinus;
    match (ua.class, ub.class) {
        (Class::Infinity, Class::Infinity) if ua.sign != ub.sign => Rounded::invalid(fmt),
        (Class::Infinity, _) => Rounded::exact(fmt.infinity(ua.sign)),
        (_, Class::Infinity) => Rounded::exact(fmt.infinity(ub.sign)),
        (Class::Zero, Class::Zero) => Rounded::exact(fmt.zero(if ua.sign == ub.sign {
            ua.sign
        } else {
            zero_sum_sign
        })),
        (Class::Zero, Class::Finite { exp, sig }) => {
            round_pack(fmt, env, ub.sign, exp, sig.into(), false)
        }
        (Class::Finite { exp, sig }, Class::Zero) => {
            round_pack(fmt, env, ua.sign, exp, sig.into(), false)
        }
        (Class::Finite { exp: ea, sig: ma }, Class::Finite { exp: eb, sig: mb }) => {
            // Order so that a has the larger exponent.
            let ((sa, ea, ma), (sb, eb, mb)) = if ea >= eb {
                ((ua.sign, ea, ma), (ub.sign, eb, mb))
            } else {
                ((ub.sign, eb, mb), (ua.sign, ea, ma))
            };
            let d = (ea - eb) as u32;
            // a scaled up by 2^64 leaves room to align b exactly unless b
            // lies more than 64 places below; then b's dropped bits only
            // matter as a sticky bit (b is far below a's rounding point).
            let big = (ma as u128) << 64;
            let (small, sticky) = if d <= 64 {
                ((mb as u128) << (64 - d), false)
            } else if d - 64 < 64 {
                let s = d - 64;
                ((mb >> s) as u128, mb & ((1u64 << s) - 1) != 0)
            } else {
                (0, true)
            };
            let exp = ea - 64;
            if sa == sb {
                return round_pack(fmt, env, sa, exp, big + small, sticky);
            }
            let (sign, diff) = if big >= small {
                (sa, big - small)
            } else {
                (sb, small - big)
            };
            if diff == 0 && !sticky {
                return Rounded::exact(fmt.zero(zero_sum_sign));
            }
            // With a sticky b the true difference is a little less than
            // big - small: step one unit down and keep the sticky bit.
            let diff = if sticky { diff - 1 } else { diff };
            round_pack(fmt, env, sign, exp, diff, sticky)
        }
        _ => Rounded::invalid(fmt), // NaNs were handled above.
    }
}

/// MUL.fmt.
pub fn mul(fmt: Format, env: Env, a: u64, b: u64) -> Rounded {
    let (ua, ub) = (unpack(fmt, a), unpack(fmt, b));
    if let Some(nan) = propagate_nan(fmt, &[(a, ua), (b, ub)]) {
        return nan;
    }
    let sign = ua.sign != ub.sign;
    match (ua.class, ub.class) {
        (Class::Infinity, Class::Zero) | (Class::Zero, Class::Infinity) => Rounded::invalid(fmt),
        (Class::Infinity, _) | (_, Class::Infinity) => Rounded::exact(fmt.infinity(sign)),
        (Class::Zero, _) | (_, Class::Zero) => Rounded::exact(fmt.zero(sign)),
        (Class::Finite { exp: ea, sig: ma }, Class::Finite { exp: eb, sig: mb }) => {
            round_pack(fmt, env, sign, ea + eb, ma as u128 * mb as u128, false)
        }
        _ => Rounded::invalid(fmt),
    }
}

/// DIV.fmt.
pub fn div(fmt: Format, env: Env, a: u64, b: u64) -> Rounded {
    let (ua, ub) = (unpack(fmt, a), unpack(fmt, b));
    if let Some(nan) = propagate_nan(fmt, &[(a, ua), (b, ub)]) {
        return nan;
    }
    let sign = ua.sign != ub.sign;
    match (ua.class, ub.class) {
        (Class::Infinity, Class::Infinity) | (Class::Zero, Class::Zero) => Rounded::invalid(fmt),
        (Class::Infinity, _) => Rounded::exact(fmt.infinity(sign)),
        (_, Class::Infinity) | (Class::Zero, _) => Rounded::exact(fmt.zero(sign)),
        (Class::Finite { .. }, Class::Zero) => Rounded {
            bits: fmt.infinity(sign),
            exc: Exceptions::DIV_BY_ZERO,
        },
        (Class::Finite { exp: ea, sig: ma }, Class::Finite { exp: eb, sig: mb }) => {
            // Both significands have p bits, so the quotient of a * 2^64 by
            // b has at least 64 bits: enough for the sticky precondition.
            let n = (ma as u128) << 64;
            let q = n / mb as u128;
            let r = n % mb as u128;
            round_pack(fmt, env, sign, ea - eb - 64, q, r != 0)
        }
        _ => Rounded::invalid(fmt),
    }
}

/// Integer square root: the largest r with r * r <= n (digit-by-digit).
fn isqrt(n: u128) -> u128 {
    let mut rest = n;
    let mut root = 0u128;
    let mut bit = 1u128 << 126;
    while bit > n {
        bit >>= 2;
    }
    while bit != 0 {
        if rest >= root + bit {
            rest -= root + bit;
            root = (root >> 1) + bit;
        } else {
            root >>= 1;
        }
        bit >>= 2;
    }
    root
}

/// SQRT.fmt. sqrt(-0) = -0; a negative non-zero operand is Invalid.
pub fn sqrt(fmt: Format, env: Env, a: u64) -> Rounded {
    let ua = unpack(fmt, a);
    if let Some(nan) = propagate_nan(fmt, &[(a, ua)]) {
        return nan;
    }
    match ua.class {
        Class::Zero => Rounded::exact(a),
        _ if ua.sign => Rounded::invalid(fmt),
        Class::Infinity => Rounded::exact(a),
        Class::Finite { exp, sig } => {
            // Make the exponent even, then widen by 2^70 so the root has at
            // least p + 2 bits (sig >= 2^(p-1): root >= 2^((p-1+70)/2)).
            let (mut m, mut e) = (sig as u128, exp);
            if e & 1 != 0 {
                m <<= 1;
                e -= 1;
            }
            m <<= 70;
            e -= 70;
            let root = isqrt(m);
            round_pack(fmt, env, false, e / 2, root, root * root != m)
        }
        _ => Rounded::invalid(fmt),
    }
}

/// CVT.S.D and CVT.D.S. A quiet NaN keeps its sign and the leading bits of
/// its payload (QEMU's behaviour); if narrowing leaves no payload bit the
/// default NaN is delivered instead (doubt: no public R4000 statement).
pub fn convert(from: Format, to: Format, env: Env, a: u64) -> Rounded {
    let ua = unpack(from, a);
    match ua.class {
        Class::SignallingNan => Rounded::invalid(to),
        Class::QuietNan => {
            let frac = a & from.frac_mask();
            let frac = if to.frac_bits >= from.frac_bits {
                frac << (to.frac_bits - from.frac_bits)
            } else {
                frac >> (from.frac_bits - to.frac_bits)
            };
            if frac == 0 {
                Rounded::exact(to.default_nan())
            } else {
                Rounded::exact(to.signed(ua.sign, (to.exp_all_ones() << to.frac_bits) | frac))
            }
        }
        Class::Infinity => Rounded::exact(to.infinity(ua.sign)),
        Class::Zero => Rounded::exact(to.zero(ua.sign)),
        Class::Finite { exp, sig } => round_pack(to, env, ua.sign, exp, sig as u128, false),
    }
}

/// CVT.fmt.W and CVT.fmt.L: the integer `value` rounded to `fmt`.
pub fn from_int(fmt: Format, env: Env, value: i64) -> Rounded {
    if value == 0 {
        return Rounded::exact(fmt.zero(false));
    }
    round_pack(fmt, env, value < 0, 0, value.unsigned_abs() as u128, false)
}

/// CVT.W/L and ROUND/TRUNC/CEIL/FLOOR: `a` rounded in `mode` to a signed
/// integer of `width` bits (32 or 64; W is returned in the low 32 bits).
///
/// NaN, infinity and out-of-range values are Invalid; without the Invalid
/// trap the result is 2^31 - 1 or 2^63 - 1 whatever the sign (QEMU
/// target/mips/fpu_helper.c, FP_TO_INT32_OVERFLOW / FP_TO_INT64_OVERFLOW
/// for pre-R6 cores, matching the R4000's "unimplemented operation" path
/// completed by the kernel). Inexact is not raised with Invalid.
pub fn to_int(fmt: Format, mode: RoundingMode, a: u64, width: u32) -> Rounded {
    let invalid = Rounded {
        bits: (1u64 << (width - 1)) - 1,
        exc: Exceptions::INVALID,
    };
    let ua = unpack(fmt, a);
    let (exp, sig) = match ua.class {
        Class::Zero => return Rounded::exact(0),
        Class::Finite { exp, sig } => (exp, sig),
        _ => return invalid,
    };
    let (magnitude, inexact) = if exp >= 0 {
        if exp > 64 {
            return invalid;
        }
        ((sig as u128) << exp, false)
    } else {
        shift_round(sig as u128, false, -exp, ua.sign, mode)
    };
    let limit = 1u128 << (width - 1);
    if magnitude > limit || (magnitude == limit && !ua.sign) {
        return invalid;
    }
    let value = if ua.sign {
        (magnitude as i128).wrapping_neg()
    } else {
        magnitude as i128
    };
    let bits = if width == 32 {
        value as u32 as u64
    } else {
        value as u64
    };
    Rounded::inexact_if(bits, inexact)
}

/// Orders `a` against `b` (None: unordered); the flag says a signalling
/// NaN was among the operands.
pub fn compare(fmt: Format, a: u64, b: u64) -> (Option<Ordering>, bool) {
    let (ua, ub) = (unpack(fmt, a), unpack(fmt, b));
    let signalling = ua.class == Class::SignallingNan || ub.class == Class::SignallingNan;
    if ua.class.is_nan() || ub.class.is_nan() {
        return (None, signalling);
    }
    // Sign-magnitude encodings order like integers once the sign is applied
    // (+0 and -0 both map to 0).
    let key = |bits: u64| {
        let magnitude = (bits & !fmt.sign_bit()) as i128;
        if bits & fmt.sign_bit() != 0 {
            -magnitude
        } else {
            magnitude
        }
    };
    (Some(key(a).cmp(&key(b))), false)
}

/// ABS.fmt: clears the sign. The MIPS IV manual calls ABS "arithmetic";
/// following IEEE 754-1985 (and Linux's MIPS FPU emulator) only a
/// signalling NaN raises Invalid (default NaN result); a quiet NaN passes
/// with its sign cleared.
pub fn abs(fmt: Format, a: u64) -> Rounded {
    if unpack(fmt, a).class == Class::SignallingNan {
        return Rounded::invalid(fmt);
    }
    Rounded::exact(a & !fmt.sign_bit())
}

/// NEG.fmt: flips the sign; NaNs as for [`abs`].
pub fn neg(fmt: Format, a: u64) -> Rounded {
    if unpack(fmt, a).class == Class::SignallingNan {
        return Rounded::invalid(fmt);
    }
    Rounded::exact(a ^ fmt.sign_bit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isqrt_is_floor_of_root() {
        for (n, r) in [
            (0u128, 0u128),
            (1, 1),
            (3, 1),
            (4, 2),
            (15, 3),
            (16, 4),
            (u128::MAX, u64::MAX as u128),
        ] {
            assert_eq!(isqrt(n), r, "isqrt({n})");
        }
    }

    #[test]
    fn unpack_normalizes_denormals() {
        // 0x00000001: the smallest single denormal, 2^-149.
        assert_eq!(
            unpack(SINGLE, 1).class,
            Class::Finite {
                exp: -149 - 23,
                sig: 1 << 23
            }
        );
    }
}
