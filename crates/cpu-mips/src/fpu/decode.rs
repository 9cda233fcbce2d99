//! Decoding of computational COP1 words into [`FpOp`], and everything the
//! rest of the emulator reads off a decoded op: disassembly (`Display`), the
//! scoreboard's latency, source and destination registers.
//!
//! Encoding (MIPS IV Instruction Set, rev 3.2, "COP1" opcode table; the
//! MIPS I-III subset the R4000 implements):
//! `010001 fmt(25:21) ft(20:16) fs(15:11) fd(10:6) function(5:0)`.
//! fmt: 16 = S, 17 = D, 20 = W, 21 = L.
//!
//! Fields an instruction does not use (ft of a unary op, fd of a compare)
//! are ignored, as the R4000 manual gives them as "0" without defining a
//! trap for other values (doubt: real silicon is not known to check them).

use std::fmt;

/// Operand format (the fmt field of the instruction word).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fmt {
    /// Single-precision binary floating point (32 bits).
    S,
    /// Double-precision binary floating point (64 bits).
    D,
    /// 32-bit two's-complement integer.
    W,
    /// 64-bit two's-complement integer (MIPS III).
    L,
}

impl Fmt {
    /// The fmt field value (R4000 manual, "Floating-Point Instruction
    /// Formats": 16 S, 17 D, 20 W, 21 L).
    pub fn from_field(field: u32) -> Option<Fmt> {
        match field {
            16 => Some(Fmt::S),
            17 => Some(Fmt::D),
            20 => Some(Fmt::W),
            21 => Some(Fmt::L),
            _ => None,
        }
    }

    /// True for the 64-bit formats (D and L), which occupy a register pair
    /// when Status.FR = 0.
    pub fn is_64bit(self) -> bool {
        matches!(self, Fmt::D | Fmt::L)
    }

    fn suffix(self) -> &'static str {
        match self {
            Fmt::S => "s",
            Fmt::D => "d",
            Fmt::W => "w",
            Fmt::L => "l",
        }
    }
}

/// How ROUND/TRUNC/CEIL/FLOOR choose the integer: each names a fixed
/// rounding mode that overrides FCSR.RM for that instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntRounding {
    /// ROUND: to nearest, ties to even.
    Round,
    /// TRUNC: toward zero.
    Trunc,
    /// CEIL: toward +infinity.
    Ceil,
    /// FLOOR: toward -infinity.
    Floor,
}

/// The operation (the function field, 5:0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Func {
    Add,
    Sub,
    Mul,
    Div,
    Sqrt,
    Abs,
    Mov,
    Neg,
    /// ROUND/TRUNC/CEIL/FLOOR.{W,L}.fmt: the target format is `to` (W or L).
    ToInt {
        rounding: IntRounding,
        to: Fmt,
    },
    /// CVT.{S,D,W,L}.fmt: convert to `to` in the FCSR rounding mode.
    Cvt {
        to: Fmt,
    },
    /// C.cond.fmt, `cond` = function bits 3:0.
    Compare(Cond),
}

/// The four bits of a C.cond.fmt function field (R4000 manual, table
/// "Logical Negation of Predicates by Condition True/False"): bit 0 = true
/// if unordered, bit 1 = true if equal, bit 2 = true if less, bit 3 =
/// signal Invalid when unordered (a quiet NaN operand).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cond(u8);

impl Cond {
    /// The mnemonics, indexed by the cond field (0..15).
    const NAMES: [&'static str; 16] = [
        "f", "un", "eq", "ueq", "olt", "ult", "ole", "ule", "sf", "ngle", "seq", "ngl", "lt",
        "nge", "le", "ngt",
    ];

