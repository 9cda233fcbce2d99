//! decode_cop1 (valid and reserved encodings), disassembly, the scoreboard
//! facts (latency, sources, destination), the register file in both
//! Status.FR views, and the control registers (CFC1/CTC1).

use cpu_mips::fpu::{decode_cop1, Fpu};

/// Every word beside the assembly it must print as.
#[rustfmt::skip]
const DISASSEMBLY: &[(u32, &str)] = &[
    (0x46041000, "add.s $f0, $f2, $f4"),
    (0x46041001, "sub.s $f0, $f2, $f4"),
    (0x46041002, "mul.s $f0, $f2, $f4"),
    (0x46041003, "div.s $f0, $f2, $f4"),
    (0x46001004, "sqrt.s $f0, $f2"),
    (0x46001005, "abs.s $f0, $f2"),
    (0x46001006, "mov.s $f0, $f2"),
    (0x46001007, "neg.s $f0, $f2"),
    (0x46241000, "add.d $f0, $f2, $f4"),
    (0x46241001, "sub.d $f0, $f2, $f4"),
    (0x46241002, "mul.d $f0, $f2, $f4"),
    (0x46241003, "div.d $f0, $f2, $f4"),
    (0x46201004, "sqrt.d $f0, $f2"),
    (0x46201005, "abs.d $f0, $f2"),
    (0x46201006, "mov.d $f0, $f2"),
    (0x46201007, "neg.d $f0, $f2"),
    (0x46001008, "round.l.s $f0, $f2"),
    (0x46201009, "trunc.l.d $f0, $f2"),
    (0x4600100a, "ceil.l.s $f0, $f2"),
    (0x4620100b, "floor.l.d $f0, $f2"),
    (0x4600100c, "round.w.s $f0, $f2"),
    (0x4600100d, "trunc.w.s $f0, $f2"),
    (0x4600100e, "ceil.w.s $f0, $f2"),
    (0x4600100f, "floor.w.s $f0, $f2"),
    (0x4620100c, "round.w.d $f0, $f2"),
    (0x4620100d, "trunc.w.d $f0, $f2"),
    (0x4620100e, "ceil.w.d $f0, $f2"),
    (0x4620100f, "floor.w.d $f0, $f2"),
    (0x46201020, "cvt.s.d $f0, $f2"),
    (0x46801020, "cvt.s.w $f0, $f2"),
    (0x46a01020, "cvt.s.l $f0, $f2"),
    (0x46001021, "cvt.d.s $f0, $f2"),
    (0x46801021, "cvt.d.w $f0, $f2"),
    (0x46a01021, "cvt.d.l $f0, $f2"),
    (0x46001024, "cvt.w.s $f0, $f2"),
    (0x46201024, "cvt.w.d $f0, $f2"),
    (0x46001025, "cvt.l.s $f0, $f2"),
    (0x46201025, "cvt.l.d $f0, $f2"),
    (0x460e6032, "c.eq.s $f12, $f14"),
    (0x462e603c, "c.lt.d $f12, $f14"),
    (0x46041030, "c.f.s $f2, $f4"),
    (0x46041031, "c.un.s $f2, $f4"),
    (0x46041033, "c.ueq.s $f2, $f4"),
    (0x46041034, "c.olt.s $f2, $f4"),
    (0x46041035, "c.ult.s $f2, $f4"),
    (0x46041036, "c.ole.s $f2, $f4"),
    (0x4604103a, "c.seq.s $f2, $f4"),
    (0x4604103e, "c.le.s $f2, $f4"),
    (0x4624103f, "c.ngt.d $f2, $f4"),
    (0x4610ef83, "div.s $f30, $f29, $f16"),
];

#[test]
fn decoded_words_disassemble_to_their_assembly() {
    for &(word, asm) in DISASSEMBLY {
        let op = decode_cop1(word).unwrap_or_else(|| panic!("{word:#010x} ({asm}) did not decode"));
        assert_eq!(op.to_string(), asm, "{word:#010x}");
    }
}

