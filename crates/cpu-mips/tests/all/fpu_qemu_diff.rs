//! Differential test against qemu-mips (a MIPS32 24Kf: FR = 0, MIPS legacy
//! NaNs, the same FCSR layout). The test writes a tiny static big-endian
//! o32 ELF itself: for each case it loads the operands with LUI/ORI+MTC1,
//! sets FCSR with CTC1, runs one hand-encoded FP instruction, reads $f0,
//! $f1 and FCSR back with MFC1/CFC1 into a buffer, and finally writes the
//! buffer to stdout (write, v0 = 4004) and exits (v0 = 4001). The same
//! cases then run through `Fpu::execute` (FR = 0) and must agree on the
//! result bits and the whole FCSR, in all four rounding modes.
//!
//! Left out, each a documented difference or a QEMU limitation:
//! - .L formats: QEMU's 24Kf raises RI for them under FR = 0.
//! - FS = 1: QEMU flushes to zero without table 7-1's RP/RM rule.
//! - ABS/NEG of a signalling NaN: QEMU treats them as bit operations; this
//!   model raises Invalid (IEEE 754-1985; the MIPS IV manual calls them
//!   arithmetic).
//! - Enabled exceptions: a trap would kill the qemu-user process.
//!
//! Skips with "SKIP: qemu-mips not found" when the tool is absent, and
//! fails instead when IRIX_EMU_REQUIRE_TOOLS=1.

use cpu_mips::fpu::{decode_cop1, Fpu};
use std::process::Command;

use test_support::elf::{words, Elf, Segment, EF_MIPS_ABI_O32, PF_R, PF_W, PF_X, PT_MIPS_ABIFLAGS};
use test_support::mips::{
    addiu, cfc1, ctc1, li32, mfc1, mtc1, sw, syscall, A0, A1, A2, S0, T0, V0,
};
use test_support::tools::require_tool;
use test_support::Scratch;

/// One instruction under test and its inputs (o32 FR = 0 registers: fs =
/// $f2/$f3, ft = $f4/$f5, fd = $f0/$f1).
#[derive(Clone, Copy, Debug)]
struct Case {
    word: u32,
    fcsr: u32,
    /// Operands as register words: [$f2, $f3, $f4, $f5].
    regs: [u32; 4],
}

/// Words the guest stores per case: $f0, $f1, FCSR.
const OUT_WORDS: usize = 3;

/// The Elf_MIPS_ABIFlags_v0 record: version 0, isa_level 1, isa_rev 0,
/// gpr_size 32-bit (1), cpr1_size 32-bit (1), cpr2_size 0, fp_abi
/// MIPS_ABI_FP_DOUBLE (1: requires FR = 0); isa_ext, ases, flags1, flags2
/// zero. Without it QEMU's loader treats the program as FP-mode agnostic
/// and starts the 24Kf with FR = 1.
fn abiflags() -> Vec<u8> {
    let mut record = vec![0, 0, 1, 0, 1, 1, 0, 1];
    record.resize(24, 0);
    record
}

/// Builds the ELF image: one PT_LOAD (read, write, execute) mapping the
/// headers, the code and, past the file, the output buffer; then the
/// PT_MIPS_ABIFLAGS record.
fn build_elf(cases: &[Case]) -> Vec<u8> {
    let mut code = Vec::new();
    // s0 = the output buffer; its address is patched in once the code
    // size is known (fixed-size lui/ori pair at the start).
    code.extend([0, 0]);
    for case in cases {
        for (i, &reg) in case.regs.iter().enumerate() {
            code.extend(li32(T0, reg));
            code.push(mtc1(T0, 2 + i as u32));
        }
        code.extend(li32(T0, case.fcsr));
        code.push(ctc1(T0, 31));
        code.push(case.word);
        code.push(mfc1(T0, 0));
        code.push(sw(T0, 0, S0));
        code.push(mfc1(T0, 1));
        code.push(sw(T0, 4, S0));
        code.push(cfc1(T0, 31));
        code.push(sw(T0, 8, S0));
        code.push(addiu(S0, S0, 4 * OUT_WORDS as i16));
    }
    let len = (cases.len() * OUT_WORDS * 4) as u32;
    // write(1, buffer, len)
    code.extend(li32(V0, 4004));
    code.extend(li32(A0, 1));
    let buffer_slot = code.len();
    code.extend([0, 0]);
    code.extend(li32(A2, len));
    code.push(syscall());
    // exit(0)
    code.extend(li32(V0, 4001));
    code.extend(li32(A0, 0));
    code.push(syscall());

    let mut elf = Elf::program(&[]);
    elf.e_flags = EF_MIPS_ABI_O32;
    elf.segments[0].flags = PF_R | PF_W | PF_X;
    elf.segments
        .push(Segment::other(PT_MIPS_ABIFLAGS, abiflags()).aligned(8));
    let entry = elf.code_addr();
    let buffer = (entry + code.len() as u32 * 4 + 15) & !15;
    code[..2].copy_from_slice(&li32(S0, buffer));
    code[buffer_slot..buffer_slot + 2].copy_from_slice(&li32(A1, buffer));
    elf.segments[0].data = words(&code);
    elf.segments[0].mem_size = buffer - entry + len;
    elf.build()
}

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Interesting singles: zeros, ones, extremes, denormals, MIPS NaNs.
const SPECIAL_S: [u32; 14] = [
    0x0000_0000,
    0x8000_0000,
    0x3f80_0000,
    0xbf80_0000,
    0x7f7f_ffff,
    0x0080_0000,
    0x0000_0001,
    0x807f_ffff,
    0x7f80_0000,
    0xff80_0000,
    0x7f80_0001,
    0x7fbf_ffff,
    0x7fc0_0000,
    0x4f00_0000,
];
const SPECIAL_D: [u64; 13] = [
    0,
    0x8000_0000_0000_0000,
    0x3ff0_0000_0000_0000,
    0xbff0_0000_0000_0000,
    0x7fef_ffff_ffff_ffff,
    0x0010_0000_0000_0000,
    1,
    0x7ff0_0000_0000_0000,
    0xfff0_0000_0000_0000,
    0x7ff0_0000_2000_0000,
    0x7ff7_ffff_ffff_ffff,
    0x7ff8_0000_0000_0000,
    0x41e0_0000_0000_0000,
];

