//! Loads and stores: widths and sign extension, every LWL/LWR/SWL/SWR and a
//! spread of LDL/LDR/SDL/SDR alignments (big-endian), address errors, the
//! Memory trait's faults, and LL/SC.
//!
//! Data at DATA: 00 11 22 33 | 44 55 66 77 | 88 99 aa bb | cc dd ee ff.

use crate::testmem;

use cpu_mips::{disassemble, ExcCode, Exception};
use testmem::{machine, r::*, steps, sx, TestMem, CODE, DATA, RODATA};

const WORDS: [u32; 4] = [0x0011_2233, 0x4455_6677, 0x8899_aabb, 0xccdd_eeff];
const RT32: u64 = sx(0xa1a2_a3a4);
const RT64: u64 = 0xa0a1_a2a3_a4a5_a6a7;

fn data_machine(mode64: bool, word: u32) -> (cpu_mips::Cpu, TestMem) {
    let (mut cpu, mut mem) = machine(mode64, &[word]);
    mem.poke_words(DATA, &WORDS);
    cpu.gpr[A0] = DATA as u64;
    (cpu, mem)
}

/// (word, assembly, 64-bit mode, $v0 before, $v0 after)
type LoadRow = (u32, &'static str, bool, u64, u64);

fn check_loads(rows: &[LoadRow]) {
    for &(word, asm, mode64, before, after) in rows {
        assert_eq!(disassemble(word, CODE), asm);
        let (mut cpu, mut mem) = data_machine(mode64, word);
        cpu.gpr[V0] = before;
        assert_eq!(steps(&mut cpu, &mut mem, 1), None, "{asm}");
        assert_eq!(cpu.gpr[V0], after, "{asm}: got {:#x}", cpu.gpr[V0]);
    }
}

/// (word, assembly, 64-bit mode, $a1, address checked, value there after)
type StoreRow = (u32, &'static str, bool, u64, u32, u64);

fn check_stores(rows: &[StoreRow], width: u32) {
    for &(word, asm, mode64, value, addr, after) in rows {
        assert_eq!(disassemble(word, CODE), asm);
        let (mut cpu, mut mem) = data_machine(mode64, word);
        cpu.gpr[A1] = value;
        assert_eq!(steps(&mut cpu, &mut mem, 1), None, "{asm}");
        let got = if width == 8 {
            mem.peek64(addr)
        } else {
            mem.peek32(addr) as u64
        };
        assert_eq!(got, after, "{asm}: memory holds {got:#x}");
    }
}

#[test]
fn loads_sign_or_zero_extend_by_width() {
    check_loads(&[
        (0x8082_0008, "lb $v0, 8($a0)", false, 0, sx(0xffff_ff88)),
        (0x9082_0008, "lbu $v0, 8($a0)", false, 0, 0x88),
        (0x8482_0008, "lh $v0, 8($a0)", false, 0, sx(0xffff_8899)),
        (0x9482_0008, "lhu $v0, 8($a0)", false, 0, 0x8899),
        (
            0x8c82_0008,
            "lw $v0, 8($a0)",
            false,
            0,
            0xffff_ffff_8899_aabb,
        ),
        (0x9c82_0008, "lwu $v0, 8($a0)", true, 0, 0x8899_aabb),
        (
            0xdc82_0008,
            "ld $v0, 8($a0)",
            true,
            0,
            0x8899_aabb_ccdd_eeff,
        ),
    ]);
}

#[test]
fn stores_write_their_width_big_endian() {
    check_stores(
        &[
            (
                0xa085_0001,
                "sb $a1, 1($a0)",
                false,
                0x1ff,
                DATA,
                0x00ff_2233,
            ),
            (
                0xa485_0002,
                "sh $a1, 2($a0)",
                false,
                0x1_beef,
                DATA,
                0x0011_beef,
            ),
            (
                0xac85_0004,
                "sw $a1, 4($a0)",
                false,
                sx(0xdead_beef),
                DATA + 4,
                0xdead_beef,
            ),
        ],
        4,
    );
    check_stores(
        &[(0xfc85_0008, "sd $a1, 8($a0)", true, RT64, DATA + 8, RT64)],
        8,
    );
}

#[test]
fn lwl_and_lwr_merge_at_every_alignment() {
    // LWL: bytes from the address to the end of the word go to the top of rt.
    // LWR: bytes from the start of the word to the address go to the bottom.
    check_loads(&[
        (0x8882_0000, "lwl $v0, 0($a0)", false, RT32, 0x0011_2233),
        (0x8882_0001, "lwl $v0, 1($a0)", false, RT32, 0x1122_33a4),
        (0x8882_0002, "lwl $v0, 2($a0)", false, RT32, 0x2233_a3a4),
        (0x8882_0003, "lwl $v0, 3($a0)", false, RT32, 0x33a2_a3a4),
        (0x9882_0000, "lwr $v0, 0($a0)", false, RT32, sx(0xa1a2_a300)),
        (0x9882_0001, "lwr $v0, 1($a0)", false, RT32, sx(0xa1a2_0011)),
        (0x9882_0002, "lwr $v0, 2($a0)", false, RT32, sx(0xa100_1122)),
        (0x9882_0003, "lwr $v0, 3($a0)", false, RT32, 0x0011_2233),
        // 64-bit mode: LWL sign-extends; a partial LWR keeps bits 63..32.
        (0x8882_0001, "lwl $v0, 1($a0)", true, RT64, 0x1122_33a7),
        (
            0x9882_0000,
            "lwr $v0, 0($a0)",
            true,
            RT64,
            0xa0a1_a2a3_a4a5_a600,
        ),
        (0x9882_0003, "lwr $v0, 3($a0)", true, RT64, 0x0011_2233),
    ]);
}

#[test]
fn swl_and_swr_store_parts_at_every_alignment() {
    check_stores(
        &[
            (
                0xa885_0000,
                "swl $a1, 0($a0)",
                false,
                RT32,
                DATA,
                0xa1a2_a3a4,
            ),
            (
                0xa885_0001,
                "swl $a1, 1($a0)",
                false,
                RT32,
                DATA,
                0x00a1_a2a3,
            ),
            (
                0xa885_0002,
                "swl $a1, 2($a0)",
                false,
                RT32,
                DATA,
                0x0011_a1a2,
            ),
            (
                0xa885_0003,
                "swl $a1, 3($a0)",
                false,
                RT32,
                DATA,
                0x0011_22a1,
            ),
            (
                0xb885_0000,
                "swr $a1, 0($a0)",
                false,
                RT32,
                DATA,
                0xa411_2233,
            ),
            (
                0xb885_0001,
                "swr $a1, 1($a0)",
                false,
                RT32,
                DATA,
                0xa3a4_2233,
            ),
            (
                0xb885_0002,
                "swr $a1, 2($a0)",
                false,
                RT32,
                DATA,
                0xa2a3_a433,
            ),
            (
                0xb885_0003,
                "swr $a1, 3($a0)",
                false,
                RT32,
                DATA,
                0xa1a2_a3a4,
            ),
        ],
        4,
    );
}

#[test]
fn ldl_ldr_sdl_sdr_merge_doublewords() {
    check_loads(&[
        (
            0x6882_0000,
            "ldl $v0, 0($a0)",
            true,
            RT64,
            0x0011_2233_4455_6677,
        ),
        (
            0x6882_0003,
            "ldl $v0, 3($a0)",
            true,
            RT64,
            0x3344_5566_77a5_a6a7,
        ),
        (
            0x6882_0007,
            "ldl $v0, 7($a0)",
            true,
            RT64,
            0x77a1_a2a3_a4a5_a6a7,
        ),
        (
            0x6c82_0000,
            "ldr $v0, 0($a0)",
            true,
            RT64,
            0xa0a1_a2a3_a4a5_a600,
        ),
        (
            0x6c82_0004,
            "ldr $v0, 4($a0)",
            true,
            RT64,
            0xa0a1_a200_1122_3344,
        ),
        (
            0x6c82_0007,
            "ldr $v0, 7($a0)",
            true,
            RT64,
            0x0011_2233_4455_6677,
        ),
    ]);
    check_stores(
        &[
            (
                0xb085_0000,
                "sdl $a1, 0($a0)",
                true,
                RT64,
                DATA,
                0xa0a1_a2a3_a4a5_a6a7,
            ),
            (
                0xb085_0003,
                "sdl $a1, 3($a0)",
                true,
                RT64,
                DATA,
                0x0011_22a0_a1a2_a3a4,
            ),
            (
                0xb085_0007,
                "sdl $a1, 7($a0)",
                true,
                RT64,
                DATA,
                0x0011_2233_4455_66a0,
            ),
            (
                0xb485_0000,
                "sdr $a1, 0($a0)",
                true,
                RT64,
                DATA,
                0xa711_2233_4455_6677,
            ),
            (
                0xb485_0004,
                "sdr $a1, 4($a0)",
                true,
                RT64,
                DATA,
                0xa3a4_a5a6_a755_6677,
            ),
            (
                0xb485_0007,
                "sdr $a1, 7($a0)",
                true,
                RT64,
                DATA,
                0xa0a1_a2a3_a4a5_a6a7,
            ),
        ],
        8,
    );
}

/// Runs one instruction with $a0 = base and returns its exception.
fn fault_of(mode64: bool, word: u32, base: u64) -> Exception {
    let (mut cpu, mut mem) = data_machine(mode64, word);
    cpu.gpr[A0] = base;
    cpu.gpr[V0] = 0x77;
    let e = steps(&mut cpu, &mut mem, 1).expect("an exception");
    assert_eq!(cpu.gpr[V0], 0x77, "the faulting load wrote nothing");
    assert_eq!(
        (cpu.cp0.epc, cpu.cp0.bad_vaddr),
        (CODE, e.bad_vaddr.unwrap_or(0)),
        "CP0 latched"
    );
    e
}

#[test]
fn misaligned_and_kernel_addresses_raise_address_errors() {
    // (word, assembly, mode64, base, code, BadVAddr)
    let rows: &[(u32, &str, bool, u64, ExcCode, u32)] = &[
        (
            0x8c82_0002,
            "lw $v0, 2($a0)",
            false,
            DATA as u64,
            ExcCode::AdEL,
            DATA + 2,
        ),
        (
            0xac85_0002,
            "sw $a1, 2($a0)",
            false,
            DATA as u64,
            ExcCode::AdES,
            DATA + 2,
        ),
        (
            0x8482_0001,
            "lh $v0, 1($a0)",
            false,
            DATA as u64,
            ExcCode::AdEL,
            DATA + 1,
        ),
        (
            0xa485_0001,
            "sh $a1, 1($a0)",
            false,
            DATA as u64,
            ExcCode::AdES,
            DATA + 1,
        ),
        (
            0xdc82_0004,
            "ld $v0, 4($a0)",
            true,
            DATA as u64,
            ExcCode::AdEL,
            DATA + 4,
        ),
        (
            0xfc85_0004,
            "sd $a1, 4($a0)",
            true,
            DATA as u64,
            ExcCode::AdES,
            DATA + 4,
        ),
        // 0x80000004 - 4 = 0x80000000: kseg0, not user space.
        (
            0x8c82_fffc,
            "lw $v0, -4($a0)",
            false,
            sx(0x8000_0004),
            ExcCode::AdEL,
            0x8000_0000,
        ),
        (
            0xac85_0004,
            "sw $a1, 4($a0)",
            false,
            sx(0xffff_fff0),
            ExcCode::AdES,
            0xffff_fff4,
        ),
        // 64-bit mode: 0x1_0000_0008 is not a sign-extended 32-bit address.
        (
            0x8c82_0008,
            "lw $v0, 8($a0)",
            true,
            0x1_0000_0000,
            ExcCode::AdEL,
            8,
        ),
    ];
    for &(word, asm, mode64, base, code, bad) in rows {
        assert_eq!(disassemble(word, CODE), asm);
        let e = fault_of(mode64, word, base);
        assert_eq!((e.code, e.bad_vaddr), (code, Some(bad)), "{asm}");
    }
}

#[test]
fn memory_faults_map_to_tlb_and_modified_exceptions() {
    // Unmapped -> TLBL/TLBS; a store to a read-only page -> Mod.
    let rows: &[(u32, &str, u64, ExcCode, u32)] = &[
        (
            0x8c82_0008,
            "lw $v0, 8($a0)",
            0x3000_0000,
            ExcCode::TlbL,
            0x3000_0008,
        ),
        (
            0xac85_0004,
            "sw $a1, 4($a0)",
            0x3000_0000,
            ExcCode::TlbS,
            0x3000_0004,
        ),
        (
            0xac85_0004,
            "sw $a1, 4($a0)",
            RODATA as u64,
            ExcCode::Mod,
            RODATA + 4,
        ),
        (
            0xa885_0001,
            "swl $a1, 1($a0)",
            RODATA as u64,
            ExcCode::Mod,
            RODATA + 1,
        ),
    ];
    for &(word, asm, base, code, bad) in rows {
        assert_eq!(disassemble(word, CODE), asm);
        let e = fault_of(false, word, base);
        assert_eq!((e.code, e.bad_vaddr), (code, Some(bad)), "{asm}");
    }
    // A load from a read-only page is fine.
    let (mut cpu, mut mem) = data_machine(false, 0x8c82_0008);
    mem.poke32(RODATA + 8, 1234);
    cpu.gpr[A0] = RODATA as u64;
    assert_eq!(steps(&mut cpu, &mut mem, 1), None);
    assert_eq!(cpu.gpr[V0], 1234);
}

#[test]
fn instruction_fetch_faults() {
    // (pc, code): non-executable page, unmapped page, misaligned, kernel.
    let rows: &[(u32, ExcCode)] = &[
        (DATA, ExcCode::TlbL),
        (0x3000_0000, ExcCode::TlbL),
        (CODE + 2, ExcCode::AdEL),
        (0x8000_0000, ExcCode::AdEL),
    ];
    for &(pc, code) in rows {
        let (mut cpu, mut mem) = machine(false, &[]);
        cpu.set_pc(pc);
        let e = steps(&mut cpu, &mut mem, 1).expect("fetch fault");
        assert_eq!(
            (e.code, e.epc, e.bad_vaddr, cpu.pc()),
            (code, pc, Some(pc), pc),
            "fetch at {pc:#x}"
        );
    }
}

const LL: u32 = 0xc082_0000; // ll $v0, 0($a0)
const SC: u32 = 0xe085_0000; // sc $a1, 0($a0)
const SYSCALL: u32 = test_support::mips::syscall();

#[test]
fn sc_succeeds_after_ll_and_stores() {
    assert_eq!(disassemble(LL, 0), "ll $v0, 0($a0)");
    assert_eq!(disassemble(SC, 0), "sc $a1, 0($a0)");
    let (mut cpu, mut mem) = data_machine(false, LL);
    mem.poke32(CODE + 4, SC);
    cpu.gpr[A1] = 99;
    assert_eq!(steps(&mut cpu, &mut mem, 2), None);
    assert_eq!(
        (cpu.gpr[V0], cpu.gpr[A1], mem.peek32(DATA)),
        (0x0011_2233, 1, 99)
    );
    assert!(!cpu.ll_bit(), "SC consumes LLbit");
}

#[test]
fn sc_fails_without_ll_and_stores_nothing() {
    let (mut cpu, mut mem) = data_machine(false, SC);
    cpu.gpr[A1] = 99;
    assert_eq!(steps(&mut cpu, &mut mem, 1), None);
    assert_eq!((cpu.gpr[A1], mem.peek32(DATA)), (0, 0x0011_2233));
}

#[test]
fn sc_fails_when_an_exception_intervened_between_ll_and_sc() {
    // ll; syscall (handled by the embedder); sc
    let (mut cpu, mut mem) = data_machine(false, LL);
    mem.poke_words(CODE + 4, &[SYSCALL, SC]);
    cpu.gpr[A1] = 99;
    assert_eq!(steps(&mut cpu, &mut mem, 1), None);
    assert!(cpu.ll_bit());
    assert_eq!(
        steps(&mut cpu, &mut mem, 1).map(|e| e.code),
        Some(ExcCode::Sys)
    );
    cpu.complete_exception_instruction();
    assert_eq!(steps(&mut cpu, &mut mem, 1), None);
    assert_eq!((cpu.gpr[A1], mem.peek32(DATA)), (0, 0x0011_2233));
}
