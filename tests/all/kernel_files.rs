//! The file and directory calls (crates/irix-kernel/src/syscalls/paths.rs,
//! attrs.rs, fsinfo.rs, stat.rs, conf.rs), each checked by
//! guest/src/fs_files.c through libc's indirect syscall(nr, ...) against a
//! sentence of its IRIX 5.3 manual page. The program runs once, with an
//! empty scratch directory as its root and cwd; each test below checks the
//! lines of one call ("name: value" or "name: -1 ERRNO"), and is named
//! after what its page says.

use crate::common;

use std::sync::OnceLock;

use common::{guest_program, run_emu, Run, Scratch, Status};

/// The one run of fs_files, and what it left in its directory.
struct Outcome {
    run: Run,
    stdout: String,
    left_behind: Vec<String>,
}

/// Runs guest/bin/irix/fs_files once for all the tests (None: not built,
/// skipped by the tools rule).
fn outcome() -> Option<&'static Outcome> {
    static OUTCOME: OnceLock<Option<Outcome>> = OnceLock::new();
    OUTCOME
        .get_or_init(|| {
            let program = guest_program("irix", "fs_files")?;
            let dir = Scratch::new("kernel_files");
            let run = run_emu(
                ["run".as_ref(), program.as_os_str(), "scratch-root".as_ref()],
                dir.path(),
            );
            let stdout = run.stdout_text();
            Some(Outcome {
                run,
                stdout,
                left_behind: dir.names(),
            })
        })
        .as_ref()
}

/// Asserts that the lines fs_files printed for `calls` (those starting
/// "CALL:" or "CALL " for one of them) are `want`, in that order.
fn check(calls: &[&str], want: &[&str]) {
    let Some(o) = outcome() else {
        return;
    };
    let got: Vec<&str> = o
        .stdout
        .lines()
        .filter(|l| {
            calls
                .iter()
                .any(|c| l.starts_with(&format!("{c}:")) || l.starts_with(&format!("{c} ")))
        })
        .collect();
    assert_eq!(got, want, "stderr: {}", o.run.stderr);
}

#[test]
fn the_program_exits_0_printing_every_line_in_order() {
    let Some(o) = outcome() else {
        return;
    };
    assert_eq!(o.run.status, Status::Code(0), "stderr: {}", o.run.stderr);
    assert_eq!(o.stdout, EXPECTED);
}

#[test]
fn the_program_removes_what_it_made() {
    let Some(o) = outcome() else {
        return;
    };
    assert_eq!(o.left_behind, Vec::<String>::new());
}

/// mkdir(2) (IRIX 5.3 has no page of its own; SVR4's): the new directory's
/// permission bits are mode less the umask; EEXIST when the named file exists,
/// a dangling link included
#[test]
fn mkdir_makes_a_directory_with_mode_less_umask_and_refuses_an_existing_name() {
    check(
        &["mkdir"],
        &[
            "mkdir: 0",
            "mkdir: mode 755, directory",
            "mkdir existing: -1 EEXIST",
            "mkdir missing parent: -1 ENOENT",
            "mkdir over a dangling link: -1 EEXIST",
        ],
    );
}

/// symlink(2): "symlink creates a symbolic link name2 to the file name1";
/// readlink(2): "The contents of the link are not null-terminated when
/// returned", "returns only as many characters as will fit in the buffer",
/// EINVAL "The named file is not a symbolic link"
#[test]
fn symlink_stores_a_guest_path_and_readlink_returns_it_unterminated() {
    check(&["symlink"], &["symlink: 0", "symlink existing: -1 EEXIST"]);
}

/// readlink(2): "If the buffer passed to readlink is smaller than the symbolic
/// link file being read, readlink returns only as many characters as will fit
/// in the buffer"; EINVAL "The named file is not a symbolic link"; EFAULT "buf
/// extends outside the allocated address space"
#[test]
fn readlink_fills_only_what_fits_and_refuses_a_file_that_is_no_link() {
    check(
        &["readlink"],
        &[
            "readlink: 2 \"/d\"",
            "readlink into 1 byte: 1 \"/#\"",
            "readlink of a directory: -1 EINVAL",
            "readlink missing: -1 ENOENT",
            "readlink bad buffer: -1 EFAULT",
        ],
    );
}

