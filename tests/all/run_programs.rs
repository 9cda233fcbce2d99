//! `irix-emu run` on the committed guest programs: stdout, stderr and the
//! exit status, each checked exactly.
//!
//! Contents:
//! - hello, exit_status: output and the guest's own status.
//! - args_env: argv passed through (hyphen arguments included), and the
//!   environment: the host's edited by -E/-U (QEMU style).
//! - fileio: the guest's files land in its cwd inside --root.
//! - fault_*: death by signal N is status 128 + N and one line on stderr.
//! - --max-cycles, --strace, --stats, and determinism of workload.
//!
//! Expected outputs come from each program's header comment (guest/src/*.c).

use crate::common;

use common::{
    exit, exited, guest_program, repo, run_emu, run_emu_clean_env, Elf, Run, Scratch, Status,
};
use std::ffi::OsStr;
use std::path::Path;
use test_support::mips::{addiu, addu, sll, syscall, A0, A3, T0, V0, ZERO};

/// What workload prints by default (guest/README.md, section 9; the same
/// lines qemu-mips gives for guest/bin/linux/workload).
const WORKLOAD_OUTPUT: &str = "workload: 19 rounds
sieve: 17984 primes below 200000
crc32: 53303a64
sort: sorted, checksum dc672f6a
matrix: trace sum -27365.719000
series: pi 3.141587653590 zeta(2) 1.644929066861
";

/// `workload 1`: one round (a fifth of a second of debug-build emulation
/// instead of seconds; the same lines qemu-mips gives).
const WORKLOAD_1_OUTPUT: &str = "workload: 1 rounds
sieve: 17984 primes below 200000
crc32: 7af0cec7
sort: sorted, checksum 3e2de12d
matrix: trace sum -1440.301000
series: pi 3.141587653590 zeta(2) 1.644929066861
";

/// `irix-emu run OPTIONS PROGRAM ARGS` from the repository root.
fn run(options: &[&str], program: &Path, args: &[&str]) -> Run {
    let mut all: Vec<&OsStr> = vec![OsStr::new("run")];
    all.extend(options.iter().map(OsStr::new));
    all.push(program.as_os_str());
    all.extend(args.iter().map(OsStr::new));
    run_emu(all, repo())
}

#[test]
fn hello_prints_hello_world_and_exits_0() {
    let Some(prog) = guest_program("irix", "hello") else {
        return;
    };
    let r = run(&[], &prog, &[]);
    assert_eq!(r.stdout_text(), "hello, world\n");
    assert_eq!(r.stderr, "");
    assert_eq!(r.status, Status::Code(0));
}

#[test]
fn main_return_value_becomes_the_exit_status() {
    let Some(prog) = guest_program("irix", "exit_status") else {
        return;
    };
    let r = run(&[], &prog, &[]);
    assert_eq!(r.stdout_text(), "exiting with status 3\n");
    assert_eq!(r.stderr, "");
    assert_eq!(r.status, Status::Code(3));
}

/// args_env's expected output for `argv` and the environment lines `env`.
fn args_env_output(argv: &[&str], env: &[&str]) -> String {
    let mut s = format!("argc={}\n", argv.len());
    for (i, a) in argv.iter().enumerate() {
        s += &format!("argv[{i}]={a}\n");
    }
    for (i, e) in env.iter().enumerate() {
        s += &format!("env[{i}]={e}\n");
    }
    s += &format!("envc={}\n", env.len());
    s
}

#[test]
fn arguments_after_program_reach_the_guest_unchanged() {
    // (case, guest arguments): everything after PROGRAM is the guest's, even
    // what looks like an irix-emu option.
    let table: &[(&str, &[&str])] = &[
        ("no arguments", &[]),
        ("plain words", &["a", "b"]),
        ("a space inside an argument", &["b c"]),
        ("an empty argument", &["", "x"]),
        ("a leading dash", &["-x"]),
        (
            "irix-emu's options after a first guest argument",
            &["a", "--strace", "-E", "X=1", "--root", "/"],
        ),
        ("a double dash", &["a", "--", "b"]),
        ("non-ASCII bytes", &["\u{e9}t\u{e9}"]),
    ];
    check_args_cases(table);
}

