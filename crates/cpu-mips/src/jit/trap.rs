//! Leaving compiled code at a host fault: the accesses compiled code makes
//! through the fixed-offset view of guest memory (see `view`) are plain
//! host loads and stores, and a page the view does not hold faults. The
//! fault handler turns that fault into the early end the soft TLB's miss
//! would have made at the same instruction.
//!
//! Contents: [`Site`] (one access that may fault, and the end it makes),
//! the sites' table kept after a function's code (`append_sites`), the
//! [`TrapMap`] of installed functions, the entry trampoline ([`call`]) and
//! the handler.
//!
//! A compiled function that accesses the view carries after its machine
//! code a table of its sites, sorted by code offset: the offset of the
//! host instruction that accesses guest memory (Cranelift reports it, by
//! the trap code the access was given), and the end's word and state.
//! Compiled code writes every register to the `Cpu` as it computes it, and
//! a block's entry clock is in the `Cpu` before its first access, so an
//! access that has not happened yet leaves exactly the state of its soft
//! TLB miss: what the site adds is only what that miss would have stored
//! (the PC, the branch target, $sp at a transfer), and the access's guest
//! address, which is the fault's host address less the view's base. The
//! translator gives an access a site only where that holds (see
//! `Emitter::view_site`).
//!
//! The run loop enters compiled code through [`call`], an assembly
//! trampoline that saves the host's callee-saved registers and its stack
//! pointer first. The handler, finding the fault's host PC at a site of an
//! installed function and its address in the view of the thread's current
//! entry, resumes the thread at the trampoline's exit instead, with the
//! site's word as the result: compiled code keeps nothing on its stack
//! that needs to be undone. Any other fault goes to the handler that was
//! installed before (Rust's stack overflow report, or the default action).
//!
//! Only x86-64 Linux has the trampoline and the handler; elsewhere no view
//! is made and compiled code keeps to the soft TLB.

use std::cell::Cell;
use std::collections::BTreeMap;

/// One access through the view that may fault, and the end it makes when
/// it does (laid out as stored after the function's code).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub(crate) struct Site {
    /// Offset of the host instruction from the function's first byte.
    pub offset: u32,
    /// The PC the end leaves: the function's first address.
    pub pc: u32,
    /// The branch target the end leaves (see `Emitter::exit_target`).
    pub target: u32,
    /// [`Site::SP`]: $sp's low word is to be left as $sp at the block's
    /// transfer (it was not written since); [`Site::TAKEN_AT_RUN`];
    /// [`Site::TARGET_AT_RUN`].
    pub flags: u32,
    /// The function's result (see `status`): a soft TLB miss at the
    /// access's instruction.
    pub word: u64,
}

impl Site {
    pub const SP: u32 = 1;
    /// The access is in the delay slot of a branch whose outcome only the
    /// run knows: the end's word is to say taken when
    /// `Cpu::jit_exit.taken` (which the code wrote before the access) is 1.
    pub const TAKEN_AT_RUN: u32 = 2;
    /// The access is in the delay slot of a jump through a register: the
    /// target the end leaves is that register's (which the code wrote to
    /// `Cpu::jit_exit.jump` before the access), folded as the code folds
    /// it (`Emitter::fold`), not `target`.
    pub const TARGET_AT_RUN: u32 = 4;
    const BYTES: usize = size_of::<Site>();

    fn to_bytes(self) -> [u8; Site::BYTES] {
        let mut out = [0; Site::BYTES];
        out[0..4].copy_from_slice(&self.offset.to_ne_bytes());
        out[4..8].copy_from_slice(&self.pc.to_ne_bytes());
        out[8..12].copy_from_slice(&self.target.to_ne_bytes());
        out[12..16].copy_from_slice(&self.flags.to_ne_bytes());
        out[16..24].copy_from_slice(&self.word.to_ne_bytes());
        out
    }
}