/// symlink(2): "A stat(2) on a symbolic link returns the linked-to file, while
/// an lstat returns information about the link itself" (the link names /d: the
/// guest's, never the host's)
#[test]
fn an_absolute_link_is_followed_from_the_guest_root() {
    check(
        &["stat through the link"],
        &["stat through the link: directory"],
    );
}

/// symlink(2): "an lstat returns information about the link itself"
#[test]
fn lstat_reports_the_link_itself() {
    check(
        &["lstat of the link"],
        &["lstat of the link: symbolic link"],
    );
}

/// rename(2): EINVAL "old is a parent directory of new, or an attempt is made
/// to rename . or .."; EISDIR "new points to a directory but old points to a
/// file"; ENOTDIR "the old parameter names a directory and the new parameter
/// names a file"; EEXIST "The link named by new is a directory containing
/// entries"; EXDEV "The links named by old and new are on different file
/// systems"; EBUSY "new is a directory and the mount point for a mounted file
/// system"; "If the final component of old is a symbolic link, the symbolic
/// link is renamed"
#[test]
fn rename_moves_within_a_file_system_and_names_each_failure_as_the_page_does() {
    check(
        &["rename"],
        &[
            "rename: 0",
            "rename missing: -1 ENOENT",
            "rename into its own subtree: -1 EINVAL",
            "rename dot: -1 EINVAL",
            "rename file over directory: -1 EISDIR",
            "rename directory over file: -1 ENOTDIR",
            "rename over a non-empty directory: -1 EEXIST",
            "rename over an empty directory: 0",
            "rename across file systems: -1 EXDEV",
            "rename over a mount point: -1 EBUSY",
            "rename a link: 0",
            "rename a link: the link moved, \"/d\"",
            "rename the lent /dev/null: -1 EROFS",
        ],
    );
}

/// link(2): EXDEV "The link named by path2 and the file named by path1 are on
/// different logical devices (file systems)"; EPERM "The file named by path1 is
/// a directory"
#[test]
fn link_is_exdev_across_file_systems_and_eperm_for_a_directory() {
    check(
        &["link"],
        &[
            "link across file systems: -1 EXDEV",
            "link a directory: -1 EPERM",
        ],
    );
}

/// rmdir(2): EEXIST "The directory contains entries other than those for . and
/// .."; EINVAL "The directory to be removed is the current directory" and "the
/// . entry of a directory"; EBUSY "the mount point for a mounted file system";
/// "If path is a symbolic link, it is not followed"
#[test]
fn rmdir_removes_only_an_empty_directory_that_is_neither_dot_the_cwd_nor_a_mount_point() {
    check(
        &["rmdir"],
        &[
            "rmdir non-empty: -1 EEXIST",
            "rmdir dot: -1 EINVAL",
            "rmdir the current directory: -1 EINVAL",
            "rmdir a mount point: -1 EBUSY",
            "rmdir a link: -1 ENOTDIR",
            "rmdir a file: -1 ENOTDIR",
            "rmdir: 0",
            "rmdir missing: -1 ENOENT",
        ],
    );
}

/// mknod(2): "mknod may be invoked only by the super-user for file types other
/// than FIFO special"; "The low-order 9 bits of mode are modified by the
/// process's file mode creation mask"; EEXIST "The named file exists"
#[test]
fn mknod_makes_fifos_and_only_the_super_user_makes_other_files() {
    check(
        &["mknod"],
        &[
            "mknod fifo: 0",
            "mknod fifo: fifo, mode 644",
            "mknod existing: -1 EEXIST",
            "mknod character device: -1 EPERM",
            "mknod regular file: -1 EPERM",
            "mknod unknown version: -1 EINVAL",
        ],
    );
}

/// chroot(2): EPERM "The calling process does not have the super-user
/// privilege"
#[test]
fn chroot_needs_the_super_user() {
    check(&["chroot"], &["chroot: -1 EPERM"]);
}

