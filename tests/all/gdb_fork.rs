//! Fork and exec under a real GDB (gdb-multiarch, batch mode): the stub's
//! fork and exec events drive GDB's own `follow-fork-mode`,
//! `detach-on-fork`, `catch fork` and `catch exec`. gdb_target forks a
//! child that runs line 44 (`_exit(3)`) while the parent waits at line 45;
//! proc_exec execs the program its argument names. Each test fails unless
//! GDB's output has the expected lines; without gdb-multiarch they print
//! SKIP and pass, unless IRIX_EMU_REQUIRE_TOOLS=1.

use crate::common;

use common::gdb::{
    assert_lines, assert_same_gmon, connect, exchange, gdb_run, read_packet, send_packet, session,
    start_emu, GDB,
};
use common::{emu_command, guest_program, require_tool, run_command, Scratch, Status};

/// The parent's line when the whole program ran.
const GDB_TARGET_OUTPUT: &str = "r=12 counter=20 d=5,106 child=3\n";

#[test]
fn follow_fork_mode_child_debugs_the_child_and_detaches_the_parent() {
    let Some((run, out)) = session(
        "run",
        &[],
        &[],
        "set follow-fork-mode child\nbreak 44\ncontinue\np pid\nmonitor pid\nbt\n\
         monitor cycles\nreverse-continue\ncontinue\nmonitor cycles\ncontinue",
    ) else {
        return;
    };
    // The child's history begins at its fork: back there, and forward to
    // the breakpoint again with the same cycle count.
    assert_lines(
        &out,
        &[
            "No more reverse-execution history.",
            "0x004005dc in fork ()",
        ],
    );
    let cycles: Vec<&str> = out.lines().filter(|l| l.starts_with("cycles ")).collect();
    assert_eq!(cycles.len(), 2, "{out}");
    assert_eq!(cycles[0], cycles[1], "{out}");
    assert_lines(
        &out,
        &[
            "[Attaching after Thread 100.100 fork to child Thread 101.101]",
            "[New inferior 2 (process 101)]",
            "[Detaching after fork from parent process 100]",
            "[Inferior 1 (process 100) detached]",
            "Thread 2.1 hit Breakpoint 1, fork_child () at src/gdb_target.c:44",
            "$1 = 0",
            "101",
            "#0  fork_child () at src/gdb_target.c:44",
            "[Inferior 2 (process 101) exited with code 03]",
        ],
    );
    // The parent ran on undebugged: its output and status are whole.
    assert_eq!(run.status, Status::Code(7), "{}", run.stderr);
    assert_eq!(run.stdout_text(), GDB_TARGET_OUTPUT);
}

#[test]
fn follow_fork_mode_parent_detaches_the_child_which_runs_on() {
    // Line 44 runs only in the child: detached, it does not stop there.
    let Some((run, out)) = session(
        "run",
        &[],
        &[],
        "break 44\nbreak 45\ncontinue\np pid\ninfo inferiors\ncontinue",
    ) else {
        return;
    };
    assert_lines(
        &out,
        &[
            "[Detaching after fork from child process 101]",
            "Breakpoint 2, fork_child () at src/gdb_target.c:45",
            "$1 = 101",
            "[Inferior 1 (process 100) exited with code 07]",
        ],
    );
    assert!(!out.contains("Breakpoint 1,"), "{out}");
    assert!(!out.contains("process 101 "), "{out}");
    assert_eq!(run.status, Status::Code(7), "{}", run.stderr);
    assert_eq!(run.stdout_text(), GDB_TARGET_OUTPUT);
}

#[test]
fn catch_fork_names_the_child_and_detach_on_fork_off_keeps_both_as_inferiors() {
    // schedule-multiple on: `continue` resumes both inferiors (off, GDB
    // would resume the parent alone, which then waits for its held child
    // until GDB is interrupted, as under a debugger on IRIX).
    let Some((run, out)) = session(
        "run",
        &[],
        &[],
        "set detach-on-fork off\nset schedule-multiple on\ncatch fork\ncontinue\n\
         break 44\ncontinue\np pid\ninfo inferiors\ncontinue\ninferior 1\ncontinue",
    ) else {
        return;
    };
    assert_lines(
        &out,
        &[
            "Catchpoint 1 (forked process 101), 0x004005dc in fork ()",
            "[New inferior 2 (process 101)]",
            "Thread 2.1 hit Breakpoint 2.2, fork_child () at src/gdb_target.c:44",
            "$1 = 0",
            "[Inferior 2 (process 101) exited with code 03]",
            "[Inferior 1 (process 100) exited with code 07]",
        ],
    );
    let inferiors = out.split("$1 = 0").nth(1).unwrap_or_default();
    assert!(
        inferiors.contains("\n  1    process 100 ") && inferiors.contains("\n* 2    process 101 "),
        "{out}"
    );
    assert_eq!(run.status, Status::Code(7), "{}", run.stderr);
    assert_eq!(run.stdout_text(), GDB_TARGET_OUTPUT);
}