/// Appends to `code` (a function's machine code) its sites' table:
/// padding to 8 bytes, the sites sorted by offset, their number and the
/// code's length (4 bytes each). The function's installed bytes then end
/// with the table, which the handler reads in place (see `sites_of`).
pub(crate) fn append_sites(code: &mut Vec<u8>, sites: &mut [Site]) {
    let len = code.len() as u32;
    sites.sort_by_key(|s| s.offset);
    code.resize(code.len().next_multiple_of(8), 0);
    for s in sites.iter() {
        code.extend_from_slice(&s.to_bytes());
    }
    code.extend_from_slice(&(sites.len() as u32).to_ne_bytes());
    code.extend_from_slice(&len.to_ne_bytes());
}

/// The sites of the function whose installed bytes (code and table) are
/// the `len` bytes at `start`, if that table is well formed.
///
/// # Safety
/// `start..start + len` must be readable (installed code memory).
unsafe fn sites_of<'a>(start: usize, len: usize) -> Option<&'a [Site]> {
    if !start.is_multiple_of(8) {
        return None;
    }
    let code = code_len(std::slice::from_raw_parts(start as *const u8, len))?;
    let first = start + code.next_multiple_of(8);
    let n = (len - 8 - code.next_multiple_of(8)) / Site::BYTES;
    Some(std::slice::from_raw_parts(first as *const Site, n))
}

/// The length of the machine code of a function's installed bytes, which
/// end with its sites' table, or `None` if they do not end with a
/// well-formed one.
pub(crate) fn code_len(blob: &[u8]) -> Option<usize> {
    let n = blob.len();
    if n < 8 || !n.is_multiple_of(8) {
        return None;
    }
    let word = |at: usize| u32::from_ne_bytes(blob[at..at + 4].try_into().unwrap()) as usize;
    let (sites, code) = (word(n - 8), word(n - 4));
    (code.next_multiple_of(8) + sites * Site::BYTES + 8 == n).then_some(code)
}

/// The installed functions that have sites, by the address of their
/// first byte, with the length of their installed bytes.
#[derive(Default)]
pub(crate) struct TrapMap {
    functions: BTreeMap<usize, usize>,
}

impl TrapMap {
    /// Notes the function installed at `start` (`len` bytes, ending with
    /// its sites' table), if it has any site.
    pub fn insert(&mut self, start: usize, blob: &[u8]) {
        if code_len(blob).is_some_and(|c| c.next_multiple_of(8) + 8 < blob.len()) {
            self.functions.insert(start, blob.len());
        }
    }

    /// The site at host address `pc`, if it is one.
    fn find(&self, pc: usize) -> Option<Site> {
        let (&start, &len) = self.functions.range(..=pc).next_back()?;
        if pc >= start + len {
            return None;
        }
        // SAFETY: an installed function's bytes stay mapped while the map
        // names them (the map goes with the code memory).
        let sites = unsafe { sites_of(start, len)? };
        let offset = (pc - start) as u32;
        let i = sites.binary_search_by_key(&offset, |s| s.offset).ok()?;
        Some(sites[i])
    }
}

/// What the handler needs of the current entry into compiled code, and
/// what it leaves there: set by the run loop around [`call`].
#[repr(C)]
pub(crate) struct Landing {
    /// The trampoline's stack pointer, saved by it before the call.
    saved_sp: usize,
    /// The view's guest address 0, and its reservation (guard pages
    /// included, see `view`).
    base: usize,
    reserved: (usize, usize),
    map: *const TrapMap,
    /// The site that faulted, and the guest address it accessed.
    pub hit: Option<(Site, u32)>,
}

impl Landing {
    /// The host address of the view's guest address 0.
    pub fn view_base(&self) -> usize {
        self.base
    }

    pub fn new(base: usize, reserved: (usize, usize), map: &TrapMap) -> Landing {
        Landing {
            saved_sp: 0,
            base,
            reserved,
            map,
            hit: None,
        }
    }
}

