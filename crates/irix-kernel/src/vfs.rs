//! Guest path names, confined to a root directory (`--root`).
//!
//! Every guest path is resolved here, one component at a time, the way a
//! kernel's namei does: `.` is skipped, `..` never climbs above the guest
//! root, and each symbolic link met on the way is read and spliced in, an
//! absolute target restarting from the guest root. So no path, `..`, or link
//! (relative or absolute) can name a host file outside the root.
//!
//! Host directories can be bound into the guest (`--bind HOST[:GUEST]`), the
//! way mounts work: a bind's guest path names the host directory, the most
//! specific bind wins (a bind at `/tmp/work` inside another at `/tmp`), and
//! resolution stays component by component, so `..` and links inside a bound
//! tree never reach the host directory above it. A bind whose guest
//! directories do not exist in the root gets them as empty directories in a
//! private scratch directory; `/tmp`, `/usr/tmp` and `/var/tmp`, when the
//! root lacks them, are private writable directories there too. The scratch directory
//! is removed when the last `Vfs` sharing it is dropped (at exit).
//!
//! Known limit (documented in the README): resolution and the later host
//! open are two steps, so a host process racing to swap a directory for a
//! link between them could escape; guests alone cannot.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::Errno;

use crate::abi::limits::{MAX_SYMLINKS, PATH_MAX};

/// A host directory seen at a guest path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bind {
    /// The guest path's components (none: the guest root).
    guest: Vec<Vec<u8>>,
    host: PathBuf,
}

/// Why a set of binds cannot be set up.
#[derive(Debug, thiserror::Error)]
pub enum BindError {
    #[error("--bind {host}: not a directory")]
    NotADirectory { host: String },
    #[error("--bind {host}: {error}")]
    Host { host: String, error: std::io::Error },
    #[error("--bind {host}:{guest}: the guest path must be absolute")]
    RelativeGuest { host: String, guest: String },
    #[error("private /tmp: {0}")]
    Scratch(std::io::Error),
}

/// The guest directories a run gets when its root lacks them.
pub const PRIVATE_TMP: [&str; 3] = ["/tmp", "/usr/tmp", "/var/tmp"];
/// Devices a run gets when its root lacks them: the host's own, which hold
/// nothing of the host (IRIX 6's rld maps /dev/zero for its heap).
pub const PRIVATE_DEVICES: [&str; 2] = ["/dev/null", "/dev/zero"];

/// A guest file-system view: the host directory that is the guest's `/`,
/// and the host directories bound inside it.
#[derive(Clone, Debug)]
pub struct Vfs {
    root: PathBuf,
    /// Sorted by guest depth, deepest first: the first match is the most
    /// specific.
    binds: Vec<Bind>,
    /// The private scratch directory (removed when the last clone goes).
    scratch: Option<Rc<tempfile::TempDir>>,
    /// Whether [`PRIVATE_DEVICES`] are provided when the root lacks them.
    devices: bool,
}

/// The file system of the view a resolved guest path lies on, as a mount
/// would be on IRIX: the root, one of the binds (by its place in the view),
/// or the private devices. A name never moves between two of them (rename
/// and link are EXDEV), and the private devices, being the host's own, are
/// read-only (EROFS) to every change but their data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mount {
    Root,
    Bind(usize),
    Devices,
}

/// Whether a final symbolic link is followed (stat) or not (lstat, unlink).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Follow {
    Yes,
    No,
}

