//! The directory that keeps compiled blocks from one run to the next (the
//! persistent translation cache), shared by every CPU of a run and by every
//! irix-emu process at once.
//!
//! Contents: [`TranslationStore`] (opening the directory safely, loading
//! and saving entries, eviction), [`TranslationStats`] and [`StoreError`].
//! The format of one entry is `cache`'s.
//!
//! Safety. The directory is created with mode 0700. An existing one is
//! refused when it is a symbolic link, not a directory, not the user's own,
//! or writable by group or others: code read from it is executed, so only
//! its owner may put files there. Entries are opened without following
//! links and checked in full (`cache::decode`) before their code is used;
//! a bad one is deleted and compiled again.
//!
//! Sharing. Each entry is written to a temporary file of a unique name and
//! renamed into place, so a reader sees a whole entry or none; processes
//! racing to write the same entry write the same bytes, and the last
//! rename wins. A process sees the entries that were there when it opened
//! the directory (its index), plus its own.
//!
//! Failures never reach the guest. A directory that cannot be written (read
//! only, disk full) is used for reading only after one warning; a bad
//! entry costs one warning per run and a compile.
//!
//! Bound. The entries' total size is kept under a limit: a save that passes
//! it deletes the least recently used entries down to three quarters of
//! it. An entry's modification time says when it was last used: a save
//! sets it, and a load that finds it older than [`TOUCH_AFTER`] sets it to
//! now (so a run that uses a fresh cache writes no time at all, and an old
//! entry costs one `futimens` per run at most).

use std::collections::HashSet;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use super::cache::{self, Key};

/// The default bound on the directory's entries: 256 MiB.
pub const DEFAULT_TRANSLATION_STORE_BYTES: u64 = 256 << 20;

/// How old an entry's modification time may get before a load that uses
/// it sets it to now: the precision of "least recently used".
pub(crate) const TOUCH_AFTER: Duration = Duration::from_secs(60 * 60);

/// Where the cache lives by default: `$XDG_CACHE_HOME/irix-emu`, else
/// `$HOME/.cache/irix-emu` (an unset, empty or relative variable is
/// ignored, as the XDG base directory specification says). `None` when
/// neither is usable.
pub fn default_translation_dir() -> Option<PathBuf> {
    let absolute = |var: &str| {
        std::env::var_os(var)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    absolute("XDG_CACHE_HOME")
        .or_else(|| absolute("HOME").map(|h| h.join(".cache")))
        .map(|d| d.join("irix-emu"))
}

/// Why a directory was not used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("it is a symbolic link")]
    Symlink,
    #[error("it is not a directory")]
    NotADirectory,
    #[error("it belongs to another user")]
    NotOwned,
    #[error("others may write to it (mode {0:o})")]
    OpenToOthers(u32),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// What the store did in this run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TranslationStats {
    /// Blocks whose code was loaded from the directory.
    pub hits: u64,
    /// Blocks compiled because the directory had no (good) entry.
    pub misses: u64,
    /// Bytes of entries read.
    pub bytes_read: u64,
    /// Bytes of entries written.
    pub bytes_written: u64,
}

/// What a store has seen of its directory.
struct Index {
    /// Entries by file name.
    names: HashSet<String>,
    /// Their total size in bytes, as far as this process knows.
    bytes: u64,
    /// Saves are still attempted (false after one failed).
    writable: bool,
}

/// A directory of compiled blocks (see the module's documentation).
pub struct TranslationStore {
    dir: PathBuf,
    limit: u64,
    index: Mutex<Index>,
    hits: AtomicU64,
    misses: AtomicU64,
    bytes_read: AtomicU64,
    bytes_written: AtomicU64,
    /// Temporary files made so far (for their unique names).
    temps: AtomicU64,
    warned_bad_entry: AtomicBool,
    warn: Box<dyn Fn(&str) + Send + Sync>,
}

impl std::fmt::Debug for TranslationStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TranslationStore")
            .field("dir", &self.dir)
            .field("limit", &self.limit)
            .field("stats", &self.stats())
            .finish()
    }
}

