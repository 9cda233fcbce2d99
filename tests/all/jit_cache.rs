//! The jit engine's translation cache (`--jit-cache`): a run writes the
//! blocks it compiled as one pack file, a later run loads them and gives
//! the same run, and every bad cache (corrupt, truncated or foreign
//! entries, truncated packs, a path that is a file, a symbolic link or a
//! directory others may write, a read-only directory, processes racing on
//! one directory) costs at most one warning and never changes what the
//! guest does; a pack of another format is left alone. Blocks that ran
//! without being compiled are counted across runs (heat). With an IRIX 5.3 root, SGI's cc (five processes) writes the same
//! object with the same counts, cold or warm.

use crate::common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use common::{exact, guest, repo, run_emu, Run, Scratch};

/// The program: one round of the workload compiles a few dozen blocks.
fn args(cache: &str) -> Vec<String> {
    args_rounds(cache, 1)
}

/// The workload with `rounds` rounds.
fn args_rounds(cache: &str, rounds: u32) -> Vec<String> {
    let program = guest("workload");
    let rounds = rounds.to_string();
    [
        "run",
        "--stats",
        "--engine",
        "jit",
        "--jit-cache",
        cache,
        &program,
        &rounds,
    ]
    .map(String::from)
    .to_vec()
}

/// Runs the workload with `--jit-cache cache`.
fn run(cache: &Path) -> Run {
    run_emu(args(cache.to_str().expect("UTF-8")), repo())
}

fn warnings(run: &Run) -> Vec<&str> {
    run.stderr_lines()
        .into_iter()
        .filter(|l| l.contains("warning"))
        .collect()
}

/// (hits, misses) from the `--stats` line.
/// Misses leave out the blocks heat compiled: a run may compile code no
/// earlier run compiled, once its runs in earlier runs add up (see
/// `jit/store/heat.rs`); those are counted by [`from_heat`].
fn hits_misses(run: &Run) -> (u64, u64) {
    let (hits, misses, heated) = cache_line(run);
    (hits, misses - heated)
}

/// The blocks a run compiled because earlier runs' counts added up.
fn from_heat(run: &Run) -> u64 {
    cache_line(run).2
}

/// (hits, misses, of which from heat) from the `--stats` line.
fn cache_line(run: &Run) -> (u64, u64, u64) {
    let line = run
        .stderr_lines()
        .into_iter()
        .find(|l| l.starts_with("irix-emu: jit cache"))
        .unwrap_or_else(|| panic!("no jit cache line: {}", run.stderr))
        .to_string();
    let num = |word: &str| -> u64 {
        let before = &line[..line.find(word).expect(word)];
        let n = before
            .trim_end()
            .rsplit([' ', '('])
            .next()
            .expect("a number");
        n.parse().expect("a number")
    };
    (num(" hits"), num(" misses"), num(" from heat"))
}

/// What `run`, whose cache had nothing it could use, compiled: it found
/// nothing and compiled something (not always the same blocks as the run
/// that filled the cache: the counts that earlier run left, see `heat`,
/// change which blocks are compiled with which, see `jit::region`).
fn compiled_again(run: &Run) -> u64 {
    let (hits, misses, _) = cache_line(run);
    assert_eq!(hits, 0, "{}", run.stderr);
    assert!(misses > 0, "{}", run.stderr);
    misses
}

/// The run with no cache at all, for comparison.
fn reference() -> (String, Vec<String>) {
    let r = run_emu(args("off"), repo());
    assert!(warnings(&r).is_empty(), "{}", r.stderr);
    assert!(!r.stderr.contains("jit cache"), "{}", r.stderr);
    exact(&r)
}

/// The cache's files.
fn files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .expect("the cache")
        .map(|e| e.expect("a file").path())
        .collect();
    v.sort();
    v
}

/// The cache's packs.
fn packs(dir: &Path) -> Vec<std::path::PathBuf> {
    files(dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "pack"))
        .collect()
}

fn u32_at(bytes: &[u8], at: usize) -> usize {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize
}

/// Where the entries of the pack `bytes` are (start, length), in the
/// order of its index, as docs/engines.md describes the format: a header
/// of 32 bytes (the entry count at 12, the entries' length at 16), 24 bytes
/// of index per entry (id, offset, length), then the entries. Checks that
/// the pack is whole.
fn pack_entries(bytes: &[u8]) -> Vec<(usize, usize)> {
    assert_eq!(&bytes[..8], b"IRXEMUJP", "a pack");
    let n = u32_at(bytes, 12);
    let data_at = 32 + 24 * n;
    let data = u64::from_le_bytes(bytes[16..24].try_into().unwrap()) as usize;
    assert_eq!(bytes.len(), data_at + data, "a whole pack");
    (0..n)
        .map(|i| {
            let at = 32 + 24 * i;
            (data_at + u32_at(bytes, at + 16), u32_at(bytes, at + 20))
        })
        .collect()
}

