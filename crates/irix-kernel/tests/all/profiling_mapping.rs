//! The pure mapping (PC, region, personality) -> counter, against every table
//! row and example of the manual pages (docs/personalities.md).

use irix_kernel::profiling::{
    instructions_per_counter, map_pc, CounterWidth, Personality, Region, Slot,
};

use CounterWidth::{U16, U32, U64};
use Personality::{Aix, Darwin, Hpux, Irix, Solaris};

/// hpux sprofil(2): "On PA-RISC machines, instructions are 4 bytes each."
/// Scale, then instructions per counter for PROF_USHORT, PROF_UINT, PROF_UINT64.
const PA_RISC: [(u32, f64, f64, f64); 17] = [
    (2, 16384.0, 32768.0, 65536.0),
    (4, 8192.0, 16384.0, 32768.0),
    (8, 4096.0, 8192.0, 16384.0),
    (16, 2048.0, 4096.0, 8192.0),
    (32, 1024.0, 2048.0, 4096.0),
    (64, 512.0, 1024.0, 2048.0),
    (128, 256.0, 512.0, 1024.0),
    (256, 128.0, 256.0, 512.0),
    (512, 64.0, 128.0, 256.0),
    (1024, 32.0, 64.0, 128.0),
    (2048, 16.0, 32.0, 64.0),
    (4096, 8.0, 16.0, 32.0),
    (8192, 4.0, 8.0, 16.0),
    (16384, 2.0, 4.0, 8.0),
    (32768, 1.0, 2.0, 4.0),
    (65536, 0.5, 1.0, 2.0),
    (131072, 0.25, 0.5, 1.0),
];

/// hpux sprofil(2): "On Itanium-based machines, pc points to a 16-byte bundle
/// containing three instructions."
const ITANIUM: [(u32, f64, f64, f64); 15] = [
    (2, 4096.0, 8192.0, 16384.0),
    (4, 2048.0, 4096.0, 8192.0),
    (8, 1024.0, 2048.0, 4096.0),
    (16, 512.0, 1024.0, 2048.0),
    (32, 256.0, 512.0, 1024.0),
    (64, 128.0, 256.0, 512.0),
    (128, 64.0, 128.0, 256.0),
    (256, 32.0, 64.0, 128.0),
    (512, 16.0, 32.0, 64.0),
    (1024, 8.0, 16.0, 32.0),
    (2048, 4.0, 8.0, 16.0),
    (4096, 2.0, 4.0, 8.0),
    (8192, 1.0, 2.0, 4.0),
    (16384, 0.5, 1.0, 2.0),
    (32768, 0.25, 0.5, 1.0),
];

fn ratio(p: Personality, scale: u32, width: CounterWidth, insn: u32) -> f64 {
    instructions_per_counter(p, scale, width, insn).map_or(f64::NAN, |r| r.as_f64())
}

fn index(p: Personality, r: &Region, pc: u32) -> Option<u32> {
    match map_pc(p, r, pc) {
        Slot::Counter(i) => Some(i),
        _ => None,
    }
}

/// hpux sprofil(2): "The following tables show the number of instructions
/// that map into each element of the array that pr_base points to based on
/// instruction size, pr_scale and flags." -- PA-RISC, every row.
#[test]
fn hpux_pa_risc_table_every_row() {
    for (scale, ushort, uint, uint64) in PA_RISC {
        let got = (
            ratio(Hpux, scale, U16, 4),
            ratio(Hpux, scale, U32, 4),
            ratio(Hpux, scale, U64, 4),
        );
        assert_eq!(got, (ushort, uint, uint64), "scale {scale}");
    }
}

/// hpux sprofil(2): the Itanium table, every row ("It is not possible to
/// profile individual instructions": the unit is the 16-byte bundle).
#[test]
fn hpux_itanium_table_every_row() {
    for (scale, ushort, uint, uint64) in ITANIUM {
        let got = (
            ratio(Hpux, scale, U16, 16),
            ratio(Hpux, scale, U32, 16),
            ratio(Hpux, scale, U64, 16),
        );
        assert_eq!(got, (ushort, uint, uint64), "scale {scale}");
    }
}