/// fchdir(2): "The fildes argument to fchdir is an open file descriptor of a
/// directory"; ENOTDIR "The open file descriptor fildes does not refer to a
/// directory"; EBADF "fildes is not an open file descriptor"
#[test]
fn fchdir_makes_an_open_directory_the_working_directory() {
    check(
        &["fchdir"],
        &[
            "fchdir: 0",
            "fchdir: relative names start there: yes",
            "fchdir to a fifo: -1 ENOTDIR",
            "fchdir bad descriptor: -1 EBADF",
        ],
    );
}

/// utime(2): "If times is NULL, the access and modification times of the file
/// are set to the current time"; "the access and modification times are set to
/// the values contained in the designated structure"; EFAULT "times is not NULL
/// and points outside the process's allocated address space"
#[test]
fn utime_sets_the_given_times_or_the_current_time() {
    check(
        &["utime"],
        &[
            "utime: 0",
            "utime: atime 1000000, mtime 2000000",
            "utime now: 0",
            "utime now: mtime is the current time: yes",
            "utime bad times: -1 EFAULT",
            "utime missing: -1 ENOENT",
        ],
    );
}

/// truncate(2): "If it was shorter, bytes from the EOF before the call to the
/// EOF after the call will be read in as zeros"; EISDIR "The file referred to
/// by path is a directory"; EINVAL "path is not an ordinary file", "length is
/// less than zero"
#[test]
fn truncate_sets_the_size_and_a_longer_file_reads_zeros() {
    check(
        &["truncate"],
        &[
            "truncate: 0",
            "truncate: longer again reads 8 bytes, \"0123\" then zeros: yes",
            "truncate a directory: -1 EISDIR",
            "truncate negative: -1 EINVAL",
            "truncate missing: -1 ENOENT",
            "truncate a fifo: -1 EINVAL",
        ],
    );
}

/// truncate(2): "for ftruncate the file must be open for writing"; EBADF
/// "fildes is not a file descriptor open for writing"
#[test]
fn ftruncate64_and_ftruncate_need_a_descriptor_open_for_writing() {
    check(
        &["ftruncate64", "ftruncate"],
        &[
            "ftruncate64: 0",
            "ftruncate64: size 0 5",
            "ftruncate read-only: -1 EBADF",
        ],
    );
}

/// chown(2): "Only processes with effective user ID equal to the file owner or
/// super-user may change the ownership of a file": the guest (uid 100, gid 100)
/// owns what it makes
#[test]
fn files_the_guest_makes_are_its_own() {
    check(&["stat owner"], &["stat owner: uid 100 gid 100"]);
}

/// chown(2): "if the variable restricted_chown is enabled ... only the super-
/// user can change the owner of the file"; "The owner of the file may change
/// the group ownership only to those groups of which he is a member"; "Either
/// the owner or group ID may be left unchanged by specifying it as -1"; EINVAL
/// "The owner or group value is out of the valid range"; "the set-user-ID and
/// set-group-ID bits of the file mode ... will be cleared"
#[test]
fn chown_is_restricted_and_clears_the_set_id_bits() {
    check(
        &["chown"],
        &[
            "chown to the owner and group: 0",
            "chown unchanged: 0",
            "chown to another owner: -1 EPERM",
            "chown to another group: -1 EPERM",
            "chown out of range: -1 EINVAL",
            "chown missing: -1 ENOENT",
            "chown clears set-ID bits: mode 755",
            "chown a dangling link: -1 ENOENT",
        ],
    );
}

/// chown(2): "lchown differs from chown in that it does not follow symbolic
/// links"
#[test]
fn lchown_does_not_follow_the_link() {
    check(&["lchown"], &["lchown a dangling link: 0"]);
}

/// chown(2): fchown: EBADF "Fd does not refer to a valid descriptor"
#[test]
fn fchown_checks_the_open_file_as_chown_does() {
    check(
        &["fchown"],
        &[
            "fchown: 0",
            "fchown to another owner: -1 EPERM",
            "fchown bad descriptor: -1 EBADF",
            "fchown a pipe: 0",
        ],
    );
}

