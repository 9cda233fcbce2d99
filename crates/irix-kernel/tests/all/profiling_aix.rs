//! AIX profil, sentence by sentence (the manual page; docs/personalities.md).

use crate::common;

use common::*;
use irix_kernel::profiling::{Personality, ProfMemory, ProfState, Tunables, VecMemory, AIX_HZ};
use irix_kernel::Errno;

const AIX: Personality = Personality::Aix;
const TEXT: u32 = 0x1000_0000;
const ARRAY_FORM: u32 = 0xffff_ffff;

/// Writes AIX `struct prof` entries (p_low, p_high, p_buff, p_bufsize, p_scale) at `at`.
fn write_aix(m: &mut VecMemory, at: u32, entries: &[(u32, u32, u32, i32, i32)]) {
    for (i, &(low, high, buf, size, scale)) in entries.iter().enumerate() {
        for (k, v) in [low, high, buf, size as u32, scale as u32]
            .into_iter()
            .enumerate()
        {
            m.store32(at + 20 * i as u32 + 4 * k as u32, v).unwrap();
        }
    }
}

/// aix profil: "The profil system call arranges to record a histogram of
/// periodically sampled values of the calling process's program counter."
#[test]
fn records_a_histogram_of_sampled_pcs() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, AIX, BUF, 16, TEXT, 0x8000).unwrap();
    ticks(&mut st, &mut m, &[TEXT, TEXT + 4, TEXT + 4, TEXT + 28]);
    assert_eq!(u16s(&mut m, BUF, 8), vec![1, 2, 0, 0, 0, 0, 0, 1]);
}

/// aix profil: "If the bufsiz parameter has any value but -1, then the
/// parameters to profil are interpreted as shown in the first syntax
/// definition. The shortbuff parameter points to an area of memory, and its
/// length (in bytes) is given by the bufsiz parameter."
#[test]
fn shortbuff_holds_bufsiz_bytes() {
    let (mut st, mut m) = (ProfState::default(), mem());
    m.store16(BUF + 6, 0x5555).unwrap();
    profil(&mut st, &mut m, AIX, BUF, 6, TEXT, 0x8000).unwrap();
    ticks(&mut st, &mut m, &[TEXT + 8, TEXT + 12]);
    assert_eq!(u16s(&mut m, BUF, 4), vec![0, 0, 1, 0x5555]);
}

/// aix profil: "After this call, the user's program counter (pc) is examined
/// 60 times a second."
#[test]
fn pc_examined_60_times_a_second() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, AIX, BUF, 16, TEXT, 0x8000).unwrap();
    assert_eq!(AIX_HZ, 60);
    assert_eq!(st.tick_hz(AIX, &tunables()), 60);
    assert_eq!(
        st.tick_hz(
            AIX,
            &Tunables {
                hz: 1000,
                ..Tunables::default()
            }
        ),
        60
    );
}

/// aix profil: "The value of the offset parameter is subtracted from the pc,
/// and the result is multiplied by the value of the scale parameter. If the
/// resulting number is less than bufsiz / sizeof(short), then the
/// corresponding short inside shortbuff is incremented."
#[test]
fn short_incremented_only_below_bufsiz_over_sizeof_short() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, AIX, BUF, 8, TEXT, 0x8000).unwrap(); // 4 shorts
    m.store16(BUF + 8, 0x7777).unwrap();
    ticks(
        &mut st,
        &mut m,
        &[TEXT + 12, TEXT + 15, TEXT + 16, TEXT + 0x1000, TEXT - 4],
    );
    assert_eq!(u16s(&mut m, BUF, 5), vec![0, 0, 0, 2, 0x7777]);
}

/// aix profil: "The least significant 16 bits of the scale parameter are
/// interpreted as an unsigned, fixed-point fraction with a binary point at
/// the left. The most significant 16 bits of scale are ignored."
#[test]
fn only_the_low_16_bits_of_scale_count() {
    let pcs: Vec<u32> = (0..64).map(|i| TEXT + 5 * i).collect();
    let (mut a, mut ma) = (ProfState::default(), mem());
    profil(&mut a, &mut ma, AIX, BUF, 128, TEXT, 0x7fff).unwrap();
    ticks(&mut a, &mut ma, &pcs);
    let (mut b, mut mb) = (ProfState::default(), mem());
    profil(&mut b, &mut mb, AIX, BUF, 128, TEXT, 0x1234_7fff).unwrap();
    ticks(&mut b, &mut mb, &pcs);
    assert_eq!(u16s(&mut ma, BUF, 64), u16s(&mut mb, BUF, 64));
    // 0x10000: the fraction is 0, "Turns profiling off".
    let (mut c, mut mc) = (ProfState::default(), mem());
    profil(&mut c, &mut mc, AIX, BUF, 128, TEXT, 0x1_0000).unwrap();
    assert!(!c.is_active());
}

