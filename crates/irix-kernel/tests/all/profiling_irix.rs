//! IRIX sprofil(2) (and profil(2) as its one-region case), sentence by
//! sentence.

use crate::common;

use common::*;
use irix_kernel::profiling::{
    Personality, ProfMemory, ProfState, Tunables, VecMemory, PROF_FAST, PROF_UINT, PROF_UINT64,
    PROF_USHORT,
};
use irix_kernel::Errno;

const IRIX: Personality = Personality::Irix;
const TEXT: u32 = 0x40_0000;
const LIB: u32 = 0x0fa0_0000;

/// irix sprofil(2): "sprofil provides CPU-use statistics by profiling the
/// amount of CPU time expended by a program in disjoint text spaces."
#[test]
fn profiles_disjoint_text_spaces() {
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        IRIX,
        &[(BUF, 8, TEXT, 0x8000), (BUF2, 8, LIB, 0x8000)],
        PROF_USHORT,
    )
    .unwrap();
    ticks(
        &mut st,
        &mut m,
        &[TEXT, TEXT + 4, LIB + 12, LIB + 12, 0x2000_0000],
    );
    assert_eq!(u16s(&mut m, BUF, 4), vec![1, 1, 0, 0]);
    assert_eq!(u16s(&mut m, BUF2, 4), vec![0, 0, 0, 2]);
}

/// irix sprofil(2): "This is useful if you need to profile programs using
/// shared libraries or profile an address space using different
/// granularities for different sections of text."
#[test]
fn different_granularities_for_different_sections() {
    let (mut st, mut m) = (ProfState::default(), mem());
    // 0x8000: one counter per instruction; 0x2000: four instructions per counter.
    sprofil(
        &mut st,
        &mut m,
        IRIX,
        &[(BUF, 8, TEXT, 0x8000), (BUF2, 8, LIB, 0x2000)],
        PROF_USHORT,
    )
    .unwrap();
    ticks(
        &mut st,
        &mut m,
        &[
            TEXT,
            TEXT + 4,
            TEXT + 8,
            TEXT + 12,
            LIB,
            LIB + 4,
            LIB + 8,
            LIB + 12,
        ],
    );
    assert_eq!(u16s(&mut m, BUF, 4), vec![1, 1, 1, 1]);
    assert_eq!(u16s(&mut m, BUF2, 4), vec![4, 0, 0, 0]);
}

/// irix sprofil(2): "The histogram is defined for a list of regions of program
/// code to be profiled specified by members of the profp array: profp[0],
/// profp[1], ..., profp[profcnt-1]."
#[test]
fn regions_are_profp_0_to_profcnt_minus_1() {
    let (mut st, mut m) = (ProfState::default(), mem());
    // Two entries in the last 32 bytes of memory: profp[2] would be unmapped.
    let at = MEM_BASE + MEM_LEN - 32;
    write_prof(
        &mut m,
        at,
        &[(BUF, 8, TEXT, 0x8000), (BUF2, 8, LIB, 0x8000)],
    );
    assert_eq!(
        st.sprofil(&mut m, IRIX, &tunables(), at, 2, 0, PROF_USHORT),
        Ok(0)
    );
    ticks(&mut st, &mut m, &[TEXT, LIB]);
    assert_eq!(
        (u16s(&mut m, BUF, 1), u16s(&mut m, BUF2, 1)),
        (vec![1], vec![1])
    );
    // profcnt 1: profp[1] is not a region.
    assert_eq!(
        st.sprofil(&mut m, IRIX, &tunables(), at, 1, 0, PROF_USHORT),
        Ok(0)
    );
    ticks(&mut st, &mut m, &[TEXT, LIB]);
    assert_eq!(
        (u16s(&mut m, BUF, 1), u16s(&mut m, BUF2, 1)),
        (vec![2], vec![1])
    );
}

/// irix sprofil(2): "The prof structure is defined as struct prof { void
/// *pr_base; unsigned pr_size; __psunsigned_t pr_off; unsigned pr_scale; };"
/// (16 bytes on o32/n32, big-endian: docs/abi.md).
#[test]
fn struct_prof_is_four_big_endian_words() {
    let (mut st, mut m) = (ProfState::default(), mem());
    let bytes: [u8; 16] = [
        0x00, 0x01, 0x10, 0x00, // pr_base = BUF
        0x00, 0x00, 0x00, 0x04, // pr_size = 4
        0x00, 0x40, 0x00, 0x00, // pr_off = TEXT
        0x00, 0x00, 0x80, 0x00, // pr_scale = 0x8000
    ];
    for (i, pair) in bytes.chunks(2).enumerate() {
        m.store16(PROFP + 2 * i as u32, u16::from_be_bytes([pair[0], pair[1]]))
            .unwrap();
    }
    assert_eq!(
        st.sprofil(&mut m, IRIX, &tunables(), PROFP, 1, 0, PROF_USHORT),
        Ok(0)
    );
    ticks(&mut st, &mut m, &[TEXT + 4, TEXT + 8]);
    assert_eq!(u16s(&mut m, BUF, 3), vec![0, 1, 0]);
}