/// fsync(2): EBADF "fildes is not a valid file descriptor open for writing"
#[test]
fn fsync_needs_a_descriptor_open_for_writing() {
    check(
        &["fsync"],
        &[
            "fsync: 0",
            "fsync read-only: -1 EBADF",
            "fsync bad descriptor: -1 EBADF",
        ],
    );
}

/// sync(2): "sync causes all information in memory that should be on disk to be
/// written out"
#[test]
fn sync_returns() {
    check(&["sync"], &["sync: 0"]);
}

/// stat(2) through xstat version 3 (struct stat64): the same file as version 2
/// with 64-bit st_ino, st_size and st_blocks; a size past 2 GB is EOVERFLOW in
/// version 2
#[test]
fn stat64_is_xstat_version_3_with_64_bit_sizes() {
    check(
        &["stat64"],
        &[
            "stat64: 0",
            "stat64: mode 100755, nlink 1, uid 100, size 0 5, fstype efs",
            "stat64 and stat agree: ino yes, mtime yes",
            "stat64 of it: size 1 1073741824",
        ],
    );
}

/// lxstat and fxstat take version 3 too
#[test]
fn lstat64_and_fstat64() {
    check(&["lstat64"], &["lstat64: symbolic link"]);
}

/// fxstat version 3
#[test]
fn fstat64() {
    check(&["fstat64"], &["fstat64: 0"]);
}

/// statvfs(2): "f_fsid file system id (dev for now)", f_basetype "a null-
/// terminated FSType name", ST_NOTRUNC "does not truncate file names longer
/// than {NAME_MAX}", ST_RDONLY "read-only file system"
#[test]
fn statvfs_describes_the_file_system_holding_the_file() {
    check(
        &["statvfs"],
        &[
            "statvfs: 0",
            "statvfs: basetype efs, namemax 255, no truncation yes, blocks counted yes",
            "statvfs: f_fsid is st_dev: yes",
            "statvfs missing: -1 ENOENT",
            "statvfs bad buffer: -1 EFAULT",
            "statvfs of the lent /dev/null: read-only yes",
        ],
    );
}

/// statvfs(2): "fstatvfs is similar to statvfs, except that the file named by
/// path in statvfs is instead identified by an open file descriptor"; EBADF
/// "fildes is not an open file descriptor"
#[test]
fn fstatvfs_is_statvfs_of_an_open_file() {
    check(
        &["fstatvfs"],
        &[
            "fstatvfs: 0",
            "fstatvfs: same file system as statvfs: yes",
            "fstatvfs bad descriptor: -1 EBADF",
        ],
    );
}

/// statfs(2): "if it holds a smaller value the system will fill the structure
/// with that number of bytes"; EINVAL "Fstyp is an invalid file system type;
/// path is not a block special file and fstyp is nonzero; len is negative or is
/// greater than sizeof (struct statfs)"
#[test]
fn statfs_fills_len_bytes_and_refuses_an_unmounted_type() {
    check(
        &["statfs"],
        &[
            "statfs: 0",
            "statfs: f_fstyp 1, f_bsize set yes, f_fname empty yes",
            "statfs 2 bytes: 0",
            "statfs 2 bytes: the rest untouched yes",
            "statfs len too big: -1 EINVAL",
            "statfs fstyp: -1 EINVAL",
        ],
    );
}

/// statfs(2): "fstatfs is similar, except that the file named by path in statfs
/// is instead identified by an open file descriptor"
#[test]
fn fstatfs_is_statfs_of_an_open_file() {
    check(
        &["fstatfs"],
        &["fstatfs: 0", "fstatfs bad descriptor: -1 EBADF"],
    );
}

const SYSFS: [&str; 13] = [
    "sysfs GETNFSTYP: 3",
    "sysfs GETFSTYP 1: 0 \"efs\"",
    "sysfs GETFSTYP 2: 0 \"fifofs\"",
    "sysfs GETFSTYP 3: 0 \"specfs\"",
    "sysfs GETFSIND efs: 1",
    "sysfs GETFSIND fifofs: 2",
    "sysfs GETFSIND nfs: -1 EINVAL",
    "sysfs GETFSIND a long name: -1 EINVAL",
    "sysfs GETFSTYP 0: -1 EINVAL",
    "sysfs GETFSTYP past the last: -1 EINVAL",
    "sysfs GETFSTYP bad buffer: -1 EFAULT",
    "sysfs GETFSIND bad name: -1 EFAULT",
    "sysfs opcode 4: -1 EINVAL",
];

