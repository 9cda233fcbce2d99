//! The directory that keeps compiled blocks from one run to the next (the
//! persistent translation cache), shared by every CPU of a run and by every
//! irix-emu process at once.
//!
//! Contents: [`TranslationStore`] (opening the directory safely, loading
//! and saving entries, writing a run's new entries out), [`TranslationStats`]
//! and [`StoreError`]. The format of one entry is `cache`'s, of a pack of
//! them `pack`'s; merging packs and keeping the bound is `merge`'s.
//!
//! Packs. The directory holds a few pack files (`*.pack`), each many
//! entries and an index, written whole and never changed. A store lists the
//! directory once, maps each pack read-only and checks its header and index
//! (no system call per entry, whatever the cache's size); a load is a binary
//! search in each pack's index and a check of a copy of the entry found, in
//! memory. A pack's file is closed as soon as it is mapped, so the cache
//! takes none of the host's file descriptors (which the guest's files use)
//! during a run, and at most [`MAX_OPEN`] packs are mapped, the largest
//! (more are merged away by the runs' ends). A run's new entries are kept in
//! memory and written as one new pack by [`TranslationStore::flush`] (which
//! the command line calls when the run ends, and dropping the store calls
//! too), and whenever they pass [`FLUSH_AFTER`] bytes (merged then as at the
//! run's end), so a long run killed before its end loses little.
//! One file per entry, as earlier versions kept, cost a `statx` per entry at
//! every start and four to six system calls per load and per save: most of
//! a small compile's time. Those `*.jit` files are deleted at open (an
//! `unlink` each, once: the run after the upgrade).
//!
//! Why this shape. The index is kept sorted in the pack and searched where
//! it is mapped, rather than read into a hash map at open: a process that
//! loads a few blocks from a cache of tens of thousands pays for the few.
//! The packs are mapped rather than read with `pread` per load: a load then
//! costs page faults, which Linux serves sixteen pages at a time, instead
//! of a system call each, and a run's entries sit together in the order
//! that run compiled them. A run takes the packs' size in address space
//! (at most the bound) but only the pages it uses in memory. Merges are
//! size-tiered (see `merge`) so that a build of hundreds of processes, each
//! adding a small pack, does not copy the whole cache every few processes.
//!
//! Safety. The directory is created with mode 0700. An existing one is
//! refused when it is a symbolic link, not a directory, not the user's own,
//! or writable by group or others: code read from it is executed, so only
//! its owner may put files there. Packs are opened without following links
//! and must be regular files. A pack whose header, length or index checksum
//! is wrong is set aside and deleted; a pack of another pack format (another
//! version of irix-emu sharing the directory) is passed over and left in
//! place, neither read nor counted in the bound, so that two versions do not
//! delete each other's cache at every run (a format no longer used is left
//! for its owner to delete). Every entry is checked in full
//! (`cache::decode`: magic, format, lengths, key byte for byte, checksum)
//! before its code is used, and a bad one is compiled again (its pack is
//! then rewritten without it when the run ends).
//!
//! Sharing. A pack is written under a unique temporary name and renamed
//! into place, so a reader sees a whole pack or none, and nothing is ever
//! written into a pack in place: a pack another process deletes stays
//! readable through the mapping of a process that has it open. Processes
//! racing each write packs of their own; the same entry in two packs is
//! harmless (the first found is used) and is merged away later. A process
//! sees the packs that were there when it opened the directory, plus its
//! own entries (written or not). A process ending at once on a signal
//! while it writes a pack removes the pack's temporary file first
//! ([`TranslationStore::abandon`]); one killed outright leaves it, and a
//! later run deletes it once it is [`TOUCH_AFTER`] old.
//!
//! Failures never reach the guest. A directory that cannot be written (read
//! only, disk full) is used for reading only after one warning; a bad
//! pack or entry costs one warning per run and compiles.
//!
//! Heat. Beside the packs, the file `heat` counts the runs of blocks that
//! were not compiled, from one run to the next (see `heat`).
//!
//! Bound. The packs' total size is kept under a limit, and their number
//! under `merge::MAX_PACKS`: see `merge`. A pack's modification time says when
//! it was last used: writing it sets it, and a load from a pack whose time
//! is older than [`TOUCH_AFTER`] sets it to now (so a run that uses a fresh
//! cache writes no time at all, and a pack costs one `open` and `futimens`
//! per run at most).

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime};

