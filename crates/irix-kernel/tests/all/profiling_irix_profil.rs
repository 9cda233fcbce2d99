//! IRIX profil(2), sentence by sentence, under the IRIX personality (the
//! default). sprofil(2)'s sentences are in profiling_irix.rs; these hold the
//! single-region call to its own page.

use crate::common;

use common::*;
use irix_kernel::profiling::mapping::ADDRESS_SPACE_END;
use irix_kernel::profiling::{
    map_pc, text_range, CounterWidth, Personality, ProfState, Region, Slot, Tunables, PROF_USHORT,
};

const IRIX: Personality = Personality::Irix;
const TEXT: u32 = 0x40_0000;

/// irix profil(2): "the minimum value of scale (for which profiling is
/// performed), 0x0002 (1/32,768), maps (by convention) the entire region
/// starting with offset to the first counter in buff." Every PC from the
/// offset up, however far, counts in the first counter; the other counters
/// stay 0.
#[test]
fn minimum_scale_maps_the_entire_region_starting_with_offset_to_the_first_counter() {
    let (mut st, mut m) = (ProfState::default(), mem());
    assert_eq!(profil(&mut st, &mut m, IRIX, BUF, 8, TEXT, 2), Ok(0));
    ticks(
        &mut st,
        &mut m,
        &[TEXT, TEXT + 4, TEXT + 0x2_0000, 0x1000_0000, 0xffff_fffc],
    );
    assert_eq!(u16s(&mut m, BUF, 4), vec![5, 0, 0, 0]);
}

/// The same sentence: the region *starts* with offset, so a PC below it is
/// outside the region and counts nowhere.
#[test]
fn minimum_scale_region_starts_with_offset_so_lower_pcs_are_not_counted() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, IRIX, BUF, 8, TEXT, 2).unwrap();
    ticks(&mut st, &mut m, &[0, TEXT - 4, TEXT]);
    assert_eq!(u16s(&mut m, BUF, 4), vec![1, 0, 0, 0]);
}

/// The convention holds "whatever the offset": one whole counter is all the
/// region needs, and the mapping says so for every offset.
#[test]
fn minimum_scale_convention_holds_for_every_offset() {
    for offset in [0, 4, TEXT, 0x7fff_fff0, 0xffff_fffc] {
        let r = Region::new(offset, 2, 2, CounterWidth::U16);
        assert_eq!(map_pc(IRIX, &r, offset), Slot::Counter(0), "{offset:#x}");
        assert_eq!(map_pc(IRIX, &r, u32::MAX), Slot::Counter(0), "{offset:#x}");
        assert_eq!(
            text_range(IRIX, &r),
            Some((offset, ADDRESS_SPACE_END)),
            "{offset:#x}"
        );
        if let Some(below) = offset.checked_sub(1) {
            assert_eq!(map_pc(IRIX, &r, below), Slot::Below, "{offset:#x}");
        }
    }
}

/// The convention is IRIX's: the Solaris and HP-UX pages give only the
/// formula, under which scale 2 puts 64 KiB of text in each 16-bit counter.
#[test]
fn other_personalities_keep_the_formula_at_scale_2() {
    let r = Region::new(TEXT, 8, 2, CounterWidth::U16);
    for p in [Personality::Solaris, Personality::Hpux] {
        assert_eq!(map_pc(p, &r, TEXT + 0xffff), Slot::Counter(0), "{p}");
        assert_eq!(map_pc(p, &r, TEXT + 0x1_0000), Slot::Counter(1), "{p}");
        assert_eq!(map_pc(p, &r, TEXT + 0x4_0000), Slot::Beyond, "{p}");
    }
    assert_eq!(map_pc(IRIX, &r, TEXT + 0x1_0000), Slot::Counter(0));
    assert_eq!(map_pc(IRIX, &r, TEXT + 0x4_0000), Slot::Counter(0));
}

