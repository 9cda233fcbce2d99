//! MAP_SHARED mappings and msync, on the guest program mem_shared
//! (guest/src/mem_shared.c), each test named for the mmap(2) or msync(2)
//! sentence it checks (IRIX's pages follow SVR4's wording).
//!
//! Contents:
//! - with MAP_SHARED, write references change the memory object: anonymous
//!   memory and /dev/zero are shared with a forked child, private is not
//! - a store through a shared file mapping is seen by read(2), and write(2)
//!   through the mapping
//! - every process mapping the file shares its pages
//! - msync writes modified pages to their backing storage; they survive
//!   munmap and close, and the file never grows
//! - msync's EINVAL and ENOMEM; mmap's EACCES

use crate::common;

use common::{guest_program, run_emu, Scratch, Status};

/// mem_shared's output, run in a scratch directory (it creates and
/// removes one file there). None when the program is not built.
fn mem_shared() -> Option<String> {
    let program = guest_program("irix", "mem_shared")?;
    let dir = Scratch::new("mem-shared");
    let r = run_emu(["run".as_ref(), program.as_os_str()], dir.path());
    assert_eq!(r.status, Status::Code(0), "stderr: {}", r.stderr);
    assert!(dir.names().is_empty(), "{:?}", dir.names());
    Some(r.stdout_text())
}

/// The line of `out` that starts with `label`.
fn line<'a>(out: &'a str, label: &str) -> &'a str {
    out.lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no line {label:?} in:\n{out}"))
}

/// mmap(2): "If MAP_SHARED is specified, write references change the
/// memory object. If MAP_PRIVATE is specified, the initial write reference
/// creates a private copy of the memory object page." A forked child's
/// store to anonymous shared memory (or /dev/zero mapped MAP_SHARED) is the
/// parent's too; to private memory, its own.
#[test]
fn with_map_shared_write_references_change_the_memory_object() {
    let Some(out) = mem_shared() else { return };
    assert_eq!(
        line(&out, "anonymous shared"),
        "anonymous shared after the child's store: 42"
    );
    assert_eq!(
        line(&out, "anonymous private"),
        "anonymous private after the child's store: 1"
    );
    assert_eq!(
        line(&out, "/dev/zero shared"),
        "/dev/zero shared after the child's store: 43"
    );
}

/// A shared file mapping and the file are one object: a store is what
/// read(2) returns at once, and write(2) is what the mapping holds.
#[test]
fn a_shared_file_mapping_and_read_and_write_see_the_same_bytes() {
    let Some(out) = mem_shared() else { return };
    assert_eq!(line(&out, "file mapped"), "file mapped: ok");
    assert_eq!(line(&out, "read(2)"), "read(2) sees the store: S");
    assert_eq!(
        line(&out, "the mapping sees"),
        "the mapping sees write(2): W"
    );
}

/// A child that opens the file and maps it itself reaches the same pages:
/// its store is in the parent's mapping, with no msync between.
#[test]
fn every_process_mapping_the_file_shares_its_pages() {
    let Some(out) = mem_shared() else { return };
    assert_eq!(
        line(&out, "the child's own mapping"),
        "the child's own mapping, seen here: C"
    );
}

/// msync(2): "msync writes all modified copies of pages over the range
/// [addr, addr + len) to their backing storage locations." The stores are
/// in the file after munmap and close; one past the end of the file, in
/// its last page, never makes it longer.
#[test]
fn msync_writes_modified_pages_to_their_backing_storage() {
    let Some(out) = mem_shared() else { return };
    assert_eq!(line(&out, "msync: "), "msync: 0");
    assert_eq!(line(&out, "munmap"), "munmap: 0");
    assert_eq!(line(&out, "after munmap"), "after munmap and close: SWCE");
    assert_eq!(line(&out, "file size"), "file size: 5000");
}

/// msync(2): EINVAL "addr is not a multiple of the page size"; ENOMEM
/// "addresses in the range [addr, addr + len) are outside the valid range
/// for the address space of a process, or specify one or more pages which
/// are not mapped". mmap(2): EACCES when "fd is not open for write and
/// PROT_WRITE was specified for a MAP_SHARED type mapping".
#[test]
fn msync_and_mmap_refuse_what_the_man_pages_refuse() {
    let Some(out) = mem_shared() else { return };
    assert_eq!(line(&out, "msync unaligned"), "msync unaligned: -1 EINVAL");
    assert_eq!(line(&out, "msync unmapped"), "msync unmapped: -1 ENOMEM");
    assert_eq!(
        line(&out, "PROT_WRITE shared"),
        "PROT_WRITE shared of a read-only descriptor: EACCES"
    );
    assert_eq!(line(&out, "PROT_READ shared"), "PROT_READ shared of it: S");
    assert_eq!(line(&out, "unlink"), "unlink: 0");
}
