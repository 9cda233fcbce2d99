//! `irix-emu run --gdb` driven by a real GDB (Debian's gdb-multiarch) in
//! batch mode against guest/bin/irix/gdb_target (built with -g -O0): each
//! test fails unless GDB's output has the expected lines. Without
//! gdb-multiarch the tests print SKIP and pass, unless
//! IRIX_EMU_REQUIRE_TOOLS=1. Every process runs under the common time
//! limit, so nothing can hang.

use crate::common;

use std::io::Write;
use std::time::{Duration, Instant};

use common::gdb::{
    assert_lines, assert_same_gmon, connect, exchange, gdb, gdb_run, read_packet, session,
    start_emu, GDB,
};
use common::{emu_command, guest_program, require_tool, run_command, Scratch, Status};

#[test]
fn break_at_a_function_shows_backtrace_registers_locals_and_fp_registers() {
    let Some((run, out)) = session(
        "run",
        &[],
        &[],
        "break add_scaled\ncontinue\nbt\ninfo registers a0 a1 a2 a3\np f\n\
         next\nnext\np g\np sum\np/x $f0\np/x $f1\np/x $fir\nfinish\ncontinue",
    ) else {
        return;
    };
    assert_lines(
        &out,
        &[
            "Breakpoint 1, add_scaled (a=3, b=4, f=2.5) at src/gdb_target.c:33",
            "#0  add_scaled (a=3, b=4, f=2.5) at src/gdb_target.c:33",
            "a0: 0x3",
            "a1: 0x4",
            "a2: 0x40040000",
            "a3: 0x0",
            "$1 = 2.5",
            "35\t\tcounter = sum;",
            "$2 = 5",
            "$3 = 7",
            // g = 5.0 in the FR=0 pair $f0:$f1 (high word in the odd register)
            "$4 = 0x0",
            "$5 = 0x40140000",
            "$6 = 0x500",
            "Value returned is $7 = 12",
            "[Inferior 1 (process 100) exited with code 07]",
        ],
    );
    assert!(out.contains("#1  0x"), "no caller frame:\n{out}");
    assert!(out.contains(" in main (argc=1, argv=0x"), "{out}");
    assert_eq!(run.status, Status::Code(7), "{}", run.stderr);
    assert_eq!(run.stdout_text(), "r=12 counter=20 d=5,106 child=3\n");
}

#[test]
fn stepi_runs_a_branch_with_its_delay_slot() {
    // delay_demo(0): beq taken, the delay slot's addiu sets v0 = 5, and the
    // step lands on the target (the jr), past the skipped addiu. Then
    // delay_demo(1): not taken, the step lands on the addiu after the slot.
    let Some((run, out)) = session(
        "run",
        &[],
        &[],
        "break delay_demo\ncontinue\np $pc\nstepi\np $pc\np $v0\n\
         continue\np $pc\nstepi\np $pc\np $v0\nstepi\np $v0\ndelete\ncontinue",
    ) else {
        return;
    };
    assert_lines(
        &out,
        &[
            "$1 = (void (*)()) 0x400160 <delay_demo>",
            "$2 = (void (*)()) 0x40016c <delay_demo+12>",
            "$3 = 5",
            "$4 = (void (*)()) 0x400160 <delay_demo>",
            "$5 = (void (*)()) 0x400168 <delay_demo+8>",
            "$6 = 6",
            "$7 = 106",
        ],
    );
    assert_eq!(run.status, Status::Code(7), "{}", run.stderr);
}

#[test]
fn a_watchpoint_names_the_line_that_changed_the_global() {
    let Some((run, out)) = session(
        "run",
        &[],
        &[],
        "watch counter\ncontinue\ncontinue\ndelete\ncontinue",
    ) else {
        return;
    };
    assert_lines(
        &out,
        &[
            "Old value = 0",
            "New value = 7",
            "add_scaled (a=3, b=4, f=2.5) at src/gdb_target.c:36",
            "Old value = 7",
            "New value = 20",
            "[Inferior 1 (process 100) exited with code 07]",
        ],
    );
    assert!(
        out.contains("\nmain (argc=1, argv=0x") && out.contains(") at src/gdb_target.c:56\n"),
        "{out}"
    );
    assert_eq!(run.status, Status::Code(7), "{}", run.stderr);
}