/// irix sprofil(2): "Each prof entry specifies a region of text space that
/// needs to be profiled, and the fields of the structure take on the same
/// meaning as the arguments of the profil(2) system call."
#[test]
fn entry_fields_mean_what_profil_arguments_mean() {
    let pcs: Vec<u32> = (0..64).map(|i| TEXT + 0x100 + 6 * i).collect();
    let (mut a, mut ma) = (ProfState::default(), mem());
    sprofil(
        &mut a,
        &mut ma,
        IRIX,
        &[(BUF, 64, TEXT + 0x100, 0x3000)],
        PROF_USHORT,
    )
    .unwrap();
    ticks(&mut a, &mut ma, &pcs);
    let (mut b, mut mb) = (ProfState::default(), mem());
    profil(&mut b, &mut mb, IRIX, BUF, 64, TEXT + 0x100, 0x3000).unwrap();
    ticks(&mut b, &mut mb, &pcs);
    assert_eq!(u16s(&mut ma, BUF, 32), u16s(&mut mb, BUF, 32));
    assert_ne!(u16s(&mut ma, BUF, 32), vec![0; 32]);
}

/// irix sprofil(2): "pr_base is a buffer of pr_size bytes in which the
/// histogram counts are stored."
#[test]
fn counts_stored_in_pr_base_within_pr_size() {
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        IRIX,
        &[(BUF, 6, TEXT, 0x8000)],
        PROF_USHORT,
    )
    .unwrap();
    // Three counters: TEXT..TEXT+12; TEXT+12 maps to the fourth, past pr_size.
    ticks(&mut st, &mut m, &[TEXT, TEXT + 8, TEXT + 12, TEXT + 16]);
    assert_eq!(u16s(&mut m, BUF, 4), vec![1, 0, 1, 0]);
}

/// irix sprofil(2): "pr_off is effectively the start address of the region
/// to be profiled."
#[test]
fn pr_off_is_the_start_address() {
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        IRIX,
        &[(BUF, 8, TEXT, 0x8000)],
        PROF_USHORT,
    )
    .unwrap();
    ticks(&mut st, &mut m, &[TEXT - 4, TEXT - 1, TEXT]);
    assert_eq!(u16s(&mut m, BUF, 4), vec![1, 0, 0, 0]);
}

/// irix sprofil(2): "If non-NULL, tvp points to a struct timeval which on
/// return will contain the time value corresponding to one clock tick."
#[test]
fn tvp_receives_one_clock_tick() {
    let cases = [
        ("100 Hz", PROF_USHORT, Tunables::default(), (0, 10_000)),
        (
            "PROF_FAST",
            PROF_USHORT | PROF_FAST,
            Tunables::default(),
            (0, 1_000),
        ),
        (
            "HZ tunable 50",
            PROF_USHORT,
            Tunables {
                hz: 50,
                ..Tunables::default()
            },
            (0, 20_000),
        ),
        (
            "HZ tunable 1",
            PROF_UINT,
            Tunables {
                hz: 1,
                ..Tunables::default()
            },
            (1, 0),
        ),
    ];
    for (name, flags, t, want) in cases {
        let (mut st, mut m) = (ProfState::default(), mem());
        write_prof(&mut m, PROFP, &[(BUF, 8, TEXT, 0x8000)]);
        assert_eq!(
            st.sprofil(&mut m, IRIX, &t, PROFP, 1, TVP, flags),
            Ok(0),
            "{name}"
        );
        assert_eq!(
            (m.load32(TVP).unwrap(), m.load32(TVP + 4).unwrap()),
            want,
            "{name}"
        );
    }
}

/// irix sprofil(2): "If non-NULL, tvp ..." -- a NULL tvp is not written.
#[test]
fn null_tvp_is_allowed() {
    let (mut st, mut m) = (ProfState::default(), mem());
    write_prof(&mut m, PROFP, &[(BUF, 8, TEXT, 0x8000)]);
    assert_eq!(
        st.sprofil(&mut m, IRIX, &tunables(), PROFP, 1, 0, PROF_USHORT),
        Ok(0)
    );
}