/// The user irix-emu runs as.
#[cfg(unix)]
fn own_uid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// Checks that `dir` (an existing path) is a directory only its owner, this
/// user, may write.
fn check_dir(dir: &Path) -> Result<(), StoreError> {
    let meta = fs::symlink_metadata(dir)?;
    if meta.file_type().is_symlink() {
        return Err(StoreError::Symlink);
    }
    if !meta.is_dir() {
        return Err(StoreError::NotADirectory);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.uid() != own_uid() {
            return Err(StoreError::NotOwned);
        }
        if meta.mode() & 0o022 != 0 {
            return Err(StoreError::OpenToOthers(meta.mode() & 0o7777));
        }
    }
    Ok(())
}

/// Creates `dir` with mode 0700 (its parents with the usual modes) unless
/// something is there already.
fn create_dir(dir: &Path) -> std::io::Result<()> {
    if let Some(parent) = dir.parent() {
        fs::create_dir_all(parent)?;
    }
    let mut b = fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    match b.create(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        r => r,
    }
}

impl TranslationStore {
    /// Opens (creating it if absent) the directory `dir`, bounded to
    /// `limit` bytes of entries; `warn` is told, once each, of a bad entry
    /// and of a failed save. An error means the directory must not be used.
    pub fn open(
        dir: &Path,
        limit: u64,
        warn: Box<dyn Fn(&str) + Send + Sync>,
    ) -> Result<Arc<TranslationStore>, StoreError> {
        if fs::symlink_metadata(dir).is_err() {
            create_dir(dir)?;
        }
        check_dir(dir)?;
        let mut index = Index {
            names: HashSet::new(),
            bytes: 0,
            writable: true,
        };
        for e in fs::read_dir(dir)?.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with(".jit") && !name.starts_with('.') {
                index.bytes += e.metadata().map_or(0, |m| m.len());
                index.names.insert(name);
            }
        }
        Ok(Arc::new(TranslationStore {
            dir: dir.to_path_buf(),
            limit,
            index: Mutex::new(index),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
            bytes_read: AtomicU64::new(0),
            bytes_written: AtomicU64::new(0),
            temps: AtomicU64::new(0),
            warned_bad_entry: AtomicBool::new(false),
            warn,
        }))
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// What the store did so far.
    pub fn stats(&self) -> TranslationStats {
        TranslationStats {
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
            bytes_read: self.bytes_read.load(Ordering::Relaxed),
            bytes_written: self.bytes_written.load(Ordering::Relaxed),
        }
    }

