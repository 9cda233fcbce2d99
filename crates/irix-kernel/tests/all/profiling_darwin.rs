//! Darwin/BSD profil(2), sentence by sentence.

use crate::common;

use common::*;
use irix_kernel::profiling::{Personality, ProfMemory, ProfState};
use irix_kernel::Errno;

const DARWIN: Personality = Personality::Darwin;
const TEXT: u32 = 0x1000;

/// darwin profil(2): "The profil() function enables or disables program
/// counter profiling of the current process. If profiling is enabled, then
/// at every clock tick, the kernel updates an appropriate count in the
/// samples buffer."
#[test]
fn every_tick_updates_a_count() {
    let (mut st, mut m) = (ProfState::default(), mem());
    assert!(!st.is_active());
    profil(&mut st, &mut m, DARWIN, BUF, 16, TEXT, 32768).unwrap();
    assert!(st.is_active());
    ticks(&mut st, &mut m, &[TEXT, TEXT + 4, TEXT + 4, TEXT + 8]);
    assert_eq!(u16s(&mut m, BUF, 4), vec![1, 2, 1, 0]);
}

/// darwin profil(2): "The buffer samples contains size bytes and is divided
/// into a series of 16-bit bins."
#[test]
fn buffer_is_size_bytes_of_16_bit_bins() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, DARWIN, BUF, 7, TEXT, 65536).unwrap();
    // 7 bytes: three whole bins, for 6 bytes of text.
    ticks(&mut st, &mut m, &[TEXT, TEXT + 5, TEXT + 6]);
    assert_eq!(u16s(&mut m, BUF, 4), vec![1, 0, 1, 0]);
}

/// darwin profil(2): "Each bin counts the number of times the program counter
/// was in a particular address range in the process when a clock tick
/// occurred while profiling was enabled."
#[test]
fn each_bin_counts_ticks_in_its_address_range() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, DARWIN, BUF, 8, TEXT, 16384).unwrap(); // 8 bytes per bin
    ticks(&mut st, &mut m, &[TEXT + 8, TEXT + 9, TEXT + 15, TEXT + 16]);
    assert_eq!(u16s(&mut m, BUF, 3), vec![0, 3, 1]);
    profil(&mut st, &mut m, DARWIN, BUF, 8, TEXT, 0).unwrap();
    ticks(&mut st, &mut m, &[TEXT + 8]);
    assert_eq!(u16s(&mut m, BUF, 3), vec![0, 3, 1]);
}

/// darwin profil(2): "For a given program counter address, the number of the
/// corresponding bin is given by the relation: [(pc - offset) / 2] * scale / 65536"
#[test]
fn bin_is_half_pc_minus_offset_times_scale_over_65536() {
    // (pc - offset, scale, bin)
    let cases = [
        (0, 65536, 0),
        (2, 65536, 1),
        (3, 65536, 1),
        (3, 65535, 0),
        (5, 65535, 1),
        (100, 32768, 25),
        (99, 49152, 36),
        (0x20000, 1, 1),
    ];
    for (x, scale, bin) in cases {
        let (mut st, mut m) = (ProfState::default(), mem());
        profil(&mut st, &mut m, DARWIN, BUF, 0x200, TEXT, scale).unwrap();
        ticks(&mut st, &mut m, &[TEXT + x]);
        let counts = u16s(&mut m, BUF, 0x100);
        assert_eq!(
            counts.iter().position(|&c| c == 1),
            Some(bin),
            "x {x} scale {scale}"
        );
    }
}

/// darwin profil(2): "The offset parameter is the lowest address at which the
/// kernel takes program counter samples."
#[test]
fn offset_is_the_lowest_sampled_address() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, DARWIN, BUF, 8, TEXT, 65536).unwrap();
    ticks(&mut st, &mut m, &[TEXT - 1, TEXT - 2, 0]);
    assert_eq!(u16s(&mut m, BUF, 4), vec![0; 4]);
    ticks(&mut st, &mut m, &[TEXT]);
    assert_eq!(u16s(&mut m, BUF, 1), vec![1]);
}

/// darwin profil(2): "The scale parameter ranges from 1 to 65536 and can be
/// used to change the span of the bins." (1 is enabled: 128 KiB per bin)
#[test]
fn scale_ranges_from_1_to_65536() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, DARWIN, BUF, 4, 0, 1).unwrap();
    ticks(&mut st, &mut m, &[0, 0x1_ffff, 0x2_0000]);
    assert_eq!(u16s(&mut m, BUF, 2), vec![2, 1]);
}

/// darwin profil(2): "A scale of 65536 maps each bin to 2 bytes of address
/// range; a scale of 32768 gives 4 bytes, 16384 gives 8 bytes and so on."
#[test]
fn scale_65536_32768_16384_give_2_4_8_bytes() {
    for (scale, bytes) in [(65536, 2), (32768, 4), (16384, 8), (8192, 16)] {
        let (mut st, mut m) = (ProfState::default(), mem());
        profil(&mut st, &mut m, DARWIN, BUF, 8, TEXT, scale).unwrap();
        ticks(
            &mut st,
            &mut m,
            &[TEXT + bytes - 1, TEXT + bytes, TEXT + 2 * bytes - 1],
        );
        assert_eq!(u16s(&mut m, BUF, 3), vec![1, 2, 0], "scale {scale}");
    }
}

