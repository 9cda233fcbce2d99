//! A scratch directory for a test: a `tempfile::TempDir` (removed with its
//! contents on drop) whose path is canonical, so it compares equal to what
//! a program run inside it computes, plus the file helpers tests ask for.

use std::path::{Path, PathBuf};

/// A fresh directory under the system's temporary directory.
pub struct Scratch {
    /// Removes the directory when dropped.
    _dir: tempfile::TempDir,
    path: PathBuf,
}

impl Scratch {
    /// A new directory, its name starting `irix-emu-<label>-`.
    pub fn new(label: &str) -> Scratch {
        let dir = tempfile::Builder::new()
            .prefix(&format!("irix-emu-{label}-"))
            .tempdir()
            .expect("create a temporary directory");
        let path = dir.path().canonicalize().expect("canonical temp dir");
        Scratch { _dir: dir, path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `rel` inside the directory, as a string for a command line.
    pub fn file(&self, rel: &str) -> String {
        self.path.join(rel).display().to_string()
    }

    /// Creates `rel` (and its parent directories) holding `contents`.
    pub fn write(&self, rel: &str, contents: &[u8]) -> PathBuf {
        let p = self.path.join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("create parent directories");
        }
        std::fs::write(&p, contents).expect("write test file");
        p
    }

    /// Creates `rel` as [`Scratch::write`] does, with mode 0755: qemu-user,
    /// like execve(2), refuses a file without execute permission.
    pub fn write_executable(&self, rel: &str, contents: &[u8]) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let p = self.write(rel, contents);
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755))
            .expect("make the file executable");
        p
    }

    /// Creates directory `rel` (and its parents).
    pub fn mkdir(&self, rel: &str) -> PathBuf {
        let p = self.path.join(rel);
        std::fs::create_dir_all(&p).expect("create directory");
        p
    }

    /// Keeps the directory and its contents after the test (for running
    /// what it holds by hand); returns its path.
    pub fn keep(self) -> PathBuf {
        // tempfile's path is the uncanonical one; ours names the same place.
        drop(self._dir.keep());
        self.path
    }

    /// The names of the entries directly inside, sorted.
    pub fn names(&self) -> Vec<String> {
        names_in(&self.path)
    }

    /// Every file and directory below this one, as sorted relative paths
    /// (symbolic links are listed, not followed).
    pub fn listing(&self) -> Vec<String> {
        let mut out = Vec::new();
        list_into(&self.path, &self.path, &mut out);
        out.sort();
        out
    }
}

/// The names of the entries of directory `dir`, sorted (none when it
/// cannot be read).
pub fn names_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn list_into(base: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        out.push(p.strip_prefix(base).unwrap_or(&p).display().to_string());
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            list_into(base, &p, out);
        }
    }
}
