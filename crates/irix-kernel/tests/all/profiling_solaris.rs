//! Solaris pcsample(2) and profil(2), sentence by sentence.

use crate::common;

use common::*;
use irix_kernel::profiling::{Personality, ProfMemory, ProfState, Tunables, PROF_USHORT};
use irix_kernel::Errno;

const SOL: Personality = Personality::Solaris;
const TEXT: u32 = 0x1_0000_u32 * 0x40;

fn pcsample(
    st: &mut ProfState,
    m: &mut impl ProfMemory,
    samples: u32,
    n: i32,
) -> Result<u32, Errno> {
    st.pcsample(m, SOL, &tunables(), samples, n)
}

// ---- pcsample(2) ----

/// solaris pcsample(2): "The pcsample() function is passed an array samples
/// containing nsamples pointer-sized elements." (4 bytes for a 32-bit process)
#[test]
fn pcsample_elements_are_pointer_sized() {
    let (mut st, mut m) = (ProfState::default(), mem());
    pcsample(&mut st, &mut m, BUF, 3).unwrap();
    ticks(&mut st, &mut m, &[0x1111_2222, 0x3333_4444, 0x5555_6666]);
    assert_eq!(
        u32s(&mut m, BUF, 3),
        vec![0x1111_2222, 0x3333_4444, 0x5555_6666]
    );
}

/// solaris pcsample(2): "During program execution, the kernel samples the
/// program counter of the process, storing unadulterated values in the array
/// on each clock tick."
#[test]
fn pcsample_stores_the_raw_pc_on_each_tick() {
    let (mut st, mut m) = (ProfState::default(), mem());
    pcsample(&mut st, &mut m, BUF, 8).unwrap();
    let pcs = [TEXT, TEXT + 4, TEXT + 4, 0x0fa0_1233, 0xffff_ffff];
    ticks(&mut st, &mut m, &pcs);
    assert_eq!(
        u32s(&mut m, BUF, 6),
        vec![TEXT, TEXT + 4, TEXT + 4, 0x0fa0_1233, 0xffff_ffff, 0]
    );
}

/// solaris pcsample(2): "The kernel stops writing to the array when it is
/// full, which occurs after nsamples / HZ seconds of process virtual time."
#[test]
fn pcsample_stops_writing_when_full() {
    let (mut st, mut m) = (ProfState::default(), mem());
    m.store32(BUF + 8, 0xdead_beef).unwrap();
    pcsample(&mut st, &mut m, BUF, 2).unwrap();
    ticks(&mut st, &mut m, &[TEXT, TEXT + 4]);
    assert!(!st.is_active());
    ticks(&mut st, &mut m, &[TEXT + 8]);
    assert_eq!(u32s(&mut m, BUF, 3), vec![TEXT, TEXT + 4, 0xdead_beef]);
    assert_eq!(pcsample(&mut st, &mut m, BUF, 0), Ok(2));
}

/// solaris pcsample(2): "The HZ value is obtained by invoking the call
/// sysconf(_SC_CLK_TCK)." -- sampling ticks at HZ (the tunable).
#[test]
fn pcsample_ticks_at_hz() {
    let (mut st, mut m) = (ProfState::default(), mem());
    pcsample(&mut st, &mut m, BUF, 100).unwrap();
    assert_eq!(st.tick_hz(SOL, &tunables()), 100);
    assert_eq!(
        st.tick_hz(
            SOL,
            &Tunables {
                hz: 250,
                ..Tunables::default()
            }
        ),
        250
    );
}

/// solaris pcsample(2): "The sampling can be stopped by a subsequent call to
/// pcsample() with the nsamples argument set to 0."
#[test]
fn pcsample_nsamples_0_stops_sampling() {
    let (mut st, mut m) = (ProfState::default(), mem());
    pcsample(&mut st, &mut m, BUF, 8).unwrap();
    ticks(&mut st, &mut m, &[TEXT]);
    assert_eq!(pcsample(&mut st, &mut m, BUF, 0), Ok(1));
    assert!(!st.is_active());
    ticks(&mut st, &mut m, &[TEXT + 4]);
    assert_eq!(u32s(&mut m, BUF, 2), vec![TEXT, 0]);
}

