//! The store's own tests: a directory of packs, as several runs (stores)
//! and several processes at once use it.

use super::*;
use std::sync::atomic::AtomicUsize;

/// A scratch directory, removed when dropped.
struct Scratch(PathBuf);
impl Scratch {
    fn new(name: &str) -> Scratch {
        let p = std::env::temp_dir().join(format!(
            "irix-emu-store-{name}-{}-{:?}",
            std::process::id(),
            std::time::SystemTime::now()
        ));
        fs::create_dir_all(&p).expect("scratch directory");
        Scratch(p)
    }
}
impl Drop for Scratch {
    fn drop(&mut self) {
        use std::os::unix::fs::PermissionsExt;
        let _ = fs::set_permissions(&self.0, fs::Permissions::from_mode(0o700));
        let _ = fs::set_permissions(self.0.join("c"), fs::Permissions::from_mode(0o700));
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// A store at `dir` counting its warnings in `warnings`.
fn open(
    dir: &Path,
    limit: u64,
    warnings: &Arc<AtomicUsize>,
) -> Result<Arc<TranslationStore>, StoreError> {
    let w = warnings.clone();
    TranslationStore::open(
        dir,
        limit,
        Box::new(move |_| {
            w.fetch_add(1, Ordering::Relaxed);
        }),
    )
}

fn key(pc: u32) -> Key {
    Key::new(1, pc, &[0x2484_0001, 0x03e0_0008, 0], false, 0, true)
}

/// The names of the files in `dir`.
fn files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// The packs in `dir`.
fn packs(dir: &Path) -> Vec<PathBuf> {
    files(dir)
        .into_iter()
        .filter(|n| n.ends_with(".pack"))
        .map(|n| dir.join(n))
        .collect()
}

/// The ids of every entry of every good pack in `dir`.
fn ids(dir: &Path) -> HashSet<u128> {
    let mut out = HashSet::new();
    for p in packs(dir) {
        let bytes = fs::read(&p).unwrap();
        let Ok(pack) = pack::parse(&bytes) else {
            continue;
        };
        out.extend(pack.in_file_order(&bytes).into_iter().map(|e| e.0));
    }
    out
}

/// Where entry `n` (in file order) of the pack at `path` starts, and its
/// length.
fn entry_at(path: &Path, n: usize) -> (usize, usize) {
    let bytes = fs::read(path).unwrap();
    let pack = pack::parse(&bytes).unwrap();
    let (_, i) = pack.in_file_order(&bytes)[n];
    let entry = pack.entry(&bytes, i).unwrap();
    (
        entry.as_ptr() as usize - bytes.as_ptr() as usize,
        entry.len(),
    )
}

/// A store that saves `keys` (code `[0xc3; 10]`) and is flushed.
fn fill(dir: &Path, keys: &[Key], warnings: &Arc<AtomicUsize>) {
    let store = open(dir, 1 << 20, warnings).unwrap();
    for k in keys {
        store.save(k, &[0xc3; 10]);
    }
    store.flush();
}

#[test]
fn a_new_directory_is_made_0700_and_entries_come_back() {
    use std::os::unix::fs::MetadataExt;
    let s = Scratch::new("new");
    let dir = s.0.join("c");
    let warnings = Arc::new(AtomicUsize::new(0));
    let store = open(&dir, 1 << 20, &warnings).expect("opens");
    assert_eq!(fs::metadata(&dir).unwrap().mode() & 0o777, 0o700);
    assert_eq!(store.load(&key(0x400000)), None);
    store.save(&key(0x400000), &[0xc3; 10]);
    // The run itself finds what it saved before it is written.
    assert_eq!(store.load(&key(0x400000)), Some(vec![0xc3; 10]));
    store.flush();
    // Another process (a second store) sees it.
    let again = open(&dir, 1 << 20, &warnings).expect("opens again");
    assert_eq!(again.load(&key(0x400000)), Some(vec![0xc3; 10]));
    assert_eq!(again.stats().hits, 1);
    assert_eq!(warnings.load(Ordering::Relaxed), 0);
    // One pack, mode 0600, and no temporary file left behind.
    let names = files(&dir);
    assert_eq!(names.len(), 1, "{names:?}");
    assert!(names[0].ends_with(".pack"), "{names:?}");
    assert_eq!(
        fs::metadata(dir.join(&names[0])).unwrap().mode() & 0o777,
        0o600
    );
}

#[test]
fn a_run_writes_one_pack_for_all_its_blocks_when_it_ends() {
    let s = Scratch::new("one-pack");
    let warnings = Arc::new(AtomicUsize::new(0));
    let keys: Vec<Key> = (0..200u32).map(|i| key(0x400000 + 4 * i)).collect();
    let store = open(&s.0, 1 << 20, &warnings).unwrap();
    for k in &keys {
        store.save(k, &[0xc3; 10]);
    }
    assert!(
        files(&s.0).is_empty(),
        "nothing written before the run ends"
    );
    drop(store);
    assert_eq!(packs(&s.0).len(), 1);
    let warm = open(&s.0, 1 << 20, &warnings).unwrap();
    for k in &keys {
        assert_eq!(warm.load(k), Some(vec![0xc3; 10]));
    }
    warm.flush();
    assert_eq!(packs(&s.0).len(), 1, "a warm run writes nothing");
    assert_eq!(warm.stats().bytes_written, 0);
}

#[test]
fn a_long_run_writes_a_pack_each_time_its_new_entries_pass_the_threshold() {
    let s = Scratch::new("threshold");
    let warnings = Arc::new(AtomicUsize::new(0));
    let store = open(&s.0, 64 << 20, &warnings).unwrap();
    // The largest code a block may have: 4 MiB are about 64 entries.
    let code = vec![0x90u8; cache::MAX_CODE];
    let keys: Vec<Key> = (0..100u32).map(|i| key(0x400000 + 4 * i)).collect();
    for k in &keys {
        store.save(k, &code);
    }
    assert_eq!(packs(&s.0).len(), 1, "4 MiB written during the run");
    store.flush();
    assert_eq!(packs(&s.0).len(), 2);
    assert_eq!(ids(&s.0).len(), 100);
    let warm = open(&s.0, 64 << 20, &warnings).unwrap();
    for k in &keys {
        assert_eq!(warm.load(k).as_deref(), Some(&code[..]));
    }
    assert_eq!(warnings.load(Ordering::Relaxed), 0);
}

#[test]
fn a_long_run_keeps_the_packs_under_their_number_as_its_end_would() {
    let s = Scratch::new("threshold-merge");
    let warnings = Arc::new(AtomicUsize::new(0));
    for i in 0..merge::MAX_PACKS as u32 {
        fill(&s.0, &[key(0x300000 + 4 * i)], &warnings);
    }
    let store = open(&s.0, 64 << 20, &warnings).unwrap();
    let code = vec![0x90u8; cache::MAX_CODE];
    for i in 0..200u32 {
        store.save(&key(0x400000 + 4 * i), &code);
        let n = packs(&s.0).len();
        assert!(n <= merge::MAX_PACKS, "{n} packs during the run");
    }
    store.flush();
    assert!(packs(&s.0).len() <= merge::MAX_PACKS);
    assert_eq!(ids(&s.0).len(), 200 + merge::MAX_PACKS);
}

#[test]
fn a_corrupt_entry_is_ignored_once_and_its_pack_rewritten_without_it() {
    let s = Scratch::new("corrupt");
    let warnings = Arc::new(AtomicUsize::new(0));
    let keys: Vec<Key> = (0..4u32).map(|i| key(0x400000 + 0x100 * i)).collect();
    fill(&s.0, &keys, &warnings);
    let path = packs(&s.0)[0].clone();
    // A flipped bit in the first entry's code, another format in the second.
    let mut bytes = fs::read(&path).unwrap();
    let (a, alen) = entry_at(&path, 0);
    bytes[a + alen - 10] ^= 0x40;
    let (b, _) = entry_at(&path, 1);
    bytes[b + 8] ^= 1;
    fs::write(&path, &bytes).unwrap();
    let store = open(&s.0, 1 << 20, &warnings).unwrap();
    assert_eq!(store.load(&keys[0]), None);
    assert_eq!(store.load(&keys[1]), None);
    assert_eq!(store.load(&keys[2]), Some(vec![0xc3; 10]));
    assert_eq!(warnings.load(Ordering::Relaxed), 1, "one warning");
    // Compiled again and saved; the run's end replaces the pack.
    store.save(&keys[0], &[0x90; 4]);
    store.save(&keys[1], &[0x90; 4]);
    store.flush();
    assert_eq!(packs(&s.0).len(), 1);
    assert!(!path.exists(), "the damaged pack is gone");
    let again = open(&s.0, 1 << 20, &warnings).unwrap();
    assert_eq!(again.load(&keys[0]), Some(vec![0x90; 4]));
    assert_eq!(again.load(&keys[1]), Some(vec![0x90; 4]));
    assert_eq!(again.load(&keys[3]), Some(vec![0xc3; 10]));
    assert_eq!(warnings.load(Ordering::Relaxed), 1, "no more warnings");
}

#[test]
fn a_truncated_or_corrupt_pack_is_ignored_once_deleted_and_replaced() {
    let s = Scratch::new("bad-pack");
    let warnings = Arc::new(AtomicUsize::new(0));
    fill(&s.0, &[key(0x400000)], &warnings);
    fill(&s.0, &[key(0x400100)], &warnings);
    fill(&s.0, &[key(0x400200)], &warnings);
    let all = packs(&s.0);
    let full = fs::read(&all[0]).unwrap();
    fs::write(&all[0], &full[..full.len() - 3]).unwrap();
    let mut index = fs::read(&all[1]).unwrap();
    index[pack::HEADER + 3] ^= 0x10;
    fs::write(&all[1], &index).unwrap();
    fs::write(&all[2], b"not a pack").unwrap();
    fs::write(s.0.join("empty.pack"), b"").unwrap();
    let store = open(&s.0, 1 << 20, &warnings).unwrap();
    assert_eq!(warnings.load(Ordering::Relaxed), 1, "one warning");
    assert!(packs(&s.0).is_empty(), "bad packs deleted");
    for pc in [0x400000, 0x400100, 0x400200] {
        assert_eq!(store.load(&key(pc)), None);
        store.save(&key(pc), &[0x90; 4]);
    }
    drop(store);
    let again = open(&s.0, 1 << 20, &warnings).unwrap();
    for pc in [0x400000, 0x400100, 0x400200] {
        assert_eq!(again.load(&key(pc)), Some(vec![0x90; 4]));
    }
    assert_eq!(warnings.load(Ordering::Relaxed), 1);
}

#[test]
fn old_one_file_entries_are_deleted_and_links_and_fifos_are_not_followed() {
    let s = Scratch::new("old");
    let warnings = Arc::new(AtomicUsize::new(0));
    fs::write(s.0.join("0123456789abcdef0123456789abcdef.jit"), b"old").unwrap();
    let elsewhere = Scratch::new("elsewhere");
    fill(&elsewhere.0, &[key(0x400000)], &warnings);
    std::os::unix::fs::symlink(&packs(&elsewhere.0)[0], s.0.join("link.pack")).unwrap();
    let fifo = std::ffi::CString::new(s.0.join("fifo.pack").into_os_string().into_encoded_bytes())
        .unwrap();
    // SAFETY: a valid path string.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let store = open(&s.0, 1 << 20, &warnings).unwrap();
    assert_eq!(store.load(&key(0x400000)), None, "not through the link");
    assert_eq!(files(&s.0), ["fifo.pack", "link.pack"]);
    assert_eq!(warnings.load(Ordering::Relaxed), 0);
}

#[test]
fn a_file_a_symlink_and_a_world_writable_directory_are_refused() {
    use std::os::unix::fs::PermissionsExt;
    let s = Scratch::new("refused");
    let warnings = Arc::new(AtomicUsize::new(0));
    let file = s.0.join("file");
    fs::write(&file, b"x").unwrap();
    assert!(matches!(
        open(&file, 1 << 20, &warnings),
        Err(StoreError::NotADirectory)
    ));
    let real = s.0.join("real");
    fs::create_dir(&real).unwrap();
    fs::set_permissions(&real, fs::Permissions::from_mode(0o700)).unwrap();
    let link = s.0.join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    assert!(matches!(
        open(&link, 1 << 20, &warnings),
        Err(StoreError::Symlink)
    ));
    let open_dir = s.0.join("open");
    fs::create_dir(&open_dir).unwrap();
    fs::set_permissions(&open_dir, fs::Permissions::from_mode(0o777)).unwrap();
    assert!(matches!(
        open(&open_dir, 1 << 20, &warnings),
        Err(StoreError::OpenToOthers(0o777))
    ));
}

#[test]
fn a_read_only_directory_is_read_and_one_warning_says_saves_stopped() {
    use std::os::unix::fs::PermissionsExt;
    let s = Scratch::new("readonly");
    let dir = s.0.join("c");
    let warnings = Arc::new(AtomicUsize::new(0));
    fill(&dir, &[key(0x400000)], &warnings);
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o500)).unwrap();
    let store = open(&dir, 1 << 20, &warnings).unwrap();
    assert_eq!(store.load(&key(0x400000)), Some(vec![0xc3; 10]));
    // Root may write anyway; the warning is then not due.
    let probe = fs::write(dir.join(".probe"), b"");
    let _ = fs::remove_file(dir.join(".probe"));
    store.save(&key(0x400100), &[0xc3; 8]);
    store.flush();
    store.save(&key(0x400200), &[0xc3; 8]);
    store.flush();
    drop(store);
    let expected = usize::from(probe.is_err());
    assert_eq!(warnings.load(Ordering::Relaxed), expected);
}

