//! The guest's file system is --root: no path, `..` or symbolic link lets
//! a guest read or write a host file outside it (crates/irix-kernel/src/vfs.rs:
//! "`..` never climbs above the guest root ... an absolute target
//! restarting from the guest root").
//!
//! Contents:
//! - [`PROBE_SOURCE`]: sandbox_probe, a freestanding IRIX guest that opens
//!   or creates the paths given in argv and prints what happened. The test
//!   uses guest/bin/irix/sandbox_probe when it is committed, else builds
//!   this source with mips-linux-gnu-gcc (skip or fail by the tools rule).
//! - the sandbox layout: a secret file beside the root, links inside it
//!   that point at /, at host paths, and up with `..`.
//! - one table of reads and one of writes, with the expected line for each,
//!   then checks that the files outside the root were neither shown nor
//!   changed.
//! - one table of name-space changes (guest/src/fs_escape.c: symlink,
//!   rename, link, rmdir, chown, mknod, unlink, chmod, utime, truncate)
//!   across a bind, two binds and the lent /dev/null, then checks that no
//!   host file moved, changed owner or appeared outside the view.

use crate::common;

use common::{require_tool, run_command, Scratch, Status};
use std::os::unix::fs::{symlink, MetadataExt};
use std::path::{Path, PathBuf};
use std::process::Command;

/// sandbox_probe. Each argument PATH opens PATH read-only and prints its
/// first bytes; an argument "w:PATH" creates PATH (creat, mode 0644) and
/// writes a line into it. One output line per argument:
///   open PATH: ok "CONTENT"   (up to 64 bytes; newline shown as \n)
///   open PATH: ENOENT         (the errno's name)
///   creat PATH: ok
///   creat PATH: ENOENT
/// and exit status 0. IRIX system call numbers (docs/abi.md): no libc, so the
/// test depends only on the kernel.
pub const PROBE_SOURCE: &str = r#"
#define SYS_exit 1001
#define SYS_read 1003
#define SYS_write 1004
#define SYS_open 1005
#define SYS_close 1006
#define SYS_creat 1008

/* sp -> argc, argv[0..argc-1], NULL, envp... (docs/abi.md, Start-up) */
__asm__(".text\n.globl __start\n.type __start, @function\n"
        ".set push\n.set noreorder\n__start:\n"
        "\tmove $4, $29\n\taddiu $29, $29, -32\n"
        "\tjal probe_main\n\tnop\n"
        "\tmove $4, $2\n\tli $2, 1001\n\tsyscall\n"
        ".set pop\n");

/* syscall: v0 = number, a0..a2 = arguments; a3 = 1 on error, v0 = errno. */
static long sys3(long nr, long x, long y, long z, long *err)
{
	register long v0 __asm__("$2") = nr;
	register long a0 __asm__("$4") = x;
	register long a1 __asm__("$5") = y;
	register long a2 __asm__("$6") = z;
	register long a3 __asm__("$7");
	__asm__ volatile("syscall"
			 : "+r"(v0), "=r"(a3), "+r"(a0), "+r"(a1), "+r"(a2)
			 :
			 : "$1", "$3", "$8", "$9", "$10", "$11", "$12", "$13", "$14", "$15",
			   "$24", "$25", "hi", "lo", "memory");
	*err = a3 ? v0 : 0;
	return a3 ? -1 : v0;
}

static char line[512];
static int len;

static void put(const char *s)
{
	while (*s && len < (int)sizeof line - 8)
		line[len++] = *s++;
}