/// irix sprofil(2): "You achieve a 1-1 mapping of instructions to counters
/// for PROF_USHORT and a pr_scale of 0x8000, or PROF_UINT and a pr_scale of 0x10000."
#[test]
fn irix_one_to_one_mappings() {
    assert_eq!(ratio(Irix, 0x8000, U16, 4), 1.0);
    assert_eq!(ratio(Irix, 0x10000, U32, 4), 1.0);
    let r = Region::new(0x40_0000, 64, 0x8000, U16);
    let got: Vec<_> = (0..8).map(|k| index(Irix, &r, 0x40_0000 + 4 * k)).collect();
    assert_eq!(got, (0..8).map(Some).collect::<Vec<_>>());
}

/// Bytes of text per counter, as the Solaris, Darwin and AIX pages state it:
/// (personality, scale, bytes per 16-bit counter), exact examples.
#[test]
fn exact_bytes_per_counter_examples() {
    let cases = [
        // solaris profil(2): "0x0002 (1/32,768), maps subdivision 65,536 bytes long to each counter"
        (Solaris, 0x0002, 65536.0),
        // solaris profil(2): "0x4000, maps subdivisions 8 bytes long to each counter"
        (Solaris, 0x4000, 8.0),
        // darwin profil(2): "A scale of 65536 maps each bin to 2 bytes of address range;
        // a scale of 32768 gives 4 bytes, 16384 gives 8 bytes and so on."
        (Darwin, 65536, 2.0),
        (Darwin, 32768, 4.0),
        (Darwin, 16384, 8.0),
        (Darwin, 8192, 16.0),
        // darwin: "The scale parameter ranges from 1 to 65536": 1 = 128 KiB per bin.
        (Darwin, 1, 131072.0),
    ];
    for (p, scale, bytes) in cases {
        assert_eq!(ratio(p, scale, U16, 1), bytes, "{p} {scale:#x}");
    }
}

/// Average bytes per counter over `span` bytes from offset 0.
fn average_bytes(p: Personality, scale: u32, span: u32) -> f64 {
    let r = Region::new(0, u32::MAX, scale, U16);
    let last = index(p, &r, span - 1).unwrap();
    f64::from(span) / f64::from(last + 1)
}

/// The "approximately" examples: (personality, scale, bytes per counter).
#[test]
fn approximate_bytes_per_counter_examples() {
    let cases = [
        // solaris profil(2): "the maximum value of scale, 0xffff (approximately 1),
        // maps subdivisions 2 bytes long to each counter"
        (Solaris, 0xffff, 2.0),
        // aix profil: "0xFFFF Maps approximately each pair of bytes in the
        // instruction space to a unique short in shortbuff."
        (Aix, 0xffff, 2.0),
        // aix profil: "0x7FFF Maps approximately every four bytes to a short"
        (Aix, 0x7fff, 4.0),
        // darwin: "Intermediate values provide approximate intermediate ranges."
        (Darwin, 49152, 8.0 / 3.0),
    ];
    for (p, scale, bytes) in cases {
        let got = average_bytes(p, scale, 1 << 20);
        assert!(
            (got - bytes).abs() / bytes < 1e-3,
            "{p} {scale:#x}: {got} bytes per counter, expected about {bytes}"
        );
    }
}

/// aix profil: "01 0x0001 Maps all instructions to the first short in
/// shortbuff, producing a noninterrupting core clock."
#[test]
fn aix_scale_0x0001_maps_every_pc_to_the_first_short() {
    let r = Region::new(0x40_0000, 2, 0x0001, U16);
    for pc in [0, 0x3f_fffc, 0x40_0000, 0x40_0004, 0x7fff_0000, 0xffff_fffc] {
        assert_eq!(map_pc(Aix, &r, pc), Slot::Counter(0), "pc {pc:#x}");
    }
}