#[test]
fn flushes_past_the_bound_keep_the_newest_entries_under_three_quarters_of_it() {
    let s = Scratch::new("evict");
    let warnings = Arc::new(AtomicUsize::new(0));
    let entry = cache::encode(&key(0), &[0u8; 1000]).len() as u64;
    let limit = 10 * entry;
    let store = open(&s.0, limit, &warnings).unwrap();
    for i in 0..30u32 {
        store.save(&key(0x400000 + 4 * i), &[0u8; 1000]);
    }
    store.flush();
    let total: u64 = packs(&s.0)
        .iter()
        .map(|p| fs::metadata(p).unwrap().len())
        .sum();
    assert!(total <= limit / 4 * 3, "{total} bytes kept");
    // The newest survives.
    let again = open(&s.0, limit, &warnings).unwrap();
    assert!(again.load(&key(0x400000 + 4 * 29)).is_some());
    assert!(again.load(&key(0x400000)).is_none());
    assert_eq!(warnings.load(Ordering::Relaxed), 0);
}

/// Sets the modification time of the pack at `path` to `ago` before now.
fn age(path: &Path, ago: Duration) {
    let f = fs::File::options().write(true).open(path).unwrap();
    f.set_modified(SystemTime::now() - ago).unwrap();
}

fn modified(path: &Path) -> SystemTime {
    fs::metadata(path).unwrap().modified().unwrap()
}