static void put_errno(long e)
{
	static const struct { long n; const char *name; } names[] = {
		{1, "EPERM"}, {2, "ENOENT"}, {9, "EBADF"}, {13, "EACCES"}, {14, "EFAULT"},
		{17, "EEXIST"}, {20, "ENOTDIR"}, {21, "EISDIR"}, {22, "EINVAL"},
		{78, "ENAMETOOLONG"}, {89, "ENOSYS"}, {90, "ELOOP"},
	};
	char num[12];
	int i, n = 0;
	for (i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
		if (names[i].n == e) {
			put(names[i].name);
			return;
		}
	put("errno ");
	do
		num[n++] = (char)('0' + e % 10);
	while ((e /= 10) && n < 11);
	while (n)
		line[len++] = num[--n];
}

static void flush(void)
{
	long err;
	line[len++] = '\n';
	sys3(SYS_write, 1, (long)line, len, &err);
	len = 0;
}

int probe_main(long *sp)
{
	long argc = sp[0], err, fd, n, i, j;
	char **argv = (char **)(sp + 1);
	char buf[64];
	static const char text[] = "written by sandbox_probe\n";

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] == 'w' && a[1] == ':') {
			put("creat ");
			put(a + 2);
			fd = sys3(SYS_creat, (long)(a + 2), 0644, 0, &err);
			if (fd < 0) {
				put(": ");
				put_errno(err);
			} else {
				sys3(SYS_write, fd, (long)text, sizeof text - 1, &err);
				sys3(SYS_close, fd, 0, 0, &err);
				put(": ok");
			}
		} else {
			put("open ");
			put(a);
			fd = sys3(SYS_open, (long)a, 0 /* O_RDONLY */, 0, &err);
			if (fd < 0) {
				put(": ");
				put_errno(err);
			} else {
				n = sys3(SYS_read, fd, (long)buf, sizeof buf, &err);
				sys3(SYS_close, fd, 0, 0, &err);
				put(": ok \"");
				for (j = 0; j < n; j++) {
					if (buf[j] == '\n')
						put("\\n");
					else
						line[len++] = buf[j];
				}
				put("\"");
			}
		}
		flush();
	}
	return 0;
}
"#;

/// The probe: the committed guest program, or this file's source built
/// into `scratch`. None (after a SKIP line) without either.
fn probe(scratch: &Path) -> Option<PathBuf> {
    let committed = common::repo_path("guest/bin/irix/sandbox_probe");
    if committed.is_file() {
        return Some(committed);
    }
    eprintln!("note: guest/bin/irix/sandbox_probe is not built yet: building the probe from tests/sandbox.rs");
    if !require_tool("mips-linux-gnu-gcc") {
        return None;
    }
    let src = scratch.join("sandbox_probe.c");
    let out = scratch.join("sandbox_probe");
    std::fs::write(&src, PROBE_SOURCE).expect("write probe source");
    // The flags of guest/build.sh that matter: R4000 (MIPS III) o32,
    // static, no PIC, loaded at 0x400000.
    let mut cc = Command::new("mips-linux-gnu-gcc");
    cc.args([
        "-O1",
        "-march=mips3",
        "-mabi=32",
        "-mfp32",
        "-mno-abicalls",
        "-fno-pic",
        "-G0",
        "-ffreestanding",
        "-fno-builtin",
        "-fno-tree-loop-distribute-patterns",
        "-fno-stack-protector",
        "-nostdlib",
        "-static",
        "-no-pie",
        "-Wl,-Ttext-segment=0x400000",
        "-Wl,--build-id=none",
        "-Wall",
        "-Werror",
        "-o",
    ])
    .arg(&out)
    .arg(&src);
    let r = run_command(cc);
    assert_eq!(
        r.status,
        Status::Code(0),
        "building sandbox_probe: {}",
        r.stderr
    );
    Some(out)
}

/// What every file outside the root holds; none of it may reach the guest.
const SECRET: &str = "SECRET outside the root\n";
const INSIDE: &str = "inside the root\n";

/// The sandbox: <tmp>/outside.txt and <tmp>/outside_dir/secret.txt beside
/// the root <tmp>/root, which holds inside.txt, sub/ and the links.
fn build_sandbox(tmp: &Scratch) -> PathBuf {
    tmp.write("outside.txt", SECRET.as_bytes());
    tmp.write("outside_dir/secret.txt", SECRET.as_bytes());
    tmp.write("root/inside.txt", INSIDE.as_bytes());
    let root = tmp.mkdir("root/sub");
    let root = root.parent().expect("root").to_path_buf();
    let links: &[(&str, PathBuf)] = &[
        ("link_root", PathBuf::from("/")),
        ("link_abs_file", tmp.path().join("outside.txt")),
        ("link_abs_dir", tmp.path().join("outside_dir")),
        ("link_rel_up", PathBuf::from("../outside.txt")),
        ("sub/link_rel_upup", PathBuf::from("../../outside.txt")),
        (
            "sub/link_deep",
            PathBuf::from("../../../../../../../../outside.txt"),
        ),
        ("sub/link_dir_up", PathBuf::from("../..")),
        ("link_etc", PathBuf::from("/etc")),
        ("loop_a", PathBuf::from("loop_b")),
        ("loop_b", PathBuf::from("/loop_a")),
    ];
    for (name, target) in links {
        symlink(target, root.join(name)).expect("make symlink");
    }
    root
}