pub(crate) mod heat;
mod mapped;
mod merge;
mod pack;
#[cfg(test)]
mod tests;

use super::cache::{self, Key};
use mapped::Mapped;
use pack::BadPack;

/// The default bound on the directory's packs: 256 MiB.
pub const DEFAULT_TRANSLATION_STORE_BYTES: u64 = 256 << 20;

/// How old a pack's modification time may get before a load that uses it
/// sets it to now: the precision of "least recently used".
const TOUCH_AFTER: Duration = Duration::from_secs(60 * 60);

/// The most packs a store opens (the largest): a pack costs a mapping,
/// however many the directory holds; merges bring the rest down to
/// `merge::MAX_PACKS` over the next runs.
const MAX_OPEN: usize = 64;

/// How many bytes of new entries a run keeps in memory before it writes
/// them as a pack without waiting for its end.
const FLUSH_AFTER: u64 = 4 << 20;

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
    /// Blocks whose code was loaded from the cache (a pack, or this run's
    /// own new entries).
    pub hits: u64,
    /// Blocks compiled because the cache had no (good) entry.
    pub misses: u64,
    /// Of those, the blocks compiled because their runs in earlier
    /// processes counted (see `heat`): code that no single process runs
    /// often enough to compile.
    pub heated: u64,
    /// Bytes of entries loaded.
    pub bytes_read: u64,
    /// Bytes of packs written (this run's new entries, and merges).
    pub bytes_written: u64,
}

/// A pack the store has open: mapped (its file is closed once mapped, so
/// a run holds no file descriptor per pack; see [`touch`]).
struct OpenPack {
    path: PathBuf,
    map: Mapped,
    pack: pack::Pack,
    /// When it was last used, as its modification time says.
    modified: SystemTime,
    /// Its time was looked at by a load of this run (and set if old).
    aged: bool,
    /// Entries that failed their checks this run.
    bad: HashSet<u128>,
}

impl OpenPack {
    fn bytes(&self) -> &[u8] {
        self.map.bytes()
    }

    fn size(&self) -> u64 {
        self.bytes().len() as u64
    }
}

/// Why a pack was not opened.
enum Unopened {
    /// Gone, unreadable, or not a regular file: passed over in silence.
    Io,
    /// Of another pack format (another version of irix-emu sharing the
    /// directory): passed over in silence and left in place.
    Foreign,
    /// Damaged: set aside with a warning.
    Bad(BadPack),
}

/// Opens the existing file at `path` read-only, following no link, and
/// not waiting for a writer when it is a FIFO.
fn open_existing(path: &Path) -> std::io::Result<fs::File> {
    fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
}

/// Opens the pack at `path`, mapped and checked; the file itself is closed
/// again (the mapping outlives it).
fn open_pack(path: &Path) -> Result<OpenPack, Unopened> {
    let file = open_existing(path).map_err(|_| Unopened::Io)?;
    let meta = file.metadata().map_err(|_| Unopened::Io)?;
    if !meta.is_file() {
        return Err(Unopened::Io);
    }
    let len = usize::try_from(meta.len()).map_err(|_| Unopened::Bad(BadPack::Length))?;
    if len < pack::HEADER {
        return Err(Unopened::Bad(BadPack::Length));
    }
    let map = Mapped::new(&file, len).map_err(|_| Unopened::Io)?;
    drop(file);
    let pack = pack::parse(map.bytes()).map_err(|why| match why {
        BadPack::Format(_) => Unopened::Foreign,
        why => Unopened::Bad(why),
    })?;
    Ok(OpenPack {
        path: path.to_path_buf(),
        map,
        pack,
        modified: meta.modified().unwrap_or(std::time::UNIX_EPOCH),
        aged: false,
        bad: HashSet::new(),
    })
}

/// What a store has of its directory.
struct State {
    /// The packs open, the largest first (where most loads are found).
    packs: Vec<OpenPack>,
    /// This run's new entries not yet written (id, entry), in save order.
    pending: Vec<(u128, Vec<u8>)>,
    /// Where each of them is in `pending`.
    pending_at: HashMap<u128, usize>,
    /// Their bytes together.
    pending_bytes: u64,
    /// Entries loaded this run (the most recently used of all).
    used: HashSet<u128>,
    /// Temporary files other processes were writing when the store opened
    /// (deleted by a merge once they are old: a process killed mid-write).
    temps: Vec<PathBuf>,
    /// Packs are still written (false after one failed).
    writable: bool,
    /// The last entry loaded, copied out of its pack (see `load_with`).
    copy: Vec<u8>,
}