/// solaris pcsample(2): "Like profil(), sampling continues across a call to
/// fork(2), but is disabled by a call to one of the exec family of functions"
#[test]
fn pcsample_continues_across_fork_disabled_by_exec() {
    let (mut parent, mut pm) = (ProfState::default(), mem());
    pcsample(&mut parent, &mut pm, BUF, 8).unwrap();
    ticks(&mut parent, &mut pm, &[TEXT]);
    let (mut child, mut cm) = (parent.clone(), pm.clone());
    ticks(&mut child, &mut cm, &[TEXT + 0x40]);
    ticks(&mut parent, &mut pm, &[TEXT + 0x80]);
    assert_eq!(u32s(&mut cm, BUF, 2), vec![TEXT, TEXT + 0x40]);
    assert_eq!(u32s(&mut pm, BUF, 2), vec![TEXT, TEXT + 0x80]);
    child.exec();
    assert!(!child.is_active());
    ticks(&mut child, &mut cm, &[TEXT + 0xc0]);
    assert_eq!(u32s(&mut cm, BUF, 3), vec![TEXT, TEXT + 0x40, 0]);
    // The new image's first call returns 0.
    assert_eq!(pcsample(&mut child, &mut cm, BUF, 8), Ok(0));
}

/// solaris pcsample(2): "It is also disabled if an update of the samples[]
/// array causes a memory fault."
#[test]
fn pcsample_fault_disables_sampling() {
    let (mut st, mut m) = (ProfState::default(), mem());
    let last = MEM_BASE + MEM_LEN - 4;
    pcsample(&mut st, &mut m, last, 4).unwrap();
    ticks(&mut st, &mut m, &[TEXT, TEXT + 4]);
    assert!(!st.is_active());
    assert_eq!(m.load32(last), Ok(TEXT));
    assert_eq!(pcsample(&mut st, &mut m, BUF, 0), Ok(1));
    // Past the top of the address space is a fault too.
    pcsample(&mut st, &mut m, 0xffff_fffc, 4).unwrap();
    ticks(&mut st, &mut m, &[TEXT]);
    assert!(!st.is_active());
}

/// solaris pcsample(2): "The pcsample() function always returns 0 the first
/// time it is called."
#[test]
fn pcsample_first_call_returns_0() {
    for n in [0, 1, 1000] {
        let (mut st, mut m) = (ProfState::default(), mem());
        assert_eq!(pcsample(&mut st, &mut m, BUF, n), Ok(0), "nsamples {n}");
    }
}

/// solaris pcsample(2): "On subsequent calls, it returns the number of
/// samples that were stored during the previous invocation."
#[test]
fn pcsample_returns_previous_invocation_count() {
    let (mut st, mut m) = (ProfState::default(), mem());
    assert_eq!(pcsample(&mut st, &mut m, BUF, 100), Ok(0));
    ticks(&mut st, &mut m, &[TEXT; 7]);
    assert_eq!(pcsample(&mut st, &mut m, BUF2, 3), Ok(7));
    ticks(&mut st, &mut m, &[TEXT; 5]);
    assert_eq!(pcsample(&mut st, &mut m, BUF, 0), Ok(3));
    assert_eq!(pcsample(&mut st, &mut m, BUF, 0), Ok(0));
}

/// solaris pcsample(2): "If nsamples is invalid, it returns -1 and sets errno
/// to indicate the error." / "EINVAL The value of nsamples is not valid."
#[test]
fn pcsample_negative_nsamples_is_einval() {
    let (mut st, mut m) = (ProfState::default(), mem());
    pcsample(&mut st, &mut m, BUF, 4).unwrap();
    ticks(&mut st, &mut m, &[TEXT]);
    for n in [-1, i32::MIN] {
        assert_eq!(pcsample(&mut st, &mut m, BUF, n), Err(Errno::EINVAL));
    }
    // The failing call changed nothing.
    assert!(st.is_active());
    assert_eq!(pcsample(&mut st, &mut m, BUF, 0), Ok(1));
}