#[test]
fn detaching_one_inferior_leaves_the_session_with_the_other() {
    // D;pid detaches the child alone; detaching the parent, the last one,
    // ends the session and the program runs on.
    let Some((run, out)) = session(
        "run",
        &[],
        &[],
        "set detach-on-fork off\nbreak 43\ncontinue\ninferior 2\ndetach\n\
         info inferiors\ninferior 1\ndetach",
    ) else {
        return;
    };
    assert_lines(
        &out,
        &[
            "[New inferior 2 (process 101)]",
            "Thread 1.1 hit Breakpoint 1.1, fork_child () at src/gdb_target.c:43",
            "[Inferior 2 (process 101) detached]",
            "[Inferior 1 (process 100) detached]",
        ],
    );
    let after = out
        .split("(process 101) detached]")
        .nth(1)
        .unwrap_or_default();
    assert!(after.contains("\n  1    process 100 "), "{out}");
    assert_eq!(run.status, Status::Code(7), "{}", run.stderr);
    assert!(
        run.stderr.contains("GDB detached; the program runs on"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stdout_text(), GDB_TARGET_OUTPUT);
}

#[test]
fn a_profile_with_both_processes_debugged_is_the_undebugged_profile() {
    // Fork events, a held child and a second inferior cost no virtual time.
    if !require_tool(GDB) {
        return;
    }
    let Some(program) = guest_program("irix", "gdb_target") else {
        return;
    };
    let dir = Scratch::new("gdb-fork-prof");
    let options = |out: &'static str| ["--cpu-mhz", "1", "--fast", "--exact", "-o", out];
    let plain_args = [
        &["prof"][..],
        &options("plain.out"),
        &[program.to_str().unwrap()],
    ]
    .concat();
    let plain = run_command(emu_command(plain_args, dir.path()));
    assert_eq!(plain.status, Status::Code(7), "{}", plain.stderr);
    let (sock, emu) = start_emu(&dir, "prof", &options("debugged.out"), &program, &[]);
    let sources = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("guest");
    let out = gdb_run(
        &dir,
        &[],
        &format!("directory {}", sources.display()),
        &program,
        &sock,
        "set detach-on-fork off\ncatch fork\ncontinue\nbreak 44\n\
         set schedule-multiple on\ncontinue\ncontinue\ninferior 1\ncontinue",
    );
    let run = emu.join().unwrap();
    assert_lines(&out, &["[Inferior 1 (process 100) exited with code 07]"]);
    assert_eq!(run.status, Status::Code(7), "{}", run.stderr);
    assert_same_gmon(&dir);
}

#[test]
fn catch_exec_stops_at_the_new_programs_entry_with_its_symbols() {
    // proc_exec execs /hello in a guest root of the committed binaries;
    // GDB finds the new program under its sysroot, the same root.
    if !require_tool(GDB) {
        return;
    }
    let (Some(program), Some(hello)) = (
        guest_program("irix", "proc_exec"),
        guest_program("irix", "hello"),
    ) else {
        return;
    };
    let root = hello.parent().unwrap().to_path_buf();
    let root_s = root.display().to_string();
    let dir = Scratch::new("gdb-exec");
    let (sock, emu) = start_emu(&dir, "run", &["--root", &root_s], &program, &["/hello"]);
    let out = gdb_run(
        &dir,
        &[],
        &format!("set sysroot {root_s}"),
        &program,
        &sock,
        "catch exec\nbreak main\ncontinue\ninfo symbol $pc\ncontinue\ninfo symbol $pc\n\
         info inferiors\nreverse-stepi\ncontinue\nbt\ninfo symbol $pc\ncontinue",
    );
    let run = emu.join().unwrap();
    assert_lines(
        &out,
        &[
            "main + 12 in section .text",
            "process 100 is executing new program: /hello",
            "Catchpoint 1 (exec'd /hello), 0x00400110 in __start ()",
            "__start in section .text",
            // The history of the new image begins at the exec.
            "No more reverse-execution history.",
            // The breakpoint on main, set again in the new program.
            "Breakpoint 2, 0x0040016c in main ()",
            "#0  0x0040016c in main ()",
            "[Inferior 1 (process 100) exited normally]",
        ],
    );
    assert!(
        out.contains("* 1    process 100 ") && out.contains(&format!("{root_s}/hello")),
        "{out}"
    );
    assert_eq!(run.status, Status::Code(0), "{}", run.stderr);
    assert!(
        run.stdout_text().ends_with("hello, world\n"),
        "{}",
        run.stdout_text()
    );
}

#[test]
fn a_held_child_keeps_its_waiting_parent_stopped_until_gdb_interrupts() {
    // The protocol by hand (batch GDB cannot type Ctrl-C): after the fork
    // event GDB resumes the parent alone; it waits for the held child, and
    // the machine waits for GDB, never declaring a deadlock.
    use std::io::Write;
    let Some(program) = guest_program("irix", "gdb_target") else {
        return;
    };
    let dir = Scratch::new("gdb-held");
    let (sock, emu) = start_emu(&dir, "run", &[], &program, &[]);
    let mut s = connect(&sock);
    let features = exchange(&mut s, "qSupported:multiprocess+;fork-events+");
    assert!(features.contains("fork-events+"), "{features}");
    assert_eq!(exchange(&mut s, "?"), "T05thread:p64.64;");
    assert_eq!(
        exchange(&mut s, "vCont;c"),
        "T05fork:p65.65;thread:p64.64;",
        "the fork event names the child"
    );
    assert_eq!(exchange(&mut s, "qfThreadInfo"), "mp64.64,p65.65");
    send_packet(&mut s, "vCont;c:p64.-1");
    std::thread::sleep(std::time::Duration::from_millis(300));
    s.write_all(&[0x03]).unwrap();
    assert_eq!(read_packet(&mut s), "T02thread:p64.64;");
    // Both run: the child exits 3, then the parent 7.
    assert_eq!(exchange(&mut s, "vCont;c"), "W03;process:65");
    assert_eq!(exchange(&mut s, "vCont;c:p64.-1"), "W07;process:64");
    drop(s);
    let run = emu.join().unwrap();
    assert_eq!(run.status, Status::Code(7), "{}", run.stderr);
    assert_eq!(run.stdout_text(), GDB_TARGET_OUTPUT);
}