/// The pack in `dir` holding `key`.
fn pack_of(dir: &Path, key: &Key) -> PathBuf {
    packs(dir)
        .into_iter()
        .find(|p| {
            let bytes = fs::read(p).unwrap();
            pack::parse(&bytes)
                .unwrap()
                .find(&bytes, key.id())
                .is_some()
        })
        .expect("a pack holds it")
}

#[test]
fn a_load_marks_a_pack_used_once_it_is_an_hour_old_and_not_before() {
    let s = Scratch::new("touch");
    let warnings = Arc::new(AtomicUsize::new(0));
    let (fresh, old) = (key(0x400000), key(0x400100));
    fill(&s.0, std::slice::from_ref(&fresh), &warnings);
    fill(&s.0, std::slice::from_ref(&old), &warnings);
    let (fresh_pack, old_pack) = (pack_of(&s.0, &fresh), pack_of(&s.0, &old));
    age(&fresh_pack, TOUCH_AFTER / 2);
    age(&old_pack, TOUCH_AFTER * 2);
    let before = modified(&fresh_pack);
    let store = open(&s.0, 1 << 20, &warnings).unwrap();
    assert!(store.load(&fresh).is_some() && store.load(&old).is_some());
    assert_eq!(
        modified(&fresh_pack),
        before,
        "used within the hour: not written"
    );
    let age_now = SystemTime::now()
        .duration_since(modified(&old_pack))
        .unwrap_or_default();
    assert!(age_now < TOUCH_AFTER / 2, "{age_now:?}");
}