#[test]
fn option_parsing_stops_at_the_program_name() {
    // QEMU's user-mode emulators stop parsing their own options at the
    // program name: `qemu-mips prog --help` gives --help to prog.
    let table: &[(&str, &[&str])] = &[
        ("--strace first", &["--strace"]),
        ("-E first", &["-E", "X=1"]),
        ("--root first", &["--root", "/"]),
        ("--stats first", &["--stats", "x"]),
        ("--help first", &["--help"]),
    ];
    check_args_cases(table);
}

/// Runs args_env with each case's arguments (and an empty environment) and
/// checks they all arrive, in order, after argv[0].
/// The guest's path of a program under the repository, run with the
/// repository as the root: "/guest/bin/...".
fn guest_path(prog: &std::path::Path) -> String {
    let rel = prog.strip_prefix(repo()).unwrap_or(prog);
    format!("/{}", rel.display())
}

fn check_args_cases(table: &[(&str, &[&str])]) {
    let Some(prog) = guest_program("irix", "args_env") else {
        return;
    };
    // Inside the root (the repository, the default root), the program is
    // seen at its guest path (README, "How PROGRAM is resolved").
    let guest = guest_path(&prog);
    let prog_s = guest.as_str();
    for (case, args) in table {
        let r = run_emu_clean_env(
            [OsStr::new("run"), prog.as_os_str()]
                .into_iter()
                .chain(args.iter().map(OsStr::new)),
            repo(),
        );
        let mut argv = vec![prog_s];
        argv.extend_from_slice(args);
        assert_eq!(r.stdout_text(), args_env_output(&argv, &[]), "{case}");
        assert_eq!(r.stderr, "", "{case}");
        assert_eq!(r.status, Status::Code(0), "{case}");
    }
}

/// One environment case: the host's variables, the options, the guest's
/// environment (irix-emu sorts it by name: src/cli/launch.rs, guest_env).
struct EnvCase {
    name: &'static str,
    host: &'static [(&'static str, &'static str)],
    options: &'static [&'static str],
    guest: &'static [&'static str],
}

fn check_env_cases(cases: &[EnvCase]) {
    let Some(prog) = guest_program("irix", "args_env") else {
        return;
    };
    let guest = guest_path(&prog);
    let prog_s = guest.as_str();
    for c in cases {
        let mut cmd = common::emu_command(["run"], repo());
        cmd.env_clear()
            .envs(c.host.iter().copied())
            .args(c.options)
            .arg(&prog);
        let r = common::run_command(cmd);
        assert_eq!(
            r.stdout_text(),
            args_env_output(&[prog_s], c.guest),
            "{}",
            c.name
        );
        assert_eq!(r.stderr, "", "{}", c.name);
        assert_eq!(r.status, Status::Code(0), "{}", c.name);
    }
}

#[test]
fn guest_environment_is_the_hosts_edited_by_e_and_u() {
    check_env_cases(&[
        EnvCase {
            name: "empty host environment, no options",
            host: &[],
            options: &[],
            guest: &[],
        },
        EnvCase {
            name: "the host's variables pass through",
            host: &[("HOSTVAR", "h"), ("OTHER", "o")],
            options: &[],
            guest: &["HOSTVAR=h", "OTHER=o"],
        },
        EnvCase {
            name: "-E adds variables",
            host: &[],
            options: &["-E", "B=2", "-E", "A=1"],
            guest: &["A=1", "B=2"],
        },
        EnvCase {
            name: "-E value containing '=' and an empty value",
            host: &[],
            options: &["-E", "B=x=y", "--env", "C="],
            guest: &["B=x=y", "C="],
        },
        EnvCase {
            name: "-E replaces a host variable",
            host: &[("HOSTVAR", "h")],
            options: &["-E", "HOSTVAR=new"],
            guest: &["HOSTVAR=new"],
        },
        EnvCase {
            name: "-U removes a host variable",
            host: &[("HOSTVAR", "h"), ("KEEP", "k")],
            options: &["-U", "HOSTVAR"],
            guest: &["KEEP=k"],
        },
        EnvCase {
            name: "-U of an absent variable is harmless",
            host: &[("KEEP", "k")],
            options: &["--unset", "NOSUCH"],
            guest: &["KEEP=k"],
        },
        EnvCase {
            name: "-U then -E sets it again",
            host: &[("A", "host")],
            options: &["-U", "A", "-E", "A=1"],
            guest: &["A=1"],
        },
    ]);
}