/// irix sprofil(2): "Valid flags values include PROF_USHORT and PROF_UINT,
/// which result in the pr_base field of each prof entry being treated as a
/// pointer to an array of unsigned short or unsigned int, respectively."
#[test]
fn prof_ushort_and_prof_uint_select_counter_width() {
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        IRIX,
        &[(BUF, 16, TEXT, 0x8000)],
        PROF_USHORT,
    )
    .unwrap();
    ticks(&mut st, &mut m, &[TEXT + 4]);
    assert_eq!(u16s(&mut m, BUF, 3), vec![0, 1, 0]);
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        IRIX,
        &[(BUF, 16, TEXT, 0x10000)],
        PROF_UINT,
    )
    .unwrap();
    ticks(&mut st, &mut m, &[TEXT + 4]);
    assert_eq!(u32s(&mut m, BUF, 3), vec![0, 1, 0]);
}

/// irix sprofil(2): "You achieve a 1-1 mapping of instructions to counters
/// for PROF_USHORT and a pr_scale of 0x8000, or PROF_UINT and a pr_scale of 0x10000."
#[test]
fn one_to_one_mapping_ushort_0x8000_uint_0x10000() {
    let pcs: Vec<u32> = (0..16).map(|i| TEXT + 4 * i).collect();
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        IRIX,
        &[(BUF, 32, TEXT, 0x8000)],
        PROF_USHORT,
    )
    .unwrap();
    ticks(&mut st, &mut m, &pcs);
    assert_eq!(u16s(&mut m, BUF, 16), vec![1; 16]);
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        IRIX,
        &[(BUF, 64, TEXT, 0x10000)],
        PROF_UINT,
    )
    .unwrap();
    ticks(&mut st, &mut m, &pcs);
    assert_eq!(u32s(&mut m, BUF, 16), vec![1; 16]);
}

/// irix sprofil(2): "Note that a 1-1 mapping of PROF_UINT counters consumes
/// twice as much space as for PROF_USHORT counters, and should only be used
/// in those cases where you expect a 16-bit counter to overflow."
/// (IRIX counters wrap at their width.)
#[test]
fn ushort_counter_wraps_where_uint_goes_on() {
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        IRIX,
        &[(BUF, 2, TEXT, 0x8000)],
        PROF_USHORT,
    )
    .unwrap();
    m.store16(BUF, 0xffff).unwrap();
    ticks(&mut st, &mut m, &[TEXT]);
    assert_eq!(u16s(&mut m, BUF, 1), vec![0]);
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(&mut st, &mut m, IRIX, &[(BUF, 4, TEXT, 0x10000)], PROF_UINT).unwrap();
    m.store32(BUF, 0xffff).unwrap();
    ticks(&mut st, &mut m, &[TEXT]);
    assert_eq!(u32s(&mut m, BUF, 1), vec![0x1_0000]);
    m.store32(BUF, u32::MAX).unwrap();
    ticks(&mut st, &mut m, &[TEXT]);
    assert_eq!(u32s(&mut m, BUF, 1), vec![0]);
}

/// irix sprofil(2): "Callers may also specify PROF_FAST in the flags field.
/// This value will provide more accurate profiling by forcing the system to
/// take samples once every millisecond."
#[test]
fn prof_fast_samples_every_millisecond() {
    let t = tunables();
    let (mut st, mut m) = (ProfState::default(), mem());
    assert_eq!(st.tick_hz(IRIX, &t), 100);
    sprofil(
        &mut st,
        &mut m,
        IRIX,
        &[(BUF, 8, TEXT, 0x8000)],
        PROF_USHORT | PROF_FAST,
    )
    .unwrap();
    assert_eq!(st.tick_hz(IRIX, &t), 1000);
    sprofil(
        &mut st,
        &mut m,
        IRIX,
        &[(BUF, 8, TEXT, 0x8000)],
        PROF_USHORT,
    )
    .unwrap();
    assert_eq!(st.tick_hz(IRIX, &t), 100);
}