#[test]
fn eviction_removes_the_least_recently_used_entries_not_the_first_written() {
    let s = Scratch::new("lru");
    let warnings = Arc::new(AtomicUsize::new(0));
    let entry = cache::encode(&key(0), &[0u8; 1000]).len() as u64;
    let limit = 11 * entry;
    // Ten entries written days ago, a pack each, the first the oldest; the
    // first three are used again (loaded) by a later run.
    let keys: Vec<Key> = (0..10u32).map(|i| key(0x400000 + 4 * i)).collect();
    for (i, k) in keys.iter().enumerate() {
        let store = open(&s.0, limit, &warnings).unwrap();
        store.save(k, &[0u8; 1000]);
        store.flush();
        age(
            &pack_of(&s.0, k),
            Duration::from_secs(86_400 * (20 - i as u64)),
        );
    }
    let later = open(&s.0, limit, &warnings).unwrap();
    for k in &keys[..3] {
        assert!(later.load(k).is_some());
    }
    // Passing the bound evicts down to three quarters: the used ones stay,
    // the entries nobody used since they were written go first.
    later.save(&key(0x500000), &[0u8; 1000]);
    later.flush();
    let kept = ids(&s.0);
    for k in &keys[..3] {
        assert!(kept.contains(&k.id()), "a used entry was evicted");
    }
    assert!(kept.contains(&key(0x500000).id()));
    let unused = keys[3..].iter().filter(|k| kept.contains(&k.id())).count();
    assert!(unused < 7, "nothing unused was evicted");
    // The unused entries kept are the most recently written ones.
    assert!(!kept.contains(&keys[3].id()));
    assert!(kept.contains(&keys[9].id()));
    assert_eq!(packs(&s.0).len(), 1, "merged into one");
    assert_eq!(warnings.load(Ordering::Relaxed), 0);
}