impl State {
    /// Sorts the packs, the largest first.
    fn sort(&mut self) {
        self.packs.sort_by_key(|p| std::cmp::Reverse(p.size()));
    }

    /// Forgets the new entries (written, or not to be).
    fn clear_pending(&mut self) {
        self.pending.clear();
        self.pending_at.clear();
        self.pending_bytes = 0;
    }

    /// The new entries are written, in `new` (`None`: another process has
    /// taken it away already, or there was nothing to write).
    fn written(&mut self, new: Option<OpenPack>) {
        self.clear_pending();
        self.packs.extend(new);
        self.sort();
    }

    /// Deletes the temporary files seen at open that are older than
    /// [`TOUCH_AFTER`] (of a process killed while writing a pack).
    fn remove_old_temps(&mut self, now: SystemTime) {
        for t in std::mem::take(&mut self.temps) {
            let old = fs::symlink_metadata(&t)
                .and_then(|m| m.modified())
                .is_ok_and(|at| older_than(at, TOUCH_AFTER, now));
            if old {
                let _ = fs::remove_file(&t);
            }
        }
    }
}

/// A directory of compiled blocks (see the module's documentation).
pub struct TranslationStore {
    dir: PathBuf,
    limit: u64,
    state: Mutex<State>,
    hits: AtomicU64,
    misses: AtomicU64,
    heated: AtomicU64,
    bytes_read: AtomicU64,
    bytes_written: AtomicU64,
    /// Files written so far (for their unique names).
    written: AtomicU64,
    /// The temporary files of the packs being written, and whether writing
    /// was given up for good (see [`abandon`](Self::abandon)).
    writing: Mutex<(Vec<PathBuf>, bool)>,
    warned_bad: AtomicBool,
    warn: Box<dyn Fn(&str) + Send + Sync>,
    /// The heat file's records as the store opened (see `heat`); `None`
    /// in a directory this run cannot write, which gets no heat at all.
    heat_seen: Option<HashMap<u128, u32>>,
    /// This run's: blocks that ran without being compiled (the most runs
    /// noted), and those it compiled (whose records go).
    heat_new: Mutex<Heat>,
    /// Compiler threads still saving the jobs of a CPU that has gone (see
    /// [`adopt`](Self::adopt)).
    finishing: Mutex<Vec<JoinHandle<()>>>,
}

