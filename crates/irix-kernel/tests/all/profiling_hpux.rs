//! HP-UX sprofil(2) (page 2 of the manual), sentence by sentence. The scale
//! tables themselves are checked row by row in profiling_mapping.rs.

use crate::common;

use common::*;
use irix_kernel::profiling::{
    text_range, CounterWidth, Personality, ProfMemory, ProfState, Region, PROF_UINT, PROF_UINT64,
    PROF_USHORT,
};
use irix_kernel::Errno;

const HPUX: Personality = Personality::Hpux;
const TEXT: u32 = 0x4000;

/// hpux sprofil(2): "... specified by the pr_base field is incremented,
/// unless that would result in overflow." (counters saturate)
#[test]
fn counter_incremented_unless_that_would_overflow() {
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        HPUX,
        &[(BUF, 4, TEXT, 0x8000)],
        PROF_USHORT,
    )
    .unwrap();
    m.store16(BUF, 0xfffe).unwrap();
    ticks(&mut st, &mut m, &[TEXT, TEXT, TEXT]);
    assert_eq!(u16s(&mut m, BUF, 1), vec![0xffff]);
    assert!(st.is_active());

    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(&mut st, &mut m, HPUX, &[(BUF, 8, TEXT, 0x10000)], PROF_UINT).unwrap();
    m.store32(BUF, u32::MAX).unwrap();
    ticks(&mut st, &mut m, &[TEXT]);
    assert_eq!(u32s(&mut m, BUF, 1), vec![u32::MAX]);

    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        HPUX,
        &[(BUF, 16, TEXT, 0x20000)],
        PROF_UINT64,
    )
    .unwrap();
    m.store64(BUF, u64::MAX - 1).unwrap();
    ticks(&mut st, &mut m, &[TEXT, TEXT]);
    assert_eq!(u64s(&mut m, BUF, 1), vec![u64::MAX]);
}

/// hpux sprofil(2): "Each call to sprofil() disables profiling if it was
/// enabled and then enables profiling of the regions specified by the prof
/// array entries."
#[test]
fn each_call_disables_then_enables() {
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        HPUX,
        &[(BUF, 8, TEXT, 0x8000)],
        PROF_USHORT,
    )
    .unwrap();
    sprofil(
        &mut st,
        &mut m,
        HPUX,
        &[(BUF2, 8, TEXT + 0x100, 0x8000)],
        PROF_USHORT,
    )
    .unwrap();
    ticks(&mut st, &mut m, &[TEXT, TEXT + 0x100]);
    assert_eq!(
        (u16s(&mut m, BUF, 1), u16s(&mut m, BUF2, 1)),
        (vec![0], vec![1])
    );
}

/// hpux sprofil(2): "The following tables show the number of instructions
/// that map into each element of the array that pr_base points to based on
/// instruction size, pr_scale and flags." -- a few PA-RISC rows, end to end
/// through sprofil and ticks (every row: profiling_mapping.rs).
#[test]
fn pa_risc_rows_through_ticks() {
    // (scale, flags, counter bytes, instructions per counter)
    let rows = [
        (32768, PROF_USHORT, 2, 1),
        (16384, PROF_USHORT, 2, 2),
        (65536, PROF_UINT, 4, 1),
        (16384, PROF_UINT, 4, 4),
        (131072, PROF_UINT64, 8, 1),
        (32768, PROF_UINT64, 8, 4),
    ];
    for (scale, flags, bytes, per) in rows {
        let (mut st, mut m) = (ProfState::default(), mem());
        sprofil(
            &mut st,
            &mut m,
            HPUX,
            &[(BUF, 8 * bytes, TEXT, scale)],
            flags,
        )
        .unwrap();
        let pcs: Vec<u32> = (0..8).map(|i| TEXT + 4 * i).collect();
        ticks(&mut st, &mut m, &pcs);
        let first: u64 = match bytes {
            2 => u64::from(m.load16(BUF).unwrap()),
            4 => u64::from(m.load32(BUF).unwrap()),
            _ => m.load64(BUF).unwrap(),
        };
        assert_eq!(first, per, "scale {scale} flags {flags}");
    }
}

/// hpux sprofil(2): "On Itanium-based machines, pc points to a 16-byte bundle
/// containing three instructions. It is not possible to profile individual
/// instructions." -- at the finest 1-1 rows a counter covers a whole bundle.
#[test]
fn itanium_counter_covers_a_whole_bundle() {
    for (scale, width) in [
        (8192, CounterWidth::U16),
        (16384, CounterWidth::U32),
        (32768, CounterWidth::U64),
    ] {
        let r = Region::new(0, 16 * width.bytes(), scale, width);
        assert_eq!(
            text_range(HPUX, &r),
            Some((0, 256)),
            "scale {scale}: 16 bundles of 16 bytes"
        );
    }
}