#[test]
fn kill_ends_the_run_as_killed_by_sigkill() {
    let Some((run, out)) = session("run", &[], &[], "break add_scaled\ncontinue\nkill") else {
        return;
    };
    assert_lines(&out, &["[Inferior 1 (process 100) killed]"]);
    assert!(!out.contains("Remote connection closed"), "{out}");
    assert_eq!(run.status, Status::Code(128 + 9), "{}", run.stderr);
    assert!(run.stderr.contains("killed by SIGKILL"), "{}", run.stderr);
    assert_eq!(run.stdout_text(), "");
}

#[test]
fn interrupt_stops_a_spinning_program() {
    // GDB's batch mode cannot type Ctrl-C: speak the protocol directly.
    let Some(program) = guest_program("irix", "gdb_target") else {
        return;
    };
    let dir = Scratch::new("gdb-int");
    let (sock, emu) = start_emu(&dir, "run", &[], &program, &["spin"]);
    let mut s = connect(&sock);
    let first = exchange(&mut s, "?");
    assert!(first.starts_with("T05"), "first stop reply {first:?}");
    write!(s, "$c#63").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    s.write_all(&[0x03]).unwrap();
    let stop = read_packet(&mut s);
    assert!(
        stop == "S02" || stop.starts_with("T02"),
        "stop reply {stop:?}"
    );
    // The stub names processes by their IRIX pids (100 = 0x64).
    assert_eq!(exchange(&mut s, "vKill;64"), "OK");
    drop(s);
    let run = emu.join().unwrap();
    assert_eq!(run.status, Status::Code(128 + 9), "{}", run.stderr);
}

#[test]
fn a_closed_connection_ends_the_run_with_status_125() {
    let Some(program) = guest_program("irix", "gdb_target") else {
        return;
    };
    let dir = Scratch::new("gdb-closed");
    let (sock, emu) = start_emu(&dir, "run", &[], &program, &[]);
    let mut s = connect(&sock);
    s.write_all(b"$garbage").unwrap();
    drop(s);
    let run = emu.join().unwrap();
    assert_eq!(run.status, Status::Code(125), "{}", run.stderr);
    assert!(run.stderr.contains("GDB connection lost"), "{}", run.stderr);
}

#[test]
fn a_fatal_signal_is_reported_to_gdb_and_in_the_exit_status() {
    if !require_tool(GDB) {
        return;
    }
    let Some(program) = guest_program("irix", "fault_segv") else {
        return;
    };
    let dir = Scratch::new("gdb-segv");
    let (sock, emu) = start_emu(&dir, "run", &[], &program, &[]);
    let out = gdb(&dir, &program, &sock, "continue");
    let run = emu.join().unwrap();
    assert_lines(
        &out,
        &["Program terminated with signal SIGSEGV, Segmentation fault."],
    );
    assert_eq!(run.status, Status::Code(128 + 11), "{}", run.stderr);
}

