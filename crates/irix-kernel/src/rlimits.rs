//! A process's resource limits (getrlimit(2)): a soft and a hard value per
//! resource, inherited across fork and exec. The kernel enforces the ones
//! it can (see `Resource`); the others are kept and reported.

/// The resources, numbered as IRIX's <sys/resource.h> numbers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resource {
    /// CPU seconds (user + system, on the virtual clock): SIGXCPU at the
    /// soft limit and each second after it, SIGKILL at the hard limit.
    Cpu = 0,
    /// The largest file a write or truncate may make: SIGXFSZ and EFBIG.
    Fsize = 1,
    /// The heap (brk) size: ENOMEM.
    Data = 2,
    /// The stack size: the stack area ends there (SIGSEGV below it).
    Stack = 3,
    /// Core file size: kept (irix-emu writes no core files).
    Core = 4,
    /// Open descriptors: EMFILE.
    Nofile = 5,
    /// Mapped address space: kept, not enforced (the run's --max-memory is).
    Vmem = 6,
    /// Resident set size: kept (advice to the pager IRIX has and irix-emu
    /// has not).
    Rss = 7,
}

/// How many resources there are (RLIM_NLIMITS).
pub const RLIM_NLIMITS: usize = 8;

impl Resource {
    pub fn from_number(n: u32) -> Option<Resource> {
        use Resource::*;
        [Cpu, Fsize, Data, Stack, Core, Nofile, Vmem, Rss]
            .get(n as usize)
            .copied()
    }
}

/// No limit. The 32-bit calls show it as RLIM_INFINITY (0x7fffffff,
/// getrlimit(2)), the 64-bit ones as 0x7fffffffffffffff.
pub const INFINITY: u64 = u64::MAX;
pub const RLIM32_INFINITY: u32 = 0x7fff_ffff;
pub const RLIM64_INFINITY: u64 = 0x7fff_ffff_ffff_ffff;

/// One resource's pair of limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    pub soft: u64,
    pub hard: u64,
}

impl Limit {
    const UNLIMITED: Limit = Limit {
        soft: INFINITY,
        hard: INFINITY,
    };
}

/// Every resource's limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits([Limit; RLIM_NLIMITS]);

impl Limits {
    /// What a run starts with: no limit but the descriptors (OPEN_MAX) and
    /// the stack (the area irix-emu reserves for it, which cannot grow).
    pub fn new(open_max: u64, stack_max: u64) -> Self {
        let mut all = [Limit::UNLIMITED; RLIM_NLIMITS];
        all[Resource::Nofile as usize] = Limit {
            soft: open_max,
            hard: open_max,
        };
        all[Resource::Stack as usize] = Limit {
            soft: stack_max,
            hard: stack_max,
        };
        Limits(all)
    }

    pub fn get(&self, r: Resource) -> Limit {
        self.0[r as usize]
    }

    /// The soft limit of `r` (what is enforced).
    pub fn soft(&self, r: Resource) -> u64 {
        self.0[r as usize].soft
    }

    /// setrlimit(2)'s rules: "Soft limits may be changed by a process to
    /// any value that is less than or equal to the hard limit. A process
    /// may (irreversibly) lower its hard limit to any value that is greater
    /// than or equal to the soft limit. Only a the super-user can raise a
    /// hard limit." EINVAL when soft > hard, EPERM when the hard limit
    /// would rise.
    pub fn set(&mut self, r: Resource, new: Limit, superuser: bool) -> Result<(), crate::Errno> {
        if new.soft > new.hard {
            return Err(crate::Errno::EINVAL);
        }
        if new.hard > self.0[r as usize].hard && !superuser {
            return Err(crate::Errno::EPERM);
        }
        self.0[r as usize] = new;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn soft_may_move_below_hard_and_hard_only_down() {
        let mut l = Limits::new(200, 1 << 20);
        let r = Resource::Nofile;
        assert_eq!(
            l.set(
                r,
                Limit {
                    soft: 10,
                    hard: 200
                },
                false
            ),
            Ok(())
        );
        assert_eq!(
            l.set(
                r,
                Limit {
                    soft: 200,
                    hard: 200
                },
                false
            ),
            Ok(())
        );
        assert_eq!(
            l.set(r, Limit { soft: 20, hard: 10 }, false),
            Err(crate::Errno::EINVAL)
        );
        assert_eq!(l.set(r, Limit { soft: 10, hard: 50 }, false), Ok(()));
        assert_eq!(
            l.set(r, Limit { soft: 10, hard: 51 }, false),
            Err(crate::Errno::EPERM)
        );
        assert_eq!(l.get(r), Limit { soft: 10, hard: 50 });
    }
}