/// aix profil: "Mapping each byte of the instruction space to an individual
/// short in shortbuff is not possible." -- for every 16-bit scale, bytes 0
/// and 1 share a counter.
#[test]
fn aix_no_scale_maps_each_byte_to_its_own_short() {
    for scale in 0..=0xffff_u32 {
        let r = Region::new(0, 1024, scale, U16);
        assert_eq!(index(Aix, &r, 0), index(Aix, &r, 1), "scale {scale:#x}");
    }
}

/// aix profil: "The most significant 16 bits of scale are ignored."
#[test]
fn aix_upper_16_bits_of_scale_ignored() {
    for pc in (0..4096).step_by(7) {
        let low = Region::new(0, 8192, 0x7fff, U16);
        let high = Region::new(0, 8192, 0xabcd_7fff, U16);
        assert_eq!(map_pc(Aix, &low, pc), map_pc(Aix, &high, pc));
    }
    assert_eq!(
        map_pc(Aix, &Region::new(0, 8192, 0x1_0000, U16), 0),
        Slot::Off
    );
}

/// The two formulas differ in rounding (docs/abi.md): Darwin halves first.
/// (personality, pc - offset, scale, counter)
#[test]
fn byte_offset_formula_per_personality() {
    let cases = [
        // ((x * scale) >> 16) / 2
        (Irix, 3, 65535, Some(1)),
        (Solaris, 3, 65535, Some(1)),
        (Hpux, 3, 65535, Some(1)),
        (Aix, 3, 65535, Some(1)),
        // darwin: "[(pc - offset) / 2] * scale / 65536"
        (Darwin, 3, 65535, Some(0)),
        (Darwin, 5, 65535, Some(1)),
        (Solaris, 0x1_0000, 2, Some(1)),
        (Hpux, 0xffff, 2, Some(0)),
        // irix profil(2): scale 0x0002 "maps (by convention) the entire
        // region starting with offset to the first counter".
        (Irix, 0x1_0000, 2, Some(0)),
        (Irix, 0xffff_fffc, 2, Some(0)),
        // 64-bit arithmetic: no overflow at the top of the address space.
        (Irix, 0xffff_fffc, 0x10000, Some(0x7fff_fffe)),
    ];
    for (p, x, scale, want) in cases {
        let r = Region::new(0, u32::MAX, scale, U16);
        assert_eq!(index(p, &r, x), want, "{p} x={x:#x} scale={scale}");
    }
}

/// Scales that profile nothing, per page.
#[test]
fn disabled_scales_per_personality() {
    let cases = [
        (Irix, 0, true),
        (Irix, 1, true),
        (Irix, 2, false),
        (Hpux, 1, true),
        (Solaris, 0, true),
        (Solaris, 1, true),
        (Darwin, 0, true),
        (Darwin, 1, false),
        (Aix, 0, true),
        (Aix, 0x1_0000, true),
        (Aix, 1, false),
    ];
    for (p, scale, off) in cases {
        let r = Region::new(0, 64, scale, U16);
        assert_eq!(map_pc(p, &r, 0) == Slot::Off, off, "{p} scale {scale:#x}");
    }
}

/// Below, at and beyond a region, for every personality.
#[test]
fn region_bounds_for_every_personality() {
    let r = Region::new(0x1000, 8, 0x8000, U16);
    for p in [Irix, Solaris, Hpux, Aix] {
        assert_eq!(map_pc(p, &r, 0xffc), Slot::Below, "{p}");
        assert_eq!(map_pc(p, &r, 0x1000), Slot::Counter(0), "{p}");
        assert_eq!(map_pc(p, &r, 0x100f), Slot::Counter(3), "{p}");
        assert_eq!(map_pc(p, &r, 0x1010), Slot::Beyond, "{p}");
    }
    let d = Region::new(0x1000, 8, 32768, U16);
    assert_eq!(map_pc(Darwin, &d, 0xfff), Slot::Below);
    assert_eq!(map_pc(Darwin, &d, 0x100f), Slot::Counter(3));
    assert_eq!(map_pc(Darwin, &d, 0x1010), Slot::Beyond);
}