/// aix profil: "0177777 0xFFFF Maps approximately each pair of bytes in the
/// instruction space to a unique short in shortbuff."
#[test]
fn scale_0xffff_maps_each_pair_of_bytes_to_a_short() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, AIX, BUF, 0x400, TEXT, 0xffff).unwrap();
    let pcs: Vec<u32> = (0..0x400).map(|x| TEXT + x).collect();
    ticks(&mut st, &mut m, &pcs);
    let counts = u16s(&mut m, BUF, 0x200);
    assert_eq!(counts[0], 3); // 0xffff is just under 1
    assert!(counts[1..0x1ff].iter().all(|&c| c == 2));
}

/// aix profil: "077777 0x7FFF Maps approximately every four bytes to a short in shortbuff."
#[test]
fn scale_0x7fff_maps_every_four_bytes_to_a_short() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, AIX, BUF, 0x200, TEXT, 0x7fff).unwrap();
    let pcs: Vec<u32> = (0..0x400).map(|x| TEXT + x).collect();
    ticks(&mut st, &mut m, &pcs);
    let counts = u16s(&mut m, BUF, 0x100);
    assert!(counts[1..0xff].iter().all(|&c| c == 4), "{counts:?}");
}

/// aix profil: "01 0x0001 Maps all instructions to the first short in
/// shortbuff, producing a noninterrupting core clock."
#[test]
fn scale_0x0001_counts_every_tick_in_the_first_short() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, AIX, BUF, 8, TEXT, 0x0001).unwrap();
    ticks(
        &mut st,
        &mut m,
        &[TEXT, TEXT + 0x10_0000, 0, 0xffff_fffc, TEXT - 4],
    );
    assert_eq!(u16s(&mut m, BUF, 4), vec![5, 0, 0, 0]);
}

/// aix profil: "0 0x0000 Turns profiling off." / "Profiling is turned off:
/// o If the value of the scale parameter is 0."
#[test]
fn scale_0_turns_profiling_off() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, AIX, BUF, 8, TEXT, 0x8000).unwrap();
    assert_eq!(profil(&mut st, &mut m, AIX, BUF, 8, TEXT, 0), Ok(0));
    assert!(!st.is_active());
    ticks(&mut st, &mut m, &[TEXT]);
    assert_eq!(u16s(&mut m, BUF, 1), vec![0]);
}

/// aix profil: "Mapping each byte of the instruction space to an individual
/// short in shortbuff is not possible."
#[test]
fn no_byte_has_a_short_of_its_own() {
    for scale in [0xffff, 0xfffe, 0x8001, 0xc000] {
        let (mut st, mut m) = (ProfState::default(), mem());
        profil(&mut st, &mut m, AIX, BUF, 0x100, TEXT, scale).unwrap();
        let pcs: Vec<u32> = (0..0x80).map(|x| TEXT + x).collect();
        ticks(&mut st, &mut m, &pcs);
        assert!(
            u16s(&mut m, BUF, 0x80).iter().any(|&c| c >= 2),
            "scale {scale:#x}"
        );
    }
}

/// aix profil: "If the second parameter (bufsize) has the value -1, then the
/// parameters to profil are interpreted as shown in the second syntax
/// definition. In this case, the offset and scale parameters are ignored,
/// and profbuff points to an array of prof structures."
#[test]
fn bufsiz_minus_1_selects_the_struct_array_ignoring_offset_and_scale() {
    let (mut st, mut m) = (ProfState::default(), mem());
    write_aix(
        &mut m,
        PROFP,
        &[
            (TEXT, TEXT + 0x20, BUF, 16, 0x8000),
            (TEXT + 0x100, TEXT + 0x120, BUF2, 16, 0x8000),
            (0, 0, 0, 0, 0),
        ],
    );
    assert_eq!(
        profil(&mut st, &mut m, AIX, PROFP, ARRAY_FORM, 0xdead_0000, 0),
        Ok(0)
    );
    ticks(&mut st, &mut m, &[TEXT + 4, TEXT + 0x10c, TEXT + 0x80]);
    assert_eq!(u16s(&mut m, BUF, 4), vec![0, 1, 0, 0]);
    assert_eq!(u16s(&mut m, BUF2, 4), vec![0, 0, 0, 1]);
}

