//! One test program: many independent sequences ("blocks") in one image,
//! so one QEMU process checks thousands of them.
//!
//! Contents: the address map ([`TEXT_BASE`], [`DATA_BASE`], the per-block
//! tables), [`Block`], [`Program::build`] and the block's three parts:
//! prologue (load the initial state), body (from `gen`), dump (store the
//! final state), then the closing write(2) and exit(2).
//!
//! Data layout (all in the one RW segment at `DATA_BASE`; W = 4 under o32,
//! 8 under n32; a state table has 34 slots: GPR n in slot n, HI in 32, LO in
//! 33; slots 0 and 28 stay unused):
//! ```text
//! init tables  n x 34 x W   initial states, read by the prologues
//! out tables   n x 34 x W   final states, written by the dumps  \ written to
//! scratch      n x 64       each block's load/store area        / stdout
//! ```

use super::gen::{self, Abi, Rng, BASE, SCRATCH_BYTES};
use test_support::mips::{funct as f, itype, li32, opcode as op, special, syscall, Gpr, ZERO};

/// Where the code is loaded (the usual MIPS static-executable text base).
pub const TEXT_BASE: u32 = 0x0040_0000;
/// Where the data segment is loaded.
pub const DATA_BASE: u32 = 0x1000_0000;
/// Slots in a state table.
pub const SLOTS: usize = 34;
pub const HI_SLOT: usize = 32;
pub const LO_SLOT: usize = 33;

/// Linux system call numbers (arch/mips/kernel/syscalls/syscall_o32.tbl
/// and syscall_n32.tbl: o32 numbers start at 4000, n32 at 6000).
const O32_WRITE: u16 = 4004;
const O32_EXIT: u16 = 4001;
const N32_WRITE: u16 = 6001;
const N32_EXIT: u16 = 6058;

/// One random sequence and where it lives.
pub struct Block {
    /// Initial GPRs (slots 1..31), HI and LO.
    pub init: [u64; SLOTS],
    /// Address of the body's first instruction.
    pub body_pc: u32,
    /// The body's instruction words.
    pub body: Vec<u32>,
}

pub struct Program {
    pub abi: Abi,
    /// The code, loaded at `TEXT_BASE`.
    pub text: Vec<u32>,
    /// The data segment, loaded at `DATA_BASE`.
    pub data: Vec<u8>,
    pub blocks: Vec<Block>,
    /// Start of the bytes the program writes to stdout (the out tables
    /// and the scratch areas).
    pub dump_addr: u32,
    pub dump_len: u32,
}

/// The registers a block loads and dumps: every GPR but $zero and BASE.
fn state_regs() -> impl Iterator<Item = Gpr> {
    (1..32u32).map(Gpr::new).filter(|&r| r != BASE)
}

impl Program {
    /// Bytes per state slot.
    pub fn slot_bytes(&self) -> usize {
        slot_bytes(self.abi)
    }

    /// Offset (in the dump) of block `i`'s out table.
    pub fn out_offset(&self, i: usize) -> usize {
        i * SLOTS * self.slot_bytes()
    }

    /// Offset (in the dump) of block `i`'s scratch area.
    pub fn scratch_offset(&self, i: usize) -> usize {
        self.blocks.len() * SLOTS * self.slot_bytes() + i * SCRATCH_BYTES as usize
    }