/// irix profil(2): "the maximal value of scale, 0x10000, gives a 1-1 mapping
/// of pc's to 4-byte words in buff. This value makes no sense for the default
/// 16-bit (2-byte) counters, since this means 2 bytes of wasted space for
/// every 2 bytes of counter."
#[test]
fn maximal_scale_maps_each_pc_to_a_4_byte_word_wasting_every_other_counter() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, IRIX, BUF, 16, TEXT, 0x1_0000).unwrap();
    ticks(&mut st, &mut m, &[TEXT, TEXT + 4, TEXT + 4, TEXT + 12]);
    assert_eq!(u16s(&mut m, BUF, 8), vec![1, 0, 2, 0, 0, 0, 1, 0]);
}

/// irix profil(2): "a scale value of 0x8000 specifies a contraction of two,
/// which means every 4-byte instruction maps to 2 bytes of counter space. For
/// 16-bit counters this means a 1-1 mapping of instructions to counters."
#[test]
fn scale_0x8000_maps_each_instruction_to_its_own_16_bit_counter() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, IRIX, BUF, 8, TEXT, 0x8000).unwrap();
    ticks(
        &mut st,
        &mut m,
        &[TEXT, TEXT + 4, TEXT + 8, TEXT + 12, TEXT + 12],
    );
    assert_eq!(u16s(&mut m, BUF, 4), vec![1, 1, 1, 2]);
}

/// irix profil(2): "the value of offset is subtracted from the current value
/// of the program counter (pc), and the remainder is multiplied by scale to
/// derive a result. That result is used as an index into the histogram array
/// to locate the cell to be incremented." (scale 0x4000: 8 bytes of text per
/// 2-byte cell.)
#[test]
fn offset_is_subtracted_from_the_pc_and_the_remainder_multiplied_by_scale() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, IRIX, BUF, 8, TEXT, 0x4000).unwrap();
    ticks(&mut st, &mut m, &[TEXT, TEXT + 4, TEXT + 8, TEXT + 28]);
    assert_eq!(u16s(&mut m, BUF, 4), vec![2, 1, 0, 1]);
}

/// irix profil(2): "buff is a buffer of bufsiz bytes in which the histogram
/// counts are stored": a PC whose cell lies past bufsiz bytes is not counted
/// and nothing past the buffer is written.
#[test]
fn counts_are_stored_only_within_bufsiz_bytes() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, IRIX, BUF, 4, TEXT, 0x8000).unwrap();
    ticks(&mut st, &mut m, &[TEXT + 4, TEXT + 8, TEXT + 400]);
    assert_eq!(u16s(&mut m, BUF, 4), vec![0, 1, 0, 0]);
}

/// irix profil(2): "Since each cell is only 16 bits wide, it is conceivable
/// for it to overflow. No indication that this has occurred is given."
#[test]
fn a_cell_overflows_without_indication() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, IRIX, BUF, 4, TEXT, 0x8000).unwrap();
    for _ in 0..65_537 {
        st.tick(&mut m, TEXT);
    }
    assert_eq!(u16s(&mut m, BUF, 2), vec![1, 0]);
    assert!(st.is_active(), "profiling goes on after the wrap");
}

/// irix profil(2) NOTES: "Profiling is turned off by giving a scale of 0 or 1".
#[test]
fn profiling_is_turned_off_by_giving_a_scale_of_0_or_1() {
    for scale in [0, 1] {
        let (mut st, mut m) = (ProfState::default(), mem());
        profil(&mut st, &mut m, IRIX, BUF, 8, TEXT, 0x8000).unwrap();
        assert_eq!(profil(&mut st, &mut m, IRIX, BUF, 8, TEXT, scale), Ok(0));
        assert!(!st.is_active(), "scale {scale}");
        ticks(&mut st, &mut m, &[TEXT]);
        assert_eq!(u16s(&mut m, BUF, 1), vec![0], "scale {scale}");
    }
}

/// irix profil(2) NOTES: "... and is rendered ineffective by giving a bufsiz of 0."
#[test]
fn profiling_is_rendered_ineffective_by_a_bufsiz_of_0() {
    for scale in [2, 0x8000] {
        let (mut st, mut m) = (ProfState::default(), mem());
        profil(&mut st, &mut m, IRIX, BUF, 0, TEXT, scale).unwrap();
        ticks(&mut st, &mut m, &[TEXT, TEXT + 4]);
        assert_eq!(u16s(&mut m, BUF, 2), vec![0, 0], "scale {scale}");
        assert!(!st.is_active(), "scale {scale}");
    }
}

