//! Dynamically linked programs: the kernel's half of dynamic loading.
//!
//! An IRIX dynamic executable names an interpreter in PT_INTERP (for o32
//! programs `/usr/lib/libc.so.1`, a shared object with an entry point). At
//! exec the kernel maps the program, then the interpreter, and starts the
//! interpreter with the auxiliary vector telling it where the program is.
//! Everything else (mapping `/lib/rld`, the libraries, relocation) happens
//! in user mode through `syssgi(SGI_ELFMAP)`, which maps an ELF object's
//! PT_LOAD segments from a descriptor (`syscalls/elfmap.rs`). Both use
//! [`place`] and [`map_segments`] here. docs/dynamic-loading.md tells the
//! whole sequence.
//!
//! Contents:
//! - [`Interpreter`], [`InterpError`], [`load_interpreter`]: finding and
//!   checking the interpreter inside the guest's file system.
//! - [`ObjectSegment`], [`place`], [`map_segments`]: where an object's
//!   segments go (their own addresses when free, else elsewhere) and mapping
//!   them.

use loader::{Executable, LoadOptions};

use crate::memory::{page_ceil, page_floor, AddressSpace, MappedObject, Perms, PAGE_SIZE};
use crate::vfs::{Follow, Vfs};
use crate::Errno;

/// A loaded program interpreter, ready to be mapped next to its program.
#[derive(Debug, Clone)]
pub struct Interpreter {
    /// The guest path it was found at.
    pub path: String,
    pub exe: Executable,
}

/// Why a program's interpreter cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InterpError {
    /// The path does not name a file in the guest's file system.
    #[error("interpreter {path} not found in the guest root (is --root an IRIX root?)")]
    Missing { path: String },
    /// It exists but cannot be read.
    #[error("interpreter {path}: cannot read it ({})", .errno.name())]
    Unreadable { path: String, errno: Errno },
    /// It is not an executable or shared object irix-emu can run.
    #[error("interpreter {0}")]
    Bad(loader::LoadError),
}

impl InterpError {
    /// The errno an execve of a program with this interpreter fails with:
    /// ENOENT for a missing one (what SVR4 kernels return, as Linux does),
    /// ENOEXEC for one that is not a runnable object.
    pub fn errno(&self) -> Errno {
        match self {
            InterpError::Missing { .. } => Errno::ENOENT,
            InterpError::Unreadable { errno, .. } => *errno,
            InterpError::Bad(_) => Errno::ENOEXEC,
        }
    }
}

/// Finds and loads the interpreter `exe` names, if it names one. The path is
/// resolved in the guest's file system (relative to `cwd` if relative).
pub fn load_interpreter(
    vfs: &Vfs,
    cwd: &str,
    exe: &Executable,
) -> Result<Option<Interpreter>, InterpError> {
    let Some(path) = &exe.interp else {
        return Ok(None);
    };
    let missing = || InterpError::Missing { path: path.clone() };
    let (host, guest) = vfs
        .resolve(cwd, path.as_bytes(), Follow::Yes)
        .map_err(|_| missing())?;
    let bytes = match std::fs::read(&host) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(missing()),
        Err(e) => {
            return Err(InterpError::Unreadable {
                path: path.clone(),
                errno: crate::files::io_errno(&e),
            })
        }
    };
    let exe = loader::load(&guest, &bytes, &LoadOptions::INTERPRETER).map_err(InterpError::Bad)?;
    Ok(Some(Interpreter { path: guest, exe }))
}

/// One PT_LOAD segment of an object being mapped.
#[derive(Debug, Clone, Copy)]
pub struct ObjectSegment<'a> {
    /// p_vaddr: where the object was linked to have it.
    pub vaddr: u32,
    /// p_memsz (at least `data.len()`; the rest is zero-filled).
    pub mem_size: u32,
    /// The p_filesz bytes from the file.
    pub data: &'a [u8],
    pub perms: Perms,
}

/// The page-rounded range `[low, high)` the segments cover.
fn extent(segs: &[ObjectSegment]) -> Option<(u64, u64)> {
    let low = segs.iter().map(|s| u64::from(s.vaddr)).min()?;
    let high = segs
        .iter()
        .map(|s| u64::from(s.vaddr) + u64::from(s.mem_size))
        .max()?;
    Some((page_floor(low), page_ceil(high)))
}

fn all_free(mem: &AddressSpace, start: u64, end: u64) -> bool {
    (start..end)
        .step_by(PAGE_SIZE as usize)
        .all(|a| !mem.is_mapped(a as u32))
}

/// Chooses where an object goes and returns the bias to add to every
/// p_vaddr: 0 when all its pages are free at the addresses it was linked
/// for (IRIX's libraries are linked at distinct default addresses, so this
/// is the usual case) and those do not start at 0, else, if `movable`, the first free range of the same
/// size at or above `search_from` and below `search_end`. A fixed object
/// (ET_EXEC, such as IRIX's `/lib/rld`) whose addresses are taken is ENOMEM.
pub fn place(
    mem: &AddressSpace,
    segs: &[ObjectSegment],
    movable: bool,
    search_from: u32,
    search_end: u32,
) -> Result<u32, Errno> {
    let (low, high) = extent(segs).ok_or(Errno::ENOEXEC)?;
    if high > crate::memory::USER_TOP {
        return Err(Errno::ENOMEM);
    }
    // An object linked at address 0 (GNU ld's shared objects are) states
    // no preference: page 0 stays unmapped so null pointers fault.
    if low > 0 && all_free(mem, low, high) {
        return Ok(0);
    }
    if !movable {
        return Err(Errno::ENOMEM);
    }
    let size = high - low;
    let mut start = page_ceil(u64::from(search_from));
    while start + size <= u64::from(search_end) {
        match (start..start + size)
            .step_by(PAGE_SIZE as usize)
            .find(|&a| mem.is_mapped(a as u32))
        {
            Some(taken) => start = taken + u64::from(PAGE_SIZE),
            None => return Ok((start as u32).wrapping_sub(low as u32)),
        }
    }
    Err(Errno::ENOMEM)
}