/// A run's heat (see `heat`).
#[derive(Default)]
struct Heat {
    noted: HashMap<u128, u32>,
    compiled: HashSet<u128>,
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
fn own_uid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// Checks that `dir` (an existing path) is a directory only its owner, this
/// user, may write.
fn check_dir(dir: &Path) -> Result<(), StoreError> {
    use std::os::unix::fs::MetadataExt;
    let meta = fs::symlink_metadata(dir)?;
    if meta.file_type().is_symlink() {
        return Err(StoreError::Symlink);
    }
    if !meta.is_dir() {
        return Err(StoreError::NotADirectory);
    }
    if meta.uid() != own_uid() {
        return Err(StoreError::NotOwned);
    }
    if meta.mode() & 0o022 != 0 {
        return Err(StoreError::OpenToOthers(meta.mode() & 0o7777));
    }
    Ok(())
}

/// Whether this process may create files in `dir`.
fn writable(dir: &Path) -> bool {
    let Ok(path) = std::ffi::CString::new(dir.as_os_str().as_encoded_bytes()) else {
        return false;
    };
    // SAFETY: `path` is a NUL-terminated string that lives for the call.
    unsafe { libc::access(path.as_ptr(), libc::W_OK | libc::X_OK) == 0 }
}

/// Creates `dir` with mode 0700 (its parents with the usual modes) unless
/// something is there already.
fn create_dir(dir: &Path) -> std::io::Result<()> {
    if let Some(parent) = dir.parent() {
        fs::create_dir_all(parent)?;
    }
    let mut b = fs::DirBuilder::new();
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    match b.create(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        r => r,
    }
}

impl TranslationStore {
    /// Opens (creating it if absent) the directory `dir`, bounded to
    /// `limit` bytes of packs; `warn` is told, once each, of a bad pack or
    /// entry and of a failed save. An error means the directory must not
    /// be used.
    pub fn open(
        dir: &Path,
        limit: u64,
        warn: Box<dyn Fn(&str) + Send + Sync>,
    ) -> Result<Arc<TranslationStore>, StoreError> {
        if fs::symlink_metadata(dir).is_err() {
            create_dir(dir)?;
        }
        check_dir(dir)?;
        let mut store = TranslationStore {
            dir: dir.to_path_buf(),
            limit,
            state: Mutex::new(State {
                packs: Vec::new(),
                pending: Vec::new(),
                pending_at: HashMap::new(),
                pending_bytes: 0,
                used: HashSet::new(),
                temps: Vec::new(),
                writable: true,
                copy: Vec::new(),
            }),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
            heated: AtomicU64::new(0),
            bytes_read: AtomicU64::new(0),
            bytes_written: AtomicU64::new(0),
            written: AtomicU64::new(0),
            writing: Mutex::new((Vec::new(), false)),
            warned_bad: AtomicBool::new(false),
            warn,
            heat_seen: None,
            heat_new: Mutex::new(Heat::default()),
            finishing: Mutex::new(Vec::new()),
        };
        // A directory this run cannot write gets no heat: what heat would
        // compile could not be kept, and a read-only cache (one filled
        // ahead of time, say) runs as it was filled, with no warning.
        if writable(dir) {
            store.heat_seen = Some(store.read_heat());
        }
        let mut state = store.state();
        // The packs found (size, path), opened the largest first.
        let mut found: Vec<(u64, PathBuf)> = Vec::new();
        for e in fs::read_dir(dir)?.flatten() {
            let name = e.file_name();
            let name = name.to_string_lossy();
            let path = e.path();
            if name.starts_with(".tmp-") {
                state.temps.push(path);
            } else if name.starts_with('.') {
                continue;
            } else if name.ends_with(".jit") {
                // An entry of the one-file-per-block format.
                let _ = fs::remove_file(&path);
            } else if name.ends_with(".pack") {
                // Not following a link (the pack is opened so too).
                let size = e.metadata().map_or(0, |m| m.len());
                found.push((size, path));
            }
        }
        found.sort_by(|a, b| b.cmp(a));
        for (_, path) in found {
            if state.packs.len() == MAX_OPEN {
                break;
            }
            match open_pack(&path) {
                Ok(p) => state.packs.push(p),
                Err(Unopened::Io | Unopened::Foreign) => {}
                Err(Unopened::Bad(why)) => {
                    store.warn_bad(&format!(
                        "translation cache pack {} ignored ({why}); its blocks are compiled again",
                        path.display()
                    ));
                    let _ = fs::remove_file(&path);
                }
            }
        }
        state.sort();
        drop(state);
        Ok(Arc::new(store))
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
            heated: self.heated.load(Ordering::Relaxed),
            bytes_read: self.bytes_read.load(Ordering::Relaxed),
            bytes_written: self.bytes_written.load(Ordering::Relaxed),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic elsewhere while holding it leaves a consistent state.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Warns of a bad pack or entry, the first time in this store.
    fn warn_bad(&self, message: &str) {
        if !self.warned_bad.swap(true, Ordering::Relaxed) {
            (self.warn)(message);
        }
    }

    /// Warns that a pack could not be written (unless the store was
    /// abandoned), and stops writing.
    fn write_failed(&self, state: &mut State, e: &std::io::Error) {
        state.writable = false;
        state.clear_pending();
        if e.kind() == std::io::ErrorKind::Interrupted {
            return;
        }
        (self.warn)(&format!(
            "cannot write the translation cache {} ({e}); carrying on without saving to it",
            self.dir.display()
        ));
    }

    /// The code kept under `key`, checked, as a vector (see `load_with`).
    #[cfg(test)]
    pub(crate) fn load(&self, key: &Key) -> Option<Vec<u8>> {
        self.load_with(key, <[u8]>::to_vec)
    }

    /// `use_code` of the code kept under `key`, checked, or `None` (no
    /// entry, or only bad ones, which are not used again). The store's lock
    /// is held while `use_code` runs.
    pub(crate) fn load_with<R>(&self, key: &Key, use_code: impl FnOnce(&[u8]) -> R) -> Option<R> {
        let id = key.id();
        let mut state = self.state();
        if let Some(&i) = state.pending_at.get(&id) {
            let entry = &state.pending[i].1;
            if let Ok(code) = cache::decode(key, entry) {
                self.hit(entry.len());
                return Some(use_code(code));
            }
        }
        // An entry is copied out of its mapping before it is checked, and
        // the copy is what is used: the bytes checked are the bytes run.
        // The copy goes to one buffer, kept from load to load.
        let State {
            packs, used, copy, ..
        } = &mut *state;
        for p in packs {
            let Some(i) = p.pack.find(p.bytes(), id) else {
                continue;
            };
            if p.bad.contains(&id) {
                continue;
            }
            copy.clear();
            let entry = p
                .pack
                .entry(p.bytes(), i)
                .map(|e| copy.extend_from_slice(e));
            match entry.map(|()| cache::decode(key, copy)) {
                Some(Ok(code)) => {
                    self.hit(copy.len());
                    let r = use_code(code);
                    touch(p);
                    used.insert(id);
                    return Some(r);
                }
                bad => {
                    let why = match bad {
                        Some(Err(why)) => why.to_string(),
                        _ => "outside its pack".to_string(),
                    };
                    self.warn_bad(&format!(
                        "translation cache entry {id:032x} in {} ignored ({why}); it is compiled again",
                        p.path.display()
                    ));
                    p.bad.insert(id);
                }
            }
        }
        None
    }

    fn hit(&self, bytes: usize) {
        self.hits.fetch_add(1, Ordering::Relaxed);
        self.bytes_read.fetch_add(bytes as u64, Ordering::Relaxed);
    }

    /// Counts a block compiled because the store had no entry for it;
    /// `heated`: its count started from earlier processes' (see `heat`).
    pub(crate) fn count_miss(&self, heated: bool) {
        self.misses.fetch_add(1, Ordering::Relaxed);
        if heated {
            self.heated.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// How many times the block under `key` ran, uncompiled, in the runs
    /// before this one and in the processes of this one that noted it (0
    /// when none did; see `heat`).
    pub(crate) fn heat(&self, key: &Key) -> u32 {
        let Some(seen) = &self.heat_seen else {
            return 0;
        };
        let id = key.id();
        let seen = seen.get(&id).copied().unwrap_or(0);
        let noted = self.run_heat().noted.get(&id).copied().unwrap_or(0);
        seen.max(noted)
    }

    /// Notes that the block under `key` has run `runs` times (those of
    /// earlier runs included) without being compiled: the run's end
    /// records it (see `heat`).
    pub(crate) fn note_heat(&self, key: &Key, runs: u32) {
        if self.heat_seen.is_none() {
            return;
        }
        let mut heat = self.run_heat();
        let r = heat.noted.entry(key.id()).or_insert(0);
        *r = (*r).max(runs);
    }

    fn run_heat(&self) -> std::sync::MutexGuard<'_, Heat> {
        self.heat_new.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The heat file's records, or none when it is absent or damaged (a
    /// damaged one is replaced at the run's end).
    fn read_heat(&self) -> HashMap<u128, u32> {
        let path = self.dir.join(heat::FILE);
        let Ok(mut f) = open_existing(&path) else {
            return HashMap::new();
        };
        let mut bytes = Vec::new();
        let whole = f.metadata().is_ok_and(|m| m.is_file())
            && std::io::Read::read_to_end(&mut f, &mut bytes).is_ok();
        match heat::parse(&bytes) {
            Some(records) if whole => records,
            _ => {
                if whole {
                    self.warn_bad(&format!(
                        "translation cache heat file {} ignored (damaged or of another version)",
                        path.display()
                    ));
                }
                HashMap::new()
            }
        }
    }

    /// Writes the heat file again if this run noted blocks or compiled
    /// some it records: the records in it now (another process may have
    /// written it since this one opened) with this run's, less the blocks
    /// now compiled.
    fn write_heat(&self) {
        let Some(seen) = &self.heat_seen else {
            return;
        };
        let mut heat = self.run_heat();
        let stale = heat.compiled.iter().any(|id| seen.contains_key(id));
        if heat.noted.is_empty() && !stale {
            heat.compiled.clear();
            return;
        }
        let mut records = self.read_heat();
        heat::merge(&mut records, &heat.noted);
        for id in &heat.compiled {
            records.remove(id);
        }
        // The run's notes stay, for its later processes (see `heat`).
        heat.compiled.clear();
        drop(heat);
        // The temporary name is unique; the file's is not: the last run to
        // rename wins (see `heat`).
        let file = heat::encode(&records);
        let unique = format!("{}-{}", heat::FILE, self.unique_name());
        let _ = self.write_renamed(&unique, heat::FILE, |t| write_file(t, &file).map(|()| 0));
    }

    /// Keeps `code` under `key`: in memory, written with the run's other new
    /// entries by the next [`flush`](Self::flush), or at once when they
    /// pass [`FLUSH_AFTER`] bytes.
    /// Code longer than an entry may hold (`cache::MAX_CODE`) is not kept.
    pub(crate) fn save(&self, key: &Key, code: &[u8]) {
        debug_assert!(
            code.len() <= cache::MAX_CODE,
            "{} bytes of code",
            code.len()
        );
        let mut state = self.state();
        let id = key.id();
        if !state.writable || state.pending_at.contains_key(&id) || code.len() > cache::MAX_CODE {
            return;
        }
        if self.heat_seen.is_some() {
            let mut heat = self.run_heat();
            heat.noted.remove(&id);
            heat.compiled.insert(id);
        }
        let entry = cache::encode(key, code);
        state.pending_bytes += entry.len() as u64;
        let at = state.pending.len();
        state.pending.push((id, entry));
        state.pending_at.insert(id, at);
        if state.pending_bytes >= FLUSH_AFTER {
            self.flush_locked(&mut state);
        }
    }

    /// Writes this run's new entries (if any) as one pack, and merges packs
    /// when there are too many, some hold bad entries, or they pass the
    /// bound (see `merge`). Called when a run ends; a later save starts the
    /// next pack. After a failure (read-only directory, full disk) one
    /// warning, and nothing more is written this run. Waits first for the
    /// threads still saving a gone CPU's jobs (see `adopt`),
    /// so that the pack holds every block the run compiled.
    pub fn flush(&self) {
        let threads = std::mem::take(&mut *self.finishing());
        for thread in threads {
            // A thread that panicked saved what it had before.
            let _ = thread.join();
        }
        let mut state = self.state();
        self.flush_locked(&mut state);
    }

    /// Takes `thread`, which saves into this store the jobs of a CPU that
    /// has gone (see `Cpu::let_compiles_go`): [`flush`](Self::flush) waits
    /// for it.
    pub(crate) fn adopt(&self, thread: JoinHandle<()>) {
        self.finishing().push(thread);
    }

    fn finishing(&self) -> std::sync::MutexGuard<'_, Vec<JoinHandle<()>>> {
        self.finishing.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// [`flush`](Self::flush), the state held (also when the new entries
    /// pass [`FLUSH_AFTER`] bytes: so a long run's packs are merged as a
    /// run's end would, and stay under `merge::MAX_PACKS`).
    fn flush_locked(&self, state: &mut State) {
        if !state.writable {
            return;
        }
        match self.merge_plan(state) {
            Some(plan) => self.merge(state, plan),
            None => self.write_pending(state),
        }
        if state.writable {
            self.write_heat();
        }
        state.remove_old_temps(SystemTime::now());
    }

    /// Removes the temporary file of a pack being written, if any, and
    /// writes no more packs: for a process about to end at once (a
    /// signal while the run's end writes its pack), so that no temporary
    /// file is left behind. Safe to call from another thread while a
    /// flush is under way (which then fails, in silence, at its rename,
    /// deleting no pack it was merging).
    pub fn abandon(&self) {
        let mut writing = self.writing();
        writing.1 = true;
        for t in std::mem::take(&mut writing.0) {
            let _ = fs::remove_file(t);
        }
    }

    /// A name no other file of the directory has or will have: unique
    /// among processes (the PID, and the time for a PID used again), among
    /// the stores of one process (this one's address, as long as it
    /// lives) and among this store's files (a count).
    fn unique_name(&self) -> String {
        let n = self.written.fetch_add(1, Ordering::Relaxed);
        let me = self as *const TranslationStore as usize;
        let pid = std::process::id();
        let time = SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos();
        format!("{time:x}-{pid}-{me:x}-{n}")
    }

    fn writing(&self) -> std::sync::MutexGuard<'_, (Vec<PathBuf>, bool)> {
        self.writing.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Writes the new entries as one pack, in the order they were saved
    /// (the order a later run is likely to load them in).
    fn write_pending(&self, state: &mut State) {
        if state.pending.is_empty() || !state.writable {
            return;
        }
        let entries: Vec<(u128, &[u8])> = state
            .pending
            .iter()
            .map(|(id, e)| (*id, e.as_slice()))
            .collect();
        match self.write_pack(&entries) {
            Ok(p) => state.written(p),
            Err(e) => self.write_failed(state, &e),
        }
    }

    /// Writes a new pack of `entries` (see `pack::write`) under a unique
    /// temporary name and renames it into place; returns it opened (or
    /// `None`, if another process has already taken it away).
    fn write_pack(&self, entries: &[(u128, &[u8])]) -> std::io::Result<Option<OpenPack>> {
        let name = format!("{}.pack", self.unique_name());
        let size = self.write_renamed(&name, &name, |temp| write_new(temp, entries))?;
        self.bytes_written.fetch_add(size, Ordering::Relaxed);
        Ok(open_pack(&self.dir.join(&name)).ok())
    }

    /// Writes the file `name` whole, as `write` writes it (returning its
    /// size) to a new temporary file (`.tmp-` and `unique`, a name no
    /// other file has), renamed into place: a reader sees all of it or
    /// none. The temporary file is removed on a failure, and by
    /// [`abandon`](Self::abandon) while it is written.
    fn write_renamed(
        &self,
        unique: &str,
        name: &str,
        write: impl FnOnce(&Path) -> std::io::Result<u64>,
    ) -> std::io::Result<u64> {
        let temp = self.dir.join(format!(".tmp-{unique}"));
        {
            let mut writing = self.writing();
            if writing.1 {
                return Err(abandoned());
            }
            writing.0.push(temp.clone());
        }
        let written = write(&temp).and_then(|size| {
            // Held across the rename: `abandon` removes the temporary file
            // before it (the rename then fails) or finds it gone.
            let mut writing = self.writing();
            if writing.1 {
                return Err(abandoned());
            }
            writing.0.retain(|t| *t != temp);
            fs::rename(&temp, self.dir.join(name))?;
            Ok(size)
        });
        if written.is_err() {
            let _ = fs::remove_file(&temp);
            self.writing().0.retain(|t| *t != temp);
        }
        written
    }
}

impl Drop for TranslationStore {
    /// Writes what the run has not (see [`TranslationStore::flush`]). No
    /// thread is waited for: each holds the store while it saves, so those
    /// still here have ended, but for the one dropping it, if any.
    fn drop(&mut self) {
        let mut state = self.state();
        self.flush_locked(&mut state);
    }
}

/// The error of a pack not written because the store was abandoned.
fn abandoned() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::Interrupted, "the process is ending")
}

/// Whether time `t` is more than `span` before `now` (false for a time
/// after `now`, and never overflowing, however far off `t` is).
fn older_than(t: SystemTime, span: Duration, now: SystemTime) -> bool {
    now.duration_since(t).is_ok_and(|age| age > span)
}

/// Marks `p` used now if its modification time is more than
/// [`TOUCH_AFTER`] old (looked at once per run; best effort: a pack that
/// cannot be touched is still read). The pack is opened again by its path
/// for that, and closed at once.
fn touch(p: &mut OpenPack) {
    if p.aged {
        return;
    }
    p.aged = true;
    let now = SystemTime::now();
    if older_than(p.modified, TOUCH_AFTER, now)
        && open_existing(&p.path).is_ok_and(|f| f.set_modified(now).is_ok())
    {
        p.modified = now;
    }
}

/// Creates the file `path`, which must not exist (mode 0600; no link is
/// followed, as when a pack is opened).
fn create_new(path: &Path) -> std::io::Result<fs::File> {
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
}

/// Writes `bytes` to a new file at `path` (see [`create_new`]).
fn write_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    create_new(path)?.write_all(bytes)
}

/// Writes the pack of `entries` to a new file at `path` (see
/// [`create_new`]); returns its size.
fn write_new(path: &Path, entries: &[(u128, &[u8])]) -> std::io::Result<u64> {
    let f = create_new(path)?;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, f);
    let size = pack::write(&mut out, entries)?;
    out.flush()?;
    Ok(size)
}