/// irix profil(2) NOTES: "Profiling is turned off when an exec(2) is executed".
#[test]
fn profiling_is_turned_off_when_an_exec_is_executed() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, IRIX, BUF, 8, TEXT, 2).unwrap();
    st.exec();
    ticks(&mut st, &mut m, &[TEXT]);
    assert_eq!(u16s(&mut m, BUF, 1), vec![0]);
    assert!(!st.is_active());
}

/// irix profil(2) NOTES: "... but remains on in both child and parent
/// processes after a fork(2) or sproc(2)."
#[test]
fn profiling_remains_on_in_both_child_and_parent_after_a_fork() {
    let (mut parent, mut pm) = (ProfState::default(), mem());
    profil(&mut parent, &mut pm, IRIX, BUF, 8, TEXT, 0x8000).unwrap();
    let (mut child, mut cm) = (parent.clone(), pm.clone());
    ticks(&mut parent, &mut pm, &[TEXT]);
    ticks(&mut child, &mut cm, &[TEXT + 4, TEXT + 4]);
    assert_eq!(
        (u16s(&mut pm, BUF, 2), u16s(&mut cm, BUF, 2)),
        (vec![1, 0], vec![0, 2])
    );
}

/// irix profil(2) NOTES: "Profiling is turned off if a buff update would
/// cause a memory fault."
#[test]
fn profiling_is_turned_off_if_a_buff_update_would_fault() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, IRIX, UNMAPPED, 8, TEXT, 2).unwrap();
    assert!(st.is_active(), "the buffer is not checked at the call");
    ticks(&mut st, &mut m, &[TEXT]);
    assert!(!st.is_active());
}

/// irix profil(2) DIAGNOSTICS: "A 0, indicating success, is always returned."
#[test]
fn a_0_indicating_success_is_always_returned() {
    let (mut st, mut m) = (ProfState::default(), mem());
    for (buf, size, off, scale) in [
        (BUF, 8, TEXT, 0x8000),
        (UNMAPPED, 8, TEXT, 2),
        (0, 0, 0, 0),
        (BUF, u32::MAX, u32::MAX, u32::MAX),
        (UNMAPPED, 1, 0, 1),
    ] {
        assert_eq!(
            profil(&mut st, &mut m, IRIX, buf, size, off, scale),
            Ok(0),
            "profil({buf:#x}, {size}, {off:#x}, {scale:#x})"
        );
    }
}

/// irix sprofil(2) NOTES: "A call to profil(2) has the same effect as calling
/// sprofil with just one member in the profp array with the fields profcnt,
/// tvp and flags taking on the values of 1, NULL and PROF_USHORT": the
/// scale-2 convention holds for a one-member sprofil at a nonzero offset too.
#[test]
fn profil_is_sprofil_with_one_member_also_at_the_minimum_scale() {
    let pcs = [TEXT - 4, TEXT, TEXT + 0x4_0000, 0xffff_fffc];
    let (mut a, mut am) = (ProfState::default(), mem());
    profil(&mut a, &mut am, IRIX, BUF, 8, TEXT, 2).unwrap();
    ticks(&mut a, &mut am, &pcs);
    let (mut b, mut bm) = (ProfState::default(), mem());
    sprofil(&mut b, &mut bm, IRIX, &[(BUF, 8, TEXT, 2)], PROF_USHORT).unwrap();
    ticks(&mut b, &mut bm, &pcs);
    assert_eq!(u16s(&mut am, BUF, 4), vec![3, 0, 0, 0]);
    assert_eq!(u16s(&mut bm, BUF, 4), u16s(&mut am, BUF, 4));
}

/// irix profil(2): "when the process is interrupted for a clock tick (once
/// every 10 milliseconds)": profil ticks at HZ = 100.
#[test]
fn the_clock_tick_comes_once_every_10_milliseconds() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, IRIX, BUF, 8, TEXT, 0x8000).unwrap();
    assert_eq!(st.tick_hz(IRIX, &Tunables::default()), 100);
}