#[test]
fn a_debugged_profile_is_the_undebugged_profile_bit_for_bit() {
    // Breakpoints, a watchpoint, steps, and a trip into the past and back:
    // none of it may show in the profile.
    if !require_tool(GDB) {
        return;
    }
    let Some(program) = guest_program("irix", "gdb_target") else {
        return;
    };
    let dir = Scratch::new("gdb-prof");
    // At 1 MHz PROF_FAST samples every 1000 cycles: a few dozen samples.
    let plain = run_command(emu_command(
        [
            "prof",
            "--cpu-mhz",
            "1",
            "--fast",
            "--exact",
            "-o",
            "plain.out",
            program.to_str().unwrap(),
        ],
        dir.path(),
    ));
    assert_eq!(plain.status, Status::Code(7), "{}", plain.stderr);
    let (sock, emu) = start_emu(
        &dir,
        "prof",
        &["--cpu-mhz", "1", "--fast", "--exact", "-o", "debugged.out"],
        &program,
        &[],
    );
    let out = gdb(
        &dir,
        &program,
        &sock,
        "break add_scaled\ncontinue\nwatch counter\ncontinue\nstepi\nstepi\n\
         delete\nbreak delay_demo\ncontinue\nstepi\nbreak add_scaled\n\
         reverse-continue\nreverse-stepi\nstepi\nstepi\ndelete\ncontinue",
    );
    let run = emu.join().unwrap();
    assert_lines(&out, &["[Inferior 1 (process 100) exited with code 07]"]);
    assert_eq!(run.status, Status::Code(7), "{}", run.stderr);
    assert_same_gmon(&dir);
    // The reports (exact cycles included) are the same too.
    let strip = |s: &str| -> String {
        s.lines()
            .filter(|l| !l.contains("waiting for GDB") && !l.starts_with("irix-emu: host "))
            .map(|l| l.replace("plain.out", "debugged.out"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&plain.stderr), strip(&run.stderr));
    assert!(
        plain.stderr.contains(" samples at 1000 Hz"),
        "{}",
        plain.stderr
    );
    assert!(!plain.stderr.contains(" 0 samples at"), "{}", plain.stderr);
}

/// Fails unless `out` has each of `parts`, in this order.
fn assert_in_order(out: &str, parts: &[&str]) {
    let mut rest = out;
    for part in parts {
        match rest.find(part) {
            Some(i) => rest = &rest[i + part.len()..],
            None => panic!("GDB's output lacks {part:?} after the parts before it:\n{out}"),
        }
    }
}

/// GDB's output between `echo ==NAME==\n` and the next marker.
fn block<'a>(out: &'a str, name: &str) -> &'a str {
    let start = out
        .find(&format!("=={name}==\n"))
        .unwrap_or_else(|| panic!("no block {name}:\n{out}"));
    let rest = &out[start + name.len() + 5..];
    &rest[..rest.find("\n==").unwrap_or(rest.len())]
}

/// The state GDB can see: every register, the stack and data it uses, the
/// global, and the virtual clock.
const SHOW_STATE: &str =
    "info all-registers\nx/48xw $sp\nx/4xw &counter\nprintf \"counter=%d\\n\", counter\nmonitor cycles";

#[test]
fn reverse_continue_returns_to_an_earlier_breakpoint_with_equal_state() {
    let script = format!(
        "break add_scaled\nbreak delay_demo\ncontinue\necho ==FIRST==\\n\n{SHOW_STATE}\n\
         echo ==END==\\n\ncontinue\np counter\nreverse-continue\necho ==AGAIN==\\n\n{SHOW_STATE}\n\
         echo ==END==\\n\ndelete\ncontinue"
    );
    let Some((run, out)) = session("run", &[], &[], &script) else {
        return;
    };
    let first = block(&out, "FIRST");
    let again = block(&out, "AGAIN");
    assert!(first.contains("cycles "), "{out}");
    assert!(first.contains("cause       pc"), "{out}");
    assert_eq!(
        first, again,
        "the state on the second visit differs:\n{out}"
    );
    assert_eq!(
        out.matches("Breakpoint 1, add_scaled (a=3, b=4, f=2.5) at src/gdb_target.c:33")
            .count(),
        2,
        "{out}"
    );
    assert_lines(
        &out,
        &["$1 = 20", "[Inferior 1 (process 100) exited with code 07]"],
    );
    // Forward again from the past: the run ends exactly as an undebugged one.
    assert_eq!(run.status, Status::Code(7), "{}", run.stderr);
    assert_eq!(run.stdout_text(), "r=12 counter=20 d=5,106 child=3\n");
}

#[test]
fn reverse_stepi_undoes_one_instruction_and_stepi_redoes_it() {
    // At line 45, just after the fork: back through the branch of line
    // 44's `if` (reverse-stepi stops in its delay slot; a forward stepi
    // runs branch and slot together, as GDB steps MIPS delay slots), then
    // forward again to the same state, and back to the beginning.
    let script = format!(
        "break 45\ncontinue\necho ==AT45==\\n\n{SHOW_STATE}\necho ==END==\\n\n\
         reverse-stepi\nreverse-stepi\nreverse-stepi\nmonitor cycles\n\
         stepi\nstepi\necho ==AGAIN==\\n\n{SHOW_STATE}\necho ==END==\\n\n\
         reverse-continue\nreverse-continue\nmonitor cycles\ndelete\ncontinue"
    );
    let Some((run, out)) = session("run", &[], &[], &script) else {
        return;
    };
    assert_eq!(block(&out, "AT45"), block(&out, "AGAIN"), "{out}");
    assert_lines(
        &out,
        &[
            "0x00400208\t43\t\tif (pid == 0)",
            "0x00400204\t43\t\tif (pid == 0)",
            "43\t\tif (pid == 0)",
            "cycles 148 instructions 102",
            // The beginning: the first instruction, at cycle 0.
            "cycles 0 instructions 0",
        ],
    );
    // With no earlier breakpoint, reverse-continue stops at the beginning
    // of the history (the first instruction).
    assert!(out.contains("No more reverse-execution history."), "{out}");
    assert_lines(&out, &["[Inferior 1 (process 100) exited with code 07]"]);
    assert_eq!(run.status, Status::Code(7), "{}", run.stderr);
    assert_eq!(run.stdout_text(), "r=12 counter=20 d=5,106 child=3\n");
}

