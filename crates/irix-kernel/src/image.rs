//! Building a process image from an ELF executable: segments, the
//! interpreter of a dynamic program, the PRDA, the stack with
//! argc/argv/envp (and the auxiliary vector of a dynamic program) as
//! docs/abi.md gives them, and the initial registers. Used at start-up and
//! by execve. docs/dynamic-loading.md tells what a dynamic program needs.

use std::rc::Rc;

use cpu_mips::{Cpu, CpuConfig};
use loader::Executable;

use crate::dynamic::{self, Interpreter};
use crate::memory::{page_ceil, AddressSpace, Backing, Budget, FileSource, Perms, PAGE_SIZE};
use crate::Errno;

/// The user stack ends here (docs/abi.md, "Start-up").
pub const STACK_TOP: u32 = loader::layout::STACK_TOP;
/// The stack may grow down this far below STACK_TOP (IRIX's default stack
/// limit is 64 MiB). The whole range is mapped at start; its pages exist
/// only once touched, by the program or by the kernel's copies.
pub const STACK_MAX: u32 = loader::layout::STACK_MAX;
/// argv, envp and their strings may fill at most half of this.
const ARG_AREA: u32 = 128 << 10;
/// The per-process data area (PRDA) page, and where libc reads the pid.
pub const PRDA_ADDR: u32 = loader::layout::PRDA_ADDR;
pub const PRDA_PID: [u32; 2] = [0x0020_0e00, 0x0020_0e40];
/// mmap without an address hint places mappings upward from here
/// (a documented choice: below IRIX's shared-library area at 0x0fb60000
/// there is room, but programs with large heaps want it; we use the
/// otherwise unused range from 0x3000_0000).
pub const MMAP_BASE: u32 = 0x3000_0000;

/// ELF auxiliary vector tags (SVR4 MIPS ABI), for programs with PT_INTERP.
const AT_NULL: u32 = 0;
const AT_PHDR: u32 = 3;
const AT_PHENT: u32 = 4;
const AT_PHNUM: u32 = 5;
const AT_PAGESZ: u32 = 6;
const AT_BASE: u32 = 7;
const AT_ENTRY: u32 = 9;

/// A freshly built image: memory and registers, ready to run.
pub struct Image {
    pub mem: AddressSpace,
    pub cpu: Box<Cpu>,
    pub brk: u32,
    pub stack_limit: u32,
}

/// Maps `exe` (and its interpreter, for a dynamic program) and builds the
/// start-up stack. `pid` goes into the PRDA. A dynamic program starts at its
/// interpreter's entry, with AT_BASE saying where the interpreter went. A
/// segment whose bytes `loader::load` read is mapped from them; one from
/// `loader::load_headers` is mapped from `file`, page by page as touched.
#[allow(clippy::too_many_arguments)]
pub fn build(
    exe: &Executable,
    file: Option<&Rc<dyn FileSource>>,
    interp: Option<&Interpreter>,
    argv: &[Vec<u8>],
    envp: &[Vec<u8>],
    pid: u32,
    cpu_config: CpuConfig,
    budget: &Rc<Budget>,
) -> Result<Image, Errno> {
    let mut mem = AddressSpace::new(budget.clone());
    let mut brk = 0u32;
    for seg in &exe.segments {
        let mut perms = Perms::empty();
        perms.set(Perms::R, seg.perms.read);
        perms.set(Perms::W, seg.perms.write);
        perms.set(Perms::X, seg.perms.exec);
        // The region starts at the segment's page; the file's bytes start
        // `lead` bytes into it.
        let lead = u64::from(seg.vaddr % PAGE_SIZE);
        let (source, offset): (Rc<dyn FileSource>, u64) =
            if seg.data.len() == seg.file_size as usize {
                let mut bytes = vec![0; lead as usize];
                bytes.extend_from_slice(&seg.data);
                (Rc::new(bytes), 0)
            } else {
                let file = file.ok_or(Errno::ENOEXEC)?;
                match u64::from(seg.file_offset).checked_sub(lead) {
                    Some(offset) => (file.clone(), offset),
                    None => return Err(Errno::ENOEXEC),
                }
            };
        let backing = Backing::File {
            source,
            offset,
            len: lead + u64::from(seg.file_size),
        };
        mem.map(seg.vaddr as u64, seg.mem_size as u64, perms, backing)?;
        brk = brk.max(page_ceil(seg.vaddr as u64 + seg.mem_size as u64) as u32);
    }

    mem.map_anon(PRDA_ADDR as u64, PAGE_SIZE as u64, Perms::R | Perms::W)?;
    for addr in PRDA_PID {
        mem.poke_bytes(addr, &pid.to_be_bytes())?;
    }

    let stack_limit = STACK_TOP - STACK_MAX;
    mem.map_anon(stack_limit as u64, STACK_MAX as u64, Perms::R | Perms::W)?;
    let (entry, base) = match interp {
        Some(i) => map_interpreter(&mut mem, i)?,
        None => (exe.entry, 0),
    };
    let sp = write_start_stack(&mut mem, exe, base, argv, envp)?;

    let mut cpu = Box::new(Cpu::new(cpu_config));
    cpu.gpr[29] = sp as i32 as i64 as u64; // $sp -> argc
    cpu.gpr[2] = 0; // $v0: no atexit function
    cpu.gpr[31] = 0; // $ra
    if interp.is_some() {
        // $t9 = the entry, as at any PIC function's entry: an interpreter
        // may compute its gp from it (the ABI leaves $t9 unspecified).
        cpu.gpr[25] = entry as i32 as i64 as u64;
    }
    cpu.set_pc(entry);
    Ok(Image {
        mem,
        cpu,
        brk,
        stack_limit,
    })
}