    fn index(&self) -> std::sync::MutexGuard<'_, Index> {
        // A panic elsewhere while holding it leaves a consistent index.
        self.index.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The code kept under `key`, checked, or `None` (no entry, or a bad
    /// one, which is deleted).
    pub(crate) fn load(&self, key: &Key) -> Option<Vec<u8>> {
        let name = key.file_name();
        if !self.index().names.contains(&name) {
            return None;
        }
        let path = self.dir.join(&name);
        let bytes = match read_no_follow(&path, SystemTime::now()) {
            Ok(b) => b,
            Err(_) => {
                // Evicted by another process, or unreadable: a miss.
                self.index().names.remove(&name);
                return None;
            }
        };
        match cache::decode(key, &bytes) {
            Ok(code) => {
                self.hits.fetch_add(1, Ordering::Relaxed);
                self.bytes_read
                    .fetch_add(bytes.len() as u64, Ordering::Relaxed);
                Some(code.to_vec())
            }
            Err(bad) => {
                if !self.warned_bad_entry.swap(true, Ordering::Relaxed) {
                    (self.warn)(&format!(
                        "translation cache entry {} ignored ({bad}); it is compiled again",
                        path.display()
                    ));
                }
                let _ = fs::remove_file(&path);
                let mut index = self.index();
                index.names.remove(&name);
                index.bytes = index.bytes.saturating_sub(bytes.len() as u64);
                None
            }
        }
    }

    /// Counts a block compiled because the store had no entry for it.
    pub(crate) fn count_miss(&self) {
        self.misses.fetch_add(1, Ordering::Relaxed);
    }

    /// Keeps `code` under `key`, atomically; after a failure (read-only
    /// directory, full disk) one warning, and no more saves this run.
    pub(crate) fn save(&self, key: &Key, code: &[u8]) {
        if !self.index().writable {
            return;
        }
        let name = key.file_name();
        let entry = cache::encode(key, code);
        let n = self.temps.fetch_add(1, Ordering::Relaxed);
        // Unique among processes (the PID) and among the stores of one
        // process (this one's address, as long as it lives).
        let me = self as *const TranslationStore as usize;
        let pid = std::process::id();
        let temp = self.dir.join(format!(".tmp-{pid}-{me:x}-{n}-{name}"));
        let written =
            write_new(&temp, &entry).and_then(|()| fs::rename(&temp, self.dir.join(&name)));
        let mut index = self.index();
        match written {
            Ok(()) => {
                self.bytes_written
                    .fetch_add(entry.len() as u64, Ordering::Relaxed);
                if index.names.insert(name) {
                    index.bytes += entry.len() as u64;
                }
                if index.bytes > self.limit {
                    self.evict(&mut index);
                }
            }
            Err(e) => {
                let _ = fs::remove_file(&temp);
                index.writable = false;
                (self.warn)(&format!(
                    "cannot write the translation cache {} ({e}); carrying on without saving to it",
                    self.dir.display()
                ));
            }
        }
    }

    /// Deletes the least recently used entries (the oldest modification
    /// times, see the module's documentation) until they take at most
    /// three quarters of the bound (other processes' entries included).
    fn evict(&self, index: &mut Index) {
        let Ok(dir) = fs::read_dir(&self.dir) else {
            return;
        };
        let mut entries: Vec<(SystemTime, u64, String)> = dir
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let meta = e.metadata().ok()?;
                (name.ends_with(".jit") && !name.starts_with('.')).then(|| {
                    let at = meta.modified().unwrap_or(std::time::UNIX_EPOCH);
                    (at, meta.len(), name)
                })
            })
            .collect();
        entries.sort();
        let mut total: u64 = entries.iter().map(|e| e.1).sum();
        let goal = self.limit / 4 * 3;
        for (_, len, name) in entries {
            if total <= goal {
                break;
            }
            if fs::remove_file(self.dir.join(&name)).is_ok() {
                index.names.remove(&name);
            }
            total -= len;
        }
        index.bytes = total;
    }
}

/// The bytes of the file at `path`, which must not be a symbolic link;
/// marks it used at `now` when its modification time is more than
/// [`TOUCH_AFTER`] before (best effort: a file that cannot be touched is
/// still read).
fn read_no_follow(path: &Path, now: SystemTime) -> std::io::Result<Vec<u8>> {
    let mut opts = fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut opts, libc::O_NOFOLLOW);
    let mut f = opts.open(path)?;
    let meta = f.metadata()?;
    let mut out = Vec::with_capacity(meta.len() as usize);
    std::io::Read::read_to_end(&mut f, &mut out)?;
    let stale = meta.modified().is_ok_and(|at| at + TOUCH_AFTER < now);
    if stale {
        let _ = f.set_modified(now);
    }
    Ok(out)
}

/// Writes `bytes` to a new file at `path` (mode 0600).
fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut opts = fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
    let mut f = opts.open(path)?;
    f.write_all(bytes)?;
    f.flush()
}

