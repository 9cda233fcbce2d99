//! Dynamic programs without SGI's files: irix-emu's own small IRIX-style
//! root in guest/bin/dynroot (built by guest/build.sh from guest/src/dyn):
//! `/lib/ld.so` plays rld's part (maps libraries with syssgi(SGI_ELFMAP) and
//! applies the MIPS GOT rules), `/lib/libgreet.so` is a position-independent
//! library linked at 0, `/bin/dyn_hello` names both.
//!
//! - PT_INTERP: the kernel maps the interpreter and starts it with the
//!   auxiliary vector; the interpreter finds the program from it.
//! - SGI_ELFMAP: the library is mapped (and moved: its link address is 0),
//!   and the program's calls reach it through relocated GOT entries.
//! - execve of a dynamic program goes through its interpreter too; its
//!   interpreter missing is ENOENT to the caller.
//! - Bad input: a missing or corrupt interpreter is exit 126 at start-up; a
//!   missing or corrupt library is the interpreter's error (127), from the
//!   errno ELFMAP gave it; guest/src/elfmap_errors.c checks each errno.
//! - --bind and the private /tmp, with the dynamic program's files.

use crate::common;

use std::path::{Path, PathBuf};

use common::{dynroot, exit, guest_program, run_emu, Scratch, Status};

const HELLO_OUTPUT: &str = "hello from libgreet.so\n2 + 40 = 42\nargc = 3\ntwo\ncalls = 7\n";

/// A copy of the dynroot in a scratch directory, for cases that break it.
fn copy_root(dir: &Scratch) -> Option<PathBuf> {
    let src = dynroot()?;
    // Copied with their modes: exec(2) needs the execute bit.
    for f in ["lib/ld.so", "lib/libgreet.so", "bin/dyn_hello"] {
        let to = dir.path().join("root").join(f);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(src.join(f), &to).expect("dynroot file");
    }
    Some(dir.path().join("root"))
}

fn run_hello(root: &Path, extra: &[&str]) -> common::Run {
    let root_s = root.display().to_string();
    let prog = root.join("bin/dyn_hello").display().to_string();
    let mut args = vec!["run", "--root", &root_s];
    args.extend_from_slice(extra);
    args.extend([prog.as_str(), "one", "two"]);
    run_emu(args, root)
}

#[test]
fn a_dynamic_program_runs_through_its_interpreter_and_library() {
    let Some(root) = dynroot() else { return };
    let r = run_hello(&root, &[]);
    assert_eq!(r.stdout_text(), HELLO_OUTPUT);
    assert_eq!(r.stderr, "");
    assert_eq!(r.status, Status::Code(42));
}

#[test]
fn strace_names_the_elfmap_request_and_its_result() {
    let Some(root) = dynroot() else { return };
    let r = run_hello(&root, &["--strace"]);
    assert_eq!(r.status, Status::Code(42));
    let elfmap: Vec<&str> = r
        .stderr_lines()
        .into_iter()
        .filter(|l| l.contains("syssgi("))
        .collect();
    assert_eq!(elfmap.len(), 1, "{}", r.stderr);
    // libgreet.so is linked at 0: it goes to the first free address of
    // the mmap area, 0x30000000.
    assert!(
        elfmap[0].starts_with("[100] syssgi(SGI_ELFMAP, 3, 0x")
            && elfmap[0].ends_with(", 2) = 805306368"),
        "{}",
        elfmap[0]
    );
    assert!(r
        .stderr
        .contains("[100] open(\"/lib/libgreet.so\", O_RDONLY, 00) = 3"));
}

#[test]
fn a_missing_interpreter_is_not_runnable() {
    let dir = Scratch::new("dyn-nointerp");
    let Some(root) = copy_root(&dir) else { return };
    std::fs::remove_file(root.join("lib/ld.so")).unwrap();
    let r = run_hello(&root, &[]);
    assert_eq!(r.status, Status::Code(exit::NOT_RUNNABLE.into()));
    let prog = root.join("bin/dyn_hello");
    assert_eq!(
        r.stderr,
        format!(
            "irix-emu: {}: interpreter /lib/ld.so not found in the guest root (is --root an IRIX root?)\n",
            prog.display()
        )
    );
    assert_eq!(r.stdout, b"");
}