/// Runs the probe with `--root <tmp>/root` from the host directory
/// <tmp>/root/sub (so the guest starts in /sub).
fn run_probe(probe: &Path, root: &Path, args: &[String]) -> common::Run {
    let mut cmd = common::emu_command(["run", "--root"], &root.join("sub"));
    cmd.arg(root).arg(probe).args(args);
    run_command(cmd)
}

/// A snapshot of everything outside the root: paths and file contents.
fn outside_snapshot(tmp: &Scratch) -> Vec<(String, Option<Vec<u8>>)> {
    tmp.listing()
        .into_iter()
        .filter(|p| p != "root" && !p.starts_with("root/"))
        .map(|p| {
            let contents = std::fs::read(tmp.path().join(&p)).ok();
            (p, contents)
        })
        .collect()
}

#[test]
fn no_path_or_link_reads_a_host_file_outside_the_root() {
    let tmp = Scratch::new("sandbox");
    let Some(probe) = probe(tmp.path()) else {
        return;
    };
    let root = build_sandbox(&tmp);
    let host_outside = tmp.path().join("outside.txt").display().to_string();
    // (argument, the probe's line). The guest starts in /sub.
    let table: Vec<(String, String)> = [
        // Controls: the root's own files are readable by every spelling.
        ("/inside.txt", "ok \"inside the root\\n\""),
        ("../inside.txt", "ok \"inside the root\\n\""),
        ("/link_root/inside.txt", "ok \"inside the root\\n\""),
        ("link_dir_up/inside.txt", "ok \"inside the root\\n\""),
        // `..` stops at the guest root.
        ("../outside.txt", "ENOENT"),
        ("../../outside.txt", "ENOENT"),
        ("../../../../../../../../outside.txt", "ENOENT"),
        ("/../../outside.txt", "ENOENT"),
        ("/../inside.txt", "ok \"inside the root\\n\""),
        // The host's /etc is not the guest's (the root has no etc).
        ("/etc/passwd", "ENOENT"),
        ("/link_etc/passwd", "ENOENT"),
        // A link to / is the guest root.
        ("/link_root/../outside.txt", "ENOENT"),
        ("/link_root/etc/passwd", "ENOENT"),
        // Absolute host paths, given directly or through links, are guest
        // paths below the root, where nothing exists.
        (&host_outside, "ENOENT"),
        ("/link_abs_file", "ENOENT"),
        ("/link_abs_dir/secret.txt", "ENOENT"),
        // Relative links climbing with `..`.
        ("/link_rel_up", "ENOENT"),
        ("link_rel_upup", "ENOENT"),
        ("link_deep", "ENOENT"),
        ("link_dir_up/../outside.txt", "ENOENT"),
        // Links that never end (SVR4 MAXSYMLINKS).
        ("/loop_a", "ELOOP"),
    ]
    .into_iter()
    .map(|(a, l)| (a.to_string(), format!("open {a}: {l}")))
    .collect();

    let before = outside_snapshot(&tmp);
    let args: Vec<String> = table.iter().map(|(a, _)| a.clone()).collect();
    let r = run_probe(&probe, &root, &args);
    let lines: Vec<String> = r.stdout_text().lines().map(str::to_string).collect();
    let expected: Vec<String> = table.iter().map(|(_, l)| l.clone()).collect();
    assert_eq!(lines, expected);
    assert_eq!(r.stderr, "");
    assert_eq!(r.status, Status::Code(0));
    assert!(
        !r.stdout_text().contains("SECRET"),
        "no secret in {:?}",
        r.stdout_text()
    );
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
    if let Some(first) = passwd.lines().next().filter(|l| !l.is_empty()) {
        assert!(!r.stdout_text().contains(first), "host /etc/passwd leaked");
    }
    assert_eq!(
        outside_snapshot(&tmp),
        before,
        "nothing outside the root changed"
    );
}