impl Vfs {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Vfs {
            root: root.into(),
            binds: Vec::new(),
            scratch: None,
            devices: false,
        }
    }

    /// A view of `root` with `binds` (host directory, absolute guest path)
    /// applied in order, and private `/tmp`, `/usr/tmp`, `/dev/null` and
    /// `/dev/zero` when `private_tmp` and the root lacks them.
    pub fn with_binds(
        root: impl Into<PathBuf>,
        binds: &[(PathBuf, String)],
        private_tmp: bool,
    ) -> Result<Self, BindError> {
        let mut vfs = Vfs::new(root);
        vfs.devices = private_tmp;
        if private_tmp {
            for dir in PRIVATE_TMP {
                if !vfs.is_dir(dir) {
                    let host = vfs.scratch_dir(&dir[1..].replace('/', "-"))?;
                    vfs.add_bind(host, dir)?;
                }
            }
        }
        for (host, guest) in binds {
            let shown = host.display().to_string();
            if !guest.starts_with('/') {
                return Err(BindError::RelativeGuest {
                    host: shown,
                    guest: guest.clone(),
                });
            }
            let host = host.canonicalize().map_err(|error| BindError::Host {
                host: shown.clone(),
                error,
            })?;
            if !host.is_dir() {
                return Err(BindError::NotADirectory { host: shown });
            }
            vfs.add_bind(host, guest)?;
        }
        Ok(vfs)
    }

    /// Whether `guest` names a directory in the view as it stands.
    fn is_dir(&self, guest: &str) -> bool {
        self.resolve("/", guest.as_bytes(), Follow::Yes)
            .is_ok_and(|(h, _)| h.is_dir())
    }

    /// A fresh directory inside the scratch directory (created on first use).
    fn scratch_dir(&mut self, name: &str) -> Result<PathBuf, BindError> {
        if self.scratch.is_none() {
            let dir = tempfile::Builder::new()
                .prefix("irix-emu-")
                .tempdir()
                .map_err(BindError::Scratch)?;
            self.scratch = Some(Rc::new(dir));
        }
        let base = self.scratch.as_ref().map(|d| d.path().to_path_buf());
        let mut n = 0;
        loop {
            let dir = base.clone().unwrap_or_default().join(format!(
                "{name}{}",
                if n == 0 { String::new() } else { n.to_string() }
            ));
            match std::fs::create_dir(&dir) {
                Ok(()) => return Ok(dir),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => n += 1,
                Err(e) => return Err(BindError::Scratch(e)),
            }
        }
    }

    /// Binds `host` at `guest`. Guest directories leading to it that the
    /// view lacks become a skeleton of empty directories in the scratch
    /// directory, so the bind point can be reached and listed.
    fn add_bind(&mut self, host: PathBuf, guest: &str) -> Result<(), BindError> {
        let mut parts: Vec<Vec<u8>> = Vec::new();
        push_components(&mut parts, guest.as_bytes());
        parts.reverse();
        for depth in 1..parts.len() {
            let prefix: String = parts[..depth]
                .iter()
                .map(|c| format!("/{}", String::from_utf8_lossy(c)))
                .collect();
            if !self.is_dir(&prefix) {
                let skeleton = self.scratch_dir("skeleton")?;
                let mut inner = skeleton.clone();
                for c in &parts[depth..] {
                    inner.push(OsStr::from_bytes(c));
                }
                std::fs::create_dir_all(&inner).map_err(BindError::Scratch)?;
                self.insert_bind(parts[..depth].to_vec(), skeleton);
                break;
            }
        }
        // The bind point itself, listed in its parent when that is ours.
        if parts.len() > 1 {
            let parent: String = parts[..parts.len() - 1]
                .iter()
                .map(|c| format!("/{}", String::from_utf8_lossy(c)))
                .collect();
            if let Ok((parent_host, _)) = self.resolve("/", parent.as_bytes(), Follow::Yes) {
                if self.is_scratch(&parent_host) {
                    let _ = std::fs::create_dir_all(
                        parent_host.join(OsStr::from_bytes(&parts[parts.len() - 1])),
                    );
                }
            }
        }
        self.insert_bind(parts, host);
        Ok(())
    }

    /// The names of the binds directly inside the guest directory `dir` (an
    /// absolute, resolved guest path): entries a listing of `dir` must show
    /// even when the directory underneath lacks them, as a mount point is.
    pub fn bind_points_in(&self, dir: &str) -> Vec<Vec<u8>> {
        let mut parts: Vec<Vec<u8>> = Vec::new();
        push_components(&mut parts, dir.as_bytes());
        parts.reverse();
        self.binds
            .iter()
            .filter(|b| b.guest.len() == parts.len() + 1 && b.guest.starts_with(&parts))
            .filter_map(|b| b.guest.last().cloned())
            .collect()
    }

    fn is_scratch(&self, host: &Path) -> bool {
        self.scratch
            .as_ref()
            .is_some_and(|d| host.starts_with(d.path()))
    }

    fn insert_bind(&mut self, guest: Vec<Vec<u8>>, host: PathBuf) {
        self.binds.retain(|b| b.guest != guest);
        self.binds.push(Bind { guest, host });
        self.binds.sort_by_key(|b| std::cmp::Reverse(b.guest.len()));
    }

    /// The guest path at which the host directory `host` (canonical) is
    /// seen, if any: through the most specific bind holding it, else the
    /// root. Only a path that resolves back to `host` counts (a more
    /// specific bind may hide it).
    pub fn guest_path_of(&self, host: &Path) -> Option<String> {
        let candidates = self
            .binds
            .iter()
            .map(|b| (b.guest.clone(), b.host.as_path()))
            .chain(std::iter::once((Vec::new(), self.root.as_path())));
        let mut best: Option<(usize, String)> = None;
        for (guest, base) in candidates {
            let Ok(rest) = host.strip_prefix(base) else {
                continue;
            };
            let mut path: String = guest
                .iter()
                .map(|c| format!("/{}", String::from_utf8_lossy(c)))
                .collect();
            for c in rest.components() {
                path.push('/');
                path.push_str(&c.as_os_str().to_string_lossy());
            }
            if path.is_empty() {
                path.push('/');
            }
            let depth = base.components().count();
            if best.as_ref().is_none_or(|(d, _)| depth > *d)
                && self
                    .resolve("/", path.as_bytes(), Follow::Yes)
                    .is_ok_and(|(h, _)| h == host)
            {
                best = Some((depth, path));
            }
        }
        best.map(|(_, p)| p)
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The host directory holding the private /tmp, /usr/tmp, /var/tmp and
    /// bind skeletons, if the view has one (removed when the last clone of
    /// the view goes).
    pub fn scratch_path(&self) -> Option<&Path> {
        self.scratch.as_ref().map(|d| d.path())
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
            // Looked up as a whole path: the component may be a bind point.
            let host = {
                let mut probe = done.clone();
                probe.push(name.clone());
                self.host_path(&probe)
            };
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
                // The root lacks /dev: the private devices' directory.
                Err(_) if self.devices && done.is_empty() && name == b"dev" => done.push(name),
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
        let host = self.host_path(&done);
        if self.devices && PRIVATE_DEVICES.contains(&guest.as_str()) && !host.exists() {
            return Ok((PathBuf::from(&guest), guest));
        }
        Ok((host, guest))
    }

    /// The file system holding the resolved guest path `guest` (absolute,
    /// normalised, as [`Vfs::resolve`] returns it).
    pub fn mount_of(&self, guest: &str) -> Mount {
        if self.is_private_device(guest) {
            return Mount::Devices;
        }
        let parts = guest_components(guest);
        match self.binds.iter().position(|b| parts.starts_with(&b.guest)) {
            Some(i) => Mount::Bind(i),
            None => Mount::Root,
        }
    }

    /// Whether the resolved guest path `guest` is the top of a file system
    /// of the view (the root or a bind point): such a directory cannot be
    /// removed or renamed (EBUSY), as a mount point cannot.
    pub fn is_mount_point(&self, guest: &str) -> bool {
        let parts = guest_components(guest);
        parts.is_empty() || self.binds.iter().any(|b| b.guest == parts)
    }

    /// Whether the resolved guest path `guest` is a mount point or a
    /// directory with one below it: removing or renaming it would take a
    /// file system of the view with it (EBUSY).
    pub fn holds_mount_point(&self, guest: &str) -> bool {
        let parts = guest_components(guest);
        parts.is_empty() || self.binds.iter().any(|b| b.guest.starts_with(&parts))
    }

    /// Whether `guest` is one of [`PRIVATE_DEVICES`] lent by the host
    /// because the root lacks it.
    fn is_private_device(&self, guest: &str) -> bool {
        self.devices
            && PRIVATE_DEVICES.contains(&guest)
            && !self.host_path(&guest_components(guest)).exists()
    }

    /// The host path of a resolved guest path: under the most specific
    /// bind whose guest path begins it, else under the root.
    fn host_path(&self, components: &[Vec<u8>]) -> PathBuf {
        let (mut p, rest) = match self.binds.iter().find(|b| components.starts_with(&b.guest)) {
            Some(b) => (b.host.clone(), &components[b.guest.len()..]),
            None => (self.root.clone(), components),
        };
        for c in rest {
            p.push(OsStr::from_bytes(c));
        }
        p
    }
}

