//! Running programs from a root: PROGRAM inside --root or a bind is seen by
//! the guest at its guest path (argv[0]), so SGI's wrappers that find their
//! back ends through argv[0] work; the private /var/tmp; a Linux MIPS
//! program ends at once with one line naming it and qemu-mips (126). The
//! IRIX-root tests need `IRIX_ROOT_53` and are reported as ignored without
//! it (test_support::roots).

use crate::common;

use common::{exited, repo_path, run_emu, Scratch};

#[test]
fn a_linux_mips_program_ends_at_once_naming_what_runs_it() {
    // Its first system call is numbered in Linux's 4000 range: irix-emu
    // says what the program is and what runs it, and exits 126 (not a
    // runnable IRIX program) instead of answering ENOSYS for ever.
    let dir = Scratch::new("linux-hello");
    let hello = repo_path("guest/bin/linux/hello");
    let r = run_emu(["run".as_ref(), hello.as_os_str()], dir.path());
    assert_eq!(r.status, exited(126), "stderr: {}", r.stderr);
    assert_eq!(r.stdout_text(), "");
    assert_eq!(
        r.stderr,
        format!(
            "irix-emu: {}: a Linux MIPS (o32) program, not an IRIX one (its first system \
             call is Linux's 4004): run it with qemu-mips\n",
            hello.display()
        )
    );
}

#[test]
fn a_program_inside_the_root_gets_its_guest_path_as_argv0() {
    // args_env prints its arguments: argv[0] is the guest's path of the
    // program, not the host's.
    let dir = Scratch::new("argv0-guest");
    let bin = dir.path().join("root/bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::copy(repo_path("guest/bin/irix/args_env"), bin.join("args_env")).unwrap();
    let root = dir.path().join("root");
    let r = run_emu(
        [
            "run".as_ref(),
            "--root".as_ref(),
            root.as_os_str(),
            bin.join("args_env").as_os_str(),
            "x".as_ref(),
        ],
        dir.path(),
    );
    assert_eq!(r.status, exited(0), "stderr: {}", r.stderr);
    let out = r.stdout_text();
    assert!(out.contains("argv[0]=/bin/args_env"), "{out}");
}

#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn sgi_nm_finds_its_back_end_through_argv0_when_run_from_the_root() {
    // SGI's /usr/bin/nm is a wrapper that runs argv[0]'s ../lib/nm: given
    // as ROOT/usr/bin/nm, it must look for /usr/lib/nm in the guest.
    let root = test_support::roots::irix_root_53(&["usr/bin/nm", "usr/bin/cc"]);
    let dir = Scratch::new("sgi-nm");
    std::fs::write(dir.path().join("a.c"), "int f(int x) { return x + 1; }\n").unwrap();
    let run = |tool: &str, args: &[&str]| {
        let mut all: Vec<String> = vec![
            "run".into(),
            "--root".into(),
            root.display().to_string(),
            "--bind".into(),
            dir.path().display().to_string(),
            root.join(tool).display().to_string(),
        ];
        all.extend(args.iter().map(|a| a.to_string()));
        run_emu(all, dir.path())
    };
    let cc = run("usr/bin/cc", &["-c", "a.c"]);
    assert_eq!(cc.status, exited(0), "stderr: {}", cc.stderr);
    let nm = run("usr/bin/nm", &["a.o"]);
    assert_eq!(nm.status, exited(0), "stderr: {}", nm.stderr);
    let out = nm.stdout_text();
    assert!(
        out.contains("|Proc    |end=3 int         |Text     | f"),
        "{out}"
    );
    let size = run("usr/bin/size", &["a.o"]);
    assert_eq!(size.status, exited(0), "stderr: {}", size.stderr);
}