/// sysfs(2): "GETFSIND Translate fsname ... into a file-system type index",
/// "GETFSTYP Translate fs_index ... into a null-terminated file-system type
/// identifier", "GETNFSTYP Return the total number of file system types
/// configured in the system"; "EINVAL fsname points to an invalid
/// file-system identifier; fs_index is zero, or invalid; opcode is invalid.
/// EFAULT buf or fsname points to an invalid user address." The index of
/// efs is statfs's f_fstyp.
#[test]
fn sysfs_numbers_the_file_system_types_from_one_as_statfs_reports_them() {
    check(&["sysfs"], &SYSFS);
}

/// sysconf(3C): "_SC_JOB_CONTROL Always 1 on Irix", "_SC_NACLS_MAX Always 0 on
/// Irix", "If sysconf fails due to a value of name that is not defined on the
/// system, the function will return a value of -1 without changing the value of
/// errno"; "If name is an invalid value, sysconf will return -1 and set errno"
#[test]
fn sysconf_answers_every_name_irix_defines() {
    check(
        &["sysconf"],
        &[
            "sysconf _SC_ARG_MAX: 20480",
            "sysconf _SC_CHILD_MAX: 100",
            "sysconf _SC_CLK_TCK: 100",
            "sysconf _SC_NGROUPS_MAX: 16",
            "sysconf _SC_OPEN_MAX: 200",
            "sysconf _SC_JOB_CONTROL: 1",
            "sysconf _SC_SAVED_IDS: 1",
            "sysconf _SC_VERSION: 199009",
            "sysconf _SC_PASS_MAX: 8",
            "sysconf _SC_LOGNAME_MAX: 8",
            "sysconf _SC_PAGESIZE: 4096",
            "sysconf _SC_XOPEN_VERSION: 3",
            "sysconf _SC_NACLS_MAX: 0",
            "sysconf _SC_NPROC_CONF: 1",
            "sysconf _SC_NPROC_ONLN: 1",
            "sysconf _SC_STREAM_MAX: 200",
            "sysconf _SC_TZNAME_MAX: 8",
            "sysconf sysconf 18: 4",
            "sysconf sysconf 19: 255",
            "sysconf _SC_RTSIG_MAX: 16",
            "sysconf _SC_SIGQUEUE_MAX: 32",
            "sysconf _SC_ASYNCHRONOUS_IO: 1",
            "sysconf _SC_REALTIME_SIGNALS: 1",
            "sysconf _SC_PRIORITIZED_IO: -1",
            "sysconf _SC_ACL: 0",
            "sysconf _SC_AUDIT: 0",
            "sysconf _SC_INF: 0",
            "sysconf _SC_MAC: 0",
            "sysconf _SC_CAP: 0",
            "sysconf _SC_IP_SECOPTS: 0",
            "sysconf _SC_KERN_POINTERS: 32",
            "sysconf sysconf 32: -1 EINVAL",
        ],
    );
}

/// pathconf(2): _PC_LINK_MAX to _PC_VDISABLE; ENOENT "the named file does not
/// exist"; EBADF "fildes is not a valid file descriptor"; EINVAL "if name is an
/// invalid value"
#[test]
fn pathconf_answers_the_nine_names_and_checks_the_file() {
    check(
        &["pathconf"],
        &[
            "pathconf 1: 30000",
            "pathconf 2: 256",
            "pathconf 3: 512",
            "pathconf 4: 255",
            "pathconf 5: 1024",
            "pathconf 6: 10240",
            "pathconf 7: 1",
            "pathconf 8: 1",
            "pathconf 9: 0",
            "pathconf 10: -1 EINVAL",
            "pathconf missing: -1 ENOENT",
        ],
    );
}

/// pathconf(2): "fildes is an open file descriptor"
#[test]
fn fpathconf_takes_a_descriptor() {
    check(
        &["fpathconf"],
        &["fpathconf: 10240", "fpathconf bad descriptor: -1 EBADF"],
    );
}