#[test]
fn many_packs_are_merged_into_few_and_every_entry_still_hits() {
    let s = Scratch::new("merge");
    let warnings = Arc::new(AtomicUsize::new(0));
    let keys: Vec<Key> = (0..20u32).map(|i| key(0x400000 + 4 * i)).collect();
    for k in &keys[..merge::MAX_PACKS] {
        fill(&s.0, std::slice::from_ref(k), &warnings);
    }
    assert_eq!(packs(&s.0).len(), merge::MAX_PACKS);
    // The next run's new entries would make one pack too many.
    fill(&s.0, &keys[merge::MAX_PACKS..], &warnings);
    let n = packs(&s.0).len();
    assert!(n <= merge::MAX_PACKS / 2, "{n} packs");
    let warm = open(&s.0, 1 << 20, &warnings).unwrap();
    for k in &keys {
        assert_eq!(warm.load(k), Some(vec![0xc3; 10]));
    }
    assert_eq!(warnings.load(Ordering::Relaxed), 0);
}

#[test]
fn a_merge_drops_duplicates_and_old_temporary_files() {
    let s = Scratch::new("dups");
    let warnings = Arc::new(AtomicUsize::new(0));
    // Processes racing: every one writes the same entries in a pack of its own.
    for _ in 0..merge::MAX_PACKS {
        fill(&s.0, &[key(0x400000), key(0x400004)], &warnings);
    }
    let temp = s.0.join(".tmp-killed.pack");
    fs::write(&temp, b"half a pack").unwrap();
    age(&temp, TOUCH_AFTER * 2);
    fill(&s.0, &[key(0x400008)], &warnings);
    assert_eq!(packs(&s.0).len(), 1);
    assert!(!temp.exists());
    let bytes = fs::read(&packs(&s.0)[0]).unwrap();
    assert_eq!(pack::parse(&bytes).unwrap().entries, 3);
}

