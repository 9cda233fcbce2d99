//! The Rust functions compiled code calls: memory accesses through the
//! embedder's [`Memory`], and any instruction the translator does not
//! inline, run by the interpreter's own `Cpu::execute`.
//!
//! Contents: [`Helpers`] (their addresses for one `Memory` type) and the
//! `extern "C"` functions themselves.
//!
//! Compiled code knows nothing of the embedder's memory type: it receives
//! the memory as an untyped pointer and calls these functions, which are
//! instantiated for that type, through the addresses in [`Helpers`]. Each
//! returns a status from `super::status` (or, for the narrow loads, the
//! value with [`LOAD_FAILED`] for a refused access).

use std::ffi::c_void;

use super::status;
use crate::block::Block;
use crate::cpu::Cpu;
use crate::decode::Op;
use crate::pipeline::Flow;
use crate::Memory;

/// A narrow load's result when the embedder refused the access (a value
/// of at most 32 bits never has bit 63 set).
pub(super) const LOAD_FAILED: u64 = 1 << 63;

/// The helpers' addresses, for one `Memory` type. Compiled code reads them
/// from the `Cpu` it runs on (see [`JitLinks`]), never from constants, so
/// that its bytes hold no address of this process.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub(crate) struct Helpers {
    pub exec: usize,
    pub load8: usize,
    pub load16: usize,
    pub load32: usize,
    pub load64: usize,
    pub store8: usize,
    pub store16: usize,
    pub store32: usize,
    pub store64: usize,
}

/// Everything compiled code reaches by address, held in the `Cpu` (field
/// `jit_links`) at a fixed offset from the pointer it is entered with: the
/// helpers of the run and the jump table. This is what makes compiled code
/// relocatable, and so fit to be kept on disk and run by another process.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(crate) struct JitLinks {
    pub helpers: Helpers,
    /// The jump table's address (see `super::JumpEntry`).
    pub jump: usize,
}

impl Helpers {
    /// The helpers for memory of type `M`.
    pub fn of<M: Memory>() -> Helpers {
        Helpers {
            exec: exec::<M> as *const () as usize,
            load8: load8::<M> as *const () as usize,
            load16: load16::<M> as *const () as usize,
            load32: load32::<M> as *const () as usize,
            load64: load64::<M> as *const () as usize,
            store8: store8::<M> as *const () as usize,
            store16: store16::<M> as *const () as usize,
            store32: store32::<M> as *const () as usize,
            store64: store64::<M> as *const () as usize,
        }
    }
}

/// Runs instruction `i` of `block` (at `pc`) exactly as the interpreter
/// does. A taken branch leaves its target in `Cpu::jit_exit`.
///
/// # Safety
/// `cpu` and `mem` point to the running CPU and its memory of type `M`,
/// with no other reference to them in use; `block` points to a live
/// `Block` with more than `i` instructions.
unsafe extern "C" fn exec<M: Memory>(
    cpu: *mut Cpu,
    mem: *mut c_void,
    block: *const Block,
    i: u32,
    pc: u32,
) -> u32 {
    let cpu = &mut *cpu;
    let op: Op = (*block).insns[i as usize].op;
    match cpu.execute(op, pc, &mut *mem.cast::<M>()) {
        Ok(Flow::Next | Flow::NoBranch) => status::NEXT,
        Ok(Flow::Branch(target)) => {
            cpu.jit_exit.target = target;
            status::TAKEN
        }
        Ok(Flow::Skip) => status::SKIP,
        Ok(Flow::CodeWritten) => status::CODE_WRITTEN,
        Err(_) => status::FAULT,
    }
}

macro_rules! narrow_load {
    ($name:ident, $method:ident) => {
        /// The zero-extended value at `addr`, or [`LOAD_FAILED`]; enters
        /// the page in the soft TLB when it may be read directly.
        ///
        /// # Safety
        /// As for `exec`.
        unsafe extern "C" fn $name<M: Memory>(cpu: *mut Cpu, mem: *mut c_void, addr: u32) -> u64 {
            let mem = &mut *mem.cast::<M>();
            match mem.$method(addr) {
                Ok(v) => {
                    (*cpu).tlb.fill_read(mem, addr);
                    v as u64
                }
                Err(_) => LOAD_FAILED,
            }
        }
    };
}
narrow_load!(load8, load8);
narrow_load!(load16, load16);
narrow_load!(load32, load32);

/// Loads the doubleword at `addr` into `Cpu::jit_exit.value`.
///
/// # Safety
/// As for `exec`.
unsafe extern "C" fn load64<M: Memory>(cpu: *mut Cpu, mem: *mut c_void, addr: u32) -> u32 {
    let mem = &mut *mem.cast::<M>();
    match mem.load64(addr) {
        Ok(v) => {
            (*cpu).jit_exit.value = v;
            (*cpu).tlb.fill_read(mem, addr);
            status::NEXT
        }
        Err(_) => status::FAULT,
    }
}

macro_rules! store {
    ($name:ident, $method:ident, $ty:ty) => {
        /// Stores the low bits of `value` at `addr`; tells whether the
        /// store hit decoded code (as the interpreter's stores do), and
        /// enters any other page in the soft TLB when it may be written
        /// directly.
        ///
        /// # Safety
        /// As for `exec`.
        unsafe extern "C" fn $name<M: Memory>(
            cpu: *mut Cpu,
            mem: *mut c_void,
            addr: u32,
            value: u64,
        ) -> u32 {
            let mem = &mut *mem.cast::<M>();
            match mem.$method(addr, value as $ty) {
                Ok(()) => match (*cpu).stored(addr) {
                    Flow::CodeWritten => status::CODE_WRITTEN,
                    _ => {
                        (*cpu).tlb.fill_write(mem, addr);
                        status::NEXT
                    }
                },
                Err(_) => status::FAULT,
            }
        }
    };
}
store!(store8, store8, u8);
store!(store16, store16, u16);
store!(store32, store32, u32);
store!(store64, store64, u64);