/// Maps the interpreter at its own addresses when they are free, else (a
/// shared object can move) in the mmap area; returns its entry point and
/// its base (the address of its lowest segment: AT_BASE).
fn map_interpreter(mem: &mut AddressSpace, interp: &Interpreter) -> Result<(u32, u32), Errno> {
    let segs = dynamic::segments_of(&interp.exe);
    let bias = dynamic::place(
        mem,
        &segs,
        interp.exe.shared,
        MMAP_BASE,
        STACK_TOP - STACK_MAX,
    )?;
    dynamic::map_segments(mem, &segs, bias)?;
    mem.note_object(dynamic::mapped_object(interp.path.clone(), &segs, bias));
    let low = segs.iter().map(|s| s.vaddr).min().unwrap_or(0);
    Ok((
        interp.exe.entry.wrapping_add(bias),
        (low & !(PAGE_SIZE - 1)).wrapping_add(bias),
    ))
}

/// Lays out, from the returned sp upward: argc, argv[], NULL, envp[], NULL,
/// the auxv pairs (only with PT_INTERP), then the strings. 16-byte aligned.
fn write_start_stack(
    mem: &mut AddressSpace,
    exe: &Executable,
    interp_base: u32,
    argv: &[Vec<u8>],
    envp: &[Vec<u8>],
) -> Result<u32, Errno> {
    let strings_len: usize = argv.iter().chain(envp).map(|s| s.len() + 1).sum();
    if strings_len > (ARG_AREA as usize) / 2 {
        return Err(Errno::E2BIG);
    }
    let mut cursor = STACK_TOP - 16; // a little headroom above the strings
    let mut place = |mem: &mut AddressSpace, s: &[u8]| -> Result<u32, Errno> {
        cursor -= s.len() as u32 + 1;
        mem.poke_bytes(cursor, s)?;
        mem.poke_bytes(cursor + s.len() as u32, &[0])?;
        Ok(cursor)
    };
    let mut argv_ptrs = Vec::with_capacity(argv.len());
    for s in argv {
        argv_ptrs.push(place(mem, s)?);
    }
    let mut envp_ptrs = Vec::with_capacity(envp.len());
    for s in envp {
        envp_ptrs.push(place(mem, s)?);
    }

    let mut words: Vec<u32> = Vec::new();
    words.push(argv.len() as u32);
    words.extend(&argv_ptrs);
    words.push(0);
    words.extend(&envp_ptrs);
    words.push(0);
    if exe.interp.is_some() {
        let aux = [
            (AT_PHDR, exe.phdr_vaddr.unwrap_or(0)),
            (AT_PHENT, exe.phent as u32),
            (AT_PHNUM, exe.phnum as u32),
            (AT_ENTRY, exe.entry),
            (AT_BASE, interp_base),
            (AT_PAGESZ, PAGE_SIZE),
            (AT_NULL, 0),
        ];
        for (k, v) in aux {
            words.extend([k, v]);
        }
    }
    let sp = (cursor - words.len() as u32 * 4) & !15;
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_be_bytes()).collect();
    mem.poke_bytes(sp, &bytes)?;
    Ok(sp)
}

