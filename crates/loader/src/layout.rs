//! The parts of an IRIX process's address space the kernel maps itself, at
//! fixed addresses (ABI.md, "Process start-up"; the kernel crate builds
//! them from these constants). A segment covering one would be silently
//! replaced, so [`crate::load`] rejects it.

/// The user stack ends here; argc, argv and envp sit just below.
pub const STACK_TOP: u32 = 0x7fff_8000;
/// The stack may grow down this far below [`STACK_TOP`] (IRIX's default
/// stack limit, 64 MiB).
pub const STACK_MAX: u32 = 64 << 20;
/// The per-process data area (PRDA) page.
pub const PRDA_ADDR: u32 = 0x0020_0000;
/// Pages above the stack the kernel uses (the sproc exit stub), up to the
/// end of user space.
pub const USER_TOP: u64 = 0x8000_0000;

/// One reserved range, `start..end`, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reserved {
    pub name: &'static str,
    pub start: u64,
    pub end: u64,
}

/// Every range no segment may cover.
pub const RESERVED: [Reserved; 2] = [
    Reserved {
        name: "PRDA page",
        start: PRDA_ADDR as u64,
        end: PRDA_ADDR as u64 + 4096,
    },
    Reserved {
        name: "stack",
        start: (STACK_TOP - STACK_MAX) as u64,
        end: USER_TOP,
    },
];
