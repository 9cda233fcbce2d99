//! The kernel's integration tests: one test binary, one module per former
//! test file (`cargo test -p irix-kernel --test all NAME::` runs one; a
//! new test file is a module listed here). Shared: `common`.

mod common;

mod abi_tables;
mod profiling_aix;
mod profiling_darwin;
mod profiling_hpux;
mod profiling_irix;
mod profiling_irix_profil;
mod profiling_mapping;
mod profiling_solaris;
mod sproc_stub;