/// pcsample and profil exclude each other, as on Solaris: starting one stops the other.
#[test]
fn pcsample_and_profil_exclude_each_other() {
    let (mut st, mut m) = (ProfState::default(), mem());
    pcsample(&mut st, &mut m, BUF, 8).unwrap();
    ticks(&mut st, &mut m, &[TEXT]);
    profil(&mut st, &mut m, SOL, BUF2, 16, TEXT, 0x8000).unwrap();
    ticks(&mut st, &mut m, &[TEXT + 4]);
    assert_eq!(u32s(&mut m, BUF, 2), vec![TEXT, 0]);
    assert_eq!(u16s(&mut m, BUF2, 2), vec![0, 1]);
    // pcsample's next call still reports the one sample, and stops profil.
    assert_eq!(pcsample(&mut st, &mut m, BUF, 8), Ok(1));
    ticks(&mut st, &mut m, &[TEXT + 4]);
    assert_eq!(u16s(&mut m, BUF2, 2), vec![0, 1]);
    assert_eq!(u32s(&mut m, BUF, 1), vec![TEXT + 4]);
    // sprofil (IRIX's generalisation) stops it as well.
    sprofil(
        &mut st,
        &mut m,
        SOL,
        &[(BUF2, 16, TEXT, 0x8000)],
        PROF_USHORT,
    )
    .unwrap();
    ticks(&mut st, &mut m, &[TEXT]);
    assert_eq!(u32s(&mut m, BUF, 2), vec![TEXT + 4, 0]);
}

/// pcsample is offered as system call 2026 in every personality: the
/// number the dispatcher's table routes to the pcsample handler.
#[test]
fn pcsample_system_call_number() {
    assert_eq!(irix_kernel::abi::sys::PCSAMPLE, 2026);
    let row = irix_kernel::syscalls::lookup(2026).expect("2026 is in the table");
    assert_eq!(row.name, "pcsample");
}

// ---- profil(2) ----

/// solaris profil(2): "The buff argument is a buffer of bufsiz bytes in which
/// the histogram counts are stored in an array of unsigned short int."
#[test]
fn counts_are_unsigned_shorts_in_buff() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, SOL, BUF, 6, TEXT, 0x8000).unwrap();
    ticks(&mut st, &mut m, &[TEXT, TEXT + 8, TEXT + 8, TEXT + 12]);
    assert_eq!(u16s(&mut m, BUF, 4), vec![1, 0, 2, 0]);
}

/// solaris profil(2): "Once one of the counts reaches 32767 (the size of a
/// short int), profiling stops and no more data is collected."
#[test]
fn count_reaching_32767_stops_profiling() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, SOL, BUF, 8, TEXT, 0x8000).unwrap();
    m.store16(BUF, 32765).unwrap();
    ticks(&mut st, &mut m, &[TEXT]);
    assert!(st.is_active());
    ticks(&mut st, &mut m, &[TEXT]);
    assert_eq!(u16s(&mut m, BUF, 1), vec![32767]);
    assert!(!st.is_active());
    ticks(&mut st, &mut m, &[TEXT, TEXT + 4]);
    assert_eq!(u16s(&mut m, BUF, 2), vec![32767, 0]);
}

/// solaris profil(2): a count already at the limit stops profiling without
/// being incremented ("no more data is collected").
#[test]
fn count_already_at_32767_stops_without_counting() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, SOL, BUF, 8, TEXT, 0x8000).unwrap();
    m.store16(BUF + 2, 40000).unwrap();
    ticks(&mut st, &mut m, &[TEXT + 4, TEXT]);
    assert_eq!(u16s(&mut m, BUF, 2), vec![0, 40000]);
    assert!(!st.is_active());
}

/// solaris profil(2): "The offset argument is effectively the start address
/// of the region to be profiled."
#[test]
fn offset_is_the_start_address() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, SOL, BUF, 8, TEXT, 0x8000).unwrap();
    ticks(&mut st, &mut m, &[TEXT - 4, TEXT, TEXT + 3]);
    assert_eq!(u16s(&mut m, BUF, 2), vec![2, 0]);
}