/// The components of an absolute, normalised guest path, in order.
fn guest_components(guest: &str) -> Vec<Vec<u8>> {
    let mut parts = Vec::new();
    push_components(&mut parts, guest.as_bytes());
    parts.reverse();
    parts
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

    /// A root, a host tree to bind with a secret beside it, as (dir, root, tree).
    fn bind_sandbox() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(base.join("root/usr/lib")).unwrap();
        std::fs::create_dir_all(base.join("host/work/sub")).unwrap();
        std::fs::write(base.join("host/work/sub/file.c"), "int x;").unwrap();
        std::fs::write(base.join("host/secret"), "outside").unwrap();
        (dir, base.join("root"), base.join("host/work"))
    }

    #[test]
    fn a_bind_shows_a_host_directory_at_its_guest_path() {
        let (_d, root, work) = bind_sandbox();
        let vfs = Vfs::with_binds(&root, &[(work.clone(), "/src".into())], false).unwrap();
        let (host, guest) = vfs.resolve("/", b"/src/sub/file.c", Follow::Yes).unwrap();
        assert_eq!(host, work.join("sub/file.c"));
        assert_eq!(guest, "/src/sub/file.c");
    }

    #[test]
    fn dot_dot_from_a_bind_goes_to_the_guest_parent_not_the_host_one() {
        let (_d, root, work) = bind_sandbox();
        let vfs = Vfs::with_binds(&root, &[(work.clone(), "/src".into())], false).unwrap();
        let (host, guest) = vfs.resolve("/src", b"../secret", Follow::Yes).unwrap();
        assert_eq!(guest, "/secret");
        assert_eq!(
            host,
            root.join("secret"),
            "the root's, which does not exist"
        );
        let (host, _) = vfs
            .resolve("/src/sub", b"../../usr/lib", Follow::Yes)
            .unwrap();
        assert_eq!(host, root.join("usr/lib"));
    }

    #[test]
    fn links_in_a_bound_tree_stay_in_the_guest() {
        let (_d, root, work) = bind_sandbox();
        symlink("../secret", work.join("up")).unwrap();
        symlink("/usr/lib", work.join("abs")).unwrap();
        let vfs = Vfs::with_binds(&root, &[(work.clone(), "/src".into())], false).unwrap();
        let (host, _) = vfs.resolve("/", b"/src/up", Follow::Yes).unwrap();
        assert_eq!(host, root.join("secret"), "../ from /src is the guest's /");
        let (host, _) = vfs.resolve("/", b"/src/abs", Follow::Yes).unwrap();
        assert_eq!(host, root.join("usr/lib"));
    }

    #[test]
    fn the_most_specific_bind_wins_and_missing_parents_are_made() {
        let (_d, root, work) = bind_sandbox();
        let sub = work.join("sub");
        let vfs = Vfs::with_binds(
            &root,
            &[
                (sub.clone(), "/a/b/inner".into()),
                (work.clone(), "/a/b".into()),
            ],
            true,
        )
        .unwrap();
        // /a/b/inner is the more specific bind, whatever the order given.
        let (host, _) = vfs.resolve("/", b"/a/b/inner/file.c", Follow::Yes).unwrap();
        assert_eq!(host, sub.join("file.c"));
        // /a did not exist in the root: it is a private directory.
        let (host, _) = vfs.resolve("/", b"/a", Follow::Yes).unwrap();
        assert!(host.is_dir());
        assert!(!host.starts_with(&root));
    }

    #[test]
    fn private_tmp_is_writable_nests_binds_and_goes_away() {
        let (_d, root, work) = bind_sandbox();
        let scratch;
        {
            let vfs = Vfs::with_binds(&root, &[(work.clone(), "/tmp/work".into())], true).unwrap();
            let (tmp, _) = vfs.resolve("/", b"/tmp/x", Follow::Yes).unwrap();
            std::fs::write(&tmp, "scratch").unwrap();
            assert!(!tmp.starts_with(&root));
            let (usr_tmp, _) = vfs.resolve("/", b"/usr/tmp", Follow::Yes).unwrap();
            assert!(usr_tmp.is_dir());
            let (nested, _) = vfs.resolve("/", b"/tmp/work/sub", Follow::Yes).unwrap();
            assert_eq!(nested, work.join("sub"));
            // The bind point is listed in the private /tmp.
            assert!(tmp.parent().unwrap().join("work").is_dir());
            scratch = tmp;
        }
        assert!(!scratch.exists(), "removed with the last view");
        assert!(
            work.join("sub/file.c").exists(),
            "bound trees are left alone"
        );
    }

    #[test]
    fn the_guest_path_of_a_host_directory_goes_through_binds() {
        let (_d, root, work) = bind_sandbox();
        let vfs = Vfs::with_binds(&root, &[(work.clone(), "/src".into())], false).unwrap();
        assert_eq!(
            vfs.guest_path_of(&work.join("sub")).as_deref(),
            Some("/src/sub")
        );
        assert_eq!(
            vfs.guest_path_of(&root.join("usr")).as_deref(),
            Some("/usr")
        );
        assert_eq!(vfs.guest_path_of(&root).as_deref(), Some("/"));
        assert_eq!(vfs.guest_path_of(work.parent().unwrap()), None);
    }

    #[test]
    fn each_bind_is_a_file_system_of_its_own_and_its_top_a_mount_point() {
        let (_d, root, work) = bind_sandbox();
        let vfs = Vfs::with_binds(&root, &[(work.clone(), "/src".into())], true).unwrap();
        assert_eq!(vfs.mount_of("/usr/lib"), Mount::Root);
        assert_eq!(vfs.mount_of("/src/sub"), vfs.mount_of("/src"));
        assert_ne!(vfs.mount_of("/src/sub"), Mount::Root);
        assert_ne!(vfs.mount_of("/tmp/x"), vfs.mount_of("/src/x"));
        assert_eq!(vfs.mount_of("/dev/null"), Mount::Devices);
        assert!(vfs.is_mount_point("/"));
        assert!(vfs.is_mount_point("/src"));
        assert!(vfs.is_mount_point("/tmp"));
        assert!(!vfs.is_mount_point("/src/sub"));
        assert!(vfs.holds_mount_point("/usr"), "/usr/tmp is a private bind");
        assert!(!vfs.holds_mount_point("/usr/lib"));
        assert!(vfs.holds_mount_point("/"));
    }

    #[test]
    fn private_devices_appear_only_when_the_root_lacks_them() {
        let (_d, root, _work) = bind_sandbox();
        let vfs = Vfs::with_binds(&root, &[], true).unwrap();
        let (host, _) = vfs.resolve("/", b"/dev/zero", Follow::Yes).unwrap();
        assert_eq!(host, Path::new("/dev/zero"));
        let plain = Vfs::new(&root);
        assert_eq!(
            plain.resolve("/", b"/dev/zero", Follow::Yes),
            Err(Errno::ENOENT)
        );
    }
}
