//! The code page a sproc child returns into (image.rs, `SPROC_EXIT_STUB`):
//! it must pass the entry function's return value to exit, as a process
//! whose main returned does.

use irix_kernel::image::{install_sproc_stub, SPROC_EXIT_STUB};
use irix_kernel::memory::{AddressSpace, Budget};
use test_support::mips::{addiu, move_, syscall, A0, V0, ZERO};

#[test]
fn the_sproc_exit_stub_moves_the_return_value_to_a0_and_calls_exit() {
    let mut mem = AddressSpace::new(Budget::unlimited());
    install_sproc_stub(&mut mem).expect("maps the stub");
    let words: Vec<u32> = (0..3)
        .map(|i| mem.read_u32(SPROC_EXIT_STUB + 4 * i).expect("stub word"))
        .collect();
    // exit is IRIX system call 1001 (docs/abi.md, "System calls (o32)").
    assert_eq!(words, [move_(A0, V0), addiu(V0, ZERO, 1001), syscall()]);
}
