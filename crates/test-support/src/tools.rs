//! The rule for what a test needs from outside the repository: an outside
//! tool (the MIPS cross gcc, qemu-mips, gprof, gdb, go) or a file that is
//! built rather than written. When it is missing the test prints one
//! "SKIP: ..." line and passes, unless `IRIX_EMU_REQUIRE_TOOLS=1` (CI sets
//! it), when it fails instead: a CI run never passes by skipping.
//!
//! Contents: [`REQUIRE_TOOLS`], [`tools_required`], [`skip_or_fail`],
//! [`require_tool`], [`require_file`], [`find_on_path`].

use std::path::{Path, PathBuf};

/// The environment variable that turns a skip into a failure.
pub const REQUIRE_TOOLS: &str = "IRIX_EMU_REQUIRE_TOOLS";

/// Whether `IRIX_EMU_REQUIRE_TOOLS=1`.
pub fn tools_required() -> bool {
    std::env::var(REQUIRE_TOOLS).as_deref() == Ok("1")
}

/// Something the test needs is missing: prints "SKIP: `what`" and returns
/// false, or panics when [`tools_required`].
pub fn skip_or_fail(what: &str) -> bool {
    if tools_required() {
        panic!("{what}, and {REQUIRE_TOOLS}=1");
    }
    eprintln!("SKIP: {what}");
    false
}

/// Whether the outside tool `name` is on PATH (otherwise [`skip_or_fail`]).
pub fn require_tool(name: &str) -> bool {
    find_on_path(name).is_some() || skip_or_fail(&format!("{name} not found"))
}

/// Whether `path` is a file (otherwise [`skip_or_fail`], naming it as
/// `shown`): for programs that a build script makes.
pub fn require_file(path: &Path, shown: &str) -> bool {
    path.is_file() || skip_or_fail(&format!("{shown} is not built yet"))
}

/// The first `name` in the directories of PATH.
pub fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}