#[test]
fn a_corrupt_interpreter_is_not_runnable() {
    let dir = Scratch::new("dyn-badinterp");
    let Some(root) = copy_root(&dir) else { return };
    std::fs::write(root.join("lib/ld.so"), b"#!/bin/sh\n").unwrap();
    let r = run_hello(&root, &[]);
    assert_eq!(r.status, Status::Code(exit::NOT_RUNNABLE.into()));
    assert!(
        r.stderr
            .ends_with(": interpreter /lib/ld.so: not an ELF file (bad magic 23 21 2f 62)\n"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_missing_library_is_the_interpreters_error() {
    let dir = Scratch::new("dyn-nolib");
    let Some(root) = copy_root(&dir) else { return };
    std::fs::remove_file(root.join("lib/libgreet.so")).unwrap();
    let r = run_hello(&root, &[]);
    assert_eq!(
        r.stderr,
        "ld.so: cannot open library /lib/libgreet.so: ENOENT\n"
    );
    assert_eq!(r.status, Status::Code(127));
}

#[test]
fn a_corrupt_library_is_refused_by_elfmap_with_enoexec() {
    let dir = Scratch::new("dyn-badlib");
    let Some(root) = copy_root(&dir) else { return };
    // Headers intact, segments cut off: ELFMAP finds the bytes missing.
    let lib = root.join("lib/libgreet.so");
    let bytes = std::fs::read(&lib).unwrap();
    std::fs::write(&lib, &bytes[..300]).unwrap();
    let r = run_hello(&root, &[]);
    assert_eq!(r.stderr, "ld.so: SGI_ELFMAP of /lib/libgreet.so: ENOEXEC\n");
    assert_eq!(r.status, Status::Code(127));
    // Not ELF at all: the interpreter reads the header itself.
    std::fs::write(
        &lib,
        b"not a library, just text long enough for a header........",
    )
    .unwrap();
    let r = run_hello(&root, &[]);
    assert_eq!(
        r.stderr,
        "ld.so: library /lib/libgreet.so: not an ELF file\n"
    );
    assert_eq!(r.status, Status::Code(127));
}

#[test]
fn elfmap_moves_a_taken_object_and_returns_irix_errnos() {
    let Some(prog) = guest_program("irix", "elfmap_errors") else {
        return;
    };
    let dir = Scratch::new("elfmap");
    std::fs::copy(&prog, dir.path().join("elfmap_errors")).unwrap();
    let r = run_emu(
        ["run", "--root", ".", "elfmap_errors", "/elfmap_errors"],
        dir.path(),
    );
    assert_eq!(
        r.stdout_text(),
        "moved: yes\n\
         header at the new address: yes\n\
         second mapping elsewhere again: yes\n\
         data segment keeps its offset: yes\n\
         count 0: -1 EINVAL\n\
         count 65: -1 EINVAL\n\
         bad descriptor: -1 EBADF\n\
         headers unreadable: -1 EFAULT\n\
         not PT_LOAD: -1 ENOEXEC\n\
         segment outside the file: -1 ENOEXEC\n\
         filesz above memsz: -1 ENOEXEC\n\
         not an ELF file: -1 ENOEXEC\n\
         a pipe: -1 EACCES\n\
         a directory: -1 EACCES\n"
    );
    assert_eq!(r.status, Status::Code(0));
    assert_eq!(dir.listing(), vec!["elfmap_errors".to_string()]);
}

#[test]
fn a_bound_directory_is_the_guests_working_directory() {
    // fileio creates, reads and removes fileio.tmp in its working
    // directory: started in a bound host directory outside the root, it
    // works there.
    let Some(root) = dynroot() else { return };
    let Some(prog) = guest_program("irix", "fileio") else {
        return;
    };
    let work = Scratch::new("bind-cwd");
    let r = run_emu(
        [
            "run",
            "--root",
            &root.display().to_string(),
            "--bind",
            &work.path().display().to_string(),
            &prog.display().to_string(),
        ],
        work.path(),
    );
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    assert!(r
        .stdout_text()
        .contains("stat: size 29, regular file yes\n"));
    assert_eq!(work.listing(), Vec::<String>::new());
}

#[test]
fn without_a_bind_the_guest_starts_at_the_root() {
    // The host's working directory is outside the root and not bound: the
    // guest starts in /, so fileio creates (and removes) its file in the
    // root, and the host's working directory stays untouched.
    let Some(prog) = guest_program("irix", "fileio") else {
        return;
    };
    let root = Scratch::new("bind-root");
    let work = Scratch::new("bind-elsewhere");
    let r = run_emu(
        [
            "run",
            "--root",
            &root.path().display().to_string(),
            &prog.display().to_string(),
        ],
        work.path(),
    );
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    assert_eq!(
        work.listing(),
        Vec::<String>::new(),
        "nothing in the host cwd"
    );
}

#[test]
fn bad_binds_are_refused() {
    let dir = Scratch::new("bind-bad");
    let Some(prog) = guest_program("irix", "hello") else {
        return;
    };
    let prog = prog.display().to_string();
    let r = run_emu(["run", "--bind", "/no/such/dir", &prog], dir.path());
    assert_eq!(r.status, Status::Code(exit::EMULATOR_FAILURE.into()));
    assert_eq!(
        r.stderr,
        "irix-emu: --bind /no/such/dir: No such file or directory\n"
    );
    let host = dir.path().display().to_string();
    let r = run_emu(
        ["run", "--bind", &format!("{host}:relative"), &prog],
        dir.path(),
    );
    assert_eq!(r.status, Status::Code(exit::EMULATOR_FAILURE.into()));
    assert_eq!(
        r.stderr,
        format!("irix-emu: --bind {host}:relative: the guest path must be absolute\n")
    );
}

#[test]
fn execve_starts_a_dynamic_program_through_its_interpreter() {
    let Some(root) = dynroot() else { return };
    let Some(exec) = guest_program("irix", "proc_exec") else {
        return;
    };
    let root_s = root.display().to_string();
    let exec_s = exec.display().to_string();
    let r = run_emu(["run", "--root", &root_s, &exec_s, "/bin/dyn_hello"], &root);
    assert_eq!(
        r.stdout_text(),
        "proc_exec: profil 0\n\
         proc_exec: exec /bin/dyn_hello\n\
         hello from libgreet.so\n\
         2 + 40 = 42\n\
         argc = 1\n\
         /bin/dyn_hello\n\
         calls = 7\n"
    );
    assert_eq!(r.status, Status::Code(42));
}

#[test]
fn execve_of_a_program_whose_interpreter_is_missing_is_enoent() {
    let dir = Scratch::new("dyn-exec-nointerp");
    let Some(root) = copy_root(&dir) else { return };
    let Some(exec) = guest_program("irix", "proc_exec") else {
        return;
    };
    std::fs::remove_file(root.join("lib/ld.so")).unwrap();
    let r = run_emu(
        [
            "run",
            "--root",
            &root.display().to_string(),
            &exec.display().to_string(),
            "/bin/dyn_hello",
        ],
        &root,
    );
    assert!(
        r.stdout_text().ends_with("proc_exec: execve: ENOENT\n"),
        "{}",
        r.stdout_text()
    );
    assert_eq!(r.status, Status::Code(127));
}
