//! The rule for tests that need something no repository can hold: an IRIX
//! root with SGI's own binaries (`IRIX_ROOT_53`, `IRIX_ROOT_71`) or a
//! qemu-irix binary (`QEMU_IRIX`).
//!
//! Such a test is ignored, and listed as ignored with the variable it
//! needs, unless the variable was set when the test was built:
//!
//! ```text
//! #[test]
//! #[cfg_attr(not(irix_root_53), ignore = "needs IRIX_ROOT_53")]
//! fn ido_5_3_cc_compiles() {
//!     let root = test_support::roots::irix_root_53(&["usr/bin/cc"]);
//!     // ...
//! }
//! ```
//!
//! `#[ignore]` is decided when the test is compiled, so the package's
//! build script ([`build_script_cfgs`]) turns each variable that is set
//! into a `cfg` of the same name in lower case (`irix_root_53`), and asks
//! cargo to rebuild when it changes: `IRIX_ROOT_53=/path cargo test` builds
//! and runs the tests; without it they are reported as ignored, never as
//! passed. A variable that is set but names a root without the files a
//! test needs fails that test, naming what is missing.
//!
//! Why not a runtime skip: libtest has no way for a running test to say
//! "ignored", so a test that returns early is counted as passed; a custom
//! harness (libtest-mimic) could, but every other test of the package would
//! then need registering by hand.
//!
//! Contents: [`VARIABLES`], [`build_script_cfgs`], [`irix_root_53`],
//! [`irix_root_71`], [`qemu_irix`], [`path_from`].

use std::path::{Path, PathBuf};

/// The environment variables this rule covers, with what each names.
pub const VARIABLES: [(&str, &str); 3] = [
    (
        "IRIX_ROOT_53",
        "an IRIX 5.3 root with IDO 5.3 (usr/bin/cc, lib/rld, usr/lib/libc.so.1)",
    ),
    ("IRIX_ROOT_71", "an IRIX root with IDO 7.1"),
    ("QEMU_IRIX", "a qemu-irix binary"),
];

/// What a package's build script prints for the rule: a `cfg` per
/// variable that is set and non-empty, every name declared to the
/// compiler's cfg check, and a rebuild when a variable changes. The build
/// script is `fn main() { print!("{}", test_support::roots::build_script_cfgs()) }`
/// (with test-support as a build-dependency) or the same lines written out.
pub fn build_script_cfgs() -> String {
    let mut out = String::new();
    for (var, _) in VARIABLES {
        let cfg = var.to_ascii_lowercase();
        out += &format!("cargo:rerun-if-env-changed={var}\n");
        out += &format!("cargo:rustc-check-cfg=cfg({cfg})\n");
        if std::env::var_os(var).is_some_and(|v| !v.is_empty()) {
            out += &format!("cargo:rustc-cfg={cfg}\n");
        }
    }
    out
}

/// The path in `var`, checked to hold each of `needs` (paths relative to
/// it, or `""` for the path itself when it names a file). Panics, naming the
/// variable and what is missing: a test only asks once its `cfg` says the
/// variable was set, so a missing file is a broken setup, not a skip.
pub fn path_from(var: &str, needs: &[&str]) -> PathBuf {
    let Some(value) = std::env::var_os(var).filter(|v| !v.is_empty()) else {
        let what = VARIABLES
            .iter()
            .find(|(v, _)| *v == var)
            .map_or("", |(_, w)| w);
        panic!("{var} is not set ({what}); it was when this test was built: rebuild, or set it");
    };
    let path = PathBuf::from(value);
    for need in needs {
        let p = if need.is_empty() {
            path.clone()
        } else {
            path.join(need)
        };
        assert!(
            p.exists(),
            "{var}={} has no {}",
            path.display(),
            if need.is_empty() { "such file" } else { need }
        );
    }
    path
}

/// The IRIX 5.3 root, holding `needs` (for example `usr/bin/cc`).
pub fn irix_root_53(needs: &[&str]) -> PathBuf {
    path_from("IRIX_ROOT_53", needs)
}

/// The IRIX root with IDO 7.1, holding `needs`.
pub fn irix_root_71(needs: &[&str]) -> PathBuf {
    path_from("IRIX_ROOT_71", needs)
}

/// The qemu-irix binary.
pub fn qemu_irix() -> PathBuf {
    path_from("QEMU_IRIX", &[""])
}

/// Whether `root` holds `file` (for tests that check an optional part of a
/// root, such as IDO's pixie, and say so when it is absent).
pub fn has(root: &Path, file: &str) -> bool {
    root.join(file).is_file()
}
