//! Pages a block has already found in the soft TLB, by the base register
//! of the load or store that found them: a later access through the same
//! register usually lands on the same page (a stack frame through $sp, a
//! structure's fields through its pointer, the GOT through $gp). On a
//! 2,000-line IDO `cc -c -O2`, 117 M of the 297 M loads and stores ran
//! after an access through the same unchanged register in the same block
//! (106 M after one of their own kind: a load after a load, a store after
//! a store), and 99.2% of those were on its page.
//!
//! The first access through a register looks its page up (it is the
//! register's anchor, one for loads and one for stores). A later one of the
//! same kind (a follower) needs no lookup when its alignment follows from
//! the anchor's (the anchor's size is a multiple of its own, and so is
//! their distance): it is on the anchor's page when the anchor's offset in
//! its page plus the distance stays in the page, one comparison with a
//! constant, and it uses the page's host address. On another page it makes
//! the full lookup (the entry's index, its tag and its host address,
//! loaded), on a cold path, and goes on as any access does. A follower
//! whose alignment does not follow makes the full lookup and becomes the
//! register's anchor.
//!
//! What was found holds while the register keeps its value and nothing
//! changes the TLB: writing the register forgets its pages (a follower's
//! address is the anchor's plus a constant only while the register is the
//! same), and a call of `execute`, which may fill or empty the TLB and
//! write any register, forgets every page.

use cranelift_codegen::ir::Value;

use crate::code_cache::PAGE_SHIFT;
use crate::insn::Reg;

/// What the soft TLB held for an access through a register (the
/// anchor): its page's host addend, the access's address, offset and size
/// (an aligned access proves the register's low bits), and, once a later
/// access asks, the address's offset in the page.
#[derive(Clone, Copy)]
pub(super) struct Seen {
    pub addend: Value,
    pub ea: Value,
    pub off: i16,
    pub bytes: u32,
    pub in_page: Option<Value>,
}

impl Seen {
    /// How far an access of `bytes` at `off` through the same register is
    /// from the anchor, when it is aligned wherever the register points
    /// (the anchor's alignment covers it) and could be on the same page.
    pub fn distance(&self, off: i16, bytes: u32) -> Option<i64> {
        let d = off as i64 - self.off as i64;
        let aligned = self.bytes.is_multiple_of(bytes) && d.rem_euclid(bytes as i64) == 0;
        (aligned && d.abs() < 1 << PAGE_SHIFT).then_some(d)
    }
}

/// An access through the view of guest memory whose address's alignment
/// was checked (any address a register makes lies in the view's
/// reservation, see `view`): its offset and size, and the register's
/// value it used. A later access through the same register, unchanged,
/// needs no check where its alignment follows (see [`Checked::covers`]),
/// and uses the same value.
#[derive(Clone, Copy)]
pub(super) struct Checked {
    pub off: i16,
    pub bytes: u32,
    pub reg: Value,
}

impl Checked {
    /// Whether an access of `bytes` at `off` through the same register is
    /// aligned wherever the register points.
    pub fn covers(&self, off: i16, bytes: u32) -> bool {
        let d = off as i64 - self.off as i64;
        self.bytes.is_multiple_of(bytes) && d.rem_euclid(bytes as i64) == 0
    }
}

/// The page last found through each GPR since it was written, in the
/// read table and in the write table (a page may be in one and not the
/// other), and the access through the view that checked it.
#[derive(Clone, Copy)]
pub(super) struct Pages {
    seen: [[Option<Seen>; 2]; 32],
    checked: [Option<Checked>; 32],
}

impl Pages {
    pub const NONE: Pages = Pages {
        seen: [[None; 2]; 32],
        checked: [None; 32],
    };

    pub fn checked(&self, base: Reg) -> Option<Checked> {
        self.checked[base.idx()]
    }

    pub fn note_checked(&mut self, base: Reg, checked: Checked) {
        self.checked[base.idx()] = Some(checked);
    }

    pub fn get(&self, base: Reg, write: bool) -> Option<Seen> {
        self.seen[base.idx()][write as usize]
    }

    pub fn note(&mut self, base: Reg, write: bool, seen: Seen) {
        self.seen[base.idx()][write as usize] = Some(seen);
    }

    /// Register `c` of the register cache was written (HI and LO, past
    /// the GPRs, hold no address).
    pub fn written(&mut self, c: usize) {
        if let Some(s) = self.seen.get_mut(c) {
            *s = [None; 2];
            self.checked[c] = None;
        }
    }
}