    /// `count` blocks of 20..60 random instructions each, from `seed`.
    pub fn build(abi: Abi, seed: u64, count: usize) -> Program {
        let mut rng = Rng::new(seed);
        let w = slot_bytes(abi);
        let table = SLOTS * w;
        let init_base = DATA_BASE;
        let out_base = DATA_BASE + (count * table) as u32;
        let scratch_base = out_base + (count * table) as u32;
        let dump_len = (count * table) as u32 + count as u32 * SCRATCH_BYTES;
        let mut data = vec![0u8; 2 * count * table + count * SCRATCH_BYTES as usize];
        let mut text = Vec::new();
        let mut blocks = Vec::with_capacity(count);

        let (load, store) = match abi {
            Abi::O32 => (op::LW, op::SW),
            Abi::N32 => (op::LD, op::SD),
        };
        let at = Gpr::new(1);
        let slot = |n: usize| (n * w) as u16;
        for i in 0..count {
            let init_addr = init_base + (i * table) as u32;
            let mut init = [0u64; SLOTS];
            for r in state_regs() {
                init[r.idx()] = gen::initial_value(&mut rng, abi);
            }
            init[HI_SLOT] = gen::initial_value(&mut rng, abi);
            init[LO_SLOT] = gen::initial_value(&mut rng, abi);
            let at_data = (init_addr - DATA_BASE) as usize;
            for (n, v) in init.iter().enumerate() {
                let bytes = v.to_be_bytes();
                data[at_data + n * w..at_data + (n + 1) * w].copy_from_slice(&bytes[8 - w..]);
            }
            let scratch = (scratch_base - DATA_BASE) as usize + i * SCRATCH_BYTES as usize;
            for b in &mut data[scratch..scratch + SCRATCH_BYTES as usize] {
                *b = rng.next() as u8;
            }

            // Prologue: HI, LO, then every register from the init table.
            text.extend(li32(BASE, init_addr));
            text.push(itype(load, BASE, at, slot(HI_SLOT)));
            text.push(special(f::MTHI, at, ZERO, ZERO, 0));
            text.push(itype(load, BASE, at, slot(LO_SLOT)));
            text.push(special(f::MTLO, at, ZERO, ZERO, 0));
            for r in state_regs() {
                text.push(itype(load, BASE, r, slot(r.idx())));
            }
            text.extend(li32(
                BASE,
                scratch_base + i as u32 * SCRATCH_BYTES + SCRATCH_BYTES / 2,
            ));

            let body_pc = TEXT_BASE + 4 * text.len() as u32;
            let len = 20 + rng.below(41) as usize;
            let body = gen::body(&mut rng, abi, body_pc, &init, len);
            text.extend_from_slice(&body);

            // Dump: every register, then HI and LO through $at.
            text.extend(li32(BASE, out_base + (i * table) as u32));
            for r in state_regs() {
                text.push(itype(store, BASE, r, slot(r.idx())));
            }
            text.push(special(f::MFHI, ZERO, ZERO, at, 0));
            text.push(itype(store, BASE, at, slot(HI_SLOT)));
            text.push(special(f::MFLO, ZERO, ZERO, at, 0));
            text.push(itype(store, BASE, at, slot(LO_SLOT)));
            blocks.push(Block {
                init,
                body_pc,
                body,
            });
        }

        // write(1, out tables and scratch, len); exit(0).
        let (write, exit) = match abi {
            Abi::O32 => (O32_WRITE, O32_EXIT),
            Abi::N32 => (N32_WRITE, N32_EXIT),
        };
        let (v0, a0, a1, a2) = (Gpr::new(2), Gpr::new(4), Gpr::new(5), Gpr::new(6));
        text.push(itype(op::ADDIU, ZERO, v0, write));
        text.push(itype(op::ADDIU, ZERO, a0, 1));
        text.extend(li32(a1, out_base));
        text.extend(li32(a2, dump_len));
        text.push(syscall());
        text.push(itype(op::ADDIU, ZERO, v0, exit));
        text.push(itype(op::ADDIU, ZERO, a0, 0));
        text.push(syscall());

        Program {
            abi,
            text,
            data,
            blocks,
            dump_addr: out_base,
            dump_len,
        }
    }

    /// The system call number of write(2) for this ABI (checked when the
    /// interpreter stops at the closing syscall()).
    pub fn write_syscall(&self) -> u64 {
        match self.abi {
            Abi::O32 => O32_WRITE as u64,
            Abi::N32 => N32_WRITE as u64,
        }
    }

    /// Index of the block whose code contains `pc`, if any.
    pub fn block_at(&self, pc: u32) -> Option<usize> {
        let i = self.blocks.partition_point(|b| b.body_pc <= pc);
        i.checked_sub(1)
    }
}

fn slot_bytes(abi: Abi) -> usize {
    match abi {
        Abi::O32 => 4,
        Abi::N32 => 8,
    }
}