/// aix profil: "If the p_scale member has the value -1, then a value for it
/// is computed based on p_low, p_high, and p_bufsize"
#[test]
fn p_scale_minus_1_is_computed_to_fit_the_buffer() {
    let (mut st, mut m) = (ProfState::default(), mem());
    // 0x400 bytes of text into 0x100 bytes (128 shorts): 8 bytes per short.
    write_aix(
        &mut m,
        PROFP,
        &[(TEXT, TEXT + 0x400, BUF, 0x100, -1), (0, 0, 0, 0, 0)],
    );
    profil(&mut st, &mut m, AIX, PROFP, ARRAY_FORM, 0, 0).unwrap();
    ticks(
        &mut st,
        &mut m,
        &[TEXT, TEXT + 7, TEXT + 8, TEXT + 0x3ff, TEXT + 0x400],
    );
    let counts = u16s(&mut m, BUF, 0x81);
    assert_eq!(
        (counts[0], counts[1], counts[0x7f], counts[0x80]),
        (2, 1, 1, 0)
    );
}

/// aix profil: "otherwise p_scale is interpreted like the scale argument in
/// the first synopsis."
#[test]
fn p_scale_is_interpreted_like_the_scale_argument() {
    let pcs: Vec<u32> = (0..40).map(|i| TEXT + 3 * i).collect();
    for scale in [0x8000, 0x1_4000, 0x0001] {
        let (mut a, mut ma) = (ProfState::default(), mem());
        write_aix(
            &mut ma,
            PROFP,
            &[(TEXT, 0xffff_0000, BUF, 64, scale), (0, 0, 0, 0, 0)],
        );
        profil(&mut a, &mut ma, AIX, PROFP, ARRAY_FORM, 0, 0).unwrap();
        ticks(&mut a, &mut ma, &pcs);
        let (mut b, mut mb) = (ProfState::default(), mem());
        profil(&mut b, &mut mb, AIX, BUF, 64, TEXT, scale as u32).unwrap();
        ticks(&mut b, &mut mb, &pcs);
        assert_eq!(
            u16s(&mut ma, BUF, 32),
            u16s(&mut mb, BUF, 32),
            "scale {scale:#x}"
        );
    }
}

/// aix profil: "The p_high members in successive structures must be in
/// ascending sequence." (EINVAL otherwise; nothing changes)
#[test]
fn p_high_not_ascending_is_einval() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, AIX, BUF3, 8, TEXT, 0x8000).unwrap();
    write_aix(
        &mut m,
        PROFP,
        &[
            (TEXT, TEXT + 0x200, BUF, 16, 0x8000),
            (TEXT, TEXT + 0x100, BUF2, 16, 0x8000),
            (0, 0, 0, 0, 0),
        ],
    );
    assert_eq!(
        profil(&mut st, &mut m, AIX, PROFP, ARRAY_FORM, 0, 0),
        Err(Errno::EINVAL)
    );
    ticks(&mut st, &mut m, &[TEXT]);
    assert_eq!(u16s(&mut m, BUF3, 1), vec![1]);
}

/// aix profil: "The array of structures is terminated with a structure
/// containing a p_high member set to zero."
#[test]
fn p_high_zero_ends_the_array() {
    let (mut st, mut m) = (ProfState::default(), mem());
    // The terminator is the last thing in memory: nothing after it is read.
    let at = MEM_BASE + MEM_LEN - 40;
    write_aix(
        &mut m,
        at,
        &[
            (TEXT, TEXT + 0x20, BUF, 16, 0x8000),
            (TEXT + 0x40, 0, BUF2, 16, 0x8000),
        ],
    );
    assert_eq!(profil(&mut st, &mut m, AIX, at, ARRAY_FORM, 0, 0), Ok(0));
    ticks(&mut st, &mut m, &[TEXT, TEXT + 0x40]);
    assert_eq!(u16s(&mut m, BUF, 1), vec![1]);
    assert_eq!(u16s(&mut m, BUF2, 1), vec![0]);
}