#[test]
fn forward_from_the_past_crosses_system_calls_without_running_them_again() {
    // Line 59 comes after fork, the child's _exit and waitpid. Back to
    // add_scaled, then forward to line 59 again: the system calls in
    // between are crossed by their snapshots (never executed twice: the
    // child exits once, the output is printed once), and the state at
    // line 59 is the same on both visits.
    let script = format!(
        "break 59\ncontinue\necho ==FIRST==\\n\n{SHOW_STATE}\necho ==END==\\n\n\
         break add_scaled\nreverse-continue\nmonitor cycles\ncontinue\n\
         echo ==AGAIN==\\n\n{SHOW_STATE}\necho ==END==\\n\ndelete\ncontinue"
    );
    let Some((run, out)) = session("run", &[], &[], &script) else {
        return;
    };
    assert_eq!(block(&out, "FIRST"), block(&out, "AGAIN"), "{out}");
    assert_lines(
        &out,
        &[
            "Breakpoint 2, add_scaled (a=3, b=4, f=2.5) at src/gdb_target.c:33",
            "cycles 42 instructions 35",
            "counter=20",
            "[Inferior 1 (process 100) exited with code 07]",
        ],
    );
    assert_eq!(
        out.matches("Breakpoint 1, main (argc=1").count(),
        2,
        "{out}"
    );
    assert_eq!(run.status, Status::Code(7), "{}", run.stderr);
    assert_eq!(run.stdout_text(), "r=12 counter=20 d=5,106 child=3\n");
}

#[test]
fn reverse_continue_stops_at_the_stores_a_watchpoint_watches() {
    let Some((run, out)) = session(
        "run",
        &[],
        &[],
        "break delay_demo\ncontinue\nwatch counter\nreverse-continue\nreverse-continue\n\
         reverse-continue\ndelete\ncontinue",
    ) else {
        return;
    };
    assert_lines(
        &out,
        &[
            "Old value = 20",
            "New value = 7",
            "55\t\tcounter += 13;",
            "Old value = 7",
            "New value = 0",
            "35\t\tcounter = sum;",
            "No more reverse-execution history.",
            "[Inferior 1 (process 100) exited with code 07]",
        ],
    );
    assert_eq!(run.status, Status::Code(7), "{}", run.stderr);
}

/// Runs `program` plainly, then under the debugger with a step back into
/// the history at main, and asserts that both runs print and exit the same.
fn runs_the_same_under_the_debugger(program: &str) {
    if !require_tool(GDB) {
        return;
    }
    let Some(program) = guest_program("irix", program) else {
        return;
    };
    let dir = Scratch::new("gdb-same");
    let plain = run_command(emu_command(["run", program.to_str().unwrap()], dir.path()));
    let (sock, emu) = start_emu(&dir, "run", &[], &program, &[]);
    let out = gdb(
        &dir,
        &program,
        &sock,
        "break main\ncontinue\nreverse-stepi\ndelete\ncontinue",
    );
    let run = emu.join().unwrap();
    assert!(out.contains("[Inferior 1 (process 100) exited"), "{out}");
    assert_eq!(run.status, plain.status, "{}", run.stderr);
    assert_eq!(run.stdout_text(), plain.stdout_text());
}

#[test]
fn a_pipeline_of_processes_runs_the_same_under_the_debugger() {
    // The history's snapshots must not keep pipe ends open (a reader
    // would never see end-of-file) nor replay any process's I/O.
    runs_the_same_under_the_debugger("proc_pipeline");
}

#[test]
fn shared_memory_attachments_count_the_same_under_the_debugger() {
    // The history's snapshots copy every address space: their copies of
    // a shmat attachment must not count in shm_nattch (intro(2): "the
    // number of processes that currently have this segment attached").
    runs_the_same_under_the_debugger("ipc_shm_sproc");
}

