//! `irix-emu report`: being written.
use super::{args::ReportArgs, Failure};
pub fn report(_a: &ReportArgs) -> Result<u8, Failure> { Err(Failure::new(super::status::EMULATOR_FAILURE, "report: not yet available")) }