/// aix profil array form: more than PROFIL_MAX entries before the terminator
/// is E2BIG (documented choice: the kernel bounds what it reads).
#[test]
fn struct_array_longer_than_profil_max_is_e2big() {
    let t = Tunables {
        profil_max: 2,
        ..Tunables::default()
    };
    let (mut st, mut m) = (ProfState::default(), mem());
    write_aix(
        &mut m,
        PROFP,
        &[
            (TEXT, TEXT + 0x10, BUF, 8, 0x8000),
            (TEXT + 0x10, TEXT + 0x20, BUF, 8, 0x8000),
            (TEXT + 0x20, TEXT + 0x30, BUF, 8, 0x8000),
            (0, 0, 0, 0, 0),
        ],
    );
    assert_eq!(
        st.profil(&mut m, AIX, &t, PROFP, ARRAY_FORM, 0, 0),
        Err(Errno::E2BIG)
    );
    write_aix(&mut m, PROFP + 40, &[(0, 0, 0, 0, 0)]);
    assert_eq!(st.profil(&mut m, AIX, &t, PROFP, ARRAY_FORM, 0, 0), Ok(0));
}

/// aix profil: "Profiling is turned off: ... o When an exec system call is executed"
#[test]
fn exec_turns_profiling_off() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, AIX, BUF, 8, TEXT, 0x8000).unwrap();
    st.exec();
    ticks(&mut st, &mut m, &[TEXT]);
    assert_eq!(u16s(&mut m, BUF, 1), vec![0]);
    assert!(!st.is_active());
}

/// aix profil: "Profiling is turned off: ... o If updating the buffer pointed
/// to by the shortbuff or profbuff parameter would cause a memory fault."
#[test]
fn shortbuff_or_profbuff_fault_turns_profiling_off() {
    // shortbuff: at the first faulting tick.
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, AIX, UNMAPPED, 8, TEXT, 0x8000).unwrap();
    ticks(&mut st, &mut m, &[TEXT]);
    assert!(!st.is_active());
    // profbuff: an array that cannot be read ends profiling at the call.
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, AIX, BUF, 8, TEXT, 0x8000).unwrap();
    assert_eq!(
        profil(&mut st, &mut m, AIX, UNMAPPED, ARRAY_FORM, 0, 0),
        Err(Errno::EFAULT)
    );
    assert!(!st.is_active());
    // profbuff entries' buffers: the faulting one stops, the others go on.
    let (mut st, mut m) = (ProfState::default(), mem());
    write_aix(
        &mut m,
        PROFP,
        &[
            (TEXT, TEXT + 0x20, UNMAPPED, 16, 0x8000),
            (TEXT + 0x20, TEXT + 0x40, BUF2, 16, 0x8000),
            (0, 0, 0, 0, 0),
        ],
    );
    profil(&mut st, &mut m, AIX, PROFP, ARRAY_FORM, 0, 0).unwrap();
    ticks(&mut st, &mut m, &[TEXT, TEXT + 0x20]);
    assert_eq!(u16s(&mut m, BUF2, 1), vec![1]);
}

/// aix profil: "Profiling is rendered ineffective by giving a value of "0"
/// for the bufsiz parameter."
#[test]
fn bufsiz_0_is_ineffective() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, AIX, BUF, 0, TEXT, 0x8000).unwrap();
    ticks(&mut st, &mut m, &[TEXT]);
    assert_eq!(u16s(&mut m, BUF, 1), vec![0]);
    assert!(!st.is_active());
}

/// aix profil: "Profiling remains on in both the child process and the parent
/// process after a fork system call."
#[test]
fn fork_keeps_profiling_in_both() {
    let (mut parent, mut pm) = (ProfState::default(), mem());
    profil(&mut parent, &mut pm, AIX, BUF, 8, TEXT, 0x8000).unwrap();
    let (mut child, mut cm) = (parent.clone(), pm.clone());
    ticks(&mut parent, &mut pm, &[TEXT]);
    ticks(&mut child, &mut cm, &[TEXT + 4]);
    assert_eq!(
        (u16s(&mut pm, BUF, 2), u16s(&mut cm, BUF, 2)),
        (vec![1, 0], vec![0, 1])
    );
    assert_eq!(child.tick_hz(AIX, &tunables()), 60);
}