#[test]
fn no_path_or_link_creates_or_changes_a_host_file_outside_the_root() {
    let tmp = Scratch::new("sandbox");
    let Some(probe) = probe(tmp.path()) else {
        return;
    };
    let root = build_sandbox(&tmp);
    let host_new = tmp.path().join("created.txt").display().to_string();
    // (argument without "w:", result, the file the guest created, relative
    // to the root, if any).
    let table: &[(&str, &str, Option<&str>)] = &[
        // `..` above the root stays at the root: the file is made there.
        ("../../escape1.txt", "ok", Some("escape1.txt")),
        ("/../escape2.txt", "ok", Some("escape2.txt")),
        // A host path is a guest path whose directories do not exist.
        (&host_new, "ENOENT", None),
        ("/link_abs_dir/new.txt", "ENOENT", None),
        // A dangling link is followed inside the guest's tree (creat follows
        // links, as open(O_CREAT) does).
        ("/link_abs_file", "ENOENT", None),
        ("/link_rel_up", "ok", Some("outside.txt")),
        ("/etc/passwd", "ENOENT", None),
        ("/link_etc/passwd", "ENOENT", None),
    ];
    let before = outside_snapshot(&tmp);
    let args: Vec<String> = table.iter().map(|(a, _, _)| format!("w:{a}")).collect();
    let r = run_probe(&probe, &root, &args);
    let lines: Vec<String> = r.stdout_text().lines().map(str::to_string).collect();
    let expected: Vec<String> = table
        .iter()
        .map(|(a, res, _)| format!("creat {a}: {res}"))
        .collect();
    assert_eq!(lines, expected);
    assert_eq!(r.stderr, "");
    assert_eq!(r.status, Status::Code(0));
    assert_eq!(
        outside_snapshot(&tmp),
        before,
        "nothing outside the root created or changed"
    );
    for (a, _, created) in table {
        if let Some(rel) = created {
            assert_eq!(
                std::fs::read_to_string(root.join(rel)).ok().as_deref(),
                Some("written by sandbox_probe\n"),
                "{a} made {rel} inside the root"
            );
        }
    }
}

/// Runs guest/bin/irix/fs_escape with `--root ROOT --bind WORK:/work --bind
/// EMPTY:/empty`, from the root, one operation per argument.
fn run_escape(
    program: &Path,
    root: &Path,
    work: &Path,
    empty: &Path,
    ops: &[String],
) -> common::Run {
    let mut cmd = common::emu_command(["run", "--root"], root);
    cmd.arg(root)
        .arg("--bind")
        .arg(format!("{}:/work", work.display()))
        .arg("--bind")
        .arg(format!("{}:/empty", empty.display()))
        .arg(program)
        .args(ops);
    run_command(cmd)
}