thread_local! {
    /// The entry under way on this thread (null outside compiled code).
    /// Constant-initialised and without a destructor, so the handler may
    /// read it.
    static ACTIVE: Cell<*mut Landing> = const { Cell::new(std::ptr::null_mut()) };
}

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
mod host {
    use super::{Landing, ACTIVE};
    use std::sync::OnceLock;

    // The entry: `irix_emu_jit_call(enter, cpu, code, saved_sp) -> word`
    // calls `enter(cpu, code)` (the System V convention) after saving the
    // callee-saved registers and, at `saved_sp`, its stack pointer; the
    // handler resumes a faulting thread at `irix_emu_jit_land` with that
    // stack pointer and the result in RAX. (Six pushes and eight bytes
    // keep the stack 16-byte aligned at the call.)
    std::arch::global_asm!(
        ".text",
        ".p2align 4",
        ".globl irix_emu_jit_call",
        ".hidden irix_emu_jit_call",
        "irix_emu_jit_call:",
        "push rbp",
        "mov rbp, rsp",
        "push rbx",
        "push r12",
        "push r13",
        "push r14",
        "push r15",
        "sub rsp, 8",
        "mov [rcx], rsp",
        "mov rax, rdi",
        "mov rdi, rsi",
        "mov rsi, rdx",
        "call rax",
        ".globl irix_emu_jit_land",
        ".hidden irix_emu_jit_land",
        "irix_emu_jit_land:",
        "add rsp, 8",
        "pop r15",
        "pop r14",
        "pop r13",
        "pop r12",
        "pop rbx",
        "pop rbp",
        "ret",
    );

    extern "C" {
        fn irix_emu_jit_call(enter: usize, cpu: usize, code: usize, saved_sp: *mut usize) -> u64;
        fn irix_emu_jit_land();
    }

    /// The handlers that were installed before ours (SIGSEGV, SIGBUS): a
    /// fault that is not compiled code's goes to them. Process-wide, as
    /// signal dispositions are.
    static PREVIOUS: OnceLock<Option<[libc::sigaction; 2]>> = OnceLock::new();

    /// Installs the handler (once per process); false if the host refused.
    pub fn install() -> bool {
        PREVIOUS
            .get_or_init(|| unsafe {
                let mut old: [libc::sigaction; 2] = std::mem::zeroed();
                let mut sa: libc::sigaction = std::mem::zeroed();
                sa.sa_sigaction = on_fault as *const () as usize;
                // (Not SA_NODEFER: a fault in the handler itself then ends
                // the process, as it should, rather than recurse.)
                sa.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut sa.sa_mask);
                for (i, sig) in [libc::SIGSEGV, libc::SIGBUS].into_iter().enumerate() {
                    if libc::sigaction(sig, &sa, &mut old[i]) != 0 {
                        return None;
                    }
                }
                Some(old)
            })
            .is_some()
    }

    /// Calls `enter(cpu, code)` (see `JitCache::entry`) with `landing`
    /// as this thread's entry: a fault at one of its sites returns that
    /// site's word, and leaves the site in `landing.hit`.
    ///
    /// # Safety
    /// As calling `enter` itself; `landing`'s map must name only installed
    /// code.
    pub unsafe fn call(enter: usize, cpu: usize, code: usize, landing: &mut Landing) -> u64 {
        landing.hit = None;
        let ptr: *mut Landing = landing;
        let outer = ACTIVE.with(|a| a.replace(ptr));
        let word = irix_emu_jit_call(enter, cpu, code, &mut (*ptr).saved_sp);
        ACTIVE.with(|a| a.set(outer));
        word
    }

    extern "C" fn on_fault(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
        // SAFETY: the kernel hands a valid siginfo and ucontext; the
        // landing is alive while ACTIVE names it (set and cleared around
        // the trampoline on this thread).
        unsafe {
            let landing = ACTIVE.with(|a| a.get());
            if let Some(l) = landing.as_mut() {
                let uc = &mut *(ctx as *mut libc::ucontext_t);
                let gregs = &mut uc.uc_mcontext.gregs;
                let pc = gregs[libc::REG_RIP as usize] as usize;
                let addr = (*info).si_addr() as usize;
                if (l.reserved.0..l.reserved.1).contains(&addr) {
                    if let Some(site) = (*l.map).find(pc) {
                        // (Out of user space, in a guard page or below the
                        // base, the address is no user address:
                        // the slow path raises its address error.)
                        l.hit = Some((site, addr.wrapping_sub(l.base) as u32));
                        gregs[libc::REG_RSP as usize] = l.saved_sp as i64;
                        gregs[libc::REG_RIP as usize] =
                            irix_emu_jit_land as *const () as usize as i64;
                        gregs[libc::REG_RAX as usize] = site.word as i64;
                        return;
                    }
                }
            }
            pass_on(sig, info, ctx);
        }
    }

    /// Hands a fault that is not compiled code's to the handler before
    /// ours, or, where that was the default action (or ignoring, which a
    /// fault cannot be), restores it: the fault then repeats on return and
    /// the host acts on it as it would have without us.
    unsafe fn pass_on(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
        let i = (sig == libc::SIGBUS) as usize;
        let Some(Some(old)) = PREVIOUS.get() else {
            libc::signal(sig, libc::SIG_DFL);
            return;
        };
        let old = &old[i];
        match old.sa_sigaction {
            libc::SIG_DFL | libc::SIG_IGN => {
                libc::sigaction(sig, old, std::ptr::null_mut());
            }
            f if old.sa_flags & libc::SA_SIGINFO != 0 => {
                let f: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                    std::mem::transmute(f);
                f(sig, info, ctx);
            }
            f => {
                let f: extern "C" fn(libc::c_int) = std::mem::transmute(f);
                f(sig);
            }
        }
    }
}