/// A read-only code page in the gap above the stack: a sproc child's entry
/// function returns here, and the stub exits with its return value, so a
/// share-group member ends like a process whose main returned.
pub const SPROC_EXIT_STUB: u32 = 0x7fff_9000;
/// Stack given to a sproc child when the caller does not supply one
/// (sprocsp does): mapped in the group's shared address space.
pub const SPROC_STACK_SIZE: u32 = 256 << 10;

/// Maps the sproc exit stub once: `move $a0, $v0; li $v0, 1001 (exit); syscall`.
pub fn install_sproc_stub(mem: &mut AddressSpace) -> Result<(), Errno> {
    if mem.is_mapped(SPROC_EXIT_STUB) {
        return Ok(());
    }
    const STUB: [u32; 3] = [0x0040_2025, 0x2402_03e9, 0x0000_000c];
    mem.map_anon(
        SPROC_EXIT_STUB as u64,
        PAGE_SIZE as u64,
        Perms::R | Perms::X,
    )?;
    let bytes: Vec<u8> = STUB.iter().flat_map(|w| w.to_be_bytes()).collect();
    mem.poke_bytes(SPROC_EXIT_STUB, &bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use loader::{Perms as ElfPerms, Segment};

    fn text(vaddr: u32) -> Segment {
        Segment {
            vaddr,
            mem_size: 0x1000,
            file_offset: 0,
            file_size: 16,
            data: vec![0; 16],
            perms: ElfPerms::from_p_flags(5),
        }
    }

    #[test]
    fn a_dynamic_program_starts_in_its_interpreter_with_the_auxiliary_vector() {
        let exe = Executable {
            entry: 0x0040_0100,
            segments: vec![text(0x0040_0000)],
            interp: Some("/lib/ld.so".into()),
            phdr_vaddr: Some(0x0040_0034),
            phent: 32,
            phnum: 5,
            ..Default::default()
        };
        let interp = Interpreter {
            path: "/lib/ld.so".into(),
            exe: Executable {
                entry: 0x0f00_0110,
                segments: vec![text(0x0f00_0000)],
                ..Default::default()
            },
        };
        let argv = [b"prog".to_vec()];
        let img = build(
            &exe,
            None,
            Some(&interp),
            &argv,
            &[],
            100,
            CpuConfig::default(),
            &Budget::unlimited(),
        )
        .unwrap();
        assert_eq!(img.cpu.pc(), 0x0f00_0110, "the interpreter's entry");
        assert_eq!(img.cpu.gpr[25] as u32, 0x0f00_0110, "$t9 = the entry");
        let sp = img.cpu.gpr[29] as u32;
        let word = |i: u32| img.mem.read_u32(sp + 4 * i).unwrap();
        assert_eq!(word(0), 1, "argc");
        assert_eq!(word(2), 0, "argv's NULL");
        assert_eq!(word(3), 0, "envp's NULL");
        let auxv: Vec<(u32, u32)> = (0..7).map(|i| (word(4 + 2 * i), word(5 + 2 * i))).collect();
        assert_eq!(
            auxv,
            vec![
                (AT_PHDR, 0x0040_0034),
                (AT_PHENT, 32),
                (AT_PHNUM, 5),
                (AT_ENTRY, 0x0040_0100),
                (AT_BASE, 0x0f00_0000),
                (AT_PAGESZ, 4096),
                (AT_NULL, 0),
            ]
        );
        assert_eq!(img.brk, 0x0040_1000, "the break follows the program only");
    }
}