/// Maps each segment at `vaddr + bias` with its permissions, copies its file
/// bytes and leaves the rest zero. Two segments of one object may share a
/// page (small objects from GNU ld do): the page keeps the bytes already
/// there and gets both segments' permissions. The caller has checked with
/// [`place`] that the range was free.
pub fn map_segments(
    mem: &mut AddressSpace,
    segs: &[ObjectSegment],
    bias: u32,
) -> Result<(), Errno> {
    let mut ours: Vec<u32> = Vec::new();
    for s in segs {
        let start = s.vaddr.wrapping_add(bias);
        let first = page_floor(u64::from(start));
        let end = page_ceil(u64::from(start) + u64::from(s.mem_size));
        for page in (first..end).step_by(PAGE_SIZE as usize) {
            let page = page as u32;
            if ours.contains(&page) {
                let union = mem.perms(page).unwrap_or(Perms::empty()) | s.perms;
                mem.protect(u64::from(page), u64::from(PAGE_SIZE), union)?;
            } else {
                mem.map_anon(u64::from(page), u64::from(PAGE_SIZE), s.perms)?;
                ours.push(page);
            }
        }
        mem.poke_bytes(start, s.data)?;
    }
    Ok(())
}

/// The record of the object at `path` whose segments `segs` were mapped
/// moved by `bias`.
pub fn mapped_object(path: String, segs: &[ObjectSegment], bias: u32) -> MappedObject {
    MappedObject {
        path,
        text: segs
            .iter()
            .filter(|s| s.perms.contains(Perms::X))
            .map(|s| {
                let start = s.vaddr.wrapping_add(bias);
                (start, start.saturating_add(s.mem_size))
            })
            .collect(),
        segments: segs.iter().map(|s| s.vaddr.wrapping_add(bias)).collect(),
    }
}

/// The segments of a loaded executable or shared object.
pub fn segments_of(exe: &Executable) -> Vec<ObjectSegment<'_>> {
    exe.segments
        .iter()
        .map(|s| {
            let mut perms = Perms::empty();
            perms.set(Perms::R, s.perms.read);
            perms.set(Perms::W, s.perms.write);
            perms.set(Perms::X, s.perms.exec);
            ObjectSegment {
                vaddr: s.vaddr,
                mem_size: s.mem_size,
                data: &s.data,
                perms,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(vaddr: u32, mem_size: u32, data: &[u8], perms: Perms) -> ObjectSegment<'_> {
        ObjectSegment {
            vaddr,
            mem_size,
            data,
            perms,
        }
    }

    #[test]
    fn an_object_goes_at_its_own_addresses_when_they_are_free() {
        let mem = AddressSpace::new(crate::memory::Budget::unlimited());
        let segs = [seg(0x0fa9_0000, 0x2000, &[1], Perms::R | Perms::X)];
        assert_eq!(place(&mem, &segs, true, 0x3000_0000, 0x7000_0000), Ok(0));
    }

    #[test]
    fn a_movable_object_whose_addresses_are_taken_goes_elsewhere() {
        let mut mem = AddressSpace::new(crate::memory::Budget::unlimited());
        mem.map_anon(0x0fa9_1000, 0x1000, Perms::R).unwrap();
        let segs = [
            seg(0x0fa9_0000, 0x2000, &[1], Perms::R | Perms::X),
            seg(0x0fab_0000, 0x100, &[2], Perms::R | Perms::W),
        ];
        mem.map_anon(0x3000_0000, 0x1000, Perms::R).unwrap();
        let bias = place(&mem, &segs, true, 0x3000_0000, 0x7000_0000).unwrap();
        assert_eq!(0x0fa9_0000u32.wrapping_add(bias), 0x3000_1000);
        map_segments(&mut mem, &segs, bias).unwrap();
        assert_eq!(mem.read_u32(0x3000_1000).unwrap() >> 24, 1);
        assert_eq!(mem.perms(0x3002_1000), Some(Perms::R | Perms::W));
        assert_eq!(
            place(&mem, &segs, false, 0x3000_0000, 0x7000_0000),
            Err(Errno::ENOMEM),
            "a fixed object cannot move"
        );
    }

    #[test]
    fn segments_sharing_a_page_keep_both_contents_and_permissions() {
        let mut mem = AddressSpace::new(crate::memory::Budget::unlimited());
        let segs = [
            seg(0x1000, 0x10, &[0xaa; 0x10], Perms::R | Perms::X),
            seg(0x1010, 0x20, &[0xbb; 0x8], Perms::R | Perms::W),
        ];
        map_segments(&mut mem, &segs, 0).unwrap();
        assert_eq!(mem.read_u32(0x100c).unwrap(), 0xaaaa_aaaa);
        assert_eq!(mem.read_u32(0x1014).unwrap(), 0xbbbb_bbbb);
        assert_eq!(mem.read_u32(0x1018).unwrap(), 0, "bss is zero");
        assert_eq!(mem.perms(0x1000), Some(Perms::R | Perms::W | Perms::X));
    }
}
