//! The system call tables against the two copies outside the kernel: the
//! README's support list and the guest libc's numbers (guest/libc/sysnr.h).

use std::path::Path;

use irix_kernel::syscalls::{self, syssgi};

fn repo_file(rel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const BEGIN: &str = "<!-- support summary: generated from the system call tables -->\n";
const END: &str = "<!-- end of support summary -->";

#[test]
fn readme_support_list_is_the_tables() {
    let readme = repo_file("README.md");
    let want = syscalls::support_summary();
    let got = readme
        .split_once(BEGIN)
        .and_then(|(_, rest)| rest.split_once(END))
        .map(|(block, _)| block.trim_start_matches('\n').trim_end())
        .unwrap_or_else(|| panic!("README.md lacks the block between {BEGIN:?} and {END:?}"));
    assert_eq!(
        got,
        want.trim_end(),
        "README.md's support list differs from the tables; put this between the markers:\n{want}"
    );
}

/// `(name, number)` of every `#define PREFIXname N` in the IRIX part of
/// sysnr.h (the part before the Linux branch).
fn defines(text: &str, prefix: &str) -> Vec<(String, u32)> {
    text.lines()
        .take_while(|l| !l.starts_with("#elif defined(GUEST_LINUX)"))
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            (w.next()? == "#define").then_some(())?;
            let name = w.next()?.strip_prefix(prefix)?;
            Some((name.to_string(), w.next()?.parse().ok()?))
        })
        .collect()
}

#[test]
fn guest_libc_system_call_numbers_match_the_kernel_table() {
    let header = repo_file("guest/libc/sysnr.h");
    let numbers = defines(&header, "SYS_");
    assert!(numbers.len() > 20, "parsed {numbers:?}");
    for (name, nr) in numbers {
        let row = syscalls::lookup(nr)
            .unwrap_or_else(|| panic!("sysnr.h: SYS_{name} = {nr} is not in the table"));
        assert_eq!(row.name, name, "sysnr.h: number {nr}");
    }
}

#[test]
fn guest_syssgi_requests_match_the_kernel_table() {
    let header = repo_file("guest/include/sys/profil.h");
    let requests = defines(&header, "SGI_");
    assert!(!requests.is_empty());
    for (name, nr) in requests {
        let row = syssgi::lookup(nr)
            .unwrap_or_else(|| panic!("profil.h: SGI_{name} = {nr} is not in the table"));
        assert_eq!(row.name, format!("SGI_{name}"));
    }
}
