//! Guest path names, confined to a root directory (`--root`).
//!
//! Every guest path is resolved here, one component at a time, the way a
//! kernel's namei does: `.` is skipped, `..` never climbs above the guest
//! root, and each symbolic link met on the way is read and spliced in, an
//! absolute target restarting from the guest root. So no path, `..`, or link
//! (relative or absolute) can name a host file outside the root.
//!
//! Known limit (documented in the README): resolution and the later host
//! open are two steps, so a host process racing to swap a directory for a
//! link between them could escape; guests alone cannot.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::Errno;

use crate::abi::limits::{MAX_SYMLINKS, PATH_MAX};

/// A guest file-system view: the host directory that is the guest's `/`.
#[derive(Clone, Debug)]
pub struct Vfs {
    root: PathBuf,
}

/// Whether a final symbolic link is followed (stat) or not (lstat, unlink).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Follow {
    Yes,
    No,
}

impl Vfs {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Vfs { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Resolves `path` (relative to the guest directory `cwd`, itself an
    /// absolute guest path) to a host path inside the root, and returns the
    /// normalised guest path too. A missing final component is fine (creat);
    /// a missing directory on the way is ENOENT.
    pub fn resolve(
        &self,
        cwd: &str,
        path: &[u8],
        follow: Follow,
    ) -> Result<(PathBuf, String), Errno> {
        if path.is_empty() {
            return Err(Errno::ENOENT);
        }
        if path.len() > PATH_MAX {
            return Err(Errno::ENAMETOOLONG);
        }
        // Components still to walk, in reverse order (a stack), and the
        // components resolved so far (the guest path below the root).
        let mut todo: Vec<Vec<u8>> = Vec::new();
        push_components(&mut todo, path);
        let mut done: Vec<Vec<u8>> = Vec::new();
        if path[0] != b'/' {
            // Pushed last, so walked first: the cwd, then the path.
            push_components(&mut todo, cwd.as_bytes());
        }
        let mut links = 0;
        while let Some(name) = todo.pop() {
            match name.as_slice() {
                b"." => continue,
                b".." => {
                    done.pop();
                    continue;
                }
                _ => {}
            }
            if name.len() > 255 {
                return Err(Errno::ENAMETOOLONG);
            }
            let host = self.host_path(&done).join(OsStr::from_bytes(&name));
            let is_last = todo.is_empty();
            match std::fs::symlink_metadata(&host) {
                Ok(meta)
                    if meta.file_type().is_symlink() && (!is_last || follow == Follow::Yes) =>
                {
                    links += 1;
                    if links > MAX_SYMLINKS {
                        return Err(Errno::ELOOP);
                    }
                    let target = std::fs::read_link(&host).map_err(|_| Errno::EIO)?;
                    let target = target.as_os_str().as_bytes();
                    if target.first() == Some(&b'/') {
                        done.clear();
                    }
                    push_components(&mut todo, target);
                }
                Ok(meta) => {
                    if !is_last && !meta.is_dir() {
                        return Err(Errno::ENOTDIR);
                    }
                    done.push(name);
                }
                Err(_) if is_last => done.push(name),
                Err(_) => return Err(Errno::ENOENT),
            }
        }
        let guest = if done.is_empty() {
            "/".to_string()
        } else {
            done.iter()
                .map(|c| format!("/{}", String::from_utf8_lossy(c)))
                .collect()
        };
        Ok((self.host_path(&done), guest))
    }

    fn host_path(&self, components: &[Vec<u8>]) -> PathBuf {
        let mut p = self.root.clone();
        for c in components {
            p.push(OsStr::from_bytes(c));
        }
        p
    }
}

/// Pushes the components of `path` so that the first is popped first.
fn push_components(stack: &mut Vec<Vec<u8>>, path: &[u8]) {
    let parts: Vec<Vec<u8>> = path
        .split(|&b| b == b'/')
        .filter(|c| !c.is_empty())
        .map(<[u8]>::to_vec)
        .collect();
    stack.extend(parts.into_iter().rev());
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn sandbox() -> (tempfile::TempDir, Vfs) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("root/etc")).unwrap();
        std::fs::write(dir.path().join("root/etc/motd"), "inside").unwrap();
        std::fs::write(dir.path().join("secret"), "outside").unwrap();
        let vfs = Vfs::new(dir.path().join("root"));
        (dir, vfs)
    }

    #[test]
    fn absolute_guest_paths_resolve_inside_the_root() {
        let (_d, vfs) = sandbox();
        let (host, guest) = vfs.resolve("/", b"/etc/motd", Follow::Yes).unwrap();
        assert_eq!(host, vfs.root().join("etc/motd"));
        assert_eq!(guest, "/etc/motd");
    }

    #[test]
    fn dot_dot_cannot_climb_above_the_root() {
        let (_d, vfs) = sandbox();
        let (host, _) = vfs
            .resolve("/etc", b"../../../secret", Follow::Yes)
            .unwrap();
        assert_eq!(host, vfs.root().join("secret"));
        assert!(!host.exists());
    }

    #[test]
    fn absolute_symlinks_restart_at_the_guest_root() {
        let (d, vfs) = sandbox();
        symlink("/", d.path().join("root/up")).unwrap();
        symlink(d.path().join("secret"), d.path().join("root/abs")).unwrap();
        let (host, _) = vfs.resolve("/", b"/up/etc/motd", Follow::Yes).unwrap();
        assert_eq!(host, vfs.root().join("etc/motd"));
        // The link names a host path outside the root: inside the guest it
        // is looked up under the root, where it does not exist.
        assert_eq!(vfs.resolve("/", b"abs", Follow::Yes), Err(Errno::ENOENT));
    }

    #[test]
    fn relative_symlinks_with_dot_dot_stay_inside() {
        let (d, vfs) = sandbox();
        symlink("../../secret", d.path().join("root/etc/rel")).unwrap();
        let (host, _) = vfs.resolve("/", b"/etc/rel", Follow::Yes).unwrap();
        assert_eq!(host, vfs.root().join("secret"));
    }

    #[test]
    fn symlink_loops_are_eloop() {
        let (d, vfs) = sandbox();
        symlink("loop", d.path().join("root/loop")).unwrap();
        assert_eq!(vfs.resolve("/", b"/loop", Follow::Yes), Err(Errno::ELOOP));
        assert!(vfs.resolve("/", b"/loop", Follow::No).is_ok());
    }

    #[test]
    fn missing_directories_are_enoent_and_files_are_not_directories() {
        let (_d, vfs) = sandbox();
        assert_eq!(
            vfs.resolve("/", b"/nope/x", Follow::Yes),
            Err(Errno::ENOENT)
        );
        assert_eq!(
            vfs.resolve("/", b"/etc/motd/x", Follow::Yes),
            Err(Errno::ENOTDIR)
        );
        assert_eq!(vfs.resolve("/", b"", Follow::Yes), Err(Errno::ENOENT));
    }
}