/// `irix-emu run --root R /usr/bin/nm` is what chroot users try: PROGRAM is
/// always a host path (the host may have a file of that name of its own),
/// so it fails as any host path would, and the hint names the file the
/// guest sees at that path.
#[test]
fn a_guest_path_given_as_program_fails_with_a_hint_naming_the_guest_file() {
    let dir = Scratch::new("guest-path-program");
    let root = dir.path().join("root");
    let guest_only = "/irix-emu-guest-only/bin/hello";
    let in_root = root.join(&guest_only[1..]);
    std::fs::create_dir_all(in_root.parent().unwrap()).unwrap();
    std::fs::copy(repo_path("guest/bin/irix/hello"), &in_root).unwrap();
    assert!(!std::path::Path::new(guest_only).exists());
    let shown = in_root.canonicalize().unwrap();
    let r = run_emu(
        [
            "run".as_ref(),
            "--root".as_ref(),
            root.as_os_str(),
            guest_only.as_ref(),
        ],
        dir.path(),
    );
    assert_eq!(r.status, exited(127), "stderr: {}", r.stderr);
    assert_eq!(
        r.stderr_lines(),
        [
            format!("irix-emu: {guest_only}: No such file or directory"),
            format!(
                "irix-emu: hint: PROGRAM is a host path; the guest's {guest_only} is {}",
                shown.display()
            ),
        ]
    );
    // Following the hint runs it.
    let r = run_emu(
        [
            "run".as_ref(),
            "--root".as_ref(),
            root.as_os_str(),
            shown.as_os_str(),
        ],
        dir.path(),
    );
    assert_eq!(r.status, exited(0), "stderr: {}", r.stderr);
}

/// The host's own file of that name (its /bin/sh) is what PROGRAM names, and
/// it is no IRIX program (126): the hint names the guest's /bin/sh.
#[test]
fn a_guest_path_the_host_has_too_names_the_host_file_and_hints_at_the_guest_one() {
    if !std::path::Path::new("/bin/sh").is_file() {
        eprintln!("SKIP: the host has no /bin/sh");
        return;
    }
    let dir = Scratch::new("guest-path-host-too");
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("bin")).unwrap();
    std::fs::copy(repo_path("guest/bin/irix/hello"), root.join("bin/sh")).unwrap();
    let shown = root.join("bin/sh").canonicalize().unwrap();
    let r = run_emu(
        [
            "run".as_ref(),
            "--root".as_ref(),
            root.as_os_str(),
            "/bin/sh".as_ref(),
        ],
        dir.path(),
    );
    assert_eq!(r.status, exited(126), "stderr: {}", r.stderr);
    assert_eq!(
        r.stderr_lines().last().copied(),
        Some(
            format!(
                "irix-emu: hint: PROGRAM is a host path; the guest's /bin/sh is {}",
                shown.display()
            )
            .as_str()
        )
    );
}

/// A PROGRAM that is the guest's file as well (inside the root) gets no hint.
#[test]
fn a_program_inside_the_root_that_fails_gets_no_guest_path_hint() {
    let dir = Scratch::new("guest-path-same");
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("bin")).unwrap();
    std::fs::write(root.join("bin/junk"), b"not an executable").unwrap();
    let r = run_emu(
        [
            "run".as_ref(),
            "--root".as_ref(),
            root.as_os_str(),
            root.join("bin/junk").as_os_str(),
        ],
        dir.path(),
    );
    assert_eq!(r.status, exited(126), "stderr: {}", r.stderr);
    assert!(
        !r.stderr.contains("hint: PROGRAM is a host path"),
        "{}",
        r.stderr
    );
}

/// PROGRAM inside the root: argv[0], the name SGI_RDNAME gives (what ps
/// shows) and the path exec records are the guest's, before and after the
/// program execs itself through argv[0] (guest/src/proc_names.c).
#[test]
fn a_program_inside_the_root_is_named_by_its_guest_path_before_and_after_exec() {
    let dir = Scratch::new("guest-names");
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("bin")).unwrap();
    std::fs::copy(
        repo_path("guest/bin/irix/proc_names"),
        root.join("bin/proc_names"),
    )
    .unwrap();
    let r = run_emu(
        [
            "run".as_ref(),
            "--root".as_ref(),
            root.as_os_str(),
            root.join("bin/proc_names").as_os_str(),
        ],
        dir.path(),
    );
    assert_eq!(r.status, exited(0), "stderr: {}", r.stderr);
    assert_eq!(
        r.stdout_text(),
        "before exec: argv[0] /bin/proc_names\n\
         before exec: rdname proc_names (10)\n\
         after exec: argv[0] /bin/proc_names\n\
         after exec: rdname proc_names (10)\n"
    );
}
