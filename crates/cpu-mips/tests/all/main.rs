//! The CPU's integration tests: one test binary, one module per concern
//! (`cargo test -p cpu-mips --test all NAME::` runs one). Shared: `testmem`
//! (a page-mapped guest memory and a machine around hand-encoded code) and
//! `fpu_harness` (the FPU tables' runner).

mod fpu_harness;
mod testmem;

mod alu;
mod branch;
mod code_cache;
mod disasm;
mod encodings;
mod fpu_arith;
mod fpu_convert_compare;
mod fpu_decode_registers;
mod fpu_hostfloat;
mod fpu_props;
mod fpu_qemu_diff;
mod loadstore;
mod lockstep;
mod props;
mod qemu_diff;
mod regions;
mod timing;
mod transfers;
mod view;