/// irix sprofil(2): "The tuneable system parameter restrict_fastprof can be
/// used to disable this feature." / "[EACCES] The flags field specified
/// PROF_FAST but the feature has been disabled using the restrict_fastprof
/// tuneable system parameter or the hardware does not support fast clock ticks."
#[test]
fn restrict_fastprof_makes_prof_fast_eacces() {
    let cases = [
        (
            "restricted",
            Tunables {
                restrict_fastprof: true,
                ..Tunables::default()
            },
            PROF_USHORT | PROF_FAST,
            Err(Errno::EACCES),
        ),
        (
            "no fast clock",
            Tunables {
                fast_hz: 0,
                ..Tunables::default()
            },
            PROF_FAST | PROF_UINT,
            Err(Errno::EACCES),
        ),
        (
            "restricted, not asked",
            Tunables {
                restrict_fastprof: true,
                ..Tunables::default()
            },
            PROF_UINT,
            Ok(0),
        ),
        (
            "allowed",
            Tunables::default(),
            PROF_USHORT | PROF_FAST,
            Ok(0),
        ),
    ];
    for (name, t, flags, want) in cases {
        let (mut st, mut m) = (ProfState::default(), mem());
        write_prof(&mut m, PROFP, &[(BUF, 8, TEXT, 0x8000)]);
        assert_eq!(
            st.sprofil(&mut m, IRIX, &t, PROFP, 1, 0, flags),
            want,
            "{name}"
        );
    }
}

/// irix sprofil(2): "If overlapping text regions are specified, then the
/// pr_base associated with the largest offset less than the value of the
/// program counter(PC) gets incremented."
#[test]
fn overlapping_regions_largest_offset_wins() {
    let (mut st, mut m) = (ProfState::default(), mem());
    // Whole text at 16 bytes per counter; a hot function inside at 1-1.
    let regions = [(BUF, 0x100, TEXT, 0x2000), (BUF2, 16, TEXT + 0x40, 0x8000)];
    sprofil(&mut st, &mut m, IRIX, &regions, PROF_USHORT).unwrap();
    ticks(
        &mut st,
        &mut m,
        &[
            TEXT + 0x3c,
            TEXT + 0x40,
            TEXT + 0x44,
            TEXT + 0x5c,
            TEXT + 0x60,
        ],
    );
    assert_eq!(u16s(&mut m, BUF2, 8), vec![1, 1, 0, 0, 0, 0, 0, 1]);
    // 0x3c is in the outer region's counter 3; 0x60 (past the inner
    // region's 8 counters) falls back to the outer region, counter 6.
    assert_eq!(u16s(&mut m, BUF, 8), vec![0, 0, 0, 1, 0, 0, 1, 0]);
}

/// irix sprofil(2): "If more than one text region has the same offset, the
/// first one is chosen."
#[test]
fn equal_offsets_first_region_chosen() {
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        IRIX,
        &[(BUF, 8, TEXT, 0x8000), (BUF2, 8, TEXT, 0x8000)],
        PROF_USHORT,
    )
    .unwrap();
    ticks(&mut st, &mut m, &[TEXT, TEXT + 12]);
    assert_eq!(u16s(&mut m, BUF, 4), vec![1, 0, 0, 1]);
    assert_eq!(u16s(&mut m, BUF2, 4), vec![0, 0, 0, 0]);
}

/// irix sprofil(2): "A text region with the pr_off of 0 and pr_scale of
/// 0x0002 will act as an overflow bin. Any PC value not previously matched
/// or outside the regions of text space specified is considered to match
/// this text region and the first counter of the specified pr_base is incremented."
#[test]
fn unmatched_pc_counts_in_overflow_bin_first_counter() {
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        IRIX,
        &[(BUF, 8, TEXT, 0x8000), (BUF2, 8, 0, 2)],
        PROF_USHORT,
    )
    .unwrap();
    ticks(
        &mut st,
        &mut m,
        &[TEXT, TEXT - 4, TEXT + 16, 0, 0xffff_fffc, 0x0fa0_0000],
    );
    assert_eq!(u16s(&mut m, BUF, 4), vec![1, 0, 0, 0]);
    assert_eq!(u16s(&mut m, BUF2, 4), vec![5, 0, 0, 0]);
}

/// irix sprofil(2): "Any PC value not previously matched or outside the
/// regions of text space specified is considered to match this text region"
/// -- documented choice: a PC past the winning region's counters but inside
/// a lower region's text is matched by that lower region, not the overflow bin.
#[test]
fn pc_past_winning_region_falls_to_lower_region_before_overflow() {
    let (mut st, mut m) = (ProfState::default(), mem());
    let regions = [
        (BUF, 0x10, TEXT, 0x2000),
        (BUF2, 4, TEXT + 0x10, 0x8000),
        (BUF3, 2, 0, 2),
    ];
    sprofil(&mut st, &mut m, IRIX, &regions, PROF_USHORT).unwrap();
    // TEXT+0x18: largest offset is TEXT+0x10 (2 counters = 8 bytes), so it
    // belongs to the outer region (counter 1); TEXT+0x80 is outside both.
    ticks(&mut st, &mut m, &[TEXT + 0x18, TEXT + 0x10, TEXT + 0x80]);
    assert_eq!(u16s(&mut m, BUF, 2), vec![0, 1]);
    assert_eq!(u16s(&mut m, BUF2, 2), vec![1, 0]);
    assert_eq!(u16s(&mut m, BUF3, 1), vec![1]);
}