/// solaris profil(2): "The scale argument is a contraction factor that
/// indicates how much smaller the histogram buffer is than the region to be
/// profiled." ... "Since there are two bytes per histogram counter, the
/// effective ratio of subdivision bytes per counter is one half the scale."
/// (scale as a fraction f: 2 / f bytes of text per counter)
#[test]
fn subdivision_bytes_per_counter_is_two_over_the_scale_fraction() {
    for (scale, bytes) in [
        (0x8000, 4),
        (0x4000, 8),
        (0x2000, 16),
        (0x0100, 512),
        (0x0002, 65536),
    ] {
        let (mut st, mut m) = (ProfState::default(), mem());
        profil(&mut st, &mut m, SOL, BUF, 8, TEXT, scale).unwrap();
        ticks(&mut st, &mut m, &[TEXT, TEXT + bytes - 1, TEXT + bytes]);
        assert_eq!(u16s(&mut m, BUF, 2), vec![2, 1], "scale {scale:#x}");
    }
}

/// solaris profil(2): "o the maximum value of scale, 0xffff (approximately
/// 1), maps subdivisions 2 bytes long to each counter."
#[test]
fn scale_0xffff_maps_about_2_bytes_per_counter() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, SOL, BUF, 0x1000, TEXT, 0xffff).unwrap();
    let pcs: Vec<u32> = (0..0x1000).map(|x| TEXT + x).collect();
    ticks(&mut st, &mut m, &pcs);
    let counts = u16s(&mut m, BUF, 0x800);
    // 4096 bytes over 2048 counters: every counter holds 2 bytes, but the
    // first, which holds 3 (0xffff is just under 1), pushing one byte out.
    assert_eq!(counts[0], 3);
    assert!(counts[1..0x7ff].iter().all(|&c| c == 2));
}

/// solaris profil(2): "o the minimum value of scale (for which profiling is
/// performed), 0x0002 (1/32,768), maps subdivision 65,536 bytes long to each counter."
#[test]
fn scale_0x0002_maps_65536_bytes_per_counter() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, SOL, BUF, 8, 0, 0x0002).unwrap();
    ticks(&mut st, &mut m, &[0, 0xffff, 0x1_0000, 0x3_fffc, 0x4_0000]);
    assert_eq!(u16s(&mut m, BUF, 4), vec![2, 1, 0, 1]);
}

/// solaris profil(2): "o the default value of scale (currently used by cc
/// -qp), 0x4000, maps subdivisions 8 bytes long to each counter."
#[test]
fn scale_0x4000_maps_8_bytes_per_counter() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, SOL, BUF, 8, TEXT, 0x4000).unwrap();
    ticks(
        &mut st,
        &mut m,
        &[TEXT, TEXT + 4, TEXT + 7, TEXT + 8, TEXT + 31],
    );
    assert_eq!(u16s(&mut m, BUF, 4), vec![3, 1, 0, 1]);
}

/// solaris profil(2): "when the process is interrupted for a clock tick, the
/// value of offset is subtracted from the current value of the program
/// counter (pc), and the remainder is multiplied by scale to derive a result.
/// That result is used as an index into the histogram array to locate the
/// cell to be incremented."
#[test]
fn tick_increments_the_cell_for_pc_minus_offset_times_scale() {
    // (pc - offset, scale, cell): cell = ((x * scale) >> 16) / 2
    let cases = [
        (0x100, 0x8000, 0x40),
        (0x100, 0x4000, 0x20),
        (0x101, 0xc000, 0x60),
        (0x2000, 0x0100, 0x10),
    ];
    for (x, scale, cell) in cases {
        let (mut st, mut m) = (ProfState::default(), mem());
        profil(&mut st, &mut m, SOL, BUF, 0x400, TEXT, scale).unwrap();
        ticks(&mut st, &mut m, &[TEXT + x]);
        let counts = u16s(&mut m, BUF, 0x200);
        assert_eq!(
            counts.iter().position(|&c| c == 1),
            Some(cell),
            "x {x:#x} scale {scale:#x}"
        );
    }
}