/// The one pack in `dir`, and its entries.
fn the_pack(dir: &Path) -> (std::path::PathBuf, Vec<(usize, usize)>) {
    let p = packs(dir);
    assert_eq!(p.len(), 1, "{p:?}");
    let entries = pack_entries(&std::fs::read(&p[0]).unwrap());
    (p[0].clone(), entries)
}

#[test]
fn a_warm_cache_runs_hot_code_compiled_from_its_first_run_with_the_same_counts() {
    let s = Scratch::new("jit-cache");
    let dir = s.path().join("cache");
    let cold = run(&dir);
    assert_eq!(exact(&cold), reference());
    let (hits, misses) = hits_misses(&cold);
    assert!(hits == 0 && misses > 0, "{}", cold.stderr);
    assert_eq!(
        std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777,
        0o700
    );
    // One pack for the run, of every block it compiled (and the heat of
    // those it did not).
    assert_eq!(the_pack(&dir).1.len() as u64, misses);
    let pack_or_heat = |f: &std::path::PathBuf| packs(&dir).contains(f) || f.ends_with("heat");
    assert!(files(&dir).iter().all(pack_or_heat), "{:?}", files(&dir));
    let warm = run(&dir);
    assert_eq!(exact(&warm), exact(&cold));
    assert_eq!(hits_misses(&warm), (misses, 0), "{}", warm.stderr);
    assert!(warnings(&warm).is_empty());
    // A warm run writes a pack only of what heat compiled.
    assert_eq!(packs(&dir).len(), 1 + usize::from(from_heat(&warm) > 0));
}

/// Two rounds of the workload run some blocks between 500 and 999 times:
/// never compiled in one run, compiled in the next once their runs add up
/// (`heat`), with the same counts.
#[test]
fn a_block_no_single_run_compiles_is_compiled_once_its_runs_add_up() {
    let s = Scratch::new("jit-cache-heat");
    let dir = s.path().join("cache");
    let run = |dir: &Path| run_emu(args_rounds(dir.to_str().expect("UTF-8"), 2), repo());
    let cold = run(&dir);
    assert_eq!(from_heat(&cold), 0);
    assert!(dir.join("heat").is_file(), "{:?}", files(&dir));
    let second = run(&dir);
    assert!(from_heat(&second) > 0, "{}", second.stderr);
    assert_eq!(exact(&second), exact(&cold));
    let third = run(&dir);
    let (hits, _) = hits_misses(&third);
    let (cold_misses, second_misses) = (cache_line(&cold).1, cache_line(&second).1);
    assert!(hits >= cold_misses + second_misses, "{}", third.stderr);
    assert_eq!(exact(&third), exact(&cold));
}

#[test]
fn corrupt_and_foreign_entries_are_ignored_with_one_warning_and_replaced() {
    let s = Scratch::new("jit-cache-bad");
    let dir = s.path().join("cache");
    let cold = run(&dir);
    let (pack, entries) = the_pack(&dir);
    assert!(entries.len() >= 4, "{entries:?}");
    // In four entries: a flipped byte in the code, a length that does not
    // add up, another format version, and garbage.
    let mut bytes = std::fs::read(&pack).unwrap();
    let (a, alen) = entries[0];
    bytes[a + alen - 20] ^= 0x55;
    let (b, _) = entries[1];
    bytes[b + 16] = bytes[b + 16].wrapping_add(1);
    let (c, _) = entries[2];
    bytes[c + 8] = bytes[c + 8].wrapping_add(1);
    let (d, dlen) = entries[3];
    bytes[d..d + dlen].fill(b'x');
    std::fs::write(&pack, &bytes).unwrap();
    let r = run(&dir);
    assert_eq!(exact(&r), exact(&cold));
    assert_eq!(warnings(&r).len(), 1, "{}", r.stderr);
    let (hits, misses) = hits_misses(&r);
    // No damaged entry runs: each one the run looks up is a miss, compiled
    // again. (Not every damaged entry need be looked up: a block compiled
    // again in place of one may claim another's block as a member, see
    // `region`, and which entries the four are follows the build.)
    let damaged = 4;
    assert!((1..=damaged).contains(&misses), "{}", r.stderr);
    assert!(hits + damaged <= entries.len() as u64, "{}", r.stderr);
    // Replaced: the damaged pack is rewritten whole, and the next run finds
    // every block it looks up, with no warning.
    the_pack(&dir);
    let again = run(&dir);
    assert_eq!(hits_misses(&again).1, 0, "{}", again.stderr);
    assert!(warnings(&again).is_empty(), "{}", again.stderr);
}