/// Each bind is a file system of its own and the lent devices are the
/// host's: rename(2) and link(2) "EXDEV The links named by old and new are
/// on different file systems"; rmdir(2) "EBUSY The directory to be removed
/// is the mount point for a mounted file system"; a symbolic link's text is
/// a guest path (symlink(2)), followed in the guest's view only; chown(2)
/// never gives a file away (restricted_chown), so no host owner changes;
/// mknod(2) of a device is EPERM for the unprivileged guest; the lent
/// /dev/null is a read-only file system (EROFS).
#[test]
fn no_name_change_moves_a_host_file_between_file_systems_or_out_of_the_view() {
    let tmp = Scratch::new("sandbox");
    let Some(program) = common::guest_program("irix", "fs_escape") else {
        return;
    };
    tmp.write("outside.txt", SECRET.as_bytes());
    tmp.write("root/inside.txt", INSIDE.as_bytes());
    tmp.write("work/file.txt", b"bound file\n");
    let empty = tmp.mkdir("empty");
    let root = tmp.path().join("root");
    let work = tmp.path().join("work");
    let host_outside = tmp.path().join("outside.txt").display().to_string();
    let null_before = std::fs::metadata("/dev/null").ok();
    let owner_before = std::fs::metadata(work.join("file.txt"))
        .map(|m| (m.uid(), m.gid()))
        .ok();
    // (operation, the line it prints).
    let table: Vec<(String, String)> = [
        // A link to a host path is made, but followed in the guest's view.
        (
            format!("symlink:{host_outside}:/esc"),
            format!("symlink {host_outside} /esc: ok"),
        ),
        ("open:/esc".into(), "open /esc: ENOENT".into()),
        (
            "symlink:../../outside.txt:/work/up".into(),
            "symlink ../../outside.txt /work/up: ok".into(),
        ),
        ("open:/work/up".into(), "open /work/up: ENOENT".into()),
        (
            "open:/work/file.txt".into(),
            "open /work/file.txt: ok \"bound file\"".into(),
        ),
        // Names never move between the root and a bind, or two binds.
        (
            "rename:/work/file.txt:/stolen.txt".into(),
            "rename /work/file.txt /stolen.txt: EXDEV".into(),
        ),
        (
            "rename:/inside.txt:/work/inside.txt".into(),
            "rename /inside.txt /work/inside.txt: EXDEV".into(),
        ),
        (
            "rename:/work/file.txt:/empty/file.txt".into(),
            "rename /work/file.txt /empty/file.txt: EXDEV".into(),
        ),
        (
            "link:/work/file.txt:/hard.txt".into(),
            "link /work/file.txt /hard.txt: EXDEV".into(),
        ),
        (
            "rename:/work:/moved".into(),
            "rename /work /moved: EXDEV".into(),
        ),
        (
            "rename:/work/up:/work".into(),
            "rename /work/up /work: EBUSY".into(),
        ),
        // A bind point is a mount point.
        ("rmdir:/empty".into(), "rmdir /empty: EBUSY".into()),
        ("rmdir:/work".into(), "rmdir /work: EBUSY".into()),
        // No host owner changes hands; no device is made.
        (
            "chown:/work/file.txt:0:0".into(),
            "chown /work/file.txt 0 0: EPERM".into(),
        ),
        ("mknod:/work/tty".into(), "mknod /work/tty: EPERM".into()),
        // The host's /dev/null, lent to a root without /dev, stays as it is.
        ("unlink:/dev/null".into(), "unlink /dev/null: EROFS".into()),
        ("chmod:/dev/null".into(), "chmod /dev/null: EROFS".into()),
        ("utime:/dev/null".into(), "utime /dev/null: EROFS".into()),
        (
            "rename:/dev/null:/null".into(),
            "rename /dev/null /null: EROFS".into(),
        ),
        (
            "link:/dev/null:/null".into(),
            "link /dev/null /null: EXDEV".into(),
        ),
        (
            "truncate:/dev/null".into(),
            "truncate /dev/null: EINVAL".into(),
        ),
    ]
    .into_iter()
    .collect();
    let before = outside_snapshot(&tmp);
    let ops: Vec<String> = table.iter().map(|(op, _)| op.clone()).collect();
    let r = run_escape(&program, &root, &work, &empty, &ops);
    let lines: Vec<String> = r.stdout_text().lines().map(str::to_string).collect();
    let expected: Vec<String> = table.iter().map(|(_, l)| l.clone()).collect();
    assert_eq!(lines, expected, "stderr: {}", r.stderr);
    assert_eq!(r.status, Status::Code(0));
    // Outside the root only the bound trees may change, and only by the
    // link made inside one.
    let after: Vec<_> = outside_snapshot(&tmp)
        .into_iter()
        .filter(|(p, _)| p != "work/up")
        .collect();
    assert_eq!(after, before, "nothing else outside the root changed");
    assert_eq!(
        std::fs::read_link(work.join("up")).ok(),
        Some(PathBuf::from("../../outside.txt")),
        "the link holds the guest's text"
    );
    assert!(empty.is_dir() && work.join("file.txt").is_file());
    assert_eq!(
        std::fs::metadata(work.join("file.txt"))
            .map(|m| (m.uid(), m.gid()))
            .ok(),
        owner_before
    );
    let null_after = std::fs::metadata("/dev/null").ok();
    assert_eq!(
        null_after.as_ref().map(|m| (m.mode(), m.mtime(), m.rdev())),
        null_before
            .as_ref()
            .map(|m| (m.mode(), m.mtime(), m.rdev())),
        "the host's /dev/null is untouched"
    );
}
