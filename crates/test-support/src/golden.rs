//! Golden files: what a program prints, or the code the compiled tier
//! generates, kept in a file beside the tests and compared exactly.
//!
//! `IRIX_EMU_BLESS=1 cargo test ...` writes each golden file from what the
//! test saw instead of comparing (then review the diff and commit it); a
//! missing golden file fails with the same hint.
//!
//! Contents: [`BLESS`], [`blessing`], [`check`].

use std::path::Path;

/// The environment variable that rewrites golden files.
pub const BLESS: &str = "IRIX_EMU_BLESS";

/// Whether `IRIX_EMU_BLESS=1`.
pub fn blessing() -> bool {
    std::env::var(BLESS).as_deref() == Ok("1")
}

/// Compares `actual` with the golden file `path`, or writes it there when
/// [`blessing`]. A mismatch panics with the first differing line of each
/// and how to bless.
pub fn check(path: &Path, actual: &str) {
    if blessing() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .unwrap_or_else(|e| panic!("creating {}: {e}", dir.display()));
        }
        if std::fs::read_to_string(path).ok().as_deref() != Some(actual) {
            std::fs::write(path, actual)
                .unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        }
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run the test with {BLESS}=1 to write it",
            path.display()
        )
    });
    if expected == actual {
        return;
    }
    let line = expected
        .lines()
        .zip(actual.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(expected.lines().count().min(actual.lines().count()));
    panic!(
        "{} differs at line {}:\n  expected: {:?}\n  actual:   {:?}\n\
         (the whole output is below; if the change is intended, rerun with {BLESS}=1 and review the diff)\n{actual}",
        path.display(),
        line + 1,
        expected.lines().nth(line).unwrap_or("<end of file>"),
        actual.lines().nth(line).unwrap_or("<end of output>"),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_matching_file_passes_and_a_differing_one_names_the_line() {
        let dir = crate::Scratch::new("golden");
        let path = dir.path().join("x.out");
        std::fs::write(&path, "a\nb\n").unwrap();
        check(&path, "a\nb\n");
        let err = std::panic::catch_unwind(|| check(&path, "a\nc\n")).unwrap_err();
        let msg = err.downcast_ref::<String>().unwrap();
        assert!(msg.contains("differs at line 2"), "{msg}");
    }
}