#[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]
mod host {
    use super::Landing;

    /// No handler on this host: no view is made.
    pub fn install() -> bool {
        false
    }

    /// Never called where `install` fails.
    pub unsafe fn call(enter: usize, cpu: usize, code: usize, _: &mut Landing) -> u64 {
        let enter: super::super::Enter = std::mem::transmute(enter);
        enter(cpu as *mut _, code)
    }
}

pub(crate) use host::{call, install};

#[cfg(test)]
mod tests {
    use super::*;

    fn site(offset: u32) -> Site {
        Site {
            offset,
            pc: 0x40_0000,
            target: 0,
            flags: 0,
            word: 0x0600 | offset as u64,
        }
    }

    #[test]
    fn a_function_s_sites_are_found_by_host_address_after_its_code() {
        let mut blob = vec![0x90u8; 45];
        append_sites(&mut blob, &mut [site(30), site(7), site(12)]);
        assert_eq!(code_len(&blob), Some(45));
        // Installed at an 8-byte aligned address (the code memory aligns
        // functions to 16).
        let mem: Vec<u64> = blob
            .chunks(8)
            .map(|c| u64::from_ne_bytes(c.try_into().unwrap()))
            .collect();
        let start = mem.as_ptr() as usize;
        let mut map = TrapMap::default();
        map.insert(start, &blob);
        assert_eq!(map.find(start + 12), Some(site(12)));
        assert_eq!(map.find(start + 30).map(|s| s.word), Some(0x061e));
        assert_eq!(map.find(start + 13), None, "not a site");
        assert_eq!(map.find(start + blob.len()), None, "past the function");
        assert_eq!(map.find(start - 1), None, "before it");
    }

    #[test]
    fn a_function_without_sites_is_not_kept() {
        let mut blob = vec![0xc3u8; 16];
        append_sites(&mut blob, &mut []);
        assert_eq!(code_len(&blob), Some(16));
        let mut map = TrapMap::default();
        map.insert(0x1000, &blob);
        assert!(map.functions.is_empty());
        assert_eq!(code_len(&[0; 12]), None, "too short for its table");
    }
}