/// Encodings the R4000 does not have: the core raises Reserved Instruction.
#[rustfmt::skip]
const RESERVED: &[(u32, &str)] = &[
    (0x46841000, "add.w: arithmetic on an integer format"),
    (0x46a41004, "sqrt.l"),
    (0x46041020, "cvt.s.s"),
    (0x46241021, "cvt.d.d"),
    (0x46841024, "cvt.w.w"),
    (0x46a41025, "cvt.l.l"),
    (0x46841032, "c.eq.w"),
    (0x46a4100c, "round.w.l"),
    (0x46041010, "function 16 (MIPS IV movcf)"),
    (0x46241022, "function 34"),
    (0x46441000, "fmt 18"),
    (0x46c41000, "fmt 22 (PS, MIPS V)"),
    (0x44041000, "fmt 0 (MFC1 is the core's)"),
    (0x02041000, "not a COP1 opcode"),
];

#[test]
fn reserved_encodings_do_not_decode() {
    for &(word, what) in RESERVED {
        assert_eq!(decode_cop1(word), None, "{word:#010x} ({what})");
    }
}

/// (word, latency, sources, dest, writes_condition).
type ScoreboardRow = (u32, u32, [Option<u8>; 2], Option<u8>, bool);

#[rustfmt::skip]
const SCOREBOARD: &[ScoreboardRow] = &[
    (0x46041000, 4, [Some(2), Some(4)], Some(0), false),   // add.s $f0, $f2, $f4
    (0x46241001, 4, [Some(2), Some(4)], Some(0), false),   // sub.d $f0, $f2, $f4
    (0x46001005, 2, [Some(2), None], Some(0), false),      // abs.s $f0, $f2
    (0x46201006, 2, [Some(2), None], Some(0), false),      // mov.d $f0, $f2
    (0x46001007, 2, [Some(2), None], Some(0), false),      // neg.s $f0, $f2
    (0x460e6032, 3, [Some(12), Some(14)], None, true),     // c.eq.s $f12, $f14
    (0x46041002, 7, [Some(2), Some(4)], Some(0), false),   // mul.s $f0, $f2, $f4
    (0x46241002, 8, [Some(2), Some(4)], Some(0), false),   // mul.d $f0, $f2, $f4
    (0x46041003, 23, [Some(2), Some(4)], Some(0), false),  // div.s $f0, $f2, $f4
    (0x46241003, 36, [Some(2), Some(4)], Some(0), false),  // div.d $f0, $f2, $f4
    (0x46001004, 54, [Some(2), None], Some(0), false),     // sqrt.s $f0, $f2
    (0x46201004, 112, [Some(2), None], Some(0), false),    // sqrt.d $f0, $f2
    (0x46201020, 1, [Some(2), None], Some(0), false),      // cvt.s.d $f0, $f2
    (0x4620100d, 1, [Some(2), None], Some(0), false),      // trunc.w.d $f0, $f2
    (0x4610ef83, 23, [Some(29), Some(16)], Some(30), false), // div.s $f30, $f29, $f16
];

#[test]
fn scoreboard_facts_follow_gccs_r4000_model() {
    for &(word, latency, sources, dest, cond) in SCOREBOARD {
        let op = decode_cop1(word).unwrap();
        assert_eq!(
            (op.latency(), op.sources(), op.dest(), op.writes_condition()),
            (latency, sources, dest, cond),
            "{op}"
        );
    }
}

#[test]
fn fr0_double_is_an_even_odd_pair_low_word_first() {
    let mut fpu = Fpu::new();
    fpu.write_dword(false, 2, 0x3ff0_0000_1234_5678);
    assert_eq!(fpu.read_word(2), 0x1234_5678);
    assert_eq!(fpu.read_word(3), 0x3ff0_0000);
    assert_eq!(fpu.read_dword(false, 2), 0x3ff0_0000_1234_5678);
    // Two MTC1s build the same double.
    let mut other = Fpu::new();
    other.write_word(4, 0x1234_5678);
    other.write_word(5, 0x3ff0_0000);
    assert_eq!(other.read_dword(false, 4), 0x3ff0_0000_1234_5678);
}

