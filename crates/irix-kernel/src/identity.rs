//! Who a process is: its user and group IDs (real, effective, saved), its
//! supplementary groups, its process group and session, and its nice
//! value. Fork copies all of it; exec keeps it (no guest file is
//! set-user-ID: irix-emu never changes a host file's owner or mode bits
//! that way).
//!
//! The guest runs as an unprivileged user, uid 100 and gid 100 (fixed, so
//! runs are reproducible on any host), and so gets what such a user gets
//! from setuid(2), setgroups(2), nice(2) and the rest: never the super-
//! user's powers.

use crate::process::Pid;

/// The user and group every guest process starts as.
pub const GUEST_UID: u32 = 100;
pub const GUEST_GID: u32 = 100;

/// The nice value a process starts with, and its bounds (nice(2): "A
/// maximum nice value of 40 and a minimum nice value of 0 are imposed by
/// the system. (The default nice value is 20.)").
pub const NZERO: u32 = 20;
pub const NICE_MAX: u32 = 40;

/// The most supplementary groups a process may have (NGROUPS_MAX, which
/// sysconf(_SC_NGROUPS_MAX) reports).
pub const NGROUPS_MAX: usize = 16;

/// A process's credentials and job-control identity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    pub ruid: u32,
    pub euid: u32,
    /// The saved set-user-ID (setuid(2)).
    pub suid: u32,
    pub rgid: u32,
    pub egid: u32,
    pub sgid: u32,
    /// Supplementary group IDs (getgroups(2)).
    pub groups: Vec<u32>,
    /// The process group.
    pub pgid: Pid,
    /// The session.
    pub sid: Pid,
    /// The nice value, 0..=40, 20 by default (nice(2)).
    pub nice: u32,
}

impl Identity {
    /// The first process of a run: the guest user, leading its own process
    /// group and session (as a job a shell starts leads its group).
    pub fn first(pid: Pid) -> Self {
        Identity {
            ruid: GUEST_UID,
            euid: GUEST_UID,
            suid: GUEST_UID,
            rgid: GUEST_GID,
            egid: GUEST_GID,
            sgid: GUEST_GID,
            groups: vec![GUEST_GID],
            pgid: pid,
            sid: pid,
            nice: NZERO,
        }
    }

    /// Whether the process has the super-user's privilege (never, for the
    /// guest user; kept as a test so each call states the rule its page
    /// gives).
    pub fn is_superuser(&self) -> bool {
        self.euid == 0
    }
}