#[test]
fn a_truncated_pack_is_ignored_with_one_warning_and_replaced() {
    let s = Scratch::new("jit-cache-bad-pack");
    let dir = s.path().join("cache");
    let cold = run(&dir);
    let (pack, _) = the_pack(&dir);
    let bytes = std::fs::read(&pack).unwrap();
    std::fs::write(&pack, &bytes[..bytes.len() - 100]).unwrap();
    let r = run(&dir);
    assert_eq!(exact(&r), exact(&cold));
    assert_eq!(warnings(&r).len(), 1, "{}", r.stderr);
    let compiled = compiled_again(&r);
    assert!(!pack.exists(), "the bad pack is deleted");
    let again = run(&dir);
    assert_eq!(hits_misses(&again), (compiled, 0));
    assert!(warnings(&again).is_empty(), "{}", again.stderr);
}

#[test]
fn a_pack_of_another_format_is_left_to_its_version_without_a_warning() {
    let s = Scratch::new("jit-cache-foreign-pack");
    let dir = s.path().join("cache");
    let cold = run(&dir);
    let (pack, _) = the_pack(&dir);
    let mut foreign = std::fs::read(&pack).unwrap();
    foreign[8] = foreign[8].wrapping_add(1);
    std::fs::write(&pack, &foreign).unwrap();
    let r = run(&dir);
    assert_eq!(exact(&r), exact(&cold));
    assert!(warnings(&r).is_empty(), "{}", r.stderr);
    let compiled = compiled_again(&r);
    assert_eq!(std::fs::read(&pack).unwrap(), foreign, "left as it was");
    assert_eq!(packs(&dir).len(), 2);
    let again = run(&dir);
    assert_eq!(hits_misses(&again), (compiled, 0));
    assert!(warnings(&again).is_empty(), "{}", again.stderr);
}

#[test]
fn a_cache_path_that_is_a_file_a_symlink_or_open_to_others_is_refused_with_one_warning() {
    let expected = reference();
    let s = Scratch::new("jit-cache-refused");
    let file = s.write("file", b"x");
    let real = s.mkdir("real");
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o700)).unwrap();
    let link = s.path().join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let open = s.mkdir("open");
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
    for (path, why) in [
        (&file, "not a directory"),
        (&link, "symbolic link"),
        (&open, "others may write"),
    ] {
        let r = run(path);
        assert_eq!(exact(&r), expected, "{why}");
        let w = warnings(&r);
        assert_eq!(w.len(), 1, "{why}: {}", r.stderr);
        assert!(w[0].contains(why) && w[0].contains("not used"), "{}", w[0]);
        assert!(!r.stderr.contains("jit cache"), "{}", r.stderr);
    }
    // Nothing was written through the link or into the open directory.
    assert!(std::fs::read_dir(&real).unwrap().next().is_none());
    assert!(std::fs::read_dir(&open).unwrap().next().is_none());
}

#[test]
fn a_read_only_cache_is_still_read_and_the_run_goes_on() {
    let s = Scratch::new("jit-cache-ro");
    let dir = s.path().join("cache");
    let cold = run(&dir);
    let (_, misses) = hits_misses(&cold);
    let empty = s.mkdir("empty");
    for d in [&dir, &empty] {
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o500)).unwrap();
    }
    let full = run(&dir);
    let none = run(&empty);
    for d in [&dir, &empty] {
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    // Read, with nothing to write: no warning.
    assert_eq!(exact(&full), exact(&cold));
    assert_eq!(hits_misses(&full), (misses, 0));
    assert!(warnings(&full).is_empty(), "{}", full.stderr);
    // Nothing to read, and the pack cannot be written: one warning, unless
    // the tests run as root, whom the mode does not stop. (It compiles what
    // the cold run compiled, but for a block or so: with blocks compiled
    // on the second core, when a member's function arrives decides
    // whether a block it returns at compiles, see `jit::region`.)
    assert_eq!(exact(&none), exact(&cold));
    let (hits, compiled) = hits_misses(&none);
    assert_eq!(hits, 0);
    assert!(
        compiled.abs_diff(misses) <= 2,
        "{compiled} compiled, {misses} cold"
    );
    assert_eq!(
        warnings(&none).len(),
        usize::from(!is_root()),
        "{}",
        none.stderr
    );
}

/// Whether the tests run as the superuser.
fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