#[test]
fn fr0_odd_doubleword_register_uses_its_pair() {
    let mut fpu = Fpu::new();
    fpu.write_dword(false, 7, 0xaaaa_bbbb_cccc_dddd);
    assert_eq!(fpu.read_dword(false, 6), 0xaaaa_bbbb_cccc_dddd);
}

#[test]
fn fr1_has_thirty_two_independent_64_bit_registers() {
    let mut fpu = Fpu::new();
    fpu.write_dword(true, 1, 0x0123_4567_89ab_cdef);
    fpu.write_dword(true, 2, 0xfedc_ba98_7654_3210);
    assert_eq!(fpu.read_dword(true, 1), 0x0123_4567_89ab_cdef);
    assert_eq!(fpu.read_word(1), 0x89ab_cdef);
    assert_eq!(fpu.read_dword(true, 2), 0xfedc_ba98_7654_3210);
    // MTC1 replaces only the low word.
    fpu.write_word(1, 0x1111_1111);
    assert_eq!(fpu.read_dword(true, 1), 0x0123_4567_1111_1111);
}

#[test]
fn add_d_under_fr0_reads_and_writes_register_pairs() {
    // add.d $f0, $f2, $f4 with 1.0 in $f2/$f3 and 2.0 in $f4/$f5.
    let op = decode_cop1(0x46241000).unwrap();
    let mut fpu = Fpu::new();
    fpu.write_word(2, 0);
    fpu.write_word(3, 0x3ff0_0000);
    fpu.write_word(4, 0);
    fpu.write_word(5, 0x4000_0000);
    fpu.execute(false, &op).unwrap();
    assert_eq!(fpu.read_word(0), 0);
    assert_eq!(fpu.read_word(1), 0x4008_0000);
}

#[test]
fn add_d_under_fr1_uses_odd_registers_as_doubles() {
    // add.d $f3, $f3, $f5
    let op = decode_cop1(0x462518c0).unwrap();
    assert_eq!(op.to_string(), "add.d $f3, $f3, $f5");
    let mut fpu = Fpu::new();
    fpu.fpr[3] = 0x3ff0_0000_0000_0000;
    fpu.fpr[5] = 0x4000_0000_0000_0000;
    fpu.execute(true, &op).unwrap();
    assert_eq!(fpu.fpr[3], 0x4008_0000_0000_0000);
    assert_eq!(fpu.fpr[2], 0);
}

#[test]
fn cfc1_0_reads_the_r4000_implementation_number() {
    assert_eq!(Fpu::new().read_control(0), 0x0500);
}

#[test]
fn ctc1_masks_reserved_bits_and_ignores_fir() {
    let mut fpu = Fpu::new();
    assert_eq!(fpu.write_control(31, !(0x3f << 12)), Ok(()));
    assert_eq!(fpu.read_control(31), 0x0180_0fff);
    assert_eq!(fpu.write_control(0, 0x1234), Ok(()));
    assert_eq!(fpu.read_control(0), 0x0500);
}

#[test]
fn ctc1_setting_a_cause_bit_with_its_enable_traps() {
    let mut fpu = Fpu::new();
    // Cause I (bit 12) with enable I (bit 7).
    assert!(fpu.write_control(31, (1 << 12) | (1 << 7)).is_err());
    assert_eq!(fpu.read_control(31), (1 << 12) | (1 << 7));
    // Cause I without its enable: no trap.
    assert_eq!(fpu.write_control(31, 1 << 12), Ok(()));
    // Cause E (bit 17) is always enabled.
    assert!(fpu.write_control(31, 1 << 17).is_err());
}

#[test]
fn condition_reads_fcsr_bit_23() {
    let mut fpu = Fpu::new();
    assert!(!fpu.condition());
    fpu.write_control(31, 1 << 23).unwrap();
    assert!(fpu.condition());
}