#[cfg(test)]
mod tests {
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
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let _ = fs::set_permissions(&self.0, fs::Permissions::from_mode(0o700));
                let _ = fs::set_permissions(self.0.join("c"), fs::Permissions::from_mode(0o700));
            }
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
        Key::new(1, pc, &[0x2484_0001, 0x03e0_0008, 0], false, 0)
    }

    #[test]
    fn a_new_directory_is_made_0700_and_entries_come_back() {
        let s = Scratch::new("new");
        let dir = s.0.join("c");
        let warnings = Arc::new(AtomicUsize::new(0));
        let store = open(&dir, 1 << 20, &warnings).expect("opens");
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            assert_eq!(fs::metadata(&dir).unwrap().mode() & 0o777, 0o700);
        }
        assert_eq!(store.load(&key(0x400000)), None);
        store.save(&key(0x400000), &[0xc3; 10]);
        // Another process (a second store) sees it.
        let again = open(&dir, 1 << 20, &warnings).expect("opens again");
        assert_eq!(again.load(&key(0x400000)), Some(vec![0xc3; 10]));
        assert_eq!(again.stats().hits, 1);
        assert_eq!(warnings.load(Ordering::Relaxed), 0);
        // No temporary file is left behind.
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }

    #[test]
    fn a_corrupt_or_truncated_entry_is_ignored_once_and_replaced() {
        let s = Scratch::new("corrupt");
        let warnings = Arc::new(AtomicUsize::new(0));
        let store = open(&s.0, 1 << 20, &warnings).unwrap();
        store.save(&key(0x400000), &[0xc3; 10]);
        store.save(&key(0x400100), &[0xc3; 10]);
        let one = s.0.join(key(0x400000).file_name());
        let two = s.0.join(key(0x400100).file_name());
        let mut bytes = fs::read(&one).unwrap();
        bytes[30] ^= 0x40;
        fs::write(&one, &bytes).unwrap();
        let full = fs::read(&two).unwrap();
        fs::write(&two, &full[..full.len() - 3]).unwrap();
        let store = open(&s.0, 1 << 20, &warnings).unwrap();
        assert_eq!(store.load(&key(0x400000)), None);
        assert_eq!(store.load(&key(0x400100)), None);
        assert_eq!(warnings.load(Ordering::Relaxed), 1, "one warning");
        assert!(!one.exists() && !two.exists(), "bad entries deleted");
        store.save(&key(0x400000), &[0x90; 4]);
        assert_eq!(store.load(&key(0x400000)), Some(vec![0x90; 4]));
    }

    #[test]
    fn a_file_a_symlink_and_a_world_writable_directory_are_refused() {
        let s = Scratch::new("refused");
        let warnings = Arc::new(AtomicUsize::new(0));
        let file = s.0.join("file");
        fs::write(&file, b"x").unwrap();
        assert!(matches!(
            open(&file, 1 << 20, &warnings),
            Err(StoreError::NotADirectory)
        ));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
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
    }

    #[cfg(unix)]
    #[test]
    fn a_read_only_directory_is_read_and_one_warning_says_saves_stopped() {
        use std::os::unix::fs::PermissionsExt;
        let s = Scratch::new("readonly");
        let dir = s.0.join("c");
        let warnings = Arc::new(AtomicUsize::new(0));
        open(&dir, 1 << 20, &warnings)
            .unwrap()
            .save(&key(0x400000), &[0xc3; 8]);
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o500)).unwrap();
        let store = open(&dir, 1 << 20, &warnings).unwrap();
        assert_eq!(store.load(&key(0x400000)), Some(vec![0xc3; 8]));
        // Root may write anyway; the warning is then not due.
        let probe = fs::write(dir.join(".probe"), b"");
        let _ = fs::remove_file(dir.join(".probe"));
        store.save(&key(0x400100), &[0xc3; 8]);
        store.save(&key(0x400200), &[0xc3; 8]);
        let expected = usize::from(probe.is_err());
        assert_eq!(warnings.load(Ordering::Relaxed), expected);
    }

    #[test]
    fn saves_past_the_bound_evict_the_oldest_entries() {
        let s = Scratch::new("evict");
        let warnings = Arc::new(AtomicUsize::new(0));
        let entry = cache::encode(&key(0), &[0u8; 1000]).len() as u64;
        let store = open(&s.0, 10 * entry, &warnings).unwrap();
        for i in 0..30u32 {
            store.save(&key(0x400000 + 4 * i), &[0u8; 1000]);
        }
        let total: u64 = fs::read_dir(&s.0)
            .unwrap()
            .flatten()
            .map(|e| e.metadata().unwrap().len())
            .sum();
        assert!(total <= 10 * entry, "{total} bytes kept");
        // The newest survives.
        assert!(store.load(&key(0x400000 + 4 * 29)).is_some());
    }

    /// Sets the modification time of `key`'s entry in `dir` to `ago`
    /// before now.
    fn age(dir: &Path, key: &Key, ago: Duration) {
        let f = fs::File::options()
            .write(true)
            .open(dir.join(key.file_name()))
            .unwrap();
        f.set_modified(SystemTime::now() - ago).unwrap();
    }

    fn modified(dir: &Path, key: &Key) -> SystemTime {
        fs::metadata(dir.join(key.file_name()))
            .unwrap()
            .modified()
            .unwrap()
    }

    #[test]
    fn a_load_marks_an_entry_used_once_it_is_an_hour_old_and_not_before() {
        let s = Scratch::new("touch");
        let warnings = Arc::new(AtomicUsize::new(0));
        let store = open(&s.0, 1 << 20, &warnings).unwrap();
        let (fresh, old) = (key(0x400000), key(0x400100));
        store.save(&fresh, &[0xc3; 10]);
        store.save(&old, &[0xc3; 10]);
        age(&s.0, &fresh, TOUCH_AFTER / 2);
        age(&s.0, &old, TOUCH_AFTER * 2);
        let before = modified(&s.0, &fresh);
        let store = open(&s.0, 1 << 20, &warnings).unwrap();
        assert!(store.load(&fresh).is_some() && store.load(&old).is_some());
        assert_eq!(
            modified(&s.0, &fresh),
            before,
            "used within the hour: not written"
        );
        let age_now = SystemTime::now()
            .duration_since(modified(&s.0, &old))
            .unwrap_or_default();
        assert!(age_now < TOUCH_AFTER / 2, "{age_now:?}");
    }

    #[test]
    fn eviction_removes_the_least_recently_used_entries_not_the_first_written() {
        let s = Scratch::new("lru");
        let warnings = Arc::new(AtomicUsize::new(0));
        let entry = cache::encode(&key(0), &[0u8; 1000]).len() as u64;
        let store = open(&s.0, 10 * entry, &warnings).unwrap();
        // Ten entries written days ago, the first the oldest; the first
        // three are used again (loaded) by a later run.
        let keys: Vec<Key> = (0..10u32).map(|i| key(0x400000 + 4 * i)).collect();
        for (i, k) in keys.iter().enumerate() {
            store.save(k, &[0u8; 1000]);
            age(&s.0, k, Duration::from_secs(86_400 * (20 - i as u64)));
        }
        let later = open(&s.0, 10 * entry, &warnings).unwrap();
        for k in &keys[..3] {
            assert!(later.load(k).is_some());
        }
        // Passing the bound evicts down to three quarters: the used ones
        // stay, the entries nobody used since they were written go first.
        later.save(&key(0x500000), &[0u8; 1000]);
        for k in &keys[..3] {
            assert!(s.0.join(k.file_name()).exists(), "a used entry was evicted");
        }
        assert!(s.0.join(key(0x500000).file_name()).exists());
        let kept = keys[3..]
            .iter()
            .filter(|k| s.0.join(k.file_name()).exists())
            .count();
        assert!(kept < 7, "nothing unused was evicted");
        // The unused entries kept are the most recently written ones.
        assert!(!s.0.join(keys[3].file_name()).exists());
        assert_eq!(warnings.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn processes_racing_to_write_the_same_entries_leave_whole_ones() {
        let s = Scratch::new("race");
        let warnings = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let store = open(&s.0, 1 << 20, &warnings).unwrap();
                std::thread::spawn(move || {
                    for i in 0..50u32 {
                        store.save(&key(0x400000 + 4 * i), &[i as u8; 100]);
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let store = open(&s.0, 1 << 20, &warnings).unwrap();
        for i in 0..50u32 {
            assert_eq!(store.load(&key(0x400000 + 4 * i)), Some(vec![i as u8; 100]));
        }
        assert_eq!(warnings.load(Ordering::Relaxed), 0);
    }
}