/// solaris profil(2): "The value of scale can be computed as (RATIO *
/// 0200000L), where RATIO is the desired ratio of bufsiz to profiled region
/// size" ... "The value of bufsiz can be computed as
/// (size_of_region_to_be_profiled * RATIO)."
#[test]
fn ratio_formula_covers_the_whole_region() {
    let region: u32 = 0x800;
    for (num, den) in [(1u32, 4u32), (1, 2), (1, 16)] {
        let scale = 0o200000 * num / den;
        let bufsiz = region * num / den;
        let (mut st, mut m) = (ProfState::default(), mem());
        profil(&mut st, &mut m, SOL, BUF, bufsiz, TEXT, scale).unwrap();
        ticks(&mut st, &mut m, &[TEXT, TEXT + region - 1, TEXT + region]);
        let counts = u16s(&mut m, BUF, bufsiz / 2 + 1);
        assert_eq!(
            (counts[0], counts[(bufsiz / 2 - 1) as usize]),
            (1, 1),
            "RATIO {num}/{den}"
        );
        assert_eq!(
            counts.iter().map(|&c| u32::from(c)).sum::<u32>(),
            2,
            "RATIO {num}/{den}"
        );
    }
}

/// solaris profil(2): "Profiling is turned off by giving a scale value of 0 or 1"
#[test]
fn scale_0_or_1_turns_profiling_off() {
    for scale in [0, 1] {
        let (mut st, mut m) = (ProfState::default(), mem());
        profil(&mut st, &mut m, SOL, BUF, 8, TEXT, 0x8000).unwrap();
        assert_eq!(profil(&mut st, &mut m, SOL, BUF, 8, TEXT, scale), Ok(0));
        assert!(!st.is_active(), "scale {scale}");
        ticks(&mut st, &mut m, &[TEXT]);
        assert_eq!(u16s(&mut m, BUF, 1), vec![0]);
    }
}

/// solaris profil(2): "... and is rendered ineffective by giving a bufsiz value of 0."
#[test]
fn bufsiz_0_is_ineffective() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, SOL, BUF, 0, TEXT, 0x8000).unwrap();
    ticks(&mut st, &mut m, &[TEXT]);
    assert_eq!(u16s(&mut m, BUF, 1), vec![0]);
    assert!(!st.is_active());
}

/// solaris profil(2): "Profiling is turned off when one of the exec family of
/// functions (see exec(2)) is executed, but remains on in both child and
/// parent processes after a fork(2)."
#[test]
fn exec_turns_off_fork_keeps_in_both() {
    let (mut parent, mut pm) = (ProfState::default(), mem());
    profil(&mut parent, &mut pm, SOL, BUF, 8, TEXT, 0x8000).unwrap();
    let (mut child, mut cm) = (parent.clone(), pm.clone());
    ticks(&mut parent, &mut pm, &[TEXT]);
    ticks(&mut child, &mut cm, &[TEXT + 4]);
    assert_eq!(
        (u16s(&mut pm, BUF, 2), u16s(&mut cm, BUF, 2)),
        (vec![1, 0], vec![0, 1])
    );
    parent.exec();
    assert!(!parent.is_active());
    assert!(child.is_active());
}

/// solaris profil(2): "Profiling is turned off if a buff update would cause a
/// memory fault."
#[test]
fn buff_fault_turns_profiling_off() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, SOL, UNMAPPED, 8, TEXT, 0x8000).unwrap();
    assert!(st.is_active());
    ticks(&mut st, &mut m, &[TEXT]);
    assert!(!st.is_active());
}

/// solaris profil(2) NOTES: "In Solaris 2.6, the profil() system call for
/// multithreaded processes has global impact" -- the state is one per
/// process (one ProfState), which the kernel shares among its threads.
#[test]
fn profil_state_is_per_process() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, SOL, BUF, 8, TEXT, 0x8000).unwrap();
    // Ticks from any thread of the process go through the same state.
    ticks(&mut st, &mut m, &[TEXT, TEXT]);
    assert_eq!(u16s(&mut m, BUF, 1), vec![2]);
}
