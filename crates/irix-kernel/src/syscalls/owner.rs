//! Who owns a file, as the guest sees it, and chown(2)'s rules.
//!
//! The guest runs as one unprivileged user ([`GUEST_UID`], [`GUEST_GID`]).
//! The host files it can reach belong to whoever created them on the host;
//! those of the user running irix-emu are the guest's own, so stat shows
//! them as owned by `GUEST_UID` (group `GUEST_GID` when their host group is
//! the emulator's), and every other owner keeps its host number (0 for
//! root's files). So a listing is the same on every host for the files a
//! run makes.
//!
//! chown never changes a host file's owner. The guest is no super-user and
//! IRIX's `restricted_chown` is taken as enabled (chown(2): "only the
//! super-user can change the owner of the file ... The owner of the file
//! may change the group ownership only to those groups of which he is a
//! member"; pathconf(_PC_CHOWN_RESTRICTED) says 1): a chown that names the
//! file's own owner and one of the guest's groups succeeds, anything else
//! is EPERM, and no host ownership changes hands.

use std::fs::Metadata;
use std::os::unix::fs::MetadataExt;

use crate::identity::{GUEST_GID, GUEST_UID};
use crate::Errno;

/// The user running irix-emu, whose files are the guest's.
fn host_ids() -> (u32, u32) {
    // SAFETY: geteuid and getegid only read the process's credentials.
    unsafe { (libc::geteuid(), libc::getegid()) }
}

/// The owner and group of a host file as the guest sees them.
pub fn guest_ids(m: &Metadata) -> (u32, u32) {
    let (uid, gid) = host_ids();
    (
        if m.uid() == uid { GUEST_UID } else { m.uid() },
        if m.gid() == gid { GUEST_GID } else { m.gid() },
    )
}

/// Whether the guest owns the file (chown, chmod, utime's owner rules).
pub fn owns(m: &Metadata) -> bool {
    guest_ids(m).0 == GUEST_UID
}

/// The largest user or group ID (<limits.h> UID_MAX).
pub const UID_MAX: u32 = 60002;
/// chown's "leave it unchanged" value (-1).
const UNCHANGED: u32 = u32::MAX;

/// What a permitted chown does to the host file.
#[derive(Debug, PartialEq, Eq)]
pub enum Chown {
    /// Nothing changes hands; the set-ID bits are cleared (chown(2): by
    /// other than the super-user, "the set-user-ID and set-group-ID bits
    /// of the file mode ... will be cleared").
    Keep,
    /// The file moves to the guest's group: the host file takes the
    /// emulator's own group (its owner stays).
    ToGuestGroup,
}

/// chown(2)'s checks for a file the guest sees owned by `(uid, gid)`, to
/// `owner` and `group` (each -1 for "unchanged"): EINVAL out of range,
/// EPERM for a file the guest does not own or a change `restricted_chown`
/// forbids.
pub fn check_chown((uid, gid): (u32, u32), owner: u32, group: u32) -> Result<Chown, Errno> {
    let valid = |id: u32| id == UNCHANGED || id <= UID_MAX;
    if !valid(owner) || !valid(group) {
        return Err(Errno::EINVAL);
    }
    if uid != GUEST_UID {
        return Err(Errno::EPERM);
    }
    if owner != UNCHANGED && owner != uid {
        return Err(Errno::EPERM);
    }
    match group {
        UNCHANGED => Ok(Chown::Keep),
        g if g == gid => Ok(Chown::Keep),
        GUEST_GID => Ok(Chown::ToGuestGroup),
        _ => Err(Errno::EPERM),
    }
}

/// The host file a chown changes: by path (chown after resolution,
/// lchown: a final link is not followed) or open (fchown).
pub enum Target<'a> {
    Path(&'a std::path::Path),
    File(&'a std::fs::File),
}

/// Carries out a permitted chown on the host file.
pub fn apply_chown(target: Target, m: &Metadata, what: Chown) -> Result<(), Errno> {
    use std::os::unix::fs::PermissionsExt;
    let io = |e: std::io::Error| crate::files::io_errno(&e);
    if what == Chown::ToGuestGroup {
        let gid = Some(host_ids().1);
        match target {
            Target::Path(p) => std::os::unix::fs::lchown(p, None, gid),
            Target::File(f) => std::os::unix::fs::fchown(f, None, gid),
        }
        .map_err(io)?;
    }
    // Clearing the set-ID bits also marks st_ctime, as chown(2) says a
    // successful call does. A link has no mode of its own to set.
    if !m.file_type().is_symlink() {
        let perms = std::fs::Permissions::from_mode(m.mode() & 0o7777 & !0o6000);
        match target {
            Target::Path(p) => std::fs::set_permissions(p, perms),
            Target::File(f) => f.set_permissions(perms),
        }
        .map_err(io)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINE: (u32, u32) = (GUEST_UID, GUEST_GID);

    /// chown(2): "Either the owner or group ID may be left unchanged by
    /// specifying it as -1."
    #[test]
    fn minus_one_leaves_owner_and_group_unchanged() {
        assert_eq!(check_chown(MINE, UNCHANGED, UNCHANGED), Ok(Chown::Keep));
        assert_eq!(check_chown(MINE, GUEST_UID, GUEST_GID), Ok(Chown::Keep));
    }

    /// chown(2): "if the variable restricted_chown is enabled ... only the
    /// super-user can change the owner of the file"; "The owner of the file
    /// may change the group ownership only to those groups of which he is a
    /// member."
    #[test]
    fn restricted_chown_keeps_files_from_being_given_away() {
        assert_eq!(check_chown(MINE, 0, UNCHANGED), Err(Errno::EPERM));
        assert_eq!(check_chown(MINE, UNCHANGED, 0), Err(Errno::EPERM));
        assert_eq!(
            check_chown((GUEST_UID, 20), UNCHANGED, GUEST_GID),
            Ok(Chown::ToGuestGroup)
        );
    }

    /// chown(2): EPERM "The effective user ID does not match the owner of
    /// the file"; EINVAL "The owner or group value is out of the valid
    /// range of -1, MAXUID."
    #[test]
    fn another_owners_file_is_eperm_and_ids_past_uid_max_einval() {
        assert_eq!(check_chown((0, 0), UNCHANGED, UNCHANGED), Err(Errno::EPERM));
        assert_eq!(
            check_chown(MINE, UID_MAX + 1, UNCHANGED),
            Err(Errno::EINVAL)
        );
        assert_eq!(
            check_chown(MINE, UNCHANGED, UID_MAX + 1),
            Err(Errno::EINVAL)
        );
    }
}