#[test]
fn processes_racing_to_write_the_same_entries_leave_whole_packs() {
    let s = Scratch::new("race");
    let warnings = Arc::new(AtomicUsize::new(0));
    // Every store opens the empty directory before any writes: a store
    // opened after another's packs are written would count them, and merge.
    let stores: Vec<_> = (0..4)
        .map(|_| open(&s.0, 1 << 20, &warnings).unwrap())
        .collect();
    let start = Arc::new(std::sync::Barrier::new(stores.len()));
    let threads: Vec<_> = stores
        .into_iter()
        .map(|store| {
            let start = start.clone();
            std::thread::spawn(move || {
                start.wait();
                for round in 0..5u32 {
                    for i in 0..50u32 {
                        store.save(&key(0x400000 + 4 * (50 * round + i)), &[i as u8; 100]);
                    }
                    store.flush();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(packs(&s.0).len(), 20, "a pack per flush");
    assert!(files(&s.0).iter().all(|n| n.ends_with(".pack")));
    let store = open(&s.0, 1 << 20, &warnings).unwrap();
    for round in 0..5u32 {
        for i in 0..50u32 {
            let k = key(0x400000 + 4 * (50 * round + i));
            assert_eq!(store.load(&k), Some(vec![i as u8; 100]));
        }
    }
    // The next run to end merges them.
    store.flush();
    assert!(packs(&s.0).len() <= merge::MAX_PACKS / 2);
    assert_eq!(warnings.load(Ordering::Relaxed), 0);
}

#[test]
fn a_process_loads_everything_from_packs_another_process_merged_and_deleted() {
    let s = Scratch::new("merged-away");
    let warnings = Arc::new(AtomicUsize::new(0));
    let keys: Vec<Key> = (0..merge::MAX_PACKS as u32)
        .map(|i| key(0x400000 + 4 * i))
        .collect();
    for k in &keys {
        fill(&s.0, std::slice::from_ref(k), &warnings);
    }
    let first = packs(&s.0);
    let a = open(&s.0, 1 << 20, &warnings).unwrap();
    // B's new entries make one pack too many: it merges and deletes them.
    fill(&s.0, &[key(0x500000)], &warnings);
    assert!(first.iter().any(|p| !p.exists()), "B merged nothing");
    for k in &keys {
        assert_eq!(a.load(k), Some(vec![0xc3; 10]));
    }
    assert_eq!(warnings.load(Ordering::Relaxed), 0);
}

#[test]
fn a_pack_of_another_pack_format_is_left_alone_without_a_warning() {
    let s = Scratch::new("foreign");
    let warnings = Arc::new(AtomicUsize::new(0));
    fill(&s.0, &[key(0x400000)], &warnings);
    let path = packs(&s.0)[0].clone();
    let mut bytes = fs::read(&path).unwrap();
    bytes[8..12].copy_from_slice(&(pack::FORMAT + 1).to_le_bytes());
    fs::write(&path, &bytes).unwrap();
    let store = open(&s.0, 1 << 20, &warnings).unwrap();
    assert_eq!(store.load(&key(0x400000)), None);
    store.save(&key(0x400000), &[0x90; 4]);
    drop(store);
    assert_eq!(fs::read(&path).unwrap(), bytes, "kept as it was");
    assert_eq!(packs(&s.0).len(), 2);
    assert_eq!(warnings.load(Ordering::Relaxed), 0);
}

/// The paths of the files this process has open.
fn open_files() -> Vec<PathBuf> {
    fs::read_dir("/proc/self/fd")
        .map(|d| {
            d.flatten()
                .filter_map(|e| fs::read_link(e.path()).ok())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_store_keeps_no_pack_file_open_and_opens_at_most_sixty_four_packs() {
    let s = Scratch::new("fds");
    let warnings = Arc::new(AtomicUsize::new(0));
    let keys: Vec<Key> = (0..MAX_OPEN as u32 + 6)
        .map(|i| key(0x400000 + 4 * i))
        .collect();
    // Written directly, each a pack of its own (a store would merge them).
    for (i, k) in keys.iter().enumerate() {
        let entry = cache::encode(k, &[0xc3; 10]);
        write_new(&s.0.join(format!("{i}.pack")), &[(k.id(), &entry)]).unwrap();
    }
    assert_eq!(packs(&s.0).len(), keys.len());
    let store = open(&s.0, 1 << 30, &warnings).unwrap();
    assert_eq!(store.state().packs.len(), MAX_OPEN);
    let dir = fs::canonicalize(&s.0).unwrap();
    let held: Vec<PathBuf> = open_files()
        .into_iter()
        .filter(|p| p.starts_with(&dir))
        .collect();
    assert!(held.is_empty(), "{held:?}");
    let found = keys.iter().filter(|k| store.load(k).is_some()).count();
    assert_eq!(found, MAX_OPEN);
    // Its end merges them; the next run finds every entry.
    drop(store);
    let again = open(&s.0, 1 << 30, &warnings).unwrap();
    let found = keys.iter().filter(|k| again.load(k).is_some()).count();
    assert!(found > MAX_OPEN, "{found}");
    assert_eq!(warnings.load(Ordering::Relaxed), 0);
}

#[test]
fn a_merge_writes_the_new_entries_in_the_order_they_were_saved() {
    let s = Scratch::new("merge-order");
    let warnings = Arc::new(AtomicUsize::new(0));
    for i in 0..merge::MAX_PACKS as u32 {
        fill(&s.0, &[key(0x300000 + 4 * i)], &warnings);
    }
    let new: Vec<Key> = (0..20u32).map(|i| key(0x400000 + 4 * i)).collect();
    fill(&s.0, &new, &warnings);
    let all = packs(&s.0);
    assert_eq!(all.len(), 1, "merged into one");
    let bytes = fs::read(&all[0]).unwrap();
    let order: Vec<u128> = pack::parse(&bytes)
        .unwrap()
        .in_file_order(&bytes)
        .into_iter()
        .map(|e| e.0)
        .collect();
    let saved: Vec<u128> = new.iter().map(Key::id).collect();
    assert_eq!(order[..saved.len()], saved[..]);
}

#[test]
fn an_abandoned_store_writes_no_more_packs_deletes_none_and_leaves_no_temporary_file() {
    let s = Scratch::new("abandon");
    let warnings = Arc::new(AtomicUsize::new(0));
    let store = open(&s.0, 1 << 20, &warnings).unwrap();
    store.save(&key(0x400000), &[0xc3; 10]);
    store.abandon();
    store.flush();
    drop(store);
    assert!(files(&s.0).is_empty(), "{:?}", files(&s.0));
    // A merge it would have made deletes nothing either.
    for i in 0..merge::MAX_PACKS as u32 {
        fill(&s.0, &[key(0x300000 + 4 * i)], &warnings);
    }
    let before = files(&s.0);
    let store = open(&s.0, 1 << 20, &warnings).unwrap();
    store.save(&key(0x400000), &[0xc3; 10]);
    store.abandon();
    drop(store);
    assert_eq!(files(&s.0), before);
    assert_eq!(warnings.load(Ordering::Relaxed), 0);
}

#[test]
fn an_extreme_modification_time_is_neither_old_nor_a_panic() {
    let now = SystemTime::now();
    assert!(older_than(std::time::UNIX_EPOCH, TOUCH_AFTER, now));
    assert!(!older_than(now, TOUCH_AFTER, now));
    for far in [
        std::time::UNIX_EPOCH.checked_add(Duration::from_secs(i64::MAX as u64)),
        now.checked_add(Duration::from_secs(1 << 40)),
    ]
    .into_iter()
    .flatten()
    {
        assert!(!older_than(far, TOUCH_AFTER, now));
    }
}

#[test]
fn blocks_that_ran_uncompiled_are_counted_across_runs_until_compiled() {
    let s = Scratch::new("heat");
    let dir = s.0.join("c");
    let w = Arc::new(AtomicUsize::new(0));
    let (a, b) = (key(0x1000), key(0x2000));
    let store = open(&dir, 1 << 20, &w).unwrap();
    assert_eq!(store.heat(&a), 0);
    store.note_heat(&a, 64);
    store.note_heat(&a, 128);
    store.note_heat(&b, 64);
    // A later process of the same run goes on from there too.
    assert_eq!(store.heat(&a), 128);
    store.flush();
    drop(store);
    let store = open(&dir, 1 << 20, &w).unwrap();
    assert_eq!((store.heat(&a), store.heat(&b)), (128, 64));
    // This run compiles `a`; `b` goes on counting.
    store.note_heat(&b, 192);
    store.save(&a, &[0xc3; 10]);
    store.flush();
    drop(store);
    let store = open(&dir, 1 << 20, &w).unwrap();
    assert_eq!((store.heat(&a), store.heat(&b)), (0, 192));
    assert_eq!(w.load(Ordering::Relaxed), 0, "no warning");
}

#[test]
fn a_damaged_heat_file_is_ignored_with_one_warning_and_replaced() {
    let s = Scratch::new("heat-bad");
    let dir = s.0.join("c");
    let w = Arc::new(AtomicUsize::new(0));
    let k = key(0x1000);
    fill(&dir, &[], &w);
    fs::write(dir.join(heat::FILE), b"IRXHEAT1 but cut short").unwrap();
    let store = open(&dir, 1 << 20, &w).unwrap();
    assert_eq!(store.heat(&k), 0);
    assert_eq!(w.load(Ordering::Relaxed), 1, "one warning");
    store.note_heat(&k, 64);
    store.flush();
    drop(store);
    assert!(heat::parse(&fs::read(dir.join(heat::FILE)).unwrap()).is_some());
    let store = open(&dir, 1 << 20, &w).unwrap();
    assert_eq!(store.heat(&k), 64);
    assert_eq!(w.load(Ordering::Relaxed), 1, "no warning again");
}

#[test]
fn a_run_writes_the_blocks_a_thread_saves_after_its_cpu_went() {
    let s = Scratch::new("adopted");
    let dir = s.0.join("c");
    let warnings = Arc::new(AtomicUsize::new(0));
    let store = open(&dir, 1 << 20, &warnings).expect("opens");
    // A compiler thread still finishing a gone CPU's jobs.
    let saver = Arc::clone(&store);
    let thread = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        saver.save(&key(0x400000), &[0xc3; 10]);
    });
    store.adopt(thread);
    store.flush();
    let again = open(&dir, 1 << 20, &warnings).expect("opens again");
    assert_eq!(again.load(&key(0x400000)), Some(vec![0xc3; 10]));
    assert_eq!(warnings.load(Ordering::Relaxed), 0);
}