fn single(rng: &mut Rng) -> u32 {
    match rng.below(4) {
        0 => SPECIAL_S[rng.below(SPECIAL_S.len() as u64) as usize],
        // Exponents near 1, and near the denormal range.
        1 => (rng.next() as u32 & 0x807f_ffff) | ((120 + rng.below(16) as u32) << 23),
        2 => (rng.next() as u32 & 0x807f_ffff) | ((rng.below(3) as u32) << 23),
        _ => rng.next() as u32,
    }
}

fn double(rng: &mut Rng) -> u64 {
    match rng.below(4) {
        0 => SPECIAL_D[rng.below(SPECIAL_D.len() as u64) as usize],
        1 => (rng.next() & 0x800f_ffff_ffff_ffff) | ((1016 + rng.below(16)) << 52),
        2 => (rng.next() & 0x800f_ffff_ffff_ffff) | (rng.below(3) << 52),
        _ => rng.next(),
    }
}

/// The instructions compared, fd = $f0, fs = $f2, ft = $f4.
#[rustfmt::skip]
const WORDS: &[u32] = &[
    0x46041000, 0x46041001, 0x46041002, 0x46041003, 0x46001004, // add sub mul div sqrt .s
    0x46001005, 0x46001007,                                     // abs.s neg.s
    0x46241000, 0x46241001, 0x46241002, 0x46241003, 0x46201004, // add sub mul div sqrt .d
    0x46201005, 0x46201007,                                     // abs.d neg.d
    0x46201020, 0x46801020, 0x46001021, 0x46801021,             // cvt.s.d cvt.s.w cvt.d.s cvt.d.w
    0x46001024, 0x46201024,                                     // cvt.w.s cvt.w.d
    0x4600100c, 0x4600100d, 0x4600100e, 0x4600100f,             // round trunc ceil floor .w.s
    0x4620100c, 0x4620100d, 0x4620100e, 0x4620100f,             // round trunc ceil floor .w.d
];

fn make_cases(count: usize) -> Vec<Case> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut cases = Vec::with_capacity(count);
    while cases.len() < count {
        // Mostly arithmetic and conversions; compares as c.<cond>.s/.d.
        let word = if rng.below(5) == 0 {
            0x4604_1030 | (rng.below(2) as u32) << 21 | rng.below(16) as u32
        } else {
            WORDS[rng.below(WORDS.len() as u64) as usize]
        };
        let fmt = (word >> 21) & 0x1f;
        let regs = match fmt {
            17 => {
                let (a, b) = (double(&mut rng), double(&mut rng));
                [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32]
            }
            20 => [rng.next() as u32, 0, 0, 0],
            _ => [single(&mut rng), 0, single(&mut rng), 0],
        };
        // Documented difference: ABS/NEG of a signalling NaN.
        let abs_or_neg = matches!(word & 0x3f, 5 | 7);
        if abs_or_neg {
            let snan = if fmt == 17 {
                regs[1] & 0x7ff8_0000 == 0x7ff8_0000
            } else {
                regs[0] & 0x7fc0_0000 == 0x7fc0_0000
            };
            if snan {
                continue;
            }
        }
        // RM, any flags, condition bit; no enables, no cause, FS clear.
        let fcsr = rng.below(4) as u32 | (rng.below(32) as u32) << 2 | (rng.below(2) as u32) << 23;
        cases.push(Case { word, fcsr, regs });
    }
    cases
}