#[test]
fn e_and_u_apply_in_command_line_order_as_qemu_does() {
    // qemu-mips -E A=1 -U A leaves A unset: options edit the environment in
    // the order given (the doc comment of guest_env promises the same).
    check_env_cases(&[
        EnvCase {
            name: "-E then -U removes it",
            host: &[],
            options: &["-E", "A=1", "-U", "A"],
            guest: &[],
        },
        EnvCase {
            name: "-E, -U, -E: the last wins",
            host: &[],
            options: &["-E", "A=1", "-U", "A", "-E", "A=2"],
            guest: &["A=2"],
        },
    ]);
}

const FILEIO_OUTPUT: &str = r#"open fileio.tmp: ok
write: 29 bytes
lseek(9, SEEK_SET): 9
read: 10 bytes "line two\nl"
lseek(0, SEEK_END): 29
read at end: 0 bytes
lseek bad whence: -1 EINVAL
fstat: size 29, regular file yes
close: 0
stat: size 29, regular file yes
unlink: 0
open missing file: -1 ENOENT
stat missing file: -1 ENOENT
unlink missing file: -1 ENOENT
read bad fd: -1 EBADF
close bad fd: -1 EBADF
"#;

#[test]
fn fileio_creates_and_removes_its_file_in_the_guest_cwd_inside_the_root() {
    let Some(prog) = guest_program("irix", "fileio") else {
        return;
    };
    // (case, host cwd relative to the temp dir, where the guest's
    // "fileio.tmp" must be, relative to the temp dir). The root is
    // <tmp>/root; a host cwd outside the root starts the guest at "/".
    let table: &[(&str, &str, &str)] = &[
        ("cwd is the root", "root", "root/fileio.tmp"),
        (
            "cwd is a directory in the root",
            "root/sub",
            "root/sub/fileio.tmp",
        ),
        (
            "cwd is outside the root: guest starts at /",
            ".",
            "root/fileio.tmp",
        ),
    ];
    for (case, cwd, guest_file) in table {
        let tmp = Scratch::new("fileio");
        tmp.mkdir("root/sub");
        // A file where the guest's must go (fileio's O_TRUNC open and final
        // unlink remove it), and decoys where it must not.
        tmp.write(guest_file, b"to be replaced\n");
        let decoys = ["fileio.tmp", "root/fileio.tmp", "root/sub/fileio.tmp"]
            .into_iter()
            .filter(|d| d != guest_file)
            .map(|d| (d, tmp.write(d, format!("decoy {d}\n").as_bytes())))
            .collect::<Vec<_>>();
        let mut before = tmp.listing();
        before.retain(|p| p != guest_file);

        let root = tmp.path().join("root");
        let r = run_emu(
            [
                OsStr::new("run"),
                OsStr::new("--root"),
                root.as_os_str(),
                prog.as_os_str(),
            ],
            &tmp.path().join(cwd),
        );
        assert_eq!(r.stdout_text(), FILEIO_OUTPUT, "{case}");
        assert_eq!(r.stderr, "", "{case}");
        assert_eq!(r.status, Status::Code(0), "{case}");
        assert_eq!(
            tmp.listing(),
            before,
            "{case}: only {guest_file} was removed"
        );
        for (d, path) in decoys {
            assert_eq!(
                std::fs::read_to_string(path).expect("decoy"),
                format!("decoy {d}\n"),
                "{case}: {d} untouched"
            );
        }
    }
}

/// Checks the one stderr line of a guest killed by a signal:
/// "irix-emu: PROG: killed by SIG at pc 0x%08x" and `address` when given.
fn check_killed_line(r: &Run, prog: &Path, sig: &str, address: Option<&str>) {
    let lines = r.stderr_lines();
    assert_eq!(lines.len(), 1, "one line on stderr: {:?}", r.stderr);
    let prefix = format!("irix-emu: {}: killed by {sig} at pc 0x", prog.display());
    let rest = lines[0]
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("{:?} starts with {prefix:?}", lines[0]));
    let (pc, tail) = rest.split_at(8.min(rest.len()));
    assert!(
        pc.chars().all(|c| c.is_ascii_hexdigit()) && pc.len() == 8,
        "8 hex digits of pc in {:?}",
        lines[0]
    );
    let pc = u32::from_str_radix(pc, 16).expect("hex pc");
    assert!(
        (0x0040_0000..0x1000_0000).contains(&pc),
        "pc 0x{pc:08x} is in the program's text"
    );
    match address {
        Some(a) => assert_eq!(tail, format!(" (address {a})")),
        None => assert_eq!(tail, ""),
    }
}