/// irix sprofil(2): "If specified, such an overflow bin should always be last
/// in the list of specified regions." / "[EINVAL] The overflow bin is not
/// last in the list of specified regions"
#[test]
fn overflow_bin_must_be_last_else_einval() {
    let cases: [(&str, &[Prof], Result<u32, Errno>); 4] = [
        (
            "first",
            &[(BUF2, 2, 0, 2), (BUF, 8, TEXT, 0x8000)],
            Err(Errno::EINVAL),
        ),
        (
            "twice",
            &[(BUF, 8, TEXT, 0x8000), (BUF2, 2, 0, 2), (BUF3, 2, 0, 2)],
            Err(Errno::EINVAL),
        ),
        ("last", &[(BUF, 8, TEXT, 0x8000), (BUF2, 2, 0, 2)], Ok(0)),
        ("alone", &[(BUF2, 2, 0, 2)], Ok(0)),
    ];
    for (name, regions, want) in cases {
        let (mut st, mut m) = (ProfState::default(), mem());
        assert_eq!(
            sprofil(&mut st, &mut m, IRIX, regions, PROF_USHORT),
            want,
            "{name}"
        );
    }
}

/// irix sprofil(2): "[E2BIG] profcnt was less than or equal to 0, or greater
/// than PROFIL_MAX."
#[test]
fn profcnt_not_in_1_to_profil_max_is_e2big() {
    let t = Tunables {
        profil_max: 4,
        ..Tunables::default()
    };
    let mut m = mem();
    write_prof(&mut m, PROFP, &[(BUF, 8, TEXT, 0x8000); 5]);
    for (profcnt, want) in [
        (0, Err(Errno::E2BIG)),
        (-1, Err(Errno::E2BIG)),
        (i32::MIN, Err(Errno::E2BIG)),
        (5, Err(Errno::E2BIG)),
        (4, Ok(0)),
        (1, Ok(0)),
    ] {
        let mut st = ProfState::default();
        assert_eq!(
            st.sprofil(&mut m, IRIX, &t, PROFP, profcnt, 0, PROF_USHORT),
            want,
            "profcnt {profcnt}"
        );
    }
    assert_eq!(Tunables::default().profil_max, 1024);
}

/// irix sprofil(2): "[EFAULT] Either profp or tvp points to an illegal address."
#[test]
fn illegal_profp_or_tvp_is_efault() {
    let end = MEM_BASE + MEM_LEN;
    let cases = [
        ("profp unmapped", UNMAPPED, 1, 0, Err(Errno::EFAULT)),
        ("profp NULL", 0, 1, 0, Err(Errno::EFAULT)),
        (
            "last entry runs off memory",
            end - 16,
            2,
            0,
            Err(Errno::EFAULT),
        ),
        ("tvp unmapped", PROFP, 1, UNMAPPED, Err(Errno::EFAULT)),
        ("tvp half mapped", PROFP, 1, end - 4, Err(Errno::EFAULT)),
        ("both fine", PROFP, 1, TVP, Ok(0)),
    ];
    for (name, profp, profcnt, tvp, want) in cases {
        let (mut st, mut m) = (ProfState::default(), mem());
        write_prof(&mut m, PROFP, &[(BUF, 8, TEXT, 0x8000)]);
        assert_eq!(
            st.sprofil(&mut m, IRIX, &tunables(), profp, profcnt, tvp, PROF_USHORT),
            want,
            "{name}"
        );
    }
}

/// irix sprofil(2): "[EFAULT] Either profp or tvp points to an illegal
/// address." -- a read-only tvp cannot receive the tick.
#[test]
fn read_only_tvp_is_efault() {
    let (mut st, mut m) = (ProfState::default(), mem());
    write_prof(&mut m, PROFP, &[(BUF, 8, TEXT, 0x8000)]);
    m.set_read_only(TVP, u64::from(TVP) + 8);
    assert_eq!(
        st.sprofil(&mut m, IRIX, &tunables(), PROFP, 1, TVP, PROF_USHORT),
        Err(Errno::EFAULT)
    );
}

