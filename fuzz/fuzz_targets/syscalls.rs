//! cargo fuzz run syscalls: the body is irix_emu::fuzzing::syscalls (also
//! run by tests/all/fuzz_smoke.rs on stable), in a scratch root per input.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let root = std::env::temp_dir().join(format!("irix-emu-fuzz-{}", std::process::id()));
    if std::fs::create_dir_all(&root).is_ok() {
        irix_emu::fuzzing::syscalls(data, &root);
        let _ = std::fs::remove_dir_all(&root);
    }
});