#[test]
fn a_guest_killed_by_signal_n_exits_128_plus_n() {
    // (program, its output before the fault, signal name, number, faulting
    // address shown).
    let table: &[(&str, &str, &str, i32, Option<&str>)] = &[
        (
            "fault_segv",
            "fault_segv: storing to address 0\n",
            "SIGSEGV",
            11,
            Some("0x00000000"),
        ),
        ("fault_divzero", "fault_divzero: 7 / 0\n", "SIGFPE", 8, None),
        (
            "fault_divzero_break",
            "fault_divzero_break: 7 / 0\n",
            "SIGFPE",
            8,
            None,
        ),
        (
            "fault_overflow",
            "fault_overflow: 2147483647 + 1\n",
            "SIGFPE",
            8,
            None,
        ),
    ];
    for (name, output, sig, n, address) in table {
        let Some(prog) = guest_program("irix", name) else {
            continue;
        };
        let r = run(&[], &prog, &[]);
        assert_eq!(r.stdout_text(), *output, "{name}");
        assert_eq!(r.status, Status::Code(128 + n), "{name}");
        check_killed_line(&r, &prog, sig, *address);
    }
}

#[test]
fn max_cycles_stops_the_guest_with_status_124() {
    let Some(prog) = guest_program("irix", "workload") else {
        return;
    };
    let r = run(&["--max-cycles", "1000"], &prog, &[]);
    // 1000 cycles end the run long before stdio's first flush.
    assert_eq!(r.stdout_text(), "");
    assert_eq!(
        r.stderr,
        format!(
            "irix-emu: {}: stopped at the --max-cycles limit\n",
            prog.display()
        )
    );
    assert_eq!(r.status, exited(exit::CYCLE_LIMIT));
}

#[test]
fn max_cycles_above_the_programs_needs_changes_nothing() {
    let Some(prog) = guest_program("irix", "workload") else {
        return;
    };
    let r = run(&["--max-cycles", "1000000000000"], &prog, &["1"]);
    assert_eq!(r.stdout_text(), WORKLOAD_1_OUTPUT);
    assert_eq!(r.stderr, "");
    assert_eq!(r.status, Status::Code(0));
}