/// irix sprofil(2): "[EINVAL] ... flags does not contain one of the values
/// (PROF_USHORT or PROF_UINT)." -- exactly one width, and no bit besides
/// the widths and PROF_FAST.
#[test]
fn flags_with_unknown_bits_is_einval() {
    let cases = [
        (PROF_USHORT, Ok(0)),
        (PROF_UINT, Ok(0)),
        (PROF_USHORT | PROF_FAST, Ok(0)),
        (PROF_FAST, Err(Errno::EINVAL)), // no width
        (0, Err(Errno::EINVAL)),
        (PROF_USHORT | PROF_UINT, Err(Errno::EINVAL)), // two widths
        (PROF_UINT | PROF_FAST, Ok(0)),
        (PROF_UINT64, Err(Errno::EINVAL)), // HP-UX's flag is not IRIX's
        (16, Err(Errno::EINVAL)),
        (0x8000_0000, Err(Errno::EINVAL)),
    ];
    for (flags, want) in cases {
        let (mut st, mut m) = (ProfState::default(), mem());
        assert_eq!(
            sprofil(&mut st, &mut m, IRIX, &[(BUF, 8, TEXT, 0x8000)], flags),
            want,
            "flags {flags:#x}"
        );
    }
}

/// irix sprofil(2) "sprofil can fail with": E2BIG, EFAULT, EINVAL, EACCES --
/// checked in that order when several apply.
#[test]
fn errors_are_checked_in_documented_order() {
    let restricted = Tunables {
        restrict_fastprof: true,
        profil_max: 2,
        ..Tunables::default()
    };
    let bad_bin = [(BUF2, 2, 0, 2), (BUF, 8, TEXT, 0x8000)];
    let cases = [
        (
            "E2BIG before EFAULT",
            UNMAPPED,
            3,
            UNMAPPED,
            16 | PROF_USHORT | PROF_FAST,
            Err(Errno::E2BIG),
        ),
        (
            "EFAULT before EINVAL",
            UNMAPPED,
            2,
            0,
            16 | PROF_USHORT | PROF_FAST,
            Err(Errno::EFAULT),
        ),
        (
            "EFAULT (tvp) before EINVAL",
            PROFP,
            2,
            UNMAPPED,
            8,
            Err(Errno::EFAULT),
        ),
        (
            "EINVAL (bin) before EACCES",
            PROFP,
            2,
            0,
            PROF_USHORT | PROF_FAST,
            Err(Errno::EINVAL),
        ),
        (
            "EINVAL (flags) before EACCES",
            PROFP,
            1,
            0,
            16 | PROF_USHORT | PROF_FAST,
            Err(Errno::EINVAL),
        ),
        (
            "EACCES",
            PROFP,
            1,
            0,
            PROF_USHORT | PROF_FAST,
            Err(Errno::EACCES),
        ),
    ];
    for (name, profp, profcnt, tvp, flags, want) in cases {
        let (mut st, mut m) = (ProfState::default(), mem());
        write_prof(&mut m, PROFP, &bad_bin);
        if profcnt == 1 {
            write_prof(&mut m, PROFP, &[(BUF, 8, TEXT, 0x8000)]);
        }
        assert_eq!(
            st.sprofil(&mut m, IRIX, &restricted, profp, profcnt, tvp, flags),
            want,
            "{name}"
        );
    }
}

/// irix sprofil(2): "If successful, sprofil returns 0."
#[test]
fn success_returns_zero() {
    let (mut st, mut m) = (ProfState::default(), mem());
    assert_eq!(
        sprofil(
            &mut st,
            &mut m,
            IRIX,
            &[(BUF, 8, TEXT, 0x8000)],
            PROF_UINT | PROF_FAST
        ),
        Ok(0)
    );
    assert!(st.is_active());
}

/// A failing call leaves the earlier profiling as it was (documented choice).
#[test]
fn failing_call_changes_nothing() {
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        IRIX,
        &[(BUF, 8, TEXT, 0x8000)],
        PROF_USHORT,
    )
    .unwrap();
    assert_eq!(
        st.sprofil(&mut m, IRIX, &tunables(), UNMAPPED, 1, 0, PROF_USHORT),
        Err(Errno::EFAULT)
    );
    ticks(&mut st, &mut m, &[TEXT]);
    assert_eq!(u16s(&mut m, BUF, 1), vec![1]);
}

/// irix sprofil(2) NOTES: "Each call to sprofil will disable any profiling
/// enabled by previous sprofil calls."
#[test]
fn each_call_disables_earlier_profiling() {
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        IRIX,
        &[(BUF, 8, TEXT, 0x8000), (BUF3, 2, 0, 2)],
        PROF_USHORT,
    )
    .unwrap();
    sprofil(
        &mut st,
        &mut m,
        IRIX,
        &[(BUF2, 8, LIB, 0x8000)],
        PROF_USHORT,
    )
    .unwrap();
    ticks(&mut st, &mut m, &[TEXT, LIB, 0]);
    assert_eq!(u16s(&mut m, BUF, 1), vec![0]);
    assert_eq!(u16s(&mut m, BUF3, 1), vec![0]);
    assert_eq!(u16s(&mut m, BUF2, 1), vec![1]);
}