/// QEMU runs pre-2008 MIPS cores with softfloat's default-NaN mode
/// (target/mips/fpu_helper.h, restore_snan_bit_mode: "Before that, SNaNs
/// are not silenced; default nans are produced"), so a quiet NaN operand
/// comes back as the default NaN. This model propagates the quiet NaN
/// operand instead (the IEEE 754 recommendation, and Linux's MIPS FPU
/// emulator). Both are quiet NaNs with identical FCSR effects; this
/// accepts exactly that case: a quiet-NaN operand, QEMU's default NaN, and
/// a quiet NaN from this model.
fn qemu_default_nan_for_quiet_operand(
    case: &Case,
    op: &cpu_mips::fpu::FpOp,
    qemu: &[u32],
    ours: &[u32; 3],
) -> bool {
    let quiet_s =
        |w: u32| w & 0x7f80_0000 == 0x7f80_0000 && w & 0x007f_ffff != 0 && w & 0x0040_0000 == 0;
    let quiet_d = |hi: u32, lo: u32| {
        hi & 0x7ff0_0000 == 0x7ff0_0000
            && (hi & 0x000f_ffff != 0 || lo != 0)
            && hi & 0x0008_0000 == 0
    };
    let source_double = (case.word >> 21) & 0x1f == 17;
    let quiet_operand = if source_double {
        quiet_d(case.regs[1], case.regs[0]) || quiet_d(case.regs[3], case.regs[2])
    } else {
        quiet_s(case.regs[0]) || quiet_s(case.regs[2])
    };
    if op.dest_fmt().is_64bit() {
        quiet_operand && qemu[..2] == [0xffff_ffff, 0x7ff7_ffff] && quiet_d(ours[1], ours[0])
    } else {
        quiet_operand && qemu[0] == 0x7fbf_ffff && quiet_s(ours[0])
    }
}

/// Runs a case on this crate's FPU; returns [$f0, $f1, FCSR].
fn emulate(case: &Case) -> [u32; 3] {
    let op = decode_cop1(case.word).unwrap();
    let mut fpu = Fpu::new();
    for (i, &reg) in case.regs.iter().enumerate() {
        fpu.write_word(2 + i, reg);
    }
    fpu.write_control(31, case.fcsr).unwrap();
    fpu.execute(false, &op).expect("no exception is enabled");
    [fpu.read_word(0), fpu.read_word(1), fpu.read_control(31)]
}

#[test]
fn fpu_matches_qemu_mips_in_all_rounding_modes() {
    let qemu = "qemu-mips";
    if !require_tool(qemu) {
        return;
    }
    let cases = make_cases(12_000);
    let scratch = Scratch::new("fpu-diff");
    // qemu-user's loader refuses files without an execute bit.
    let path = scratch.write_executable("fpu_cases.elf", &build_elf(&cases));
    let output = Command::new(qemu)
        .arg(&path)
        .output()
        .expect("run qemu-mips");
    assert!(
        output.status.success(),
        "qemu-mips failed on {}: {:?} {}",
        path.display(),
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        output.stdout.len(),
        cases.len() * OUT_WORDS * 4,
        "qemu output length"
    );

    let mut mismatches = Vec::new();
    let mut nan_differences = 0;
    for (i, case) in cases.iter().enumerate() {
        let at = i * OUT_WORDS * 4;
        let words: Vec<u32> = (0..OUT_WORDS)
            .map(|k| {
                u32::from_be_bytes(
                    output.stdout[at + 4 * k..at + 4 * k + 4]
                        .try_into()
                        .unwrap(),
                )
            })
            .collect();
        let op = decode_cop1(case.word).unwrap();
        let ours = emulate(case);
        // Compare fd (both words for a 64-bit result) unless the op is a
        // compare, and always the FCSR.
        let result_words = match op.dest() {
            None => 0,
            Some(_) if op.dest_fmt().is_64bit() => 2,
            Some(_) => 1,
        };
        let same_fcsr = ours[2] == words[2];
        let identical = ours[..result_words] == words[..result_words];
        let nan_difference =
            !identical && qemu_default_nan_for_quiet_operand(case, &op, &words, &ours);
        nan_differences += nan_difference as usize;
        let same = same_fcsr && (identical || nan_difference);
        if !same {
            mismatches.push(format!(
                "{op} fcsr={:#010x} regs={:08x?}: qemu {:08x?} ours {:08x?}",
                case.fcsr, case.regs, words, ours
            ));
        }
    }
    eprintln!(
        "{} cases compared with qemu-mips; {nan_differences} differ only by QEMU's default-NaN mode",
        cases.len()
    );
    assert_eq!(
        mismatches.len(),
        0,
        "{} of {} cases differ:\n{}",
        mismatches.len(),
        cases.len(),
        mismatches
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