/// the private /dev/null a root without /dev gets is the host's: no name change
/// reaches it (EROFS, as for a read-only file system)
#[test]
fn the_lent_devices_are_a_read_only_file_system() {
    check(
        &["unlink the lent"],
        &["unlink the lent /dev/null: -1 EROFS"],
    );
}

/// truncate(2): the 64-bit forms take the length as a register pair
/// (truncate64(path, pad, hi, lo)), as libc's truncate64 passes it
#[test]
fn truncate64_takes_a_64_bit_length() {
    check(&["truncate64"], &["truncate64: 0", "truncate64: size 0 7"]);
}

/// stat(2): EOVERFLOW when the size does not fit version 2's 32-bit
/// st_size; an unknown version is EINVAL
#[test]
fn a_size_past_2_gb_is_eoverflow_in_version_2_and_an_unknown_version_einval() {
    check(
        &["stat of a file past 2 GB", "stat version 4"],
        &[
            "stat version 4: -1 EINVAL",
            "stat of a file past 2 GB: -1 EOVERFLOW",
        ],
    );
}

/// `irix-emu run --root ROOT --bind DIR ROOT/TOOL ARGS` in `dir`.
fn sgi(root: &std::path::Path, dir: &Scratch, tool: &str, args: &[&str]) -> Run {
    let mut all = vec![
        "run".to_string(),
        "--root".into(),
        root.display().to_string(),
        "--bind".into(),
        dir.path().display().to_string(),
        root.join(tool).display().to_string(),
    ];
    all.extend(args.iter().map(|a| a.to_string()));
    run_emu(all, dir.path())
}

/// SGI's ar replaces an archive by rename(2) and dates it with utime(2);
/// strip rewrites a program in place with fchown(2) and truncate(2). The
/// archive lists and links, and the stripped program still runs. (ar's
/// back end, usr/lib/ar, is run directly: the usr/bin/ar wrapper finds it
/// through argv[0].)
#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn sgi_ar_and_strip_rename_date_chown_and_truncate() {
    let root = test_support::roots::irix_root_53(&["usr/lib/ar", "usr/bin/strip"]);
    let dir = Scratch::new("sgi_ar");
    let at = |name: &str| dir.path().join(name).display().to_string();
    dir.write("f.c", b"int f(void) { return 42; }\n");
    dir.write("m.c", b"int f(void);\nint main(void) { return f(); }\n");
    let ok = |r: Run, what: &str| {
        assert_eq!(r.status, Status::Code(0), "{what}: {}", r.stderr);
        r.stdout_text()
    };
    ok(
        sgi(
            &root,
            &dir,
            "usr/bin/cc",
            &["-c", &at("f.c"), "-o", &at("f.o")],
        ),
        "cc -c",
    );
    ok(
        sgi(&root, &dir, "usr/lib/ar", &["rc", &at("lib.a"), &at("f.o")]),
        "ar rc",
    );
    assert_eq!(
        ok(sgi(&root, &dir, "usr/lib/ar", &["t", &at("lib.a")]), "ar t"),
        "f.o\n"
    );
    assert_eq!(
        dir.names()
            .iter()
            .filter(|n| n.starts_with("ar.tmp"))
            .count(),
        0
    );
    ok(
        sgi(
            &root,
            &dir,
            "usr/bin/cc",
            &["-o", &at("m"), &at("m.c"), &at("lib.a")],
        ),
        "cc -o",
    );
    let run_m = || {
        let mut all = vec![
            "run".to_string(),
            "--root".into(),
            root.display().to_string(),
        ];
        all.extend(["--bind".into(), dir.path().display().to_string(), at("m")]);
        run_emu(all, dir.path()).status
    };
    assert_eq!(run_m(), Status::Code(42));
    let before = std::fs::metadata(dir.path().join("m")).unwrap().len();
    ok(sgi(&root, &dir, "usr/bin/strip", &[&at("m")]), "strip");
    let after = std::fs::metadata(dir.path().join("m")).unwrap().len();
    assert!(after < before, "strip made m smaller: {before} -> {after}");
    assert_eq!(run_m(), Status::Code(42));
}