    /// Builds a condition from the low four bits of `bits`.
    pub fn new(bits: u8) -> Cond {
        Cond(bits & 0xf)
    }
    /// The cond field value (0..15).
    pub fn bits(self) -> u8 {
        self.0
    }
    /// True if the predicate holds when the operands are unordered.
    pub fn if_unordered(self) -> bool {
        self.0 & 1 != 0
    }
    /// True if the predicate holds when the operands are equal.
    pub fn if_equal(self) -> bool {
        self.0 & 2 != 0
    }
    /// True if the predicate holds when fs < ft.
    pub fn if_less(self) -> bool {
        self.0 & 4 != 0
    }
    /// True for the signalling predicates (8..15): a quiet NaN raises Invalid.
    pub fn signals_on_qnan(self) -> bool {
        self.0 & 8 != 0
    }
    /// The mnemonic ("lt", "ueq", ...).
    pub fn name(self) -> &'static str {
        Self::NAMES[self.0 as usize]
    }
}

/// A decoded computational COP1 instruction. Register fields are FPR
/// numbers 0..31 as written in the instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FpOp {
    /// The operation.
    pub func: Func,
    /// The source format (the fmt field).
    pub fmt: Fmt,
    /// fd (10:6): destination register.
    pub fd: u8,
    /// fs (15:11): first source register.
    pub fs: u8,
    /// ft (20:16): second source register (binary ops and compares).
    pub ft: u8,
}

/// Decodes a COP1 word whose rs field is S (16), D (17), W (20) or L (21).
/// `None`: an encoding the R4000 does not have (the core raises RI).
///
/// Valid combinations (R4000 manual, appendix B, "FPU Instruction Set
/// Details"): arithmetic, ROUND/TRUNC/CEIL/FLOOR and compares take S or D;
/// CVT.S takes D, W, L; CVT.D takes S, W, L; CVT.W and CVT.L take S or D.
pub fn decode_cop1(word: u32) -> Option<FpOp> {
    if word >> 26 != 0x11 {
        return None;
    }
    let fmt = Fmt::from_field((word >> 21) & 0x1f)?;
    let float = matches!(fmt, Fmt::S | Fmt::D);
    let func = match word & 0x3f {
        0 if float => Func::Add,
        1 if float => Func::Sub,
        2 if float => Func::Mul,
        3 if float => Func::Div,
        4 if float => Func::Sqrt,
        5 if float => Func::Abs,
        6 if float => Func::Mov,
        7 if float => Func::Neg,
        f @ 8..=15 if float => Func::ToInt {
            rounding: match f & 3 {
                0 => IntRounding::Round,
                1 => IntRounding::Trunc,
                2 => IntRounding::Ceil,
                _ => IntRounding::Floor,
            },
            to: if f < 12 { Fmt::L } else { Fmt::W },
        },
        32 if fmt != Fmt::S => Func::Cvt { to: Fmt::S },
        33 if fmt != Fmt::D => Func::Cvt { to: Fmt::D },
        36 if float => Func::Cvt { to: Fmt::W },
        37 if float => Func::Cvt { to: Fmt::L },
        f @ 48..=63 if float => Func::Compare(Cond::new(f as u8)),
        _ => return None,
    };
    Some(FpOp {
        func,
        fmt,
        fd: ((word >> 6) & 0x1f) as u8,
        fs: ((word >> 11) & 0x1f) as u8,
        ft: ((word >> 16) & 0x1f) as u8,
    })
}

/// Result latencies in pipeline cycles, as GCC's MIPS scheduling model
/// encodes them (gcc/config/mips/generic.md, "derived from the old
/// define_function_unit description", which the R4000 uses: 4000.md only
/// overrides the integer multiply/divide unit). Conversions are GCC's
/// `generic_fcvt` (1 cycle); the R4000 manual's own table gives CVT longer
/// latencies (doubt), but the project takes GCC's model as its source.
pub mod latency {
    /// generic_fadd: ADD, SUB (and GCC's other "fadd"-typed ops).
    pub const ADD: u32 = 4;
    /// generic_fmove: ABS, NEG, MOV.
    pub const MOVE: u32 = 2;
    /// generic_fcmp: C.cond.fmt.
    pub const COMPARE: u32 = 3;
    /// generic_fmul_single.
    pub const MUL_S: u32 = 7;
    /// generic_fmul_double.
    pub const MUL_D: u32 = 8;
    /// generic_fdiv_single.
    pub const DIV_S: u32 = 23;
    /// generic_fdiv_double.
    pub const DIV_D: u32 = 36;
    /// generic_fsqrt_single.
    pub const SQRT_S: u32 = 54;
    /// generic_fsqrt_double.
    pub const SQRT_D: u32 = 112;
    /// generic_fcvt: CVT, ROUND, TRUNC, CEIL, FLOOR.
    pub const CONVERT: u32 = 1;
}

