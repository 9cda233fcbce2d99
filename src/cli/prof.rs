//! `irix-emu prof`: being written.
use super::{args::ProfArgs, Failure};
pub fn prof(_a: &ProfArgs) -> Result<u8, Failure> { Err(Failure::new(super::status::EMULATOR_FAILURE, "prof: not yet available")) }