const EXPECTED: &str = "mkdir: 0\n\
mkdir: mode 755, directory\n\
mkdir existing: -1 EEXIST\n\
mkdir missing parent: -1 ENOENT\n\
mkdir over a dangling link: -1 EEXIST\n\
symlink: 0\n\
symlink existing: -1 EEXIST\n\
readlink: 2 \"/d\"\n\
readlink into 1 byte: 1 \"/#\"\n\
readlink of a directory: -1 EINVAL\n\
readlink missing: -1 ENOENT\n\
readlink bad buffer: -1 EFAULT\n\
stat through the link: directory\n\
lstat of the link: symbolic link\n\
rename: 0\n\
rename missing: -1 ENOENT\n\
rename into its own subtree: -1 EINVAL\n\
rename dot: -1 EINVAL\n\
rename file over directory: -1 EISDIR\n\
rename directory over file: -1 ENOTDIR\n\
rename over a non-empty directory: -1 EEXIST\n\
rename over an empty directory: 0\n\
rename across file systems: -1 EXDEV\n\
rename over a mount point: -1 EBUSY\n\
rename a link: 0\n\
rename a link: the link moved, \"/d\"\n\
link across file systems: -1 EXDEV\n\
link a directory: -1 EPERM\n\
rmdir non-empty: -1 EEXIST\n\
rmdir dot: -1 EINVAL\n\
rmdir the current directory: -1 EINVAL\n\
rmdir a mount point: -1 EBUSY\n\
rmdir a link: -1 ENOTDIR\n\
rmdir a file: -1 ENOTDIR\n\
rmdir: 0\n\
rmdir missing: -1 ENOENT\n\
mknod fifo: 0\n\
mknod fifo: fifo, mode 644\n\
mknod existing: -1 EEXIST\n\
mknod character device: -1 EPERM\n\
mknod regular file: -1 EPERM\n\
mknod unknown version: -1 EINVAL\n\
chroot: -1 EPERM\n\
fchdir: 0\n\
fchdir: relative names start there: yes\n\
fchdir to a fifo: -1 ENOTDIR\n\
fchdir bad descriptor: -1 EBADF\n\
unlink the lent /dev/null: -1 EROFS\n\
chmod the lent /dev/null: -1 EROFS\n\
rename the lent /dev/null: -1 EROFS\n\
utime: 0\n\
utime: atime 1000000, mtime 2000000\n\
utime now: 0\n\
utime now: mtime is the current time: yes\n\
utime bad times: -1 EFAULT\n\
utime missing: -1 ENOENT\n\
truncate: 0\n\
truncate: longer again reads 8 bytes, \"0123\" then zeros: yes\n\
truncate a directory: -1 EISDIR\n\
truncate negative: -1 EINVAL\n\
truncate missing: -1 ENOENT\n\
truncate a fifo: -1 EINVAL\n\
truncate64: 0\n\
truncate64: size 0 7\n\
ftruncate64: 0\n\
ftruncate64: size 0 5\n\
ftruncate read-only: -1 EBADF\n\
stat owner: uid 100 gid 100\n\
chown to the owner and group: 0\n\
chown unchanged: 0\n\
chown to another owner: -1 EPERM\n\
chown to another group: -1 EPERM\n\
chown out of range: -1 EINVAL\n\
chown missing: -1 ENOENT\n\
chown clears set-ID bits: mode 755\n\
lchown a dangling link: 0\n\
chown a dangling link: -1 ENOENT\n\
fchown: 0\n\
fchown to another owner: -1 EPERM\n\
fchown bad descriptor: -1 EBADF\n\
fchown a pipe: 0\n\
fsync: 0\n\
fsync read-only: -1 EBADF\n\
fsync bad descriptor: -1 EBADF\n\
sync: 0\n\
stat64: 0\n\
stat64: mode 100755, nlink 1, uid 100, size 0 5, fstype efs\n\
stat64 and stat agree: ino yes, mtime yes\n\
lstat64: symbolic link\n\
fstat64: 0\n\
stat version 4: -1 EINVAL\n\
stat of a file past 2 GB: -1 EOVERFLOW\n\
stat64 of it: size 1 1073741824\n\
statvfs: 0\n\
statvfs: basetype efs, namemax 255, no truncation yes, blocks counted yes\n\
statvfs: f_fsid is st_dev: yes\n\
fstatvfs: 0\n\
fstatvfs: same file system as statvfs: yes\n\
statvfs missing: -1 ENOENT\n\
statvfs bad buffer: -1 EFAULT\n\
fstatvfs bad descriptor: -1 EBADF\n\
statvfs of the lent /dev/null: read-only yes\n\
statfs: 0\n\
statfs: f_fstyp 1, f_bsize set yes, f_fname empty yes\n\
statfs 2 bytes: 0\n\
statfs 2 bytes: the rest untouched yes\n\
statfs len too big: -1 EINVAL\n\
statfs fstyp: -1 EINVAL\n\
fstatfs: 0\n\
fstatfs bad descriptor: -1 EBADF\n\
sysfs GETNFSTYP: 3\n\
sysfs GETFSTYP 1: 0 \"efs\"\n\
sysfs GETFSTYP 2: 0 \"fifofs\"\n\
sysfs GETFSTYP 3: 0 \"specfs\"\n\
sysfs GETFSIND efs: 1\n\
sysfs GETFSIND fifofs: 2\n\
sysfs GETFSIND nfs: -1 EINVAL\n\
sysfs GETFSIND a long name: -1 EINVAL\n\
sysfs GETFSTYP 0: -1 EINVAL\n\
sysfs GETFSTYP past the last: -1 EINVAL\n\
sysfs GETFSTYP bad buffer: -1 EFAULT\n\
sysfs GETFSIND bad name: -1 EFAULT\n\
sysfs opcode 4: -1 EINVAL\n\
sysconf _SC_ARG_MAX: 20480\n\
sysconf _SC_CHILD_MAX: 100\n\
sysconf _SC_CLK_TCK: 100\n\
sysconf _SC_NGROUPS_MAX: 16\n\
sysconf _SC_OPEN_MAX: 200\n\
sysconf _SC_JOB_CONTROL: 1\n\
sysconf _SC_SAVED_IDS: 1\n\
sysconf _SC_VERSION: 199009\n\
sysconf _SC_PASS_MAX: 8\n\
sysconf _SC_LOGNAME_MAX: 8\n\
sysconf _SC_PAGESIZE: 4096\n\
sysconf _SC_XOPEN_VERSION: 3\n\
sysconf _SC_NACLS_MAX: 0\n\
sysconf _SC_NPROC_CONF: 1\n\
sysconf _SC_NPROC_ONLN: 1\n\
sysconf _SC_STREAM_MAX: 200\n\
sysconf _SC_TZNAME_MAX: 8\n\
sysconf sysconf 18: 4\n\
sysconf sysconf 19: 255\n\
sysconf _SC_RTSIG_MAX: 16\n\
sysconf _SC_SIGQUEUE_MAX: 32\n\
sysconf _SC_ASYNCHRONOUS_IO: 1\n\
sysconf _SC_REALTIME_SIGNALS: 1\n\
sysconf _SC_PRIORITIZED_IO: -1\n\
sysconf _SC_ACL: 0\n\
sysconf _SC_AUDIT: 0\n\
sysconf _SC_INF: 0\n\
sysconf _SC_MAC: 0\n\
sysconf _SC_CAP: 0\n\
sysconf _SC_IP_SECOPTS: 0\n\
sysconf _SC_KERN_POINTERS: 32\n\
sysconf sysconf 32: -1 EINVAL\n\
pathconf 1: 30000\n\
pathconf 2: 256\n\
pathconf 3: 512\n\
pathconf 4: 255\n\
pathconf 5: 1024\n\
pathconf 6: 10240\n\
pathconf 7: 1\n\
pathconf 8: 1\n\
pathconf 9: 0\n\
pathconf 10: -1 EINVAL\n\
pathconf missing: -1 ENOENT\n\
fpathconf: 10240\n\
fpathconf bad descriptor: -1 EBADF\n\
";