impl FpOp {
    /// Cycles from issue until the destination (FPR or condition bit) is ready.
    pub fn latency(&self) -> u32 {
        let double = self.fmt == Fmt::D;
        match self.func {
            Func::Add | Func::Sub => latency::ADD,
            Func::Abs | Func::Mov | Func::Neg => latency::MOVE,
            Func::Compare(_) => latency::COMPARE,
            Func::Mul if double => latency::MUL_D,
            Func::Mul => latency::MUL_S,
            Func::Div if double => latency::DIV_D,
            Func::Div => latency::DIV_S,
            Func::Sqrt if double => latency::SQRT_D,
            Func::Sqrt => latency::SQRT_S,
            Func::ToInt { .. } | Func::Cvt { .. } => latency::CONVERT,
        }
    }

    /// FPR numbers read (for the scoreboard). A 64-bit operand under
    /// Status.FR = 0 also occupies the odd register of its pair; the
    /// scoreboard tracks the number as written.
    pub fn sources(&self) -> [Option<u8>; 2] {
        if self.is_binary() {
            [Some(self.fs), Some(self.ft)]
        } else {
            [Some(self.fs), None]
        }
    }

    /// FPR number written, if any (compares write the condition bit instead).
    pub fn dest(&self) -> Option<u8> {
        match self.func {
            Func::Compare(_) => None,
            _ => Some(self.fd),
        }
    }

    /// True for C.cond.fmt (writes the FCSR condition bit).
    pub fn writes_condition(&self) -> bool {
        matches!(self.func, Func::Compare(_))
    }

    /// The format of the result written to `fd` (the source format, except
    /// for conversions).
    pub fn dest_fmt(&self) -> Fmt {
        match self.func {
            Func::ToInt { to, .. } | Func::Cvt { to } => to,
            _ => self.fmt,
        }
    }

    /// True for the ops reading both fs and ft.
    fn is_binary(&self) -> bool {
        matches!(
            self.func,
            Func::Add | Func::Sub | Func::Mul | Func::Div | Func::Compare(_)
        )
    }
}

impl fmt::Display for FpOp {
    /// MIPS assembler syntax: "add.d $f0, $f2, $f4", "c.lt.s $f12, $f14",
    /// "cvt.d.w $f0, $f2", "trunc.w.s $f0, $f2".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.fmt.suffix();
        let (fd, fs, ft) = (self.fd, self.fs, self.ft);
        let binary =
            |f: &mut fmt::Formatter<'_>, name: &str| write!(f, "{name}.{s} $f{fd}, $f{fs}, $f{ft}");
        let unary = |f: &mut fmt::Formatter<'_>, name: &str| write!(f, "{name}.{s} $f{fd}, $f{fs}");
        match self.func {
            Func::Add => binary(f, "add"),
            Func::Sub => binary(f, "sub"),
            Func::Mul => binary(f, "mul"),
            Func::Div => binary(f, "div"),
            Func::Sqrt => unary(f, "sqrt"),
            Func::Abs => unary(f, "abs"),
            Func::Mov => unary(f, "mov"),
            Func::Neg => unary(f, "neg"),
            Func::ToInt { rounding, to } => {
                let name = match rounding {
                    IntRounding::Round => "round",
                    IntRounding::Trunc => "trunc",
                    IntRounding::Ceil => "ceil",
                    IntRounding::Floor => "floor",
                };
                unary(f, &format!("{name}.{}", to.suffix()))
            }
            Func::Cvt { to } => unary(f, &format!("cvt.{}", to.suffix())),
            Func::Compare(cond) => write!(f, "c.{}.{s} $f{fs}, $f{ft}", cond.name()),
        }
    }
}