/// hpux sprofil(2): "Note that a 1-1 mapping of PROF_UINT counters consumes
/// twice as much space as for PROF_USHORT counters, and should only be used
/// in those cases where you expect a 16-bit counter to overflow. Likewise, a
/// 1-1 mapping of PROF_UINT64 counters consumes twice as much space as for
/// PROF_UINT counters"
#[test]
fn wider_one_to_one_counters_take_twice_the_space() {
    // 64 PA-RISC instructions (256 bytes of text) at 1-1.
    for (scale, width, size) in [
        (32768, CounterWidth::U16, 128),
        (65536, CounterWidth::U32, 256),
        (131072, CounterWidth::U64, 512),
    ] {
        assert_eq!(
            text_range(HPUX, &Region::new(0, size, scale, width)),
            Some((0, 256)),
            "{width:?}"
        );
        assert_eq!(
            text_range(HPUX, &Region::new(0, size / 2, scale, width)),
            Some((0, 128)),
            "{width:?}"
        );
    }
}

/// hpux sprofil(2): PROF_UINT64 counters are 8 bytes and go past 2^32.
#[test]
fn prof_uint64_counters_are_eight_bytes() {
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        HPUX,
        &[(BUF, 32, TEXT, 0x20000)],
        PROF_UINT64,
    )
    .unwrap();
    m.store64(BUF + 8, 0xffff_ffff).unwrap();
    ticks(&mut st, &mut m, &[TEXT + 4, TEXT + 12]);
    assert_eq!(u64s(&mut m, BUF, 4), vec![0, 0x1_0000_0000, 0, 1]);
    assert_eq!(
        PROF_UINT64, 8,
        "the project's value, the bit above PROF_FAST"
    );
}

/// PROF_UINT64 is HP-UX's: PROF_UINT with it is EINVAL (two widths).
#[test]
fn prof_uint_with_prof_uint64_is_einval() {
    let (mut st, mut m) = (ProfState::default(), mem());
    assert_eq!(
        sprofil(
            &mut st,
            &mut m,
            HPUX,
            &[(BUF, 8, TEXT, 0x8000)],
            PROF_UINT | PROF_UINT64
        ),
        Err(Errno::EINVAL)
    );
}

/// hpux sprofil(2): "The results of specifying a pr_scale that corresponds to
/// an instruction-to-profiling element ratio smaller than 1-1 mapping
/// produces undefined behavior." -- here defined: an instruction skips counters.
#[test]
fn ratio_below_one_to_one_skips_counters() {
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        HPUX,
        &[(BUF, 16, TEXT, 131072)],
        PROF_USHORT,
    )
    .unwrap(); // 0.25
    ticks(&mut st, &mut m, &[TEXT, TEXT + 4]);
    assert_eq!(u16s(&mut m, BUF, 8), vec![1, 0, 0, 0, 1, 0, 0, 0]);
}

/// hpux sprofil(2): "If overlapping text regions are specified, then the
/// pr_base associated with the largest offset less than the value of the
/// program counter ( pc) gets incremented."
#[test]
fn overlapping_regions_largest_offset_wins() {
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        HPUX,
        &[(BUF, 64, TEXT, 0x4000), (BUF2, 8, TEXT + 8, 0x8000)],
        PROF_USHORT,
    )
    .unwrap();
    ticks(&mut st, &mut m, &[TEXT + 4, TEXT + 8, TEXT + 12]);
    assert_eq!(u16s(&mut m, BUF, 2), vec![1, 0]);
    assert_eq!(u16s(&mut m, BUF2, 2), vec![1, 1]);
}

/// hpux sprofil(2): "If more than one text region has the same offset, the
/// first one is chosen."
#[test]
fn equal_offsets_first_region_chosen() {
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        HPUX,
        &[(BUF2, 8, TEXT, 0x8000), (BUF, 8, TEXT, 0x8000)],
        PROF_USHORT,
    )
    .unwrap();
    ticks(&mut st, &mut m, &[TEXT]);
    assert_eq!(
        (u16s(&mut m, BUF2, 1), u16s(&mut m, BUF, 1)),
        (vec![1], vec![0])
    );
}

/// hpux sprofil(2): "A text region with the pr_offset of 0 and pr_scale of
/// 0x0002 acts as an overflow bin. Any pc value not previously matched or
/// outside the regions of text space specified is considered to match this
/// text region and the first counter of the specified pr_base is incremented."
#[test]
fn overflow_bin_takes_unmatched_pcs() {
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        HPUX,
        &[(BUF, 8, TEXT, 0x8000), (BUF2, 16, 0, 2)],
        PROF_UINT64,
    )
    .unwrap();
    ticks(&mut st, &mut m, &[0, TEXT + 0x100, TEXT]);
    assert_eq!(u64s(&mut m, BUF2, 2), vec![2, 0]);
}

/// hpux sprofil(2): "If specified, such an overflow bin should always be last
/// in the list of specified regions."
#[test]
fn overflow_bin_must_be_last_else_einval() {
    let (mut st, mut m) = (ProfState::default(), mem());
    assert_eq!(
        sprofil(
            &mut st,
            &mut m,
            HPUX,
            &[(BUF2, 16, 0, 2), (BUF, 8, TEXT, 0x8000)],
            PROF_USHORT
        ),
        Err(Errno::EINVAL)
    );
}

/// HP-UX profil (the one-member sprofil) saturates like sprofil.
#[test]
fn profil_saturates_too() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, HPUX, BUF, 4, TEXT, 0x8000).unwrap();
    m.store16(BUF, 0xffff).unwrap();
    ticks(&mut st, &mut m, &[TEXT]);
    assert_eq!(u16s(&mut m, BUF, 1), vec![0xffff]);
}