#[test]
fn strace_shows_write_with_its_decoded_buffer_on_stderr() {
    let Some(prog) = guest_program("irix", "hello") else {
        return;
    };
    let r = run(&["--strace"], &prog, &[]);
    assert_eq!(
        r.stdout_text(),
        "hello, world\n",
        "the trace stays off stdout"
    );
    assert_eq!(r.status, Status::Code(0));
    // "[pid] name(args) = result" (crates/irix-kernel/src/syscalls/strace.rs).
    let calls: Vec<&str> = r
        .stderr_lines()
        .into_iter()
        .map(|l| {
            let rest = l
                .strip_prefix('[')
                .unwrap_or_else(|| panic!("{l:?} starts with [pid]"));
            let (pid, call) = rest
                .split_once("] ")
                .unwrap_or_else(|| panic!("{l:?} has [pid] "));
            assert!(pid.parse::<u32>().is_ok(), "pid in {l:?}");
            call
        })
        .collect();
    assert!(
        calls.contains(&r#"write(1, "hello, world\n", 13) = 13"#),
        "write line in {calls:?}"
    );
    assert_eq!(calls.last(), Some(&"exit(0) = ?"));
}

/// The --stats figures (src/cli/run.rs, print_stats).
#[derive(Debug, PartialEq)]
struct Stats {
    instructions: u64,
    user_cycles: u64,
    sys_cycles: u64,
    virtual_seconds: f64,
    host_seconds: f64,
    host_memory_kib: u64,
    mips: f64,
}

fn parse_stats(stderr: &str) -> Stats {
    let lines: Vec<&str> = stderr.lines().collect();
    // An eighth when the jit engine has a translation cache.
    let cache = lines.len() == 8 && lines[7].starts_with("irix-emu: jit cache       ");
    assert!(
        lines.len() == 7 || cache,
        "seven --stats lines (eight with a jit cache): {stderr:?}"
    );
    assert!(
        lines[6].starts_with("irix-emu: engine          jit (")
            && lines[6].contains("% of instructions in whole blocks, ")
            && lines[6].contains("% compiled, ")
            && lines[6].contains(" entries into compiled code, ")
            && lines[6].ends_with(" of them left at a page new to its view of memory)"),
        "the engine line: {stderr:?}"
    );
    let field = |i: usize, label: &str| -> &str {
        let l = lines[i]
            .strip_prefix("irix-emu: ")
            .unwrap_or_else(|| panic!("{:?} prefix", lines[i]));
        l.strip_prefix(label)
            .unwrap_or_else(|| panic!("{l:?} starts with {label:?}"))
            .trim()
    };
    let cycles = field(1, "cycles");
    let (user, sys) = cycles
        .strip_suffix(" system")
        .and_then(|c| c.split_once(" user, "))
        .unwrap_or_else(|| panic!("cycles line {cycles:?}"));
    Stats {
        instructions: field(0, "instructions").parse().expect("instructions"),
        user_cycles: user.parse().expect("user cycles"),
        sys_cycles: sys.parse().expect("system cycles"),
        virtual_seconds: field(2, "virtual seconds")
            .parse()
            .expect("virtual seconds"),
        host_seconds: field(3, "host seconds").parse().expect("host seconds"),
        host_memory_kib: field(4, "host memory")
            .strip_suffix(" KiB peak resident")
            .and_then(|n| n.parse().ok())
            .expect("host memory"),
        mips: field(5, "guest MIPS").parse().expect("guest MIPS"),
    }
}

#[test]
fn stats_prints_instructions_cycles_virtual_and_host_seconds_memory_and_mips() {
    let Some(prog) = guest_program("irix", "workload") else {
        return;
    };
    // (--cpu-mhz, pipeline clock in Hz): virtual time = cycles / rate.
    let table: &[(&str, f64)] = &[("100", 100e6), ("50", 50e6), ("1", 1e6)];
    let mut counts = Vec::new();
    for (mhz, hz) in table {
        let r = run(&["--stats", "--cpu-mhz", mhz], &prog, &["1"]);
        assert_eq!(r.stdout_text(), WORKLOAD_1_OUTPUT, "--cpu-mhz {mhz}");
        assert_eq!(r.status, Status::Code(0));
        let s = parse_stats(&r.stderr);
        assert!(s.instructions > 1_000_000, "{s:?}");
        assert!(
            s.user_cycles >= s.instructions,
            "at least a cycle per instruction: {s:?}"
        );
        let cycles = (s.user_cycles + s.sys_cycles) as f64;
        assert!(
            (s.virtual_seconds - cycles / hz).abs() <= 1e-6,
            "virtual seconds = cycles / rate: {s:?}"
        );
        assert!(s.host_seconds > 0.0 && s.mips > 0.0, "{s:?}");
        // irix-emu's own pages, not the test process's: a few MiB.
        assert!(
            s.host_memory_kib > 1024 && s.host_memory_kib < 256 << 10,
            "{s:?}"
        );
        counts.push((s.instructions, s.user_cycles, s.sys_cycles));
    }
    // The clock rate changes virtual time, not the work done.
    assert_eq!(counts[1], counts[0]);
    assert_eq!(counts[2], counts[0]);
}

#[test]
fn two_runs_of_workload_print_the_same_output_and_counts() {
    let Some(prog) = guest_program("irix", "workload") else {
        return;
    };
    let a = run(&["--stats"], &prog, &[]);
    let b = run(&["--stats"], &prog, &[]);
    assert_eq!(a.stdout_text(), WORKLOAD_OUTPUT);
    assert_eq!(b.stdout_text(), a.stdout_text());
    assert_eq!(a.status, Status::Code(0));
    assert_eq!(b.status, a.status);
    let (sa, sb) = (parse_stats(&a.stderr), parse_stats(&b.stderr));
    assert_eq!(
        (
            sb.instructions,
            sb.user_cycles,
            sb.sys_cycles,
            sb.virtual_seconds
        ),
        (
            sa.instructions,
            sa.user_cycles,
            sa.sys_cycles,
            sa.virtual_seconds
        )
    );
}

#[test]
fn an_unknown_system_call_fails_with_enosys_and_one_warning() {
    // A hand-built program: syscall 1999 (no IRIX call), then
    // exit(v0 + 64 * a3): ENOSYS (89) with a3 = 1 (error) gives 153.
    let elf = Elf::program(&[
        addiu(V0, ZERO, 1999),
        syscall(),
        sll(T0, A3, 6),
        addu(A0, V0, T0),
        addiu(V0, ZERO, 1001), // exit
        syscall(),
    ]);
    let dir = Scratch::new("enosys");
    dir.write("prog", &elf.build());
    let r = run_emu(["run", "prog"], dir.path());
    let pc = elf.code_addr() + 4;
    assert_eq!(
        r.stderr,
        format!("irix-emu: prog: unimplemented system call 1999 at pc 0x{pc:08x}: ENOSYS\n")
    );
    assert_eq!(r.stdout_text(), "");
    assert_eq!(r.status, Status::Code(89 + 64));
}

/// Runs `guest/bin/irix/NAME` by its repository-relative path from the
/// repository root (the default --root), as the README's examples do.
fn run_relative(name: &str) -> Option<Run> {
    guest_program("irix", name)?;
    Some(run_emu(["run", &format!("guest/bin/irix/{name}")], repo()))
}

#[test]
fn process_programs_print_their_documented_output() {
    // guest/README.md, section 9, "IRIX-only programs": (program, stdout,
    // stderr, status).
    let table: &[(&str, &str, &str, i32)] = &[
        (
            "proc_pipeline",
            "consumer: 333 values, sum 111277611\n\
             parent: producer exited 0, filter exited 0, consumer exited 0\n\
             parent: expected 333 values, sum 111277611\n",
            "",
            0,
        ),
        (
            "proc_kill_child",
            "kill SIGKILL: 0\nchild 1: killed by signal 9 (SIGKILL)\nkill SIGTERM: 0\n\
             child 2: killed by signal 15 (SIGTERM)\nchild 3: exited with status 7\n\
             kill exited child: -1 ESRCH\n",
            "",
            0,
        ),
        (
            "proc_exec",
            "proc_exec: profil 0\nproc_exec: exec guest/bin/irix/hello\nhello, world\n",
            "",
            0,
        ),
        (
            "proc_deadlock",
            "proc_deadlock: parent and child will both block reading pipes nobody writes\n",
            "irix-emu: guest/bin/irix/proc_deadlock: deadlock: every remaining process is blocked and none can wake the others\n",
            exit::EMULATOR_FAILURE.into(),
        ),
    ];
    for (name, stdout, stderr, status) in table {
        let Some(r) = run_relative(name) else {
            continue;
        };
        assert_eq!(r.stdout_text(), *stdout, "{name}");
        assert_eq!(r.stderr, *stderr, "{name}");
        assert_eq!(r.status, Status::Code(*status), "{name}");
    }
}

#[test]
fn a_sigsegv_handler_runs_resumes_and_siglongjmps_then_the_default_action_kills() {
    let Some(r) = run_relative("proc_sigsegv_handler") else {
        return;
    };
    assert_eq!(
        r.stdout_text(),
        "part 1: faulting store at the label fault_store\n\
         handler: signal 11 (SIGSEGV), sc_pc at the faulting store: yes\n\
         part 1: resumed after the store, handler ran 1 time\n\
         part 2: faulting again\n\
         handler: signal 11, leaving by siglongjmp\n\
         part 2: recovered by siglongjmp, SIGSEGV blocked: no\n\
         part 3: default action, faulting once more\n"
    );
    assert_eq!(r.status, Status::Code(128 + 11));
    check_killed_line(
        &r,
        Path::new("guest/bin/irix/proc_sigsegv_handler"),
        "SIGSEGV",
        Some("0x00000000"),
    );
}

#[test]
fn max_memory_limits_what_the_guest_may_allocate() {
    let Some(prog) = guest_program("irix", "workload") else {
        return;
    };
    let name = prog.display();
    // (--max-memory, stdout, stderr, status): too small for the program's
    // image, then room for the image but not for workload's 200,000-byte
    // sieve (its malloc fails), then plenty.
    let table: Vec<(&str, &str, String, i32)> = vec![
        (
            "16K",
            "",
            format!(
                "irix-emu: {name}: cannot start within --max-memory 16384 bytes\n\
                 irix-emu: hint: the smallest budget that starts it is --max-memory 201K; \
                 it may need more as it runs (the default is 1G)\n"
            ),
            exit::EMULATOR_FAILURE.into(),
        ),
        ("256K", "workload: out of memory\n", String::new(), 1),
        ("64M", WORKLOAD_1_OUTPUT, String::new(), 0),
    ];
    for (limit, stdout, stderr, status) in table {
        // An empty host environment: the guest's environment is on its
        // stack, inside the budget, so the smallest budget must not follow
        // the shell the tests run from.
        let args = ["run", "--max-memory", limit, &prog.to_string_lossy(), "1"];
        let r = common::run_emu_clean_env(args, repo());
        assert_eq!(r.stdout_text(), stdout, "--max-memory {limit}");
        assert_eq!(r.stderr, stderr, "--max-memory {limit}");
        assert_eq!(r.status, Status::Code(status), "--max-memory {limit}");
    }
}

#[test]
fn arguments_that_are_not_utf8_reach_the_guest_as_bytes() {
    use std::os::unix::ffi::OsStrExt;
    let Some(prog) = guest_program("irix", "args_env") else {
        return;
    };
    // Unix arguments are bytes: qemu-mips passes 0xff through unchanged.
    let arg = OsStr::from_bytes(b"caf\xe9\xff");
    let r = run_emu_clean_env([OsStr::new("run"), prog.as_os_str(), arg], repo());
    let mut expected = format!("argc=2\nargv[0]={}\nargv[1]=", guest_path(&prog)).into_bytes();
    expected.extend_from_slice(b"caf\xe9\xff\nenvc=0\n");
    assert_eq!(r.stdout, expected);
    assert_eq!(r.stderr, "");
    assert_eq!(r.status, Status::Code(0));
}

#[test]
fn a_call_or_request_irix_has_but_irix_emu_lacks_is_named_in_its_enosys() {
    // getmsg (1085, STREAMS) and syssgi(SGI_RUSAGE = 56) are IRIX's, not
    // irix-emu's: both fail with ENOSYS, and the warning and --strace name
    // them.
    let elf = Elf::program(&[
        addiu(V0, ZERO, 1085),
        syscall(),
        addiu(A0, ZERO, 56),
        addiu(V0, ZERO, 1040),
        syscall(),
        addu(A0, V0, ZERO),
        addiu(V0, ZERO, 1001), // exit(ENOSYS)
        syscall(),
    ]);
    let dir = Scratch::new("enosys-named");
    dir.write("prog", &elf.build());
    let r = run_emu(["run", "--strace", "prog"], dir.path());
    let lines = r.stderr_lines();
    let pc = elf.code_addr() + 4;
    assert_eq!(
        lines[0],
        format!("irix-emu: prog: unimplemented system call 1085 (getmsg) at pc 0x{pc:08x}: ENOSYS")
    );
    // getmsg has its row (not implemented), so its arguments are shown.
    assert!(
        lines[1].starts_with("[100] getmsg(0, ") && lines[1].ends_with(") = -1 ENOSYS"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].starts_with("irix-emu: prog: unimplemented syssgi request 56 (SGI_RUSAGE) at pc"),
        "{}",
        lines[2]
    );
    assert!(
        lines[3].starts_with("[100] syssgi(SGI_RUSAGE, ") && lines[3].ends_with(" = -1 ENOSYS"),
        "{}",
        lines[3]
    );
    assert_eq!(r.status, Status::Code(89));
}

#[test]
fn the_compiled_tier_keeps_its_code_from_one_time_slice_to_the_next() {
    // The kernel runs the CPU a time slice at a time; compiled code made in
    // one slice must still serve the next (it is dropped only when the
    // memory type changes or the cache is full). Were it dropped at each
    // slice, hot blocks would be compiled again and again and much of the
    // run would fall back to the block tier: the share of instructions run
    // in compiled code (deterministic for a given build) shows it.
    let Some(prog) = guest_program("irix", "workload") else {
        return;
    };
    let r = run(&["--stats", "--engine", "jit"], &prog, &["1"]);
    assert_eq!(r.status, Status::Code(0), "{}", r.stderr);
    let line = r
        .stderr_lines()
        .into_iter()
        .find(|l| l.starts_with("irix-emu: engine"))
        .expect("the --stats engine line")
        .to_string();
    let compiled: f64 = line
        .split(", ")
        .nth(1)
        .and_then(|s| s.strip_suffix("% compiled"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(compiled >= 90.0, "{line}");
}