#[test]
fn processes_racing_on_one_cache_all_run_exactly() {
    let s = Scratch::new("jit-cache-race");
    let dir = s.path().join("cache");
    let cache = dir.to_str().unwrap().to_string();
    let children: Vec<_> = (0..3)
        .map(|_| {
            let cache = cache.clone();
            std::thread::spawn(move || run_emu(args(&cache), repo()))
        })
        .collect();
    let runs: Vec<Run> = children.into_iter().map(|c| c.join().unwrap()).collect();
    let expected = reference();
    for r in &runs {
        assert_eq!(exact(r), expected);
        assert!(warnings(r).is_empty(), "{}", r.stderr);
    }
    // Only whole packs, at most one a process (one that opens the cache
    // after another has written it hits and writes less, or nothing), and
    // no temporary file.
    let all = files(&dir);
    let packs = packs(&dir);
    assert!(
        all.iter().all(|f| packs.contains(f) || f.ends_with("heat")),
        "{all:?}"
    );
    assert!((1..=3).contains(&packs.len()), "{all:?}");
    for p in &packs {
        pack_entries(&std::fs::read(p).unwrap());
    }
    let warm = run(&dir);
    assert_eq!(exact(&warm), expected);
    let (hits, misses) = hits_misses(&warm);
    assert!(hits > 0 && misses == 0, "{}", warm.stderr);
}

#[test]
fn the_default_cache_is_under_xdg_cache_home_and_off_writes_nothing() {
    let s = Scratch::new("jit-cache-default");
    let program = guest("workload");
    let base = ["run", "--engine", "jit", program.as_str(), "1"];
    let mut cmd = common::emu_command(base, repo());
    cmd.env("XDG_CACHE_HOME", s.path());
    let off = {
        let mut c = common::emu_command(
            [
                "run",
                "--engine",
                "jit",
                "--jit-cache",
                "off",
                &program,
                "1",
            ],
            repo(),
        );
        c.env("XDG_CACHE_HOME", s.path());
        common::run_command(c)
    };
    assert!(!s.path().join("irix-emu").exists());
    let r = common::run_command(cmd);
    assert_eq!(r.stdout, off.stdout);
    assert_eq!(packs(&s.path().join("irix-emu")).len(), 1);
    // Other engines never touch a cache.
    let block = Scratch::new("jit-cache-block");
    let mut c = common::emu_command(["run", "--engine", "block", &program, "1"], repo());
    c.env("XDG_CACHE_HOME", block.path());
    common::run_command(c);
    assert!(!block.path().join("irix-emu").exists());
}

/// SGI's `cc -c -O2` (five processes) from an IRIX 5.3 root, with the
/// translation cache `cache`, in `dir`: (the run, the object file).
fn ido_cc(root: &Path, cache: &Path, dir: &Path) -> (Run, Vec<u8>) {
    let _ = std::fs::remove_file(dir.join("t.o"));
    let mut args: Vec<std::ffi::OsString> =
        ["run", "--stats", "--jit-cache"].map(Into::into).to_vec();
    args.push(cache.into());
    args.extend(["--root".into(), root.into(), "--bind".into(), dir.into()]);
    args.push(root.join("usr/bin/cc").into());
    args.extend(["-c", "-O2", "t.c", "-o", "t.o"].map(Into::into));
    let r = run_emu(args, dir);
    let object = std::fs::read(dir.join("t.o")).unwrap_or_default();
    (r, object)
}

#[test]
#[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
fn sgi_cc_with_a_warm_cache_writes_the_same_object_with_the_same_counts() {
    let root = test_support::roots::irix_root_53(&["usr/bin/cc"]);
    let s = Scratch::new("jit-cache-ido");
    let mut source = String::from("int printf(const char *, ...);\n");
    for f in 0..20 {
        source.push_str(&format!(
            "int f{f}(int n) {{ int i, x = {f}; for (i = 0; i < n; i++) x = x * 3 + i; return x; }}\n"
        ));
    }
    source.push_str("int main(void) { printf(\"%d\\n\", f19(10)); return 0; }\n");
    s.write("t.c", source.as_bytes());
    let dir = s.path().to_path_buf();
    let (off, off_object) = ido_cc(&root, Path::new("off"), &dir);
    assert_eq!(off.status, common::exited(0), "{}", off.stderr);
    let cache = dir.join("cache");
    let (cold, cold_object) = ido_cc(&root, &cache, &dir);
    let (warm, warm_object) = ido_cc(&root, &cache, &dir);
    assert!(!off_object.is_empty());
    assert_eq!(cold_object, off_object);
    assert_eq!(warm_object, off_object);
    assert_eq!(exact(&cold), exact(&off));
    assert_eq!(exact(&warm), exact(&off));
    let (hits, misses) = hits_misses(&warm);
    assert!(hits > 0 && misses == 0, "{}", warm.stderr);
}
