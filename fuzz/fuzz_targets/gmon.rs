//! cargo fuzz run gmon: the body is irix_emu::fuzzing::gmon (also run by
//! tests/all/fuzz_smoke.rs on stable).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| irix_emu::fuzzing::gmon(data));