/// irix sprofil(2) NOTES: "Profiling is not enabled for a given text region if
/// the value for pr_scale is 0 or 1"
#[test]
fn scale_0_or_1_region_not_enabled() {
    for scale in [0, 1] {
        let (mut st, mut m) = (ProfState::default(), mem());
        sprofil(
            &mut st,
            &mut m,
            IRIX,
            &[(BUF, 8, TEXT, scale), (BUF2, 8, LIB, 0x8000)],
            PROF_USHORT,
        )
        .unwrap();
        ticks(&mut st, &mut m, &[TEXT, LIB]);
        assert_eq!(u16s(&mut m, BUF, 4), vec![0; 4], "scale {scale}");
        assert_eq!(u16s(&mut m, BUF2, 1), vec![1], "scale {scale}");
    }
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(&mut st, &mut m, IRIX, &[(BUF, 8, TEXT, 1)], PROF_USHORT).unwrap();
    assert!(!st.is_active());
}

/// irix sprofil(2) NOTES: "... and is rendered ineffective by giving a bufsiz of 0."
#[test]
fn size_0_region_is_ineffective() {
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        IRIX,
        &[(BUF, 0, TEXT, 0x8000), (BUF2, 2, 0, 2)],
        PROF_USHORT,
    )
    .unwrap();
    ticks(&mut st, &mut m, &[TEXT]);
    assert_eq!(u16s(&mut m, BUF, 1), vec![0]);
    // The PC is outside every region that counts: the overflow bin has it.
    assert_eq!(u16s(&mut m, BUF2, 1), vec![1]);
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        IRIX,
        &[(BUF, 0, TEXT, 0x8000)],
        PROF_USHORT,
    )
    .unwrap();
    assert!(!st.is_active());
}

/// irix sprofil(2) NOTES: "Profiling is turned off for the specified region
/// of text space if a pr_base update would cause a memory fault."
#[test]
fn faulting_region_is_turned_off_and_others_go_on() {
    let (mut st, mut m) = (ProfState::default(), mem());
    let regions = [
        (UNMAPPED, 8, TEXT, 0x8000),
        (BUF2, 8, LIB, 0x8000),
        (BUF3, 2, 0, 2),
    ];
    sprofil(&mut st, &mut m, IRIX, &regions, PROF_USHORT).unwrap();
    ticks(&mut st, &mut m, &[TEXT, LIB, TEXT + 4, 0x100]);
    assert_eq!(u16s(&mut m, BUF2, 1), vec![1]);
    // The dead region's PCs are dropped, not moved to the overflow bin.
    assert_eq!(u16s(&mut m, BUF3, 1), vec![1]);
    assert!(st.is_active());
    // A faulting overflow bin turns itself off too; then nothing is left.
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        IRIX,
        &[(UNMAPPED, 8, TEXT, 0x8000), (UNMAPPED, 2, 0, 2)],
        PROF_USHORT,
    )
    .unwrap();
    ticks(&mut st, &mut m, &[TEXT, 0]);
    assert!(!st.is_active());
}

/// irix sprofil(2) NOTES: a read-only pr_base faults on update like an unmapped one.
#[test]
fn read_only_counter_buffer_turns_region_off() {
    let (mut st, mut m) = (ProfState::default(), mem());
    m.set_read_only(BUF, u64::from(BUF) + 8);
    sprofil(
        &mut st,
        &mut m,
        IRIX,
        &[(BUF, 8, TEXT, 0x8000)],
        PROF_USHORT,
    )
    .unwrap();
    assert!(st.is_active());
    ticks(&mut st, &mut m, &[TEXT]);
    assert!(!st.is_active());
}

/// irix sprofil(2) NOTES: "Profiling is turned off when an exec(2) is executed"
#[test]
fn exec_turns_profiling_off() {
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        IRIX,
        &[(BUF, 8, TEXT, 0x8000)],
        PROF_USHORT | PROF_FAST,
    )
    .unwrap();
    st.exec();
    assert!(!st.is_active());
    assert_eq!(st.tick_hz(IRIX, &tunables()), 100);
    ticks(&mut st, &mut m, &[TEXT]);
    assert_eq!(u16s(&mut m, BUF, 1), vec![0]);
    assert_eq!(st, ProfState::default());
}