#[test]
fn a_bare_port_listens_on_localhost_and_serves_the_protocol() {
    use std::io::BufRead;
    use std::net::TcpStream;
    let Some(program) = guest_program("irix", "gdb_target") else {
        return;
    };
    let dir = Scratch::new("gdb-tcp");
    // Port 0: the system picks a free one, and irix-emu says which.
    let mut child = emu_command(["run", "--gdb", "0", program.to_str().unwrap()], dir.path())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start irix-emu");
    let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    err.read_line(&mut line).expect("the waiting line");
    let addr = line
        .strip_prefix("irix-emu: waiting for GDB on ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_string();
    assert!(addr.starts_with("127.0.0.1:"), "{line}");
    let mut s = TcpStream::connect(&addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(s, "$?#3f").unwrap();
    let stop = read_packet(&mut s);
    assert!(stop.starts_with("T05"), "{stop}");
    write!(s, "$vKill;64#a7").unwrap();
    assert_eq!(read_packet(&mut s), "OK");
    drop(s);
    let started = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "irix-emu did not exit"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(status.code(), Some(128 + 9));
}

#[test]
fn info_sharedlibrary_lists_what_the_interpreter_mapped_and_breaks_in_a_library() {
    // irix-emu's own dynamic program: its interpreter /lib/ld.so maps
    // /lib/libgreet.so with SGI_ELFMAP, moved from its link address 0.
    // A breakpoint on a library function set before the library is mapped
    // resolves when the stub reports the mapping. Under `prof`: the
    // library events cost no virtual time either.
    if !require_tool(GDB) {
        return;
    }
    let Some(root) = common::dynroot() else {
        return;
    };
    let program = root.join("bin/dyn_hello");
    let program_s = program.display().to_string();
    let dir = Scratch::new("gdb-dso");
    let root_s = root.display().to_string();
    let options = |gmon| {
        [
            "--root",
            &root_s,
            "--cpu-mhz",
            "1",
            "--fast",
            "--exact",
            "-o",
            gmon,
        ]
    };
    let plain_args = [
        &["prof"][..],
        &options("plain.out"),
        &[&program_s, "a", "b"],
    ]
    .concat();
    let plain = run_command(emu_command(plain_args, dir.path()));
    assert_eq!(plain.status, Status::Code(42), "{}", plain.stderr);
    let (sock, emu) = start_emu(
        &dir,
        "prof",
        &options("debugged.out"),
        &program,
        &["a", "b"],
    );
    let out = gdb_run(
        &dir,
        &[],
        &format!("set sysroot {root_s}"),
        &program,
        &sock,
        "info sharedlibrary\nbreak greet_add\ncontinue\ninfo sharedlibrary\nbt\n\
         info registers a0 a1\ndelete\ncontinue",
    );
    let run = emu.join().unwrap();
    let lib = format!("{root_s}/lib/libgreet.so");
    assert!(
        out.contains(&format!(
            "Breakpoint 1, 0x300002f4 in greet_add () from {lib}\n"
        )),
        "{out}"
    );
    assert_lines(
        &out,
        &[
            &format!("0x0f000000  0x0f012630  Yes (*)     {root_s}/lib/ld.so"),
            // Moved from 0 to the mmap area, where GDB relocated it.
            &format!("0x30000000  0x300103c0  Yes (*)     {lib}"),
            &format!("#0  0x300002f4 in greet_add () from {lib}"),
            "a0: 0x2",
            "a1: 0x28",
            "[Inferior 1 (process 100) exited with code 052]",
        ],
    );
    // Before the interpreter ran, only it was mapped.
    let first = out.split("Breakpoint 1 at").next().unwrap();
    assert!(!first.contains("libgreet.so"), "{out}");
    assert!(
        out.contains("#1  0x") && out.contains(" in main ()"),
        "{out}"
    );
    assert_eq!(run.status, Status::Code(42), "{}", run.stderr);
    assert_same_gmon(&dir);
}

#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn ido_5_3_cfe_breaks_in_main_and_in_libc_so_1() {
    // IDO 5.3's C front end: the kernel maps libc.so.1 (the program's
    // interpreter), which maps rld, which maps what the program needs;
    // GDB reads the objects from the IRIX root as its sysroot. GDB 13 crashes
    // reading the ECOFF symbols (.mdebug) of SGI's libc.so.1 and rld, so it
    // runs with --readnever (the ELF symbol tables are enough here).
    if !require_tool(GDB) {
        return;
    }
    let root = test_support::roots::irix_root_53(&["usr/lib/cfe"]);
    let root_s = root.display().to_string();
    let cfe = root.join("usr/lib/cfe");
    let dir = Scratch::new("gdb-cfe");
    let (sock, emu) = start_emu(&dir, "run", &["--root", &root_s], &cfe, &[]);
    let out = gdb_run(
        &dir,
        &["--readnever"],
        &format!("set sysroot {root_s}"),
        &cfe,
        &sock,
        "break main\ncontinue\nbt 1\ninfo sharedlibrary\nbreak exit\ncontinue\nbt\n\
         stepi\ninfo symbol $pc\ndelete\ncontinue",
    );
    let run = emu.join().unwrap();
    let libc = format!("{root_s}/usr/lib/libc.so.1");
    assert!(out.contains(" in main ()\n"), "{out}");
    assert!(out.contains("#0  0x0041cd24 in main ()"), "{out}");
    let listed = |name: &str| {
        out.lines()
            .any(|l| l.starts_with("0x") && l.contains("Yes") && l.ends_with(name))
    };
    assert!(listed(&libc), "{out}");
    assert!(listed(&format!("{root_s}/lib/rld")), "{out}");
    assert!(
        out.contains(&format!(" in exit () from {libc}\n")),
        "no stop in libc.so.1's exit:\n{out}"
    );
    // stepi at exit's call runs the call and its delay slot: into the
    // callee, within libc.so.1.
    let after_step = out.split("#1  0x").nth(1).unwrap_or("");
    assert!(
        after_step
            .lines()
            .any(|l| l.contains(" in section .text of ") && l.ends_with(&libc)),
        "{out}"
    );
    assert!(
        out.contains("#1  0x") && out.contains(" in main ()\n"),
        "{out}"
    );
    assert!(
        out.contains("[Inferior 1 (process 100) exited normally]"),
        "{out}"
    );
    assert_eq!(run.status, Status::Code(0), "{}", run.stderr);
}

#[test]
fn reverse_next_and_reverse_step_go_back_by_lines() {
    // Forward by lines to 59 (over fork_child's fork, _exit and waitpid),
    // then back by lines: reverse-next steps back over calls, system
    // calls included, to the state the forward run had at that line;
    // reverse-step enters a function with line information from its end.
    let script = format!(
        "break 56\ncontinue\nnext\nnext\necho ==AT58==\\n\n{SHOW_STATE}\necho ==END==\\n\n\
         next\np child\nreverse-next\necho ==BACK58==\\n\n{SHOW_STATE}\necho ==END==\\n\n\
         reverse-next\np d0\nreverse-next\nreverse-next\nreverse-step\nreverse-step\nreverse-step\nbt\n\
         delete\ncontinue"
    );
    let Some((run, out)) = session("run", &[], &[], &script) else {
        return;
    };
    assert_eq!(block(&out, "AT58"), block(&out, "BACK58"), "{out}");
    assert_in_order(
        &out,
        &[
            "==BACK58==",
            "57\t\td1 = delay_demo(1);",
            "$2 = 5",
            // Back over delay_demo(0) to the breakpoint at its line.
            "Breakpoint 1, main (argc=1, argv=0x",
            "56\t\td0 = delay_demo(0);",
            "55\t\tcounter += 13;",
            "53\t\twhile (argc > 1)",
            // Into add_scaled from its end.
            "add_scaled (a=3, b=4, f=2.5) at src/gdb_target.c:37",
            "37\t}",
            "#0  add_scaled (a=3, b=4, f=2.5) at src/gdb_target.c:37",
            "#1  0x0040028c in main (argc=1, argv=0x",
            "[Inferior 1 (process 100) exited with code 07]",
        ],
    );
    assert!(
        out.contains("\n$1 = 3\n58\t\tchild = fork_child();\n"),
        "{out}"
    );
    assert_eq!(run.status, Status::Code(7), "{}", run.stderr);
    assert_eq!(run.stdout_text(), "r=12 counter=20 d=5,106 child=3\n");
}