/// darwin profil(2): "Intermediate values provide approximate intermediate ranges."
#[test]
fn intermediate_scales_give_intermediate_ranges() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, DARWIN, BUF, 0x1000, TEXT, 49152).unwrap(); // between 2 and 4 bytes
    let pcs: Vec<u32> = (0..0x600).map(|x| TEXT + x).collect();
    ticks(&mut st, &mut m, &pcs);
    let counts = u16s(&mut m, BUF, 0x800);
    let used = counts.iter().filter(|&&c| c > 0).count();
    // 1536 bytes at 8/3 bytes per bin: 576 bins, each 2 or 4 bytes.
    assert_eq!(used, 576);
    assert!(counts[..used].iter().all(|&c| c == 2 || c == 4));
}

/// darwin profil(2): "A scale value of 0 disables profiling."
#[test]
fn scale_0_disables_profiling() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, DARWIN, BUF, 8, TEXT, 65536).unwrap();
    assert_eq!(profil(&mut st, &mut m, DARWIN, BUF, 8, TEXT, 0), Ok(0));
    assert!(!st.is_active());
    ticks(&mut st, &mut m, &[TEXT]);
    assert_eq!(u16s(&mut m, BUF, 1), vec![0]);
}

/// darwin profil(2): "If the scale value is nonzero and the buffer samples
/// contains an illegal address, profil() returns -1, profiling is terminated
/// and errno is set appropriately." / "[EFAULT] The buffer samples contains
/// an invalid address."
#[test]
fn illegal_buffer_returns_efault_and_terminates_profiling() {
    let end = MEM_BASE + MEM_LEN;
    let cases = [
        ("unmapped", UNMAPPED, 16),
        ("runs off the end", end - 8, 16),
        ("last bin half mapped", end - 3, 4),
        ("spans a hole three pages on", end - 0x3000, 0x4000),
        ("wraps the address space", 0xffff_fff0, 0x100),
    ];
    for (name, buf, size) in cases {
        let (mut st, mut m) = (ProfState::default(), mem());
        profil(&mut st, &mut m, DARWIN, BUF, 8, TEXT, 65536).unwrap();
        assert_eq!(
            profil(&mut st, &mut m, DARWIN, buf, size, TEXT, 65536),
            Err(Errno::EFAULT),
            "{name}"
        );
        assert!(!st.is_active(), "{name}");
        ticks(&mut st, &mut m, &[TEXT]);
        assert_eq!(
            u16s(&mut m, BUF, 1),
            vec![0],
            "{name}: the old profiling ended"
        );
    }
}

/// darwin profil(2): an illegal address includes a buffer that cannot be
/// written; the check leaves a legal buffer's contents unchanged.
#[test]
fn read_only_buffer_is_efault_and_check_changes_nothing() {
    let (mut st, mut m) = (ProfState::default(), mem());
    // Protection is per 4 KiB page: the second page of the buffer is read-only.
    m.set_read_only(BUF3, u64::from(BUF3) + 0x1000);
    assert_eq!(
        profil(&mut st, &mut m, DARWIN, BUF2, 0x2000, TEXT, 65536),
        Err(Errno::EFAULT)
    );
    m.store16(BUF + 0x10, 0x1234).unwrap();
    assert_eq!(
        profil(&mut st, &mut m, DARWIN, BUF, 0x20, TEXT, 65536),
        Ok(0)
    );
    assert_eq!(m.load16(BUF + 0x10), Ok(0x1234));
}

/// darwin profil(2): "Otherwise profil() returns 0." -- including scale 0
/// with an illegal buffer, and size 0.
#[test]
fn otherwise_returns_0() {
    let cases = [
        (BUF, 16, 65536),
        (UNMAPPED, 16, 0),
        (UNMAPPED, 0, 65536),
        (BUF, 0x1000, 1),
    ];
    for (buf, size, scale) in cases {
        let (mut st, mut m) = (ProfState::default(), mem());
        assert_eq!(
            profil(&mut st, &mut m, DARWIN, buf, size, TEXT, scale),
            Ok(0),
            "{buf:#x} {size} {scale}"
        );
    }
}

/// darwin profil(2) BUGS: "The samples argument should really be a vector of
/// type unsigned short." -- bins are unsigned 16-bit and wrap.
#[test]
fn bins_are_unsigned_16_bit() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, DARWIN, BUF, 4, TEXT, 65536).unwrap();
    m.store16(BUF, 0x7fff).unwrap();
    m.store16(BUF + 2, 0xffff).unwrap();
    ticks(&mut st, &mut m, &[TEXT, TEXT + 2]);
    assert_eq!(u16s(&mut m, BUF, 2), vec![0x8000, 0]);
    assert!(st.is_active());
}

/// A buffer that becomes illegal later (a fault at a tick) ends profiling.
#[test]
fn fault_at_a_tick_ends_profiling() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, DARWIN, BUF, 8, TEXT, 65536).unwrap();
    m.set_read_only(BUF, u64::from(BUF) + 8);
    ticks(&mut st, &mut m, &[TEXT]);
    assert!(!st.is_active());
}

/// exec ends profiling; fork keeps it (BSD, as every page here).
#[test]
fn exec_ends_fork_keeps() {
    let (mut st, mut m) = (ProfState::default(), mem());
    profil(&mut st, &mut m, DARWIN, BUF, 8, TEXT, 65536).unwrap();
    let mut child = st.clone();
    st.exec();
    assert!(!st.is_active());
    ticks(&mut child, &mut m, &[TEXT]);
    assert_eq!(u16s(&mut m, BUF, 1), vec![1]);
}