/// irix sprofil(2) NOTES: "... but remains on in both child and parent
/// processes after a fork(2) or a sproc(2)." (the state is per process and Clone)
#[test]
fn fork_and_sproc_keep_profiling_in_both() {
    let (mut parent, mut pm) = (ProfState::default(), mem());
    sprofil(
        &mut parent,
        &mut pm,
        IRIX,
        &[(BUF, 8, TEXT, 0x8000)],
        PROF_USHORT | PROF_FAST,
    )
    .unwrap();
    let mut child = parent.clone();
    let mut cm: VecMemory = pm.clone(); // fork copies the address space too
    ticks(&mut parent, &mut pm, &[TEXT]);
    ticks(&mut child, &mut cm, &[TEXT + 4, TEXT + 4]);
    assert_eq!(u16s(&mut pm, BUF, 2), vec![1, 0]);
    assert_eq!(u16s(&mut cm, BUF, 2), vec![0, 2]);
    assert_eq!(child.tick_hz(IRIX, &tunables()), 1000);
    // The child's exec does not touch the parent.
    child.exec();
    assert!(parent.is_active());
}

/// irix sprofil(2) NOTES: "A call to profil(2) has the same effect as calling
/// sprofil with just one member in the profp array with the fields profcnt,
/// tvp and flags taking on the values of 1, NULL and PROF_USHORT respectively."
#[test]
fn profil_is_sprofil_with_one_ushort_member() {
    let pcs: Vec<u32> = (0..200).map(|i| TEXT + 0x20 + 3 * i).collect();
    for (size, off, scale) in [
        (64, TEXT + 0x20, 0x8000),
        (64, TEXT, 0x4000),
        (16, TEXT + 0x80, 0xffff),
        (8, 0, 2),
    ] {
        let (mut a, mut ma) = (ProfState::default(), mem());
        profil(&mut a, &mut ma, IRIX, BUF, size, off, scale).unwrap();
        ticks(&mut a, &mut ma, &pcs);
        let (mut b, mut mb) = (ProfState::default(), mem());
        sprofil(
            &mut b,
            &mut mb,
            IRIX,
            &[(BUF, size, off, scale)],
            PROF_USHORT,
        )
        .unwrap();
        ticks(&mut b, &mut mb, &pcs);
        assert_eq!(
            u16s(&mut ma, BUF, 32),
            u16s(&mut mb, BUF, 32),
            "({size}, {off:#x}, {scale:#x})"
        );
        assert_eq!(a.tick_hz(IRIX, &tunables()), 100);
    }
}

/// irix sprofil(2) via profil(2): a profil scale of 0 turns profiling off.
#[test]
fn profil_scale_0_turns_profiling_off() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, IRIX, BUF, 8, TEXT, 0x8000).unwrap();
    assert!(st.is_active());
    assert_eq!(profil(&mut st, &mut m, IRIX, BUF, 8, TEXT, 0), Ok(0));
    assert!(!st.is_active());
    ticks(&mut st, &mut m, &[TEXT]);
    assert_eq!(u16s(&mut m, BUF, 1), vec![0]);
}

/// A profil call replaces an earlier sprofil (one profiling state per process).
#[test]
fn profil_replaces_sprofil() {
    let (mut st, mut m) = (ProfState::default(), mem());
    sprofil(
        &mut st,
        &mut m,
        IRIX,
        &[(BUF, 8, TEXT, 0x8000)],
        PROF_USHORT | PROF_FAST,
    )
    .unwrap();
    profil(&mut st, &mut m, IRIX, BUF2, 8, LIB, 0x8000).unwrap();
    ticks(&mut st, &mut m, &[TEXT, LIB]);
    assert_eq!(
        (u16s(&mut m, BUF, 1), u16s(&mut m, BUF2, 1)),
        (vec![0], vec![1])
    );
    assert_eq!(st.tick_hz(IRIX, &tunables()), 100);
}

/// Guest input never panics: random struct prof arrays, flags and ticks.
#[test]
fn arbitrary_regions_never_panic() {
    let mut x: u32 = 0x1234_5678;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    };
    for _ in 0..200 {
        let (mut st, mut m) = (ProfState::default(), mem());
        let n = next() % 8 + 1;
        let regions: Vec<_> = (0..n)
            .map(|_| {
                (
                    MEM_BASE + next() % (MEM_LEN + 64),
                    next() % 256,
                    next(),
                    next() % 0x30000,
                )
            })
            .collect();
        let _ = sprofil(&mut st, &mut m, IRIX, &regions, next() % 4);
        for _ in 0..64 {
            st.tick(&mut m, next());
        }
    }
}
